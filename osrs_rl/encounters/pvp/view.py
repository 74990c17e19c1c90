"""What each player sees and may do: observation, action mask and end-of-fight metrics.

A player sees its own state; of the opponent only what the game shows (its build and worn gear
style and reach, overhead, an HP bar in 30ths, freeze, the last attack and Vengeance cast
animations); both positions. The ``privileged`` segment holds what a player cannot see: the
opponent's hidden state (exact hitpoints, special energy, prayer, supplies, whether Vengeance is
armed), who has PID and the PID timer (a player only infers PID from the order hits land in). It is
for a critic: policies must not read it (``osrs_rl.agent.models`` feeds segments named
``privileged`` to the value head only).
"""

import numpy as np
from numba import njit

from osrs_rl.core import styles as S
from osrs_rl.core.movement import chebyshev_distance, in_melee_reach, overlaps
from osrs_rl.core.pending_hits import HIT_PENDING
from osrs_rl.core.player import RUN_ENERGY_MAX
from osrs_rl.core.skills import ATTACK, DEFENCE, HITPOINTS, MAGIC, PRAYER, RANGED, STRENGTH
from osrs_rl.core.status import FREEZE_IMMUNITY_TICKS, can_move
from osrs_rl.runtime.action_layout import head_bounds
from osrs_rl.runtime.obs_layout import family_start, feature_index, segment_bounds
from osrs_rl.runtime.spec import MetricRecord, ObsSegment

from . import mechanics as M
from . import state as ST

