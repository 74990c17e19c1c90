"""Max hits for melee, ranged and magic, each step floored in the game's order.

Sources: weirdgloop/osrs-dps-calc ``PlayerVsNPCCalc.getPlayerMax{Melee,Ranged,Magic}Hit``
(read at commit 001f9536):

  melee : str * prayer -> + 8 + stance (Aggressive 3, Controlled 1) -> void x11/10
          -> (eff * (str + 64) + 320) / 640 -> special multipliers
  ranged: rng * prayer (Sharp Eye at least +1) -> + 3 if Accurate -> + 8 -> elite void x9/8 or
          void x11/10 -> base -> crystal set x(40 + pieces)/40 -> twisted bow -> special
  magic : spell base (+3 on bolt spells with Chaos gauntlets, already in ``spell_max``: see
          ``equipment.spell_gear_bonus``) or powered-staff base -> + base * magic damage / 1000
          (gear, prayer, elite void; Tumeken's shadow triples gear magic damage) -> special

Special attacks enter through a *special row* (see ``osrs_rl.core.specials``): damage multipliers
and a minimum-hit fraction. ``max_hit`` returns (min_hit, max_hit).
"""

import numpy as np
from numba import njit

from osrs_rl.core import prayers as P
from osrs_rl.core import styles as S
from osrs_rl.core import weapons as W
from osrs_rl.core.accuracy import apply_prayers, prayer_sum, twisted_bow_factor
from osrs_rl.core.formula import Step, add, factor, note, trunc_div
from osrs_rl.core.skills import MAGIC, RANGED, STRENGTH
from osrs_rl.core.specials import (
    KIND_MSB,
    SP_ALT_DMG_DEN,
    SP_ALT_DMG_NUM,
    SP_ALT_FLAT_MIN,
    SP_COST,
    SP_DMG1_DEN,
    SP_DMG1_NUM,
    SP_DMG2_DEN,
    SP_DMG2_NUM,
    SP_FLAT_MIN,
    SP_KIND,
    SP_MIN_DEN,
    SP_MIN_NUM,
)


@njit(cache=True)
def base_max_hit(trace, eff, strength_bonus):
    """(eff * (bonus + 64) + 320) / 640: the melee and ranged base."""
    return trunc_div(factor(trace, Step.MAX_HIT_BASE, eff, strength_bonus + 64, 1) + 320, 640)


@njit(cache=True)
def apply_special_damage(trace, max_hit, sp, alt):
    """Special-attack multipliers then the min-hit fraction; returns (min, max).

    ``alt`` selects the alternative multiplier and minimum (dark bow with dragon arrows).
    """
    if alt and sp[SP_ALT_DMG_NUM] != sp[SP_ALT_DMG_DEN]:
        max_hit = factor(trace, Step.SPECIAL_DAMAGE, max_hit, sp[SP_ALT_DMG_NUM], sp[SP_ALT_DMG_DEN])
    elif sp[SP_DMG1_NUM] != sp[SP_DMG1_DEN]:
        max_hit = factor(trace, Step.SPECIAL_DAMAGE, max_hit, sp[SP_DMG1_NUM], sp[SP_DMG1_DEN])
    if sp[SP_DMG2_NUM] != sp[SP_DMG2_DEN]:
        max_hit = factor(trace, Step.SPECIAL_DAMAGE, max_hit, sp[SP_DMG2_NUM], sp[SP_DMG2_DEN])
    min_hit = np.int64(0)
    if sp[SP_MIN_NUM] > 0:
        min_hit = factor(trace, Step.SPECIAL_DAMAGE, max_hit, sp[SP_MIN_NUM], sp[SP_MIN_DEN])
        max_hit = add(trace, Step.SPECIAL_DAMAGE, max_hit, min_hit)
    flat_min = sp[SP_ALT_FLAT_MIN] if alt and sp[SP_ALT_FLAT_MIN] > 0 else sp[SP_FLAT_MIN]
    if flat_min > min_hit:
        min_hit = flat_min
    return min_hit, max_hit


