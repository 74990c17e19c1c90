"""Special attacks as table rows, plus the dragon claws damage split.

Each weapon effect with a special attack has one row of ``SPEC_COLS`` integers in the special
table (built from ``osrs_rl/data/specials.json`` by :func:`build_special_table`): accuracy and
defence multipliers, damage multipliers applied in order (each floored), a min-hit fraction,
hit count, cost and a *kind* for the rules that are more than multipliers (claws, dark bow,
magic shortbow). Normal attacks use :func:`identity_row`. Facts and sources: specials.json and
weirdgloop/osrs-dps-calc ``PlayerVsNPCCalc`` (spec branches), ``dists/claws.ts``.
"""

import json
from pathlib import Path

import numpy as np
from numba import njit

from osrs_rl.core import rng as R
from osrs_rl.core import styles as S
from osrs_rl.core import weapons as W

# ---- row layout --------------------------------------------------------------------------------
SP_ACC_NUM, SP_ACC_DEN = 0, 1          # attack-roll multiplier
SP_DEF_NUM, SP_DEF_DEN = 2, 3          # multiplier on the target's defence roll (VLS rolls vs 25 %)
SP_DMG1_NUM, SP_DMG1_DEN = 4, 5        # first damage multiplier (e.g. godsword x11/10)
SP_DMG2_NUM, SP_DMG2_DEN = 6, 7        # second damage multiplier (e.g. AGS x5/4)
SP_MIN_NUM, SP_MIN_DEN = 8, 9          # min = max * num / den, then max += min (Voidwaker, VLS, Statius)
SP_HITS = 10                           # hitsplats per special
SP_ALWAYS_HITS = 11                    # 1: no accuracy roll
SP_ATTACK_TYPE = 12                    # attack type rolled against, -1 = the current style's
SP_COST = 13                           # special energy cost in percent; 0 marks a normal attack
SP_KIND = 14                           # KIND_* below
SP_FLAT_MIN = 15                       # flat minimum per hit (dark bow), 0 if none
SP_CAP = 16                            # damage cap per hit (dark bow 48), 0 if none
SP_HEAL_NUM, SP_HEAL_DEN = 17, 18      # heal this share of damage dealt (blowpipe 1/2)
SP_INSTANT = 19                        # 1: ignores the attack timer (granite maul)
SP_ALT_DMG_NUM, SP_ALT_DMG_DEN = 20, 21  # dark bow with dragon arrows: this multiplier instead
SP_ALT_FLAT_MIN = 22                   #   and this minimum
SP_DRAIN_NUM, SP_DRAIN_DEN = 23, 24    # a damaging hit lowers the target's current defence by this share
SP_BONUS_NUM, SP_BONUS_DEN = 25, 26    # an accurate hit gains SP_BONUS_DAMAGE with this chance
SP_BONUS_DAMAGE = 27                   #   (Sanguinesti staff: 1/5 for +8)
SP_BOLT_CHANCE_MULT = 28               # enchanted-bolt proc chance multiplier (Armadyl crossbow special: 2)
SPEC_COLS = 29

KIND_NORMAL = 0       # n hits, each its own accuracy and damage roll
KIND_CLAWS = 1        # dragon claws four-roll cascade
KIND_DARK_BOW = 2     # two arrows, flat minimum and cap each
KIND_MSB = 3          # magic shortbow (i): +10 effective level, arrow strength only, two arrows
KIND_MAGIC = 4        # a magic attack whatever the current style (nightmare staves, accursed sceptre)
KIND_BOLT_SPEC = 5    # zaryte crossbow: an accurate special always procs the enchanted bolt
KIND_NAMES = ("normal", "claws", "dark_bow", "msb", "magic", "bolt_spec")


