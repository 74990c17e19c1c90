"""Accuracy: effective levels, attack and defence rolls, hit chance and the accuracy roll.

Order of steps (each floored, following weirdgloop/osrs-dps-calc
``PlayerVsNPCCalc.getPlayerMax*AttackRoll``, ``getNPCDefenceRoll``,
``NPCVsPlayerCalc.getPlayerDefenceRoll`` and ``BaseCalc.getNormalAccuracyRoll``):

  melee  : level * prayer -> + 8 + stance (Accurate 3, Controlled 1) -> void x11/10 -> x (bonus + 64)
  ranged : level * prayer -> + 3 if Accurate -> + 8 -> void x11/10 -> x (bonus + 64) -> crystal set
           -> twisted bow -> special attack
  magic  : level * prayer -> + 2 if Accurate (powered staves) -> + 9 -> void x29/20 -> x (bonus + 64)
           -> special attack
  NPC defence   : (level + 9) * (bonus + 64); magic uses the NPC's magic level
  player defence: (eff + 8) * (bonus + 64), magic eff = 70 % magic + 30 % defence
  hit chance    : A > D ? 1 - (D + 2) / (2 (A + 1)) : A / (2 (D + 1)), with the negative-roll rules

The accuracy roll draws ``random(A) > random(D)`` (uniform integers), which has exactly the hit
chance above; negative rolls, which only cursed gear produces, use the closed form with a float draw.
"""

import numpy as np
from numba import njit

from osrs_rl.core import prayers as P
from osrs_rl.core import rng as R
from osrs_rl.core import styles as S
from osrs_rl.core import weapons as W
from osrs_rl.core.formula import Step, add, factor, note, trunc_div
from osrs_rl.core.skills import ATTACK, DEFENCE, MAGIC, RANGED

_PT = P.PRAYER_TABLE


@njit(cache=True)
def apply_prayers(trace, level, prayers, column):
    """Multiply ``level`` by each active prayer's percentage in ``column`` (at most one applies in
    the game, since prayers of a kind switch each other off)."""
    eff = level
    mask = np.uint32(prayers)
    for p in range(P.NUM_PRAYERS):
        if (mask >> np.uint32(p)) & np.uint32(1):
            pct = _PT[p, column]
            if pct != 100:
                eff = factor(trace, Step.EFFECTIVE_LEVEL, eff, pct, 100)
    return eff


@njit(cache=True)
def prayer_sum(prayers, column):
    """Sum of a column over active prayers (used for additive values such as magic damage)."""
    total = 0
    mask = np.uint32(prayers)
    for p in range(P.NUM_PRAYERS):
        if (mask >> np.uint32(p)) & np.uint32(1):
            total += _PT[p, column]
    return total


@njit(cache=True)
def twisted_bow_factor(m, accuracy):
    """Twisted bow percentage for target magic ``m`` (already capped).

    OSRS wiki "Twisted bow"; dps-calc ``PlayerVsNPCCalc.tbowScaling``:
    accuracy = 140 + (3m - 10)/100 - (3m/10 - 100)^2/100, capped at 140;
    damage   = 250 + (3m - 14)/100 - (3m/10 - 140)^2/100, capped at 250 (truncating divisions).
    """
    t = trunc_div(3 * m, 10)
    if accuracy:
        pct = 140 + trunc_div(3 * m - 10, 100) - trunc_div((t - 100) * (t - 100), 100)
        return min(140, max(0, pct))
    pct = 250 + trunc_div(3 * m - 14, 100) - trunc_div((t - 140) * (t - 140), 100)
    return min(250, max(0, pct))


@njit(cache=True)
def melee_attack_roll(trace, c, spec_acc_num, spec_acc_den):
    eff = apply_prayers(trace, np.int64(c.levels[ATTACK]), c.prayers, P.COL_MELEE_ACC)
    stance = 3 if c.stance == S.ACCURATE else (1 if c.stance == S.CONTROLLED else 0)
    eff = add(trace, Step.LEVEL_CONSTANT, eff, 8 + stance)
    if c.void == W.VOID_MELEE:
        eff = factor(trace, Step.VOID, eff, 11, 10)
    roll = factor(trace, Step.ATTACK_ROLL, eff, np.int64(c.bonuses[c.attack_type]) + 64, 1)
    if spec_acc_num != spec_acc_den:
        roll = factor(trace, Step.SPECIAL_ACCURACY, roll, spec_acc_num, spec_acc_den)
    return roll


