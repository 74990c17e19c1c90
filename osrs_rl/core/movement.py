"""Tile movement: path buffers, walking/running along a path, the NPC chase step, distances.

Index (rules, in order, with sources):

1. Distance between two sized entities is the Chebyshev gap between their footprints: 0 when
   they overlap, 1 when they touch (including diagonally), n when n-1 tiles lie between them.
   Attack range and hit delay use it (2004Scape/Server ``src/engine/CoordGrid.ts``
   ``distanceTo``: Chebyshev distance between the closest tiles of the two footprints; osrs-sdk
   ``src/sdk/LineOfSight.ts`` range check ``|dx| > r || |dy| > r``).
2. Melee reach: footprints touch along an edge; diagonal contact does not count and an entity
   under its target cannot attack (osrs-sdk ``LineOfSight.hasLineOfSight`` range-1 branch and
   ``Mob.attackIfPossible``). Walls between the two tiles are NOT checked (approximation; the
   server's wall-aware rule is rsmod ``reach/ReachStrategy.kt``).
3. A path is a list of at most ``MAX_WAYPOINTS`` = 25 turn points, walked one tile per step
   toward the current waypoint: diagonal first, else along x, else along y, else the entity
   waits (2004Scape/Server ``src/engine/entity/PathingEntity.ts`` ``takeStep``, waypoints
   ``Int32Array(25)``; rsmod ``RouteFinding.kt`` ``maxWaypoints = 25``).
4. Walking moves 1 tile per tick, running 2 (wiki "Game square": walk 1, run 2 squares a tick;
   PathingEntity.processMovement takes a second step only when running). A run with 1 tile left
   moves 1.
5. NPC chase step (the "dumb pathfinder"): each tick one step toward the target's south-west
   tile by the signs of the coordinate differences; diagonal if allowed, else x, else y, else
   stay (PathingEntity ``takeStep``; osrs-sdk ``Mob.getNextMovementStep``/``movementStep``).
   No search: an NPC stays stuck behind an obstacle. Approximation: for targets larger than
   1x1 the server first picks a tile beside the target (2004Scape/rsmod-pathfinder
   ``src/rsmod/NaivePathFinder.ts`` ``naiveDestination``); we aim at the target's south-west
   tile as osrs-sdk does (traced by hand to give the same steps for the 1x1 cases in
   tests/core/test_movement.py, including the corner safespot).
6. The chase step never ends on the target's tiles. If the diagonal step would overlap the
   target, the NPC tries the x step only (the "corner safespot"; osrs-sdk ``Mob.ts``
   "allows corner safespotting"). An NPC already in melee reach does not move.
7. An NPC standing under its target steps out in a random cardinal direction; the caller draws
   the direction (osrs-sdk ``Mob.getNextMovementStep`` random move; 2004Scape/rsmod-pathfinder
   ``NaivePathFinder.cardinalDestination``): ``npc_unstack_step``.

Approximation: entities do not block each other here; only the collision map is read (stamp
occupied tiles into a scratch map if an encounter needs NPCs and players to block each other,
as the server's occupancy flags do; rsmod ``flag/CollisionFlag.kt`` BLOCK_NPCS, BLOCK_PLAYERS).
"""

import numpy as np
from numba import njit

from osrs_rl.core.collision import can_step

MAX_WAYPOINTS = 25

PATH_DTYPE = np.dtype(
    [
        ("xs", np.int16, (MAX_WAYPOINTS,)),  # waypoint x, in walking order
        ("ys", np.int16, (MAX_WAYPOINTS,)),  # waypoint y
        ("length", np.int16),  # number of waypoints in use
        ("position", np.int16),  # index of the waypoint being walked to; == length when done
    ]
)
"""A path as plain data: embed it as a field of an env state record (snapshot = byte copy)."""

WALK_TILES = 1
RUN_TILES = 2

# Cardinal directions for npc_unstack_step, in 2004Scape NaivePathFinder.DIRECTIONS order.
_UNSTACK_DX = (-1, 1, 0, 0)  # west, east, north, south
_UNSTACK_DY = (0, 0, 1, -1)


@njit(cache=True)
def _sign(v):
    if v > 0:
        return np.int64(1)
    if v < 0:
        return np.int64(-1)
    return np.int64(0)


@njit(cache=True)
def axis_gap(a, asize, b, bsize):
    """Gap between intervals ``a..a+asize-1`` and ``b..b+bsize-1``: 0 overlap, 1 touching."""
    lo = b - (a + asize - 1)
    hi = a - (b + bsize - 1)
    g = lo if lo > hi else hi
    return np.int64(g) if g > 0 else np.int64(0)


@njit(cache=True)
def chebyshev_distance(x0, y0, size0, x1, y1, size1):
    """Rule 1: Chebyshev distance between two footprints, edge to edge (0 when overlapping)."""
    # int64 arguments: axis_gap compiles once, not once per argument type and literal size
    gx = axis_gap(np.int64(x0), np.int64(size0), np.int64(x1), np.int64(size1))
    gy = axis_gap(np.int64(y0), np.int64(size0), np.int64(y1), np.int64(size1))
    return gx if gx > gy else gy