def identity_row() -> np.ndarray:
    """The row of a normal attack: every multiplier 1/1, one hit, cost 0."""
    row = np.zeros(SPEC_COLS, dtype=np.int64)
    for num, den in ((SP_ACC_NUM, SP_ACC_DEN), (SP_DEF_NUM, SP_DEF_DEN), (SP_DMG1_NUM, SP_DMG1_DEN),
                     (SP_DMG2_NUM, SP_DMG2_DEN), (SP_HEAL_NUM, SP_HEAL_DEN),
                     (SP_ALT_DMG_NUM, SP_ALT_DMG_DEN)):
        row[num] = 1 if num != SP_HEAL_NUM else 0
        row[den] = 1
    row[SP_MIN_DEN] = 1
    row[SP_DRAIN_DEN] = 1
    row[SP_BONUS_DEN] = 1
    row[SP_BOLT_CHANCE_MULT] = 1
    row[SP_HITS] = 1
    row[SP_ATTACK_TYPE] = -1
    return row


_KIND_BY_RULE = {"claws": KIND_CLAWS}
# Rules that the JSON's generic fields cannot express, keyed by weapon effect.
# Defence drain on a damaging hit: 30 % of the current level for the dragon warhammer (dps-calc
# scaling/DefenceReduction.ts: def - floor(def * 3 / 10)) and Statius's warhammer (OSRS wiki "Statius's
# warhammer": 30 % of current defence; its rounding is assumed to match the dragon warhammer's [L]).
_DRAIN_BY_EFFECT = {W.DRAGON_WARHAMMER: (3, 10), W.STATIUS_WARHAMMER: (3, 10)}
_KIND_BY_EFFECT = {W.DARK_BOW: KIND_DARK_BOW, W.MAGIC_SHORTBOW_I: KIND_MSB, W.ZARYTE_CROSSBOW: KIND_BOLT_SPEC,
                   W.VOLATILE_NIGHTMARE_STAFF: KIND_MAGIC, W.ELDRITCH_NIGHTMARE_STAFF: KIND_MAGIC,
                   W.ACCURSED_SCEPTRE: KIND_MAGIC}
# OSRS wiki "Armadyl crossbow": its special doubles the chance of an enchanted bolt effect [M]
_BOLT_CHANCE_MULT_BY_EFFECT = {W.ARMADYL_CROSSBOW: 2}


def _pair(value, default=(1, 1)):
    if value is None:
        return default
    return int(value[0]), int(value[1])


def build_special_table(path: Path | None = None) -> np.ndarray:
    """``(weapons.NUM_EFFECTS, SPEC_COLS)`` rows from specials.json; weapons without a special
    keep the identity row with cost 0 (``has_special`` is then false)."""
    if path is None:
        path = Path(__file__).resolve().parent.parent / "data" / "specials.json"
    with open(path, encoding="utf-8") as f:
        entries = json.load(f)["specials"]
    table = np.tile(identity_row(), (W.NUM_EFFECTS, 1))
    for e in entries:
        effect = W.EFFECT_BY_NAME.get(e["weapon"])
        if effect is None:
            continue
        row = table[effect]
        row[SP_ACC_NUM], row[SP_ACC_DEN] = _pair(e.get("accuracy"))
        row[SP_DEF_NUM], row[SP_DEF_DEN] = _pair(e.get("target_defence"))
        dmg = e.get("damage") or []
        if len(dmg) > 0:
            row[SP_DMG1_NUM], row[SP_DMG1_DEN] = _pair(dmg[0])
        if len(dmg) > 1:
            row[SP_DMG2_NUM], row[SP_DMG2_DEN] = _pair(dmg[1])
        if e.get("min_damage"):
            row[SP_MIN_NUM], row[SP_MIN_DEN] = _pair(e["min_damage"])
        row[SP_HITS] = int(e.get("hits") or 1)
        row[SP_ALWAYS_HITS] = int(bool(e.get("always_hits")))
        at = e.get("attack_type")
        row[SP_ATTACK_TYPE] = S.ATTACK_TYPE_NAMES.index(at) if at else -1
        row[SP_COST] = int(e["cost"])
        row[SP_KIND] = _KIND_BY_EFFECT.get(effect, _KIND_BY_RULE.get(e.get("hit_rule") or "", KIND_NORMAL))
        if e.get("heal_fraction"):
            row[SP_HEAL_NUM], row[SP_HEAL_DEN] = _pair(e["heal_fraction"])
        row[SP_INSTANT] = int(bool(e.get("instant")))
        row[SP_DRAIN_NUM], row[SP_DRAIN_DEN] = _DRAIN_BY_EFFECT.get(effect, (0, 1))
        row[SP_BOLT_CHANCE_MULT] = _BOLT_CHANCE_MULT_BY_EFFECT.get(effect, 1)
        if row[SP_KIND] == KIND_DARK_BOW:
            # the plain multiplier and minimum are for other arrows; dragon arrows use the alternative
            row[SP_DMG1_NUM], row[SP_DMG1_DEN] = _pair(e["damage_non_dragon_arrows"][0])
            row[SP_FLAT_MIN] = int(e["min_damage_flat_non_dragon_arrows"])
            row[SP_ALT_DMG_NUM], row[SP_ALT_DMG_DEN] = _pair(dmg[0])
            row[SP_ALT_FLAT_MIN] = int(e["min_damage_flat"])
            row[SP_CAP] = int(e["max_damage_flat_per_arrow"])
    table.setflags(write=False)
    return table


