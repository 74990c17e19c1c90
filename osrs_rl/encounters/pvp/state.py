"""NH PvP state, settings and the layout of actions: one record per duel (two players).

Static tables the kernels read (combat records per build and gear set, attack rows, supplies,
consumables) are derived config fields filled by ``loadouts.fill_config`` from ``builds.json``.
"""

import json
from pathlib import Path

import numpy as np

from osrs_rl.core.attack import MAX_HITSPLATS
from osrs_rl.core.bolts import CTX_LEN
from osrs_rl.core.combatant import COMBATANT_DTYPE
from osrs_rl.core.consumables import NUM_COLS as CONSUMABLE_COLS
from osrs_rl.core.consumables import load_consumables
from osrs_rl.core.events import event_fields
from osrs_rl.core.pending_hits import HIT_DTYPE, HIT_LANDED, STYLE_TYPELESS
from osrs_rl.core.player import PLAYER_DTYPE
from osrs_rl.core.rng import RNG_DTYPE
from osrs_rl.core.skills import NUM_SKILLS
from osrs_rl.core.specials import SPEC_COLS
from osrs_rl.runtime.action_layout import check_numbered, head_index, option_index, option_start
from osrs_rl.runtime.bounds import Bound, event_bounds
from osrs_rl.runtime.name_index import name_index
from osrs_rl.runtime.spec import ActionHead, ConfigField

# ---- sizes -----------------------------------------------------------------------------------
MAX_BUILDS = 8                # capacity of the per-build tables (loadouts.builds refuses more)


def _count_builds() -> int:
    with open(Path(__file__).resolve().parent / "builds.json", encoding="utf-8") as f:
        return len(json.load(f)["builds"])


NUM_BUILDS = _count_builds()  # builds in builds.json: the config's `build` ranges over these, not the capacity
MAX_KITS = 8                  # gear variants per build: kit 0 is the listed gear, 1.. draw builds.json variants
HIT_CAPACITY = 16             # pending hits in flight (both players together)
ARENA = 15                    # open arena of ARENA x ARENA walkable tiles inside a border
EVENT_CAPACITY = 24           # a tick's events: every queued hit landing, two attacks, two deaths

# ---- reward terms (per player, written by mechanics.reward_for; summed by the runtime) ----------------
REWARD_TERMS = ("damage", "outcome")
REWARD = name_index("REWARD", REWARD_TERMS)   # each term's column, by name (reordering the names moves it)
R_DAMAGE = REWARD.damage
R_OUTCOME = REWARD.outcome

# ---- gear sets (index into a build's sets) --------------------------------------------------
SET_MAGE, SET_RANGED, SET_MELEE, SET_TANK, SET_SPEC = range(5)
NUM_SETS = 5
SET_NAMES = ("mage", "ranged", "melee", "tank", "spec")

# ---- supplies (counts per player) -------------------------------------------------------------
SUP_FOOD, SUP_KARAMBWAN, SUP_BREW, SUP_RESTORE, SUP_COMBAT, SUP_RANGING = range(6)
NUM_SUPPLIES = 6
SUPPLY_NAMES = ("food", "karambwan", "brew", "restore", "combat", "ranging")
DOSES_PER_POTION = 4

