"""The player's click-to-move (issue 17): a click stores a destination, followed every tick along the game's
route (core.pathfinding's BFS, precomputed in cfg.route) on the map of the standing pillars. Sources beside
player.click / follow_route and in the README's rules table."""

import numpy as np

from osrs_rl.core import click_move as CM
from osrs_rl.core.collision import BLOCKED
from osrs_rl.core.events import EV_ATTACK
from osrs_rl.core.movement import advance_path, make_path
from osrs_rl.core.pathfinding import PATH_FOUND, STEP_DX, STEP_DY, find_path, make_bfs_scratch
from osrs_rl.encounters.inferno import arena as A
from osrs_rl.encounters.inferno import loadouts as L
from osrs_rl.encounters.inferno import state as ST
from osrs_rl.encounters.inferno import view as V

from .helpers import act, commit, empty_arena, events, inferno, keeper, put

SCRATCH = make_bfs_scratch()
NORTH = 1                               # pillars[1]: south-west tile (18, 23), tiles x 18..20, y 23..25


def pos(env):
    return int(env.states[0]["p"]["x"]), int(env.states[0]["p"]["y"])


def dest(env):
    s = env.states[0]
    return int(s["dest_x"]), int(s["dest_y"]), int(s["dest_run"])


def current_map(env):
    s = env.states[0]
    mask = sum(1 << k for k in range(A.NUM_PILLARS) if int(s["pillar_hp"][k]) > 0)
    return env.config["maps"][0][mask]


def routed(flags, start, target, tiles):
    """Where find_path's route from ``start`` to ``target`` takes a mover in one tick of ``tiles`` steps."""
    path = make_path()
    assert find_path(flags, start[0], start[1], 1, target[0], target[1], path[0], SCRATCH[0]) == PATH_FOUND
    x, y, _ = advance_path(flags, start[0], start[1], 1, path[0], tiles)
    return int(x), int(y)


def follow(env, target, tiles, ticks):
    """Step ``ticks`` ticks with no new click; each tick's tile must be find_path's from the tile before."""
    out = []
    for _ in range(ticks):
        expected = routed(current_map(env), pos(env), target, tiles) if pos(env) != target else pos(env)
        env.step(act())
        assert pos(env) == expected
        out.append(pos(env))
    return out


def test_move_options_round_trip():
    assert ST.HEAD_SIZES[ST.H_MOVE] == ST.NUM_MOVES == 1 + 2 * 49
    assert CM.move_click(ST.MOVE_NONE) == (0, 0, False)
    seen = set()
    for mv in range(1, ST.NUM_MOVES):
        dx, dy, run = CM.move_click(mv)
        assert CM.move_option(dx, dy, run) == mv and run == (mv > ST.NUM_CLICKS)
        assert max(abs(dx), abs(dy)) <= ST.MOVE_RADIUS
        seen.add((dx, dy, run))
    assert len(seen) == ST.NUM_MOVES - 1
    assert CM.move_option(0, 0, False) == 1 + 24 and CM.move_option(4, 0, True) == -1   # (0, 0): the centre


def test_a_destination_behind_a_pillar_is_routed_around_not_masked():
    """From west of the north pillar, a click on the tile past its north-east corner: no straight line, the
    router's route goes round (north first, then east), one tile a tick, and arriving clears the click."""
    env = inferno()
    px, py = A.PILLARS[NORTH][0] - 1, A.PILLARS[NORTH][1] + 1      # (17, 24), facing the pillar's middle
    target = (px + 3, py + 2)                                       # (20, 26): just north of the pillar
    empty_arena(env, player=(px, py))
    keeper(env)
    walk = CM.move_option(3, 2, False)
    assert env.action_mask()[0, walk]
    env.step(act(move=walk))
    first = pos(env)
    assert first == routed(current_map(env), (px, py), target, 1) == (px, py + 1)
    assert dest(env) == (*target, 0)
    tiles = [first] + follow(env, target, 1, 4)
    assert tiles[-1] == target and len(set(tiles)) == 5 and dest(env) == (-1, -1, 0)
    flags = current_map(env)
    assert all(not flags[x, y] & BLOCKED for x, y in tiles)
    env.step(act())
    assert pos(env) == target                                        # nothing stored: it stays


