"""Click-to-move BFS: path lengths, neighbour order, closest reachable tile, walking the result.

Rules and sources: ``osrs_rl.core.pathfinding`` module docstring (rsmod RouteFinding.kt).
"""

from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from osrs_rl.core.collision import EAST, NORTH, add_block, add_wall, can_occupy, can_step, make_arena
from osrs_rl.core.movement import MAX_WAYPOINTS, RUN_TILES, WALK_TILES, advance_path, make_path
from osrs_rl.core.pathfinding import (
    PATH_ALTERNATIVE,
    PATH_FOUND,
    PATH_NONE,
    STEP_DX,
    STEP_DY,
    find_path,
    first_steps_table,
    make_bfs_scratch,
)

STEPS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]
SCRATCH = make_bfs_scratch()


def route(flags, start, target, size=1):
    """(status, path record) for a click from ``start`` on ``target``."""
    path = make_path()
    status = find_path(flags, start[0], start[1], size, target[0], target[1], path[0], SCRATCH[0])
    return status, path[0]


def walk(flags, start, path, tiles=WALK_TILES, size=1, max_ticks=400, tally=None):
    """Positions after each tick until the path is used up or the mover stops.

    ``tally``, a list, receives the number of tiles moved each tick.
    """
    x, y = start
    out = []
    for _ in range(max_ticks):
        x, y, moved = advance_path(flags, x, y, size, path, tiles)
        if moved == 0:
            break
        out.append((int(x), int(y)))
        if tally is not None:
            tally.append(int(moved))
    return out


def reference_distances(flags, start, size=1):
    """Independent BFS over ``can_step`` (no neighbour order): tile -> steps from ``start``."""
    dist = {start: 0}
    q = deque([start])
    while q:
        x, y = q.popleft()
        for dx, dy in STEPS:
            n = (x + dx, y + dy)
            if n not in dist and can_step(flags, x, y, size, dx, dy):
                dist[n] = dist[(x, y)] + 1
                q.append(n)
    return dist


def maze():
    """A 15x11 maze: two walls with gaps at opposite ends force an S-shaped route."""
    f = make_arena(15, 11)
    add_block(f, 1, 3, 11, 1)  # gap at x = 12..13 on the east
    add_block(f, 3, 7, 11, 1)  # gap at x = 1..2 on the west
    return f


def test_shortest_path_length_on_a_maze():
    f = maze()
    start, target = (2, 1), (11, 9)
    status, path = route(f, start, target)
    assert status == PATH_FOUND
    steps = walk(f, start, path)
    assert steps[-1] == target
    assert len(steps) == reference_distances(f, start)[target]
    for (ax, ay), (bx, by) in zip([start] + steps, steps, strict=False):
        assert can_step(f, ax, ay, 1, bx - ax, by - ay)


def test_first_steps_follow_neighbour_order():
    # BFS tries W, E, S, N, SW, SE, NW, NE; each tile keeps the first parent that found it.
    # (13, 12) is first found from (12, 11), itself first found from (11, 10) (the start's east
    # neighbour, tried before its north-east one): straight first, then diagonal.
    f = make_arena(30, 30)
    status, path = route(f, (10, 10), (13, 12))
    assert status == PATH_FOUND
    assert [(int(x), int(y)) for x, y in zip(path["xs"][: path["length"]], path["ys"][: path["length"]],
                                           strict=True)] == [(11, 10), (13, 12)]
    assert walk(f, (10, 10), path) == [(11, 10), (12, 11), (13, 12)]
    # Mirror image to the south-west: west is tried first, then south-west.
    _, path = route(f, (10, 10), (7, 8))
    assert walk(f, (10, 10), path) == [(9, 10), (8, 9), (7, 8)]
    # North of the start is found after south: a pure-north target is still a straight line.
    _, path = route(f, (10, 10), (10, 14))
    assert walk(f, (10, 10), path) == [(10, 11), (10, 12), (10, 13), (10, 14)]


def test_route_around_a_pillar_goes_south_first():
    # Both ways round the 3x3 pillar are 9 steps; south is explored before north.
    f = add_block(make_arena(20, 20), 8, 8, 3, 3)
    _, path = route(f, (5, 9), (14, 9))
    steps = walk(f, (5, 9), path)
    assert len(steps) == 9 and steps[-1] == (14, 9)
    assert min(y for _, y in steps) == 7


def test_unreachable_target_walks_to_closest_tile():
    # Clicking the centre of a pillar: the four tiles 2 away on an axis tie on distance² = 4;
    # the one with the shortest path (west side, 4 steps) wins.
    f = add_block(make_arena(24, 24), 10, 10, 3, 3)
    status, path = route(f, (5, 11), (11, 11))
    assert status == PATH_ALTERNATIVE
    assert walk(f, (5, 11), path)[-1] == (9, 11)


