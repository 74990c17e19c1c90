"""Zulrah state, settings and the layout of actions: one record per fight (one player, one boss).

Static tables the kernels read (rotation timelines, gear tiers, NPC rows, the platform's move table)
are derived config fields filled by ``loadouts.fill_config`` from ``rotations.py`` and ``gear.json``.
Coordinates are local tiles (``rotations.ORIGIN``).
"""

import numpy as np

from osrs_rl.core.attack import MAX_HITSPLATS
from osrs_rl.core.bolts import CTX_LEN
from osrs_rl.core.combatant import COMBATANT_DTYPE, NPC_DTYPE
from osrs_rl.core.consumables import NUM_COLS as CONSUMABLE_COLS
from osrs_rl.core.consumables import load_consumables
from osrs_rl.core.events import EVF_ENCOUNTER, event_fields
from osrs_rl.core.pending_hits import HIT_DTYPE, HIT_LANDED, STYLE_TYPELESS
from osrs_rl.core.player import PLAYER_DTYPE
from osrs_rl.core.rng import RNG_DTYPE
from osrs_rl.core.skills import NUM_SKILLS
from osrs_rl.core.specials import SPEC_COLS
from osrs_rl.runtime.action_layout import check_numbered, head_index, option_index, option_start
from osrs_rl.runtime.bounds import Bound, event_bounds
from osrs_rl.runtime.name_index import name_index
from osrs_rl.runtime.spec import ActionHead, ConfigField

from . import rotations as RT

# ---- sizes -----------------------------------------------------------------------------------
CLOUD_SLOTS = 12              # clouds alive at once: 4 volleys of 2 fit in 30 ticks, with room to spare
SNAKELING_SLOTS = 8           # snakelings alive at once (a phase spawns at most 6; each lives 67 ticks)
HIT_CAPACITY = 16             # hits in flight (player's, Zulrah's, snakelings')
EVENT_CAPACITY = 48           # a tick's events: hits landing both ways, attacks, cloud damage, spawns, deaths

# ---- gear tiers and sets ----------------------------------------------------------------------
TIER_BUDGET, TIER_MID, TIER_MAX = range(3)
TIER_NAMES = ("budget", "mid", "max")
NUM_TIERS = 3
TIER_WEIGHTED, TIER_UNIFORM = -2, -1           # gear_tier config values that draw a tier per episode
SET_MAGIC, SET_RANGED, SET_SPEC = range(3)
SET_NAMES = ("magic", "ranged", "spec")        # "spec" is optional per tier (gear.json); absent: masked
NUM_SETS = 3

# ---- supplies (counts: pieces of food, potion doses) -----------------------------------------
SUP_FOOD, SUP_PRAYER, SUP_ANTIVENOM, SUP_RANGED_BOOST, SUP_MAGIC_BOOST = range(5)
SUPPLY_NAMES = ("food", "prayer", "antivenom", "ranged_boost", "magic_boost")
SUPPLY_PER_SLOT = {"food": 1, "prayer": 4, "antivenom": 4, "ranged_boost": 4, "magic_boost": 4}  # pieces, doses
NUM_SUPPLIES = 5

# ---- NPC rows (config npc_rows) and hit targets / sources --------------------------------------
NPC_SERPENTINE, NPC_MAGMA, NPC_TANZANITE, NPC_SNAKELING_MELEE, NPC_SNAKELING_MAGIC = range(5)
NPC_NAMES = ("Zulrah (Serpentine)", "Zulrah (Magma)", "Zulrah (Tanzanite)", "Snakeling (Melee)",
             "Snakeling (Magic)")
TARGET_PLAYER, TARGET_ZULRAH = 0, 1            # a hit's target; 2 + k is snakeling slot k
SRC_SERPENTINE, SRC_MAGMA, SRC_TANZANITE, SRC_JAD, SRC_CLOUDS, SRC_VENOM, SRC_SNAKELINGS, SRC_PLAYER = range(8)
SOURCE_NAMES = ("serpentine", "magma", "tanzanite", "jad", "clouds", "venom", "snakelings")
NUM_SOURCES = 7                                # damage-taken sources (SRC_PLAYER marks the player's hits)

