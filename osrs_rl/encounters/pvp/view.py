"""What each player sees and may do: observation, action mask and end-of-fight metrics.

A player sees its own state; of the opponent only what the game shows (gear style, overhead, an
HP bar in 30ths, freeze, the last attack animation); both positions. The ``privileged`` segment
holds the opponent's hidden state (exact hitpoints, special energy, prayer, supplies) for a critic:
policies must not read it (the trainer drops that segment from the policy's input).
"""

import numpy as np
from numba import njit

from osrs_rl.core import styles as S
from osrs_rl.core.movement import chebyshev_distance, in_melee_reach, overlaps
from osrs_rl.core.pending_hits import HIT_PENDING
from osrs_rl.core.skills import ATTACK, DEFENCE, HITPOINTS, MAGIC, PRAYER, RANGED, STRENGTH
from osrs_rl.core.specials import SP_COST
from osrs_rl.core.status import can_move
from osrs_rl.encounters.pvp import mechanics as M
from osrs_rl.encounters.pvp import state as ST

HP_BAR_STEPS = 30          # the overhead HP bar shows hitpoints in 30ths (OSRS wiki "Hitpoints") [M]
MAX_TIMER = 6.0
SUPPLY_SCALE = 20.0
BOOST_SCALE = 20.0
PENDING_SCALE = 4.0
FREEZE_SCALE = 32.0
SELF_FEATURES = 30
OPPONENT_FEATURES = 13
RELATION_FEATURES = 7
PRIVILEGED_FEATURES = 9
OBS_SIZE = SELF_FEATURES + OPPONENT_FEATURES + RELATION_FEATURES + PRIVILEGED_FEATURES
_BOOSTED = (ATTACK, STRENGTH, DEFENCE, RANGED, MAGIC)


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
    k = 0
    # ---- self ----
    o[k] = p.levels[HITPOINTS] / 99.0
    o[k + 1] = p.levels[PRAYER] / 99.0
    o[k + 2] = p.spec_energy / 100.0
    o[k + 3] = min(max(p.attack_timer, 0), MAX_TIMER) / MAX_TIMER
    o[k + 4] = 1.0 if p.food_timer > 0 else 0.0
    o[k + 5] = 1.0 if p.potion_timer > 0 else 0.0
    o[k + 6] = 1.0 if p.karambwan_timer > 0 else 0.0
    o[k + 7] = p.freeze_ticks / FREEZE_SCALE
    o[k + 8] = p.freeze_immunity_ticks / 5.0
    k += 9
    for j in range(ST.NUM_SETS):
        o[k + j] = 1.0 if pl.set == j else 0.0
    k += ST.NUM_SETS
    over = M.overhead(p)
    for j in range(3):
        o[k + j] = 1.0 if over == j else 0.0
    k += 3
    o[k] = 1.0 if np.uint32(p.active_prayers) & M.offensive_mask(cfg, pl.build) else 0.0
    k += 1
    for j in range(ST.NUM_SUPPLIES):
        o[k + j] = pl.supplies[j] / SUPPLY_SCALE
    k += ST.NUM_SUPPLIES
    for j in range(5):
        sk = _BOOSTED[j]
        o[k + j] = (p.levels[sk] - p.base_levels[sk]) / BOOST_SCALE
    k += 5
    o[k] = 1.0 if pl.set == ST.SET_SPEC else 0.0
    k += 1
    # ---- opponent, as the game shows it ----
    hp_max = max(1, q.base_levels[HITPOINTS])
    o[k] = ((max(q.levels[HITPOINTS], 0) * HP_BAR_STEPS) // hp_max) / HP_BAR_STEPS
    style = M.hit_style(cfg.set_combat[foe.build, foe.set].attack_type)
    for j in range(3):
        o[k + 1 + j] = 1.0 if style == j else 0.0
    over = M.overhead(q)
    for j in range(3):
        o[k + 4 + j] = 1.0 if over == j else 0.0
    o[k + 7] = q.freeze_ticks / FREEZE_SCALE
    for j in range(3):
        o[k + 8 + j] = 1.0 if foe.last_attack_style == j else 0.0
    since = s.tick - foe.last_attack_tick if foe.last_attack_tick >= 0 else 10
    o[k + 11] = min(since, 10) / 10.0
    o[k + 12] = 1.0 if foe.set == ST.SET_SPEC else 0.0
    k += OPPONENT_FEATURES
    # ---- relation ----
    o[k] = chebyshev_distance(p.x, p.y, 1, q.x, q.y, 1) / ST.ARENA
    o[k + 1] = 1.0 if in_melee_reach(p.x, p.y, 1, q.x, q.y, 1) else 0.0
    o[k + 2] = 1.0 if M.attack_reach(s, cfg, me, pl.set) else 0.0
    o[k + 3] = 1.0 if M.attack_reach(s, cfg, 1 - me, foe.set) else 0.0
    incoming, outgoing = _pending(s, me)
    o[k + 4] = incoming / PENDING_SCALE
    o[k + 5] = outgoing / PENDING_SCALE
    o[k + 6] = s.tick / cfg.max_ticks
    k += RELATION_FEATURES
    # ---- privileged: hidden from a real player ----
    o[k] = q.levels[HITPOINTS] / 99.0
    o[k + 1] = q.spec_energy / 100.0
    o[k + 2] = q.levels[PRAYER] / 99.0
    for j in range(ST.NUM_SUPPLIES):
        o[k + 3 + j] = foe.supplies[j] / SUPPLY_SCALE


@njit(cache=True)
def mask_player(s, cfg, me, m):
    pl, foe = s.players[me], s.players[1 - me]
    p, q = pl.p, foe.p
    m[:] = False
    off = 0
    # loadout: keep, or any other set (the spec set needs the energy for one special)
    m[off] = True
    for j in range(ST.NUM_SETS):
        ok = j != pl.set
        if j == ST.SET_SPEC:
            ok = ok and p.spec_energy >= cfg.set_row[pl.build, ST.SET_SPEC, SP_COST]
        m[off + 1 + j] = ok
    off += ST.HEAD_SIZES[ST.H_LOADOUT]
    for j in range(4):                       # attack
        m[off + j] = M.can_attack(s, cfg, me, j)
    off += ST.HEAD_SIZES[ST.H_ATTACK]
    mobile = can_move(p)                     # move
    m[off] = True
    m[off + ST.MOVE_TOWARD] = mobile and not in_melee_reach(p.x, p.y, 1, q.x, q.y, 1)
    m[off + ST.MOVE_UNDER] = mobile and q.freeze_ticks > 0 and not overlaps(p.x, p.y, 1, q.x, q.y, 1) \
        and chebyshev_distance(p.x, p.y, 1, q.x, q.y, 1) <= 1
    m[off + ST.MOVE_AWAY] = mobile
    off += ST.HEAD_SIZES[ST.H_MOVE]
    over = M.overhead(p)                     # overhead
    has_prayer = p.levels[PRAYER] > 0
    m[off] = True
    m[off + ST.OVERHEAD_MAGIC] = has_prayer and over != 2
    m[off + ST.OVERHEAD_MISSILES] = has_prayer and over != 1
    m[off + ST.OVERHEAD_MELEE] = has_prayer and over != 0
    m[off + ST.OVERHEAD_OFF] = over >= 0
    off += ST.HEAD_SIZES[ST.H_OVERHEAD]
    offensive_on = (np.uint32(p.active_prayers) & M.offensive_mask(cfg, pl.build)) != 0   # offensive
    m[off] = True
    m[off + ST.OFFENSIVE_ON] = has_prayer and not offensive_on
    m[off + ST.OFFENSIVE_OFF] = offensive_on
    off += ST.HEAD_SIZES[ST.H_OFFENSIVE]
    hurt = p.levels[HITPOINTS] < p.base_levels[HITPOINTS]
    m[off] = True                            # food
    m[off + 1] = pl.supplies[ST.SUP_FOOD] > 0 and p.food_timer <= 0 and hurt
    off += 2
    m[off] = True                            # karambwan
    m[off + 1] = pl.supplies[ST.SUP_KARAMBWAN] > 0 and p.karambwan_timer <= 0 and hurt
    off += 2
    drink = p.potion_timer <= 0              # potion
    m[off] = True
    m[off + ST.POTION_BREW] = drink and pl.supplies[ST.SUP_BREW] > 0
    m[off + ST.POTION_RESTORE] = drink and pl.supplies[ST.SUP_RESTORE] > 0
    boost = ST.SUP_RANGING if cfg.set_combat[pl.build, pl.set].attack_type == S.RANGED else ST.SUP_COMBAT
    m[off + ST.POTION_BOOST] = drink and pl.supplies[boost] > 0


METRIC_NAMES = ("won", "lost", "draw", "ticks", "damage_dealt", "damage_taken", "off_prayer_hits_landed",
                "off_prayer_hits_taken", "freezes_landed", "food_used", "brews_used", "specs_used",
                "food_left", "opponent_tier")
PHASE_NAMES = ("under_100_ticks", "100_to_200_ticks", "over_200_ticks")


@njit(cache=True)
def metrics(s, cfg, out):
    me, foe = s.players[0], s.players[1]
    out[0] = 1.0 if s.outcome == ST.OUTCOME_WIN else 0.0
    out[1] = 1.0 if s.outcome == ST.OUTCOME_LOSS else 0.0
    out[2] = 1.0 if s.outcome == ST.OUTCOME_DRAW else 0.0
    out[3] = s.tick
    out[4] = me.damage_dealt
    out[5] = me.damage_taken
    out[6] = me.off_prayer_hits_landed
    out[7] = foe.off_prayer_hits_landed
    out[8] = me.freezes_landed
    out[9] = me.food_used
    out[10] = me.brews_used
    out[11] = me.specs_used
    out[12] = me.supplies[ST.SUP_FOOD] + me.supplies[ST.SUP_KARAMBWAN]
    out[13] = s.opponent_tier
    return 0 if s.tick < 100 else (1 if s.tick < 200 else 2)