def test_one_run_click_is_followed_two_tiles_a_tick_and_drains_energy():
    env = inferno()
    empty_arena(env, player=(22, 12))
    keeper(env)
    env.states[0]["p"]["run_energy"] = 5000
    commit(env)
    env.step(act(move=CM.move_option(3, -3, True)))
    assert pos(env) == (24, 10) and dest(env) == (25, 9, 1)
    assert int(env.states[0]["p"]["run_energy"]) < 5000
    env.step(act())
    assert pos(env) == (25, 9) and dest(env) == (-1, -1, 0)        # one tile left: one step, then cleared
    # a walk click on the same offset: one tile a tick, energy kept (it regenerates)
    before = int(env.states[0]["p"]["run_energy"])
    env.step(act(move=CM.move_option(-3, 3, False)))
    assert pos(env) == (24, 10) and dest(env) == (22, 12, 0)
    assert int(env.states[0]["p"]["run_energy"]) >= before
    env.step(act())
    env.step(act())
    assert pos(env) == (22, 12) and dest(env) == (-1, -1, 0)


def test_a_click_on_the_players_own_tile_stops_a_walk():
    """"Walk here" on one's own tile: the stored destination is dropped and the player stays."""
    env = inferno()
    empty_arena(env, player=(22, 12))
    keeper(env)
    env.step(act(move=CM.move_option(-3, 3, False)))
    assert pos(env) == (21, 13) and dest(env) == (19, 15, 0)
    env.step(act(move=CM.move_option(0, 0, False)))
    assert pos(env) == (21, 13) and dest(env) == (-1, -1, 0)
    env.step(act())
    assert pos(env) == (21, 13)


def test_a_run_without_energy_is_masked_and_a_stored_run_walks_when_energy_runs_out():
    env = inferno()
    empty_arena(env, player=(10, 10))
    keeper(env)
    env.states[0]["p"]["run_energy"] = 0
    commit(env)
    mask = env.action_mask()[0]
    assert not mask[CM.move_option(3, 0, True)] and mask[CM.move_option(3, 0, False)]
    s = env.states[0]
    s["dest_x"], s["dest_y"], s["dest_run"] = 13, 10, 1                # stored while there was energy
    commit(env)
    env.step(act())
    assert pos(env) == (11, 10) and dest(env) == (13, 10, 0)        # the run toggle went off: walks


def test_a_collapsing_pillar_opens_the_next_ticks_route():
    """Walking round the north pillar, the pillar falls: the next tick's route is the router's on the open
    map from where the player stands (across the pillar's old tiles)."""
    env = inferno()
    px, py = A.PILLARS[NORTH][0] - 1, A.PILLARS[NORTH][1]           # (17, 23), by the pillar's south-west tile
    target = (px + 3, py + 3)                                       # (20, 26): 6 steps round the pillar
    empty_arena(env, player=(px, py))
    keeper(env)
    expected = routed(current_map(env), (px, py), target, 1)
    env.step(act(move=CM.move_option(3, 3, False)))
    assert pos(env) == expected and pos(env)[0] < A.PILLARS[NORTH][0]   # round the west side
    env.states[0]["pillar_hp"][NORTH] = 0
    commit(env)
    tiles = follow(env, target, 1, 3)
    assert tiles[-1] == target and dest(env) == (-1, -1, 0)         # 1 + 3 ticks instead of 6
    x0, y0 = A.PILLARS[NORTH]
    assert any(x0 <= x < x0 + 3 and y0 <= y < y0 + 3 for x, y in tiles)


def test_monsters_do_not_block_the_players_route():
    """A Jal-ImKot (4x4, held in place) on the straight line: the player walks through its tiles (osrs-sdk
    Pathing.canTileBePathedTo: "Player can walk under mobs")."""
    env = inferno()
    empty_arena(env, player=(5, 12))
    keeper(env)
    put(env, 0, ST.K_MELEER, 6, 10, stun=100, frozen=100)
    env.step(act(move=CM.move_option(3, 0, False)))
    assert pos(env) == (6, 12)
    env.step(act())
    assert pos(env) == (7, 12)


