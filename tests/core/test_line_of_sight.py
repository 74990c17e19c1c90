"""Projectile line of sight: pillars, walls, range, sized entities, (a)symmetry.

Rules and sources: ``osrs_rl.core.line_of_sight`` module docstring (rsmod LineValidator.kt).
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from osrs_rl.core import line_of_sight
from osrs_rl.core.collision import BLOCKED, BLOCKS_LOS, EAST, NORTH, add_block, add_wall, make_arena
from osrs_rl.core.line_of_sight import (
    has_line_of_sight,
    ray_clear,
    sight_table,
    sight_table_shape,
    sight_tables,
    table_line_of_sight,
    table_ray_clear,
)
from osrs_rl.core.movement import chebyshev_distance


def pillar_arena():
    """30x30 arena with a 3x3 pillar (walk + sight blocking) on x 10..12, y 10..12."""
    return add_block(make_arena(30, 30), 10, 10, 3, 3)


def test_pillar_blocks_sight_both_ways():
    f = pillar_arena()
    assert not has_line_of_sight(f, 5, 11, 1, 17, 11, 1, 15)
    assert not has_line_of_sight(f, 17, 11, 1, 5, 11, 1, 15)
    assert not has_line_of_sight(f, 11, 4, 1, 11, 18, 1, 15)
    assert not has_line_of_sight(f, 11, 18, 1, 11, 4, 1, 15)


def test_offset_past_the_pillar_is_clear():
    f = pillar_arena()
    assert has_line_of_sight(f, 5, 13, 1, 17, 13, 1, 15)  # one row above the pillar
    assert has_line_of_sight(f, 5, 9, 1, 17, 9, 1, 15)  # one row below
    assert has_line_of_sight(f, 9, 4, 1, 9, 18, 1, 15)  # one column west


def test_slanted_ray_grazing_the_pillar():
    # From (5, 13) to (17, 11): x-major, y tracked from 13.5 down by 2/12 per column; it crosses
    # into row 12 at x = 8 and into row 11 at x = 14, so it passes (10..12, 12): blocked.
    f = pillar_arena()
    assert not has_line_of_sight(f, 5, 13, 1, 17, 11, 1, 15)
    # From (5, 14) to (17, 13) the ray stays in rows 14 and 13: clear.
    assert has_line_of_sight(f, 5, 14, 1, 17, 13, 1, 15)


def test_range_limit_and_overlap():
    f = make_arena(30, 30)
    assert has_line_of_sight(f, 5, 14, 1, 17, 14, 1, 12)
    assert not has_line_of_sight(f, 5, 14, 1, 17, 14, 1, 11)
    assert has_line_of_sight(f, 5, 5, 1, 15, 15, 1, 10)  # Chebyshev 10, not Euclidean 14.1
    assert not has_line_of_sight(f, 5, 5, 1, 5, 5, 1, 10)  # same tile: cannot attack
    assert not has_line_of_sight(f, 5, 5, 3, 6, 6, 1, 10)  # under a 3x3: cannot attack
    assert has_line_of_sight(f, 5, 5, 1, 6, 6, 1, 1)  # diagonal neighbour: range 1 sight is fine


def test_walls_block_sight_only_when_flagged():
    f = add_wall(make_arena(20, 20), 8, 5, EAST)  # projectile-blocking wall between x 8 and 9
    assert not has_line_of_sight(f, 5, 5, 1, 12, 5, 1, 10)
    assert not has_line_of_sight(f, 12, 5, 1, 5, 5, 1, 10)
    assert has_line_of_sight(f, 5, 6, 1, 12, 6, 1, 10)
    f = add_wall(make_arena(20, 20), 8, 5, EAST, blocks_los=False)  # e.g. a fence: walk only
    assert has_line_of_sight(f, 5, 5, 1, 12, 5, 1, 10)
    f = add_wall(make_arena(20, 20), 5, 8, NORTH)
    assert not has_line_of_sight(f, 5, 5, 1, 5, 12, 1, 10)


def test_sight_blocker_under_the_target_is_ignored():
    # line_of_sight rule 5: the end tile's object blocker does not count, intermediate ones do.
    f = make_arena(20, 20)
    f[12, 5] |= BLOCKS_LOS
    assert has_line_of_sight(f, 5, 5, 1, 12, 5, 1, 10)
    assert not has_line_of_sight(f, 5, 5, 1, 13, 5, 1, 10)


def test_start_on_walk_blocked_tile_has_no_sight():
    f = add_block(make_arena(20, 20), 5, 5, 1, 1, blocks_los=False)
    assert not has_line_of_sight(f, 5, 5, 1, 10, 5, 1, 10)


def test_slanted_rays_are_not_symmetric():
    # From (5, 5) to (8, 8) the ray (y-major on ties) enters (5, 6) first; the reverse ray from
    # (8, 8) enters (8, 7), (7, 7), (7, 6), (6, 6), (6, 5): it never touches (5, 6).
    f = make_arena(20, 20, border=0)
    f[5, 6] |= BLOCKS_LOS
    assert not ray_clear(f, 5, 5, 8, 8)
    assert ray_clear(f, 8, 8, 5, 5)


@pytest.mark.parametrize("size", [3, 5])
def test_big_npc_sight_from_its_nearest_tile(size):
    f = pillar_arena()
    y = 11 - size // 2  # footprint rows centred on the pillar's middle row 11
    # The nearest tile of the NPC to the player is on its west column, row 11: behind the pillar.
    assert not has_line_of_sight(f, 15, y, size, 5, 11, 1, 15)
    # Player north-west: the NPC's nearest tile is its top-left corner, and the ray clears.
    assert has_line_of_sight(f, 15, y, size, 5, 16, 1, 15)
    # The player's view of the NPC aims at the same nearest tiles.
    assert not has_line_of_sight(f, 5, 11, 1, 15, y, size, 15)
    assert has_line_of_sight(f, 5, 16, 1, 15, y, size, 15)


def test_big_npc_blocked_southwest_tile_does_not_matter():
    # A blocker between the player and the 5x5's south-west tile (15, 5), but not on the row of
    # its nearest tile (row 9 for a player on row 9), leaves sight clear.
    f = make_arena(30, 30)
    f[11, 5] |= BLOCKS_LOS
    assert has_line_of_sight(f, 15, 5, 5, 5, 9, 1, 15)
    assert not has_line_of_sight(f, 15, 5, 1, 5, 5, 1, 15)


def test_big_npc_range_is_edge_to_edge():
    f = make_arena(30, 30)
    assert chebyshev_distance(15, 9, 5, 5, 11, 1) == 10
    assert has_line_of_sight(f, 15, 9, 5, 5, 11, 1, 10)
    assert not has_line_of_sight(f, 15, 9, 5, 5, 11, 1, 9)


def _random_map(seed, w=16, h=16):
    rng = np.random.default_rng(seed)
    f = make_arena(w, h, border=0)
    for _ in range(rng.integers(0, 10)):
        f[rng.integers(0, w), rng.integers(0, h)] |= BLOCKS_LOS
    for _ in range(rng.integers(0, 10)):
        add_wall(f, int(rng.integers(0, w)), int(rng.integers(0, h)), int(rng.integers(0, 4)))
    return f


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), a=st.integers(0, 15), b=st.integers(0, 15), c=st.integers(0, 15),
       vertical=st.booleans())
def test_straight_rays_are_symmetric(seed, a, b, c, vertical):
    # Along a row or column the minor coordinate never changes, and walls are stored on both
    # tiles they separate, so the same edges are tested in both directions.
    f = _random_map(seed)
    p, q = ((c, a), (c, b)) if vertical else ((a, c), (b, c))
    assert ray_clear(f, *p, *q) == ray_clear(f, *q, *p)


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), pts=st.tuples(*[st.integers(0, 15)] * 4), r=st.integers(1, 20))
def test_sight_on_open_ground_is_only_range(seed, pts, r):
    f = make_arena(16, 16, border=0)
    x0, y0, x1, y1 = pts
    d = max(abs(x0 - x1), abs(y0 - y1))
    assert has_line_of_sight(f, x0, y0, 1, x1, y1, 1, r) == (0 < d <= r)


# ----------------------------------------------------------------------------------------------
# Sight tables: the same answers as ray_clear / has_line_of_sight, read from precomputed bits
# ----------------------------------------------------------------------------------------------

def _cluttered_map(seed, w, h):
    """Walk blockers (some also sight blockers), lone sight blockers, and walls of both kinds."""
    rng = np.random.default_rng(seed)
    f = make_arena(w, h, border=int(rng.integers(0, 2)))
    n = w * h
    for _ in range(n // 10):
        add_block(f, int(rng.integers(0, w)), int(rng.integers(0, h)), int(rng.integers(1, 3)),
                  int(rng.integers(1, 3)), blocks_los=bool(rng.integers(0, 2)))
    for _ in range(n // 12):
        f[rng.integers(0, w), rng.integers(0, h)] |= BLOCKS_LOS
    for _ in range(n // 8):
        add_wall(f, int(rng.integers(0, w)), int(rng.integers(0, h)), int(rng.integers(0, 4)),
                 blocks_los=bool(rng.integers(0, 2)))
    return f


# (width, height): non-square to catch x/y mix-ups; 8 x 8 fills whole words, 9 x 13 leaves a tail
TABLE_GRIDS = [(9, 13), (8, 8), (13, 5), (1, 1), (1, 7)]


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("w,h", TABLE_GRIDS)
def test_table_ray_clear_matches_ray_clear_everywhere(seed, w, h):
    # every ordered pair of coordinates, two tiles past each edge of the map included
    f = _cluttered_map(seed, w, h)
    t = sight_table(f)
    coords = [(x, y) for x in range(-2, w + 2) for y in range(-2, h + 2)]
    for sx, sy in coords:
        for ex, ey in coords:
            assert table_ray_clear(t, w, h, sx, sy, ex, ey) == ray_clear(f, sx, sy, ex, ey), (sx, sy, ex, ey)


@pytest.mark.parametrize("seed", range(3))
def test_blocked_start_sees_only_itself(seed):
    # sight_table skips casting from BLOCKED tiles; this is ray_clear's own answer there
    w, h = 9, 13
    f = _cluttered_map(seed, w, h)
    blocked = [(x, y) for x in range(w) for y in range(h) if f[x, y] & BLOCKED]
    assert blocked
    for sx, sy in blocked:
        for ex in range(w):
            for ey in range(h):
                assert ray_clear(f, sx, sy, ex, ey) == (ex == sx and ey == sy)


@pytest.mark.parametrize("seed", range(4))
def test_table_line_of_sight_matches_has_line_of_sight(seed):
    w, h = 13, 17
    f = _cluttered_map(seed + 10, w, h)
    t = sight_table(f)
    rng = np.random.default_rng(seed)
    ranges = list(range(0, 21)) + [1 << 14]
    for _ in range(4000):
        s0, s1 = (int(v) for v in rng.integers(1, 8, size=2))        # sizes 1..7
        x0, x1 = (int(v) for v in rng.integers(-8, w + 3, size=2))   # footprints over every edge
        y0, y1 = (int(v) for v in rng.integers(-8, h + 3, size=2))
        r = ranges[int(rng.integers(0, len(ranges)))]
        args = (x0, y0, s0, x1, y1, s1, r)
        assert table_line_of_sight(t, w, h, *args) == has_line_of_sight(f, *args), args


def test_table_line_of_sight_int16_arguments():
    # encounter records hold positions as int16
    f = _cluttered_map(5, 13, 17)
    t = sight_table(f)
    a = np.array([2, 3, 1, 10, 12, 3, 15], dtype=np.int16)
    assert table_line_of_sight(t, 13, 17, *a) == has_line_of_sight(f, *(int(v) for v in a))


@njit
def _table_sight_int64(t, a):
    return table_line_of_sight(t, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8])


@njit
def _table_sight_mixed(t, pos):
    # int16 positions and literal sizes, grid sides and ranges, as an encounter passes them
    return (table_line_of_sight(t, 13, 17, pos[0], pos[1], 1, pos[2], pos[3], 3, 15)
            + table_line_of_sight(t, 13, 17, pos[2], pos[3], 3, pos[0], pos[1], 1, 1 << 14))


def test_table_helpers_compile_once_for_every_caller_type(monkeypatch):
    # an uncached copy of the entry point, typed here: one loaded from Numba's disk cache never types its body,
    # so it would show no helper's versions (tests/core/test_compile_once.py)
    monkeypatch.setitem(globals(), "table_line_of_sight", njit(table_line_of_sight.py_func))
    t = sight_table(_cluttered_map(5, 13, 17))
    _table_sight_int64(t, np.array([13, 17, 2, 3, 1, 10, 12, 3, 15], dtype=np.int64))
    helpers = (line_of_sight.table_ray_clear, line_of_sight._closest)
    before = [len(h.signatures) for h in helpers]
    _table_sight_mixed(t, np.array([2, 3, 10, 12], dtype=np.int16))
    assert [len(h.signatures) for h in helpers] == before


def test_sight_table_layout():
    # row s = sx * h + sy, bit e = ex * h + ey of word e // 64, for every on-map pair (self included)
    w, h = 9, 13
    f = _cluttered_map(1, w, h)
    t = sight_table(f)
    assert t.dtype == np.uint64 and t.shape == sight_table_shape(w, h) == (117, 2)
    e = np.arange(w * h)
    bits = (t[:, e // 64] >> (e % 64).astype(np.uint64)) & np.uint64(1)
    want = [[ray_clear(f, s // h, s % h, x, y) for x in range(w) for y in range(h)] for s in range(w * h)]
    assert np.array_equal(bits.astype(bool), np.array(want))
    assert not (t[:, 1] >> np.uint64(117 - 64)).any()    # bits past the last tile stay 0
    assert sight_table_shape(31, 45) == (1395, 22)


def test_sight_table_is_deterministic_and_stacks():
    maps = np.stack([_cluttered_map(seed, 9, 13) for seed in range(4)])
    tables = sight_tables(maps)
    assert tables.shape == (4,) + sight_table_shape(9, 13)
    for m in range(4):
        assert np.array_equal(tables[m], sight_table(maps[m]))
        assert np.array_equal(sight_table(maps[m]), sight_table(maps[m].copy()))
    assert not np.array_equal(tables[0], tables[1])   # distinct maps give distinct tables


def test_sight_table_rejects_bad_maps():
    with pytest.raises(TypeError):
        sight_table(np.zeros((4, 4), dtype=np.int32))
    with pytest.raises(ValueError):
        sight_tables(np.zeros((4, 4), dtype=np.uint16))
