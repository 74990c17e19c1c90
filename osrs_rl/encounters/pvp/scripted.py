"""Scripted NH opponents: one decision kernel, ten tiers of named parameters (``TIERS``).

What a scripted player reads: its own full state; of the opponent only what the game shows (the
HP bar in 30ths of its maximum, the worn gear set and so its style, its overhead prayer, its freeze,
both positions, the animation of its last attack and when it was made); nothing hidden (exact
hitpoints, supplies, special energy, prayer points, timers). The nightmare tier additionally reads,
with probability ``intent`` per tick, the opponent's action row for this very tick (the gear it
switches to, whether it attacks, the overhead it turns on).

Each tick a scripted player, in this order:
  1. with probability ``mistake`` presses random legal buttons instead (a human slip) and stops;
  2. prayer: when it reads intent it prays against the style of the gear the opponent switches to
     this tick. Otherwise, on a tick the opponent may attack (its last attack animation is at least
     ``_READY_TICKS`` old), with probability ``guess`` it guesses the style of a one-tick switch
     (uniformly among the styles that can reach it; only nightmare guesses: the measured ladder
     is stronger with reactive praying below it); else, with probability ``1 / (1 + reaction)`` per
     tick, it reacts to the gear it sees and prays right with probability ``pray``;
  3. attack, when its own attack timer allows: with probability ``offpray`` it plays the strong
     line, else it keeps its gear (leaving the tank and spec sets for mage). The strong line: the
     special when the opponent's HP bar is at most ``spec_hp``, the special's style is not
     protected (the overhead it sees, or reads from intent) and it reaches (melee specials need
     melee reach or one step); else, with probability ``freeze``, an ice barrage on an opponent that
     is neither frozen nor immune; else the set in reach with the best expected damage per tick
     on the gear the opponent wears, 40 % less on its prayer (``_expected_rate``, from the gear's
     rolls). Gear switch and attack share the tick; a switch to magic attacks with the "weapon"
     option (the staff's autocast, ice barrage). Already in magic gear: blood barrage when hurt
     or the target is frozen, ice otherwise;
  4. between attacks it wears its tank set with probability ``tank`` per tick;
  5. movement: one step into melee reach for a melee attack; out of a frozen opponent's melee reach
     to farcast (probability ``freeze``); toward the opponent when out of ranged reach;
  6. offensive prayer (``offensive``): on with each attack (the prayer of the attack's style), off
     the tick before the next one (prayer flicking: no drain while it waits);
  7. supplies: below ``eat_hp`` of its hitpoints it eats (with the same reaction chance as prayer,
     and not on a tick it attacks: food delays the attack); below ``combo_hp`` it eats at once and
     adds a brew and a karambwan (combo eat); a brew also when the food is gone. It drinks a
     restore when its prayer is under 20 or brews drained its magic or ranged by more than 8;
  8. Vengeance whenever it is ready;
  9. the tick's input budget (10 client packets, RULES 1.1, 1.6): when the row does not fit it puts off,
     in this order, Vengeance, the karambwan, the potion, the offensive prayer, then the gear
     switch with its attack and step, and last the food (a slip's random buttons are not trimmed:
     the kernel drops what does not fit).

Strength is monotone in tier: lower tiers slip more, react later, pray and switch worse, freeze,
tank and spec less and eat later; the mistake and off-prayer rates are what separate them (see the
README). ``osrs-rl eval pvp --tool ladder`` measures the order: with its 1000-tick limit each tier beats
the one below in 63-92 % of fights and nightmare beats the middle tiers in 98-100 %. Freeze immunity is
read from the player record: a player sees a freeze end and counts the 5 ticks.
"""

import numpy as np
from numba import njit