HP_BAR_STEPS = 30          # the overhead HP bar shows hitpoints in 30ths (OSRS wiki "Hitpoints") [M]
MAX_LEVEL = 99.0           # levels, hitpoints and prayer points scale by the highest level
MAX_SPEC = 100.0           # special energy in percent
RUN_SCALE = float(RUN_ENERGY_MAX)   # the game's 10000 units of run energy (core.player)
PID_TIMER_SCALE = float(M.PID_SHUFFLE_MIN + M.PID_SHUFFLE_SPREAD - 1)   # the longest PID period, 150 ticks
MAX_TIMER = 6.0
SUPPLY_SCALE = 20.0
BOOST_SCALE = 20.0
PENDING_SCALE = 4.0
FREEZE_SCALE = 32.0        # an ice barrage freezes for 32 ticks (RULES 5.1)
IMMUNITY_SCALE = FREEZE_SCALE + FREEZE_IMMUNITY_TICKS   # immunity outlasts a freeze by 5 ticks (RULES 5.2)
NUM_OVERHEAD_ICONS = 5     # protect melee, missiles, magic; smite; redemption
RANGE_SCALE = 10.0
SINCE_SCALE = 10.0
_OVERHEAD_NAMES = ("melee", "missiles", "magic", "smite", "redemption")      # by M.overhead_icon
_BOOSTED = (ATTACK, STRENGTH, DEFENCE, RANGED, MAGIC)
# The observation's segments and their features, in the order the flat vector holds them (spec.py declares
# OBS_SEGMENTS). observe_player writes each feature by its name at its segment's start (o[START.self +
# SELF.prayer]); a family written in a loop (the set worn, the overhead, the build, supplies, boosts,
# styles) counts from its first name's position, checked consecutive below.
_SETS = tuple(f"set_{n}" for n in ST.SET_NAMES)                        # by set
_OVERHEADS = tuple(f"overhead_{n}" for n in _OVERHEAD_NAMES)
_BUILDS = tuple(f"build_{b}" for b in range(ST.MAX_BUILDS))             # by build
_BOOSTS = ("attack_boost", "strength_boost", "defence_boost", "ranged_boost", "magic_boost")    # by _BOOSTED
_STYLES = ("style_melee", "style_ranged", "style_magic")                # by M.hit_style
_LAST = ("last_melee", "last_ranged", "last_magic")                     # by last_attack_style
SELF_NAMES = (
    "hitpoints", "prayer", "spec_energy", "attack_timer", "food_timer", "potion_timer", "karambwan_timer",
    "freeze", "freeze_immunity", "vengeance", "vengeance_cooldown", "vengeance_available", "run_energy",
    "reach", *_SETS, *_OVERHEADS, *_BUILDS, "offensive_on", *ST.SUPPLY_NAMES, *_BOOSTS, "spec_set",
)
OPPONENT_NAMES = (
    "hp_bar", *_STYLES, *_OVERHEADS, "freeze", *_LAST, "since_attack", "spec_set", "since_vengeance",
    "reach", *_BUILDS,
)
RELATION_NAMES = ("distance", "melee_reach", "my_reach", "its_reach", "incoming", "outgoing", "time")
PRIVILEGED_NAMES = ("hitpoints", "spec_energy", "prayer", *ST.SUPPLY_NAMES, "vengeance", "pid", "pid_timer")
SELF_FEATURES = len(SELF_NAMES)
OPPONENT_FEATURES = len(OPPONENT_NAMES)
RELATION_FEATURES = len(RELATION_NAMES)
PRIVILEGED_FEATURES = len(PRIVILEGED_NAMES)
OBS_SEGMENTS = (
    ObsSegment("self", SELF_FEATURES, 1, SELF_NAMES),
    ObsSegment("opponent", OPPONENT_FEATURES, 1, OPPONENT_NAMES),
    ObsSegment("relation", RELATION_FEATURES, 1, RELATION_NAMES),
    # hidden state and PID: for a critic, never a policy (osrs_rl.agent.models reads it in the value only)
    ObsSegment("privileged", PRIVILEGED_FEATURES, 1, PRIVILEGED_NAMES),
)
OBS_SIZE = sum(seg.size for seg in OBS_SEGMENTS)
SELF = feature_index("SELF", SELF_NAMES)
OPPONENT = feature_index("OPPONENT", OPPONENT_NAMES)
RELATION = feature_index("RELATION", RELATION_NAMES)
PRIVILEGED = feature_index("PRIVILEGED", PRIVILEGED_NAMES)
START, STOP = segment_bounds(OBS_SEGMENTS)
SELF_SET_0 = family_start(SELF, _SETS, ST.NUM_SETS)
SELF_OVERHEAD_0 = family_start(SELF, _OVERHEADS, NUM_OVERHEAD_ICONS)
SELF_BUILD_0 = family_start(SELF, _BUILDS, ST.MAX_BUILDS)
SELF_SUPPLY_0 = family_start(SELF, ST.SUPPLY_NAMES, ST.NUM_SUPPLIES)
SELF_BOOST_0 = family_start(SELF, _BOOSTS, len(_BOOSTED))
OPPONENT_STYLE_0 = family_start(OPPONENT, _STYLES, 3)
OPPONENT_OVERHEAD_0 = family_start(OPPONENT, _OVERHEADS, NUM_OVERHEAD_ICONS)
OPPONENT_LAST_0 = family_start(OPPONENT, _LAST, 3)
OPPONENT_BUILD_0 = family_start(OPPONENT, _BUILDS, ST.MAX_BUILDS)
PRIVILEGED_SUPPLY_0 = family_start(PRIVILEGED, ST.SUPPLY_NAMES, ST.NUM_SUPPLIES)
# where each action head's options lie in an agent's flat mask (the heads are declared in state.py): the mask
# writes an option at its head's start plus the option's number (MASK_START.overhead + ST.OVERHEAD.magic)
MASK_START, MASK_STOP = head_bounds(ST.HEADS)


@njit(cache=True)
def _pending(s, target):
    """Hits in flight on ``target`` and on the other player, in one pass over the queue."""
    on_target = on_other = 0
    for k in range(s.hits.shape[0]):
        if s.hits[k].state == HIT_PENDING:
            if s.hits[k].target == target:
                on_target += 1
            else:
                on_other += 1
    return on_target, on_other