@njit(cache=True)
def ranged_attack_roll(trace, c, tbow_magic, spec_acc_num, spec_acc_den):
    eff = apply_prayers(trace, np.int64(c.levels[RANGED]), c.prayers, P.COL_RANGED_ACC)
    stance = 3 if c.stance == S.ACCURATE else 0
    eff = add(trace, Step.LEVEL_CONSTANT, eff, 8 + stance)
    if c.void == W.VOID_RANGED or c.void == W.VOID_ELITE_RANGED:
        eff = factor(trace, Step.VOID, eff, 11, 10)
    roll = factor(trace, Step.ATTACK_ROLL, eff, np.int64(c.bonuses[S.B_RANGED]) + 64, 1)
    if c.weapon_effect == W.CRYSTAL_BOW and c.crystal_pieces > 0:
        # crystal armour: +1/+2/+3 twentieths of accuracy for helm/legs/body (dps-calc isWearingCrystalBow)
        roll = factor(trace, Step.GEAR_MULTIPLIER, roll, 20 + np.int64(c.crystal_pieces), 20)
    if c.weapon_effect == W.TWISTED_BOW:
        roll = factor(trace, Step.TWISTED_BOW_ACCURACY, roll, twisted_bow_factor(tbow_magic, True), 100)
    if spec_acc_num != spec_acc_den:
        roll = factor(trace, Step.SPECIAL_ACCURACY, roll, spec_acc_num, spec_acc_den)
    return roll


@njit(cache=True)
def magic_attack_bonus(c):
    """Equipment magic attack; Tumeken's shadow triples it when not manual casting
    (OSRS wiki "Tumeken's shadow"; dps-calc ``Equipment.calculateEquipmentBonusesFromGear``) [H]."""
    bonus = np.int64(c.bonuses[S.B_MAGIC])
    if c.weapon_effect == W.TUMEKENS_SHADOW and c.stance != S.MANUAL_CAST:
        bonus = bonus * 3
    return bonus


@njit(cache=True)
def magic_attack_roll(trace, c, spec_acc_num, spec_acc_den):
    eff = apply_prayers(trace, np.int64(c.levels[MAGIC]), c.prayers, P.COL_MAGIC_ACC)
    stance = 2 if c.stance == S.ACCURATE else 0
    eff = add(trace, Step.LEVEL_CONSTANT, eff, 9 + stance)
    if c.void == W.VOID_MAGIC or c.void == W.VOID_ELITE_MAGIC:
        eff = factor(trace, Step.VOID, eff, 29, 20)
    bonus = magic_attack_bonus(c)
    if bonus != c.bonuses[S.B_MAGIC]:
        note(trace, Step.SHADOW_MULTIPLIER, bonus)
    roll = factor(trace, Step.ATTACK_ROLL, eff, bonus + 64, 1)
    if spec_acc_num != spec_acc_den:
        roll = factor(trace, Step.SPECIAL_ACCURACY, roll, spec_acc_num, spec_acc_den)
    return roll


@njit(cache=True)
def player_attack_roll(trace, c, tbow_magic, spec_acc_num, spec_acc_den):
    """The player's maximum attack roll for its current attack type (1/1 = no special).

    A ranged weapon without ammo that fits it cannot attack: roll 0 (dps-calc ``isAmmoInvalid``).
    """
    if c.attack_type == S.RANGED and not c.ammo_ok:
        return np.int64(0)
    if c.attack_type == S.RANGED:
        return ranged_attack_roll(trace, c, tbow_magic, spec_acc_num, spec_acc_den)
    if c.attack_type == S.MAGIC:
        return magic_attack_roll(trace, c, spec_acc_num, spec_acc_den)
    return melee_attack_roll(trace, c, spec_acc_num, spec_acc_den)


@njit(cache=True)
def tbow_target_magic(npc):
    """Twisted bow's M: max(magic level, magic attack bonus), capped at 250 (350 in Chambers)."""
    cap = 350 if npc.xerician else 250
    return min(cap, max(npc.magic, npc.magic_attack))


