"""Fight Cave state, settings and the layout of actions: one record per run (one player, 63 waves of monsters).

Static tables the kernels read (the cave map, its route and sight tables, the monster rows, the wave table and
rotation, the player's kit) are derived config fields filled by ``loadouts.fill_config``. Coordinates are the
local tiles of ``arena.py`` (region 9551's own).

Monster slots: ``MONSTER_SLOTS`` = 8, enough for every wave of every rotation (tests/encounters/fight_caves/
test_slots.py plays each): a wave holds at most 6 monsters (wave 58; waves.MAX_PER_WAVE); a dying Tz-Kek (Level
45) frees its slot for its first split and takes one more for the second, so 5 monsters with a Tz-Kek (or 4 with
two) reach 7 at most (waves 58 and 59: 6 then 7 alive); the last wave holds TzTok-Jad and at most 4 Yt-HurKot.
A monster that dies frees its slot at once: nothing in the cave brings one back.
"""

import numpy as np

from osrs_rl.core import click_move as CM
from osrs_rl.core import npc_slots as SLOTS
from osrs_rl.core.attack import MAX_HITSPLATS
from osrs_rl.core.bolts import CTX_LEN
from osrs_rl.core.combatant import COMBATANT_DTYPE, NPC_DTYPE
from osrs_rl.core.consumables import NUM_COLS as CONSUMABLE_COLS
from osrs_rl.core.consumables import load_consumables
from osrs_rl.core.events import EVF_ENCOUNTER, event_fields
from osrs_rl.core.line_of_sight import sight_table_shape
from osrs_rl.core.pending_hits import HIT_DTYPE
from osrs_rl.core.player import PLAYER_DTYPE
from osrs_rl.core.rng import RNG_DTYPE
from osrs_rl.core.skills import NUM_SKILLS
from osrs_rl.core.specials import SPEC_COLS
from osrs_rl.runtime.action_layout import check_numbered, head_index, option_index, option_start
from osrs_rl.runtime.name_index import name_index
from osrs_rl.runtime.shaping import coef_hitpoints_field, hitpoints_gamma_field
from osrs_rl.runtime.spec import ActionHead, ConfigField

from . import arena as A
from . import waves as W

# ---- sizes -----------------------------------------------------------------------------------
MONSTER_SLOTS = 8             # see the module docstring
HIT_CAPACITY = 16             # hits in flight: up to 8 monsters' attacks and the player's arrows, with room
EVENT_CAPACITY = 40           # a tick's events: 8 attacks and hits each, the player's, deaths, a wave's spawns

# ---- monster kinds (config kind_* tables; the names are osrs_rl/data/npcs.json's, as waves.py spells them) ------
K_KIH, K_KEK, K_KEK_SPLIT, K_XIL, K_MEJKOT, K_ZEK, K_JAD, K_HURKOT = range(8)
NUM_KINDS = 8
KIND_NAMES = ("tz_kih", "tz_kek", "tz_kek_split", "tok_xil", "yt_mejkot", "ket_zek", "jad", "yt_hurkot")
KIND_NPC = (W.TIER_NAMES[W.KIH], W.TIER_NAMES[W.KEK], W.SPLIT_NAME, W.TIER_NAMES[W.XIL], W.TIER_NAMES[W.MEJKOT],
            W.TIER_NAMES[W.ZEK], W.TIER_NAMES[W.JAD], W.HEALER_NAME)
TIER_KIND = (K_KIH, K_KEK, K_XIL, K_MEJKOT, K_ZEK, K_JAD)     # waves.KIH..JAD -> kind
MAX_KIND_SIZE = 5             # Ket-Zek and TzTok-Jad (arena.LARGEST_SIZE)

# ---- a monster slot's state ------------------------------------------------------------------
SLOT_FREE, SLOT_ALIVE = SLOTS.SLOT_FREE, SLOTS.SLOT_ALIVE     # core.npc_slots numbers them
TARGET_PLAYER = -1            # a monster's target: the player, or (a Yt-HurKot healing) its Jad's slot 0..7