@njit(cache=True)
def observe_player(s, cfg, me, o):
    pl, foe = s.players[me], s.players[1 - me]
    p, q = pl.p, foe.p
    # each feature at its segment's start + its member (offsets into o: a slice per segment cost this kernel ~10 %)
    # ---- self ----
    o[START.self + SELF.hitpoints] = p.levels[HITPOINTS] / MAX_LEVEL
    o[START.self + SELF.prayer] = p.levels[PRAYER] / MAX_LEVEL
    o[START.self + SELF.spec_energy] = p.spec_energy / MAX_SPEC
    o[START.self + SELF.attack_timer] = min(max(p.attack_timer, 0), MAX_TIMER) / MAX_TIMER
    o[START.self + SELF.food_timer] = 1.0 if p.food_timer > 0 else 0.0
    o[START.self + SELF.potion_timer] = 1.0 if p.potion_timer > 0 else 0.0
    o[START.self + SELF.karambwan_timer] = 1.0 if p.karambwan_timer > 0 else 0.0
    o[START.self + SELF.freeze] = p.freeze_ticks / FREEZE_SCALE
    o[START.self + SELF.freeze_immunity] = p.freeze_immunity_ticks / IMMUNITY_SCALE
    o[START.self + SELF.vengeance] = pl.vengeance
    o[START.self + SELF.vengeance_cooldown] = pl.vengeance_cooldown / M.VENGEANCE_COOLDOWN
    o[START.self + SELF.vengeance_available] = 1.0 if cfg.build_vengeance[pl.build] else 0.0
    o[START.self + SELF.run_energy] = p.run_energy / RUN_SCALE
    o[START.self + SELF.reach] = M.set_reach(cfg, pl, pl.set) / RANGE_SCALE
    for j in range(ST.NUM_SETS):
        o[START.self + SELF_SET_0 + j] = 1.0 if pl.set == j else 0.0
    over = M.overhead_icon(p)
    for j in range(NUM_OVERHEAD_ICONS):
        o[START.self + SELF_OVERHEAD_0 + j] = 1.0 if over == j else 0.0
    for j in range(ST.MAX_BUILDS):
        o[START.self + SELF_BUILD_0 + j] = 1.0 if pl.build == j else 0.0
    o[START.self + SELF.offensive_on] = 1.0 if np.uint32(p.active_prayers) & M.offensive_mask(cfg, pl.build) else 0.0
    for j in range(ST.NUM_SUPPLIES):
        o[START.self + SELF_SUPPLY_0 + j] = pl.supplies[j] / SUPPLY_SCALE
    for j in range(len(_BOOSTED)):
        sk = _BOOSTED[j]
        o[START.self + SELF_BOOST_0 + j] = (p.levels[sk] - p.base_levels[sk]) / BOOST_SCALE
    o[START.self + SELF.spec_set] = 1.0 if pl.set == ST.SET_SPEC else 0.0
    # ---- opponent, as the game shows it ----
    hp_max = max(1, q.base_levels[HITPOINTS])
    o[START.opponent + OPPONENT.hp_bar] = ((max(q.levels[HITPOINTS], 0) * HP_BAR_STEPS) // hp_max) / HP_BAR_STEPS
    style = M.hit_style(M.set_attack_type(cfg, foe, foe.set))
    for j in range(3):
        o[START.opponent + OPPONENT_STYLE_0 + j] = 1.0 if style == j else 0.0
    over = M.overhead_icon(q)
    for j in range(NUM_OVERHEAD_ICONS):
        o[START.opponent + OPPONENT_OVERHEAD_0 + j] = 1.0 if over == j else 0.0
    o[START.opponent + OPPONENT.freeze] = q.freeze_ticks / FREEZE_SCALE
    for j in range(3):
        o[START.opponent + OPPONENT_LAST_0 + j] = 1.0 if foe.last_attack_style == j else 0.0
    since = s.tick - foe.last_attack_tick if foe.last_attack_tick >= 0 else SINCE_SCALE
    o[START.opponent + OPPONENT.since_attack] = min(since, SINCE_SCALE) / SINCE_SCALE
    o[START.opponent + OPPONENT.spec_set] = 1.0 if foe.set == ST.SET_SPEC else 0.0
    since = s.tick - foe.last_vengeance_tick if foe.last_vengeance_tick >= 0 else M.VENGEANCE_COOLDOWN
    o[START.opponent + OPPONENT.since_vengeance] = min(since, M.VENGEANCE_COOLDOWN) / M.VENGEANCE_COOLDOWN  # seen cast
    o[START.opponent + OPPONENT.reach] = M.set_reach(cfg, foe, foe.set) / RANGE_SCALE
    for j in range(ST.MAX_BUILDS):
        o[START.opponent + OPPONENT_BUILD_0 + j] = 1.0 if foe.build == j else 0.0
    # ---- relation ----
    o[START.relation + RELATION.distance] = chebyshev_distance(p.x, p.y, 1, q.x, q.y, 1) / ST.ARENA
    o[START.relation + RELATION.melee_reach] = 1.0 if in_melee_reach(p.x, p.y, 1, q.x, q.y, 1) else 0.0
    o[START.relation + RELATION.my_reach] = 1.0 if M.attack_reach(s, cfg, me, pl.set) else 0.0
    o[START.relation + RELATION.its_reach] = 1.0 if M.attack_reach(s, cfg, 1 - me, foe.set) else 0.0
    incoming, outgoing = _pending(s, me)
    o[START.relation + RELATION.incoming] = incoming / PENDING_SCALE
    o[START.relation + RELATION.outgoing] = outgoing / PENDING_SCALE
    o[START.relation + RELATION.time] = s.tick / cfg.max_ticks
    # ---- privileged: hidden from a real player ----
    o[START.privileged + PRIVILEGED.hitpoints] = q.levels[HITPOINTS] / MAX_LEVEL
    o[START.privileged + PRIVILEGED.spec_energy] = q.spec_energy / MAX_SPEC
    o[START.privileged + PRIVILEGED.prayer] = q.levels[PRAYER] / MAX_LEVEL
    for j in range(ST.NUM_SUPPLIES):
        o[START.privileged + PRIVILEGED_SUPPLY_0 + j] = foe.supplies[j] / SUPPLY_SCALE
    o[START.privileged + PRIVILEGED.vengeance] = foe.vengeance
    # PID: a player infers it from the order hits land in
    o[START.privileged + PRIVILEGED.pid] = 1.0 if s.first == me else 0.0
    o[START.privileged + PRIVILEGED.pid_timer] = max(s.pid_timer, 0) / PID_TIMER_SCALE


# the specs' observe and mask: ``pvp`` for player 0 only, ``pvp_selfplay`` for both
@njit(cache=True)
def observe_one(s, cfg, obs):
    observe_player(s, cfg, 0, obs[0])


@njit(cache=True)
def observe_two(s, cfg, obs):
    observe_player(s, cfg, 0, obs[0])
    observe_player(s, cfg, 1, obs[1])


@njit(cache=True)
def mask_player(s, cfg, me, m):
    """Player ``me``'s legal options into its row ``m``: each at its head's start + its number in the head."""
    pl, foe = s.players[me], s.players[1 - me]
    p, q = pl.p, foe.p
    m[:] = False
    # loadout: keep, or any other set (the spec set needs the energy for one special)
    m[MASK_START.loadout + ST.LOADOUT.keep] = True
    for j in range(ST.NUM_SETS):
        ok = j != pl.set
        if j == ST.SET_SPEC:
            ok = ok and p.spec_energy >= M.spec_cost(cfg, pl)
        m[MASK_START.loadout + ST.LOADOUT_SET_0 + j] = ok
    # attack: each option (ST.ATTACK_*) as mechanics.can_attack judges it
    for j in range(MASK_STOP.attack - MASK_START.attack):
        m[MASK_START.attack + j] = M.can_attack(s, cfg, me, j)
    mobile = can_move(p)                     # move
    m[MASK_START.move + ST.MOVE.stay] = True
    m[MASK_START.move + ST.MOVE.toward] = mobile and not in_melee_reach(p.x, p.y, 1, q.x, q.y, 1)
    m[MASK_START.move + ST.MOVE.under] = mobile and q.freeze_ticks > 0 and not overlaps(p.x, p.y, 1, q.x, q.y, 1) \
        and chebyshev_distance(p.x, p.y, 1, q.x, q.y, 1) <= 1
    m[MASK_START.move + ST.MOVE.away] = mobile
    m[MASK_START.move + ST.MOVE.diagonal] = mobile and not (abs(p.x - q.x) == 1 and abs(p.y - q.y) == 1)
    d = chebyshev_distance(p.x, p.y, 1, q.x, q.y, 1)
    m[MASK_START.move + ST.MOVE.farcast] = mobile and not (d >= 2 and d <= M.set_reach(cfg, pl, pl.set))
    over = M.overhead_icon(p)                # overhead
    has_prayer = p.levels[PRAYER] > 0
    m[MASK_START.overhead + ST.OVERHEAD.keep] = True
    m[MASK_START.overhead + ST.OVERHEAD.magic] = has_prayer and over != 2
    m[MASK_START.overhead + ST.OVERHEAD.missiles] = has_prayer and over != 1
    m[MASK_START.overhead + ST.OVERHEAD.melee] = has_prayer and over != 0
    m[MASK_START.overhead + ST.OVERHEAD.off] = over >= 0
    m[MASK_START.overhead + ST.OVERHEAD.smite] = has_prayer and over != 3 and cfg.build_smite[pl.build] != 0
    m[MASK_START.overhead + ST.OVERHEAD.redemption] = has_prayer and over != 4 \
        and cfg.build_redemption[pl.build] != 0
    offensive_on = (np.uint32(p.active_prayers) & M.offensive_mask(cfg, pl.build)) != 0   # offensive
    m[MASK_START.offensive + ST.OFFENSIVE.keep] = True
    # "on" picks the prayer of the style worn after this tick's switch, so it stays legal while one
    # is on (a switch of style and of offensive prayer share the tick)
    m[MASK_START.offensive + ST.OFFENSIVE.on] = has_prayer and M.offensive_mask(cfg, pl.build) != 0
    m[MASK_START.offensive + ST.OFFENSIVE.off] = offensive_on
    hurt = p.levels[HITPOINTS] < p.base_levels[HITPOINTS]
    m[MASK_START.food + ST.FOOD.no] = True
    m[MASK_START.food + ST.FOOD.eat] = pl.supplies[ST.SUP_FOOD] > 0 and p.food_timer <= 0 and hurt
    m[MASK_START.karambwan + ST.KARAMBWAN.no] = True
    m[MASK_START.karambwan + ST.KARAMBWAN.eat] = pl.supplies[ST.SUP_KARAMBWAN] > 0 and p.karambwan_timer <= 0 \
        and hurt
    drink = p.potion_timer <= 0              # potion
    m[MASK_START.potion + ST.POTION.none] = True
    m[MASK_START.potion + ST.POTION.brew] = drink and pl.supplies[ST.SUP_BREW] > 0
    m[MASK_START.potion + ST.POTION.restore] = drink and pl.supplies[ST.SUP_RESTORE] > 0
    boost = ST.SUP_RANGING if M.set_attack_type(cfg, pl, pl.set) == S.RANGED else ST.SUP_COMBAT
    m[MASK_START.potion + ST.POTION.boost] = drink and pl.supplies[boost] > 0
    m[MASK_START.vengeance + ST.VENGEANCE.no] = True
    m[MASK_START.vengeance + ST.VENGEANCE.cast] = M.can_cast_vengeance(s, cfg, me)


@njit(cache=True)
def mask_one(s, cfg, m):
    mask_player(s, cfg, 0, m[0])


@njit(cache=True)
def mask_two(s, cfg, m):
    mask_player(s, cfg, 0, m[0])
    mask_player(s, cfg, 1, m[1])


# player 0's episode metrics, in the order logs list them; `metrics` writes each by name
METRICS = MetricRecord("won", "lost", "draw", "ticks", "damage_dealt", "damage_taken", "off_prayer_hits_landed",
                       "off_prayer_hits_taken", "freezes_landed", "food_used", "brews_used", "specs_used",
                       "food_left", "opponent_tier", "vengeance_damage", "potion_doses_left", "opponent_slot")
PHASE_NAMES = ("under_100_ticks", "100_to_200_ticks", "over_200_ticks")


@njit(cache=True)
def metrics(s, cfg, out):
    me, foe = s.players[0], s.players[1]
    out.won = 1.0 if s.outcome == ST.OUTCOME_WIN else 0.0
    out.lost = 1.0 if s.outcome == ST.OUTCOME_LOSS else 0.0
    out.draw = 1.0 if s.outcome == ST.OUTCOME_DRAW else 0.0
    out.ticks = s.tick
    out.damage_dealt = me.damage_dealt
    out.damage_taken = me.damage_taken
    out.off_prayer_hits_landed = me.off_prayer_hits_landed
    out.off_prayer_hits_taken = foe.off_prayer_hits_landed
    out.freezes_landed = me.freezes_landed
    out.food_used = me.food_used
    out.brews_used = me.brews_used
    out.specs_used = me.specs_used
    out.food_left = me.supplies[ST.SUP_FOOD] + me.supplies[ST.SUP_KARAMBWAN]
    out.opponent_tier = s.opponent_tier                # -1 when a policy played player 1
    out.vengeance_damage = me.vengeance_damage
    out.potion_doses_left = me.supplies[ST.SUP_BREW] + me.supplies[ST.SUP_RESTORE] + me.supplies[ST.SUP_COMBAT] \
        + me.supplies[ST.SUP_RANGING]
    out.opponent_slot = s.opponent_slot                # -1 when a scripted tier played player 1
    return 0 if s.tick < 100 else (1 if s.tick < 200 else 2)