# ---- action heads (option 0 of each is the no-op) ----------------------------------------------
# declared once, by name: the mechanics read an agent's action row by these names (a[HEAD.drink] ==
# DRINK.prayer), the mask (view.py) and the solver write and read the flat mask at each head's start plus
# the option's number, so an option's label is what the rules do with it wherever it sits
NUM_MOVES = 25                # idle, 8 walk directions, 16 run destinations (rotations.py frame)
WALK_LABELS = ("n", "ne", "e", "se", "s", "sw", "w", "nw")        # loadouts.WALK's steps, in this order
RUN_LABELS = tuple("run_" + d for d in ("n", "nne", "ne", "ene", "e", "ese", "se", "sse",
                                        "s", "ssw", "sw", "wsw", "w", "wnw", "nw", "nnw"))   # loadouts.RUN's
SNAKELING_LABELS = tuple(f"snakeling_{k}" for k in range(SNAKELING_SLOTS))
HEADS = (
    ActionHead("move", NUM_MOVES, ("idle",) + WALK_LABELS + RUN_LABELS),
    ActionHead("attack", 2 + SNAKELING_SLOTS, ("none", "zulrah") + SNAKELING_LABELS),
    ActionHead("overhead", 4, ("keep", "magic", "missiles", "off")),
    ActionHead("offensive", 3, ("keep", "on", "off")),
    ActionHead("gear", 1 + NUM_SETS, ("keep",) + SET_NAMES),
    ActionHead("eat", 2, ("no", "eat")),
    ActionHead("drink", NUM_SUPPLIES, ("none",) + SUPPLY_NAMES[1:]),   # none, then each potion (every supply but food)
    ActionHead("spec", 2, ("none", "special")),     # special: this tick's attack is the worn weapon's special
)
HEAD = head_index("HEAD", HEADS)                              # HEAD.drink: the drink head's element of an action row
OVERHEAD = option_index("OVERHEAD", HEADS[HEAD.overhead])     # OVERHEAD.magic: that option's number in its head
OFFENSIVE = option_index("OFFENSIVE", HEADS[HEAD.offensive])
GEAR = option_index("GEAR", HEADS[HEAD.gear])
EAT = option_index("EAT", HEADS[HEAD.eat])
DRINK = option_index("DRINK", HEADS[HEAD.drink])
SPEC = option_index("SPEC", HEADS[HEAD.spec])
# the families written in loops (tile offsets, snakeling slots, gear sets): their first option's number, checked
# to lie side by side in the head's labels
MOVE_IDLE = option_start(HEADS[HEAD.move], ("idle",), 1)
MOVE_WALK = option_start(HEADS[HEAD.move], WALK_LABELS, 8)        # MOVE_WALK + k walks one tile toward WALK_LABELS[k]
MOVE_RUN = option_start(HEADS[HEAD.move], RUN_LABELS, 16)         # MOVE_RUN + k runs two tiles to RUN_LABELS[k]
ATTACK_NONE = option_start(HEADS[HEAD.attack], ("none",), 1)
ATTACK_ZULRAH = option_start(HEADS[HEAD.attack], ("zulrah",), 1)
ATTACK_SNAKELING = option_start(HEADS[HEAD.attack], SNAKELING_LABELS, SNAKELING_SLOTS)   # + k: snakeling slot k
GEAR_SET = option_start(HEADS[HEAD.gear], SET_NAMES, NUM_SETS)   # GEAR_SET + SET_*: wear that set

