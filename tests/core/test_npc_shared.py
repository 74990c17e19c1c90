"""The kernels the wave encounters share (core.hooks, core.npc_crowd, core.npc_attack, core.jad, core.click_move,
core.rng.shuffle), run on a small state record of this test's own: a shared kernel must work for any encounter
that implements its hooks, not only for the one it was taken from."""

from __future__ import annotations

import itertools
import subprocess
import sys

import numpy as np
import pytest
from numba import njit

from osrs_rl.core import click_move as CM
from osrs_rl.core import collision as C
from osrs_rl.core import jad as JAD
from osrs_rl.core import npc_crowd as CROWD
from osrs_rl.core import rng as R
from osrs_rl.core.combatant import COMBATANT_DTYPE, NPC_DTYPE
from osrs_rl.core.events import event_fields
from osrs_rl.core.hooks import hook, implements
from osrs_rl.core.movement import in_melee_reach
from osrs_rl.core.npc_attack import npc_attack_player
from osrs_rl.core.pathfinding import first_steps_table
from osrs_rl.core.pending_hits import HIT_DTYPE, HIT_PENDING, STYLE_MAGIC, STYLE_MELEE, STYLE_RANGED
from osrs_rl.core.player import PLAYER_DTYPE, reset_player
from osrs_rl.core.player_input import set_overhead
from osrs_rl.core.prayers import PROTECT_FROM_MAGIC
from osrs_rl.core.skills import NUM_SKILLS

MONSTER = np.dtype([("state", np.uint8), ("x", np.int16), ("y", np.int16), ("size", np.int8), ("hp", np.int16),
                    ("frozen", np.int16), ("had_los", np.uint8), ("attack_timer", np.int16), ("scan", np.int8),
                    ("windup", np.int8), ("procced", np.uint8)])
SLOTS = 4
STATE = np.dtype([("tick", np.int32), ("rng", np.uint64, (1,)), ("p", PLAYER_DTYPE), ("combat", COMBATANT_DTYPE, (1,)),
                  ("monsters", MONSTER, (SLOTS,)), ("dest_x", np.int16), ("dest_y", np.int16),
                  ("dest_run", np.uint8), ("hits", HIT_DTYPE, (8,)), ("hit_source", np.int16, (8,)),
                  ("hit_flags", np.uint16, (8,)), *event_fields(8)])
FLOOR = C.make_arena(12, 12)                  # a 10 x 10 open floor inside a 1-tile wall
ROUTES = first_steps_table(FLOOR, 6, False)
CONFIG = np.dtype([("floor", np.uint16, FLOOR.shape), ("routes", np.uint8, ROUTES.shape)])


@implements(CROWD.size, STATE)
def size(s, cfg, m):
    return np.int64(m.size)


@implements(CROWD.solid, STATE)
def solid(s, cfg, j):
    return s.monsters[j].state == 1


@implements(CROWD.sees, STATE)
def sees(s, cfg, m, tx, ty, tsize):      # melee only: edge contact
    return in_melee_reach(m.x, m.y, m.size, tx, ty, tsize)


@implements(CM.floor, STATE)
def floor(s, cfg):
    return cfg.floor


@implements(CM.routes, STATE)
def routes(s, cfg):
    return cfg.routes


@njit
def _chase(s, cfg, k, tx, ty):
    CROWD.chase(s, cfg, k, cfg.floor, tx, ty, 1)


@njit
def _move_turn(s, cfg, k, tx, ty):
    return CROWD.move_turn(s, cfg, k, cfg.floor, tx, ty, 1)


def fresh(*monsters):
    st = np.zeros(1, STATE)
    st["rng"][0] = 12345
    st["dest_x"], st["dest_y"] = -1, -1
    for k, (x, y, sz) in enumerate(monsters):
        st["monsters"][0, k] = (1, x, y, sz, 10, 0, 0, 0, -1, 0, 0)
    cfg = np.zeros(1, CONFIG)
    cfg["floor"], cfg["routes"] = FLOOR, ROUTES
    return st, cfg


