"""The cave map (osrs_rl/encounters/fight_caves/arena.py) against the game's collision data, and the spawn and start
tiles against the map.

``SKRETZO_ROWS`` is the walkability dump of the RuneLite plugin "Shortest Path" (Skretzo/shortest-path
``src/main/resources/collision-map.zip`` @ e3dc7c5a621ca9cdd4c404ca4da5654b603286e7), printed by
``python scripts/collision_map.py collision-map.zip --x 2368 2431 --y 5056 5119`` (region 9551, plane 0): rows
north (world y 5119) to south (5056), "." walkable, "#" blocked, kept in the encounter's truth.py (the audit's
reference map) and here the reference the arena's own rows (from WooxSolo/fight-caves-sim's raw flags) must match.
"""

import hashlib
from collections import deque

import numpy as np
import pytest

from osrs_rl.core import collision as C
from osrs_rl.core.line_of_sight import ray_clear
from osrs_rl.encounters.fight_caves import arena as A
from osrs_rl.encounters.fight_caves.truth import _DUMP_ROWS as SKRETZO_ROWS


def skretzo_walkable() -> np.ndarray:
    w = np.zeros((64, 64), dtype=bool)
    for row, line in enumerate(SKRETZO_ROWS):
        for x, c in enumerate(line):
            w[x, 63 - row] = c == "."
    return w


def test_walkability_matches_the_game_collision_dump():
    """The two sources agree tile for tile (arena docstring): 2224 walkable tiles, none differs."""
    assert len(SKRETZO_ROWS) == 64 and all(len(r) == 64 for r in SKRETZO_ROWS)
    ref = skretzo_walkable()
    assert int(ref.sum()) == A.WALKABLE_TILES == 2224
    assert np.array_equal(A.walkable(), ref), np.argwhere(A.walkable() != ref)[:10].tolist()


def test_tile_and_wall_counts():
    """Counts of WooxSolo/fight-caves-sim FightCavesMap.js @ 8b90e90b, read when the rows were written: 1083 rock
    tiles (0x20000), 789 blocked tiles sight passes over, 218 straight walls, every one with its sight twin."""
    t = A.tiles()
    assert (int((t == ".").sum()), int((t == "~").sum()), int((t == "#").sum())) == (2224, 789, 1083)
    assert len(A.walls()) == 218


def test_flags_are_the_translated_raw_flags():
    """flags() equalled WooxSolo's raw flags translated bit for bit when written (arena docstring); this digest
    pins it, so an edit to the rows or the builder shows here."""
    f = A.flags()
    assert f.shape == (A.GRID_W, A.GRID_H) == (64, 64) and f.dtype == C.FLAGS_DTYPE
    assert hashlib.sha256(np.ascontiguousarray(f).tobytes()).hexdigest() == (
        "c820002ac84199cf18269c801a450970b41bf6c3feca3f05a3cd4d234ec9f5aa")


def test_flag_layers():
    f = A.flags()
    w = A.walkable()
    assert np.array_equal((f & C.BLOCKED) == 0, w)
    assert np.array_equal((f & C.BLOCKS_LOS) != 0, A.tiles() == "#")
    # every wall blocks sight too, and sits on both tiles it separates
    pairs = ((C.WALL_NORTH, C.WALL_NORTH_LOS, 0, 1, C.WALL_SOUTH), (C.WALL_EAST, C.WALL_EAST_LOS, 1, 0, C.WALL_WEST),
             (C.WALL_SOUTH, C.WALL_SOUTH_LOS, 0, -1, C.WALL_NORTH), (C.WALL_WEST, C.WALL_WEST_LOS, -1, 0, C.WALL_EAST))
    for wall, twin, dx, dy, back in pairs:
        assert np.array_equal((f & wall) != 0, (f & twin) != 0)
        for x, y in np.argwhere(f & wall):
            assert f[x + dx, y + dy] & back, (x, y, wall)
            # no wall separates two walkable tiles (arena docstring): walls only shape sight over the lava
            assert not (w[x, y] and w[x + dx, y + dy]), (x, y, wall)


def test_the_floor_is_one_area_inside_a_blocked_border():
    f = A.flags()
    w = A.walkable()
    xs, ys = np.nonzero(w)
    assert (xs.min(), xs.max(), ys.min(), ys.max()) == (3, 56, 6, 61)
    start = A.PLAYER_START
    seen = {start}
    todo = deque([start])
    while todo:
        x, y = todo.popleft()
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if C.can_step(f, x, y, 1, dx, dy) and (x + dx, y + dy) not in seen:
                seen.add((x + dx, y + dy))
                todo.append((x + dx, y + dy))
    assert len(seen) == int(w.sum()) == 2224


@pytest.mark.parametrize(("ray", "clear", "why"), [
    ((4, 6, 19, 10), True, "over blocked tiles that do not block sight (~)"),
    ((35, 31, 50, 44), False, "stopped by an edge wall only: clear on the same map without walls"),
    ((50, 32, 50, 44), False, "through rock (#)"),
])
def test_sight_over_lava_through_rock_and_walls(ray, clear, why):
    f = A.flags()
    assert ray_clear(f, *ray) == clear, why
    if "edge wall" in why:
        assert ray_clear((f & (C.BLOCKED | C.BLOCKS_LOS)).astype(C.FLAGS_DTYPE), *ray)
    if "~" in why:
        rock = np.where(f & C.BLOCKED, C.BLOCKED | C.BLOCKS_LOS, 0).astype(C.FLAGS_DTYPE)
        assert not ray_clear(rock, *ray)


@pytest.mark.parametrize("tiles", [A.SPAWN_TILES, A.SPAWN_TILES_KRONOS, A.SPAWN_TILES_ZENYTE],
                         ids=["woox", "kronos", "zenyte"])
def test_every_spawn_anchor_fits_the_largest_monster(tiles):
    assert len(tiles) == A.NUM_AREAS == len(A.AREA_NAMES)
    for area, (x, y) in enumerate(tiles):
        assert A.fits(x, y, A.LARGEST_SIZE), (A.AREA_NAMES[area], x, y)
        assert C.can_occupy(A.flags(), x, y, A.LARGEST_SIZE), (A.AREA_NAMES[area], x, y)


def test_void_spawn_areas_are_floor_and_hold_the_anchors_nearby():
    w = A.walkable()
    for area, (x0, x1, y0, y1) in enumerate(A.SPAWN_AREAS_VOID):
        assert w[x0:x1 + 1, y0:y1 + 1].all(), A.AREA_NAMES[area]
        x, y = A.SPAWN_TILES[area]
        # WooxSolo's anchors lie in VOID's areas, SW's one tile west of it (arena docstring)
        assert x0 - 1 <= x <= x1 and y0 <= y <= y1, A.AREA_NAMES[area]


def test_frame_and_player_tiles():
    assert A.REGION_ID == (A.WORLD_ORIGIN[0] >> 6) << 8 | (A.WORLD_ORIGIN[1] >> 6) == 9551
    assert A.from_world(*A.to_world(17, 42)) == (17, 42)
    assert A.PLAYER_START == (32, 32) and A.to_world(*A.PLAYER_START) == (2400, 5088)
    assert A.PLAYER_ENTRY == (45, 61)
    w = A.walkable()
    assert w[A.PLAYER_START] and w[A.PLAYER_ENTRY]
    # the Kronos and Zenyte entrance tiles (arena docstring) are floor too
    assert w[A.from_world(2412, 5115)] and w[A.from_world(2412, 5114)]


def test_map_rows_are_checked():
    with pytest.raises(ValueError, match="64 rows of 64"):
        A._grid(A._TILE_ROWS[:-1])