def build_normal_table() -> np.ndarray:
    """``(weapons.NUM_EFFECTS, SPEC_COLS)`` rows for *normal* attacks: the identity row, except
    the dark bow, which always fires two arrows (dps-calc ``getAttackerDist``), and the
    Sanguinesti staff, whose accurate hits gain +8 damage one time in five (July 2026 update, as
    modelled by weirdgloop/osrs-dps-calc@a6599a08 ``PlayerVsNPCCalc.getAttackerDist``) [M]."""
    table = np.tile(identity_row(), (W.NUM_EFFECTS, 1))
    table[W.DARK_BOW, SP_HITS] = 2
    table[W.SANGUINESTI_STAFF, [SP_BONUS_NUM, SP_BONUS_DEN, SP_BONUS_DAMAGE]] = (1, 5, 8)
    table.setflags(write=False)
    return table


@njit(cache=True)
def drained_defence(sp, defence_level, damage):
    """The target's defence level after a special hit that dealt ``damage`` (unchanged on 0)."""
    if damage <= 0 or sp[SP_DRAIN_NUM] == 0:
        return defence_level
    return defence_level - (defence_level * sp[SP_DRAIN_NUM]) // sp[SP_DRAIN_DEN]


@njit(cache=True)
def claws_split(rng, max_hit, first_success, out, start):
    """Write the four dragon-claws hitsplats to ``out[start:start+4]``.

    dps-calc ``dists/claws.ts`` [H]: if roll k (0-based) is the first accurate one, the total d is
    uniform in [floor(M(4-k)/4), M + floor(M(4-k)/4) - 1] and splits as
    k=0: d/2, d/4, d/8, d/8+1; k=1: 0, d/2, d/4, d/4+1; k=2: 0, 0, d/2, d/2+1; k=3: 0, 0, 0, d+1.
    No accurate roll (k=4): two 1s with probability 2/3, else four 0s.
    """
    for j in range(4):
        out[start + j] = 0
    if first_success >= 4:
        if R.chance(rng, 2, 3):
            out[start + 2] = 1
            out[start + 3] = 1
        return
    k = first_success
    low = (max_hit * (4 - k)) // 4
    d = R.between(rng, low, max_hit + low - 1)
    if k == 0:
        out[start], out[start + 1], out[start + 2], out[start + 3] = d // 2, d // 4, d // 8, d // 8 + 1
    elif k == 1:
        out[start + 1], out[start + 2], out[start + 3] = d // 2, d // 4, d // 4 + 1
    elif k == 2:
        out[start + 2], out[start + 3] = d // 2, d // 2 + 1
    else:
        out[start + 3] = d + 1
