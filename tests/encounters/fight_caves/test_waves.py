"""The wave table and the spawn rotation (osrs_rl/encounters/fight_caves/waves.py) against their sources."""

import numpy as np
import pytest

from osrs_rl.encounters.fight_caves import arena as A
from osrs_rl.encounters.fight_caves import waves as W

KIH, KEK, XIL, MEJ, ZEK, JAD = range(6)
SE, SW, C, NW, S = A.AREA_SE, A.AREA_SW, A.AREA_C, A.AREA_NW, A.AREA_S

# GregHib/void data/minigame/tzhaar_fight_cave/tzhaar_fight_cave_waves.toml @ 06847f59, each wave's "npcs" list
# typed in as counts (Tz-Kih, Tz-Kek, Tok-Xil, Yt-MejKot, Ket-Zek, TzTok-Jad)
VOID_ROWS = {
    1: (1, 0, 0, 0, 0, 0), 2: (2, 0, 0, 0, 0, 0), 3: (0, 1, 0, 0, 0, 0), 6: (0, 2, 0, 0, 0, 0), 7: (0, 0, 1, 0, 0, 0),
    14: (0, 0, 2, 0, 0, 0), 15: (0, 0, 0, 1, 0, 0), 30: (0, 0, 0, 2, 0, 0), 31: (0, 0, 0, 0, 1, 0),
    46: (0, 0, 0, 1, 1, 0), 58: (2, 1, 1, 1, 1, 0), 61: (0, 0, 0, 2, 1, 0), 62: (0, 0, 0, 0, 2, 0),
    63: (0, 0, 0, 0, 0, 1),
}

# the same file's rotation rows, (wave, VOID rotation) -> the area of each monster, by tier, as VOID lists them
# (lowest tier first, a tier's monsters in spawn order)
VOID_ROTATIONS = {
    (1, 1): [(KIH, C)],
    (2, 1): [(KIH, NW), (KIH, SW)],
    (4, 1): [(KIH, S), (KEK, SE)],
    (5, 11): [(KIH, SE), (KIH, S), (KEK, SW)],
    (12, 9): [(KIH, NW), (KIH, C), (KEK, S), (XIL, SW)],
    (30, 4): [(MEJ, S), (MEJ, NW)],
    (46, 7): [(MEJ, NW), (ZEK, S)],
    (58, 1): [(KIH, NW), (KIH, SW), (KEK, C), (XIL, SW), (MEJ, SE), (ZEK, S)],
    (58, 11): [(KIH, SW), (KIH, C), (KEK, SE), (XIL, S), (MEJ, C), (ZEK, NW)],
    (61, 15): [(MEJ, SE), (MEJ, S), (ZEK, SW)],
    (62, 2): [(ZEK, S), (ZEK, SE)],
    (63, 1): [(JAD, SW)],
    (63, 11): [(JAD, C)],
}
# VOID rotation 1..15 -> r of the rule (fitted: it reproduces all 63 x 15 rows of the file; waves docstring)
VOID_R = {1: 2, 2: 13, 3: 8, 4: 12, 5: 7, 6: 3, 7: 11, 8: 6, 9: 14, 10: 5, 11: 0, 12: 9, 13: 1, 14: 10, 15: 4}


def incremental_rule() -> dict[int, tuple[int, ...]]:
    """runelite/runelite FightCavePlugin.java's derivation, in words: from wave n - 1, the lowest tier with two loses
    them and the next tier gains one; with no pair, one more Tz-Kih (WooxSolo FightCavesHelpers.js does the same)."""
    rows, counts = {}, [0] * 6
    for wave in range(1, 64):
        pair = next((t for t in range(6) if counts[t] == 2), None)
        if pair is None:
            counts[KIH] += 1
        else:
            counts[pair] = 0
            counts[pair + 1] += 1
        rows[wave] = tuple(counts)
    return rows


def greedy_rule() -> dict[int, tuple[int, ...]]:
    """Kronos FightCaves.beginWave, in words: waves 14, 30 and 62 are two of one tier; otherwise each tier, highest
    first, takes as many of its weight (31, 15, 7, 3, 1) as fit (Jad only on 63)."""
    rows = {14: (0, 0, 2, 0, 0, 0), 30: (0, 0, 0, 2, 0, 0), 62: (0, 0, 0, 0, 2, 0), 63: (0, 0, 0, 0, 0, 1)}
    for wave in range(1, 63):
        if wave in rows:
            continue
        left, counts = wave, [0] * 6
        for tier, weight in ((ZEK, 31), (MEJ, 15), (XIL, 7), (KEK, 3), (KIH, 1)):
            counts[tier], left = divmod(left, weight)
        rows[wave] = tuple(counts)
    return rows


