"""Damage: the damage roll, hit caps, protection prayers and expected damage.

Rules (weirdgloop/osrs-dps-calc ``PlayerVsNPCCalc``; OSRS wiki "Protection prayers"):
- an accurate hit deals a uniform integer in [min, max]; an accurate 0 is raised to 1 (dps-calc
  ``getAttackerDist``: "raise accurate 0s to 1") [H]; a miss deals 0.
- NPC damage transforms: Zulrah re-rolls any hit above 50 uniformly in 45..50 (dps-calc
  ``applyNpcTransforms``: ``cappedRerollTransformer(50, 5, 45)`` citing Mod Ash) [H].
- protection prayers: the right overhead blocks an ordinary NPC attack completely (PvE; OSRS wiki
  "Protection prayers") [H]; in PvP it removes 40 %: ``floor(damage * 6 / 10)`` (OSRS wiki
  "Protect from Melee") [M].
- damage dealt never exceeds the target's remaining hitpoints (applied by whoever applies hits).
"""

import numpy as np
from numba import njit

from osrs_rl.core import rng as R
from osrs_rl.core.formula import Step, factor

CAP_NONE = 0
CAP_ZULRAH = 1         # > 50 -> uniform 45..50
CAP_NAMES = ("none", "zulrah")

ZULRAH_CAP_THRESHOLD = 50
ZULRAH_CAP_LOW = 45


@njit(cache=True)
def apply_hit_cap(rng, damage, cap_kind):
    """The target's damage transform applied to one hitsplat."""
    if cap_kind == CAP_ZULRAH and damage > ZULRAH_CAP_THRESHOLD:
        return R.between(rng, ZULRAH_CAP_LOW, ZULRAH_CAP_THRESHOLD)
    return damage


@njit(cache=True)
def roll_damage(rng, min_hit, max_hit):
    """Damage of an accurate hit: uniform in [min, max], an accurate 0 raised to 1 when max > 0."""
    if max_hit <= 0:
        return np.int64(0)
    d = R.between(rng, min_hit, max_hit)
    return max(np.int64(1), d)


@njit(cache=True)
def capped_value(v, cap_kind):
    """The mean of the target's cap transform applied to a hitsplat of ``v``."""
    if cap_kind == CAP_ZULRAH and v > ZULRAH_CAP_THRESHOLD:
        return (ZULRAH_CAP_LOW + ZULRAH_CAP_THRESHOLD) / 2.0
    return float(v)


@njit(cache=True)
def mean_damage(lo, hi, add, raise_zero, cap_kind):
    """Mean of cap(d + add) for d uniform in [lo, hi]; with ``raise_zero`` a 0 counts as 1."""
    total = 0.0
    for d in range(lo, hi + 1):
        v = d + add
        if raise_zero and v < 1:
            v = 1
        total += capped_value(v, cap_kind)
    return total / (hi - lo + 1)


@njit(cache=True)
def expected_accurate_damage(min_hit, max_hit, cap_kind):
    """Mean damage of one accurate hit after the accurate-0 rule and the target's cap."""
    if max_hit <= 0:
        return 0.0
    return mean_damage(min_hit, max_hit, 0, True, cap_kind)


@njit(cache=True)
def roll_npc_damage(rng, max_hit):
    """Damage of an NPC's accurate hit: uniform in [0, max] with no accurate-0 raise (dps-calc
    ``NPCVsPlayerCalc`` and its DamageTaken tests: 0.9574 x 4.0 / 2.4 s = 1.596 dps vs Abyssal demon)."""
    return R.inclusive(rng, np.int64(max_hit))     # int64: one compiled inclusive for every caller


@njit(cache=True)
def expected_npc_damage(hit_chance, max_hit):
    """Mean damage of one NPC attack: hit chance x max / 2."""
    return hit_chance * max(max_hit, 0) / 2.0


@njit(cache=True)
def pvp_protected(trace, damage):
    """Damage through the matching protection prayer in PvP: 60 % of it, floored."""
    return factor(trace, Step.PVP_PROTECTION, damage, 6, 10)


@njit(cache=True)
def through_protection(trace, damage, praying_correctly, attacker_is_player, prayer_blocks):
    """Damage left after the defender's overhead: all of it without the right prayer; 60 % from a
    player; none from an NPC attack that overheads block (``prayer_blocks`` comes from the NPC
    table's ``protection`` field: false for e.g. Zuk's typeless hit or Zulrah's slam)."""
    if not praying_correctly:
        return damage
    if attacker_is_player:
        return pvp_protected(trace, damage)
    return np.int64(0) if prayer_blocks else damage
