"""What the player sees and may do: observation, action mask, end-of-fight metrics.

Segments: ``self`` (own state and supplies), ``zulrah`` (form, spot, surfacing/diving, HP, the
animation of this tick, the cadence, the magma stare tile), ``clouds`` and ``snakelings`` (fixed slots
with an active flag, positions relative to the player), and ``scaffolding``: what a player infers
rather than sees (the rotation once the phases so far single it out, the next phase, the prayer for
the next shot, a safe tile in magma phases). ``scaffolding = false`` in the config zeroes it.
"""

import numpy as np
from numba import njit

from osrs_rl.core import prayers as P
from osrs_rl.core.energy import RUN_MIN_TO_RUN
from osrs_rl.core.pending_hits import HIT_PENDING, STYLE_MAGIC, STYLE_RANGED
from osrs_rl.core.skills import HITPOINTS, MAGIC, PRAYER, RANGED
from osrs_rl.runtime.action_layout import head_bounds
from osrs_rl.runtime.obs_layout import family_start, feature_index, segment_bounds
from osrs_rl.runtime.spec import MetricFamily, MetricRecord, ObsSegment

from . import mechanics as M
from . import rotations as RT
from . import state as ST

MAX_TIMER = 6.0
MAX_LEVEL = 99.0
RUN_SCALE = 10000.0
POISON_SCALE = 20.0          # venom tops out at 20 a hit (core.status)
POISON_INTERVAL = 30.0
IMMUNITY_SCALE = 600.0
BOOST_SCALE = 20.0
FOOD_SCALE = 28.0            # a full inventory
DOSE_SCALE = 28.0
SMALL_DOSE_SCALE = 8.0
RANGE_SCALE = 10.0
DISTANCE_SCALE = 20.0
INCOMING_SCALE = 2.0
LANDING_SCALE = 4.0
ZULRAH_HP = 500.0            # npcs.json hitpoints (OSRS wiki infobox via dps-calc)
NEXT_ACTION_SCALE = 10.0
REL_SCALE = 10.0
STUN_SCALE = float(M.STUN_TICKS)
FOOD_DELAY = 3.0