@njit(cache=True)
def npc_defence_roll(trace, npc, attack_type, ammo_class):
    """(level + 9) * (bonus + 64) against ``attack_type``; ranged uses the ammo class's bonus."""
    if attack_type == S.MAGIC and not npc.magic_uses_defence:
        level = np.int64(npc.magic)
    else:
        level = np.int64(npc.defence)
    if attack_type == S.RANGED:
        if ammo_class < 0:
            # no class known (e.g. a thrown salamander mix): mean of the three, as dps-calc does
            bonus = trunc_div(np.int64(npc.defence_bonuses[4]) + npc.defence_bonuses[5]
                              + npc.defence_bonuses[6], 3)
        else:
            bonus = np.int64(npc.defence_bonuses[4 + ammo_class])
    else:
        bonus = np.int64(npc.defence_bonuses[attack_type])
    eff = add(trace, Step.LEVEL_CONSTANT, level, 9)
    return factor(trace, Step.DEFENCE_ROLL, eff, bonus + 64, 1)


@njit(cache=True)
def player_defence_roll(trace, d, attack_type):
    """A player's defence roll against ``attack_type`` (NPC or PvP attacks).

    Defence prayers' percentages add before multiplying; against magic the effective level is
    70 % of prayer-boosted magic plus 30 % of prayer-boosted defence (dps-calc
    ``NPCVsPlayerCalc.getPlayerDefenceRoll``); the stance bonus (+3 Defensive/Longrange,
    +1 Controlled) comes after the mix, then + 8.
    """
    def_pct = 100
    mask = np.uint32(d.prayers)
    for p in range(P.NUM_PRAYERS):
        if (mask >> np.uint32(p)) & np.uint32(1):
            def_pct += _PT[p, P.COL_DEFENCE] - 100
    eff = factor(trace, Step.DEFENCE_PRAYER, np.int64(d.levels[DEFENCE]), def_pct, 100)
    if attack_type == S.MAGIC:
        eff_magic = apply_prayers(trace, np.int64(d.levels[MAGIC]), d.prayers, P.COL_MAGIC_DEF)
        eff = add(trace, Step.MAGIC_DEFENCE_MIX, trunc_div(eff_magic * 7, 10), trunc_div(eff * 3, 10))
    stance = 0
    if d.stance == S.DEFENSIVE or d.stance == S.LONGRANGE:
        stance = 3
    elif d.stance == S.CONTROLLED:
        stance = 1
    eff = add(trace, Step.LEVEL_CONSTANT, eff, stance + 8)
    bonus = np.int64(d.bonuses[S.DEF_OFFSET + attack_type])
    return factor(trace, Step.DEFENCE_ROLL, eff, bonus + 64, 1)


@njit(cache=True)
def npc_attack_roll(trace, npc, attack_type):
    """(level + 9) * (bonus + 64) with the NPC's level and bonus of the attack's style."""
    if attack_type == S.RANGED:
        level, bonus = npc.ranged, npc.ranged_attack
    elif attack_type == S.MAGIC:
        level, bonus = npc.magic, npc.magic_attack
    else:
        level, bonus = npc.attack, npc.melee_attack
    eff = add(trace, Step.LEVEL_CONSTANT, np.int64(level), 9)
    return factor(trace, Step.ATTACK_ROLL, eff, np.int64(bonus) + 64, 1)


@njit(cache=True)
def hit_chance(attack_roll, defence_roll):
    """Probability that ``random(A) > random(D)``, including the game's negative-roll rules
    (dps-calc ``BaseCalc.getNormalAccuracyRoll``)."""
    a = np.float64(attack_roll)
    d = np.float64(defence_roll)
    if a < 0:
        a = min(0.0, a + 2.0)
    if d < 0:
        d = min(0.0, d + 2.0)
    if a >= 0 and d >= 0:
        if a > d:
            return 1.0 - (d + 2.0) / (2.0 * (a + 1.0))
        return a / (2.0 * (d + 1.0))
    if a >= 0 > d:
        return 1.0 - 1.0 / ((-d + 1.0) * (a + 1.0))
    if a < 0 <= d:
        return 0.0
    # both negative: the standard formula on the mirrored rolls
    na, nd = -d, -a
    if na > nd:
        return 1.0 - (nd + 2.0) / (2.0 * (na + 1.0))
    return na / (2.0 * (nd + 1.0))


@njit(cache=True)
def roll_accuracy(rng, attack_roll, defence_roll):
    """One accuracy roll: true when the attack lands."""
    if attack_roll >= 0 and defence_roll >= 0:
        return R.inclusive(rng, attack_roll) > R.inclusive(rng, defence_roll)
    return R.uniform(rng) < hit_chance(attack_roll, defence_roll)
