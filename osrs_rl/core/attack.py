"""One attack from start to hitsplats: rolls, max hit, accuracy draws, damage, specials, bolts.

This is the layer encounters call and the calculator explains:
  1. ``rolls_vs_npc`` / ``rolls_vs_player``: attack roll, defence roll, (min, max) hit, traced.
  2. ``sample_hits``: draw the hitsplats of one attack with the env's RNG (accuracy, damage,
     special-attack kind, enchanted bolt procs, the target's hit cap).
  3. ``expected_damage``: the exact mean of what ``sample_hits`` draws, used by the calculator
     (tests check the two agree by sampling).
"""

import numpy as np
from numba import njit

from osrs_rl.core import bolts as B
from osrs_rl.core import rng as R
from osrs_rl.core import specials as SP
from osrs_rl.core import styles as S
from osrs_rl.core.accuracy import (
    hit_chance,
    npc_defence_roll,
    player_attack_roll,
    player_defence_roll,
    roll_accuracy,
    tbow_target_magic,
)
from osrs_rl.core.damage import apply_hit_cap, capped_value, expected_accurate_damage, mean_damage, roll_damage
from osrs_rl.core.formula import Step, factor
from osrs_rl.core.max_hit import player_max_hit
from osrs_rl.core.skills import MAGIC

MAX_HITSPLATS = 4   # the most hitsplats one attack makes (dragon claws)


@njit(cache=True)
def _defence_type(c, sp):
    return c.attack_type if sp[SP.SP_ATTACK_TYPE] < 0 else sp[SP.SP_ATTACK_TYPE]


@njit(cache=True)
def _magic_special_begin(c, sp):
    """A magic special (nightmare staves, accursed sceptre) is a magic attack whatever style is
    selected: switch the record to an autocast and return what to put back afterwards."""
    old_type, old_stance = c.attack_type, c.stance
    if sp[SP.SP_KIND] == SP.KIND_MAGIC:
        c.attack_type, c.stance = S.MAGIC, S.AUTOCAST
    return old_type, old_stance


@njit(cache=True)
def _finish_rolls(trace, c, sp, tbow, dfn, old_type, old_stance):
    """Attack roll, special defence factor and max hit, then put the record's style back."""
    att = player_attack_roll(trace, c, tbow, sp[SP.SP_ACC_NUM], sp[SP.SP_ACC_DEN])
    if sp[SP.SP_DEF_NUM] != sp[SP.SP_DEF_DEN]:
        dfn = factor(trace, Step.SPECIAL_DEFENCE, dfn, sp[SP.SP_DEF_NUM], sp[SP.SP_DEF_DEN])
    mn, mx = player_max_hit(trace, c, tbow, sp)
    c.attack_type, c.stance = old_type, old_stance
    return att, dfn, mn, mx


@njit(cache=True)
def rolls_vs_npc(trace, c, npc, sp):
    """(attack roll, defence roll, min hit, max hit) of combatant ``c`` against NPC row ``npc``."""
    old_type, old_stance = _magic_special_begin(c, sp)
    dfn = npc_defence_roll(trace, npc, _defence_type(c, sp), c.ammo_class)
    return _finish_rolls(trace, c, sp, tbow_target_magic(npc), dfn, old_type, old_stance)


@njit(cache=True)
def rolls_vs_player(trace, c, d, sp):
    """Rolls of combatant ``c`` against player combatant ``d`` (PvP). The twisted bow reads the
    defender's magic level, capped at 250 (OSRS wiki "Twisted bow": it uses the target's magic
    level; players have no magic attack bonus in the formula) [M]."""
    old_type, old_stance = _magic_special_begin(c, sp)
    dfn = player_defence_roll(trace, d, _defence_type(c, sp))
    return _finish_rolls(trace, c, sp, min(250, np.int64(d.levels[MAGIC])), dfn, old_type, old_stance)


@njit(cache=True)
def _one_hit(rng, att, dfn, mn, mx, sp, bolt_ctx, cap_kind):
    """Damage of one hitsplat (0 on a miss) and whether it was accurate."""
    accurate = sp[SP.SP_ALWAYS_HITS] != 0 or roll_accuracy(rng, att, dfn)
    if bolt_ctx[B.CTX_EFFECT] != 0:
        damage = B.bolt_hit(rng, bolt_ctx, accurate, mn, mx, sp[SP.SP_KIND] == SP.KIND_BOLT_SPEC,
                            sp[SP.SP_BOLT_CHANCE_MULT])
    elif accurate and sp[SP.SP_BONUS_NUM] > 0:
        # bonus damage joins the roll before an accurate 0 is raised to 1, as dps-calc transforms do
        damage = R.between(rng, mn, mx)
        if R.chance(rng, sp[SP.SP_BONUS_NUM], sp[SP.SP_BONUS_DEN]):
            damage += sp[SP.SP_BONUS_DAMAGE]
        damage = max(np.int64(1), damage) if mx > 0 else damage
    elif accurate:
        damage = roll_damage(rng, mn, mx)
    elif sp[SP.SP_FLAT_MIN] > 0 or sp[SP.SP_ALT_FLAT_MIN] > 0:
        damage = mn         # dark bow: a missed arrow still deals the special's minimum
    else:
        damage = np.int64(0)
    if sp[SP.SP_CAP] > 0 and damage > sp[SP.SP_CAP]:
        damage = sp[SP.SP_CAP]
    return apply_hit_cap(rng, damage, cap_kind), accurate


