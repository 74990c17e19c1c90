"""Projectile line of sight: pillars, walls, range, sized entities, (a)symmetry.

Rules and sources: ``osrs_rl.core.line_of_sight`` module docstring (rsmod LineValidator.kt).
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from osrs_rl.core.collision import BLOCKS_LOS, EAST, NORTH, add_block, add_wall, make_arena
from osrs_rl.core.line_of_sight import has_line_of_sight, ray_clear
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
