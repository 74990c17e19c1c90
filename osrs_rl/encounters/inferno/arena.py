"""The Inferno arena in one local frame: bounds, the three pillars, the nine spawn tiles, the nibbler block
and the player's start tiles.

Frame: local tile (x, y), x east and y north like core.collision, every entity placed by its south-west
tile (a size-n footprint covers x..x+n-1, y..y+n-1). Conversions (checked on all three pillars: InfernoTrainer's
pillar tiles, converted, are blert-io/plugin ``Pillar.java``'s world tiles; tests/encounters/inferno/
test_waves_arena.py):

    world  = (x + 2256, y + 5328)            (plane 0, the non-instanced template; region 9043)
    region = (x + 16,   y + 16)              (region base (2240, 5312))
    local  = (x_IT - 10, 44 - y_IT)          (OldSchoolSDK/InfernoTrainer local tiles, whose y grows south)

The grid covers InfernoTrainer x 10..40 and y 0..44, so that wave 69 (TzKal-Zuk at IT (22, 8), his shield,
the walls beside him) fits the same frame later. The arena the waves 1-66 are fought in is IT x 11..39,
y 14..43 (InfernoTrainer's invisible blockers at x 10 and 40, y 13 and 44) -> local x 1..29, y 1..30
(world x 2257..2285, y 5329..5358, as the game's collision data in truth.py has it; an unpublished secondary
compilation gives region x 17..46: one tile more in the east, see README "Open questions"). Every tile outside
it is blocked here.
"""

from __future__ import annotations

import numpy as np

from osrs_rl.core import collision as C

WORLD_ORIGIN = (2256, 5328)           # world tile of local (0, 0)
REGION_BASE = (2240, 5312)
GRID_W, GRID_H = 31, 45               # IT x 10..40, IT y 44..0
ARENA_X = (1, 29)                     # walkable columns (inclusive), waves 1-66
ARENA_Y = (1, 30)                     # walkable rows (inclusive)


def from_it(x_it: int, y_it: int) -> tuple[int, int]:
    """InfernoTrainer local south-west tile -> local tile."""
    return x_it - 10, 44 - y_it


def to_world(x: int, y: int) -> tuple[int, int]:
    return x + WORLD_ORIGIN[0], y + WORLD_ORIGIN[1]


def from_world(wx: int, wy: int) -> tuple[int, int]:
    return wx - WORLD_ORIGIN[0], wy - WORLD_ORIGIN[1]


# ---- pillars ("Rocky support", id 7709): south-west tiles, size 3, 255 hitpoints [H: blert-io/plugin
# Pillar.java world tiles == InfernoTrainer InfernoPillar.ts addPillarsToWorld IT (21,37), (11,23), (28,21)]
PILLAR_NAMES = ("west", "north", "south")
PILLAR_WORLD = ((2257, 5349), (2274, 5351), (2267, 5335))
PILLARS = tuple(from_world(*w) for w in PILLAR_WORLD)       # ((1, 21), (18, 23), (11, 7))
PILLAR_SIZE = 3
PILLAR_HP = 255
NUM_PILLARS = 3
ALL_PILLARS = (1 << NUM_PILLARS) - 1

# ---- the nine spawn tiles (south-west tiles of the spawned monsters), InfernoTrainer InfernoWaves.spawns
# [H: an unpublished secondary compilation's region table agrees on all nine]
SPAWNS_IT = ((12, 19), (33, 19), (14, 25), (34, 26), (27, 31), (16, 37), (34, 39), (12, 42), (26, 42))
SPAWNS = tuple(from_it(x, y) for x, y in SPAWNS_IT)
NUM_SPAWNS = 9

# ---- nibblers spawn on distinct tiles of the central 3x3 block, IT x 19..21, y 25..27 (InfernoWaves
# spawnNibblers) -> local x 9..11, y 17..19
NIBBLER_BLOCK = (from_it(19, 27), 3)          # (south-west tile, side)
NIBBLER_TILES = tuple((NIBBLER_BLOCK[0][0] + i, NIBBLER_BLOCK[0][1] + j) for j in range(3) for i in range(3))

# ---- the player's start tile [M: InfernoTrainer InfernoRegion.ts]: waves 1-66 IT (28, 17); wave 67
# (18, 25); wave 68 (25, 27); wave 69 (25, 15)
PLAYER_START = from_it(28, 17)                # (18, 27) = world (2274, 5355)
PLAYER_START_67 = from_it(18, 25)
PLAYER_START_68 = from_it(25, 27)
PLAYER_START_69 = from_it(25, 15)


