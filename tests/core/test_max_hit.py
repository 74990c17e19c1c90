"""Max hits: base formula, prayers, void, powered staves, magic damage, special multipliers."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from osrs_rl.core import prayers as P
from osrs_rl.core import specials as SP
from osrs_rl.core import styles as S
from osrs_rl.core import weapons as W
from osrs_rl.core.formula import format_trace, new_trace, no_trace
from osrs_rl.core.max_hit import npc_max_hit, player_max_hit, powered_staff_base
from tests.core.builders import combatant, npc

NORMAL = SP.identity_row()


def max_hit(c, sp=NORMAL, tbow=0):
    return player_max_hit(no_trace(), c[0], tbow, sp)


def test_melee_base_formula():
    # OSRS wiki "Maximum melee hit": 99 str, no prayer, Aggressive (+3), +8 -> 110;
    # (110 * (82 + 64) + 320) / 640 = 25.59 -> 25 (abyssal whip's +82 strength)
    assert max_hit(combatant(S.SLASH, S.AGGRESSIVE, b_melee_str=82)) == (0, 25)


def test_piety_and_trace():
    c = combatant(S.SLASH, S.AGGRESSIVE, prayers=1 << P.PIETY, b_melee_str=82)
    t = new_trace()
    mn, mx = player_max_hit(t, c[0], 0, NORMAL)
    # floor(99 * 1.23) = 121; + 11 = 132; (132 * 146 + 320) / 640 = 30.61 -> 30
    assert mx == 30
    assert format_trace(t)[:2] == ["effective_level: 99 * 123 / 100 = 121", "level_constant: 121 + 11 = 132"]


def test_elite_ranged_void_strength():
    # elite void x9/8 on the effective ranged strength (dps-calc getPlayerMaxRangedHit): floor(107 * 9 / 8) = 120
    c = combatant(S.RANGED, S.RAPID, void=W.VOID_ELITE_RANGED, b_ranged_str=100)
    assert max_hit(c) == (0, (120 * 164 + 320) // 640)


def test_sharp_eye_forces_one_level():
    # dps-calc getPlayerMaxRangedHit: Sharp Eye gives at least +1 level
    c = combatant(S.RANGED, S.RAPID, prayers=1 << P.SHARP_EYE, ranged=10, b_ranged_str=0)
    assert max_hit(c) == (0, ((11 + 8) * 64 + 320) // 640)


@pytest.mark.parametrize("effect,level,expected", [
    # dps-calc getPlayerMaxMagicHit @ a6599a08, OSRS wiki weapon pages [H]: trident of the seas trunc(v/3 - 5),
    # swamp v/3 - 2, sang v/3 (July 2026),
    # shadow v/3 + 1, accursed v/3 - 6; all at least 1
    (W.TRIDENT_OF_THE_SEAS, 99, 28), (W.TRIDENT_OF_THE_SWAMP, 99, 31), (W.SANGUINESTI_STAFF, 99, 33),
    (W.TUMEKENS_SHADOW, 99, 34), (W.ACCURSED_SCEPTRE, 99, 27), (W.TRIDENT_OF_THE_SEAS, 112, 32),
    (W.TRIDENT_OF_THE_SEAS, 1, 1),
])
def test_powered_staff_bases(effect, level, expected):
    assert powered_staff_base(effect, level) == expected


def test_magic_damage_bonus_and_shadow_tripling():
    # Augury (+4 %) and occult (+5 %): 30 + floor(30 * 90 / 1000) = 32 for Ice Barrage
    c = combatant(S.MAGIC, S.AUTOCAST, prayers=1 << P.AUGURY, spell=0, spell_max=30, b_magic_dmg=50)
    assert max_hit(c) == (0, 32)
    # Tumeken's shadow triples gear magic damage: base 34, gear 5 % -> 15 %, + Augury 4 % = 19 %
    s = combatant(S.MAGIC, S.AUTOCAST, prayers=1 << P.AUGURY, effect=W.TUMEKENS_SHADOW, b_magic_dmg=50)
    assert max_hit(s) == (0, 34 + (34 * 190) // 1000)


def test_special_multipliers_apply_in_order():
    table = SP.build_special_table()
    c = combatant(S.SLASH, S.AGGRESSIVE, effect=W.ARMADYL_GODSWORD, b_melee_str=132)
    base = max_hit(c)[1]
    # godsword x11/10 then AGS x5/4, each floored (dps-calc getPlayerMaxMeleeHit)
    assert max_hit(c, table[W.ARMADYL_GODSWORD]) == (0, (base * 11 // 10) * 5 // 4)


def test_voidwaker_range():
    table = SP.build_special_table()
    c = combatant(S.SLASH, S.AGGRESSIVE, effect=W.VOIDWAKER, b_melee_str=80)
    base = max_hit(c)[1]
    assert max_hit(c, table[W.VOIDWAKER]) == (base // 2, base + base // 2)


def test_dark_bow_dragon_arrows_use_the_alternative():
    table = SP.build_special_table()
    plain = combatant(S.RANGED, S.RAPID, effect=W.DARK_BOW, b_ranged_str=60)
    dragon = combatant(S.RANGED, S.RAPID, effect=W.DARK_BOW, b_ranged_str=60, ammo_is_dragon_arrow=1)
    base = max_hit(plain)[1]
    assert max_hit(plain, table[W.DARK_BOW]) == (5, base * 13 // 10)
    assert max_hit(dragon, table[W.DARK_BOW]) == (8, base * 15 // 10)


def test_npc_listed_and_formula_max():
    assert npc_max_hit(no_trace(), npc(max_hit_magic=97)[0], S.MAGIC) == 97
    # ((level + 9) * (str + 64) + 320) / 640 with level 1, str 0 -> (640 + 320) / 640 = 1
    assert npc_max_hit(no_trace(), npc()[0], S.CRUSH) == 1


@given(st.integers(1, 99), st.integers(0, 60), st.integers(-30, 200))
def test_max_hit_monotone_in_strength(level, extra, bonus):
    lo = max_hit(combatant(S.SLASH, S.AGGRESSIVE, strength=level, b_melee_str=bonus))[1]
    hi = max_hit(combatant(S.SLASH, S.AGGRESSIVE, strength=min(99, level + extra), b_melee_str=bonus + extra))[1]
    assert 0 <= lo <= hi


def test_warhammer_specials_drain_defence_on_damage_only():
    # dps-calc scaling/DefenceReduction.ts: dragon warhammer def - floor(def * 3 / 10) per damaging hit
    table = SP.build_special_table()
    for effect in (W.DRAGON_WARHAMMER, W.STATIUS_WARHAMMER):
        assert SP.drained_defence(table[effect], 300, 12) == 210
        assert SP.drained_defence(table[effect], 300, 0) == 300
    assert SP.drained_defence(table[W.ARMADYL_GODSWORD], 300, 50) == 300


def test_protection_prayer_rules():
    from osrs_rl.core.damage import through_protection

    assert through_protection(no_trace(), 40, False, False, True) == 40    # no prayer
    assert through_protection(no_trace(), 40, True, False, True) == 0      # NPC attack, blocked
    assert through_protection(no_trace(), 40, True, False, False) == 40    # unblockable NPC attack
    assert through_protection(no_trace(), 45, True, True, True) == 27      # PvP: floor(45 * 0.6)