# ---- action heads (option 0 of each is the no-op) ------------------------------------------------
# declared once: the mechanics read an agent's action row by these names (a[HEAD.overhead] == OVERHEAD.magic),
# the mask writes them (view.py) and the scripted opponent reads its legal row by them, so an option's label
# is what the rules do with it wherever it sits
HEADS = (
    ActionHead("loadout", 1 + NUM_SETS, ("keep",) + SET_NAMES),
    ActionHead("attack", 4, ("none", "weapon", "ice_barrage", "blood_barrage")),
    # toward: into melee reach; under: onto a frozen opponent's tile; away: run from it; diagonal: to a
    # tile diagonal to it (a frozen player cannot melee there); farcast: out of melee reach but inside
    # the worn weapon's range (step away when adjacent, toward when out of range)
    ActionHead("move", 6, ("stay", "toward", "under", "away", "diagonal", "farcast")),
    ActionHead("overhead", 7, ("keep", "magic", "missiles", "melee", "off", "smite", "redemption")),
    ActionHead("offensive", 3, ("keep", "on", "off")),
    ActionHead("food", 2, ("no", "eat")),
    ActionHead("karambwan", 2, ("no", "eat")),
    ActionHead("potion", 4, ("none", "brew", "restore", "boost")),
    ActionHead("vengeance", 2, ("no", "cast")),
)
HEAD = head_index("HEAD", HEADS)                         # HEAD.move: the move head's element of an action row
LOADOUT = option_index("LOADOUT", HEADS[HEAD.loadout])   # LOADOUT.keep: that option's number in its head
ATTACK = option_index("ATTACK", HEADS[HEAD.attack])
MOVE = option_index("MOVE", HEADS[HEAD.move])
OVERHEAD = option_index("OVERHEAD", HEADS[HEAD.overhead])
OFFENSIVE = option_index("OFFENSIVE", HEADS[HEAD.offensive])
FOOD = option_index("FOOD", HEADS[HEAD.food])
KARAMBWAN = option_index("KARAMBWAN", HEADS[HEAD.karambwan])
POTION = option_index("POTION", HEADS[HEAD.potion])
VENGEANCE = option_index("VENGEANCE", HEADS[HEAD.vengeance])
# the loadout options after "keep" are the gear sets in SET_* order: option LOADOUT_SET_0 + SET_X wears set X
LOADOUT_SET_0 = option_start(HEADS[HEAD.loadout], SET_NAMES, NUM_SETS)
check_numbered(HEADS[HEAD.loadout], LOADOUT_SET_0, {"mage": SET_MAGE, "ranged": SET_RANGED, "melee": SET_MELEE,
                                                   "tank": SET_TANK, "spec": SET_SPEC})
# the names the kernels and tests use, each bound to its head or option by name
H_LOADOUT, H_ATTACK, H_MOVE, H_OVERHEAD = HEAD.loadout, HEAD.attack, HEAD.move, HEAD.overhead
H_OFFENSIVE, H_FOOD, H_KARAMBWAN, H_POTION, H_VENGEANCE = \
    HEAD.offensive, HEAD.food, HEAD.karambwan, HEAD.potion, HEAD.vengeance
LOADOUT_KEEP = LOADOUT.keep   # LOADOUT_SET_0 + SET_*: switch to that set
ATTACK_NONE, ATTACK_WEAPON = ATTACK.none, ATTACK.weapon
ATTACK_ICE, ATTACK_BLOOD = ATTACK.ice_barrage, ATTACK.blood_barrage      # manual casts (any gear)
MOVE_STAY, MOVE_TOWARD, MOVE_UNDER, MOVE_AWAY = MOVE.stay, MOVE.toward, MOVE.under, MOVE.away
MOVE_DIAGONAL, MOVE_FARCAST = MOVE.diagonal, MOVE.farcast
OVERHEAD_KEEP, OVERHEAD_MAGIC, OVERHEAD_MISSILES, OVERHEAD_MELEE = \
    OVERHEAD.keep, OVERHEAD.magic, OVERHEAD.missiles, OVERHEAD.melee
OVERHEAD_OFF, OVERHEAD_SMITE, OVERHEAD_REDEMPTION = OVERHEAD.off, OVERHEAD.smite, OVERHEAD.redemption
OFFENSIVE_KEEP, OFFENSIVE_ON, OFFENSIVE_OFF = OFFENSIVE.keep, OFFENSIVE.on, OFFENSIVE.off
POTION_NONE, POTION_BREW, POTION_RESTORE, POTION_BOOST = POTION.none, POTION.brew, POTION.restore, POTION.boost
HEAD_SIZES = tuple(h.size for h in HEADS)
MASK_SIZE = sum(HEAD_SIZES)

# ---- who drives player 1 (STATE.opponent_kind) --------------------------------------------------
OPPONENT_POLICY, OPPONENT_SCRIPTED = range(2)
NEXT_FROM_CONFIG = 0          # next_opponent_kind of a fresh (zeroed) state: the config decides
NUM_TIERS = 10

