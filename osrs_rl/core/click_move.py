"""Click-to-move for a player on a floor of tiles: the move head's options (a walk or a run click on a tile near
the player), the destination a click stores, and the game's route walked to it one tick at a time.

The move head: option ``MOVE_NONE`` (0) makes no new click; ``WALK_0 + o`` walks and ``RUN_0 + o`` runs to
offset ``MOVE_OFFSETS[o]`` = (dx, dy) from the player's tile, every offset within ``MOVE_RADIUS`` (a 7x7
square: 1.5 ticks of running; any tile further is two clicks away). Offset (0, 0) is a click on the player's
own tile: it stops a walk, as "Walk here" on one's own tile does in the game. An encounter declares the head as
``ActionHead("move", NUM_MOVES, MOVE_LABELS)``.

Duck-typed state (as core.hit_events): ``s.p`` (core.player: ``x``, ``y``, ``run_energy``) and the stored click,
``s.dest_x``, ``s.dest_y`` (-1, -1: none) and ``s.dest_run``. Two hooks (core.hooks) give the floor the player
stands on now:

- ``floor(s, cfg)``: the collision flags (core.collision) of the floor as it is now (a pillar standing or not);
- ``routes(s, cfg)``: that floor's first-step table, ``core.pathfinding.first_steps_table(floor, radius, False)``
  (x, y, destination offset -> the route's first two steps), whose radius covers every route to a legal click.

Rules, with sources:

1. A click is legal on a walkable tile of the floor within MOVE_RADIUS; a run needs the energy to run
   (core.energy.RUN_MIN_TO_RUN). The game lets one click any tile (a blocked one walks to its closest approach);
   those clicks are masked as a redundancy cut: the closest approach is a walkable tile that a legal click
   reaches by the same route.
2. A legal click replaces the stored destination (the game keeps one walk target; a new click re-routes).
3. Each tick the player walks 1 or runs 2 tiles along the game's route to the stored destination, re-routed
   from where it stands on the floor of now, so a pillar that collapsed opens the next tick's route [osrs-sdk
   Player.movementStep: the path to the destination is rebuilt by Pathing.path every tick]. Monsters do not
   block it [osrs-sdk Pathing.canTileBePathedTo: "Player can walk under mobs"]. Standing on the destination,
   or finding no step toward it, clears it. A run with the energy gone walks, and the run is off from then on,
   as the game's run toggle turns off at 0 energy [OSRS wiki "Energy"]. APPROXIMATION: the game routes once per
   click and walks the stored waypoints; re-routing from each tile may take another of several equally short
   routes (never a longer one: each tile of a shortest route is one step nearer).

The route tables an encounter's ``routes`` hook reads are built once per map by ``route_tables``, which checks
that their radius covers every route to a legal click (``longest_click_route``).
"""

import numpy as np
from numba import njit

from osrs_rl.core.collision import BLOCKED
from osrs_rl.core.energy import RUN_MIN_TO_RUN
from osrs_rl.core.hooks import hook
from osrs_rl.core.pathfinding import STEP_DX, STEP_DY, fill_first_steps

MOVE_RADIUS = 3
MOVE_OFFSETS = tuple((dx, dy) for dx in range(-MOVE_RADIUS, MOVE_RADIUS + 1)
                     for dy in range(-MOVE_RADIUS, MOVE_RADIUS + 1))
NUM_CLICKS = len(MOVE_OFFSETS)                 # 49
NUM_MOVES = 1 + 2 * NUM_CLICKS                 # 99
CLICKS = tuple(f"{dx:+d}_{dy:+d}" for dx, dy in MOVE_OFFSETS)      # (east, north) of each click
WALK_LABELS = tuple("walk_" + c for c in CLICKS)
RUN_LABELS = tuple("run_" + c for c in CLICKS)
MOVE_LABELS = ("none",) + WALK_LABELS + RUN_LABELS
MOVE_NONE, WALK_0, RUN_0 = 0, 1, 1 + NUM_CLICKS
CLICK_DX = np.array([d[0] for d in MOVE_OFFSETS], dtype=np.int64)   # offset of click o (options WALK_0 + o
CLICK_DY = np.array([d[1] for d in MOVE_OFFSETS], dtype=np.int64)   # and RUN_0 + o)


@hook
def floor(s, cfg):
    """The collision flags of the floor the player stands on now (2-D, x then y)."""


@hook
def routes(s, cfg):
    """The first-step table of ``floor(s, cfg)`` (core.pathfinding.first_steps_table, 3-D: x, y, offset)."""


@njit(cache=True)
def route_radius(table):
    """The radius a first-step table covers (its last axis holds (2 r + 1)^2 destination offsets)."""
    return (np.int64(np.sqrt(table.shape[2]) + 0.5) - 1) // 2


@njit(cache=True)
def move_option(dx, dy, run):
    """The move head's option for a click on offset (dx, dy) from the player (within MOVE_RADIUS; (0, 0): its
    own tile, a stop), walking or running; -1 for an offset no option clicks."""
    r = MOVE_RADIUS
    if dx < -r or dx > r or dy < -r or dy > r:
        return -1
    return (RUN_0 if run else WALK_0) + (dx + r) * (2 * r + 1) + dy + r    # MOVE_OFFSETS: dx, then dy