MONSTER_DTYPE = np.dtype([
    ("state", np.uint8),          # SLOT_*
    ("kind", np.int8),            # K_*
    ("x", np.int16), ("y", np.int16),   # south-west tile
    ("hp", np.int16),
    ("attack_timer", np.int16),   # ticks until it may attack (or heal) again, counted down at the start of its turn
    ("stun", np.int16),           # ticks it can neither move nor attack (1 after spawning)
    ("target", np.int8),          # TARGET_PLAYER, or a healer's Jad slot until the player's hit lands on it
    ("had_los", np.uint8),        # it saw its target at the end of its last turn (core.npc_crowd)
    ("frozen", np.int16),         # ticks it cannot move (core.npc_crowd reads it; nothing in the cave freezes)
    # ---- TzTok-Jad (core.jad); 0 / -1 for every other kind
    ("scan", np.int8),            # the style of the attack its tell shows (pending-hit STYLE_*), -1: none
    ("windup", np.int8),          # ticks until that attack is released
    ("procced", np.uint8),        # its healers have come since it was last at full hitpoints
    ("parent", np.int8),          # a Yt-HurKot: its Jad's slot; -1: none
])

# ---- supplies (potion doses) and kits ------------------------------------------------------------
SUP_BREW, SUP_RESTORE = range(2)
SUPPLY_NAMES = ("brew", "restore")
SUPPLY_ITEMS = ("Saradomin brew", "Super restore")          # osrs_rl/data/consumables.json
SUPPLY_SETTINGS = ("brews", "restores")                     # the config fields of their doses
NUM_SUPPLIES = 2
KIT_PEER, KIT_REALISTIC = range(2)
KIT_NAMES = ("peer", "realistic")
NUM_KITS = 2

# ---- action heads (option 0 of each is the no-op) ----------------------------------------------------
# declared once, here: the mechanics read an agent's action row by these names, the mask writes them (view.py)
# and the policy, replays and viewer show their labels. move: click-to-move (core.click_move, its layout and
# rules), stored as (dest_x, dest_y, dest_run) and followed along the game's route (cfg.route) every tick.
# The route table covers every offset a route to a legal click can reach: on the cave's map the longest route to
# a click within MOVE_RADIUS takes ROUTE_RADIUS steps (around the rocks and lava; core.click_move.route_tables
# checks it when the config is built).
ROUTE_RADIUS = 8
ROUTE_SIDE = 2 * ROUTE_RADIUS + 1
_SLOTS = tuple(f"slot_{k}" for k in range(MONSTER_SLOTS))
HEADS = (
    ActionHead("move", CM.NUM_MOVES, CM.MOVE_LABELS),
    ActionHead("attack", 1 + MONSTER_SLOTS, ("none",) + _SLOTS),             # slot_k: monster slot k
    # the prayers are held, not toggled: an option is the prayer wanted on this tick (core.player_input
    # hold_overhead), kept up by the game's 1-tick flick (clicked off and on within the tick: no drain)
    ActionHead("overhead", 4, ("none", "magic", "missiles", "melee")),
    ActionHead("offensive", 2, ("off", "on")),             # on: the kit's offensive prayer (Rigour)
    ActionHead("drink", 1 + NUM_SUPPLIES, ("none",) + SUPPLY_NAMES),          # a dose of SUP_*
)
HEAD = head_index("HEAD", HEADS)
OVERHEAD = option_index("OVERHEAD", HEADS[HEAD.overhead])
OFFENSIVE = option_index("OFFENSIVE", HEADS[HEAD.offensive])
DRINK = option_index("DRINK", HEADS[HEAD.drink])
ATTACK_NONE = option_start(HEADS[HEAD.attack], ("none",))
ATTACK_SLOT_0 = option_start(HEADS[HEAD.attack], _SLOTS, MONSTER_SLOTS)
DRINK_SUPPLY_0 = option_start(HEADS[HEAD.drink], SUPPLY_NAMES, NUM_SUPPLIES)   # + SUP_*: a dose of that supply
if option_start(HEADS[HEAD.move], CM.WALK_LABELS, CM.NUM_CLICKS) != CM.WALK_0:
    raise ValueError("the move head's options are not core.click_move's MOVE_LABELS in order")