# ---- outcome -----------------------------------------------------------------------------------
OUTCOME_NONE, OUTCOME_WIN, OUTCOME_LOSS, OUTCOME_DRAW = range(4)

PVP_PLAYER_DTYPE = np.dtype([
    # the core bookkeeping record (levels, prayers, timers, freeze, spec energy, position, worn items)
    ("p", PLAYER_DTYPE),
    # which build and gear set are worn (attacking in the spec set is a special attack)
    ("build", np.int8),
    ("kit", np.int8),                            # gear variant of the build (0: the listed gear)
    ("set", np.int8),
    ("supplies", np.int16, (NUM_SUPPLIES,)),     # food and karambwans as items, potions as doses
    # what the opponent can see: the last attack's style and tick (animation), the last hitsplat
    ("last_attack_style", np.int8),              # core.pending_hits.STYLE_*, -1 before any attack
    ("last_attack_tick", np.int32),
    # vengeance (Lunar, RULES 9.1): armed until a hit reflects; cooldown in ticks; the cast is visible
    ("vengeance", np.int8),
    ("vengeance_cooldown", np.int16),
    ("last_vengeance_tick", np.int32),
    # scratch the kernels rebuild each tick: the live combat record and enchanted-bolt context
    ("combat", COMBATANT_DTYPE, (1,)),
    ("bolt_ctx", np.int64, (CTX_LEN,)),
    # tallies for metrics
    ("damage_dealt", np.int32),
    ("damage_taken", np.int32),
    ("off_prayer_hits_landed", np.int32),        # accurate hits that landed on a wrong overhead
    ("freezes_landed", np.int32),
    ("food_used", np.int16),
    ("brews_used", np.int16),
    ("specs_used", np.int16),
    ("vengeance_damage", np.int32),              # damage this player's vengeance reflected
])

STATE_DTYPE = np.dtype([
    ("tick", np.int32),
    ("rng", *RNG_DTYPE),
    ("players", PVP_PLAYER_DTYPE, (2,)),
    ("hits", HIT_DTYPE, (HIT_CAPACITY,)),
    ("landing", np.int64, (HIT_CAPACITY,)),      # scratch: indices of the hits landing this tick
    ("splats", np.int64, (MAX_HITSPLATS,)),      # scratch: hitsplats of the attack being resolved
    ("first", np.int8),               # PID: the player processed first this tick
    ("pid_timer", np.int16),          # ticks until PID reshuffles (RULES 1.2); -1: fixed for the fight
    # who drives player 1 this episode: a scripted tier, or a policy (slot = which one, for a league)
    ("opponent_kind", np.int8),       # OPPONENT_*
    ("opponent_tier", np.int8),       # scripted tier when OPPONENT_SCRIPTED, else -1
    ("opponent_slot", np.int16),      # policy slot when OPPONENT_POLICY, else -1
    # set by osrs_rl.encounters.pvp.set_opponents: read at each reset, kept across episodes (the spec's
    # carried_fields: the runtime clears every other field before a reset)
    # (NEXT_FROM_CONFIG: follow the config's opponent_tier; else 1 + OPPONENT_*)
    ("next_opponent_kind", np.int8),
    ("next_opponent_index", np.int16),
    ("opponent_actions", np.int64, (len(HEAD_SIZES),)),   # scratch: the scripted player's action row
    ("opponent_mask", np.uint8, (MASK_SIZE,)),            # scratch: its mask (Numba records hold no bool arrays)
    ("outcome", np.int8),             # OUTCOME_* for player 0
    # what the last tick did: each player's reward by term (REWARD_TERMS; row = player index, entity
    # ids of the events are the player indices too) and its events (hits, attacks, deaths)
    ("reward_terms", np.float32, (2, len(REWARD_TERMS))),
    ("reward_sums", np.float32, (2, len(REWARD_TERMS))),  # each player's terms summed over the fight (the runtime's)
    *event_fields(EVENT_CAPACITY),
])

_CONSUMABLES = load_consumables()
NUM_CONSUMABLES = _CONSUMABLES.table.shape[0]

