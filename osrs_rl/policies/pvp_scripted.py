"""Scripted NH opponents: one decision kernel, ten tiers of named parameters.

Each tick a scripted player (v0 rules):
  1. with probability ``mistake`` it presses random legal buttons instead (a human slip);
  2. it reads the style its opponent has out (or, with probability ``intent``, the gear set the
     opponent is switching to on this very tick: the nightmare tier reads intent) and, after
     ``reaction`` ticks of seeing it and with probability ``pray``, prays against it;
  3. when the opponent protects against the style it has out, with probability ``offpray`` it
     switches to mage or ranged, whichever is not protected, and keeps its offensive prayer on;
  4. it specs when the opponent's HP bar is below ``spec_hp`` and the special's style is not
     protected (melee specials need melee reach);
  5. it attacks whenever its timer allows, with the set it switched to this tick (ice barrage on an
     unfrozen target, blood barrage when hurt or the target is frozen), walks into melee reach
     when its set needs it, and steps out of a frozen opponent's reach to farcast;
  6. it eats below ``eat_hp`` of its hitpoints (food, then karambwan below ``combo_hp``), and drinks
     a restore when its prayer runs low.
The ladder is meant to be monotone (each tier beats the one below); ``osrs-rl eval pvp --ladder``
(not yet built) will measure it.
"""

import numpy as np
from numba import njit

from osrs_rl.core import rng as R
from osrs_rl.core import styles as S
from osrs_rl.core.movement import in_melee_reach
from osrs_rl.core.skills import HITPOINTS, PRAYER
from osrs_rl.encounters.pvp import mechanics as M
from osrs_rl.encounters.pvp import state as ST
from osrs_rl.encounters.pvp.view import mask_player

# ---- tier parameters (columns) ------------------------------------------------------------------
T_MISTAKE, T_PRAY, T_REACTION, T_OFFPRAY, T_SPEC_HP, T_EAT_HP, T_COMBO_HP, T_INTENT, T_OFFENSIVE = range(9)
TIER_NAMES = ("random", "novice", "beginner", "casual", "average", "skilled", "veteran", "expert", "elite",
              "nightmare")
#                 mistake pray  react offpray spec_hp eat_hp combo_hp intent offensive
TIERS = np.array([
    [1.00,   0.00, 0, 0.00, 0.00, 0.00, 0.00, 0.0, 0],   # random: legal buttons at random
    [0.50,   0.20, 3, 0.10, 0.30, 0.40, 0.20, 0.0, 0],
    [0.35,   0.35, 3, 0.20, 0.40, 0.45, 0.25, 0.0, 0],
    [0.25,   0.50, 2, 0.30, 0.45, 0.50, 0.30, 0.0, 1],
    [0.15,   0.65, 2, 0.45, 0.50, 0.55, 0.35, 0.0, 1],
    [0.10,   0.75, 1, 0.60, 0.55, 0.55, 0.35, 0.0, 1],
    [0.05,   0.85, 1, 0.75, 0.55, 0.60, 0.40, 0.0, 1],
    [0.02,   0.92, 0, 0.85, 0.60, 0.60, 0.40, 0.0, 1],
    [0.01,   0.97, 0, 0.95, 0.60, 0.65, 0.45, 0.0, 1],
    [0.00,   1.00, 0, 1.00, 0.60, 0.65, 0.45, 0.5, 1],   # nightmare: perfect, reads intent half the time
], dtype=np.float64)
NUM_TIERS = TIERS.shape[0]


@njit(cache=True)
def _random_legal(s, mask, out):
    off = 0
    for h in range(len(ST.HEAD_SIZES)):
        n = ST.HEAD_SIZES[h]
        legal = 0
        for j in range(n):
            legal += mask[off + j]
        pick = R.below(s.rng, legal)
        for j in range(n):
            if mask[off + j]:
                if pick == 0:
                    out[h] = j
                    break
                pick -= 1
        off += n


@njit(cache=True)
def _legal(mask, head, option):
    off = 0
    for h in range(head):
        off += ST.HEAD_SIZES[h]
    return mask[off + option]