# the names other modules use, each bound to its option by name
H_MOVE, H_ATTACK, H_OVERHEAD, H_OFFENSIVE = HEAD.move, HEAD.attack, HEAD.overhead, HEAD.offensive
H_GEAR, H_EAT, H_DRINK, H_SPEC = HEAD.gear, HEAD.eat, HEAD.drink, HEAD.spec
OVERHEAD_KEEP, OVERHEAD_MAGIC, OVERHEAD_MISSILES, OVERHEAD_OFF = (OVERHEAD.keep, OVERHEAD.magic, OVERHEAD.missiles,
                                                                  OVERHEAD.off)
OFFENSIVE_KEEP, OFFENSIVE_ON, OFFENSIVE_OFF = OFFENSIVE.keep, OFFENSIVE.on, OFFENSIVE.off
GEAR_KEEP = GEAR.keep
DRINK_NONE, DRINK_PRAYER, DRINK_ANTIVENOM = DRINK.none, DRINK.prayer, DRINK.antivenom
DRINK_RANGED_BOOST, DRINK_MAGIC_BOOST = DRINK.ranged_boost, DRINK.magic_boost
SPEC_NONE, SPEC_USE = SPEC.none, SPEC.special
HEAD_SIZES = tuple(h.size for h in HEADS)
MASK_SIZE = sum(HEAD_SIZES)


# a drink option's number is its dose's supply slot (the mechanics drink from slot `drink`)
check_numbered(HEADS[HEAD.drink], 0, {"prayer": SUP_PRAYER, "antivenom": SUP_ANTIVENOM,
                                      "ranged_boost": SUP_RANGED_BOOST, "magic_boost": SUP_MAGIC_BOOST})

# ---- outcome ---------------------------------------------------------------------------------
OUTCOME_NONE, OUTCOME_KILL, OUTCOME_DEATH, OUTCOME_TIMEOUT = range(4)
# reward terms: the last tick's in ``reward_terms`` [1, terms] (written by step), their episode sums in
# ``reward_sums`` [1, terms] (kept by the runtime; the reward_* metrics): outcome, then each shaping term
REWARD_TERMS = ("outcome", "damage_dealt", "damage_taken", "prayer")
REWARD = name_index("REWARD", REWARD_TERMS)   # each term's column, by name (reordering the names moves it)
R_OUTCOME = REWARD.outcome
R_DEALT = REWARD.damage_dealt
R_TAKEN = REWARD.damage_taken
R_PRAYER = REWARD.prayer
NUM_REWARD_TERMS = len(REWARD_TERMS)

# ---- entity ids of the event buffer (core.events) ------------------------------------------------
# 0 the player, 1 Zulrah, 2 + k snakeling slot k (as a hit's target), then cloud slot c; venom: none
ENT_PLAYER, ENT_ZULRAH, ENT_SNAKELING = 0, 1, 2
ENT_CLOUD = ENT_SNAKELING + SNAKELING_SLOTS
LAST_ENTITY = ENT_CLOUD + CLOUD_SLOTS - 1
EVF_EXPIRED = EVF_ENCOUNTER              # a snakeling's death: its life ran out
EVF_WITH_ZULRAH = EVF_ENCOUNTER << 1     # a snakeling's death: Zulrah died

CLOUD_DTYPE = np.dtype([
    ("active", np.uint8),
    ("fresh", np.uint8),          # thrown this tick: it starts hurting next tick
    ("x", np.int16), ("y", np.int16),   # centre tile of the 3x3
    ("life", np.int16),           # damaging ticks left
])

SNAKELING_DTYPE = np.dtype([
    ("active", np.uint8),
    ("kind", np.int8),            # 0 melee (2045), 1 magic (2046)
    ("x", np.int16), ("y", np.int16),
    ("lock", np.int16),           # ticks before it may move or attack
    ("life", np.int16),           # ticks before it self-destructs
    ("attack_timer", np.int16),
])

