"""Attack and defence rolls, hit chance and the accuracy draw.

Published numbers cite their source per case; derived identities (hit chance against brute-force
enumeration of the game's two uniform rolls) need none.
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numba import njit

from osrs_rl.core import prayers as P
from osrs_rl.core import rng as R
from osrs_rl.core import styles as S
from osrs_rl.core import weapons as W
from osrs_rl.core.accuracy import (
    hit_chance,
    npc_defence_roll,
    player_attack_roll,
    player_defence_roll,
    roll_accuracy,
    twisted_bow_factor,
)
from osrs_rl.core.formula import format_trace, new_trace, no_trace
from tests.core.builders import combatant, npc


def brute_force_hit_chance(a, d):
    """P(random(a) > random(d)) by enumerating both uniform integer rolls."""
    att = np.arange(a + 1)[:, None]
    dfn = np.arange(d + 1)[None, :]
    return float((att > dfn).mean())


@pytest.mark.parametrize("a,d", [(0, 0), (1, 0), (0, 5), (10, 10), (11, 10), (10, 11), (97, 3), (3, 97), (250, 249)])
def test_hit_chance_equals_enumeration(a, d):
    assert hit_chance(a, d) == pytest.approx(brute_force_hit_chance(a, d), abs=1e-12)


@given(st.integers(0, 400), st.integers(0, 400))
def test_hit_chance_matches_enumeration_property(a, d):
    assert hit_chance(a, d) == pytest.approx(brute_force_hit_chance(a, d), abs=1e-12)


@given(st.integers(-10**6, 10**7), st.integers(-10**6, 10**7))
def test_hit_chance_is_a_probability(a, d):
    assert 0.0 <= hit_chance(a, d) <= 1.0


def test_negative_rolls():
    # dps-calc BaseCalc.getNormalAccuracyRoll: a negative roll r becomes min(0, r + 2);
    # A >= 0 > D -> 1 - 1/((-D+1)(A+1)); A < 0 <= D -> 0
    assert hit_chance(-5, 100) == 0.0
    assert hit_chance(100, -5) == pytest.approx(1 - 1 / ((3 + 1) * 101))
    assert hit_chance(100, -1) == pytest.approx(brute_force_hit_chance(100, 0))


@njit(cache=True)
def _frequency(seed, a, d, n):
    rng = np.zeros(1, np.uint64)
    R.seed_rng(rng, seed, 0)
    hits = 0
    for _ in range(n):
        hits += roll_accuracy(rng, a, d)
    return hits / n


@pytest.mark.parametrize("a,d", [(20_000, 15_000), (8_690, 30_000), (100, -5)])
def test_roll_accuracy_frequency_matches_hit_chance(a, d):
    n = 200_000
    p = hit_chance(a, d)
    assert abs(_frequency(11, a, d, n) - p) < 5 * np.sqrt(p * (1 - p) / n) + 1e-9


def test_trident_of_the_seas_accurate_roll():
    # weirdgloop/osrs-dps-calc src/tests/calc/BasicRolls.test.ts ('L99 accuracy', trident of the seas: 8690):
    # trident of the seas, 99 magic, Accurate -> effective 110, roll 110 * (15 + 64) = 8690
    c = combatant(S.MAGIC, S.ACCURATE, effect=W.TRIDENT_OF_THE_SEAS, b_magic=15)
    t = new_trace()
    assert player_attack_roll(t, c[0], 0, 1, 1) == 8690
    assert "level_constant: 99 + 11 = 110" in format_trace(t)


def test_piety_melee_roll_steps():
    # 99 attack, Piety (x1.20) -> 118; + 8 + 3 (Accurate) = 129; x (bonus 82 + 64) (OSRS wiki
    # "Maximum melee hit"/"Accuracy": effective level = floor(level * prayer) + stance + 8)
    c = combatant(S.SLASH, S.ACCURATE, prayers=1 << P.PIETY, b_slash=82)
    t = new_trace()
    assert player_attack_roll(t, c[0], 0, 1, 1) == 129 * 146
    assert format_trace(t)[0] == "effective_level: 99 * 120 / 100 = 118"


def test_void_applies_after_stance():
    c = combatant(S.RANGED, S.RAPID, void=W.VOID_RANGED, b_ranged=100)
    # floor((99 + 8) * 11 / 10) = 117
    assert player_attack_roll(no_trace(), c[0], 0, 1, 1) == 117 * 164


def test_twisted_bow_at_cap():
    # dps-calc PlayerVsNPCCalc.tbowScaling, OSRS wiki "Twisted bow": M = 250 -> 140 % accuracy, 215 % damage [H]
    assert twisted_bow_factor(250, True) == 140
    assert twisted_bow_factor(250, False) == 215


def test_zulrah_defence_rolls():
    # osrs_rl/data/npcs.json derived_defence_rolls for Zulrah (Serpentine): magic 5871, ranged 35226
    z = npc(defence=300, magic=300, magic_def=-45, light=50, standard=50, heavy=50)[0]
    assert npc_defence_roll(no_trace(), z, S.MAGIC, -1) == 5871
    assert npc_defence_roll(no_trace(), z, S.RANGED, S.AMMO_HEAVY) == 35226


def test_player_magic_defence_mix():
    # 70 % prayer-boosted magic + 30 % defence, then + 8: 99 magic, 70 def, Augury (x1.25 magic def,
    # +25 % defence): eff_def = floor(70 * 125 / 100) = 87; eff_mag = floor(99 * 1.25) = 123;
    # floor(123 * 0.7) + floor(87 * 0.3) = 86 + 26 = 112; + 8 = 120
    d = combatant(S.MAGIC, S.ACCURATE, prayers=1 << P.AUGURY, defence=70, b_magic_def=50)
    assert player_defence_roll(no_trace(), d[0], S.MAGIC) == 120 * (50 + 64)


@given(st.integers(1, 99), st.integers(1, 99), st.integers(-20, 150), st.integers(0, 60))
def test_attack_roll_monotone_in_level_and_bonus(lo, hi, bonus, extra):
    lo, hi = min(lo, hi), max(lo, hi)
    for t, skill, key in ((S.SLASH, "attack", "b_slash"), (S.RANGED, "ranged", "b_ranged"),
                          (S.MAGIC, "magic", "b_magic")):
        a = player_attack_roll(no_trace(), combatant(t, **{skill: lo, key: bonus})[0], 0, 1, 1)
        b = player_attack_roll(no_trace(), combatant(t, **{skill: hi, key: bonus})[0], 0, 1, 1)
        c = player_attack_roll(no_trace(), combatant(t, **{skill: hi, key: bonus + extra})[0], 0, 1, 1)
        assert a <= b <= c