@njit(cache=True)
def sample_hits(rng, att, dfn, mn, mx, sp, bolt_ctx, cap_kind, out):
    """Draw one attack's hitsplats into ``out`` (length >= MAX_HITSPLATS); returns their count.

    ``sp`` is the attack's row (``specials.build_normal_table()[effect]`` for a normal attack,
    ``build_special_table()[effect]`` for a special); ``bolt_ctx`` the enchanted-bolt context
    (``bolts.bolt_context``; all zeros for no bolt).
    """
    if sp[SP.SP_KIND] == SP.KIND_CLAWS:
        k = 0
        while k < 4 and not roll_accuracy(rng, att, dfn):
            k += 1
        SP.claws_split(rng, mx, k, out, 0)
        for j in range(4):
            out[j] = apply_hit_cap(rng, out[j], cap_kind)
        return 4
    n = sp[SP.SP_HITS]
    for h in range(n):
        out[h], _ = _one_hit(rng, att, dfn, mn, mx, sp, bolt_ctx, cap_kind)
    return n


@njit(cache=True)
def _claws_expected(p, mx, cap_kind):
    """Mean total damage of a dragon claws special (dps-calc dists/claws.ts)."""
    total = 0.0
    miss = 1.0
    for k in range(4):
        low = (mx * (4 - k)) // 4
        high = mx + low - 1
        mean_total = 0.0
        count = 0
        for d in range(low, high + 1):
            if k == 0:
                splats = (d // 2, d // 4, d // 8, d // 8 + 1)
            elif k == 1:
                splats = (0, d // 2, d // 4, d // 4 + 1)
            elif k == 2:
                splats = (0, 0, d // 2, d // 2 + 1)
            else:
                splats = (0, 0, 0, d + 1)
            for s in splats:
                mean_total += expected_accurate_damage(s, s, cap_kind) if s > 0 else 0.0
            count += 1
        total += miss * p * (mean_total / max(count, 1))
        miss *= 1.0 - p
    return total + miss * (2.0 / 3.0) * 2.0


@njit(cache=True)
def expected_damage(att, dfn, mn, mx, sp, bolt_ctx, cap_kind):
    """Exact mean damage of one attack as ``sample_hits`` draws it."""
    p = 1.0 if sp[SP.SP_ALWAYS_HITS] != 0 else hit_chance(att, dfn)
    if sp[SP.SP_KIND] == SP.KIND_CLAWS:
        return _claws_expected(p, mx, cap_kind)
    if bolt_ctx[B.CTX_EFFECT] != 0:
        per_hit = B.expected_bolt_hit(p, bolt_ctx, mn, mx, sp[SP.SP_KIND] == SP.KIND_BOLT_SPEC,
                                      sp[SP.SP_BOLT_CHANCE_MULT], cap_kind)
    else:
        if mx <= 0:
            acc_mean = 0.0
        elif sp[SP.SP_CAP] > 0:
            # capped arrows (dark bow): values above the cap become the cap, then the target's cap
            acc_mean = 0.0
            for d in range(mn, mx + 1):
                acc_mean += capped_value(min(max(d, 1), sp[SP.SP_CAP]), cap_kind)
            acc_mean /= mx - mn + 1
        else:
            acc_mean = mean_damage(mn, mx, 0, True, cap_kind)
            if sp[SP.SP_BONUS_NUM] > 0:
                q = sp[SP.SP_BONUS_NUM] / sp[SP.SP_BONUS_DEN]
                acc_mean = (1.0 - q) * acc_mean + q * mean_damage(mn, mx, sp[SP.SP_BONUS_DAMAGE], True, cap_kind)
        miss_damage = 0.0
        if sp[SP.SP_FLAT_MIN] > 0 or sp[SP.SP_ALT_FLAT_MIN] > 0:
            miss_damage = capped_value(mn, cap_kind)
        per_hit = p * acc_mean + (1.0 - p) * miss_damage
    return sp[SP.SP_HITS] * per_hit
