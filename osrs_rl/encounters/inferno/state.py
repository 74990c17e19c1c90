"""Inferno state, settings and the layout of actions: one record per run (one player, waves of monsters).

Static tables the kernels read (the map for each set of standing pillars, the legal moves on each, the
monster rows, the wave table, the player's loadout) are derived config fields filled by
``loadouts.fill_config``. Coordinates are local tiles of ``arena.py``.

Monster slots: ``MONSTER_SLOTS`` = 16 fixed slots, enough for every wave of the game:
  * waves 1-66: the fullest is wave 63 (3 nibblers, 2 blobs, meleer, ranger, mager = 8) whose blobs split
    into 6 bloblets (a dead monster keeps its slot for the mager's resurrection): 14; wave 62 = 9 + 3 = 12;
  * wave 68: three Jads with 3 healers each = 12; wave 67: a Jad and 5 healers = 6;
  * wave 69: Zuk, his shield, three uncleared ranger/mager sets (6), the Jad, its 3 healers and the 4 Zuk
    healers = 16.
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
from osrs_rl.core.pending_hits import HIT_DTYPE, HIT_LANDED, STYLE_TYPELESS
from osrs_rl.core.player import PLAYER_DTYPE
from osrs_rl.core.rng import RNG_DTYPE
from osrs_rl.core.skills import NUM_SKILLS
from osrs_rl.core.specials import SPEC_COLS
from osrs_rl.runtime.action_layout import check_numbered, head_index, option_index, option_start
from osrs_rl.runtime.bounds import Bound, event_bounds
from osrs_rl.runtime.name_index import name_index
from osrs_rl.runtime.shaping import coef_hitpoints_field, hitpoints_gamma_field
from osrs_rl.runtime.spec import ActionHead, ConfigField

from . import arena as A
from . import waves as W

# ---- sizes -----------------------------------------------------------------------------------
MONSTER_SLOTS = 16            # see the module docstring
HIT_CAPACITY = 32             # hits in flight: the player's arrows and up to 16 monsters' attacks, twice over
EVENT_CAPACITY = 64           # a tick's events: 16 monsters' attacks and hits, the player's, spawns, deaths

# ---- monster kinds (config kind_row / kind_* tables; the names are osrs_rl/data/npcs.json's) ------------
(K_NIBBLER, K_BAT, K_BLOB, K_BLOBLET_MAGIC, K_BLOBLET_RANGED, K_BLOBLET_MELEE, K_MELEER, K_RANGER, K_MAGER,
 K_JAD, K_JAD_HEALER, K_ZUK, K_SHIELD, K_ZUK_HEALER) = range(14)
NUM_KINDS = 14
KIND_NAMES = ("nibbler", "bat", "blob", "bloblet_magic", "bloblet_ranged", "bloblet_melee", "meleer", "ranger",
              "mager", "jad", "jad_healer", "zuk", "shield", "zuk_healer")
KIND_NPC = ("Jal-Nib", "Jal-MejRah", "Jal-Ak", "Jal-AkRek-Mej", "Jal-AkRek-Xil", "Jal-AkRek-Ket", "Jal-ImKot",
            "Jal-Xil", "Jal-Zek", "JalTok-Jad", "Yt-HurKot (Level 141)", "TzKal-Zuk (Normal)", "Ancestral Glyph",
            "Jal-MejJak")
# the wave table's columns (waves.WAVE_COLUMNS) as kinds
WAVE_KIND = (K_NIBBLER, K_BAT, K_BLOB, K_MELEER, K_RANGER, K_MAGER)
# spawn-tile assignment order [M: InfernoTrainer InfernoWaves.spawn]: magers, rangers, meleers, blobs, bats
SPAWN_ORDER = (W.MAGER, W.RANGER, W.MELEER, W.BLOB, W.BAT)
MAX_KIND_SIZE = 7             # Zuk
# kinds that take no step of their own: Zuk and his healers stand still (InfernoTrainer TzKalZuk.ts,
# JalMejJak.ts canMove false), the glyph follows its own track (finale.glyph_turn)

# ---- a monster slot's state ------------------------------------------------------------------
SLOT_FREE, SLOT_ALIVE, SLOT_DEAD = range(3)    # DEAD: died this wave, keeps its slot (a mager may revive it)
if (SLOT_FREE, SLOT_ALIVE) != (SLOTS.SLOT_FREE, SLOTS.SLOT_ALIVE):  # the shared kernels' (core.npc_slots)
    raise ValueError("the Inferno's slot states must start with core.npc_slots' SLOT_FREE, SLOT_ALIVE")
TARGET_PLAYER = -1                             # a monster's target: the player, or pillar 0..2,
TARGET_SHIELD = 3                              # the Ancestral Glyph (Zuk's sets and Jad, until drawn),
TARGET_SLOT = 4                                # or monster slot target - TARGET_SLOT (a healer's Jad or Zuk)
# what a monster is visibly doing (its last animation while its timer runs; ``activity``)
ACT_NONE, ACT_ATTACK, ACT_SCAN, ACT_DIG, ACT_REVIVE = range(5)
NUM_ACTIVITIES = 5
SCAN_UNKNOWN = STYLE_TYPELESS   # monsters.scan of a blob that read neither protection: its style is drawn at the attack
ACTIVITY_NAMES = ("none", "attacking", "scanning", "digging", "resurrecting")
NO_HURT = -1_000_000                           # ``hurt_tick`` of a monster the player never hit

MONSTER_DTYPE = np.dtype([
    ("state", np.uint8),          # SLOT_*
    ("kind", np.int8),            # K_*
    ("x", np.int16), ("y", np.int16),   # south-west tile
    ("hp", np.int16),
    ("attack_timer", np.int16),   # ticks until it may attack again (counted down at the start of its turn)
    ("stun", np.int16),           # ticks it can neither move nor attack (1 after spawning)
    ("target", np.int8),          # TARGET_PLAYER or a pillar index (nibblers)
    ("scan", np.int8),            # blob: style its next attack will use (pending-hit STYLE_*), -1: no scan,
                                  # SCAN_UNKNOWN: scanned with neither overhead, the 50/50 drawn when it fires
    ("had_los", np.uint8),        # it had line of sight at the end of its last turn (blob: a new sight scans)
    ("revived", np.uint8),        # 1: a mager brought it back this wave (never twice)
    # ---- Jal-ImKot's dig (kinds.meleer_dig); 0 for every other kind
    ("dig_timer", np.int16),      # dig_rule 0: ticks its attack was ready without it attacking; 1: since spawn/last dig
    ("dig_due", np.int16),        # dig_rule 1: dig_timer at which it digs next (50, then 40..60)
    ("dig_left", np.int16),       # > 0: underground, resurfaces when it reaches 0
    ("dig_x", np.int16), ("dig_y", np.int16),   # the south-west tile it resurfaces on
    ("hurt_tick", np.int32),      # the last tick one of the player's hits landed on it (NO_HURT: never)
    ("frozen", np.int16),         # ticks it cannot move (Ice Barrage, resurfacing); it may still attack
    ("activity", np.uint8),       # ACT_*: what it last started (shown while its attack timer runs)
    # ---- the finale (waves 67-69; finale.py); 0 / -1 for every other kind
    ("windup", np.int8),          # Jad: ticks until the attack it shows (``scan``: its style) is released
    ("parent", np.int8),          # a healer: the slot of the Jad (or Zuk) it belongs to, -1: none
    ("procced", np.uint8),        # Jad: its healers have come (below half hitpoints; once)
    ("low_hp", np.int16),         # lowest hitpoints it has had (the low-watermark reward reads it)
    ("split_due", np.int32),      # a dead blob: the tick its bloblets appear (0: none pending; hits.kill_monster)
])

# ---- supplies (potion doses) -----------------------------------------------------------------
SUP_BREW, SUP_RESTORE, SUP_BASTION, SUP_STAMINA = range(4)
SUPPLY_NAMES = ("brew", "restore", "bastion", "stamina")
SUPPLY_ITEMS = ("Saradomin brew", "Super restore", "Bastion potion", "Stamina potion")   # osrs_rl/data/consumables.json
SUPPLY_SETTINGS = {"brew": "brews", "restore": "restores", "bastion": "bastions", "stamina": "staminas"}  # doses
NUM_SUPPLIES = 4

# ---- the player's gear sets (loadouts.LOADOUTS: one row of three sets per ``loadout``) ----------------
SET_BOW, SET_BLOWPIPE, SET_MAGIC = range(3)    # the main ranged weapon, the blowpipe (its special), Ice Barrage
SET_NAMES = ("bow", "blowpipe", "magic")
NUM_SETS = 3
NUM_LOADOUTS = 2

# ---- action heads (option 0 of each is the no-op) ----------------------------------------------------
# declared once, here: the mechanics read an agent's action row by these names (a[HEAD.overhead] ==
# OVERHEAD.magic), the mask writes them (view.py) and the policy, replays and viewer show their labels, so an
# option's label is what the rules do with it wherever it sits. gear and spec came later (part 2) and are
# appended, so the first five keep their indices and sizes.
# move: click-to-move (core.click_move, its layout and rules: "none", "walk_<dx>_<dy>", "run_<dx>_<dy>" within
# MOVE_RADIUS). The click is stored (dest_x, dest_y, dest_run) and followed every tick along the game's route
# (cfg.route) until the player stands on it.
MOVE_RADIUS, NUM_CLICKS, NUM_MOVES = CM.MOVE_RADIUS, CM.NUM_CLICKS, CM.NUM_MOVES
# The route table covers every offset a route can reach: on the arena's maps the longest route to a click
# within MOVE_RADIUS is 6 steps (around a pillar; loadouts.arena_tables checks it), and a tile on a route is
# never further (Chebyshev) from the destination than the steps left, which a collapse only shortens.
ROUTE_RADIUS = 6
ROUTE_SIDE = 2 * ROUTE_RADIUS + 1
_SLOTS = tuple(f"slot_{k}" for k in range(MONSTER_SLOTS))
HEADS = (
    ActionHead("move", NUM_MOVES, CM.MOVE_LABELS),
    ActionHead("attack", 1 + MONSTER_SLOTS, ("none",) + _SLOTS),             # slot_k: monster slot k
    ActionHead("overhead", 5, ("keep", "magic", "missiles", "melee", "off")),
    ActionHead("offensive", 3, ("keep", "on", "off")),     # on: the worn set's prayer (Rigour or Augury)
    ActionHead("drink", 1 + NUM_SUPPLIES, ("none",) + SUPPLY_NAMES),          # a dose of SUP_*
    ActionHead("gear", 1 + NUM_SETS, ("keep",) + SET_NAMES),                  # put on SET_*
    ActionHead("spec", 2, ("none", "use")),    # use: this tick's attack is the worn weapon's special (the blowpipe's)
)
HEAD = head_index("HEAD", HEADS)               # HEAD.gear: the gear head's element of an action row
OVERHEAD = option_index("OVERHEAD", HEADS[HEAD.overhead])   # OVERHEAD.magic: that option's number in its head
OFFENSIVE = option_index("OFFENSIVE", HEADS[HEAD.offensive])
DRINK = option_index("DRINK", HEADS[HEAD.drink])
GEAR = option_index("GEAR", HEADS[HEAD.gear])
SPEC = option_index("SPEC", HEADS[HEAD.spec])
# the numbered families a loop writes (option WALK_0 + o is MOVE_OFFSETS[o]'s walk, ATTACK_SLOT_0 + k slot k's)
MOVE_NONE = option_start(HEADS[HEAD.move], ("none",))
WALK_0 = option_start(HEADS[HEAD.move], CM.WALK_LABELS, NUM_CLICKS)
RUN_0 = option_start(HEADS[HEAD.move], CM.RUN_LABELS, NUM_CLICKS)
if (MOVE_NONE, WALK_0, RUN_0) != (CM.MOVE_NONE, CM.WALK_0, CM.RUN_0):      # core.click_move numbers them so
    raise ValueError("the move head's options are not core.click_move's MOVE_LABELS in order")
ATTACK_NONE = option_start(HEADS[HEAD.attack], ("none",))
ATTACK_SLOT_0 = option_start(HEADS[HEAD.attack], _SLOTS, MONSTER_SLOTS)
DRINK_SUPPLY_0 = option_start(HEADS[HEAD.drink], SUPPLY_NAMES, NUM_SUPPLIES)   # + SUP_*: a dose of that supply
GEAR_SET_0 = option_start(HEADS[HEAD.gear], SET_NAMES, NUM_SETS)               # + SET_*: put that set on


# the mechanics drink supply SUP_X at option DRINK_SUPPLY_0 + SUP_X and wear set SET_X at GEAR_SET_0 + SET_X
check_numbered(HEADS[HEAD.drink], DRINK_SUPPLY_0, {"brew": SUP_BREW, "restore": SUP_RESTORE, "bastion": SUP_BASTION,
                                                   "stamina": SUP_STAMINA})
check_numbered(HEADS[HEAD.gear], GEAR_SET_0, {"bow": SET_BOW, "blowpipe": SET_BLOWPIPE, "magic": SET_MAGIC})
# the names other modules and tests use, bound by name
H_MOVE, H_ATTACK, H_OVERHEAD = HEAD.move, HEAD.attack, HEAD.overhead
H_OFFENSIVE, H_DRINK, H_GEAR, H_SPEC = HEAD.offensive, HEAD.drink, HEAD.gear, HEAD.spec
OVERHEAD_KEEP, OVERHEAD_MAGIC, OVERHEAD_MISSILES = OVERHEAD.keep, OVERHEAD.magic, OVERHEAD.missiles
OVERHEAD_MELEE, OVERHEAD_OFF = OVERHEAD.melee, OVERHEAD.off
OFFENSIVE_KEEP, OFFENSIVE_ON, OFFENSIVE_OFF = OFFENSIVE.keep, OFFENSIVE.on, OFFENSIVE.off
DRINK_NONE = DRINK.none
GEAR_KEEP = GEAR.keep
SPEC_NONE, SPEC_USE = SPEC.none, SPEC.use
HEAD_SIZES = tuple(h.size for h in HEADS)
MASK_SIZE = sum(HEAD_SIZES)

# ---- outcome and reward --------------------------------------------------------------------------
OUTCOME_NONE, OUTCOME_CLEARED, OUTCOME_DEATH, OUTCOME_TIMEOUT = range(4)
REWARD_TERMS = ("outcome", "wave", "damage_dealt", "damage_taken", "prayer", "kill", "supplies", "pillar",
                "hitpoints", "zuk_damage", "jad_damage", "healer_tag", "glyph")
REWARD = name_index("REWARD", REWARD_TERMS)   # each term's column, by name (reordering the names moves it)
R_OUTCOME, R_WAVE, R_DEALT, R_TAKEN = REWARD.outcome, REWARD.wave, REWARD.damage_dealt, REWARD.damage_taken
R_PRAYER, R_KILL, R_SUPPLIES, R_PILLAR = REWARD.prayer, REWARD.kill, REWARD.supplies, REWARD.pillar
R_HITPOINTS, R_ZUK, R_JAD = REWARD.hitpoints, REWARD.zuk_damage, REWARD.jad_damage
R_HEALER_TAG, R_GLYPH = REWARD.healer_tag, REWARD.glyph
PENALTY_TERMS = (R_TAKEN, R_PRAYER, R_SUPPLIES, R_PILLAR)   # the per-tick penalties ``penalty_cap`` bounds
NUM_BANDS = 7                  # start-wave bands of the curriculum
BANDS = ((1, 17), (18, 34), (35, 49), (50, 66), (67, 67), (68, 68), (69, 69))
# phases of the fight (metrics per phase, view.phase): the four bands of waves 1-66, the Jad waves, then the
# Zuk wave by the furthest milestone reached (a set spawned, Zuk's Jad spawned, his healers spawned, all
# healers dead, Zuk below ``low_hp_phase``)
(PH_WAVES_1, PH_WAVES_18, PH_WAVES_35, PH_WAVES_50, PH_WAVE_67, PH_WAVE_68, PH_ZUK_BEFORE_SETS, PH_ZUK_SETS,
 PH_ZUK_JAD, PH_ZUK_HEALERS, PH_ZUK_AFTER_HEALERS, PH_ZUK_LOW_HP) = range(12)
PHASE_NAMES = ("waves_1_17", "waves_18_34", "waves_35_49", "waves_50_66", "wave_67", "wave_68",
               "zuk_before_sets", "zuk_sets", "zuk_jad", "zuk_healers", "zuk_after_healers", "zuk_low_hp")
NUM_PHASES = len(PHASE_NAMES)
NUM_REWARD_TERMS = len(REWARD_TERMS)

# ---- hit targets and the event buffer's entity ids --------------------------------------------
# a hit's target: 0 the player, 1 + k monster slot k, 1 + MONSTER_SLOTS + p pillar p
HT_PLAYER = 0
HT_MONSTER = 1
HT_PILLAR = 1 + MONSTER_SLOTS
LAST_HIT_TARGET = HT_PILLAR + A.NUM_PILLARS - 1
# events: 0 the player, 1 + k monster slot k, 1 + MONSTER_SLOTS + p pillar p (the same numbering)
ENT_PLAYER, ENT_MONSTER, ENT_PILLAR = HT_PLAYER, HT_MONSTER, HT_PILLAR
LAST_ENTITY = LAST_HIT_TARGET
EVF_WAVE = EVF_ENCOUNTER                 # an EV_SPAWN that starts a wave (amount: the wave)
EVF_PILLAR_HIT = EVF_ENCOUNTER << 1      # an attack on the player that a pillar took
EVF_DIG = EVF_ENCOUNTER << 2             # a meleer's EV_DEATH (it burrows) or EV_SPAWN (it resurfaces)
EVF_REVIVED = EVF_ENCOUNTER << 3         # an EV_SPAWN of a monster a mager revived (target: the mager)

SPARK_CAPACITY = 12           # lava sparks in flight: 4 Zuk healers x 3, thrown every 3 ticks, landing 2 later
SPARK_DTYPE = np.dtype([("due_tick", np.int32), ("x", np.int16), ("y", np.int16), ("damage", np.int16),
                        ("source", np.int8)])      # due_tick 0: a free entry; source: the healer's slot

WAVE_GAP_TICKS = 9             # a wave cleared -> the next spawns 9 ticks later [M: InfernoTrainer
                               # InfernoRegion.ts waveCompleteTimer = 9]

STATE_DTYPE = np.dtype([
    ("tick", np.int32),
    ("rng", *RNG_DTYPE),
    # ---- the player: core bookkeeping record, supplies, the live combat record
    ("p", PLAYER_DTYPE),
    ("supplies", np.int16, (NUM_SUPPLIES,)),
    ("combat", COMBATANT_DTYPE, (1,)),           # scratch: the live combat record (levels, prayers)
    ("gear_set", np.int8),                       # SET_*: the set worn (p.equipment holds its items)
    ("dest_x", np.int16), ("dest_y", np.int16),  # the clicked tile being walked to (-1, -1: none)
    ("dest_run", np.uint8),                      # 1: the click was a run (2 tiles a tick while energy lasts)
    # ---- the waves
    ("wave", np.int16),                          # the wave being fought (or about to spawn)
    ("wave_tick", np.int32),                     # ticks since the wave spawned
    ("next_wave_in", np.int16),                  # > 0: the wave is cleared and the next spawns in this many ticks
    # ---- monsters and pillars
    ("monsters", MONSTER_DTYPE, (MONSTER_SLOTS,)),
    ("pillar_hp", np.int16, (A.NUM_PILLARS,)),   # 0: collapsed
    # ---- the Zuk wave (finale.py): the set timer, the glyph, the sparks
    ("set_timer", np.int16),                     # Zuk's turns until the next ranger-mager set
    ("set_paused", np.uint8),                    # the timer stopped (Zuk below 600 until below 480)
    ("set_has_paused", np.uint8),                # it has stopped once (never again)
    ("zuk_jad", np.uint8),                       # Zuk's Jad has come (below 480)
    ("enraged", np.uint8),                       # Zuk's healers have come (below 240): he attacks every 7
    ("shield_dir", np.int8),                     # the glyph's direction: +1 east, -1 west
    ("sparks", SPARK_DTYPE, (SPARK_CAPACITY,)),
    # ---- the hit queue
    ("hits", HIT_DTYPE, (HIT_CAPACITY,)),
    ("landing", np.int64, (HIT_CAPACITY,)),      # scratch: slots of the hits landing now
    ("splats", np.int64, (MAX_HITSPLATS,)),      # scratch: hitsplats of the attack being resolved
    # ---- episode tallies (metrics and reward)
    ("outcome", np.int8),
    ("waves_cleared", np.int16),
    ("damage_dealt", np.int32),
    ("damage_taken", np.int32, (NUM_KINDS,)),    # by the kind of the monster that dealt it
    ("taken_style", np.int32, (4,)),             # by pending-hit STYLE_* (melee, ranged, magic, typeless)
    ("start_wave_drawn", np.int16),              # the wave this run started on (curriculum draw)
    ("monster_attacks", np.int32),               # attacks on the player (a scan is not an attack)
    ("prayed_attacks", np.int32),                # ... that met the matching overhead
    ("supplies_used", np.int16, (NUM_SUPPLIES,)),
    ("kills", np.int16, (NUM_KINDS,)),
    ("pillar_damage", np.int32),                 # damage the pillars took (nibblers, blocked attacks)
    ("collapse_damage", np.int32),               # damage collapsing pillars dealt the player
    ("resurrections", np.int16),                 # monsters a mager brought back
    ("digs", np.int16),                          # Jal-ImKot digs started
    ("specs_used", np.int16),                    # special attacks made (the blowpipe's Toxic Siphon)
    ("spec_healed", np.int32),                   # hitpoints they healed
    ("freezes", np.int32),                       # monsters an Ice Barrage froze
    ("barrage_hits", np.int32),                  # monsters a barrage hit besides its target
    ("sets_spawned", np.int16),                  # ranger-mager sets Zuk has sent
    ("healers_tagged", np.int16),                # healers (Jad's or Zuk's) drawn off their healing by a hit
    ("healers_killed", np.int16),
    ("healing_ticks", np.int32),                 # healer turns spent healing
    ("healed", np.int32),                        # hitpoints healers gave back to Jad or Zuk
    ("sheltered_attacks", np.int32),             # Zuk attacks the glyph took for the player
    ("sheltered_ticks", np.int32),               # ticks of the Zuk wave the player stood sheltered
    ("zuk_attacks", np.int32),                   # Zuk attacks on the player (unsheltered)
    ("zuk_low", np.int16),                       # Zuk's lowest hitpoints this run (1200 until he is hit)
    ("player_low", np.int16),                    # the player's lowest hitpoints this run
    ("zuk_start", np.int16),                     # Zuk's hitpoints when the run reached wave 69 (0: never)
    ("killer", np.int8),                         # the kind that dealt the killing blow (-1: none or a collapse)
    ("penalty_paid", np.float32),                # the penalty terms' total so far (``penalty_cap``)
    ("jad_low_dealt", np.int32),                 # damage that took a Jad to a new low of its hitpoints
    ("no_target_ticks", np.int32),               # ticks the attack was ready, monsters alive, none attackable
    ("no_prayer_ticks", np.int32),               # ticks at 0 prayer with monsters alive (no overhead possible)
    ("reward_sums", np.float32, (1, NUM_REWARD_TERMS)),   # this run's reward by term (the runtime's)
    # ---- what the last tick did: its reward by term, its events; and who threw each hit in flight
    ("reward_terms", np.float32, (1, NUM_REWARD_TERMS)),
    *event_fields(EVENT_CAPACITY),
    ("hit_source", np.int16, (HIT_CAPACITY,)),   # entity id of the attacker of the hit in each queue slot
    ("hit_flags", np.uint16, (HIT_CAPACITY,)),   # core.events.EVF_* of the hit in each queue slot
])

_CONSUMABLES = load_consumables()
NUM_CONSUMABLES = _CONSUMABLES.table.shape[0]
NUM_MASKS = 1 << A.NUM_PILLARS
ZUK_MAP = NUM_MASKS            # maps 0..7: by standing pillars (waves 1-68); 8: the Zuk wave's (arena.zuk_flags)
NUM_MAPS = NUM_MASKS + 1

CONFIG_FIELDS = (
    ConfigField("start_wave", np.int32, 1, 1, W.NUM_WAVES, "the wave the run starts at (curriculum)"),
    ConfigField("last_wave", np.int32, W.NUM_WAVES, 1, W.NUM_WAVES,
                "clearing this wave ends the run as a success (>= start_wave; 69: killing TzKal-Zuk)"),
    ConfigField("max_ticks", np.int32, 30_000, 10, 1_000_000, "runs are truncated after this many ticks"),
    # the supplies of InfernoTrainer's max kit (InfernoLoadout.ts loadoutMaxTbow: 8 brews, 10 restores, a bastion, a
    # stamina); with the loadout's switches and a rune pouch they must fit in 28 slots (loadouts.kit)
    ConfigField("brews", np.int32, 32, 0, 200, "Saradomin brew doses (4 a potion; the kit must fit 28 slots)"),
    ConfigField("restores", np.int32, 40, 0, 200, "Super restore doses (4 a potion; the kit must fit 28 slots)"),
    ConfigField("bastions", np.int32, 4, 0, 200, "Bastion potion doses (ranged and defence boost)"),
    ConfigField("staminas", np.int32, 4, 0, 200,
                "Stamina potion doses (20 % run energy, 70 % less drain for 200 ticks)"),
    ConfigField("start_hp", np.int32, 0, 0, 99, "curriculum: hitpoints at the start (0: full)"),
    ConfigField("start_prayer", np.int32, 0, 0, 99, "curriculum: prayer points at the start (0: full)"),
    *(ConfigField(f"band_weight_{k + 1}", np.float32, 0.0, 0.0, 1000.0,
                  f"curriculum: weight of starting in waves {lo}-{hi} (a wave drawn uniformly in the band, up to "
                  "last_wave); all 0: start_wave") for k, (lo, hi) in enumerate(BANDS)),
    ConfigField("scaffolding", np.bool_, False, None, None,
                "fill the scaffolding observation segment (ticks to the next attack of each style); false zeroes it"),
    ConfigField("cleared_reward", np.float32, 1.0, -100.0, 100.0, "reward for clearing last_wave"),
    ConfigField("death_reward", np.float32, -1.0, -100.0, 100.0),
    ConfigField("timeout_reward", np.float32, -1.0, -100.0, 100.0,
                "reward for reaching max_ticks; as bad as death by default, so stalling never pays more"),
    ConfigField("timeout_terminal", np.bool_, False, None, None,
                "a run that reaches max_ticks is terminated (no bootstrap from its value) instead of truncated"),
    ConfigField("penalty_cap", np.float32, 0.0, 0.0, 100.0,
                "most a run loses to the per-tick penalty terms together (damage_taken, prayer misses, supplies, "
                "pillar); 0: no cap. Keep it below -death_reward so that dying never costs less than fighting on"),
    ConfigField("coef_wave", np.float32, 0.1, -10.0, 10.0,
                "reward per wave cleared before last_wave: with the run's end, the sparse default (issue 17: "
                "a wave cleared, death); a run that dies on wave 30 from wave 1 has earned 2.9 - 1"),
    ConfigField("coef_damage_dealt", np.float32, 0.0, -10.0, 10.0,
                "shaping: reward per hitpoint dealt to monsters, scaled by 1/100"),
    ConfigField("coef_damage_taken", np.float32, 0.0, -10.0, 10.0,
                "shaping: penalty per hitpoint taken, scaled by 1/99"),
    ConfigField("coef_prayer", np.float32, 0.0, -10.0, 10.0,
                "shaping: + per monster attack met by the right overhead, - per one that was not"),
    ConfigField("coef_kill", np.float32, 0.0, -10.0, 10.0, "shaping: reward per monster killed"),
    ConfigField("coef_supplies", np.float32, 0.0, -10.0, 10.0, "shaping: penalty per potion dose drunk"),
    ConfigField("coef_pillar", np.float32, 0.0, -10.0, 10.0,
                "shaping: penalty per pillar hitpoint lost, scaled by 1/255"),
    coef_hitpoints_field("by death or the clear"),
    ConfigField("coef_zuk_damage", np.float32, 0.0, -10.0, 10.0,
                "shaping: reward per hitpoint of a new low of TzKal-Zuk's hitpoints, scaled by 1/1200: hitpoints "
                "his healers give back pay nothing when dealt again"),
    ConfigField("coef_jad_damage", np.float32, 0.0, -10.0, 10.0,
                "shaping: reward per hitpoint of a new low of each JalTok-Jad's hitpoints, scaled by 1/350"),
    ConfigField("coef_healer_tag", np.float32, 0.0, -10.0, 10.0,
                "shaping: reward for each hit that draws a healer off its Jad or Zuk while it heals (once a "
                "healer: a drawn healer heals no more)"),
    ConfigField("coef_glyph", np.float32, 0.0, -10.0, 10.0,
                "shaping: potential-based on the Ancestral Glyph's hitpoints / 600 as coef_hitpoints on the "
                "player's (discounted by hitpoints_gamma, 0 once the run ends): a set's hit on the glyph costs "
                "on the tick it lands, and no stall, loop or early death pays"),
    hitpoints_gamma_field(),
    # ---- where the sources disagree (README "Open questions")
    ConfigField("dig_rule", np.int32, 0, 0, 1,
                "Jal-ImKot's dig: 0 InfernoTrainer (dig_min..dig_max ticks of a ready attack without reach, "
                "dig_chance_pct a tick); 1 the wiki's (50 ticks into the wave, then every 40-60, not within "
                "15 ticks of a hit from the player)"),
    ConfigField("dig_min", np.int32, 38, 1, 1000, "dig_rule 0: the dig may start after this many ticks"),
    ConfigField("dig_max", np.int32, 50, 1, 1000, "dig_rule 0: the dig starts for sure after this many ticks"),
    ConfigField("dig_chance_pct", np.int32, 10, 0, 100, "dig_rule 0: chance (%) a tick between dig_min and dig_max"),
    ConfigField("revive_pct", np.int32, 10, 0, 100,
                "chance (%) that a Jal-Zek's attack is a resurrection instead, when a monster can be revived"),
    ConfigField("collapse_rule", np.int32, 1, 0, 2,
                "a collapsing pillar hurts the player and monsters next to it: 0 not at all (InfernoTrainer), "
                "1 collapse_damage each, 2 half their current hitpoints"),
    ConfigField("collapse_damage", np.int32, 49, 0, 255, "collapse_rule 1: the damage"),
    ConfigField("projectile_rule", np.int32, 0, 0, 1,
                "when a monster's ranged or magic hit lands: 0 the OSRS wiki's hit delay (the bow's or the "
                "spell's delay after the attack tick), 1 osrs-sdk's (one tick earlier: its player counts a new "
                "projectile down in the attack's own tick)"),
    ConfigField("blob_shot_rule", np.int32, 0, 0, 1,
                "Jal-Ak's shot after its scan: 0 InfernoTrainer (JalAk.ts: fired at the player whatever stands "
                "between and however far: 'blobs can hit through LoS if they got a scan'), 1 the old rule (a pillar "
                "in the way takes it, a player out of its 15 tiles is not shot at; no public source)"),
    ConfigField("zuk_max_hit", np.int32, 148, 1, 400,
                "TzKal-Zuk's max hit on an unsheltered player: 148 the OSRS wiki's infobox (npcs.json), 251 "
                "InfernoTrainer's and an RSPS's (README \"Open questions\")"),
    ConfigField("shelter_rule", np.int32, 0, 0, 1,
                "the tiles the glyph shelters, relative to its south-west tile: 0 InfernoTrainer (its 5 columns, the "
                "3 rows south of it), 1 the RuneLite inferno plugin's safe tiles (one column west, rows 2-4 south)"),
    ConfigField("low_hp_phase", np.int32, 150, 0, 1200,
                "Zuk's hitpoints below which a run is in the phase zuk_low_hp (the endgame label)"),
    # ---- curriculum: wave-69 starts (used when a run starts on wave 69)
    ConfigField("zuk_start_hp", np.int32, 0, 0, 1200,
                "curriculum: TzKal-Zuk's hitpoints at a wave-69 start (0: full); what his thresholds passed "
                "(600, 480, 240) bring is in place: the set timer's pause and resume, the Jad, the healers"),
    ConfigField("zuk_start_sets", np.int32, 0, 0, 2, "curriculum: ranger-mager sets alive at a wave-69 start"),
    ConfigField("zuk_mid_pct", np.int32, 0, 0, 100,
                "curriculum: % of wave-69 starts that begin mid-fight, Zuk's hitpoints drawn uniformly from "
                "zuk_mid_hp..1199 (what his thresholds bring in place, as zuk_start_hp); the others as set above"),
    ConfigField("zuk_mid_hp", np.int32, 1, 1, 1199, "curriculum: the lowest hitpoints of a mid-fight draw"),
    ConfigField("zuk_start_jad", np.bool_, True, None, None,
                "curriculum: with zuk_start_hp below 480, Zuk's Jad is alive at the start (false: killed)"),
    ConfigField("zuk_start_healers", np.bool_, True, None, None,
                "curriculum: with zuk_start_hp below 240, his four healers are alive at the start (false: killed)"),
    ConfigField("set_timer_start", np.int32, -1, -1, 1000,
                "curriculum: Zuk's turns until the first set at a wave-69 start (-1: InfernoTrainer's 72)"),
    ConfigField("glyph_start_x", np.int32, -1, -1, 26,
                "curriculum: the glyph's south-west x at a wave-69 start (-1: InfernoTrainer's, local 13)"),
    ConfigField("glyph_start_dir", np.int32, 0, 0, 2, "the glyph's first direction: 0 drawn 50/50, 1 west, 2 east"),
    ConfigField("loadout", np.int32, 0, 0, NUM_LOADOUTS - 1,
                "0 max: twisted bow, toxic blowpipe, Kodai wand (Ice Barrage) in Masori / Ancestral; "
                "1 cheaper: Armadyl crossbow, toxic blowpipe, Ahrim's staff (Ice Barrage) in Armadyl / Ahrim's "
                "(loadouts.LOADOUTS)"),
    # ---- derived: the arena (loadouts.fill_config)
    ConfigField("maps", np.uint16, shape=(NUM_MAPS, A.GRID_W, A.GRID_H), derived=True),   # by standing pillars, Zuk's
    # the router's first two steps (core.pathfinding.first_steps_table: code1 | code2 << 4) from every tile to
    # every offset within ROUTE_RADIUS, by standing pillars
    ConfigField("route", np.uint8, shape=(NUM_MAPS, A.GRID_W, A.GRID_H, ROUTE_SIDE * ROUTE_SIDE), derived=True),
    # core.line_of_sight.sight_table of each map: every ray over the standing pillars, precomputed
    ConfigField("sight", np.uint64, shape=(NUM_MAPS, *sight_table_shape(A.GRID_W, A.GRID_H)), derived=True),
    ConfigField("pillar_xy", np.int16, shape=(A.NUM_PILLARS, 2), derived=True),
    ConfigField("spawn_xy", np.int16, shape=(A.NUM_SPAWNS, 2), derived=True),
    ConfigField("nibbler_xy", np.int16, shape=(9, 2), derived=True),
    ConfigField("start_xy", np.int16, shape=(2,), derived=True),
    ConfigField("band_cumulative", np.float64, shape=(NUM_BANDS,), derived=True),   # 0s: start_wave
    # ---- derived: the waves and the monsters
    ConfigField("wave_counts", np.int8, shape=(W.LAST_REGULAR_WAVE + 1, W.NUM_WAVE_COLUMNS), derived=True),
    ConfigField("kind_row", NPC_DTYPE, shape=(NUM_KINDS,), derived=True),
    ConfigField("kind_size", np.int8, shape=(NUM_KINDS,), derived=True),
    ConfigField("kind_range", np.int8, shape=(NUM_KINDS,), derived=True),
    ConfigField("kind_speed", np.int8, shape=(NUM_KINDS,), derived=True),
    ConfigField("kind_style", np.int8, shape=(NUM_KINDS,), derived=True),     # STYLE_* of its distance attack
    ConfigField("kind_melee", np.int8, shape=(NUM_KINDS,), derived=True),     # 1: may melee when adjacent
    ConfigField("kind_max", np.int16, shape=(NUM_KINDS, 3), derived=True),    # max hit by STYLE_* (-1: none)
    ConfigField("kind_extra_delay", np.int8, shape=(NUM_KINDS,), derived=True),
    # ---- derived: the player's loadout, one row per gear set (SET_*) of the chosen ``loadout``
    ConfigField("levels", np.int16, shape=(NUM_SKILLS,), derived=True),
    ConfigField("set_combat", COMBATANT_DTYPE, shape=(NUM_SETS,), derived=True),
    ConfigField("set_row", np.int64, shape=(NUM_SETS, SPEC_COLS), derived=True),       # its normal attack
    ConfigField("set_special", np.int64, shape=(NUM_SETS, SPEC_COLS), derived=True),   # SP_COST 0: none
    ConfigField("set_worn", np.int16, shape=(NUM_SETS, 11), derived=True),
    ConfigField("set_range", np.int8, shape=(NUM_SETS,), derived=True),
    ConfigField("set_proj", np.int8, shape=(NUM_SETS,), derived=True),
    ConfigField("set_style", np.int8, shape=(NUM_SETS,), derived=True),        # pending-hit STYLE_*
    ConfigField("set_prayer_bonus", np.int16, shape=(NUM_SETS,), derived=True),
    ConfigField("set_offensive", np.uint32, shape=(NUM_SETS,), derived=True),  # Rigour or Augury
    ConfigField("set_freeze", np.int16, shape=(NUM_SETS,), derived=True),      # its spell's freeze (ticks)
    ConfigField("set_targets", np.int8, shape=(NUM_SETS,), derived=True),      # most monsters one cast hits
    ConfigField("offensive", np.uint32, derived=True),                # every set's offensive prayer (one group)
    ConfigField("supply_consumable", np.int32, shape=(NUM_SUPPLIES,), derived=True),
    ConfigField("consumables", np.int32, shape=(NUM_CONSUMABLES, CONSUMABLE_COLS), derived=True),
    ConfigField("bolt_ctx", np.int64, shape=(CTX_LEN,), derived=True),
)


# ---- valid ranges of the index-like state fields (checked on every restore; runtime.bounds) ----------
def _last_item(recs, cfg):
    from osrs_rl.data.tables import items

    return len(items().index.names) - 1


STATE_BOUNDS = (
    Bound("wave", 1, W.NUM_WAVES, "waves 1-69"),
    Bound("start_wave_drawn", 1, W.NUM_WAVES, "a wave 1-69"),
    Bound("p.x", 0, A.GRID_W - 1), Bound("p.y", 0, A.GRID_H - 1),
    Bound("monsters.state", SLOT_FREE, SLOT_DEAD, "SLOT_*"),
    Bound("monsters.kind", 0, NUM_KINDS - 1, "K_*"),
    # a monster's whole footprint lies on the grid (the kernels index the maps with it)
    Bound("monsters.x", 0, lambda recs, cfg: A.GRID_W - cfg["kind_size"][recs["monsters"]["kind"]]),
    Bound("monsters.y", 0, lambda recs, cfg: A.GRID_H - cfg["kind_size"][recs["monsters"]["kind"]]),
    Bound("monsters.target", TARGET_PLAYER, TARGET_SLOT + MONSTER_SLOTS - 1,
          "-1 the player, 0-2 a pillar, 3 the glyph, 4 + k monster slot k"),
    Bound("monsters.parent", -1, MONSTER_SLOTS - 1, "-1 or a monster slot"),
    Bound("monsters.windup", 0, 10, "ticks"),
    Bound("shield_dir", -1, 1, "-1 west, +1 east (0 before the Zuk wave)"),
    Bound("sparks.x", 0, A.GRID_W - 1), Bound("sparks.y", 0, A.GRID_H - 1),
    Bound("killer", -1, NUM_KINDS - 1, "-1 or a K_* kind"),
    Bound("monsters.scan", -1, SCAN_UNKNOWN, "-1, a pending-hit STYLE_* other than typeless, or SCAN_UNKNOWN"),
    Bound("monsters.activity", 0, NUM_ACTIVITIES - 1, "ACT_*"),
    # the resurfacing tile is a south-west tile like x, y (the meleer's footprint stays on the grid)
    Bound("monsters.dig_x", 0, lambda recs, cfg: A.GRID_W - cfg["kind_size"][recs["monsters"]["kind"]]),
    Bound("monsters.dig_y", 0, lambda recs, cfg: A.GRID_H - cfg["kind_size"][recs["monsters"]["kind"]]),
    # a restored state (an archive cell, a curriculum start, a user's file) carries at most the kit's doses: the
    # supply settings are what fits 28 slots (runtime.inventory), and doses are only ever drunk
    Bound("supplies", 0, lambda recs, cfg: np.array([cfg[SUPPLY_SETTINGS[n]] for n in SUPPLY_NAMES]),
          "doses left, at most the config's brews, restores, bastions, staminas (what the kit carries)"),
    Bound("gear_set", 0, NUM_SETS - 1, "SET_*"),
    Bound("dest_x", -1, A.GRID_W - 1, "a tile of the grid, -1: no destination"),
    Bound("dest_y", -1, A.GRID_H - 1, "a tile of the grid, -1: no destination"),
    Bound("dest_run", 0, 1),
    Bound("pillar_hp", 0, A.PILLAR_HP),
    Bound("p.equipment", -1, _last_item, "an items.json index, -1 for an empty slot"),
    Bound("hits.state", 0, HIT_LANDED, "core.pending_hits.HIT_*"),
    Bound("hits.target", 0, LAST_HIT_TARGET, "0 the player, 1 + k monster slot k, then the pillars"),
    # a hit's attacker is the kind that threw it (damage_taken is tallied by it; the player's hits: 0)
    Bound("hits.attacker", 0, NUM_KINDS - 1, "a K_* kind"),
    Bound("hit_source", 0, LAST_ENTITY, "the entity that threw the hit (ENT_*)"),
    Bound("hits.style", 0, STYLE_TYPELESS, "core.pending_hits.STYLE_*"),
    *event_bounds(EVENT_CAPACITY, LAST_ENTITY, LAST_ENTITY),
)