from osrs_rl.core import rng as R
from osrs_rl.core import styles as S
from osrs_rl.core.accuracy import hit_chance
from osrs_rl.core.attack import rolls_vs_player
from osrs_rl.core.equipment import attack_speed
from osrs_rl.core.formula import NO_TRACE
from osrs_rl.core.movement import chebyshev_distance, in_melee_reach
from osrs_rl.core.pending_hits import STYLE_MAGIC, STYLE_MELEE, STYLE_RANGED
from osrs_rl.core.skills import HITPOINTS, MAGIC, NUM_SKILLS, PRAYER, RANGED

from . import mechanics as M
from . import state as ST
from .view import HP_BAR_STEPS, MASK_START, MASK_STOP, mask_player

# ---- tier parameters (columns) ------------------------------------------------------------------
(T_MISTAKE, T_PRAY, T_REACTION, T_GUESS, T_OFFPRAY, T_SPEC_HP, T_FREEZE, T_TANK, T_EAT_HP, T_COMBO_HP,
 T_INTENT, T_OFFENSIVE) = range(12)
TIER_NAMES = ("random", "novice", "beginner", "casual", "average", "skilled", "veteran", "expert", "elite",
              "nightmare")
# mistake: chance per tick of random legal buttons       pray: chance a prayer reaction is right
# reaction: mean ticks before reacting to visible gear   guess: chance to guess a one-tick switch
# offpray: chance to attack off the seen prayer           spec_hp: spec at or below this HP bar
# freeze: chance to open with ice barrage and farcast    tank: chance to tank between attacks
# eat_hp / combo_hp: eat / combo-eat below these fractions of its own hitpoints
# intent: chance per tick to read the opponent's action row   offensive: uses offensive prayers
#                 mistake pray  react guess offpray spec_hp freeze tank eat_hp combo_hp intent offens
TIERS = np.array([
    [1.00,   0.00, 0, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.0, 0],   # random: legal buttons at random
    [0.38,   0.30, 4, 0.00, 0.20, 0.30, 0.00, 0.00, 0.40, 0.20, 0.0, 0],   # novice
    [0.29,   0.45, 3, 0.00, 0.35, 0.40, 0.20, 0.00, 0.40, 0.20, 0.0, 0],   # beginner
    [0.26,   0.60, 3, 0.00, 0.50, 0.45, 0.35, 0.20, 0.40, 0.20, 0.0, 1],   # casual
    [0.19,   0.70, 2, 0.00, 0.60, 0.50, 0.50, 0.40, 0.45, 0.25, 0.0, 1],   # average
    [0.13,   0.80, 2, 0.00, 0.70, 0.55, 0.60, 0.60, 0.45, 0.30, 0.0, 1],   # skilled
    [0.09,   0.87, 1, 0.00, 0.75, 0.60, 0.75, 0.75, 0.50, 0.30, 0.0, 1],   # veteran
    [0.035,  0.93, 1, 0.00, 0.85, 0.65, 0.85, 0.90, 0.55, 0.35, 0.0, 1],   # expert
    [0.005,  0.97, 0, 0.00, 1.00, 0.70, 0.95, 1.00, 0.55, 0.40, 0.0, 1],   # elite
    [0.00,   1.00, 0, 1.00, 1.00, 0.80, 1.00, 1.00, 0.60, 0.45, 0.5, 1],   # nightmare: perfect, reads intent
], dtype=np.float64)
NUM_TIERS = TIERS.shape[0]

_READY_TICKS = 4              # the fastest NH weapons attack every 4 ticks: an older animation means "may attack now"
_OVERHEAD_FOR = (ST.OVERHEAD_MELEE, ST.OVERHEAD_MISSILES, ST.OVERHEAD_MAGIC)   # by pending-hit style
_SET_FOR = (ST.SET_MELEE, ST.SET_RANGED, ST.SET_MAGE)                           # by pending-hit style


# each head's (start, stop) in the flat mask, by its element of the action row (ST.HEAD): what _random_legal loops
_HEAD_BOUNDS = tuple((int(MASK_START[h.name]), int(MASK_STOP[h.name])) for h in ST.HEADS)