STATE_DTYPE = np.dtype([
    ("tick", np.int32),
    ("rng", *RNG_DTYPE),
    # ---- the player: core bookkeeping record, gear, supplies, stun
    ("p", PLAYER_DTYPE),
    ("tier", np.int8),
    ("set", np.int8),
    ("supplies", np.int16, (NUM_SUPPLIES,)),
    ("stun", np.int16),                          # ticks the player cannot move or attack
    ("combat", COMBATANT_DTYPE, (1,)),           # scratch: the live combat record (set, levels, prayers)
    # ---- Zulrah: where it is in its rotation and what it shows
    ("z_hp", np.int16),
    ("rotation", np.int8),
    ("phase", np.int8),
    ("phase_tick", np.int16),                    # ticks since it rose (the last DIVE_TICKS of the phase: diving)
    ("form", np.int8),                           # rotations.SERPENTINE / MAGMA / TANZANITE
    ("spot", np.int8),
    ("zx", np.int16), ("zy", np.int16),          # south-west tile of its 5x5 footprint
    ("last_action", np.int8),                    # rotations.ACT_* it performed this tick (animation)
    ("last_style", np.int8),                     # pending-hit style of its last attack, -1 before any
    ("magma_on", np.uint8),                      # a slam tile is picked
    ("magma_x", np.int16), ("magma_y", np.int16),
    ("phases_done", np.int16),                   # phases completed this episode
    ("stalled", np.uint8),                       # its attack this tick was held: no line to the player
    ("kill_tick", np.int32),                     # tick Zulrah reached 0 (its hits in flight still land), 0: alive
    # ---- hazards and the hit queue
    ("clouds", CLOUD_DTYPE, (CLOUD_SLOTS,)),
    ("snakelings", SNAKELING_DTYPE, (SNAKELING_SLOTS,)),
    ("hits", HIT_DTYPE, (HIT_CAPACITY,)),
    ("landing", np.int64, (HIT_CAPACITY,)),      # scratch: slots of the hits landing now
    ("splats", np.int64, (MAX_HITSPLATS,)),      # scratch: hitsplats of the attack being resolved
    # ---- episode tallies (metrics and reward)
    ("outcome", np.int8),
    ("damage_dealt", np.int32),
    ("damage_taken", np.int32, (NUM_SOURCES,)),
    ("zulrah_attacks", np.int32),                # ranged and magic attacks Zulrah made
    ("prayed_attacks", np.int32),                # ... that met the matching overhead
    ("supplies_used", np.int16, (NUM_SUPPLIES,)),
    ("snakelings_killed", np.int16),
    ("specs_used", np.int16),
    ("spec_healed", np.int16),                   # hitpoints the blowpipe's special healed
    ("reward_sums", np.float32, (1, NUM_REWARD_TERMS)),   # this episode's reward by term (the runtime's)
    # ---- what the last tick did: its reward by term, its events; and who threw each hit in flight
    ("reward_terms", np.float32, (1, NUM_REWARD_TERMS)),
    *event_fields(EVENT_CAPACITY),
    ("hit_source", np.int16, (HIT_CAPACITY,)),   # entity id of the attacker of the hit in each queue slot
    ("hit_flags", np.uint16, (HIT_CAPACITY,)),   # core.events.EVF_* of that hit (blocked by the overhead)
])

_CONSUMABLES = load_consumables()
NUM_CONSUMABLES = _CONSUMABLES.table.shape[0]
_SHAPE = (RT.NUM_TIMELINES, RT.MAX_PHASES)        # rotations.TIMELINES