@njit(cache=True)
def overlaps(x0, y0, size0, x1, y1, size1):
    """Whether two footprints share a tile."""
    return (axis_gap(np.int64(x0), np.int64(size0), np.int64(x1), np.int64(size1)) == 0
            and axis_gap(np.int64(y0), np.int64(size0), np.int64(y1), np.int64(size1)) == 0)


@njit(cache=True)
def in_melee_reach(x, y, size, tx, ty, tsize):
    """Rule 2: the footprints touch along an edge (not diagonally, not overlapping)."""
    gx = axis_gap(x, size, tx, tsize)
    gy = axis_gap(y, size, ty, tsize)
    return (gx == 1 and gy == 0) or (gx == 0 and gy == 1)


# ----------------------------------------------------------------------------------------------
# Paths
# ----------------------------------------------------------------------------------------------


def make_path(n=1):
    """``n`` empty path buffers (a structured array of ``PATH_DTYPE``)."""
    return np.zeros(n, dtype=PATH_DTYPE)


@njit(cache=True)
def clear_path(path):
    """Forget the path (the entity stops)."""
    path.length = 0
    path.position = 0


@njit(cache=True)
def path_done(path):
    return path.position >= path.length


@njit(cache=True)
def _step_toward(flags, x, y, size, wx, wy):
    """One step toward ``(wx, wy)``: diagonal, else x, else y (rule 3). Returns (dx, dy)."""
    sx = _sign(wx - x)
    sy = _sign(wy - y)
    if can_step(flags, x, y, size, sx, sy):
        return sx, sy
    if sx != 0 and can_step(flags, x, y, size, sx, 0):
        return sx, np.int64(0)
    if sy != 0 and can_step(flags, x, y, size, 0, sy):
        return np.int64(0), sy
    return np.int64(0), np.int64(0)


@njit(cache=True)
def advance_path(flags, x, y, size, path, tiles):
    """Move along ``path`` by up to ``tiles`` steps (``WALK_TILES`` or ``RUN_TILES``).

    Returns ``(nx, ny, moved)``. A blocked step ends the move but keeps the path, as the server
    keeps a blocked waypoint (rule 3); ``path.position`` advances past each waypoint reached.
    """
    cx = np.int64(x)
    cy = np.int64(y)
    moved = np.int64(0)
    while moved < tiles and path.position < path.length:
        wx = np.int64(path.xs[path.position])
        wy = np.int64(path.ys[path.position])
        if cx == wx and cy == wy:
            path.position += 1
            continue
        dx, dy = _step_toward(flags, cx, cy, size, wx, wy)
        if dx == 0 and dy == 0:
            break
        cx += dx
        cy += dy
        moved += 1
        if cx == wx and cy == wy:
            path.position += 1
    return cx, cy, moved


# ----------------------------------------------------------------------------------------------
# NPC chase
# ----------------------------------------------------------------------------------------------


@njit(cache=True)
def npc_chase_step(flags, x, y, size, tx, ty, tsize):
    """Rules 5-6: the NPC's position after one chase step toward its target.

    Returns ``(nx, ny)``; unchanged when stuck, already in melee reach, or under the target
    (use ``npc_unstack_step`` for that case). Callers skip the step on ticks the NPC attacks.
    """
    px = np.int64(x)
    py = np.int64(y)
    if overlaps(px, py, size, tx, ty, tsize) or in_melee_reach(px, py, size, tx, ty, tsize):
        return px, py
    sx = _sign(tx - px)
    sy = _sign(ty - py)
    if sx != 0 and sy != 0:
        if overlaps(px + sx, py + sy, size, tx, ty, tsize):
            # Corner rule (rule 6): drop the y component, so only the x step is tried.
            sy = np.int64(0)
        elif can_step(flags, px, py, size, sx, sy):
            return px + sx, py + sy
    if sx != 0 and can_step(flags, px, py, size, sx, 0) and not overlaps(px + sx, py, size, tx, ty, tsize):
        return px + sx, py
    if sy != 0 and can_step(flags, px, py, size, 0, sy) and not overlaps(px, py + sy, size, tx, ty, tsize):
        return px, py + sy
    return px, py


@njit(cache=True)
def npc_unstack_step(flags, x, y, size, direction):
    """Rule 7: try one cardinal step (0 west, 1 east, 2 north, 3 south); returns ``(nx, ny)``.

    The caller draws ``direction`` from the env's RNG (e.g. ``rng.below(rng_state, 4)``).
    """
    px = np.int64(x)
    py = np.int64(y)
    d = direction & 3
    dx = np.int64(_UNSTACK_DX[d])
    dy = np.int64(_UNSTACK_DY[d])
    if can_step(flags, px, py, size, dx, dy):
        return px + dx, py + dy
    return px, py