@njit(cache=True)
def _random_legal(s, mask, out):
    for h in range(len(_HEAD_BOUNDS)):
        start, stop = _HEAD_BOUNDS[h]
        legal = 0
        for j in range(stop - start):
            legal += mask[start + j]
        pick = R.below(s.rng, legal)
        for j in range(stop - start):
            if mask[start + j]:
                if pick == 0:
                    out[h] = j
                    break
                pick -= 1


@njit(cache=True)
def _set_style(cfg, pl, set_index):
    return M.hit_style(M.set_attack_type(cfg, pl, set_index))


@njit(cache=True)
def _hp_bar(p):
    """The HP bar the game shows above a player: hitpoints in 30ths of the maximum, as a fraction."""
    return ((max(p.levels[HITPOINTS], 0) * HP_BAR_STEPS) // max(1, p.base_levels[HITPOINTS])) / HP_BAR_STEPS


@njit(cache=True)
def _reaches(cfg, pl, set_index, dist, adjacent):
    r = M.set_reach(cfg, pl, set_index)
    return adjacent if r <= 1 else (dist >= 1 and dist <= r)


@njit(cache=True)
def _expected_rate(s, cfg, me, set_index, foe_set, protected):
    """Mean damage per tick of an attack in ``set_index`` on the opponent wearing ``foe_set`` (from
    the gear's rolls, the attacker's current levels and the opponent's listed levels; 40 % less on
    the opponent's prayer)."""
    pl, foe = s.players[me], s.players[1 - me]
    b = pl.build
    pl.combat[0] = cfg.set_combat[b, pl.kit, set_index]      # scratch the mechanics rebuild before any attack
    c = pl.combat[0]
    for k in range(NUM_SKILLS):
        c.levels[k] = pl.p.levels[k]
    att, dfn, mn, mx = rolls_vs_player(NO_TRACE, c, cfg.set_combat[foe.build, foe.kit, foe_set],
                                       cfg.set_row[b, pl.kit, set_index])
    rate = hit_chance(att, dfn) * 0.5 * (mn + max(mx, 1)) / attack_speed(c)
    if M.hit_style(c.attack_type) == protected:
        rate *= 0.6
    return rate


@njit(cache=True)
def scripted_actions(s, cfg, me, tier, intent, mask, out):
    """Write scripted player ``me``'s action row into ``out``; ``intent`` is the other player's
    action row for this tick (read only by tiers with an intent probability); ``mask`` is scratch."""
    decide(s, cfg, me, TIERS[tier], intent, mask, out)


@njit(cache=True)
def decide(s, cfg, me, t, intent, mask, out):  # noqa: C901 - one tick's choice of every scripted tier, gated by tier
    """The kernel behind ``scripted_actions`` with the tier's parameter row ``t`` given."""
    mask_player(s, cfg, me, mask)
    out[:] = 0
    if R.uniform(s.rng) < t[T_MISTAKE]:
        _random_legal(s, mask, out)
        return
    pl, foe = s.players[me], s.players[1 - me]
    p, q = pl.p, foe.p
    dist = chebyshev_distance(p.x, p.y, 1, q.x, q.y, 1)
    adjacent = in_melee_reach(p.x, p.y, 1, q.x, q.y, 1)
    read = t[T_INTENT] > 0 and R.uniform(s.rng) < t[T_INTENT]
    react = R.uniform(s.rng) * (1.0 + t[T_REACTION]) < 1.0

    # ---- 2. protection prayer ----
    foe_set = foe.set
    if read and intent[ST.H_LOADOUT] != ST.LOADOUT_KEEP:
        foe_set = intent[ST.H_LOADOUT] - ST.LOADOUT_SET_0
    foe_style = _set_style(cfg, foe, foe_set)
    over = M.overhead(p)
    want = -1
    if read:
        want = foe_style
    else:
        ready = foe.last_attack_tick < 0 or s.tick - foe.last_attack_tick >= _READY_TICKS
        # the foe can melee me now (adjacent), or after one step when it is free to walk
        melee_threat = adjacent or (q.freeze_ticks == 0 and dist <= 2)
        if ready and R.uniform(s.rng) < t[T_GUESS]:
            # guess the one-tick switch: a switcher never attacks into the prayer it sees
            pick = R.below(s.rng, 3 if melee_threat else 2)
            want = STYLE_MAGIC if pick == 0 else (STYLE_RANGED if pick == 1 else STYLE_MELEE)
        elif react:
            if R.uniform(s.rng) < t[T_PRAY]:
                want = foe_style
            else:
                want = (foe_style + 1 + R.below(s.rng, 2)) % 3
    if want >= 0 and want != over and mask[MASK_START.overhead + _OVERHEAD_FOR[want]]:
        out[ST.H_OVERHEAD] = _OVERHEAD_FOR[want]

    # ---- 3. attack ----
    protected = M.overhead(q)
    if read:
        o = intent[ST.H_OVERHEAD]
        if o == ST.OVERHEAD_MAGIC:
            protected = STYLE_MAGIC
        elif o == ST.OVERHEAD_MISSILES:
            protected = STYLE_RANGED
        elif o == ST.OVERHEAD_MELEE:
            protected = STYLE_MELEE
        elif o == ST.OVERHEAD_OFF:
            protected = -1
    new_set = pl.set
    attack = ST.ATTACK_NONE
    energy = p.spec_energy >= M.spec_cost(cfg, pl)
    can_step = p.freeze_ticks == 0 and dist <= 2          # one step puts it in melee reach
    if p.attack_timer <= 0:
        if R.uniform(s.rng) < t[T_OFFPRAY]:
            spec_ok = energy and _set_style(cfg, pl, ST.SET_SPEC) != protected and _hp_bar(q) <= t[T_SPEC_HP] \
                and (M.set_reach(cfg, pl, ST.SET_SPEC) > 1 or adjacent or can_step)
            if spec_ok:
                new_set = ST.SET_SPEC
            elif protected != STYLE_MAGIC and q.freeze_ticks == 0 and q.freeze_immunity_ticks == 0 \
                    and R.uniform(s.rng) < t[T_FREEZE]:
                new_set = ST.SET_MAGE
            else:
                # the style in reach with the best expected damage, off the opponent's prayer
                best = -1.0
                for style in range(3):
                    k = _SET_FOR[style]
                    if _reaches(cfg, pl, k, dist, adjacent):
                        rate = _expected_rate(s, cfg, me, k, foe_set, protected)
                        if rate > best:
                            best = rate
                            new_set = k
        elif (pl.set == ST.SET_SPEC and not energy) or pl.set == ST.SET_TANK:
            new_set = ST.SET_MAGE
        if M.set_reach(cfg, pl, new_set) > 1 or adjacent or can_step:
            # a weapon attack in a staff set casts the autocast (ice barrage): the way to switch to
            # magic and cast in one tick, since the spell options need magic gear already worn
            attack = ST.ATTACK_WEAPON
            if M.set_attack_type(cfg, pl, new_set) == S.MAGIC and new_set == pl.set:
                hurt = p.levels[HITPOINTS] < 0.9 * p.base_levels[HITPOINTS]
                attack = ST.ATTACK_BLOOD if (hurt or q.freeze_ticks > 0) else ST.ATTACK_ICE
            if not mask[MASK_START.attack + attack]:
                attack = ST.ATTACK_NONE
    elif R.uniform(s.rng) < t[T_TANK]:
        new_set = ST.SET_TANK              # ---- 4. tank between attacks
    if new_set != pl.set:
        if mask[MASK_START.loadout + ST.LOADOUT_SET_0 + new_set]:
            out[ST.H_LOADOUT] = ST.LOADOUT_SET_0 + new_set
        else:
            new_set = pl.set
    out[ST.H_ATTACK] = attack

    # ---- 5. movement ----
    if attack != ST.ATTACK_NONE and M.set_reach(cfg, pl, new_set) <= 1:
        if not adjacent and mask[MASK_START.move + ST.MOVE_TOWARD]:
            out[ST.H_MOVE] = ST.MOVE_TOWARD
    elif q.freeze_ticks > 0 and dist <= 1 and R.uniform(s.rng) < t[T_FREEZE] \
            and mask[MASK_START.move + ST.MOVE_AWAY]:
        out[ST.H_MOVE] = ST.MOVE_AWAY       # farcast: out of the frozen player's melee reach
    elif dist > M.set_reach(cfg, pl, ST.SET_RANGED) and mask[MASK_START.move + ST.MOVE_TOWARD]:
        out[ST.H_MOVE] = ST.MOVE_TOWARD

    # ---- 6. offensive prayer: the one of the style it attacks with, flicked on for each attack
    if t[T_OFFENSIVE] > 0:
        if attack != ST.ATTACK_NONE and mask[MASK_START.offensive + ST.OFFENSIVE_ON]:
            out[ST.H_OFFENSIVE] = ST.OFFENSIVE_ON
        elif p.attack_timer == 1 and mask[MASK_START.offensive + ST.OFFENSIVE_OFF]:
            out[ST.H_OFFENSIVE] = ST.OFFENSIVE_OFF

    # ---- 7. supplies ----
    my_bar = p.levels[HITPOINTS] / max(1, p.base_levels[HITPOINTS])
    combo = my_bar < t[T_COMBO_HP]
    eat = my_bar < t[T_EAT_HP] and (combo or attack == ST.ATTACK_NONE) and (react or combo)
    if eat and mask[MASK_START.food + ST.FOOD.eat]:
        out[ST.H_FOOD] = ST.FOOD.eat
    drained = p.levels[MAGIC] < p.base_levels[MAGIC] - 8 or p.levels[RANGED] < p.base_levels[RANGED] - 8
    if (p.levels[PRAYER] < 20 or (drained and not combo)) and mask[MASK_START.potion + ST.POTION_RESTORE]:
        out[ST.H_POTION] = ST.POTION_RESTORE
    elif (combo or (eat and pl.supplies[ST.SUP_FOOD] == 0)) and mask[MASK_START.potion + ST.POTION_BREW]:
        out[ST.H_POTION] = ST.POTION_BREW
    if combo and mask[MASK_START.karambwan + ST.KARAMBWAN.eat]:
        out[ST.H_KARAMBWAN] = ST.KARAMBWAN.eat
    # ---- 8. Vengeance (Lunar builds) whenever it is ready, unless this tick is a slip
    if mask[MASK_START.vengeance + ST.VENGEANCE.cast]:
        out[ST.H_VENGEANCE] = ST.VENGEANCE.cast
    _fit_budget(s, cfg, me, out)


_PUT_OFF = (ST.H_VENGEANCE, ST.H_KARAMBWAN, ST.H_POTION, ST.H_OFFENSIVE)


@njit(cache=True)
def _fit_budget(s, cfg, me, out):
    """Step 9: put off inputs (no-op them) until the row fits the tick's input budget."""
    if M.accepted_inputs(s, cfg, me, out) == M.NUM_INPUTS:
        return
    for h in _PUT_OFF:
        out[h] = 0                         # option 0 of every head is its no-op
        if M.accepted_inputs(s, cfg, me, out) == M.NUM_INPUTS:
            return
    out[ST.H_LOADOUT] = ST.LOADOUT_KEEP
    out[ST.H_ATTACK] = ST.ATTACK_NONE
    out[ST.H_MOVE] = ST.MOVE_STAY
    if M.accepted_inputs(s, cfg, me, out) < M.NUM_INPUTS:
        out[ST.H_FOOD] = ST.FOOD.no