# The observation's segments and their features, in the order the flat vector holds them (spec.py declares
# OBS_SEGMENTS). The kernels write each feature by its name (o[SELF.hp]) into its segment's slice
# (o[START.self:STOP.self]); a family written in a loop (the set worn, one-hots by form, spot, rotation) counts
# from its first name's position, checked consecutive below.
_SETS = tuple("set_" + n for n in ST.SET_NAMES)                     # by ST.SET_*
_TIERS = tuple("tier_" + n for n in ST.TIER_NAMES)                  # by gear tier
SELF_NAMES = (
    "hp_frac", "hp", "prayer", "run_energy", "x", "y", "attack_timer", "food_timer", "potion_timer", "stun",
    "venom", "poison_damage", "poison_timer", "venom_immune", "venom_immunity", "protect_magic",
    "protect_missiles", "offensive_on", *_SETS, "ranged_boost", "magic_boost",
    "food", "prayer_doses", "antivenom_doses", "ranged_boost_doses", "magic_boost_doses", *_TIERS,
    "weapon_range", "zulrah_distance", "zulrah_in_range", "incoming_ranged",
    "incoming_magic", "incoming_other", "next_landing", "spec_energy", "spec_ready", "time",
)
ZULRAH_NAMES = (
    *RT.FORM_NAMES, *RT.SPOT_NAMES, "surfaced", "targetable",        # one-hots by RT form and spot
    "diving", "surfacing", "hp", "dx", "dy", "anim_ranged", "anim_magic", "anim_clouds", "anim_snakeling",
    "anim_stare", "anim_slam", "next_action", "phase_time", "stare_on", "stare_dx", "stare_dy",
)
CLOUD_NAMES = ("active", "dx", "dy", "life", "covers_me")
SNAKELING_NAMES = ("active", "magic", "dx", "dy", "locked", "life", "attack_timer", "in_range")
_ROTATIONS = tuple(f"rotation_{r + 1}" for r in range(RT.NUM_ROTATIONS))     # by rotation_of
_PRAYS = ("pray_none", "pray_magic", "pray_missiles")                         # by next_attack_style
_NEXT_FORMS = tuple("next_" + n for n in RT.FORM_NAMES)
_NEXT_SPOTS = tuple("next_" + n for n in RT.SPOT_NAMES)
SCAFFOLDING_NAMES = (
    "enabled", "rotation_known", *_ROTATIONS, "phase_index", "jad", *_PRAYS, *_NEXT_FORMS, *_NEXT_SPOTS,
    "next_jad", "tile_valid", "tile_dx", "tile_dy", "on_safespot",
)
SELF_FEATURES, ZULRAH_FEATURES, CLOUD_FEATURES = len(SELF_NAMES), len(ZULRAH_NAMES), len(CLOUD_NAMES)
SNAKELING_FEATURES, SCAFFOLDING_FEATURES = len(SNAKELING_NAMES), len(SCAFFOLDING_NAMES)
OBS_SEGMENTS = (
    ObsSegment("self", SELF_FEATURES, 1, SELF_NAMES),
    ObsSegment("zulrah", ZULRAH_FEATURES, 1, ZULRAH_NAMES),
    ObsSegment("clouds", CLOUD_FEATURES, ST.CLOUD_SLOTS, CLOUD_NAMES),
    ObsSegment("snakelings", SNAKELING_FEATURES, ST.SNAKELING_SLOTS, SNAKELING_NAMES),
    ObsSegment("scaffolding", SCAFFOLDING_FEATURES, 1, SCAFFOLDING_NAMES),   # derived knowledge
)
SELF = feature_index("SELF", SELF_NAMES)
ZULRAH = feature_index("ZULRAH", ZULRAH_NAMES)
CLOUD = feature_index("CLOUD", CLOUD_NAMES)
SNAKELING = feature_index("SNAKELING", SNAKELING_NAMES)
SCAFFOLDING = feature_index("SCAFFOLDING", SCAFFOLDING_NAMES)
START, STOP = segment_bounds(OBS_SEGMENTS)
# where each action head's options lie in the flat mask: `mask` writes (and the solver reads) an option at its
# head's start plus the option's number (MASK_START.drink + ST.DRINK.prayer), both from state.HEADS
MASK_START, MASK_STOP = head_bounds(ST.HEADS)
SET_0 = family_start(SELF, _SETS, ST.NUM_SETS)
TIER_0 = family_start(SELF, _TIERS, ST.NUM_TIERS)
FORM_0 = family_start(ZULRAH, RT.FORM_NAMES)                # by s.form (RT.SERPENTINE ...)
SPOT_0 = family_start(ZULRAH, RT.SPOT_NAMES)                # by s.spot (RT.CENTER ...)
ROTATION_0 = family_start(SCAFFOLDING, _ROTATIONS, RT.NUM_ROTATIONS)
PRAY_0 = family_start(SCAFFOLDING, _PRAYS)
NEXT_FORM_0 = family_start(SCAFFOLDING, _NEXT_FORMS)
NEXT_SPOT_0 = family_start(SCAFFOLDING, _NEXT_SPOTS)