# ---- the finale [M: InfernoTrainer InfernoRegion.ts (wave 67, 68, 69 setups), TzKalZuk.ts, ZukShield.ts,
# JalMejJak.ts], InfernoTrainer south-west tiles converted with ``from_it``
JAD_67 = from_it(23, 27)                                          # (13, 17)
JADS_68 = (from_it(18, 24), from_it(28, 24), from_it(23, 35))     # (8, 20), (18, 20), (13, 9)
JAD_68_STUNS = (1, 4, 7)       # the three Jads' first-attack delays, shuffled per run: they attack 3 ticks apart
ZUK = from_it(22, 8)                                              # (12, 36), 7x7, never moves
SHIELD = from_it(23, 13)                                          # (13, 31), 5 wide
GLYPH_HP = 600                 # [H: blert-io/plugin InfernoNpc, IT ZukShield]
SHIELD_X = (0, 26)             # the glyph turns at IT x 10 and 36 (ZukShield.movementStep: x < 11, x > 35)
SHIELD_PAUSE = 5               # ticks it is on each end tile, its arrival included (freeze(5): finale.glyph_turn)
SET_MAGER, SET_RANGER = from_it(20, 21), from_it(29, 21)          # (10, 23), (19, 23)
SET_DELAYS = (7, 9)            # ticks before the mager, the ranger act (spawnDelay)
ZUK_JAD = from_it(24, 25)                                         # (14, 19)
ZUK_HEALERS = (from_it(16, 9), from_it(20, 9), from_it(30, 9), from_it(34, 9))   # (6|10|20|24, 35)
ZUK_WALLS_X = (from_it(21, 0)[0], from_it(29, 0)[0])              # x 11 and 19 beside Zuk, IT y 0..8
ZUK_WALLS_Y = (from_it(0, 8)[1], from_it(0, 0)[1])                # local y 36..44
SPARK_ROWS = (from_it(0, 17)[1], from_it(0, 14)[1])               # local y 27..30: IT y 14..17, south of Zuk
SPARK_HALF = 5                 # a spark lands on x in [healer x - 5, healer x + 5) (JalMejJak.ts AoeWeapon)


def base_walkable() -> np.ndarray:
    """bool[GRID_W, GRID_H]: the arena floor of waves 1-66, pillars not included."""
    w = np.zeros((GRID_W, GRID_H), dtype=bool)
    w[ARENA_X[0]:ARENA_X[1] + 1, ARENA_Y[0]:ARENA_Y[1] + 1] = True
    return w


def pillar_tiles(k: int) -> list[tuple[int, int]]:
    x, y = PILLARS[k]
    return [(x + i, y + j) for i in range(PILLAR_SIZE) for j in range(PILLAR_SIZE)]


def flags_for(alive_mask: int) -> np.ndarray:
    """core.collision flags with the pillars of ``alive_mask`` (bit k: pillar k stands) standing: outside
    the arena nothing is walkable or seen through; a pillar blocks both movement and line of sight
    [H: InfernoTrainer LineOfSight with the pillars as blockers; an unpublished secondary compilation's description
    of the pillars agrees; their tiles from blert-io/plugin ``Pillar.java``]."""
    flags = np.where(base_walkable(), 0, C.BLOCKED | C.BLOCKS_LOS).astype(C.FLAGS_DTYPE)
    for k in range(NUM_PILLARS):
        if alive_mask >> k & 1:
            x, y = PILLARS[k]
            C.add_block(flags, x, y, PILLAR_SIZE, PILLAR_SIZE, blocks_los=True)
    return flags


def zuk_flags() -> np.ndarray:
    """The Zuk wave's map: the same floor without pillars; north of it (where the glyph, Zuk and his healers
    stand) nothing walks but sight passes, so the player shoots Zuk and his healers and the sets shoot the
    glyph [M: InfernoTrainer InfernoRegion.ts: the blockers at IT y 13 are InvisibleMovementBlocker, ZukShield
    has LineOfSightMask.NONE, Wall.ts blocks movement only]; the walls beside Zuk block movement."""
    flags = flags_for(0)
    x0, x1 = ARENA_X
    flags[x0:x1 + 1, ARENA_Y[1] + 1:] = C.BLOCKED
    for x in ZUK_WALLS_X:
        flags[x, ZUK_WALLS_Y[0]:ZUK_WALLS_Y[1] + 1] = C.BLOCKED
    return flags


def all_flags() -> np.ndarray:
    """uint16[2**NUM_PILLARS + 1, GRID_W, GRID_H]: the map for every set of standing pillars, then the Zuk
    wave's (``zuk_flags``)."""
    return np.stack([flags_for(m) for m in range(1 << NUM_PILLARS)] + [zuk_flags()])
