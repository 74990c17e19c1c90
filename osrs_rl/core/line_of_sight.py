"""Projectile line of sight between two sized entities, range limited.

Index (rules, in order, with sources):

1. Range: the Chebyshev distance between the footprints (``movement.chebyshev_distance``) must
   be at least 1 and at most the attack range; an entity under its target cannot attack
   (2004Scape/Server ``src/engine/entity/PathingEntity.ts`` ``inApproachDistance``: not within
   range when intersecting, else ``distanceTo <= range``; osrs-sdk ``src/sdk/Mob.ts``
   ``isUnderAggro``). Melee (range 1, no diagonals) is ``movement.in_melee_reach`` instead.
2. Ray end points: on each axis, the source tile is the source footprint's tile closest to the
   target's south-west coordinate, and the end tile is the target footprint's tile closest to the
   source's south-west coordinate (rsmod/rsmod ``engine/routefinder/.../LineRouteFinding.kt``
   ``coordinate``; the same clamp as osrs-sdk ``src/sdk/LineOfSight.ts`` for NPCs).
3. The start tile must not hold a walk-blocking object (rsmod ``LineValidator.kt``
   ``flagLocation`` check).
4. The ray (rsmod ``LineValidator.rayCast``): step one whole tile along the major axis (the one
   with the larger |delta|; ties go to y); track the minor axis in 16.16 fixed point from the
   tile centre (``start << 16 + 0x8000``, minus 1 when moving in the negative direction), adding
   ``(delta_minor << 16) / |delta_major|`` truncated toward zero per step. Each tile entered along
   the major axis is checked for ``BLOCKS_LOS`` or a LOS wall on its side facing the ray; when
   the minor coordinate changes, the tile entered along the minor axis is checked likewise.
5. The target tile's own ``BLOCKS_LOS`` flag is ignored; its LOS walls still count (rsmod
   ``flagProjectileBlocker`` removed at the end tile).

The ray is not symmetric: swapping source and target can change the answer for slanted rays,
because the rounding offset and the tiles checked depend on the direction of travel. Straight
rows and columns are symmetric.

Sight tables: on a small fixed map every ray can be cast once. ``sight_table`` packs
``ray_clear`` for every ordered pair of on-map tiles into bits (row = start tile, bit = end
tile, both numbered ``x * height + y`` like ``flags[x, y]``); ``table_ray_clear`` and
``table_line_of_sight`` answer exactly as ``ray_clear`` and ``has_line_of_sight`` from it,
off-map coordinates included; ``sight_tables`` builds one per map of a stack.
"""

import numpy as np
from numba import njit

from osrs_rl.core.collision import (
    BLOCKED,
    BLOCKS_LOS,
    WALL_EAST_LOS,
    WALL_NORTH_LOS,
    WALL_SOUTH_LOS,
    WALL_WEST_LOS,
    flag_at,
    validate_map,
)
from osrs_rl.core.movement import chebyshev_distance

_SCALE = 16
_HALF_TILE = 1 << (_SCALE - 1)


@njit(cache=True)
def _closest(a, b, size):
    """Rule 2: the coordinate of ``a..a+size-1`` closest to ``b``."""
    if a >= b:
        return np.int64(a)
    if a + size - 1 <= b:
        return np.int64(a + size - 1)
    return np.int64(b)


@njit(cache=True)
def _tangent(d_minor, d_major_abs):
    """``(d_minor << 16) / |d_major|`` truncated toward zero, as Java/Kotlin int division."""
    q = (abs(d_minor) << _SCALE) // d_major_abs
    return q if d_minor >= 0 else -q


@njit(cache=True)
def ray_clear(flags, sx, sy, ex, ey):
    """Rules 3-5 for single tiles: whether a projectile from ``(sx, sy)`` reaches ``(ex, ey)``."""
    sx = np.int64(sx)
    sy = np.int64(sy)
    ex = np.int64(ex)
    ey = np.int64(ey)
    if sx == ex and sy == ey:
        return True
    if flag_at(flags, sx, sy) & BLOCKED:
        return False
    dx = ex - sx
    dy = ey - sy
    # Flags that stop a ray entering a tile along x (resp. y): its facing LOS wall, or a LOS object.
    x_mask = BLOCKS_LOS | (WALL_WEST_LOS if dx >= 0 else WALL_EAST_LOS)
    y_mask = BLOCKS_LOS | (WALL_SOUTH_LOS if dy >= 0 else WALL_NORTH_LOS)
    if abs(dx) > abs(dy):
        step = np.int64(1) if dx > 0 else np.int64(-1)
        scaled = (sy << _SCALE) + _HALF_TILE + (0 if dy >= 0 else -1)
        tangent = _tangent(dy, abs(dx))
        cx = sx
        while cx != ex:
            cx += step
            cy = scaled >> _SCALE
            if cx == ex and cy == ey:
                x_mask &= ~BLOCKS_LOS
            if flag_at(flags, cx, cy) & x_mask:
                return False
            scaled += tangent
            ny = scaled >> _SCALE
            if cx == ex and ny == ey:
                y_mask &= ~BLOCKS_LOS
            if ny != cy and flag_at(flags, cx, ny) & y_mask:
                return False
    else:
        step = np.int64(1) if dy > 0 else np.int64(-1)
        scaled = (sx << _SCALE) + _HALF_TILE + (0 if dx >= 0 else -1)
        tangent = _tangent(dx, abs(dy))
        cy = sy
        while cy != ey:
            cy += step
            cx = scaled >> _SCALE
            if cx == ex and cy == ey:
                y_mask &= ~BLOCKS_LOS
            if flag_at(flags, cx, cy) & y_mask:
                return False
            scaled += tangent
            nx = scaled >> _SCALE
            if nx == ex and cy == ey:
                x_mask &= ~BLOCKS_LOS
            if nx != cx and flag_at(flags, nx, cy) & x_mask:
                return False
    return True