CONFIG_FIELDS = (
    ConfigField("max_ticks", np.int32, 2000, 10, 100_000, "fights are truncated after this many ticks"),
    ConfigField("start_rotation", np.int32, -1, -1, RT.NUM_ROTATIONS - 1,
                "rotation 0..3 (magma A, magma B, serpentine, tanzanite); -1 draws one per episode"),
    ConfigField("start_phase", np.int32, 0, 0, RT.MAX_PHASES - 1,
                "phase index to start at (curriculum); must exist in the rotation (0..9 when it is drawn)"),
    ConfigField("start_hp", np.int32, 500, 1, 500, "Zulrah's hitpoints at the start (curriculum)"),
    ConfigField("gear_tier", np.int32, TIER_MAX, TIER_WEIGHTED, NUM_TIERS - 1,
                "0 budget, 1 mid, 2 max; -1 draws a tier uniformly per episode, -2 by the tier weights"),
    ConfigField("tier_weight_budget", np.float32, 1.0, 0.0, 1000.0, "weight of budget gear when gear_tier = -2"),
    ConfigField("tier_weight_mid", np.float32, 1.0, 0.0, 1000.0, "weight of mid gear when gear_tier = -2"),
    ConfigField("tier_weight_max", np.float32, 1.0, 0.0, 1000.0, "weight of max gear when gear_tier = -2"),
    ConfigField("pillar_stall", np.bool_, True, None, None,
                "Zulrah holds a ranged or magic attack it has no line to (behind a pillar) and its phase waits "
                "(pillar stalling, [M]); false: it fires anyway, as ZEN's Zulrah does"),
    ConfigField("scaffolding", np.bool_, True, None, None,
                "fill the scaffolding observation segment (rotation, next phase, advice); false zeroes it"),
    ConfigField("kill_reward", np.float32, 1.0, -100.0, 100.0),
    ConfigField("death_reward", np.float32, -1.0, -100.0, 100.0),
    ConfigField("timeout_reward", np.float32, 0.0, -100.0, 100.0),
    ConfigField("coef_damage_dealt", np.float32, 0.0, -10.0, 10.0,
                "shaping: reward per hitpoint dealt to Zulrah, scaled by 1/500"),
    ConfigField("coef_damage_taken", np.float32, 0.0, -10.0, 10.0,
                "shaping: penalty per hitpoint taken, scaled by 1/99"),
    ConfigField("coef_prayer", np.float32, 0.0, -10.0, 10.0,
                "shaping: +coef per Zulrah attack met with the matching overhead, -coef per one not"),
    # ---- derived: rotation tables (rotations.build_tables)
    ConfigField("num_phases", np.int8, shape=(RT.NUM_TIMELINES,), derived=True),
    ConfigField("phase_form", np.int8, shape=_SHAPE, derived=True),
    ConfigField("phase_spot", np.int8, shape=_SHAPE, derived=True),
    ConfigField("phase_ticks", np.int16, shape=_SHAPE, derived=True),
    ConfigField("phase_jad", np.int8, shape=_SHAPE, derived=True),
    ConfigField("phase_prayer", np.int8, shape=_SHAPE, derived=True),
    ConfigField("timeline", np.int8, shape=_SHAPE + (RT.MAX_PHASE_TICKS,), derived=True),
    ConfigField("timeline_arg", np.int8, shape=_SHAPE + (RT.MAX_PHASE_TICKS,), derived=True),
    ConfigField("next_action", np.int16, shape=_SHAPE + (RT.MAX_PHASE_TICKS,), derived=True),
    ConfigField("volley_tiles", np.int16, shape=_SHAPE + (RT.MAX_VOLLEYS, 2, 2), derived=True),
    ConfigField("spawn_tiles", np.int16, shape=_SHAPE + (RT.MAX_SPAWNS, 2), derived=True),
    ConfigField("identify_phase", np.int8, shape=(RT.NUM_ROTATIONS,), derived=True),
    ConfigField("spot_tiles", np.int16, shape=(4, 2), derived=True),
    # ---- derived: the platform (loadouts.platform)
    ConfigField("collision", np.uint16, shape=(RT.GRID_W, RT.GRID_H), derived=True),
    ConfigField("move_ok", np.uint32, shape=(RT.GRID_W, RT.GRID_H), derived=True),   # bit m: move m legal
    # line of sight, precomputed on the fixed map (core.line_of_sight's ray, range checked apart):
    # player tile -> Zulrah's footprint at each spot, and walkable tile -> walkable tile
    ConfigField("zulrah_sight", np.uint8, shape=(len(RT.SPOT_TILES), RT.GRID_W, RT.GRID_H), derived=True),
    ConfigField("tile_index", np.int16, shape=(RT.GRID_W, RT.GRID_H), derived=True),    # -1: not walkable
    ConfigField("tile_sight", np.uint8, shape=(RT.MAX_WALKABLE, RT.MAX_WALKABLE), derived=True),
    ConfigField("move_dx", np.int8, shape=(NUM_MOVES, 2), derived=True),              # per step (1 or 2)
    ConfigField("move_dy", np.int8, shape=(NUM_MOVES, 2), derived=True),
    ConfigField("safespot", np.uint8, shape=(RT.GRID_W, RT.GRID_H), derived=True),
    # ---- derived: gear tiers (loadouts.fill_config)
    ConfigField("tier_cumulative", np.float64, shape=(NUM_TIERS,), derived=True),
    ConfigField("tier_levels", np.int16, shape=(NUM_TIERS, NUM_SKILLS), derived=True),
    # a tier without the optional spec set copies its ranged set there, with set_present 0
    ConfigField("set_present", np.uint8, shape=(NUM_TIERS, NUM_SETS), derived=True),
    ConfigField("set_combat", COMBATANT_DTYPE, shape=(NUM_TIERS, NUM_SETS), derived=True),
    ConfigField("set_row", np.int64, shape=(NUM_TIERS, NUM_SETS, SPEC_COLS), derived=True),
    ConfigField("set_special", np.int64, shape=(NUM_TIERS, NUM_SETS, SPEC_COLS), derived=True),  # cost 0: none
    ConfigField("set_offensive_all", np.uint32, shape=(NUM_TIERS,), derived=True),   # every set's prayers
    ConfigField("set_proj", np.int8, shape=(NUM_TIERS, NUM_SETS), derived=True),
    ConfigField("set_range", np.int8, shape=(NUM_TIERS, NUM_SETS), derived=True),
    ConfigField("set_prayer_bonus", np.int16, shape=(NUM_TIERS, NUM_SETS), derived=True),
    ConfigField("set_worn", np.int16, shape=(NUM_TIERS, NUM_SETS, 11), derived=True),
    ConfigField("set_offensive", np.uint32, shape=(NUM_TIERS, NUM_SETS), derived=True),
    ConfigField("tier_supplies", np.int16, shape=(NUM_TIERS, NUM_SUPPLIES), derived=True),
    ConfigField("supply_consumable", np.int32, shape=(NUM_TIERS, NUM_SUPPLIES), derived=True),
    ConfigField("consumables", np.int32, shape=(NUM_CONSUMABLES, CONSUMABLE_COLS), derived=True),
    ConfigField("npc_rows", NPC_DTYPE, shape=(5,), derived=True),
    ConfigField("bolt_ctx", np.int64, shape=(CTX_LEN,), derived=True),                # no enchanted bolts
)