def test_a_hook_is_only_a_declaration_and_its_body_must_match_it():
    @hook
    def h(s, j):
        """A test hook."""

    with pytest.raises(TypeError, match="runs only inside compiled kernels"):
        h(None, 0)
    with pytest.raises(TypeError, match="parameters"):
        implements(h, STATE)(lambda s, k: 0)
    with pytest.raises(TypeError, match="not a hook"):
        implements(lambda s, j: 0, STATE)
    other = np.dtype([("tick", np.int32)])
    implements(h, other)(lambda s, j: 0)

    def elsewhere(s, j):
        return 1

    elsewhere.__module__ = "another_encounter.rules"
    with pytest.raises(TypeError, match="implemented twice"):
        implements(h, other)(elsewhere)


@pytest.mark.slow
def test_a_hook_body_runs_when_called_from_python_in_a_fresh_process():
    """``implements`` returns the body compiled on its own; called from Python it runs, also when a later process
    loads it from Numba's cache (a cache entry the overload once wrote under the same name crashed that call)."""
    code = ("import osrs_rl, numpy as np\n"
            "from osrs_rl.encounters.inferno import monsters as MON\n"
            "env = osrs_rl.make('inferno', num_envs=1, seed=0); env.reset()\n"
            "s, cfg = env.states[0], env.config[0]\n"
            "print(bool(MON.solid(s, cfg, 0)), bool(MON.solid(s, cfg, 15)), MON.free_of_monsters(s, cfg, 0, 5, 5, 1))")
    for _ in range(2):                       # the second process loads what the first compiled
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, done.stderr[-2000:]
        assert done.stdout.split() == ["True", "False", "True"]


def test_chase_takes_the_diagonal_then_x_then_y_and_others_block():
    st, cfg = fresh((2, 2, 1), (3, 3, 1))
    _chase(st[0], cfg[0], 0, 8, 8)                       # the diagonal (3, 3) is held by monster 1: x step
    assert (st["monsters"][0, 0]["x"], st["monsters"][0, 0]["y"]) == (3, 2)
    st["monsters"][0, 1]["state"] = 0                    # gone: it no longer blocks
    _chase(st[0], cfg[0], 0, 8, 8)
    assert (st["monsters"][0, 0]["x"], st["monsters"][0, 0]["y"]) == (4, 3)
    st, cfg = fresh((2, 2, 1))
    _chase(st[0], cfg[0], 0, 3, 3)                       # a diagonal onto the target drops its y part...
    assert (st["monsters"][0, 0]["x"], st["monsters"][0, 0]["y"]) == (3, 2)
    _chase(st[0], cfg[0], 0, 3, 3)                       # ...and no straight step ends on the target
    assert (st["monsters"][0, 0]["x"], st["monsters"][0, 0]["y"]) == (3, 2)


def test_move_turn_steps_out_from_under_the_target_or_chases_until_it_sees():
    st, cfg = fresh((5, 5, 1))
    assert _move_turn(st[0], cfg[0], 0, 5, 5) == 1                # stepped out one cardinal tile: in contact
    m = st["monsters"][0, 0]
    assert abs(m["x"] - 5) + abs(m["y"] - 5) == 1
    st, cfg = fresh((1, 1, 2))
    st["monsters"][0, 0]["frozen"] = 3
    assert _move_turn(st[0], cfg[0], 0, 8, 8) == 0                # frozen: no chase, no sight
    assert (st["monsters"][0, 0]["x"], st["monsters"][0, 0]["y"]) == (1, 1)
    st["monsters"][0, 0]["frozen"] = 0
    seen = [_move_turn(st[0], cfg[0], 0, 8, 8) for _ in range(10)]
    assert seen[-1] == 1 and seen[0] == 0                         # a size-2 chaser ends in melee contact