@pytest.mark.parametrize("wave", sorted(VOID_ROWS))
def test_void_rows(wave):
    assert tuple(W.COUNTS[wave]) == VOID_ROWS[wave]


@pytest.mark.parametrize(("name", "rule"), [("runelite/woox", incremental_rule), ("kronos", greedy_rule)])
def test_every_wave_matches_each_sources_rule(name, rule):
    rows = rule()
    for wave in range(1, 64):
        assert tuple(W.COUNTS[wave]) == rows[wave], (name, wave)


def test_table_shape_and_totals():
    assert W.COUNTS.shape == (64, 6) and W.COUNTS.dtype == np.int8 and not W.COUNTS.flags.writeable
    assert not W.COUNTS[0].any()
    # tiers first come on waves 1, 3, 7, 15, 31, 63, and Jad comes alone
    assert [int(np.flatnonzero(W.COUNTS[:, t])[0]) for t in range(6)] == [1, 3, 7, 15, 31, 63]
    assert W.COUNTS[1:].sum(axis=0).tolist() == [48, 40, 36, 34, 33, 1]
    assert int(W.WAVE_SIZE.max()) == W.MAX_PER_WAVE == 6 and np.flatnonzero(W.WAVE_SIZE == 6).tolist() == [58]
    for wave in range(1, 64):
        assert sum(d * w for d, w in zip(W.COUNTS[wave], W.TIER_WEIGHTS, strict=True)) == wave
        assert (W.COUNTS[wave] == 2).sum() <= 1


def test_wave_kinds_list_the_counts_highest_first():
    for wave in range(1, 64):
        n = int(W.WAVE_SIZE[wave])
        kinds = W.WAVE_KINDS[wave].tolist()
        assert kinds[n:] == [-1] * (6 - n)
        assert kinds[:n] == sorted(kinds[:n], reverse=True)
        assert np.bincount(kinds[:n], minlength=6).tolist() == W.COUNTS[wave].tolist()


@pytest.mark.parametrize(("wave", "void_rotation"), sorted(VOID_ROTATIONS))
def test_the_rotation_rule_reproduces_void_rows(wave, void_rotation):
    spawns = W.wave_spawns(wave, VOID_R[void_rotation])
    assert sorted(spawns) == sorted(VOID_ROTATIONS[wave, void_rotation])
    # per tier in spawn order, as VOID lists them
    by_tier = [(t, a) for tier in range(6) for t, a in spawns if t == tier]
    assert by_tier == VOID_ROTATIONS[wave, void_rotation]


def test_rotation_examples():
    assert W.SPAWN_CYCLE.tolist() == [SE, SW, C, NW, SW, SE, S, NW, C, SE, SW, S, NW, C, S]
    assert W.wave_spawns(1, 0) == [(KIH, SE)]
    assert W.wave_spawns(2, 0) == [(KIH, SW), (KIH, C)]
    assert W.wave_spawns(5, 0) == [(KEK, SW), (KIH, SE), (KIH, S)]
    assert W.wave_spawns(58, 0) == [(ZEK, NW), (MEJ, C), (XIL, S), (KEK, SE), (KIH, SW), (KIH, C)]
    assert W.wave_spawns(62, 0) == [(ZEK, SW), (ZEK, C)]
    for r in range(15):
        assert W.wave_spawns(63, r) == [(JAD, int(W.SPAWN_CYCLE[(2 + r) % 15]))]


def test_every_rotation_puts_every_monster_in_an_area():
    for r in range(W.NUM_ROTATIONS):
        for wave in range(1, 64):
            spawns = W.wave_spawns(wave, r)
            assert len(spawns) == W.WAVE_SIZE[wave]
            assert all(0 <= a < A.NUM_AREAS for _, a in spawns)


def test_what_ends_a_wave():
    assert W.clear_deaths(1) == 1                         # one Tz-Kih
    assert W.clear_deaths(3) == 3                         # a Tz-Kek and its two splits
    assert W.clear_deaths(6) == 6
    assert W.clear_deaths(58) == 6 + 2
    assert W.clear_deaths(63) == 1                        # Jad; healers never count
    assert W.WAVE_GAP_TICKS == 5 and W.HEALERS_PER_JAD == 4


def test_bad_waves_and_rotations_are_refused():
    with pytest.raises(ValueError, match="wave is 1..63"):
        W.wave_spawns(64, 0)
    with pytest.raises(ValueError, match="rotation is 0..14"):
        W.wave_spawns(1, 15)
    with pytest.raises(ValueError, match="wave is 1..63"):
        W.skew_binary(64)
