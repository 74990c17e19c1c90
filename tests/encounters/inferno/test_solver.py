"""The scripted Inferno solver: legal under the mask, better than a random legal player, the overhead of the
attack due, Rigour on its shots, moves through ``move_to``, and the ``--policy solver`` declaration."""

import numpy as np
import pytest

import osrs_rl
from osrs_rl.core import click_move as CM
from osrs_rl.core import prayers as P
from osrs_rl.core.events import EV_ATTACK, EVF_BLOCKED
from osrs_rl.core.pending_hits import STYLE_MAGIC, STYLE_RANGED
from osrs_rl.encounters.inferno import solver as SV
from osrs_rl.encounters.inferno import state as ST
from osrs_rl.runtime.registry import get_spec

from .helpers import commit, empty_arena, events, inferno, keeper, put

MONSTER = ST.ENT_MONSTER


def _actions(env):
    return np.zeros((env.num_envs, env.spec.num_heads), dtype=np.int64)


def _solve(env, ticks, watch=None):
    a = _actions(env)
    for _ in range(ticks):
        SV.solver_actions(env.states, env.config, a)
        if watch is not None:
            watch(env, a)
        env.step(a)
    return a


def test_every_action_is_legal_under_the_mask_over_many_ticks_and_waves():
    # every band's waves (a start wave drawn per run), short runs so autoreset brings new ones
    env = osrs_rl.make("inferno", num_envs=24, seed=3, max_ticks=250, band_weight_1=1, band_weight_2=1,
                       band_weight_3=1, band_weight_4=1)
    env.reset()
    offsets = np.concatenate(([0], np.cumsum(env.spec.head_sizes)[:-1]))
    waves = set()

    def watch(env, a):
        mask = env.action_mask()
        chosen = mask[np.arange(env.num_envs)[:, None], offsets[None, :] + a]
        assert chosen.all(), np.argwhere(~chosen)
        waves.update(int(w) for w in env.states["wave"])

    a = _actions(env)
    for _ in range(700):
        SV.solver_actions(env.states, env.config, a)
        watch(env, a)
        _, _, _, _, info = env.step(a)
        assert info["invalid_actions"].sum() == 0
    assert len(waves) >= 20 and min(waves) <= 17 and max(waves) >= 50, sorted(waves)


def test_unknown_heads_are_left_at_zero():
    env = inferno(seed=2)
    a = np.full((1, env.spec.num_heads + 1), 7, dtype=np.int64)     # a head appended later (gear): 0 = keep
    SV.solver_actions(env.states, env.config, a)
    assert a[0, env.spec.num_heads] == 0


def _final_waves(env, pick, ticks):
    """The wave each env's first run ended on (or stands on after ``ticks``)."""
    env.reset()
    a = _actions(env)
    col = env.spec.metric_names.index("final_wave")
    final = np.zeros(env.num_envs)
    done = np.zeros(env.num_envs, dtype=bool)
    for _ in range(ticks):
        pick(env, a)
        env.step(a)
        ids, rows = env.finished_last_step()
        fresh = ~done[ids]
        final[ids[fresh]] = rows[fresh, col]
        done[ids] = True
    final[~done] = env.states["wave"][~done]
    return final


def test_it_clears_more_waves_than_a_random_legal_player():
    rng = np.random.default_rng(0)

    def random_legal(env, a):
        mask = env.action_mask()
        off = 0
        for h, size in enumerate(env.spec.head_sizes):
            for i in range(env.num_envs):
                a[i, h] = rng.choice(np.flatnonzero(mask[i, off:off + size]))
            off += size

    def solver(env, a):
        SV.solver_actions(env.states, env.config, a)

    ticks = 900                          # about nine early waves' worth
    mine = _final_waves(osrs_rl.make("inferno", num_envs=8, seed=5), solver, ticks)
    theirs = _final_waves(osrs_rl.make("inferno", num_envs=8, seed=5), random_legal, ticks)
    assert mine.mean() >= theirs.mean() + 2, (mine, theirs)


# (kind, overhead prayer it must meet): the style of each kind's distance attack (README rules table)
DUE = [(ST.K_RANGER, P.PROTECT_FROM_MISSILES), (ST.K_MAGER, P.PROTECT_FROM_MAGIC), (ST.K_BAT, P.PROTECT_FROM_MISSILES)]


@pytest.mark.parametrize("kind,prayer", DUE)
def test_the_overhead_meets_the_attack_due_this_tick(kind, prayer):
    env = inferno(seed=4)
    empty_arena(env, player=(15, 12))
    keeper(env)
    put(env, 0, kind, 15, 15, attack_timer=1)          # in sight (open ground north), attacking this tick
    a = _solve(env, 1)
    assert a[0, ST.H_OVERHEAD] != ST.OVERHEAD_KEEP
    attacks = events(env, EV_ATTACK, MONSTER + 0)
    assert len(attacks) == 1 and int(attacks[0]["flags"]) & EVF_BLOCKED, attacks
    assert (int(env.states[0]["p"]["active_prayers"]) >> prayer) & 1


def test_the_soonest_of_two_attackers_is_prayed():
    env = inferno(seed=4)
    empty_arena(env, player=(15, 12))
    keeper(env)
    put(env, 0, ST.K_MAGER, 13, 16, attack_timer=4)    # magic in 3 ticks
    put(env, 1, ST.K_RANGER, 17, 16, attack_timer=2)   # ranged next tick: first
    assert SV.wanted_style(env.states[0], env.config[0]) == STYLE_RANGED
    env.states[0]["monsters"][1]["attack_timer"] = 5
    commit(env)
    assert SV.wanted_style(env.states[0], env.config[0]) == STYLE_MAGIC