def test_shuffle_gives_every_order():
    rng = np.array([7], dtype=np.uint64)
    counts = {}
    for _ in range(6000):
        a = np.arange(3)
        R.shuffle(rng, a)
        counts[tuple(a)] = counts.get(tuple(a), 0) + 1
    assert set(counts) == set(itertools.permutations(range(3)))
    assert all(800 < c < 1200 for c in counts.values())            # 1000 expected, sd 29


def test_a_jad_releases_its_shown_attack_after_the_tell_and_calls_healers_once():
    st, _ = fresh((5, 5, 5))
    m = st["monsters"][0, 0:1]
    JAD.show_attack(m[0], STYLE_MAGIC, 8)
    got = [JAD.released_style(m[0]) for _ in range(JAD.TELL_TICKS + 1)]
    assert got == [-1] * (JAD.TELL_TICKS - 1) + [STYLE_MAGIC, -1] and m[0]["scan"] == -1
    m[0]["hp"] = 130
    assert not JAD.healers_due(m[0], 250)
    m[0]["hp"] = 124
    assert JAD.healers_due(m[0], 250) and not JAD.healers_due(m[0], 250)
    assert JAD.heal(m[0], 200, 250) == 126 and m[0]["hp"] == 250


def test_an_npc_attack_queues_its_hit_after_the_style_delay_and_the_overhead_blocks_it():
    st, _ = fresh()
    reset_player(st["p"][0], np.full(NUM_SKILLS, 99, dtype=np.int16), 5, 5)
    npc = np.zeros(1, NPC_DTYPE)
    st["combat"][0, 0]["levels"][:] = 99
    row = npc[0]
    dealt = 0
    for style, delay in ((STYLE_MELEE, 0), (STYLE_RANGED, 2), (STYLE_MAGIC, 2)) * 4:   # distance 3 (5,8 -> 5,5)
        st["hits"] = np.zeros(8, HIT_DTYPE)
        assert not npc_attack_player(st[0], 5, 0, row, 20, style, 5, 8, 1, 0, True, False, 0, 1, -1)
        h = st["hits"][0, 0]
        assert h["state"] == HIT_PENDING and h["due_tick"] == delay and 0 <= h["damage"] <= 20
        dealt += int(h["damage"])
    assert dealt > 0
    set_overhead(st["p"][0], PROTECT_FROM_MAGIC)
    st["hits"] = np.zeros(8, HIT_DTYPE)
    assert npc_attack_player(st[0], 5, 0, row, 20, STYLE_MAGIC, 5, 8, 1, 0, True, False, 3, 1, -1)
    h = st["hits"][0, 0]
    assert h["damage"] == 0 and h["due_tick"] == 0                 # blocked; released 3 ticks late: lands now


@njit
def _click_and_walk(s, cfg, mv):
    CM.click(s, cfg, mv)
    return CM.follow_route(s, cfg)


def test_a_click_is_walked_along_the_route_and_a_run_takes_two_tiles():
    st, cfg = fresh()
    reset_player(st["p"][0], np.full(NUM_SKILLS, 99, dtype=np.int16), 5, 5)
    row = np.zeros(CM.NUM_MOVES, dtype=np.bool_)
    CM.move_mask(st[0], cfg[0], row)
    assert row[CM.MOVE_NONE] and row.sum() == 1 + 2 * CM.NUM_CLICKS       # the whole 7x7 is open floor
    assert _click_and_walk(st[0], cfg[0], CM.move_option(3, 0, True)) == 2
    assert (st["p"][0]["x"], st["p"][0]["y"]) == (7, 5) and st["dest_x"][0] == 8
    assert _click_and_walk(st[0], cfg[0], CM.MOVE_NONE) == 1                # the stored click goes on, arrives
    assert (st["p"][0]["x"], st["dest_x"][0]) == (8, -1)
    st["p"]["x"] = 9                                                        # the east wall is x 11
    CM.move_mask(st[0], cfg[0], row)
    assert not row[CM.move_option(2, 0, False)] and row[CM.move_option(1, 0, False)]