# the episode metrics, in the order logs list them; `metrics` writes each by name, a family's element k in a loop
# over the same constant its names come from (damage by source, supplies by ST.SUP_*, reward sums by term)
METRICS = MetricRecord(
    "killed", "died", "timed_out", "ticks", "ticks_to_kill", "damage_dealt", "zulrah_hp_left",
    "damage_taken", MetricFamily("taken_by_source", tuple("taken_" + n for n in ST.SOURCE_NAMES)), "zulrah_attacks",
    "correct_prayer_rate",
    MetricFamily("supplies_used", ("food_used", "prayer_doses_used", "antivenom_doses_used", "ranged_boost_doses_used",
                                   "magic_boost_doses_used")),
    "snakelings_killed", "specs_used", "spec_healed", "phases_done", "rotation", "tier",
    MetricFamily("reward_sums", tuple("reward_" + t for t in ST.REWARD_TERMS)),
)
# The phase label counts on from the phase the fight started in (start_phase + phases_done), where the
# rotation's phase index would start again at 0 when a rotation ends: the archive reads the label as depth in
# the fight (docs/writing-an-encounter.md). Through the first rotation the two agree; the last label holds
# every phase from the 24th on (two rotations: the solver kills inside the first, max_ticks 600 allows about
# 20 phases). A state restored under another start_phase (a start setting) is labelled from that one.
FIGHT_PHASES = 2 * RT.MAX_PHASES
PHASE_NAMES = (*(f"phase_{k + 1}" for k in range(FIGHT_PHASES - 1)), f"phase_{FIGHT_PHASES}_on")


# ---- observation ---------------------------------------------------------------------------------
@njit(cache=True)
def _incoming(s):
    """Hits in flight on the player: ranged, magic, other; ticks until the first lands (0: none)."""
    ranged = magic = other = 0
    first = 0
    for i in range(ST.HIT_CAPACITY):
        h = s.hits[i]
        if h.state != HIT_PENDING or h.target != ST.TARGET_PLAYER:
            continue
        if h.style == STYLE_RANGED:
            ranged += 1
        elif h.style == STYLE_MAGIC:
            magic += 1
        else:
            other += 1
        wait = h.due_tick - s.tick
        if first == 0 or wait < first:
            first = wait
    return ranged, magic, other, first


@njit(cache=True)
def _observe_self(s, cfg, o):
    p = s.p
    o[SELF.hp_frac] = p.levels[HITPOINTS] / max(p.base_levels[HITPOINTS], 1)
    o[SELF.hp] = p.levels[HITPOINTS] / MAX_LEVEL
    o[SELF.prayer] = p.levels[PRAYER] / MAX_LEVEL
    o[SELF.run_energy] = p.run_energy / RUN_SCALE
    o[SELF.x] = p.x / RT.GRID_W
    o[SELF.y] = p.y / RT.GRID_H
    o[SELF.attack_timer] = min(max(p.attack_timer, 0), MAX_TIMER) / MAX_TIMER
    o[SELF.food_timer] = max(p.food_timer, 0) / FOOD_DELAY
    o[SELF.potion_timer] = max(p.potion_timer, 0) / FOOD_DELAY
    o[SELF.stun] = s.stun / STUN_SCALE
    o[SELF.venom] = 1.0 if p.venom else 0.0
    o[SELF.poison_damage] = p.poison_damage / POISON_SCALE
    o[SELF.poison_timer] = max(p.poison_timer, 0) / POISON_INTERVAL
    o[SELF.venom_immune] = 1.0 if p.venom_immunity_ticks > 0 else 0.0
    o[SELF.venom_immunity] = min(p.venom_immunity_ticks / IMMUNITY_SCALE, 1.0)
    o[SELF.protect_magic] = 1.0 if M.has_prayer(p, P.PROTECT_FROM_MAGIC) else 0.0
    o[SELF.protect_missiles] = 1.0 if M.has_prayer(p, P.PROTECT_FROM_MISSILES) else 0.0
    o[SELF.offensive_on] = 1.0 if np.uint32(p.active_prayers) & np.uint32(cfg.set_offensive_all[s.tier]) else 0.0
    for j in range(ST.NUM_SETS):
        o[SET_0 + j] = 1.0 if s.set == j else 0.0
    o[SELF.ranged_boost] = (p.levels[RANGED] - p.base_levels[RANGED]) / BOOST_SCALE
    o[SELF.magic_boost] = (p.levels[MAGIC] - p.base_levels[MAGIC]) / BOOST_SCALE
    o[SELF.food] = s.supplies[ST.SUP_FOOD] / FOOD_SCALE
    o[SELF.prayer_doses] = s.supplies[ST.SUP_PRAYER] / DOSE_SCALE
    o[SELF.antivenom_doses] = s.supplies[ST.SUP_ANTIVENOM] / SMALL_DOSE_SCALE
    o[SELF.ranged_boost_doses] = s.supplies[ST.SUP_RANGED_BOOST] / SMALL_DOSE_SCALE
    o[SELF.magic_boost_doses] = s.supplies[ST.SUP_MAGIC_BOOST] / SMALL_DOSE_SCALE
    for t in range(ST.NUM_TIERS):
        o[TIER_0 + t] = 1.0 if s.tier == t else 0.0
    o[SELF.weapon_range] = M.set_range(cfg, s) / RANGE_SCALE
    d = M.zulrah_distance(s)
    o[SELF.zulrah_distance] = d / DISTANCE_SCALE
    o[SELF.zulrah_in_range] = 1.0 if M.sees_zulrah(s, cfg, M.set_range(cfg, s)) else 0.0   # in reach, clear line
    ranged, magic, other, first = _incoming(s)
    o[SELF.incoming_ranged] = ranged / INCOMING_SCALE
    o[SELF.incoming_magic] = magic / INCOMING_SCALE
    o[SELF.incoming_other] = other / INCOMING_SCALE
    o[SELF.next_landing] = first / LANDING_SCALE
    o[SELF.spec_energy] = p.spec_energy / 100.0
    o[SELF.spec_ready] = 1.0 if M.can_special(s, cfg) else 0.0
    o[SELF.time] = s.tick / cfg.max_ticks