@njit(cache=True)
def move_click(mv):
    """(dx, dy, run) of move option ``mv`` (the inverse of ``move_option``); (0, 0, False) for MOVE_NONE."""
    if mv < WALK_0 or mv >= RUN_0 + NUM_CLICKS:
        return 0, 0, False
    run = mv >= RUN_0
    i = mv - (RUN_0 if run else WALK_0)
    side = 2 * MOVE_RADIUS + 1
    return i // side - MOVE_RADIUS, i % side - MOVE_RADIUS, run


@njit(cache=True)
def walkable(flags, x, y):
    return 0 <= x < flags.shape[0] and 0 <= y < flags.shape[1] and (flags[x, y] & BLOCKED) == 0


@njit(cache=True)
def move_legal(s, cfg, mv):
    """Move option ``mv`` is legal now (rule 1)."""
    if mv == MOVE_NONE:
        return True
    if mv < 0 or mv >= NUM_MOVES:
        return False
    dx, dy, run = move_click(mv)
    if not walkable(floor(s, cfg), s.p.x + dx, s.p.y + dy):
        return False
    return not run or s.p.run_energy >= RUN_MIN_TO_RUN


@njit(cache=True)
def move_mask(s, cfg, mv):
    """Write the move head's legal options (rule 1) into ``mv`` (its slice of the mask row)."""
    flags = floor(s, cfg)
    can_run = s.p.run_energy >= RUN_MIN_TO_RUN
    mv[MOVE_NONE] = True
    for o in range(NUM_CLICKS):
        ok = walkable(flags, s.p.x + CLICK_DX[o], s.p.y + CLICK_DY[o])
        mv[WALK_0 + o] = ok
        mv[RUN_0 + o] = ok and can_run


@njit(cache=True)
def clear_destination(s):
    s.dest_x = -1
    s.dest_y = -1
    s.dest_run = 0


@njit(cache=True)
def click(s, cfg, mv):
    """A legal click replaces the stored destination (rule 2)."""
    if mv == MOVE_NONE or not move_legal(s, cfg, mv):
        return
    dx, dy, run = move_click(mv)
    s.dest_x = s.p.x + dx
    s.dest_y = s.p.y + dy
    s.dest_run = 1 if run else 0


@njit(cache=True)
def follow_route(s, cfg):
    """Walk 1 or run 2 tiles along the route to the stored destination (rule 3); returns the tiles moved."""
    p = s.p
    if s.dest_x < 0:
        return 0
    if s.dest_run and p.run_energy < RUN_MIN_TO_RUN:
        s.dest_run = 0
    table = routes(s, cfg)
    r = route_radius(table)
    dx = s.dest_x - p.x
    dy = s.dest_y - p.y
    if abs(dx) > r or abs(dy) > r:       # only a hand-edited state gets here
        clear_destination(s)
        return 0
    code = table[p.x, p.y, (dx + r) * (2 * r + 1) + dy + r]
    moved = 0
    for j in range(2 if s.dest_run else 1):
        c = (code >> (4 * j)) & 15
        if c == 0:
            break
        p.x += STEP_DX[c]
        p.y += STEP_DY[c]
        moved += 1
    if moved == 0 or (p.x == s.dest_x and p.y == s.dest_y):
        clear_destination(s)           # arrived, or no route (the closest approach reached)
    return moved


# ---- the route tables (built once, in Python, for an encounter's config) ---------------------------------------
def route_tables(maps, radius):
    """The game's route from every tile of each map in ``maps`` (uint16 [n, w, h], core.collision flags) to
    every offset within ``radius``: uint8 [n, w, h, (2 radius + 1)^2], core.pathfinding.first_steps_table
    without closest approaches (a click is masked unless its tile is walkable, rule 1). Raises unless every
    route to a click within MOVE_RADIUS arrives in at most ``radius`` steps (``longest_click_route``), so no
    legal click is cut short by the table."""
    side = 2 * radius + 1
    route = np.zeros((maps.shape[0], maps.shape[1], maps.shape[2], side * side), dtype=np.uint8)
    for k in range(maps.shape[0]):
        fill_first_steps(maps[k], radius, False, route[k])
    longest = longest_click_route(maps, route)
    if longest > radius:
        raise AssertionError(f"a click within MOVE_RADIUS takes {longest} steps, more than the route radius "
                             f"{radius}")
    return route


@njit(cache=True)
def longest_click_route(maps, route):
    """Most steps any click within MOVE_RADIUS takes to reach its walkable tile, walking the tables ``route``
    (``route_tables``) from every walkable tile of every map (the table's radius + 1: one did not arrive within
    the radius)."""
    radius = route_radius(route[0])
    side = 2 * radius + 1
    worst = 0
    r = MOVE_RADIUS
    for mask in range(maps.shape[0]):
        flags = maps[mask]
        for x in range(flags.shape[0]):
            for y in range(flags.shape[1]):
                if flags[x, y] & BLOCKED:
                    continue
                for tx in range(max(x - r, 0), min(x + r + 1, flags.shape[0])):
                    for ty in range(max(y - r, 0), min(y + r + 1, flags.shape[1])):
                        if flags[tx, ty] & BLOCKED or (tx == x and ty == y):
                            continue
                        cx, cy, n = x, y, 0
                        while (cx != tx or cy != ty) and n <= radius:
                            if abs(tx - cx) > radius or abs(ty - cy) > radius:
                                n = radius + 1         # walked out of the table: more steps than it covers
                                break
                            code = route[mask, cx, cy, (tx - cx + radius) * side + ty - cy + radius] & 15
                            if code == 0:
                                n = radius + 1
                                break
                            cx += STEP_DX[code]
                            cy += STEP_DY[code]
                            n += 1
                        worst = max(worst, n)
    return worst
