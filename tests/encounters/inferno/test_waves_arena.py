"""The wave table and the arena against their sources (InfernoTrainer, RuneLite inferno plugin, blert-io/plugin)."""

import numpy as np
import pytest

from osrs_rl.core import collision as C
from osrs_rl.encounters.inferno import arena as A
from osrs_rl.encounters.inferno import waves as W

# Rows of the sources' wave table (InfernoTrainer InfernoWaves.waves == RuneLite InfernoWaveMappings), typed in
# as (wave, nibblers, bats, blobs, meleers, rangers, magers): one row from each run of the pattern and every
# nibbler-only wave; the generated table must reproduce them.
REFERENCE_ROWS = [
    (1, 3, 1, 0, 0, 0, 0), (2, 3, 2, 0, 0, 0, 0), (3, 6, 0, 0, 0, 0, 0), (4, 3, 0, 1, 0, 0, 0), (7, 3, 0, 2, 0, 0, 0),
    (8, 6, 0, 0, 0, 0, 0), (9, 3, 0, 0, 1, 0, 0), (14, 3, 2, 1, 1, 0, 0), (16, 3, 0, 0, 2, 0, 0),
    (17, 6, 0, 0, 0, 0, 0), (18, 3, 0, 0, 0, 1, 0), (25, 3, 0, 0, 1, 1, 0), (31, 3, 0, 2, 1, 1, 0),
    (32, 3, 0, 0, 2, 1, 0), (33, 3, 0, 0, 0, 2, 0), (34, 6, 0, 0, 0, 0, 0), (35, 3, 0, 0, 0, 0, 1),
    (42, 3, 0, 0, 1, 0, 1), (49, 3, 0, 0, 2, 0, 1), (50, 3, 0, 0, 0, 1, 1), (56, 3, 0, 2, 0, 1, 1),
    (57, 3, 0, 0, 1, 1, 1), (62, 3, 2, 1, 1, 1, 1), (63, 3, 0, 2, 1, 1, 1), (64, 3, 0, 0, 2, 1, 1),
    (65, 3, 0, 0, 0, 2, 1), (66, 3, 0, 0, 0, 0, 2),
]


def test_the_table_covers_waves_1_to_66_and_lists_67_to_69():
    assert sorted(W.WAVES) == list(range(1, 67))
    assert sorted(W.SPECIAL_WAVES) == [67, 68, 69]
    assert W.SPECIAL_WAVES[67]["jad"] == 1 and W.SPECIAL_WAVES[68]["jad"] == 3 and W.SPECIAL_WAVES[69]["zuk"] == 1


@pytest.mark.parametrize("row", REFERENCE_ROWS, ids=lambda r: f"wave{r[0]}")
def test_reference_rows(row):
    assert W.counts(row[0]) == row[1:]


def test_nibbler_rule():
    for wave in range(1, 67):
        c = W.counts(wave)
        if wave in (3, 8, 17, 34):
            assert c == (6, 0, 0, 0, 0, 0), wave
        else:
            assert c[W.NIBBLER] == 3 and sum(c[1:]) >= 1, wave


def test_each_top_group_runs_through_the_six_low_combinations():
    """Under each top group (meleers, rangers, magers) with no two of one kind, the waves after it add
    {bat, 2 bats, blob, bat + blob, 2 bats + blob, 2 blobs} in that order (InfernoTrainer InfernoWaves.waves)."""
    lows = [(1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2)]
    for start in (9, 18, 25, 35, 42, 50, 57):
        top = W.counts(start)[3:]
        assert W.counts(start)[1:3] == (0, 0)
        for i, low in enumerate(lows):
            assert W.counts(start + 1 + i) == (3, *low, *top), start + 1 + i