@njit(cache=True)
def melee_max_hit(trace, c, sp):
    level = np.int64(c.levels[STRENGTH])
    if level <= 20 and (np.uint32(c.prayers) >> np.uint32(P.BURST_OF_STRENGTH)) & np.uint32(1):
        eff = add(trace, Step.EFFECTIVE_LEVEL, level, 1)   # Burst of Strength gives at least +1
    else:
        eff = apply_prayers(trace, level, c.prayers, P.COL_MELEE_STR)
    stance = 3 if c.stance == S.AGGRESSIVE else (1 if c.stance == S.CONTROLLED else 0)
    eff = add(trace, Step.LEVEL_CONSTANT, eff, 8 + stance)
    if c.void == W.VOID_MELEE:
        eff = factor(trace, Step.VOID, eff, 11, 10)
    max_hit = base_max_hit(trace, eff, np.int64(c.bonuses[S.B_MELEE_STR]))
    return apply_special_damage(trace, max_hit, sp, False)


@njit(cache=True)
def ranged_max_hit(trace, c, tbow_magic, sp):
    level = np.int64(c.levels[RANGED])
    if sp[SP_KIND] == KIND_MSB:
        # Magic shortbow (i) special: +10 effective level, only the arrows' strength, no other gear
        # (dps-calc getPlayerMaxRangedHit, "ignores other gear")
        eff = add(trace, Step.LEVEL_CONSTANT, level, 10)
        return np.int64(0), base_max_hit(trace, eff, np.int64(c.ammo_ranged_str))
    mask = np.uint32(c.prayers)
    if (mask >> np.uint32(P.SHARP_EYE)) & np.uint32(1) and trunc_div(level * 105, 100) == level:
        eff = add(trace, Step.EFFECTIVE_LEVEL, level, 1)    # Sharp Eye forces a one-level gain
    else:
        eff = apply_prayers(trace, level, c.prayers, P.COL_RANGED_STR)
    stance = 3 if c.stance == S.ACCURATE else 0
    eff = add(trace, Step.LEVEL_CONSTANT, eff, 8 + stance)
    if c.void == W.VOID_ELITE_RANGED:
        eff = factor(trace, Step.VOID, eff, 9, 8)
    elif c.void == W.VOID_RANGED:
        eff = factor(trace, Step.VOID, eff, 11, 10)
    max_hit = base_max_hit(trace, eff, np.int64(c.bonuses[S.B_RANGED_STR]))
    if c.weapon_effect == W.CRYSTAL_BOW and c.crystal_pieces > 0:
        max_hit = factor(trace, Step.GEAR_MULTIPLIER, max_hit, 40 + np.int64(c.crystal_pieces), 40)
    if c.weapon_effect == W.TWISTED_BOW:
        max_hit = factor(trace, Step.TWISTED_BOW_DAMAGE, max_hit,
                         twisted_bow_factor(tbow_magic, False), 100)
    return apply_special_damage(trace, max_hit, sp, c.ammo_is_dragon_arrow != 0)


@njit(cache=True)
def powered_staff_base(effect, magic_level):
    """Base max hit of a powered staff at visible magic level [H: dps-calc ``getPlayerMaxMagicHit``
    @ a6599a08; OSRS wiki weapon pages, e.g. "Trident of the seas" (20 at 75 Magic, +1 every 3 levels)].

    Sanguinesti staff follows the July 2026 update (trunc(level/3)); before it was level/3 - 1.
    """
    if effect == W.TRIDENT_OF_THE_SEAS:
        return max(1, trunc_div(magic_level, 3) - 5)
    if effect == W.TRIDENT_OF_THE_SWAMP:
        return max(1, trunc_div(magic_level, 3) - 2)
    if effect == W.SANGUINESTI_STAFF:
        return max(1, trunc_div(magic_level, 3))
    if effect == W.TUMEKENS_SHADOW:
        return max(1, trunc_div(magic_level, 3) + 1)
    if effect == W.ACCURSED_SCEPTRE:
        return max(1, trunc_div(magic_level, 3) - 6)
    return 0