@njit(cache=True)
def scripted_actions(s, cfg, me, tier, intent, mask, out):
    """Write scripted player ``me``'s action row into ``out``; ``intent`` is the other player's
    action row for this tick (read only by tiers with an intent probability); ``mask`` is scratch."""
    t = TIERS[tier]
    mask_player(s, cfg, me, mask)
    out[:] = 0
    if R.uniform(s.rng) < t[T_MISTAKE]:
        _random_legal(s, mask, out)
        return
    pl, foe = s.players[me], s.players[1 - me]
    p, q = pl.p, foe.p
    # 2. protection prayer against the style the opponent shows (or is switching to)
    foe_set = foe.set
    if t[T_INTENT] > 0 and intent[ST.H_LOADOUT] != ST.LOADOUT_KEEP and R.uniform(s.rng) < t[T_INTENT]:
        foe_set = intent[ST.H_LOADOUT] - 1
    foe_style = M.hit_style(M.set_attack_type(cfg, foe, foe_set))
    seen = s.tick - foe.last_attack_tick >= t[T_REACTION] or foe_set != foe.set
    if seen and R.uniform(s.rng) < t[T_PRAY] and M.overhead(p) != foe_style:
        want = (ST.OVERHEAD_MELEE, ST.OVERHEAD_MISSILES, ST.OVERHEAD_MAGIC)[foe_style]
        if _legal(mask, ST.H_OVERHEAD, want):
            out[ST.H_OVERHEAD] = want
    # 3. attack off the opponent's prayer: leave a style it protects against
    adjacent = in_melee_reach(p.x, p.y, 1, q.x, q.y, 1)
    protected = M.overhead(q)
    my_style = M.hit_style(M.set_attack_type(cfg, pl, pl.set))
    new_set = pl.set
    if (my_style == protected or pl.set == ST.SET_TANK or pl.set == ST.SET_SPEC) \
            and R.uniform(s.rng) < t[T_OFFPRAY]:
        if protected != 2:
            new_set = ST.SET_MAGE
        elif protected != 1:
            new_set = ST.SET_RANGED
    # 4. special attack on a low opponent (melee specials need melee reach)
    bar = q.levels[HITPOINTS] / max(1, q.base_levels[HITPOINTS])
    spec_reach = M.set_reach(cfg, pl, ST.SET_SPEC) > 1 or adjacent
    if spec_reach and bar < t[T_SPEC_HP] and _legal(mask, ST.H_LOADOUT, 1 + ST.SET_SPEC) \
            and M.hit_style(M.set_attack_type(cfg, pl, ST.SET_SPEC)) != protected:
        new_set = ST.SET_SPEC
    if new_set != pl.set and _legal(mask, ST.H_LOADOUT, 1 + new_set):
        out[ST.H_LOADOUT] = 1 + new_set
    else:
        new_set = pl.set
    if t[T_OFFENSIVE] > 0 and _legal(mask, ST.H_OFFENSIVE, ST.OFFENSIVE_ON):
        out[ST.H_OFFENSIVE] = ST.OFFENSIVE_ON
    # 5. attack whenever the timer allows, with the set worn after this tick's switch (inputs come
    #    before turns, so a switch and an attack share the tick); the mechanics check reach
    if p.attack_timer <= 0:
        if M.set_attack_type(cfg, pl, new_set) == S.MAGIC:
            hurt = p.levels[HITPOINTS] < 0.6 * p.base_levels[HITPOINTS]
            out[ST.H_ATTACK] = ST.ATTACK_BLOOD if (hurt or q.freeze_ticks > 0) else ST.ATTACK_ICE
        else:
            out[ST.H_ATTACK] = ST.ATTACK_WEAPON
    if M.set_reach(cfg, pl, new_set) <= 1 and not adjacent and _legal(mask, ST.H_MOVE, ST.MOVE_TOWARD):
        out[ST.H_MOVE] = ST.MOVE_TOWARD
    elif q.freeze_ticks > 0 and adjacent and M.set_reach(cfg, pl, new_set) > 1 \
            and _legal(mask, ST.H_MOVE, ST.MOVE_AWAY):
        out[ST.H_MOVE] = ST.MOVE_AWAY       # freeze and farcast: out of the frozen player's melee reach
    # 6. supplies
    my_bar = p.levels[HITPOINTS] / max(1, p.base_levels[HITPOINTS])
    if my_bar < t[T_EAT_HP] and _legal(mask, ST.H_FOOD, 1):
        out[ST.H_FOOD] = 1
    if my_bar < t[T_COMBO_HP] and _legal(mask, ST.H_KARAMBWAN, 1):
        out[ST.H_KARAMBWAN] = 1
    if _legal(mask, ST.H_VENGEANCE, 1):
        out[ST.H_VENGEANCE] = 1             # Vengeance whenever it is ready (Lunar builds)
    if p.levels[PRAYER] < 20 and _legal(mask, ST.H_POTION, ST.POTION_RESTORE):
        out[ST.H_POTION] = ST.POTION_RESTORE
    elif my_bar < t[T_COMBO_HP] and _legal(mask, ST.H_POTION, ST.POTION_BREW):
        out[ST.H_POTION] = ST.POTION_BREW