@njit(cache=True)
def _observe_zulrah(s, cfg, o):
    p = s.p
    for k in range(ZULRAH_FEATURES):
        o[k] = 0.0
    o[FORM_0 + s.form] = 1.0
    o[SPOT_0 + s.spot] = 1.0
    under = M.diving(s, cfg)
    o[ZULRAH.surfaced] = 0.0 if under else 1.0
    o[ZULRAH.targetable] = 1.0 if M.zulrah_targetable(s, cfg) else 0.0
    o[ZULRAH.diving] = 1.0 if under else 0.0
    o[ZULRAH.surfacing] = 1.0 if s.phase_tick < M.targetable_from(s) else 0.0
    o[ZULRAH.hp] = s.z_hp / ZULRAH_HP
    half = RT.ZULRAH_SIZE // 2
    o[ZULRAH.dx] = (s.zx + half - p.x) / RT.GRID_W
    o[ZULRAH.dy] = (s.zy + half - p.y) / RT.GRID_H
    a = s.last_action
    if a == RT.ACT_RANGED or a == RT.ACT_MAGIC or a == RT.ACT_TANZANITE:
        if s.last_style == STYLE_RANGED:                # the projectile shows its style
            o[ZULRAH.anim_ranged] = 1.0
        else:
            o[ZULRAH.anim_magic] = 1.0
    elif a == RT.ACT_CLOUDS:
        o[ZULRAH.anim_clouds] = 1.0
    elif a == RT.ACT_SNAKELING:
        o[ZULRAH.anim_snakeling] = 1.0
    elif a == RT.ACT_MAGMA_PICK:
        o[ZULRAH.anim_stare] = 1.0
    elif a == RT.ACT_MAGMA_SLAM:
        o[ZULRAH.anim_slam] = 1.0
    if not under:
        o[ZULRAH.next_action] = cfg.next_action[s.rotation, s.phase, s.phase_tick] / NEXT_ACTION_SCALE
    o[ZULRAH.phase_time] = s.phase_tick / RT.MAX_PHASE_TICKS
    if s.magma_on:
        o[ZULRAH.stare_on] = 1.0
        o[ZULRAH.stare_dx] = (s.magma_x - p.x) / REL_SCALE
        o[ZULRAH.stare_dy] = (s.magma_y - p.y) / REL_SCALE