def test_unreachable_room_prefers_euclidean_then_path_length():
    # The target sits in a closed room; the closest outside tiles are along its south wall.
    f = make_arena(30, 30)
    for x in range(12, 17):
        add_wall(f, x, 11, NORTH)  # room floor edge y = 12..16, x = 12..16
        add_wall(f, x, 16, NORTH)
    for y in range(12, 17):
        add_wall(f, 11, y, EAST)
        add_wall(f, 16, y, EAST)
    status, path = route(f, (14, 3), (14, 14))
    assert status == PATH_ALTERNATIVE
    # Best tile: (14, 11), distance² 9, directly below the target.
    assert walk(f, (14, 3), path)[-1] == (14, 11)


def test_target_beyond_the_alternative_square_gives_no_path():
    f = make_arena(40, 40)
    add_block(f, 1, 8, 38, 1)  # the mover is shut in the south strip y = 1..7
    status, path = route(f, (5, 3), (20, 30))
    assert status == PATH_NONE
    assert path["length"] == 0
    assert walk(f, (5, 3), path) == []


def test_click_on_own_tile_is_empty_path():
    f = make_arena(10, 10)
    status, path = route(f, (4, 4), (4, 4))
    assert status == PATH_FOUND and path["length"] == 0


def test_run_moves_two_tiles_per_tick():
    f = make_arena(20, 20)
    _, path = route(f, (2, 5), (9, 5))
    assert walk(f, (2, 5), path, RUN_TILES) == [(4, 5), (6, 5), (8, 5), (9, 5)]
    _, path = route(f, (2, 5), (9, 5))
    assert len(walk(f, (2, 5), path, WALK_TILES)) == 7


def test_waypoints_are_capped_at_25():
    # A serpentine of 9 corridors has more than 25 turns; the mover stops at the 25th waypoint,
    # which lies on a shortest route.
    f = make_arena(20, 40)
    for i, y in enumerate(range(3, 38, 4)):
        if i % 2 == 0:
            add_block(f, 1, y, 16, 1)
        else:
            add_block(f, 3, y, 16, 1)
    start, target = (1, 1), (1, 38)
    status, path = route(f, start, target)
    assert status == PATH_FOUND
    assert path["length"] == MAX_WAYPOINTS
    steps = walk(f, start, path)
    end = steps[-1]
    assert end == (path["xs"][MAX_WAYPOINTS - 1], path["ys"][MAX_WAYPOINTS - 1])
    assert end != target
    assert len(steps) == reference_distances(f, start)[end]


def test_two_by_two_mover_uses_size_aware_steps():
    f = add_block(make_arena(20, 20), 8, 1, 1, 10)  # wall with a gap y = 11..18
    status, path = route(f, (3, 3), (12, 3), size=2)
    assert status == PATH_FOUND
    steps = walk(f, (3, 3), path, size=2)
    assert steps[-1] == (12, 3)
    assert all(can_occupy(f, x, y, 2) for x, y in steps)
    assert len(steps) == reference_distances(f, (3, 3), size=2)[(12, 3)]


def test_scratch_reuse_gives_identical_results():
    f = maze()
    a = route(f, (2, 1), (11, 9))[1].tobytes()
    route(make_arena(30, 30), (3, 3), (20, 20))  # dirty the scratch with another search
    assert route(f, (2, 1), (11, 9))[1].tobytes() == a


def _random_map(seed, w=18, h=18):
    rng = np.random.default_rng(seed)
    f = make_arena(w, h)
    for _ in range(rng.integers(0, 10)):
        add_block(f, int(rng.integers(1, w - 1)), int(rng.integers(1, h - 1)), int(rng.integers(1, 4)),
                  int(rng.integers(1, 4)))
    for _ in range(rng.integers(0, 15)):
        add_wall(f, int(rng.integers(1, w - 1)), int(rng.integers(1, h - 1)), int(rng.integers(0, 4)))
    return f


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), picks=st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)),
       run=st.booleans())
def test_walking_a_route_is_shortest_and_legal(seed, picks, run):
    f = _random_map(seed)
    free = [(x, y) for x in range(18) for y in range(18) if can_occupy(f, x, y, 1)]
    if not free:
        return
    start, target = free[picks[0] % len(free)], free[picks[1] % len(free)]
    status, path = route(f, start, target)
    dist = reference_distances(f, start)
    tally = []
    tiles = RUN_TILES if run else WALK_TILES
    pos = [start] + walk(f, start, path, tiles, tally=tally)
    end = pos[-1]
    assert all(1 <= m <= tiles for m in tally)
    if target in dist:
        assert status == PATH_FOUND
        if dist[target] > 0 and path["length"] < MAX_WAYPOINTS:
            assert end == target
    else:
        assert status in (PATH_ALTERNATIVE, PATH_NONE)
        if status == PATH_ALTERNATIVE:
            best = min((x - target[0]) ** 2 + (y - target[1]) ** 2 for (x, y), d in dist.items()
                       if abs(x - target[0]) <= 10 and abs(y - target[1]) <= 10 and d < 100)
            assert (end[0] - target[0]) ** 2 + (end[1] - target[1]) ** 2 == best
    # Tiles walked equal the BFS distance of the end tile, and every tick is a legal move.
    assert sum(tally) == dist[end]
    for x, y in pos:
        assert can_occupy(f, x, y, 1)


