"""The TzHaar Fight Cave in one local frame: the map (walkability, sight blockers, edge walls), the five spawn
areas with their anchor tiles, and the player's start.

Frame: local tile (x, y), x east and y north like core.collision, every entity placed by its south-west tile
(a size-n footprint covers x..x+n-1, y..y+n-1). Local (0, 0) is world (2368, 5056), the south-west tile of map
region 9551 (region x 37, y 79), plane 0, so the local frame is the region's own: every source's tiles convert
by one subtraction (``from_world``), WooxSolo/fight-caves-sim's tiles are already local.

The grid is the whole region, 64 x 64 (``GRID_W``, ``GRID_H``), not cropped. The walkable area spans local x
3..56, y 6..61, so the smallest rectangle with a 1-tile blocked border would be x 2..57, y 5..62 (56 x 58, a sight
table of 1.3 MB against 2 MB for 64 x 64; core.line_of_sight ``sight_table``): cropping would change no ray between
two walkable tiles (a ray stays inside the box of its ends) but would put an offset between the grid and the
region-local tiles every source uses, so the grid keeps the region's 64 x 64.

Map (``flags``): two sources of the game's collision data, one for walkability, one for sight and walls:

- Walkability: the RuneLite plugin "Shortest Path" (Skretzo/shortest-path ``src/main/resources/collision-map.zip``
  @ e3dc7c5a621ca9cdd4c404ca4da5654b603286e7, 2026-07-23, dumped from the OSRS cache), decoded with
  ``python scripts/collision_map.py collision-map.zip --x 2368 2431 --y 5056 5119``: 2224 walkable tiles, one
  4-connected area (tests/encounters/fight_caves/test_map.py holds that dump and checks this map against it).
- What blocks sight and the edge walls: WooxSolo/fight-caves-sim ``src/js/world/maps/FightCavesMap.js``
  @ 8b90e90b32af9833ff7679136b076ed03fe5e4f9 (2019-12-27; the file last changed in 68519cca), the cave's raw
  collision flags, 64 x 64, index y * 64 + x with y north, flag meanings in its
  ``src/js/constants/CollisionDataFlags.js``. A tile with any of object 0x100, floor decoration 0x40000 or blocked
  floor 0x200000 is not walkable; 0x20000 (full line-of-sight block) marks rock: ``#`` below, BLOCKED | BLOCKS_LOS.
  A blocked tile without it (789 tiles: lava and low objects, 0x200000 with or without 0x100/0x40000) is ``~``,
  BLOCKED only: projectiles pass over it. Straight walls: 0x2 north, 0x8 east, 0x20 south, 0x80 west, each with
  its sight twin (the same bit shifted left by 9); in this map every one of the 218 walls has its twin and is
  stored on both tiles it separates, as core.collision stores walls, so ``_WALL_ROWS`` keeps each tile's north
  and east walls and ``add_wall(..., blocks_los=True)`` writes both sides.
- The two sources agree on walkability exactly: 2224 walkable tiles each, 0 tiles differ (checked on the whole
  64 x 64 region; WooxSolo's y axis read north, the flipped reading differs on 1080 tiles). ``flags()`` equals
  WooxSolo's flags translated bit for bit (blocking, sight, the eight straight-wall bits) on all 4096 tiles, corner
  bits aside; test_map.py pins its digest.

Not modelled: corner walls (the diagonal bits 0x1, 0x4, 0x10, 0x40 and their sight twins; core.collision rule 2).
Of the 282 corner bits in the region none has a walkable tile on both ends of either diagonal through its post,
so no step between walkable tiles, of any size, crosses one; dropping them changes no move. No straight wall
separates two walkable tiles either (72 lie between floor and ``~``, 118 between two ``~``, 28 between ``#`` and
``~``): the walls change sight lines over the lava, never a step.

Spawn areas: NW, SW, S, SE and C (centre). GregHib/void (``data/minigame/tzhaar_fight_cave/
tzhaar_fight_cave.areas.toml`` @ 06847f59, an RS2 634-era server) gives each as a 7 x 7 (NW 8 x 8) area and spawns
on a random free tile in it that fits the monster; WooxSolo/fight-caves-sim (``src/js/helpers/FightCavesHelpers.js``
``positionKeyToCoords``), the Kronos OSRS server (tamerab1/Zelus-server-website-monorepo ``kronos-server/src/main/
java/io/ruin/model/activities/fightcaves/FightCaves.java``) and the Zenyte OSRS server (Rims-Naps/Zyrox-Server
``src/main/java/com/zenyte/game/content/minigame/fightcaves/FightCaveSpawn.java``) give one fixed tile per area,
three different sets. ``SPAWN_TILES`` takes WooxSolo's fixed tiles: a spawn planner written for the OSRS cave by an
OSRS player, whose monsters of one area share a tile (a copy of the RuneScape wiki's "TzHaar Fight
Cave/Strategies" among the stored pages: "more than one unit may spawn on the same spot", which a random free tile
would not give). APPROXIMATION [M: WOOX; VOID, Kronos and
Zenyte disagree on the tile]. Every anchor, of every set, fits the largest monster's 5 x 5 footprint on the
walkable map (test_map.py). C's anchor (30, 30) puts a 5 x 5 over the player's start tile (32, 32).

The player (``PLAYER_START``): VOID (``TzhaarFightCave.kt``: tele to the entrance (2413, 5117), ``walkTo`` the
centre (2400, 5088)), Kronos (teleport to (2412, 5115), ``DumbRoute.route`` to C (2400, 5088)) and Zenyte
(``FightCaves.constructed``: (2412, 5114), then walk steps through (2404, 5105), (2404, 5104) to (2400, 5088)) all
put the player at the north-east entrance and walk it to the centre. Whether the live game walks the player was
not found in a public source. The start is the centre, local (32, 32), where those walks end; the walk itself
(29 tiles, during which VOID and Zenyte already spawn wave 1) is skipped. APPROXIMATION [M: VOID, Kronos, Zenyte].
``PLAYER_ENTRY`` keeps VOID's entrance tile for a kernel that models the walk.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from osrs_rl.core import collision as C

WORLD_ORIGIN = (2368, 5056)           # world tile of local (0, 0)
REGION_ID = 9551                      # (2368 >> 6) << 8 | (5056 >> 6): region (37, 79)
PLANE = 0
GRID_W, GRID_H = 64, 64
WALKABLE_TILES = 2224                 # both sources (module docstring)


def to_world(x: int, y: int) -> tuple[int, int]:
    return x + WORLD_ORIGIN[0], y + WORLD_ORIGIN[1]


def from_world(wx: int, wy: int) -> tuple[int, int]:
    return wx - WORLD_ORIGIN[0], wy - WORLD_ORIGIN[1]


# ---- the map, rows north (y 63) to south (y 0), one character per tile x 0..63 ------------------------------
# "." walkable; "~" blocked, sight passes (lava, low objects); "#" blocked, blocks sight (rock). Walkability from
# Skretzo/shortest-path's dump, the "#"/"~" split from WooxSolo's 0x20000 flag (module docstring).
_TILE_ROWS = (
    "######~~~~############################################~~########",  # 63
    "####~~#~~#~~~####~~~~##############~~~~~~~~~###~~~~~~~##~#######",  # 62
    "###~#~~~~~~~#~~~~#~~#~~~~##########~...................~~#######",  # 61
    "###~....................~#######~~~~...................#~#######",  # 60
    "##~#....................#~#####~####...................#~#######",  # 59
    "##~~....................~~#####~~~~~...................~#~######",  # 58
    "##~~....................~#~####~~~~~...................~~~######",  # 57
    "#~#~....................~~~####~#~~~...................~~#~~####",  # 56
    "#~#~....................~#~#####~~~~...................~~~#~####",  # 55
    "#~#~....................~#~#~~~#~#~~...................~~~~#~###",  # 54
    "##~~....................#~#~###~#~~~...................~~~~~#~##",  # 53
    "##~#....................~##~~~~~~#~~...................~~~~~#~##",  # 52
    "###~....................~#~#~~~~~~~~...................~~~~#~###",  # 51
    "###~....................#~~#~~#~~~~~...................~~~~~####",  # 50
    "##~#....................~##~~~#~#~~~...................~~~~~####",  # 49
    "##~~...................................................~~~#~####",  # 48
    "##~~...................................................~~~~#####",  # 47
    "##~#...................................................~~#~#####",  # 46
    "###~...................................................~~~######",  # 45
    "###~...................................................##~######",  # 44
    "###~..........................................~~~~~~~~~#~#######",  # 43
    "###~..........................................##~~~~##~~########",  # 42
    "###~#~~.......................................~~~~~~#~##########",  # 41
    "####~#~.......................................~~~~~~~###########",  # 40
    "#####~#.......................................#~################",  # 39
    "######~~~~#~#~~~#.............................~#~###############",  # 38
    "##########~~~###~.............................~~~###############",  # 37
    "###########~~~~~#.............................#~~####~~~~#######",  # 36
    "##########~####~~.............................#~~~##~#~##~~#####",  # 35
    "##########~~~~~~~.............................~###~~#~~~~~#~~###",  # 34
    "#########~#~~~~~~........................................~~~~###",  # 33
    "#########~#~~~~~~........................................~~~#~##",  # 32
    "#########~#~~~~~~........................................~~~~~##",  # 31
    "##########~~#~~~~........................................~~~~~##",  # 30
    "######~~~###~~~#~........................................~~~#~##",  # 29
    "#####~###~~####~#........................................~~~~~##",  # 28
    "#####~~~~~~##~~~~........................................~~~~~##",  # 27
    "##~~~#~~~~#~~#~##........................................~~~~~##",  # 26
    "##~......................................................~~~~~##",  # 25
    "##~......................................................~~~#~##",  # 24
    "##~......................................................~~~~~##",  # 23
    "#~#......................................................~~~~~##",  # 22
    "#~~......................................................~~~#~##",  # 21
    "#~~......................................................~~~~###",  # 20
    "#~~......................................................~##~###",  # 19
    "#~#..........................................~#~~~~~~#~~~#~~####",  # 18
    "##~..........................................#~######~~~~~######",  # 17
    "##~..........................................~##################",  # 16
    "##~..........................................~##################",  # 15
    "#~#..........................................#~~################",  # 14
    "~#~..........................................~~#~###############",  # 13
    "~~~..........................................~~~#~~~~###########",  # 12
    "~~~..........................................~~~~#~~#~~#########",  # 11
    "~#~..........................................~~~~~~~~~#~~#######",  # 10
    "~#~...............~~~~#~#~~~#~#~~#~~#~~~~~~~#~##~~~~~~~~#~######",  # 9
    "#~~...............~~#~~#~#~~~#~~~~##~#~~~~~~~#~~#~~~~~~~~~######",  # 8
    "#~~...............#~#~~##~~#~#~~#~###~~#~~~#~###~~~~~~~~~~######",  # 7
    "#~#...............~~~##~~#~#~#~~~######~#~~~#~##~#~~~~~~#~######",  # 6
    "##~#~~~~~~~~~~~#~~#~~~~~~~~#~#########~#~~~~~~##~#~~~~~~~~######",  # 5
    "###~#~~~~~~~~~~~##~#~~~~~#~~##########~~~~~~~~##~~~~~~~~#~######",  # 4
    "####~~#~~~~~~~#~##~#~~##~~############~~#~~~~#~#~~~~~~~~~#######",  # 3
    "######~~~##~~~#~###~~~~~################~~#~~#~#~~~~~~~#~#######",  # 2
    "#########~~~~~~###########################~~~~##~#~~#~#~########",  # 1
    "#################################################~~~~~~#########",  # 0
)
# The straight walls on each tile's north and east edges (a south or west wall is the neighbour's north or east
# one): "." none, "n" north, "e" east, "+" both. Every wall also blocks sight (WooxSolo's flags: each has its twin).
_WALL_ROWS = (
    "................................................................",  # 63
    ".......nn.......................................................",  # 62
    ".....n....nn......nn...............ennnnnnnn...nnnnnnn.e........",  # 61
    "...e.........nnnn....nn+...........e............................",  # 60
    ".................................n..............................",  # 59
    "..e.....................e......e................................",  # 58
    "..e............................e........................e.......",  # 57
    ".........................e......................................",  # 56
    ".e.......................e......e.........................+.....",  # 55
    "................................................................",  # 54
    "..e..........................n...e..............................",  # 53
    ".......................e...e..e.................................",  # 52
    "...e...................e......e.e...............................",  # 51
    "...e......................e.....e.........................e.....",  # 50
    "..........................................................e.....",  # 49
    "..e............................n................................",  # 48
    "..e......................................................e......",  # 47
    "................................................................",  # 46
    "...e....................................................e.......",  # 45
    "...e............................................................",  # 44
    "...e............................................................",  # 43
    "...e..................................................n.........",  # 42
    ".............................................e.e................",  # 41
    ".............................................e..nnnn............",  # 40
    "................................................................",  # 39
    ".......nnn...nnn................................................",  # 38
    "...........n....e..............................e................",  # 37
    "...............................................n................",  # 36
    "............n..n......................................nn........",  # 35
    "..........e..............................................n......",  # 34
    "..................................................nn.......+....",  # 33
    ".........e......................................................",  # 32
    "............................................................e...",  # 31
    "...........n................................................e...",  # 30
    ".............nn.............................................e...",  # 29
    ".......n....................................................e...",  # 28
    ".....e...+......e...........................................e...",  # 27
    "..............n.............................................e...",  # 26
    "..enn......nn...............................................e...",  # 25
    "..e.........................................................e...",  # 24
    "..e.........................................................e...",  # 23
    "............................................................e...",  # 22
    ".e..............................................................",  # 21
    ".e.........................................................e....",  # 20
    ".e..............................................................",  # 19
    "...............................................nnnnnn.....n.....",  # 18
    "..e...................................................nnn.......",  # 17
    "..e.........................................e...................",  # 16
    "..e.........................................e...................",  # 15
    "................................................................",  # 14
    "..............................................n.................",  # 13
    "e...............................................................",  # 12
    "e................................................nnn............",  # 11
    "e....................................................n..........",  # 10
    ".......................n.....n....nn.........n.........n........",  # 9
    ".e...................n.....e..e.e..........e...n........e.......",  # 8
    ".e.................n.....ene..e.......n....e....e.......e.......",  # 7
    ".................e...n.....e...n.......e................e.......",  # 6
    "................nn.....nn...................e...........e.......",  # 5
    "..............e...e.......n...........e.....e...e...............",  # 4
    ".....n........e.........n..............n........e......e........",  # 3
    ".......nn...........nnn..................n......e...............",  # 2
    "..........nnnn.............................nn...................",  # 1
    "..................................................nnnn..........",  # 0
)
TILE_FLOOR, TILE_LOW, TILE_ROCK = ".", "~", "#"
WALL_CHARS = {".": (False, False), "n": (True, False), "e": (False, True), "+": (True, True)}   # (north, east)


def _grid(rows: tuple[str, ...]) -> np.ndarray:
    """rows north to south -> array [x, y] of single characters."""
    if len(rows) != GRID_H or any(len(r) != GRID_W for r in rows):
        raise ValueError(f"fight cave map rows must be {GRID_H} rows of {GRID_W} characters")
    return np.array([list(r) for r in reversed(rows)], dtype="<U1").T


@cache
def tiles() -> np.ndarray:
    """The tile kinds, ``<U1[GRID_W, GRID_H]`` indexed [x, y]: ".", "~" or "#" (read-only)."""
    t = _grid(_TILE_ROWS)
    bad = set(np.unique(t)) - {TILE_FLOOR, TILE_LOW, TILE_ROCK}
    if bad:
        raise ValueError(f"fight cave _TILE_ROWS hold unknown tile characters {sorted(bad)}")
    t.setflags(write=False)
    return t


def walkable() -> np.ndarray:
    """bool[GRID_W, GRID_H]: the tiles the player and the monsters may stand on."""
    return tiles() == TILE_FLOOR


def walls() -> list[tuple[int, int, int]]:
    """Every straight wall once, as (x, y, side) with side core.collision NORTH or EAST of tile (x, y)."""
    w = _grid(_WALL_ROWS)
    bad = set(np.unique(w)) - set(WALL_CHARS)
    if bad:
        raise ValueError(f"fight cave _WALL_ROWS hold unknown wall characters {sorted(bad)}")
    out = []
    for x in range(GRID_W):
        for y in range(GRID_H):
            north, east = WALL_CHARS[str(w[x, y])]
            if north:
                out.append((x, y, C.NORTH))
            if east:
                out.append((x, y, C.EAST))
    return out


@cache
def _flags() -> np.ndarray:
    t = tiles()
    flags = np.zeros((GRID_W, GRID_H), dtype=C.FLAGS_DTYPE)
    flags[t != TILE_FLOOR] |= C.BLOCKED
    flags[t == TILE_ROCK] |= C.BLOCKS_LOS
    for x, y, side in walls():
        C.add_wall(flags, x, y, side, blocks_los=True)
    flags.setflags(write=False)
    return C.validate_map(flags)


def flags() -> np.ndarray:
    """The cave's core.collision map, uint16 [GRID_W, GRID_H]: BLOCKED off the floor, BLOCKS_LOS on rock, every
    edge wall with its sight twin on both tiles (a fresh, writable copy)."""
    return _flags().copy()


# ---- spawn areas ---------------------------------------------------------------------------------------------
# the five areas, in the order the spawn cycle first names them (waves.SPAWN_CYCLE)
AREA_SE, AREA_SW, AREA_C, AREA_NW, AREA_S = range(5)
AREA_NAMES = ("SE", "SW", "C", "NW", "S")
NUM_AREAS = 5
LARGEST_SIZE = 5                      # Ket-Zek and TzTok-Jad (osrs_rl/data/npcs.json "size")

# the anchor of each area (south-west tile of the monster), WooxSolo/fight-caves-sim FightCavesHelpers.js
# positionKeyToCoords [M, APPROXIMATION: module docstring]
SPAWN_TILES = ((50, 25), (10, 15), (30, 30), (10, 50), (35, 15))
# the other sources' tiles, converted to local, for comparison (test_map.py checks they fit too)
SPAWN_TILES_KRONOS = tuple(from_world(*w) for w in ((2418, 5082), (2380, 5071), (2400, 5088), (2382, 5106),
                                                    (2400, 5070)))   # FightCaves.java SE, SW, C, NW, S
SPAWN_TILES_ZENYTE = tuple(from_world(*w) for w in ((2415, 5082), (2379, 5070), (2401, 5085), (2385, 5104),
                                                    (2400, 5075)))   # FightCaveSpawn.java
# VOID tzhaar_fight_cave.areas.toml (south_east, south_west, none, north_west, south), world x and y ranges
# inclusive -> local (x0, x1, y0, y1); VOID spawns on a random free tile inside that fits the monster
_VOID_AREAS_WORLD = (((2416, 2422), (5080, 5086)), ((2379, 2385), (5070, 5076)), ((2397, 2403), (5085, 5091)),
                     ((2378, 2385), (5102, 5109)), ((2402, 2408), (5070, 5076)))
SPAWN_AREAS_VOID = tuple((xs[0] - WORLD_ORIGIN[0], xs[1] - WORLD_ORIGIN[0], ys[0] - WORLD_ORIGIN[1],
                          ys[1] - WORLD_ORIGIN[1]) for xs, ys in _VOID_AREAS_WORLD)
SPAWN_XY = np.array(SPAWN_TILES, dtype=np.int16)      # int16[NUM_AREAS, 2], SPAWN_TILES for a Numba config
SPAWN_XY.setflags(write=False)

# ---- the player ------------------------------------------------------------------------------------------------
PLAYER_ENTRY = from_world(2413, 5117)   # (45, 61): VOID TzhaarFightCave.kt entrance (Kronos (2412, 5115))
PLAYER_START = from_world(2400, 5088)   # (32, 32): the centre the walk ends on [M, APPROXIMATION: docstring]


def fits(x: int, y: int, size: int) -> bool:
    """Whether a ``size`` footprint at south-west tile (x, y) lies on walkable tiles only."""
    if x < 0 or y < 0 or x + size > GRID_W or y + size > GRID_H:
        return False
    return bool(walkable()[x:x + size, y:y + size].all())