CONFIG_FIELDS = (
    ConfigField("build", np.int32, -1, -1, NUM_BUILDS - 1,
                f"build index 0..{NUM_BUILDS - 1} in builds.json for both players; -1 draws one per episode"),
    ConfigField("opponent_tier", np.int32, 3, -2, NUM_TIERS - 1,
                "who plays player 1: a scripted tier 0..9, -1 draws a tier per episode, -2 a policy "
                "(pvp_selfplay's default; set_opponents overrides it per env)"),
    ConfigField("gear_variants", np.int32, 1, 0, 1,
                "1: each player wears a random kit of its build's gear variants each episode; 0: the listed gear"),
    ConfigField("pid_shuffle", np.int32, -1, -1, 1,
                "PID reshuffles every 100-150 ticks: -1 by the build's rules (not in PvP Arena), 0 never, 1 always"),
    ConfigField("max_ticks", np.int32, 300, 10, 100_000, "fights are truncated after this many ticks"),
    ConfigField("win_reward", np.float32, 1.0, -100.0, 100.0),
    ConfigField("loss_reward", np.float32, -1.0, -100.0, 100.0),
    ConfigField("draw_reward", np.float32, 0.0, -100.0, 100.0),
    ConfigField("damage_reward", np.float32, 0.0, -10.0, 10.0,
                "shaping: reward per hitpoint dealt minus taken, scaled by 1/99 (off by default)"),
    # ---- derived tables (filled by loadouts.fill_config) ----
    ConfigField("num_builds", np.int32, derived=True),
    ConfigField("num_kits", np.int8, shape=(MAX_BUILDS,), derived=True),
    ConfigField("set_combat", COMBATANT_DTYPE, shape=(MAX_BUILDS, MAX_KITS, NUM_SETS), derived=True),
    ConfigField("set_row", np.int64, shape=(MAX_BUILDS, MAX_KITS, NUM_SETS, SPEC_COLS), derived=True),
    ConfigField("set_proj", np.int8, shape=(MAX_BUILDS, MAX_KITS, NUM_SETS), derived=True),
    ConfigField("set_range", np.int8, shape=(MAX_BUILDS, MAX_KITS, NUM_SETS), derived=True),
    ConfigField("set_prayer_bonus", np.int16, shape=(MAX_BUILDS, MAX_KITS, NUM_SETS), derived=True),
    ConfigField("set_worn", np.int16, shape=(MAX_BUILDS, MAX_KITS, NUM_SETS, 11), derived=True),
    ConfigField("set_bolt_ctx", np.int64, shape=(MAX_BUILDS, MAX_KITS, NUM_SETS, CTX_LEN), derived=True),
    # client packets of a switch from one set (third index) to another (fourth), loadouts.switch_clicks
    ConfigField("set_switch_clicks", np.int8, shape=(MAX_BUILDS, MAX_KITS, NUM_SETS, NUM_SETS), derived=True),
    ConfigField("build_levels", np.int16, shape=(MAX_BUILDS, NUM_SKILLS), derived=True),
    ConfigField("build_offensive", np.uint32, shape=(MAX_BUILDS, 3), derived=True),   # prayer masks by style
    ConfigField("build_unlimited_prayer", np.int8, shape=(MAX_BUILDS,), derived=True),  # LMS: no drain
    ConfigField("build_unlimited_run", np.int8, shape=(MAX_BUILDS,), derived=True),     # LMS: no run drain
    ConfigField("build_pid_shuffle", np.int8, shape=(MAX_BUILDS,), derived=True),       # not PvP Arena
    ConfigField("build_vengeance", np.int8, shape=(MAX_BUILDS,), derived=True),         # Lunar, 94 Magic
    ConfigField("build_ancients", np.int8, shape=(MAX_BUILDS,), derived=True),          # ice and blood spells
    ConfigField("build_smite", np.int8, shape=(MAX_BUILDS,), derived=True),             # rules and 52 Prayer
    ConfigField("build_redemption", np.int8, shape=(MAX_BUILDS,), derived=True),        # rules and 49 Prayer
    ConfigField("build_supplies", np.int16, shape=(MAX_BUILDS, NUM_SUPPLIES), derived=True),
    ConfigField("supply_consumable", np.int32, shape=(MAX_BUILDS, NUM_SUPPLIES), derived=True),
    ConfigField("consumables", np.int32, shape=(NUM_CONSUMABLES, CONSUMABLE_COLS), derived=True),
    ConfigField("ice_max", np.int32, derived=True),
    ConfigField("blood_max", np.int32, derived=True),
    ConfigField("ice_spell", np.int32, derived=True),
    ConfigField("blood_spell", np.int32, derived=True),
    ConfigField("plain_row", np.int64, shape=(1, SPEC_COLS), derived=True),   # attack row of a weaponless cast
    ConfigField("blood_fury_item", np.int32, derived=True),   # items.json index of the amulet of blood fury
)


