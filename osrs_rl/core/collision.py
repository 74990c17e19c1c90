"""Collision map: per-tile bit flags, map builders, and the step/occupancy checks.

Index (rules, in order, with sources):

1. Coordinates: ``flags[x, y]`` with x east and y north; an entity of size n occupies
   ``x..x+n-1, y..y+n-1`` where ``(x, y)`` is its south-west tile (wiki "Game square").
2. Flags (uint16), a subset of the server's collision flags (rsmod/rsmod
   ``game/pathfinder/.../flag/CollisionFlag.kt``): ``BLOCKED`` (a walk-blocking object or
   floor: OBJECT | FLOOR there), ``BLOCKS_LOS`` (OBJECT_PROJECTILE_BLOCKER), four edge walls
   ``WALL_NORTH/EAST/SOUTH/WEST`` and their projectile-blocking twins ``WALL_*_LOS``.
   A wall is stored on both tiles it separates, as the server does, so every check reads only
   the tile being entered. Corner walls ("pillars" on the wiki "Pathfinding" page) are NOT
   modelled (approximation; the arenas we simulate have none).
3. Tiles outside the map read as fully blocked (every bit set), so kernels never index out of
   bounds and the map edge is an implicit boundary.
4. ``can_step``: the server's step validator (rsmod ``StepValidator.kt``). Orthogonal step: each
   tile of the new leading edge must be unblocked, have no wall on the edge facing the old
   footprint, and no wall between it and its neighbours in that edge. Diagonal step, size 1: the
   destination and BOTH orthogonal neighbours must be enterable (no corner cutting). Diagonal
   step, size > 1: only the new L-shaped leading edge (the destination footprint's new tiles)
   is checked, so big NPCs may cut corners the way osrs-sdk ``src/sdk/Mob.ts`` also notes.
5. ``can_occupy``: every footprint tile is inside the map and not ``BLOCKED``.

Map builders (plain NumPy, validated): ``make_arena``, ``add_block``, ``add_wall``,
``validate_map``.
"""

import numpy as np
from numba import njit

FLAGS_DTYPE = np.uint16
MAX_MAP_SIDE = 32767
"""Largest map side: coordinates are stored as int16 in path buffers."""

BLOCKED = 0x0001
BLOCKS_LOS = 0x0002
WALL_NORTH = 0x0004
WALL_EAST = 0x0008
WALL_SOUTH = 0x0010
WALL_WEST = 0x0020
WALL_NORTH_LOS = 0x0040
WALL_EAST_LOS = 0x0080
WALL_SOUTH_LOS = 0x0100
WALL_WEST_LOS = 0x0200
OUT_OF_BOUNDS = 0xFFFF
"""What ``flag_at`` returns off the map: every flag set."""

NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
"""Sides for ``add_wall``."""

# side -> (wall bit on this tile, LOS wall bit on this tile, neighbour dx, dy, neighbour's wall, LOS)
_SIDES = {
    NORTH: (WALL_NORTH, WALL_NORTH_LOS, 0, 1, WALL_SOUTH, WALL_SOUTH_LOS),
    EAST: (WALL_EAST, WALL_EAST_LOS, 1, 0, WALL_WEST, WALL_WEST_LOS),
    SOUTH: (WALL_SOUTH, WALL_SOUTH_LOS, 0, -1, WALL_NORTH, WALL_NORTH_LOS),
    WEST: (WALL_WEST, WALL_WEST_LOS, -1, 0, WALL_EAST, WALL_EAST_LOS),
}


# ----------------------------------------------------------------------------------------------
# Map builders (Python level, validated)
# ----------------------------------------------------------------------------------------------


def validate_map(flags):
    """Return ``flags`` if it is a usable collision map, else raise naming what is wrong.

    A map is a 2-D ``numpy.uint16`` array of shape ``(width, height)`` indexed ``[x, y]``, each
    side between 1 and ``MAX_MAP_SIDE``.
    """
    if not isinstance(flags, np.ndarray):
        raise TypeError(f"collision map must be a numpy.ndarray of dtype uint16, got {type(flags).__name__}")
    if flags.dtype != FLAGS_DTYPE:
        raise TypeError(f"collision map must have dtype uint16, got {flags.dtype}")
    if flags.ndim != 2:
        raise ValueError(f"collision map must be 2-D with shape (width, height), got shape {flags.shape}")
    w, h = flags.shape
    if not (1 <= w <= MAX_MAP_SIDE and 1 <= h <= MAX_MAP_SIDE):
        raise ValueError(
            f"collision map shape (width, height) must have each side in 1..{MAX_MAP_SIDE}, got {flags.shape}"
        )
    return flags


def make_arena(width, height, border=1):
    """An open arena ``(width, height)`` whose outer ``border`` rings block walking and sight.

    ``border=0`` gives a fully open map; the map edge still blocks movement (rule 3).
    """
    for name, v in (("width", width), ("height", height)):
        if not isinstance(v, (int, np.integer)) or not 1 <= v <= MAX_MAP_SIDE:
            raise ValueError(f"make_arena: {name} must be an int in 1..{MAX_MAP_SIDE}, got {v!r}")
    if not isinstance(border, (int, np.integer)) or border < 0:
        raise ValueError(f"make_arena: border must be an int >= 0, got {border!r}")
    flags = np.zeros((width, height), dtype=FLAGS_DTYPE)
    if border:
        solid = BLOCKED | BLOCKS_LOS
        flags[:border, :] = solid
        flags[-border:, :] = solid
        flags[:, :border] = solid
        flags[:, -border:] = solid
    return flags