@njit(cache=True)
def magic_damage_bonus(c):
    """Total magic damage bonus in tenths of a percent: gear (tripled by Tumeken's shadow, that
    part capped at 100 %), prayer, and 5 % for the elite void mage set."""
    gear = np.int64(c.bonuses[S.B_MAGIC_DMG])
    if c.weapon_effect == W.TUMEKENS_SHADOW and c.stance != S.MANUAL_CAST:
        gear = min(1000, gear * 3)
    total = gear + prayer_sum(c.prayers, P.COL_MAGIC_DMG)
    if c.void == W.VOID_ELITE_MAGIC:
        total += 50
    return total


@njit(cache=True)
def magic_max_hit(trace, c, sp):
    level = np.int64(c.levels[MAGIC])
    if sp[SP_COST] > 0 and c.weapon_effect == W.ACCURSED_SCEPTRE:
        base = powered_staff_base(c.weapon_effect, level)   # its special ignores the selected spell
    elif c.spell >= 0:
        base = np.int64(c.spell_max)
    elif sp[SP_COST] > 0 and c.weapon_effect == W.VOLATILE_NIGHTMARE_STAFF:
        base = max(1, min(58, trunc_div(99 + 58 * level, 99)))      # volatile special
    elif sp[SP_COST] > 0 and c.weapon_effect == W.ELDRITCH_NIGHTMARE_STAFF:
        base = max(1, min(44, trunc_div(99 + 44 * level, 99)))      # eldritch special
    else:
        base = np.int64(powered_staff_base(c.weapon_effect, level))
    note(trace, Step.SPELL_BASE, base)
    if base == 0:
        return np.int64(0), np.int64(0)
    bonus = magic_damage_bonus(c)
    max_hit = add(trace, Step.MAGIC_DAMAGE_BONUS, base, trunc_div(base * bonus, 1000))
    return apply_special_damage(trace, max_hit, sp, False)


@njit(cache=True)
def player_max_hit(trace, c, tbow_magic, sp):
    """(min_hit, max_hit) of the player's next attack (``sp`` = identity row for a normal one).

    Both are clamped at 0, and a minimum above the maximum raises the maximum (dps-calc
    ``getMinAndMax``: cursed gear can push the formula negative; a dark bow special still deals
    its minimum). A ranged weapon without fitting ammo hits 0.
    """
    if c.attack_type == S.RANGED and not c.ammo_ok:
        return np.int64(0), np.int64(0)
    if c.attack_type == S.RANGED:
        mn, mx = ranged_max_hit(trace, c, tbow_magic, sp)
    elif c.attack_type == S.MAGIC:
        mn, mx = magic_max_hit(trace, c, sp)
    else:
        mn, mx = melee_max_hit(trace, c, sp)
    mn = max(np.int64(0), mn)
    return mn, max(mn, mx)


@njit(cache=True)
def npc_max_hit(trace, npc, attack_type):
    """An NPC's max hit: the listed value when the data has one, else the formula
    ((level + 9) * (str bonus + 64) + 320) / 640 (dps-calc ``NPCVsPlayerCalc.getNPCMaxHit``)."""
    if attack_type == S.RANGED:
        listed, level, bonus = npc.max_hit_ranged, npc.ranged, npc.ranged_strength
    elif attack_type == S.MAGIC:
        listed, level, bonus = npc.max_hit_magic, npc.magic, npc.magic_strength
    else:
        listed, level, bonus = npc.max_hit_melee, npc.strength, npc.melee_strength
    if listed >= 0:
        return note(trace, Step.NPC_MAX_HIT, np.int64(listed))
    return base_max_hit(trace, np.int64(level) + 9, np.int64(bonus))