@njit(cache=True)
def has_line_of_sight(flags, x0, y0, size0, x1, y1, size1, max_range):
    """Whether the ``size0`` entity at ``(x0, y0)`` can hit the ``size1`` one at ``(x1, y1)``.

    ``max_range`` is the attack range in tiles (rule 1). Both positions are south-west tiles.
    """
    d = chebyshev_distance(x0, y0, size0, x1, y1, size1)
    if d == 0 or d > max_range:
        return False
    sx = _closest(x0, x1, size0)
    sy = _closest(y0, y1, size0)
    ex = _closest(x1, x0, size1)
    ey = _closest(y1, y0, size1)
    return ray_clear(flags, sx, sy, ex, ey)


# ----------------------------------------------------------------------------------------------
# Sight tables: every ray of a fixed map, precomputed
# ----------------------------------------------------------------------------------------------

_WORD_BITS = 64


def sight_table_shape(width, height):
    """``(width * height, words)``: one row of ``ceil(width * height / 64)`` uint64 per start tile."""
    n = width * height
    return n, (n + _WORD_BITS - 1) // _WORD_BITS


@njit(cache=True)
def _fill_sight_table(flags, table):
    """Set bit ``e`` of row ``s`` when ``ray_clear`` holds from tile ``s`` to tile ``e``."""
    w, h = flags.shape
    n = w * h
    for s in range(n):
        sx = s // h
        sy = s - sx * h
        if flags[sx, sy] & BLOCKED:
            # rule 3: a walk-blocked start sees nothing but itself (ray_clear's same-tile case)
            table[s, s >> 6] |= np.uint64(1) << np.uint64(s & 63)
            continue
        for e in range(n):
            ex = e // h
            if ray_clear(flags, sx, sy, ex, e - ex * h):
                table[s, e >> 6] |= np.uint64(1) << np.uint64(e & 63)


def sight_table(flags):
    """The packed sight table of the map ``flags`` (see the module docstring), uint64
    ``sight_table_shape(*flags.shape)``; bits past the last tile of a row are 0."""
    validate_map(flags)
    table = np.zeros(sight_table_shape(*flags.shape), dtype=np.uint64)
    _fill_sight_table(flags, table)
    return table


def sight_tables(maps):
    """One sight table per map of the stack ``maps[M, width, height]``: uint64 ``[M, rows, words]``,
    so ``sight_tables(maps)[m]`` is ``sight_table(maps[m])``."""
    if not isinstance(maps, np.ndarray) or maps.ndim != 3:
        raise ValueError(f"sight_tables: maps must be a 3-D numpy array [M, width, height], "
                         f"got {type(maps).__name__} of shape {getattr(maps, 'shape', None)}")
    tables = np.zeros((maps.shape[0],) + sight_table_shape(maps.shape[1], maps.shape[2]), dtype=np.uint64)
    for m in range(maps.shape[0]):
        _fill_sight_table(validate_map(maps[m]), tables[m])
    return tables


@njit(cache=True)
def table_ray_clear(table, width, height, sx, sy, ex, ey):
    """``ray_clear(flags, sx, sy, ex, ey)`` read from ``table = sight_table(flags)``,
    ``(width, height) = flags.shape``."""
    sx = np.int64(sx)
    sy = np.int64(sy)
    ex = np.int64(ex)
    ey = np.int64(ey)
    if sx == ex and sy == ey:
        return True
    # Off the map every flag is set (collision rule 3), so ray_clear answers False: an off-map
    # start is BLOCKED (rule 3); a ray from an on-map start to an off-map end checks every tile
    # it visits against a mask holding a LOS-wall bit, and it visits its end tile (when only the
    # minor end is off the map, the major delta is under MAX_MAP_SIDE steps, too few for the
    # truncated tangent to drift a whole tile), so it meets an off-map tile on the way.
    if sx < 0 or sy < 0 or ex < 0 or ey < 0 or sx >= width or sy >= height or ex >= width or ey >= height:
        return False
    s = sx * height + sy
    e = ex * height + ey
    return (table[s, e >> 6] >> np.uint64(e & 63)) & np.uint64(1) != 0


@njit(cache=True)
def table_line_of_sight(table, width, height, x0, y0, size0, x1, y1, size1, max_range):
    """``has_line_of_sight`` read from ``table = sight_table(flags)``, ``(width, height) = flags.shape``."""
    d = chebyshev_distance(x0, y0, size0, x1, y1, size1)
    if d == 0 or d > max_range:
        return False
    # int64 whatever the caller passes (int16 record fields, literal sizes): the helpers then
    # compile once
    x0, y0, size0 = np.int64(x0), np.int64(y0), np.int64(size0)
    x1, y1, size1 = np.int64(x1), np.int64(y1), np.int64(size1)
    return table_ray_clear(table, np.int64(width), np.int64(height), _closest(x0, x1, size0), _closest(y0, y1, size0),
                           _closest(x1, x0, size1), _closest(y1, y0, size1))