@njit(cache=True)
def _observe_clouds(s, o):
    p = s.p
    for k in range(ST.CLOUD_SLOTS):
        cl = s.clouds[k]
        b = k * CLOUD_FEATURES                    # the slot's row (offsets, not a slice)
        if cl.active == 0:
            for j in range(CLOUD_FEATURES):
                o[b + j] = 0.0
            continue
        o[b + CLOUD.active] = 1.0
        o[b + CLOUD.dx] = (cl.x - p.x) / REL_SCALE
        o[b + CLOUD.dy] = (cl.y - p.y) / REL_SCALE
        o[b + CLOUD.life] = cl.life / M.CLOUD_LIFE
        o[b + CLOUD.covers_me] = 1.0 if abs(cl.x - p.x) <= 1 and abs(cl.y - p.y) <= 1 else 0.0


@njit(cache=True)
def _observe_snakelings(s, cfg, o):
    p = s.p
    reach = M.set_range(cfg, s)
    for k in range(ST.SNAKELING_SLOTS):
        sn = s.snakelings[k]
        b = k * SNAKELING_FEATURES                    # the slot's row (offsets, not a slice)
        if sn.active == 0:
            for j in range(SNAKELING_FEATURES):
                o[b + j] = 0.0
            continue
        o[b + SNAKELING.active] = 1.0
        o[b + SNAKELING.magic] = 1.0 if sn.kind == 1 else 0.0
        o[b + SNAKELING.dx] = (sn.x - p.x) / REL_SCALE
        o[b + SNAKELING.dy] = (sn.y - p.y) / REL_SCALE
        o[b + SNAKELING.locked] = 1.0 if sn.lock > 0 else 0.0
        o[b + SNAKELING.life] = sn.life / M.SNAKELING_LIFE
        o[b + SNAKELING.attack_timer] = max(sn.attack_timer, 0) / M.SNAKELING_SPEED
        o[b + SNAKELING.in_range] = 1.0 if M.tile_sees(cfg, p.x, p.y, sn.x, sn.y, reach) else 0.0


@njit(cache=True)
def next_attack_style(s, cfg):
    """1 magic, 2 missiles: the overhead for Zulrah's next shot this phase (RL-A..D prayer when none)."""
    ticks = M.dive_tick(s, cfg)
    t = s.phase_tick
    while 0 <= t < ticks:
        code = cfg.timeline[s.rotation, s.phase, t]
        if code == RT.ACT_RANGED:
            return 2
        if code == RT.ACT_MAGIC or code == RT.ACT_TANZANITE:
            return 1
        step = cfg.next_action[s.rotation, s.phase, t]
        if step == 0:
            break
        t += step
    return cfg.phase_prayer[s.rotation, s.phase]


@njit(cache=True)
def _observe_scaffolding(s, cfg, o):
    for k in range(SCAFFOLDING_FEATURES):
        o[k] = 0.0
    if not cfg.scaffolding:
        return
    p = s.p
    t, r, ph = s.rotation, M.rotation_of(s), s.phase     # timeline (the tables' index), rotation, phase
    known = ph >= cfg.identify_phase[r]
    o[SCAFFOLDING.enabled] = 1.0
    o[SCAFFOLDING.rotation_known] = 1.0 if known else 0.0
    if known:
        o[ROTATION_0 + r] = 1.0
    o[SCAFFOLDING.phase_index] = ph / RT.MAX_PHASES
    o[SCAFFOLDING.jad] = 1.0 if cfg.phase_jad[t, ph] else 0.0
    o[PRAY_0 + next_attack_style(s, cfg)] = 1.0
    if known:
        last = ph + 1 >= cfg.num_phases[t]
        # a new rotation follows the last phase; its bridge is the same in every rotation
        nt, nxt = (RT.NUM_ROTATIONS + r, 0) if last else (t, ph + 1)
        o[NEXT_FORM_0 + cfg.phase_form[nt, nxt]] = 1.0
        o[NEXT_SPOT_0 + cfg.phase_spot[nt, nxt]] = 1.0
        o[SCAFFOLDING.next_jad] = 1.0 if cfg.phase_jad[nt, nxt] else 0.0
    if s.form == RT.MAGMA:
        best, bx, by = 1 << 30, 0, 0
        for k in range(len(RT.MELEE_SAFESPOTS)):
            x, y = RT.MELEE_SAFESPOTS[k]
            d = max(abs(x - p.x), abs(y - p.y))
            if d < best:
                best, bx, by = d, x, y
        o[SCAFFOLDING.tile_valid] = 1.0
        o[SCAFFOLDING.tile_dx] = (bx - p.x) / REL_SCALE
        o[SCAFFOLDING.tile_dy] = (by - p.y) / REL_SCALE
    o[SCAFFOLDING.on_safespot] = 1.0 if cfg.safespot[p.x, p.y] else 0.0