@pytest.mark.parametrize("target", [(-5, 3), (3, 500), (200, 200)])
def test_targets_off_the_map_or_window_are_safe(target):
    f = make_arena(12, 12)
    status, path = route(f, (5, 5), target)
    assert status in (PATH_ALTERNATIVE, PATH_NONE)
    for x, y in walk(f, (5, 5), path):
        assert can_occupy(f, x, y, 1)


# ---- rule 6: the first-steps table agrees with find_path ------------------------------------------
def table_steps(table, radius, start, target):
    """The (up to two) tiles the table's entry for ``start`` -> ``target`` steps to."""
    side = 2 * radius + 1
    code = int(table[start[0], start[1], (target[0] - start[0] + radius) * side + target[1] - start[1] + radius])
    x, y = start
    out = []
    for c in (code & 15, code >> 4):
        if c == 0:
            break
        x, y = x + int(STEP_DX[c]), y + int(STEP_DY[c])
        out.append((x, y))
    return out


def _agrees_on(f, radius, pairs):
    table = first_steps_table(f, radius)
    statuses = set()
    for start, target in pairs:
        status, path = route(f, start, target)
        statuses.add(status)
        assert table_steps(table, radius, start, target) == walk(f, start, path, WALK_TILES, max_ticks=2), \
            (start, target, status)
    return statuses


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), radius=st.integers(1, 4))
def test_first_steps_table_agrees_with_find_path(seed, radius):
    f = _random_map(seed)
    rng = np.random.default_rng(seed)
    free = [(x, y) for x in range(18) for y in range(18) if can_occupy(f, x, y, 1)]
    if not free:
        return
    pairs = []
    for _ in range(150):
        start = free[int(rng.integers(len(free)))]
        dx, dy = (int(v) for v in rng.integers(-radius, radius + 1, 2))
        pairs.append((start, (start[0] + dx, start[1] + dy)))
    _agrees_on(f, radius, pairs)


def test_first_steps_table_gives_the_closest_approach_of_unreachable_targets():
    """A walled-in pocket and a pillar's tiles: the table's steps are find_path's alternative route, and a
    target off the map or with no reachable tile near it gives no step (PATH_NONE)."""
    f = add_block(make_arena(16, 16), 6, 6, 3, 3)
    for x, y, side in ((11, 11, NORTH), (11, 11, EAST)):
        add_wall(f, x, y, side)
    add_block(f, 12, 11, 1, 1)
    add_block(f, 11, 12, 1, 1)                     # (11, 11): walls north and east, blocks north-east
    add_block(f, 10, 11, 1, 1)
    add_block(f, 11, 10, 1, 1)                     # ... and west and south: a one-tile pocket
    free = [(x, y) for x in range(16) for y in range(16) if can_occupy(f, x, y, 1)]
    pairs = [(s, (s[0] + dx, s[1] + dy)) for s in free for dx in range(-3, 4) for dy in range(-3, 4)]
    statuses = _agrees_on(f, 3, pairs)
    assert statuses == {PATH_FOUND, PATH_ALTERNATIVE}
    table = first_steps_table(f, 3)
    # the pillar's middle tile from 3 west: the tile beside it (squared distance 4, the shortest of the four
    # such tiles) is one step away; from beside it no step at all
    assert route(f, (4, 7), (7, 7))[0] == PATH_ALTERNATIVE
    assert table_steps(table, 3, (4, 7), (7, 7)) == [(5, 7)]
    assert table_steps(table, 3, (5, 7), (7, 7)) == []
    # without rule 4 the unreachable targets get no steps and the reachable ones the same steps
    fast = first_steps_table(f, 3, approach=False)
    assert table_steps(fast, 3, (4, 7), (7, 7)) == [] and table_steps(fast, 3, (4, 7), (1, 7)) == [(3, 7), (2, 7)]
    reach = np.array([[[route(f, (x, y), (x + dx, y + dy))[0] == PATH_FOUND if can_occupy(f, x, y, 1) else False
                        for dx in range(-3, 4) for dy in range(-3, 4)] for y in range(16)] for x in range(16)])
    assert np.array_equal(fast[reach], table[reach]) and not fast[~reach].any()
    assert not table[6:9, 6:9].any()                       # blocked start tiles have no entries