check_numbered(HEADS[HEAD.drink], DRINK_SUPPLY_0, {"brew": SUP_BREW, "restore": SUP_RESTORE})
HEAD_SIZES = tuple(h.size for h in HEADS)

# ---- outcome, reward, phases -----------------------------------------------------------------------------
OUTCOME_NONE, OUTCOME_CLEARED, OUTCOME_DEATH, OUTCOME_TIMEOUT = range(4)
REWARD_TERMS = ("outcome", "wave", "damage_dealt", "damage_taken", "prayer", "hitpoints", "prayer_points")
REWARD = name_index("REWARD", REWARD_TERMS)
NUM_REWARD_TERMS = len(REWARD_TERMS)
# start-wave bands of the curriculum and the phases of the fight (metrics per phase), in fight order
BANDS = ((1, 15), (16, 30), (31, 46), (47, 62), (63, 63))
NUM_BANDS = len(BANDS)
PHASE_NAMES = ("waves_1_15", "waves_16_30", "waves_31_46", "waves_47_62", "jad")
NUM_PHASES = len(PHASE_NAMES)

# ---- hit targets and the event buffer's entity ids: 0 the player, 1 + k monster slot k ---------------------
HT_PLAYER, HT_MONSTER = 0, 1
ENT_PLAYER, ENT_MONSTER = HT_PLAYER, HT_MONSTER
LAST_ENTITY = ENT_MONSTER + MONSTER_SLOTS - 1
EVF_WAVE = EVF_ENCOUNTER                 # an EV_SPAWN that starts a wave (amount: the wave)

STATE_DTYPE = np.dtype([
    ("tick", np.int32),
    ("rng", *RNG_DTYPE),
    # ---- the player: core bookkeeping record, supplies, the live combat record, the stored click
    ("p", PLAYER_DTYPE),
    ("supplies", np.int16, (NUM_SUPPLIES,)),
    ("combat", COMBATANT_DTYPE, (1,)),           # scratch: the live combat record (levels, prayers)
    ("dest_x", np.int16), ("dest_y", np.int16),  # the clicked tile being walked to (-1, -1: none)
    ("dest_run", np.uint8),
    # ---- the waves
    ("wave", np.int16),                          # the wave being fought (or about to spawn)
    ("rotation", np.int8),                       # r of waves.py: the spawn cycle's offset, drawn at the start
    ("wave_tick", np.int32),                     # ticks since the wave spawned
    ("next_wave_in", np.int16),                  # > 0: the wave is cleared and the next spawns in this many ticks
    ("monsters", MONSTER_DTYPE, (MONSTER_SLOTS,)),
    # ---- the hit queue
    ("hits", HIT_DTYPE, (HIT_CAPACITY,)),
    ("landing", np.int64, (HIT_CAPACITY,)),      # scratch: slots of the hits landing now
    ("splats", np.int64, (MAX_HITSPLATS,)),      # scratch: hitsplats of the attack being resolved
    # ---- episode tallies (metrics and reward)
    ("outcome", np.int8),
    ("start_wave_drawn", np.int16),              # the wave this run started on (curriculum draw)
    ("waves_cleared", np.int16),
    ("damage_dealt", np.int32),
    ("damage_taken", np.int32, (NUM_KINDS,)),    # by the kind of the monster that dealt it
    ("taken_style", np.int32, (4,)),             # by pending-hit STYLE_*
    ("killer", np.int8),                         # the kind whose hit took the player to 0 (-1: none)
    ("monster_attacks", np.int32),               # attacks on the player
    ("prayed_attacks", np.int32),                # ... that met the matching overhead
    ("prayer_drained", np.int32),                # prayer points the Tz-Kih drained
    ("supplies_used", np.int16, (NUM_SUPPLIES,)),
    ("kills", np.int16, (NUM_KINDS,)),
    ("healers_tagged", np.int16),                # Yt-HurKot drawn off their Jad by a hit
    ("healed", np.int32),                        # hitpoints Yt-MejKot and Yt-HurKot gave back
    ("reward_sums", np.float32, (1, NUM_REWARD_TERMS)),   # this run's reward by term (the runtime's)
    # ---- what the last tick did: its reward by term, its events; and who threw each hit in flight
    ("reward_terms", np.float32, (1, NUM_REWARD_TERMS)),
    *event_fields(EVENT_CAPACITY),
    ("hit_source", np.int16, (HIT_CAPACITY,)),
    ("hit_flags", np.uint16, (HIT_CAPACITY,)),
])