def test_a_meleer_in_reach_is_prayed_against():
    env = inferno(seed=4)
    empty_arena(env, player=(15, 12))
    keeper(env)
    put(env, 0, ST.K_MELEER, 13, 13, attack_timer=1)   # size 4: its east edge touches the player's tile
    _solve(env, 1)
    attacks = events(env, EV_ATTACK, MONSTER + 0)
    assert len(attacks) == 1 and int(attacks[0]["flags"]) & EVF_BLOCKED, attacks


def test_it_shoots_with_rigour_on():
    env = inferno(seed=4)
    empty_arena(env, player=(15, 12))
    keeper(env)
    put(env, 0, ST.K_BAT, 15, 17, attack_timer=6)
    a = _solve(env, 1)
    assert a[0, ST.H_ATTACK] == 1 + 0 and a[0, ST.H_OFFENSIVE] == ST.OFFENSIVE_ON
    assert events(env, EV_ATTACK, ST.ENT_PLAYER)


def test_it_barrages_a_clump_of_nibblers_and_goes_back_to_the_bow():
    """Three nibblers in one 3x3: the magic set goes on in the same tick as the attack, the spell hits the
    other two as well; the next tick, with nothing to shoot (the spell's timer runs), the bow goes back on."""
    env = inferno(seed=4)
    empty_arena(env, player=(15, 12))
    keeper(env)
    for slot, (x, y) in enumerate(((15, 17), (16, 17), (16, 18))):
        put(env, slot, ST.K_NIBBLER, x, y, attack_timer=6)
    a = _solve(env, 1)
    assert a[0, ST.H_GEAR] == 1 + ST.SET_MAGIC and a[0, ST.H_ATTACK] in (1, 2, 3), a
    shots = events(env, EV_ATTACK, ST.ENT_PLAYER)
    assert len(shots) == 1 and int(shots[0]["style"]) == STYLE_MAGIC, shots
    assert int(env.states[0]["barrage_hits"]) == 2
    a = _solve(env, 1)
    assert a[0, ST.H_ATTACK] == ST.ATTACK_NONE and a[0, ST.H_GEAR] == 1 + ST.SET_BOW
    assert int(env.states[0]["gear_set"]) == ST.SET_BOW


def test_a_lone_nibbler_is_shot_with_the_bow():
    env = inferno(seed=4)
    empty_arena(env, player=(15, 12))
    keeper(env)
    put(env, 0, ST.K_NIBBLER, 15, 17, attack_timer=6)
    put(env, 1, ST.K_NIBBLER, 19, 17, attack_timer=6)      # 4 tiles east: outside the first one's 3x3
    a = _solve(env, 1)
    assert a[0, ST.H_GEAR] == ST.GEAR_KEEP and a[0, ST.H_ATTACK] in (1, 2)
    assert int(env.states[0]["gear_set"]) == ST.SET_BOW


def test_a_hurt_player_puts_on_the_blowpipe_then_uses_its_special():
    """At SIPHON_AT hitpoints with the energy: the pipe goes on while the attack timer runs (its special is
    masked until it is worn), and the next shot is the special."""
    from osrs_rl.core.skills import HITPOINTS

    env = inferno(seed=4)
    empty_arena(env, player=(15, 12), hp=SV.SIPHON_AT)
    keeper(env)
    put(env, 0, ST.K_BAT, 15, 15, attack_timer=6)         # 3 tiles north: in the pipe's reach
    env.states[0]["p"]["attack_timer"] = 2
    commit(env)
    seen = []
    for _ in range(4):
        a = _solve(env, 1)
        seen.append((int(a[0, ST.H_GEAR]), int(a[0, ST.H_SPEC])))
        if int(env.states[0]["specs_used"]) == 1:
            break
    assert seen[0] == (1 + ST.SET_BLOWPIPE, ST.SPEC_NONE), seen
    assert seen[-1] == (ST.GEAR_KEEP, ST.SPEC_USE), seen
    assert int(env.states[0]["specs_used"]) == 1 and int(env.states[0]["gear_set"]) == ST.SET_BLOWPIPE
    assert int(env.states[0]["p"]["levels"][HITPOINTS]) <= SV.SIPHON_AT      # the heal lands later


def test_move_to_clicks_the_goal_or_the_legal_tile_nearest_it():
    """A goal in the click square is clicked itself (the router walks it), one beyond it gets the legal click
    nearest it; on the goal nothing is clicked, unless a walk elsewhere is stored: then a click on its own tile
    stops it."""

    env = inferno(seed=4)
    empty_arena(env, player=(15, 12))
    s, cfg = env.states[0], env.config[0]
    legal = env.action_mask()[0]
    dist = np.zeros((cfg["maps"].shape[1], cfg["maps"].shape[2]), dtype=np.int32)
    queue = np.zeros(dist.size, dtype=np.int64)
    for goal in ((15, 14), (17, 12), (14, 11)):
        dx, dy, _ = CM.move_click(SV.move_to(s, cfg, legal, *goal, dist, queue))
        assert (15 + dx, 12 + dy) == goal
    dx, dy, run = CM.move_click(SV.move_to(s, cfg, legal, 25, 3, dist, queue))   # 10 east, 9 south
    assert (dx, dy) == (3, -3) and run
    assert SV.move_to(s, cfg, legal, 15, 12, dist, queue) == ST.MOVE_NONE
    s["dest_x"], s["dest_y"] = 18, 12
    assert SV.move_to(s, cfg, legal, 15, 12, dist, queue) == CM.move_option(0, 0, False)


def test_the_spec_declares_the_solver_by_band():
    spec = get_spec("inferno")
    policy = spec.scripted_policy("solver")
    assert policy.rows == "start_wave" and spec.row_values(policy) == tuple(lo for lo, _ in ST.BANDS)