@njit(cache=True)
def observe(s, cfg, obs):
    o = obs[0]
    _observe_self(s, cfg, o[START.self:STOP.self])
    _observe_zulrah(s, cfg, o[START.zulrah:STOP.zulrah])
    _observe_clouds(s, o[START.clouds:STOP.clouds])
    _observe_snakelings(s, cfg, o[START.snakelings:STOP.snakelings])
    _observe_scaffolding(s, cfg, o[START.scaffolding:STOP.scaffolding])


# ---- mask ----------------------------------------------------------------------------------------
@njit(cache=True)
def mask(s, cfg, m):
    row = m[0]                  # agent 0's row: each option at its head's start + its number in the head
    p = s.p
    # move: the platform's move table at this tile; nothing while stunned; running needs energy
    bits = cfg.move_ok[p.x, p.y]
    can_run = p.run_energy >= RUN_MIN_TO_RUN
    for mv in range(ST.NUM_MOVES):
        ok = (bits >> np.uint32(mv)) & np.uint32(1) != 0
        row[MASK_START.move + mv] = mv == ST.MOVE_IDLE or (ok and s.stun == 0 and (mv < ST.MOVE_RUN or can_run))
    # attack: Zulrah or a snakeling slot
    row[MASK_START.attack + ST.ATTACK_NONE] = True
    row[MASK_START.attack + ST.ATTACK_ZULRAH] = M.can_attack_zulrah(s, cfg)
    for j in range(ST.SNAKELING_SLOTS):
        row[MASK_START.attack + ST.ATTACK_SNAKELING + j] = M.can_attack_snakeling(s, cfg, j)
    # overhead: a protection needs prayer points and not to be on already; off needs one on
    praying = p.levels[PRAYER] > 0
    on_magic = M.has_prayer(p, P.PROTECT_FROM_MAGIC)
    on_missiles = M.has_prayer(p, P.PROTECT_FROM_MISSILES)
    row[MASK_START.overhead + ST.OVERHEAD.keep] = True
    row[MASK_START.overhead + ST.OVERHEAD.magic] = praying and not on_magic
    row[MASK_START.overhead + ST.OVERHEAD.missiles] = praying and not on_missiles
    row[MASK_START.overhead + ST.OVERHEAD.off] = on_magic or on_missiles
    # offensive: on needs prayer points and the worn set's prayers not exactly those on; off needs one on
    wanted = np.uint32(cfg.set_offensive[s.tier, s.set])
    every = np.uint32(cfg.set_offensive_all[s.tier])
    active = np.uint32(p.active_prayers) & every
    row[MASK_START.offensive + ST.OFFENSIVE.keep] = True
    row[MASK_START.offensive + ST.OFFENSIVE.on] = praying and active != wanted
    row[MASK_START.offensive + ST.OFFENSIVE.off] = active != 0
    # gear: another set this tier has
    row[MASK_START.gear + ST.GEAR.keep] = True
    for j in range(ST.NUM_SETS):
        row[MASK_START.gear + ST.GEAR_SET + j] = s.set != j and cfg.set_present[s.tier, j] != 0
    # eat
    row[MASK_START.eat + ST.EAT.no] = True
    row[MASK_START.eat + ST.EAT.eat] = s.supplies[ST.SUP_FOOD] > 0 and p.food_timer <= 0 \
        and p.levels[HITPOINTS] < p.base_levels[HITPOINTS]
    # drink: a dose left and the potion timer ready (a prayer dose: points to restore)
    ready = p.potion_timer <= 0
    row[MASK_START.drink + ST.DRINK.none] = True
    row[MASK_START.drink + ST.DRINK.prayer] = ready and s.supplies[ST.SUP_PRAYER] > 0 \
        and p.levels[PRAYER] < p.base_levels[PRAYER]
    row[MASK_START.drink + ST.DRINK.antivenom] = ready and s.supplies[ST.SUP_ANTIVENOM] > 0
    row[MASK_START.drink + ST.DRINK.ranged_boost] = ready and s.supplies[ST.SUP_RANGED_BOOST] > 0
    row[MASK_START.drink + ST.DRINK.magic_boost] = ready and s.supplies[ST.SUP_MAGIC_BOOST] > 0
    # spec: the worn weapon has a special and the energy for it (spent only if the attack happens)
    row[MASK_START.spec + ST.SPEC.none] = True
    row[MASK_START.spec + ST.SPEC.special] = M.can_special(s, cfg)