# ---- valid ranges of the index-like state fields (checked on every restore; runtime.bounds) ----------
def _last_item(recs, cfg):
    from osrs_rl.data.tables import items

    return len(items().index.names) - 1


def _centre(flag: str, size: int):
    """(low, high) of the centre of a 3x3 on an axis of ``size`` tiles: 1..size - 2 while ``flag`` is
    set, any tile of the axis when it is not (a reset leaves 0 there)."""
    def on(recs):
        out = recs
        for name in flag.split("."):
            out = out[name]
        return out != 0
    return (lambda recs, cfg: np.where(on(recs), 1, 0)), (lambda recs, cfg: np.where(on(recs), size - 2, size - 1))


STATE_BOUNDS = (
    # the tables' indices: gear, the rotation's timeline, phase and phase tick, form and spot
    Bound("tier", 0, NUM_TIERS - 1),
    Bound("set", 0, NUM_SETS - 1),
    # a supply the tier does not carry (supply_consumable -1) stays at 0: eating it would index with -1; the others
    # at most the tier's kit (what fits 28 slots, runtime.inventory): supplies are only ever used
    Bound("supplies", 0, lambda recs, cfg: np.where(cfg["supply_consumable"][recs["tier"]] >= 0,
                                                    cfg["tier_supplies"][recs["tier"]], 0),
          "a count, at most the tier's kit, 0 for a supply the tier does not carry"),
    Bound("rotation", 0, RT.NUM_TIMELINES - 1, "a timeline of rotations.TIMELINES"),
    Bound("phase", 0, lambda recs, cfg: cfg["num_phases"][recs["rotation"]] - 1, "a phase of its timeline"),
    Bound("phase_tick", 0, lambda recs, cfg: cfg["phase_ticks"][recs["rotation"], recs["phase"]] - 1,
          "a tick of its phase"),
    Bound("form", 0, len(RT.FORM_NAMES) - 1),
    Bound("spot", 0, len(RT.SPOT_TILES) - 1),
    Bound("last_action", 0, len(RT.ACT_NAMES) - 1, "rotations.ACT_*"),
    Bound("last_style", -1, STYLE_TYPELESS, "core.pending_hits.STYLE_*, -1 before any attack"),
    # tiles on the map's grid (the kernels index the map's tables by them; a blocked tile is safe:
    # mechanics.tile_sees reads tile_index -1 as "no line"). The player's is 1 in from the edge (the
    # walkable tiles are 10..22 x 10..20): a slam is centred on it, and its 3x3 must lie on the map
    Bound("p.x", 1, RT.GRID_W - 2), Bound("p.y", 1, RT.GRID_H - 2),
    Bound("zx", 0, RT.GRID_W - 1), Bound("zy", 0, RT.GRID_H - 1),
    # centres of a 3x3 (the slam, a cloud): while it is on, the whole square lies on the grid
    Bound("magma_x", *_centre("magma_on", RT.GRID_W)), Bound("magma_y", *_centre("magma_on", RT.GRID_H)),
    Bound("clouds.x", *_centre("clouds.active", RT.GRID_W)),
    Bound("clouds.y", *_centre("clouds.active", RT.GRID_H)),
    Bound("snakelings.x", 0, RT.GRID_W - 1), Bound("snakelings.y", 0, RT.GRID_H - 1),
    Bound("snakelings.kind", 0, 1, "0 melee, 1 magic (npc_rows)"),
    Bound("p.equipment", -1, _last_item, "an items.json index, -1 for an empty slot"),
    # the hit queue: a target is the player, Zulrah or a snakeling slot; the source indexes damage_taken
    Bound("hits.state", 0, HIT_LANDED, "core.pending_hits.HIT_*"),
    Bound("hits.target", 0, 2 + SNAKELING_SLOTS - 1, "0 player, 1 Zulrah, 2 + k snakeling slot k"),
    # a hit on the player is tallied in damage_taken[attacker]: one of its NUM_SOURCES sources (the
    # 5000-trial fuzz found SRC_PLAYER there indexing past it)
    Bound("hits.attacker", 0, lambda recs, cfg: np.where(recs["hits"]["target"] == TARGET_PLAYER, NUM_SOURCES - 1,
                                                         SRC_PLAYER), "SRC_*; a source of damage taken on the player"),
    Bound("hits.style", 0, STYLE_TYPELESS, "core.pending_hits.STYLE_*"),
    # who threw each hit (the scene names it) and the event buffer the scene reads
    Bound("hit_source", 0, ENT_CLOUD - 1, "ENT_*: the player, Zulrah or a snakeling slot"),
    *event_bounds(EVENT_CAPACITY, LAST_ENTITY, LAST_ENTITY),
)