_CONSUMABLES = load_consumables()
NUM_CONSUMABLES = _CONSUMABLES.table.shape[0]

CONFIG_FIELDS = (
    ConfigField("kit", np.int32, KIT_PEER, 0, NUM_KITS - 1,
                "the player's kit (loadouts.KITS): peer = PufferLib PR 689's twisted bow and Masori, no supplies; "
                "realistic = a rune crossbow in black d'hide with brews and super restores",
                choices=tuple((k, n) for k, n in enumerate(KIT_NAMES))),
    ConfigField("brews", np.int32, -1, -1, 200, "Saradomin brew doses (4 a potion); -1: the kit's (peer 0, "
                "realistic 40); the kit must fit 28 slots"),
    ConfigField("restores", np.int32, -1, -1, 200, "Super restore doses (4 a potion); -1: the kit's (peer 0, "
                "realistic 72)"),
    ConfigField("start_wave", np.int32, 1, 1, W.NUM_WAVES, "the wave the run starts at (curriculum)"),
    *(ConfigField(f"band_weight_{k + 1}", np.float32, 0.0, 0.0, 1000.0,
                  f"curriculum: weight of starting in waves {lo}-{hi} (a wave drawn uniformly in the band); all 0: "
                  "start_wave") for k, (lo, hi) in enumerate(BANDS)),
    ConfigField("max_ticks", np.int32, 20_000, 10, 1_000_000, "runs are truncated after this many ticks"),
    ConfigField("wave_tick_limit", np.int32, 0, 0, 1_000_000,
                "training, not a rule (the cave has no timer): a wave still open this many ticks after it spawned "
                "ends the run as a timeout, terminated, so its timeout_reward is felt where a truncation would be "
                "bootstrapped; 0: off"),
    ConfigField("cleared_reward", np.float32, 1.0, -100.0, 100.0, "reward for killing TzTok-Jad (the cave done)"),
    ConfigField("death_reward", np.float32, -1.0, -100.0, 100.0),
    ConfigField("timeout_reward", np.float32, 0.0, -100.0, 100.0, "reward for reaching max_ticks"),
    ConfigField("coef_wave", np.float32, 0.0, -10.0, 10.0, "shaping: reward per wave cleared"),
    ConfigField("coef_damage_dealt", np.float32, 0.0, -10.0, 10.0,
                "shaping: reward per hitpoint dealt to monsters, scaled by 1/100"),
    ConfigField("coef_damage_taken", np.float32, 0.0, -10.0, 10.0,
                "shaping: penalty per hitpoint taken, scaled by 1/99"),
    ConfigField("coef_prayer", np.float32, 0.0, -10.0, 10.0,
                "shaping: + per monster attack met by the right overhead, - per one that was not"),
    ConfigField("coef_prayer_missed", np.float32, 0.0, -10.0, 10.0,
                "shaping: penalty per monster attack the right overhead did not meet (in the prayer term); unlike "
                "coef_prayer nothing is paid for an attack met, so a long fight pays nothing"),
    coef_hitpoints_field("by death or TzTok-Jad's"),
    hitpoints_gamma_field(),
    ConfigField("coef_prayer_points", np.float32, 0.0, -10.0, 10.0,
                "shaping: potential-based on the player's prayer points / 99, as coef_hitpoints on its hitpoints "
                "(discounted by hitpoints_gamma, 0 once the run ends): a point drained costs on the tick it goes, "
                "a restore pays back, and a run's discounted sum is minus its first points / 99 whatever it does; "
                "with no restores (the peer kit) the points are the fight's budget, spent thousands of ticks "
                "before they run out"),
    # ---- where the sources disagree (README "Open questions")
    ConfigField("mejkot_heal_max", np.int32, 10, 0, 100,
                "a Yt-MejKot's heal: 1..this (Zenyte, Kronos: 1-10; VOID, PR 689: 10)"),
    ConfigField("healer_heal_max", np.int32, 10, 0, 100,
                "a Yt-HurKot's heal on TzTok-Jad every 4 ticks: 1..this (Zenyte, Kronos: 1-10)"),
    # ---- derived: the cave (loadouts.fill_config)
    ConfigField("flags", np.uint16, shape=(A.GRID_W, A.GRID_H), derived=True),     # arena.flags()
    ConfigField("route", np.uint8, shape=(A.GRID_W, A.GRID_H, ROUTE_SIDE * ROUTE_SIDE), derived=True),
    ConfigField("sight", np.uint64, shape=sight_table_shape(A.GRID_W, A.GRID_H), derived=True),
    ConfigField("spawn_xy", np.int16, shape=(A.NUM_AREAS, 2), derived=True),
    ConfigField("start_xy", np.int16, shape=(2,), derived=True),
    ConfigField("cycle", np.int8, shape=(W.NUM_ROTATIONS,), derived=True),
    ConfigField("wave_kinds", np.int8, shape=(W.NUM_WAVES + 1, W.MAX_PER_WAVE), derived=True),   # K_*, -1
    ConfigField("wave_size", np.int8, shape=(W.NUM_WAVES + 1,), derived=True),
    ConfigField("band_cumulative", np.float64, shape=(NUM_BANDS,), derived=True),   # 0s: start_wave
    # ---- derived: the monsters
    ConfigField("kind_row", NPC_DTYPE, shape=(NUM_KINDS,), derived=True),
    ConfigField("kind_size", np.int8, shape=(NUM_KINDS,), derived=True),
    ConfigField("kind_range", np.int8, shape=(NUM_KINDS,), derived=True),
    ConfigField("kind_speed", np.int8, shape=(NUM_KINDS,), derived=True),
    ConfigField("kind_style", np.int8, shape=(NUM_KINDS,), derived=True),     # STYLE_* of its usual attack
    ConfigField("kind_melee", np.int8, shape=(NUM_KINDS,), derived=True),     # 1: may melee when adjacent
    ConfigField("kind_max", np.int16, shape=(NUM_KINDS, 3), derived=True),    # max hit by STYLE_* (-1: none)
    # ---- derived: the player's kit (loadouts.KITS[kit])
    ConfigField("levels", np.int16, shape=(NUM_SKILLS,), derived=True),
    ConfigField("gear_combat", COMBATANT_DTYPE, derived=True),
    ConfigField("gear_row", np.int64, shape=(SPEC_COLS,), derived=True),
    ConfigField("gear_worn", np.int16, shape=(11,), derived=True),
    ConfigField("gear_range", np.int8, derived=True),
    ConfigField("gear_proj", np.int8, derived=True),
    ConfigField("gear_prayer_bonus", np.int16, derived=True),
    ConfigField("offensive", np.uint32, derived=True),                # the kit's offensive prayer (Rigour)
    ConfigField("supply_start", np.int16, shape=(NUM_SUPPLIES,), derived=True),   # doses at the start
    ConfigField("supply_consumable", np.int32, shape=(NUM_SUPPLIES,), derived=True),
    ConfigField("consumables", np.int32, shape=(NUM_CONSUMABLES, CONSUMABLE_COLS), derived=True),
    ConfigField("bolt_ctx", np.int64, shape=(CTX_LEN,), derived=True),
)