# ---- valid ranges of the index-like state fields (checked on every restore; runtime.bounds) ----------
def _last_item(recs, cfg):
    from osrs_rl.data.tables import items

    return len(items().index.names) - 1


def _scripted(recs):
    return recs["opponent_kind"] == OPPONENT_SCRIPTED


def _next_scripted(recs):
    return recs["next_opponent_kind"] == 1 + OPPONENT_SCRIPTED


STATE_BOUNDS = (
    # each player's build, kit and set index the config's gear tables (set_combat[build, kit, set], ...)
    Bound("players.build", 0, lambda recs, cfg: cfg["num_builds"] - 1, "a build of builds.json"),
    Bound("players.kit", 0, lambda recs, cfg: cfg["num_kits"][recs["players"]["build"]] - 1,
          "a gear variant of the player's build"),
    Bound("players.set", 0, NUM_SETS - 1, "SET_*"),
    # a supply the build does not carry (supply_consumable -1: no karambwans in builds 3..6) stays at 0,
    # else eating it indexes the consumables table with -1 (the fuzz found it)
    Bound("players.supplies", 0,
          lambda recs, cfg: np.where(cfg["supply_consumable"][recs["players"]["build"]] >= 0,
                                     cfg["build_supplies"][recs["players"]["build"]], 0),
          "a count, at most the build's kit (what fits 28 slots), 0 for a supply the build does not carry"),
    Bound("players.last_attack_style", -1, STYLE_TYPELESS, "core.pending_hits.STYLE_*, -1 before any attack"),
    Bound("players.vengeance", 0, 1),
    Bound("players.p.equipment", -1, _last_item, "an items.json index, -1 for an empty slot"),
    Bound("players.p.x", 1, ARENA, "inside the arena"),
    Bound("players.p.y", 1, ARENA, "inside the arena"),
    # the hit queue: both ends are player indices
    Bound("hits.state", 0, HIT_LANDED, "core.pending_hits.HIT_*"),
    Bound("hits.attacker", 0, 1), Bound("hits.target", 0, 1),
    Bound("hits.style", 0, STYLE_TYPELESS, "core.pending_hits.STYLE_*"),
    # PID, the opponent's driver (a scripted tier indexes the tier tables) and the outcome
    Bound("first", 0, 1),
    Bound("opponent_kind", OPPONENT_POLICY, OPPONENT_SCRIPTED),
    Bound("opponent_tier", lambda recs, cfg: np.where(_scripted(recs), 0, -1),
          lambda recs, cfg: np.where(_scripted(recs), NUM_TIERS - 1, -1), "a scripted tier, else -1"),
    Bound("next_opponent_kind", NEXT_FROM_CONFIG, 1 + OPPONENT_SCRIPTED),
    Bound("next_opponent_index", lambda recs, cfg: np.where(_next_scripted(recs), 0, -(2**15)),
          lambda recs, cfg: np.where(_next_scripted(recs), NUM_TIERS - 1, 2**15 - 1),
          "a scripted tier when the next opponent is scripted"),
    Bound("outcome", OUTCOME_NONE, OUTCOME_DRAW),
    # the event buffer the scene reads: entities are the two players
    *event_bounds(EVENT_CAPACITY, 1, 1),
)