def test_an_attack_in_reach_ends_the_walk():
    env = inferno()
    empty_arena(env, player=(15, 15))
    keeper(env)
    put(env, 0, ST.K_RANGER, 15, 22, stun=100, hp=1000)
    env.step(act(move=CM.move_option(0, -3, False)))
    assert pos(env) == (15, 14) and dest(env) == (15, 12, 0)
    env.step(act(attack=1))
    assert pos(env) == (15, 14) and dest(env) == (-1, -1, 0)
    assert events(env, EV_ATTACK, ST.ENT_PLAYER)
    env.step(act())
    assert pos(env) == (15, 14)


def test_the_mask_allows_walkable_tiles_only_and_every_legal_click_is_reached():
    """Clicks off the grid or on a pillar are masked; every other click, from every tile of every map, is
    reached by the table's route within ROUTE_RADIUS steps (so no legal click is unreachable and the closest
    approach never applies)."""
    env = inferno()
    px, py = A.PILLARS[NORTH][0] - 1, A.PILLARS[NORTH][1] + 1
    empty_arena(env, player=(px, py))
    keeper(env)
    mask = env.action_mask()[0][:ST.NUM_MOVES]
    flags = current_map(env)
    for mv in range(1, ST.NUM_MOVES):
        dx, dy, _ = CM.move_click(mv)
        x, y = px + dx, py + dy
        assert mask[mv] == (0 <= x < A.GRID_W and 0 <= y < A.GRID_H and not flags[x, y] & BLOCKED)
    assert not mask[CM.move_option(1, 0, False)] and mask[CM.move_option(-1, 0, False)]
    maps, route = L.arena_tables()
    assert CM.longest_click_route(maps, route) == ST.ROUTE_RADIUS           # the radius is tight


def test_the_route_table_agrees_with_find_path_on_the_arena():
    maps, route = L.arena_tables()
    rng = np.random.default_rng(3)
    checked = 0
    while checked < 400:
        mask = int(rng.integers(ST.NUM_MASKS))
        f = maps[mask]
        x, y = (int(v) for v in rng.integers(0, (A.GRID_W, A.GRID_H)))
        dx, dy = (int(v) for v in rng.integers(-ST.ROUTE_RADIUS, ST.ROUTE_RADIUS + 1, 2))
        tx, ty = x + dx, y + dy
        if f[x, y] & BLOCKED or not (0 <= tx < A.GRID_W and 0 <= ty < A.GRID_H) or f[tx, ty] & BLOCKED:
            continue
        code = int(route[mask, x, y, (dx + ST.ROUTE_RADIUS) * ST.ROUTE_SIDE + dy + ST.ROUTE_RADIUS])
        cx, cy = x, y
        for c in (code & 15, code >> 4):
            if c:
                cx, cy = cx + int(STEP_DX[c]), cy + int(STEP_DY[c])
        assert (cx, cy) == (routed(f, (x, y), (tx, ty), 2) if (dx, dy) != (0, 0) else (x, y))
        checked += 1


def test_the_stored_destination_is_observed():
    env = inferno()
    empty_arena(env, player=(10, 10))
    keeper(env)
    names = V.SELF_NAMES

    def self_obs(name):
        return float(np.ravel(env._obs[0])[names.index(name)])

    assert self_obs("dest_set") == 0.0
    env.step(act(move=CM.move_option(-3, 2, True)))
    x, y = pos(env)
    assert max(abs(x - 10), abs(y - 10)) == 2 and dest(env) == (7, 12, 1)
    assert self_obs("dest_set") == 1.0 and self_obs("dest_run") == 1.0
    assert np.isclose(self_obs("dest_dx"), (7 - x) / ST.ROUTE_RADIUS)
    assert np.isclose(self_obs("dest_dy"), (12 - y) / ST.ROUTE_RADIUS)
    env.step(act())
    assert pos(env) == (7, 12) and self_obs("dest_set") == 0.0 and self_obs("dest_dx") == 0.0
