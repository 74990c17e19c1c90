"""Player click-to-move: the server's breadth-first route finder, writing into a path buffer.

Index (rules, in order, with sources):

1. Search area: a ``SEARCH_SIZE`` x ``SEARCH_SIZE`` (128 x 128) window centred on the mover,
   south-west corner at ``(x - 64, y - 64)`` (rsmod/rsmod
   ``engine/routefinder/.../RouteFinding.kt``: ``DEFAULT_SEARCH_MAP_SIZE = 128``,
   ``baseX = srcX - searchMapSize / 2``).
2. Breadth-first search from the mover; each tile is visited once; neighbours are tried in the
   order west, east, south, north, south-west, south-east, north-west, north-east, each step
   validated by ``collision.can_step`` (RouteFinding.kt ``routeFindSize1``; the same order is in
   OldSchoolSDK/osrs-sdk ``src/sdk/Pathing.ts``, which cites the wiki page "Pathfinding").
   The order decides which of several shortest paths is taken.
3. The search ends when the mover's south-west tile reaches the target tile.
4. Unreachable target: walk to the visited tile within ``ALT_RADIUS`` = 10 tiles of the target
   on each axis (a 21 x 21 square) with BFS distance < ``ALT_MAX_DISTANCE`` = 100 that
   minimises the squared Euclidean distance to the target; ties go to the shorter path, then to
   the first found scanning x then y (RouteFinding.kt ``findClosestApproachPoint``). If no tile
   qualifies the mover does not move.
5. The route is stored as turn points (a waypoint wherever the direction changes, plus the end)
   and cut to the first ``MAX_WAYPOINTS`` = 25 from the mover (RouteFinding.kt ``findRoute``
   waypoint loop, ``maxWaypoints = 25``). ``movement.advance_path`` walks it.

Approximation: the route always ends on a tile. Routes to interact with an NPC or object (stop
beside it, respecting walls; rsmod ``reach/ReachStrategy.kt``) are not modelled: route to the
tile you want and check ``movement.in_melee_reach`` or ``line_of_sight`` on arrival.

6. ``first_steps_table``: the same router precomputed for every start tile of a map and every target
   offset in a square of side ``2 * radius + 1`` around it: the first two steps of the route
   (direction codes, ``STEP_DX``/``STEP_DY``), from one full BFS per start tile. A full BFS gives
   each tile the parent it gets in the early-stopping search of rule 3 (a tile's parent is fixed
   when it is first reached), so the table agrees with ``find_path`` (tests/core/test_pathfinding.py).
   Kernels that move a player every tick read it instead of running a 128 x 128 BFS.

Scratch memory: ``find_path`` allocates nothing. The caller owns one ``BFS_SCRATCH_DTYPE``
record per thread (``make_bfs_scratch``) and passes it in; its contents are overwritten on every
call. Size-aware: the mover may be larger than 1x1 (its south-west tile is routed).
"""

import numpy as np
from numba import njit

from osrs_rl.core.collision import BLOCKED, can_step
from osrs_rl.core.movement import MAX_WAYPOINTS

SEARCH_SIZE = 128
ALT_RADIUS = 10
ALT_MAX_DISTANCE = 100
_NO_COST = 1000  # RouteFinding.kt MAX_ALTERNATIVE_ROUTE_LOWEST_COST: above any cost in the square

PATH_FOUND = 1
"""``find_path`` status: the path ends on the target tile."""
PATH_ALTERNATIVE = 0
"""``find_path`` status: target unreachable; the path ends on the closest reachable tile."""
PATH_NONE = -1
"""``find_path`` status: no tile to walk to; the path is empty."""

BFS_SCRATCH_DTYPE = np.dtype(
    [
        ("dirs", np.uint8, (SEARCH_SIZE * SEARCH_SIZE,)),  # 0 unvisited, 1..8 step used, 9 start
        ("dist", np.int32, (SEARCH_SIZE * SEARCH_SIZE,)),  # BFS distance of visited tiles
        ("queue", np.int32, (SEARCH_SIZE * SEARCH_SIZE,)),  # local index x * SEARCH_SIZE + y
    ]
)