# ---- metrics -------------------------------------------------------------------------------------
@njit(cache=True)
def metrics(s, cfg, out):
    killed = s.outcome == ST.OUTCOME_KILL
    out.killed = 1.0 if killed else 0.0
    out.died = 1.0 if s.outcome == ST.OUTCOME_DEATH else 0.0
    out.timed_out = 1.0 if s.outcome == ST.OUTCOME_TIMEOUT else 0.0
    out.ticks = s.tick
    out.ticks_to_kill = s.kill_tick if killed else 0.0     # 0 when Zulrah survived
    out.damage_dealt = s.damage_dealt
    out.zulrah_hp_left = max(s.z_hp, 0)
    total = 0
    for k in range(ST.NUM_SOURCES):
        out.taken_by_source[k] = s.damage_taken[k]
        total += s.damage_taken[k]
    out.damage_taken = total
    out.zulrah_attacks = s.zulrah_attacks
    out.correct_prayer_rate = s.prayed_attacks / s.zulrah_attacks if s.zulrah_attacks > 0 else 0.0
    for j in range(ST.NUM_SUPPLIES):
        out.supplies_used[j] = s.supplies_used[j]
    out.snakelings_killed = s.snakelings_killed
    out.specs_used = s.specs_used
    out.spec_healed = s.spec_healed
    out.phases_done = s.phases_done
    out.rotation = M.rotation_of(s)
    out.tier = s.tier
    for j in range(ST.NUM_REWARD_TERMS):
        out.reward_sums[j] = s.reward_sums[0, j]
    return min(cfg.start_phase + s.phases_done, FIGHT_PHASES - 1)


@njit(cache=True)
def cell_key(s, cfg):
    """Archive cell: rotation, phase, Zulrah's hitpoints in tenths, the player's in tenths."""
    z = (10 * max(s.z_hp, 0)) // 500
    me = (10 * max(s.p.levels[HITPOINTS], 0)) // max(s.p.base_levels[HITPOINTS], 1)
    return np.int64(s.rotation) * 100_000 + np.int64(s.phase) * 1000 + z * 11 + me


@njit(cache=True)
def progress(s, cfg):
    """How far a fight has got, for the archive's best state of a cell: Zulrah's hitpoints taken (0..1; it has
    500 however many phases pass [W: Zulrah]), a kill 2; the player's hitpoints left break ties (at most 0.05)."""
    if s.outcome == ST.OUTCOME_KILL:
        return 2.0
    me = max(s.p.levels[HITPOINTS], 0) / max(s.p.base_levels[HITPOINTS], 1)
    return (500 - min(max(s.z_hp, 0), 500)) / 500.0 + 0.05 * min(me, 1.0)

