"""Collision map, step rules, distances, the NPC chase step and path buffers.

Sources for each expectation are in the module docstrings of ``osrs_rl.core.collision`` and
``osrs_rl.core.movement``; the rule number is quoted beside each test.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from osrs_rl.core.collision import (
    BLOCKED,
    BLOCKS_LOS,
    EAST,
    NORTH,
    WALL_EAST,
    WALL_NORTH,
    WALL_SOUTH,
    WALL_WEST,
    add_block,
    add_wall,
    can_occupy,
    can_step,
    flag_at,
    make_arena,
    validate_map,
)
from osrs_rl.core.movement import (
    MAX_WAYPOINTS,
    PATH_DTYPE,
    RUN_TILES,
    WALK_TILES,
    advance_path,
    chebyshev_distance,
    clear_path,
    in_melee_reach,
    make_path,
    npc_chase_step,
    npc_unstack_step,
    overlaps,
)

STEPS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]


def chase(flags, x, y, size, tx, ty, tsize=1, ticks=1):
    """Run ``ticks`` chase steps; returns the list of positions after each tick."""
    out = []
    for _ in range(ticks):
        x, y = npc_chase_step(flags, x, y, size, tx, ty, tsize)
        out.append((int(x), int(y)))
    return out


# ----------------------------------------------------------------------------------------------
# Map builders and bad input
# ----------------------------------------------------------------------------------------------


def test_make_arena_border_blocks_walk_and_sight():
    f = make_arena(10, 8)
    assert f.dtype == np.uint16 and f.shape == (10, 8)
    assert f[0, 3] == BLOCKED | BLOCKS_LOS and f[9, 0] == BLOCKED | BLOCKS_LOS and f[4, 7] == BLOCKED | BLOCKS_LOS
    assert f[1:-1, 1:-1].max() == 0
    assert make_arena(5, 5, border=0).max() == 0


def test_off_map_reads_as_blocked():
    # collision rule 3
    f = make_arena(5, 5, border=0)
    assert flag_at(f, -1, 0) == 0xFFFF and flag_at(f, 0, 5) == 0xFFFF
    assert not can_step(f, 0, 0, 1, -1, 0)
    assert not can_occupy(f, 3, 3, 3)


def test_add_wall_writes_both_sides():
    # collision rule 2: the server stores a wall on both tiles it separates
    f = add_wall(make_arena(6, 6, border=0), 2, 2, NORTH)
    assert f[2, 2] & WALL_NORTH and f[2, 3] & WALL_SOUTH
    f = add_wall(f, 2, 2, EAST, blocks_los=False)
    assert f[2, 2] & WALL_EAST and f[3, 2] & WALL_WEST


@pytest.mark.parametrize(
    "bad, exc, words",
    [
        (np.zeros((4, 4), np.int32), TypeError, "uint16"),
        (np.zeros((4, 4), np.float64), TypeError, "uint16"),
        (np.zeros(16, np.uint16), ValueError, "2-D"),
        (np.zeros((2, 2, 2), np.uint16), ValueError, "(width, height)"),
        (np.zeros((0, 4), np.uint16), ValueError, "1..32767"),
        ([[0, 0], [0, 0]], TypeError, "numpy.ndarray"),
    ],
)
def test_validate_map_names_the_problem(bad, exc, words):
    with pytest.raises(exc, match=words.replace("(", r"\(").replace(")", r"\)")):
        validate_map(bad)


def test_builders_validate_their_map():
    with pytest.raises(TypeError, match="uint16"):
        add_block(np.zeros((8, 8), np.int64), 1, 1, 3, 3)
    with pytest.raises(TypeError, match="uint16"):
        add_wall(np.zeros((8, 8), np.uint8), 1, 1, NORTH)
    with pytest.raises(ValueError, match="width"):
        make_arena(0, 5)
    with pytest.raises(ValueError, match="side"):
        add_wall(make_arena(5, 5), 1, 1, 7)


# ----------------------------------------------------------------------------------------------
# can_step (collision rule 4)
# ----------------------------------------------------------------------------------------------


def test_wall_blocks_its_edge_only():
    f = add_wall(make_arena(10, 10, border=0), 5, 5, NORTH)
    assert not can_step(f, 5, 5, 1, 0, 1)
    assert not can_step(f, 5, 6, 1, 0, -1)
    assert can_step(f, 5, 5, 1, 1, 0) and can_step(f, 4, 6, 1, 1, 0)
    # Diagonals that would pass the wall's end need the walled orthogonal leg: blocked.
    assert not can_step(f, 5, 5, 1, 1, 1) and not can_step(f, 4, 5, 1, 1, 1)
    assert not can_step(f, 6, 6, 1, -1, -1)


def test_size1_diagonal_needs_both_orthogonal_tiles():
    f = add_block(make_arena(10, 10, border=0), 6, 5, 1, 1)
    assert not can_step(f, 5, 5, 1, 1, 1)  # x neighbour blocked
    f = add_block(make_arena(10, 10, border=0), 5, 6, 1, 1)
    assert not can_step(f, 5, 5, 1, 1, 1)  # y neighbour blocked
    assert can_step(make_arena(10, 10, border=0), 5, 5, 1, 1, 1)


def test_big_diagonal_checks_only_the_new_footprint():
    # rsmod StepValidator size >= 2: the tile (8, 5) beside a 3x3 at (5, 5) is not in the
    # destination footprint (6..8, 6..8), so a north-east step may cut that corner.
    f = add_block(make_arena(12, 12, border=0), 8, 5, 1, 1)
    assert can_step(f, 5, 5, 3, 1, 1)
    assert not can_step(f, 5, 5, 3, 1, 0)
    f = add_block(make_arena(12, 12, border=0), 8, 6, 1, 1)
    assert not can_step(f, 5, 5, 3, 1, 1)


def test_big_orthogonal_step_stops_at_interior_wall_of_new_edge():
    # A wall between two tiles of the entered column blocks a 2x2 stepping east into it.
    f = add_wall(make_arena(10, 10, border=0), 4, 4, NORTH)
    assert not can_step(f, 2, 4, 2, 1, 0)
    assert can_step(f, 2, 4, 1, 1, 0)


def _random_map(seed, w=14, h=14):
    rng = np.random.default_rng(seed)
    f = make_arena(w, h, border=1)
    for _ in range(rng.integers(0, 8)):
        add_block(f, int(rng.integers(1, w - 1)), int(rng.integers(1, h - 1)), int(rng.integers(1, 4)),
                  int(rng.integers(1, 4)), blocks_los=bool(rng.integers(0, 2)))
    for _ in range(rng.integers(0, 12)):
        add_wall(f, int(rng.integers(1, w - 1)), int(rng.integers(1, h - 1)), int(rng.integers(0, 4)),
                 blocks_los=bool(rng.integers(0, 2)))
    return f


def _free_tiles(f, size):
    return [(x, y) for x in range(f.shape[0]) for y in range(f.shape[1]) if can_occupy(f, x, y, size)]


_SIDE_WALL = {(1, 0): WALL_EAST, (-1, 0): WALL_WEST, (0, 1): WALL_NORTH, (0, -1): WALL_SOUTH}


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), size=st.integers(1, 3), walk_seed=st.integers(0, 2**31 - 1))
def test_random_walker_never_enters_blocked_tile_or_crosses_wall(seed, size, walk_seed):
    f = _random_map(seed)
    free = _free_tiles(f, size)
    if not free:
        return
    rng = np.random.default_rng(walk_seed)
    x, y = free[rng.integers(len(free))]
    for _ in range(60):
        dx, dy = STEPS[rng.integers(8)]
        if not can_step(f, x, y, size, dx, dy):
            continue
        if dx == 0 or dy == 0:
            # The old footprint's leading edge has no wall on the side it steps across.
            for i in range(size):
                ex = (x + size - 1 if dx > 0 else x) if dx else x + i
                ey = (y + size - 1 if dy > 0 else y) if dy else y + i
                assert not f[ex, ey] & _SIDE_WALL[(dx, dy)], "crossed a wall"
        else:
            # Diagonal: the entered corner tile has no wall on either side facing the mover.
            cx = x + size if dx > 0 else x - 1
            cy = y + size if dy > 0 else y - 1
            assert not f[cx, cy] & (_SIDE_WALL[(-dx, 0)] | _SIDE_WALL[(0, -dy)]), "cut through a wall"
            if size == 1:
                # ... and for 1x1 neither leg of the L around the corner is walled.
                assert not f[x, y] & (_SIDE_WALL[(dx, 0)] | _SIDE_WALL[(0, dy)])
        x, y = x + dx, y + dy
        assert can_occupy(f, x, y, size), "entered a blocked tile"


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_size1_orthogonal_steps_are_reversible(seed):
    # Walls are stored on both tiles, so a 1x1 that can cross an edge can cross it back.
    f = _random_map(seed)
    for x, y in _free_tiles(f, 1):
        for dx, dy in ((1, 0), (0, 1)):
            if can_occupy(f, x + dx, y + dy, 1):
                assert can_step(f, x, y, 1, dx, dy) == can_step(f, x + dx, y + dy, 1, -dx, -dy)


# ----------------------------------------------------------------------------------------------
# Distance and melee reach (movement rules 1-2)
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "a, b, expected",
    [
        ((5, 5, 1), (5, 5, 1), 0),  # same tile
        ((5, 5, 1), (6, 6, 1), 1),  # diagonal neighbours touch
        ((5, 5, 1), (9, 7, 1), 4),
        ((0, 0, 3), (3, 1, 1), 1),  # touching the east edge of a 3x3
        ((0, 0, 3), (5, 1, 1), 3),
        ((0, 0, 3), (1, 1, 1), 0),  # under the 3x3
        ((0, 0, 5), (-4, 9, 2), 5),  # x gap 0 - (-3) = 3, y gap 9 - 4 = 5
        ((10, 10, 2), (0, 0, 3), 8),
    ],
)
def test_chebyshev_distance_edge_to_edge(a, b, expected):
    assert chebyshev_distance(*a, *b) == expected
    assert chebyshev_distance(*b, *a) == expected


def test_melee_reach_is_orthogonal_and_size_aware():
    assert in_melee_reach(5, 5, 1, 6, 5, 1) and in_melee_reach(5, 5, 1, 5, 4, 1)
    assert not in_melee_reach(5, 5, 1, 6, 6, 1)  # diagonal
    assert not in_melee_reach(5, 5, 1, 5, 5, 1)  # under
    assert not in_melee_reach(5, 5, 1, 7, 5, 1)
    # 3x3 at (0, 0): every tile along its edges, none at its corners.
    edge = {(3, y) for y in range(3)} | {(-1, y) for y in range(3)} | {(x, 3) for x in range(3)} | {
        (x, -1) for x in range(3)
    }
    for px in range(-3, 6):
        for py in range(-3, 6):
            assert in_melee_reach(0, 0, 3, px, py, 1) == ((px, py) in edge)


# ----------------------------------------------------------------------------------------------
# NPC chase step (movement rules 5-7)
# ----------------------------------------------------------------------------------------------


def test_npc_steps_diagonally_then_straight():
    f = make_arena(20, 20)
    assert chase(f, 3, 3, 1, 8, 5, ticks=4) == [(4, 4), (5, 5), (6, 5), (7, 5)]


def test_npc_stuck_behind_wall_does_not_path_around():
    f = make_arena(20, 20)
    for x in range(3, 9):
        add_wall(f, x, 7, NORTH)
    # Straight below the player: it walks up to the wall and stays there.
    assert chase(f, 5, 3, 1, 5, 12, ticks=8)[-4:] == [(5, 7)] * 4
    # Off to the side it reaches the wall and slides along x until aligned, then sticks.
    assert chase(f, 3, 4, 1, 6, 12, ticks=10)[-1] == (6, 7)


def test_npc_stuck_behind_pillar():
    f = add_block(make_arena(20, 20), 8, 8, 3, 3)
    assert chase(f, 9, 4, 1, 9, 14, ticks=8)[-1] == (9, 7)


def test_npc_slides_along_x_when_diagonal_blocked():
    f = add_block(make_arena(20, 20), 6, 6, 1, 1)
    assert chase(f, 5, 5, 1, 10, 10, ticks=3) == [(6, 5), (7, 5), (8, 6)]


def test_npc_slides_along_y_when_diagonal_and_x_blocked():
    f = add_block(make_arena(20, 20), 6, 5, 1, 1)
    assert chase(f, 5, 5, 1, 10, 10, ticks=2) == [(5, 6), (6, 7)]


def test_npc_in_melee_reach_stays_and_never_steps_under_target():
    f = make_arena(20, 20)
    assert chase(f, 5, 5, 1, 6, 5) == [(5, 5)]
    # Diagonal neighbour: the diagonal step would land on the target, so only x is tried.
    assert chase(f, 5, 5, 1, 6, 6) == [(6, 5)]


def test_corner_safespot():
    # Diagonal neighbour with the x tile blocked: the NPC never reaches melee reach.
    f = add_block(make_arena(20, 20), 6, 5, 1, 1)
    assert chase(f, 5, 5, 1, 6, 6, ticks=5) == [(5, 5)] * 5


def test_npc_under_target_waits_for_unstack_step():
    f = make_arena(20, 20)
    assert chase(f, 5, 5, 3, 6, 6) == [(5, 5)]
    assert npc_unstack_step(f, 5, 5, 3, 0) == (4, 5)  # west
    assert npc_unstack_step(f, 5, 5, 3, 1) == (6, 5)  # east
    assert npc_unstack_step(f, 5, 5, 3, 2) == (5, 6)  # north
    assert npc_unstack_step(f, 5, 5, 3, 3) == (5, 4)  # south
    f = add_block(f, 4, 5, 1, 1)
    assert npc_unstack_step(f, 5, 5, 3, 0) == (5, 5)


@pytest.mark.parametrize("size", [3, 5])
def test_big_npc_chases_into_melee_reach_on_open_ground(size):
    f = make_arena(30, 30)
    x, y = 2, 2
    for _ in range(30):
        x, y = npc_chase_step(f, x, y, size, 20, 21, 1)
        assert can_occupy(f, x, y, size)
    assert in_melee_reach(x, y, size, 20, 21, 1)


@pytest.mark.parametrize("size", [3, 5])
def test_big_npc_stuck_behind_pillar(size):
    f = add_block(make_arena(30, 30), 12, 8, 3, 3)
    x, y = 2, 9
    trail = []
    for _ in range(20):
        x, y = npc_chase_step(f, x, y, size, 22, 9, 1)
        assert can_occupy(f, x, y, size)
        trail.append((int(x), int(y)))
    assert trail[-1] == (12 - size, 9)
    assert trail[-5:] == [trail[-1]] * 5


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    size=st.integers(1, 5),
    tsize=st.integers(1, 2),
    picks=st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)),
)
def test_chase_step_invariants(seed, size, tsize, picks):
    f = _random_map(seed, 20, 20)
    free = _free_tiles(f, size)
    targets = _free_tiles(f, tsize)
    if not free or not targets:
        return
    x, y = free[picks[0] % len(free)]
    tx, ty = targets[picks[1] % len(targets)]
    d0 = chebyshev_distance(x, y, size, tx, ty, tsize)
    nx, ny = npc_chase_step(f, x, y, size, tx, ty, tsize)
    dx, dy = nx - x, ny - y
    assert abs(dx) <= 1 and abs(dy) <= 1
    assert can_occupy(f, nx, ny, size)
    assert (dx, dy) == (0, 0) or can_step(f, x, y, size, dx, dy)
    d1 = chebyshev_distance(nx, ny, size, tx, ty, tsize)
    # Each axis moves toward the target's south-west tile, so no footprint gap grows.
    assert d1 <= d0
    assert d0 - d1 <= 1
    if d0 > 0:
        assert not overlaps(nx, ny, size, tx, ty, tsize)
    if in_melee_reach(x, y, size, tx, ty, tsize) or d0 == 0:
        assert (dx, dy) == (0, 0)


# ----------------------------------------------------------------------------------------------
# Path buffers (movement rules 3-4)
# ----------------------------------------------------------------------------------------------


def _set_path(p, points):
    clear_path(p)
    for i, (x, y) in enumerate(points):
        p["xs"][i], p["ys"][i] = x, y
    p["length"] = len(points)


def test_walk_moves_one_tile_run_two():
    f = make_arena(20, 20)
    path = make_path()
    _set_path(path[0], [(10, 5)])
    assert advance_path(f, 5, 5, 1, path[0], WALK_TILES) == (6, 5, 1)
    assert advance_path(f, 6, 5, 1, path[0], RUN_TILES) == (8, 5, 2)
    assert advance_path(f, 8, 5, 1, path[0], RUN_TILES) == (10, 5, 2)
    assert path[0]["position"] == path[0]["length"]
    assert advance_path(f, 10, 5, 1, path[0], RUN_TILES) == (10, 5, 0)


def test_run_with_one_tile_left_moves_one():
    f = make_arena(20, 20)
    path = make_path()
    _set_path(path[0], [(8, 5)])
    assert advance_path(f, 5, 5, 1, path[0], RUN_TILES) == (7, 5, 2)
    assert advance_path(f, 7, 5, 1, path[0], RUN_TILES) == (8, 5, 1)


def test_run_turns_at_waypoint_within_a_tick():
    f = make_arena(20, 20)
    path = make_path()
    _set_path(path[0], [(6, 5), (8, 7)])
    assert advance_path(f, 5, 5, 1, path[0], RUN_TILES) == (7, 6, 2)
    assert path[0]["position"] == 1


def test_blocked_step_keeps_the_path():
    f = add_block(make_arena(20, 20), 8, 4, 1, 3)
    path = make_path()
    _set_path(path[0], [(10, 5)])
    assert advance_path(f, 5, 5, 1, path[0], RUN_TILES) == (7, 5, 2)
    assert advance_path(f, 7, 5, 1, path[0], RUN_TILES) == (7, 5, 0)
    assert path[0]["position"] == 0 and path[0]["length"] == 1


def test_path_buffer_is_plain_data():
    assert PATH_DTYPE.itemsize == 4 * MAX_WAYPOINTS + 4
    assert not PATH_DTYPE.hasobject


@settings(max_examples=30, deadline=None)
@given(points=st.lists(st.tuples(st.integers(1, 18), st.integers(1, 18)), min_size=1, max_size=MAX_WAYPOINTS),
       ticks=st.integers(0, 6))
def test_path_snapshot_restore_reproduces_walk(points, ticks):
    # A path inside a state record: snapshot is a byte copy; restore then replay is identical.
    state_dtype = np.dtype([("x", np.int16), ("y", np.int16), ("path", PATH_DTYPE)])
    f = make_arena(20, 20)
    s = np.zeros(1, state_dtype)
    s[0]["x"], s[0]["y"] = 1, 1
    _set_path(s[0]["path"], points)

    def tick(rec, tiles):
        x, y, _ = advance_path(f, rec["x"], rec["y"], 1, rec["path"], tiles)
        rec["x"], rec["y"] = x, y

    for _ in range(ticks):
        tick(s[0], RUN_TILES)
    blob = s.tobytes()
    after = []
    for t in range(8):
        tick(s[0], WALK_TILES if t % 2 else RUN_TILES)
        after.append(s.tobytes())
    s[:] = np.frombuffer(blob, dtype=state_dtype)
    assert s.tobytes() == blob
    for t in range(8):
        tick(s[0], WALK_TILES if t % 2 else RUN_TILES)
        assert s.tobytes() == after[t]