def test_transforms_agree_on_the_pillars():
    """InfernoTrainer's pillar tiles, converted, are blert-io's world tiles (blert-io/plugin Pillar.java)."""
    it_tiles = {"west": (11, 23), "north": (28, 21), "south": (21, 37)}
    for k, name in enumerate(A.PILLAR_NAMES):
        assert A.to_world(*A.from_it(*it_tiles[name])) == A.PILLAR_WORLD[k]
        assert A.from_world(*A.to_world(*A.PILLARS[k])) == A.PILLARS[k]
    assert A.to_world(*A.PLAYER_START) == (2274, 5355)
    assert [A.to_world(*t) for t in A.SPAWNS][:3] == [(2258, 5353), (2279, 5353), (2260, 5347)]


def _footprint(x, y, n):
    return {(x + i, y + j) for i in range(n) for j in range(n)}


def test_spawn_tiles_fit_the_largest_wave_monster_on_open_floor():
    """A mager (4x4) fits on every spawn tile: on the arena floor, off the pillars and the nibbler block,
    and no two spawn footprints overlap, so a wave never spawns a monster inside another."""
    floor = A.base_walkable()
    pillars = set().union(*(A.pillar_tiles(k) for k in range(3)))
    block = set(A.NIBBLER_TILES)
    prints = [_footprint(x, y, 4) for x, y in A.SPAWNS]
    for t, fp in zip(A.SPAWNS, prints, strict=True):
        assert all(floor[x, y] for x, y in fp), t
        assert not fp & pillars and not fp & block, t
    for i in range(9):
        for j in range(i + 1, 9):
            assert not prints[i] & prints[j], (A.SPAWNS[i], A.SPAWNS[j])


def test_start_tiles_and_nibbler_block_are_walkable():
    flags = A.flags_for(A.ALL_PILLARS)
    for x, y in (A.PLAYER_START, *A.NIBBLER_TILES, A.PLAYER_START_67, A.PLAYER_START_68, A.PLAYER_START_69):
        assert flags[x, y] & C.BLOCKED == 0, (x, y)


def test_pillars_block_walking_and_sight_while_they_stand():
    for k in range(3):
        alone = A.flags_for(1 << k)
        none = A.flags_for(0)
        for x, y in A.pillar_tiles(k):
            assert alone[x, y] & C.BLOCKED and alone[x, y] & C.BLOCKS_LOS
            assert none[x, y] == 0
    maps = A.all_flags()
    assert maps.shape == (9, A.GRID_W, A.GRID_H)      # by standing pillars, then the Zuk wave's
    walkable = (maps[A.ALL_PILLARS] & C.BLOCKED) == 0
    assert walkable.sum() == 29 * 30 - 27          # the floor less three 3x3 pillars
    assert not walkable[0, :].any() and not walkable[:, 0].any() and not walkable[:, 31:].any()
    assert np.array_equal(maps[0] & C.BLOCKED == 0, A.base_walkable())


def test_zuk_map_has_the_floor_without_pillars_and_open_sight_to_the_north():
    """The Zuk wave's map: the same floor as with no pillar standing; north of it (the glyph, Zuk, his
    healers) nothing walks but sight passes; the walls beside Zuk block walking."""
    zuk, none = A.zuk_flags(), A.flags_for(0)
    assert np.array_equal(zuk & C.BLOCKED == 0, none & C.BLOCKED == 0)
    north = zuk[A.ARENA_X[0]:A.ARENA_X[1] + 1, A.ARENA_Y[1] + 1:]
    assert (north & C.BLOCKED).all() and not (north & C.BLOCKS_LOS).any()
    for x in A.ZUK_WALLS_X:
        assert (zuk[x, A.ZUK_WALLS_Y[0]:A.ZUK_WALLS_Y[1] + 1] & C.BLOCKED).all()
    # the glyph's track, Zuk and his healers stand north of the floor, inside the grid
    assert A.SHIELD[1] == A.ARENA_Y[1] + 1 and A.ZUK[1] + 7 <= A.GRID_H
    assert all(y > A.ARENA_Y[1] for _, y in A.ZUK_HEALERS)
    assert A.SHIELD_X[1] + 5 <= A.GRID_W