def add_block(flags, x, y, width, height, blocks_los=True):
    """Mark the rectangle with south-west tile ``(x, y)`` as not walkable (e.g. a 3x3 pillar).

    With ``blocks_los`` the tiles also stop projectiles (Inferno pillars do both). Parts outside
    the map are ignored. Returns ``flags`` (modified in place).
    """
    validate_map(flags)
    if width < 1 or height < 1:
        raise ValueError(f"add_block: width and height must be >= 1, got ({width}, {height})")
    bits = BLOCKED | (BLOCKS_LOS if blocks_los else 0)
    x0, y0 = max(x, 0), max(y, 0)
    x1, y1 = min(x + width, flags.shape[0]), min(y + height, flags.shape[1])
    if x0 < x1 and y0 < y1:
        flags[x0:x1, y0:y1] |= bits
    return flags


def add_wall(flags, x, y, side, blocks_los=True):
    """Put a wall on ``side`` (NORTH/EAST/SOUTH/WEST) of tile ``(x, y)``.

    The wall is written on both tiles it separates (rule 2). Returns ``flags``.
    """
    validate_map(flags)
    if side not in _SIDES:
        raise ValueError(f"add_wall: side must be NORTH, EAST, SOUTH or WEST (0..3), got {side!r}")
    wall, wall_los, ndx, ndy, nwall, nwall_los = _SIDES[side]
    w, h = flags.shape
    if 0 <= x < w and 0 <= y < h:
        flags[x, y] |= wall | (wall_los if blocks_los else 0)
    nx, ny = x + ndx, y + ndy
    if 0 <= nx < w and 0 <= ny < h:
        flags[nx, ny] |= nwall | (nwall_los if blocks_los else 0)
    return flags


# ----------------------------------------------------------------------------------------------
# Kernels
# ----------------------------------------------------------------------------------------------


@njit(cache=True)
def flag_at(flags, x, y):
    """Flags of tile ``(x, y)`` as int64; ``OUT_OF_BOUNDS`` off the map (rule 3)."""
    if x < 0 or y < 0 or x >= flags.shape[0] or y >= flags.shape[1]:
        return np.int64(OUT_OF_BOUNDS)
    return np.int64(flags[x, y])


@njit(cache=True)
def _enterable(flags, x, y, walls):
    """Tile ``(x, y)`` is not BLOCKED and has none of the wall bits in ``walls``."""
    return (flag_at(flags, x, y) & (BLOCKED | walls)) == 0


@njit(cache=True)
def _back_wall_x(dx):
    """The wall bit on an entered tile that faces back against a step of ``dx`` along x."""
    return WALL_WEST if dx > 0 else WALL_EAST


@njit(cache=True)
def _back_wall_y(dy):
    return WALL_SOUTH if dy > 0 else WALL_NORTH


@njit(cache=True)
def _can_step_x(flags, x, y, size, dx):
    """Orthogonal step along x (rule 4): the new column, walls checked as rsmod StepValidator."""
    cx = x + size if dx > 0 else x - 1
    back = _back_wall_x(dx)
    for i in range(size):
        walls = back
        if i > 0:
            walls |= WALL_SOUTH
        if i < size - 1:
            walls |= WALL_NORTH
        if not _enterable(flags, cx, y + i, walls):
            return False
    return True


@njit(cache=True)
def _can_step_y(flags, x, y, size, dy):
    cy = y + size if dy > 0 else y - 1
    back = _back_wall_y(dy)
    for i in range(size):
        walls = back
        if i > 0:
            walls |= WALL_WEST
        if i < size - 1:
            walls |= WALL_EAST
        if not _enterable(flags, x + i, cy, walls):
            return False
    return True


@njit(cache=True)
def _can_step_diagonal(flags, x, y, size, dx, dy):
    bx = _back_wall_x(dx)
    by = _back_wall_y(dy)
    cx = x + size if dx > 0 else x - 1
    cy = y + size if dy > 0 else y - 1
    if not _enterable(flags, cx, cy, bx | by):
        return False
    if size == 1:
        # No corner cutting for 1x1: both orthogonal neighbours must be enterable
        # (rsmod StepValidator.isBlockedNorthEast etc., size 1 branch; osrs-sdk Pathing.ts).
        return _enterable(flags, cx, y, bx) and _enterable(flags, x, cy, by)
    # Size > 1: only the new L-shaped edge of the destination footprint (rsmod size >= 2 branch).
    y_start = y + 1 if dy > 0 else y
    for i in range(size - 1):
        if not _enterable(flags, cx, y_start + i, bx | WALL_NORTH | WALL_SOUTH):
            return False
    x_start = x + 1 if dx > 0 else x
    for i in range(size - 1):
        if not _enterable(flags, x_start + i, cy, by | WALL_EAST | WALL_WEST):
            return False
    return True


@njit(cache=True)
def can_step(flags, x, y, size, dx, dy):
    """Whether an entity of ``size`` at south-west tile ``(x, y)`` may step by ``(dx, dy)``.

    ``dx, dy`` are each in -1..1; ``(0, 0)`` is always allowed. Rule 4 of the module index.
    """
    # int64 whatever the caller passes (int16 record fields, literal sizes): the helpers below then
    # compile once, not once per argument type and literal value
    x, y, size, dx, dy = np.int64(x), np.int64(y), np.int64(size), np.int64(dx), np.int64(dy)
    if dx == 0 and dy == 0:
        return True
    if dx == 0:
        return _can_step_y(flags, x, y, size, dy)
    if dy == 0:
        return _can_step_x(flags, x, y, size, dx)
    return _can_step_diagonal(flags, x, y, size, dx, dy)


@njit(cache=True)
def can_occupy(flags, x, y, size):
    """Whether every tile of the ``size`` footprint at ``(x, y)`` is on the map and walkable."""
    for i in range(size):
        for j in range(size):
            if flag_at(flags, x + i, y + j) & BLOCKED:
                return False
    return True