# Neighbour order (rule 2): W, E, S, N, SW, SE, NW, NE. Direction code k + 1 marks a tile
# reached by step k, so the route is rebuilt by stepping back by (-_DX[k], -_DY[k]).
_DX = (-1, 1, 0, 0, -1, 1, -1, 1)
_DY = (0, 0, -1, 1, -1, -1, 1, 1)
_START = 9
STEP_DX = np.array((0,) + _DX, dtype=np.int8)
"""x step of direction code c (1..8, the neighbour order of rule 2; 0: no step)."""
STEP_DY = np.array((0,) + _DY, dtype=np.int8)


def make_bfs_scratch(n=1):
    """``n`` scratch records for ``find_path`` (one per thread that runs it)."""
    return np.zeros(n, dtype=BFS_SCRATCH_DTYPE)


@njit(cache=True)
def _bfs(flags, bx, by, size, ltx, lty, scratch):
    """Rule 2-3 in local coordinates; returns the local index of the target if reached, else -1."""
    dirs = scratch.dirs
    dist = scratch.dist
    queue = scratch.queue
    dirs[:] = 0
    src = (SEARCH_SIZE // 2) * SEARCH_SIZE + SEARCH_SIZE // 2
    dirs[src] = _START
    dist[src] = 0
    queue[0] = src
    head = 0
    tail = 1
    while head < tail:
        cur = queue[head]
        head += 1
        lx = cur // SEARCH_SIZE
        ly = cur - lx * SEARCH_SIZE
        if lx == ltx and ly == lty:
            return cur
        nd = dist[cur] + 1
        for k in range(8):
            nx = lx + _DX[k]
            ny = ly + _DY[k]
            if nx < 0 or ny < 0 or nx >= SEARCH_SIZE or ny >= SEARCH_SIZE:
                continue
            nxt = nx * SEARCH_SIZE + ny
            if dirs[nxt] != 0:
                continue
            if not can_step(flags, bx + lx, by + ly, size, _DX[k], _DY[k]):
                continue
            dirs[nxt] = k + 1
            dist[nxt] = nd
            queue[tail] = nxt
            tail += 1
    return -1


@njit(cache=True)
def _closest_approach(ltx, lty, scratch):
    """Rule 4: local index of the best reachable tile near the target, or -1."""
    return _closest_in(scratch.dirs, scratch.dist, ltx, lty, SEARCH_SIZE, SEARCH_SIZE)


@njit(cache=True)
def _closest_in(dirs, dist, tx, ty, w, h):
    """Rule 4 over a BFS's ``dirs``/``dist`` (index ``x * h + y`` of a ``w`` x ``h`` window): the index of the
    visited tile within ``ALT_RADIUS`` of ``(tx, ty)`` nearest it (squared Euclidean), ties to the shorter
    path, then to the first in x-then-y order; -1 if none."""
    best = -1
    best_cost = _NO_COST
    best_dist = ALT_MAX_DISTANCE
    for x in range(max(tx - ALT_RADIUS, 0), min(tx + ALT_RADIUS + 1, w)):
        for y in range(max(ty - ALT_RADIUS, 0), min(ty + ALT_RADIUS + 1, h)):
            i = x * h + y
            if dirs[i] == 0 or dist[i] >= ALT_MAX_DISTANCE:
                continue
            cost = (x - tx) * (x - tx) + (y - ty) * (y - ty)
            if cost < best_cost or (cost == best_cost and dist[i] < best_dist):
                best = i
                best_cost = cost
                best_dist = dist[i]
    return best


@njit(cache=True)
def _write_route(end, bx, by, path, scratch):
    """Rule 5: turn points from the start to ``end``, first ``MAX_WAYPOINTS`` kept, into ``path``."""
    dirs = scratch.dirs
    # Pass 1: count turn points walking back from the end.
    n = 0
    cur = end
    prev = 0
    while dirs[cur] != _START:
        d = dirs[cur]
        if d != prev:
            n += 1
            prev = d
        cur -= _DX[d - 1] * SEARCH_SIZE + _DY[d - 1]
    # Pass 2: the k-th turn point from the end is waypoint n-1-k; keep those below the cap.
    k = n
    cur = end
    prev = 0
    while dirs[cur] != _START:
        d = dirs[cur]
        if d != prev:
            k -= 1
            prev = d
            if k < MAX_WAYPOINTS:
                lx = cur // SEARCH_SIZE
                path.xs[k] = bx + lx
                path.ys[k] = by + cur - lx * SEARCH_SIZE
        cur -= _DX[d - 1] * SEARCH_SIZE + _DY[d - 1]
    path.length = n if n < MAX_WAYPOINTS else MAX_WAYPOINTS
    path.position = 0


@njit(cache=True)
def find_path(flags, x, y, size, tx, ty, path, scratch):
    """Route the ``size`` entity at ``(x, y)`` to tile ``(tx, ty)``; write it into ``path``.

    ``path`` is a ``movement.PATH_DTYPE`` record, ``scratch`` a ``BFS_SCRATCH_DTYPE`` record
    (both modified). Returns ``PATH_FOUND``, ``PATH_ALTERNATIVE`` or ``PATH_NONE``.
    """
    bx = np.int64(x) - SEARCH_SIZE // 2
    by = np.int64(y) - SEARCH_SIZE // 2
    ltx = np.int64(tx) - bx
    lty = np.int64(ty) - by
    end = _bfs(flags, bx, by, size, ltx, lty, scratch)
    status = PATH_FOUND
    if end < 0:
        end = _closest_approach(ltx, lty, scratch)
        status = PATH_ALTERNATIVE
        if end < 0:
            path.length = 0
            path.position = 0
            return PATH_NONE
    _write_route(end, bx, by, path, scratch)
    return status


@njit(cache=True)
def _first_steps(end, h, dirs):
    """(first, second) direction codes of the BFS-tree route to tile index ``end`` (0: none)."""
    first = 0
    second = 0
    cur = end
    while dirs[cur] != _START:
        d = dirs[cur]
        second = first
        first = d
        cur -= _DX[d - 1] * h + _DY[d - 1]
    return first, second


def fill_first_steps(flags, radius, approach, out):
    """Rule 6 into ``out`` (uint8[W, H, (2 radius + 1) ** 2]): entry ``[x, y, (dx + radius) * (2 radius + 1)
    + dy + radius]`` is ``first | second << 4``, the direction codes of the first two steps a size-1 mover on
    ``(x, y)`` takes towards ``(x + dx, y + dy)`` (``find_path``: the target, or its closest approach), 0 for
    no step; ``second`` is 0 when the route is one step. Blocked start tiles get 0s. ``approach`` False
    skips rule 4: an unreachable target gets 0s (for callers that never route to one; much faster).
    Each start tile runs ``find_path``'s own search (``_bfs``) with no target, so it visits every tile of
    its window, each with the parent the early-stopping search gives it."""
    _fill_first_steps(flags, int(radius), bool(approach), out, make_bfs_scratch(1))


@njit(cache=True)
def _fill_first_steps(flags, radius, approach, out, scratches):
    scratch = scratches[0]
    w, h = flags.shape[0], flags.shape[1]
    side = 2 * radius + 1
    centre = SEARCH_SIZE // 2
    out[:] = 0
    for x in range(w):
        for y in range(h):
            if flags[x, y] & BLOCKED:
                continue
            _bfs(flags, x - centre, y - centre, 1, -1, -1, scratch)
            for i in range(side):
                lx = centre + i - radius
                for j in range(side):
                    ly = centre + j - radius
                    end = lx * SEARCH_SIZE + ly
                    if scratch.dirs[end] == 0:
                        end = _closest_approach(lx, ly, scratch) if approach else -1
                    if end < 0:
                        continue
                    a, b = _first_steps(end, SEARCH_SIZE, scratch.dirs)
                    out[x, y, i * side + j] = a | (b << 4)


def first_steps_table(flags, radius, approach=True):
    """``fill_first_steps`` into a new uint8 array [W, H, (2 radius + 1) ** 2]."""
    side = 2 * int(radius) + 1
    out = np.zeros((flags.shape[0], flags.shape[1], side * side), dtype=np.uint8)
    fill_first_steps(flags, radius, approach, out)
    return out
