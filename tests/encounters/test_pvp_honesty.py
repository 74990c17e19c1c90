"""NH PvP as an RL agent would probe it: every legal action does what it says, no illegal state is
ever reached over a million random ticks, and a fixed seed and action list give a fixed trace."""

import hashlib

import numpy as np
import pytest
from numba import njit

import osrs_rl
from osrs_rl.core.skills import HITPOINTS, PRAYER
from osrs_rl.encounters.pvp import mechanics as M
from osrs_rl.encounters.pvp import state as ST
from osrs_rl.runtime.checks import random_legal_actions

ENVS = 1024
TICKS = 1000                      # 1024 envs x 1000 ticks = about a million env ticks


def _invariants(states):
    p = states["players"]["p"]
    hp, base_hp = p["levels"][..., HITPOINTS], p["base_levels"][..., HITPOINTS]
    assert (hp >= 0).all() and (hp <= base_hp + 25).all()          # anglerfish/brew overheal at most
    assert (p["levels"][..., PRAYER] >= 0).all()
    assert ((p["spec_energy"] >= 0) & (p["spec_energy"] <= 100)).all()
    assert ((p["x"] >= 1) & (p["x"] <= ST.ARENA) & (p["y"] >= 1) & (p["y"] <= ST.ARENA)).all()
    assert (states["players"]["supplies"] >= 0).all()
    assert ((p["run_energy"] >= 0) & (p["run_energy"] <= 10000)).all()


@njit(cache=True)
def _accepted(states, config, actions, out):
    """Inputs of each row that fit the tick's budget (mechanics.accepted_inputs), before the step."""
    for i in range(states.shape[0]):
        for j in range(2):
            out[i, j] = M.accepted_inputs(states[i], config[0], j, actions[i, j])


def _same_tile(states):
    p = states["players"]["p"]
    return (p["x"][:, 0] == p["x"][:, 1]) & (p["y"][:, 0] == p["y"][:, 1])


@pytest.mark.slow
def test_random_masked_policies_only_take_paths_the_mask_promised():
    env = osrs_rl.make("pvp_selfplay", num_envs=ENVS, seed=11, max_ticks=400)
    env.reset()
    rng = np.random.default_rng(11)
    accepted = np.zeros((ENVS, 2), dtype=np.int64)
    dropped = 0
    for _ in range(TICKS):
        acts = random_legal_actions(env, rng).reshape(ENVS, 2, len(ST.HEAD_SIZES))
        before = env.states.copy()
        _accepted(before, env.config, acts, accepted)
        resetting = env._needs_reset.copy()            # these envs reset on this step: nothing to check
        _, _, term, trunc, info = env.step(acts)
        assert info["invalid_actions"].sum() == 0
        live = ~resetting & ~term & ~trunc
        after = env.states
        # two players come to share a tile only by stepping under a frozen one (RULES 5.9)
        joined = live & _same_tile(after) & ~_same_tile(before)
        assert (before["players"]["p"]["freeze_ticks"][joined] > 0).any(axis=1).all()
        for i in range(2):
            b, a, x = before["players"][:, i], after["players"][:, i], acts[:, i]
            fits = accepted[:, i]                  # inputs in mechanics.IN_* order that fit the budget
            dropped += int((live & (fits < M.NUM_INPUTS)).sum())
            # a gear switch happens when it fits the tick's input budget, and only then (RULES 1.1)
            switch = live & (x[:, ST.H_LOADOUT] != ST.LOADOUT_KEEP)
            done, cut = switch & (fits > M.IN_SWITCH), switch & (fits <= M.IN_SWITCH)
            assert (a["set"][done] == x[done, ST.H_LOADOUT] - 1).all() and (a["set"][cut] == b["set"][cut]).all()
            # a legal attack is made this tick unless this tick's other clicks changed its premise:
            # a gear switch or either player moving can take the target out of reach, and food or a
            # karambwan delays the attack (RULES 7.1); or the budget ran out before it
            still = (x[:, ST.H_LOADOUT] == ST.LOADOUT_KEEP) & (acts[:, 0, ST.H_MOVE] == ST.MOVE_STAY) \
                & (acts[:, 1, ST.H_MOVE] == ST.MOVE_STAY) & (x[:, ST.H_FOOD] == 0) & (x[:, ST.H_KARAMBWAN] == 0)
            attack = live & still & (x[:, ST.H_ATTACK] != ST.ATTACK_NONE)
            done, cut = attack & (fits > M.IN_ATTACK), attack & (fits <= M.IN_ATTACK)
            assert (a["last_attack_tick"][done] == after["tick"][done]).all()
            assert (a["last_attack_tick"][cut] != after["tick"][cut]).all()
            # eating and drinking that fit use up exactly one of the supply; dropped ones none
            for head, supply, first in ((ST.H_FOOD, ST.SUP_FOOD, M.IN_FOOD),
                                        (ST.H_KARAMBWAN, ST.SUP_KARAMBWAN, M.IN_KARAMBWAN)):
                eat = live & (x[:, head] == 1)
                used = b["supplies"][:, supply] - a["supplies"][:, supply]
                assert (used[eat & (fits > first)] == 1).all() and (used[eat & (fits <= first)] == 0).all()
            drink = live & (x[:, ST.H_POTION] != ST.POTION_NONE)
            doses = slice(ST.SUP_BREW, ST.NUM_SUPPLIES)
            used = (b["supplies"][:, doses] - a["supplies"][:, doses]).sum(axis=1)
            assert (used[drink & (fits > M.IN_POTION)] == 1).all() and (used[drink & (fits <= M.IN_POTION)] == 0).all()
            # Vengeance is armed (or already spent by a hit this tick) and cooling down
            veng = live & (x[:, ST.H_VENGEANCE] == 1) & (fits > M.IN_VENGEANCE)
            assert (a["vengeance_cooldown"][veng] == M.VENGEANCE_COOLDOWN - 1).all()
            # a frozen player never moves
            frozen = live & (b["p"]["freeze_ticks"] > 0)
            assert (a["p"]["x"][frozen] == b["p"]["x"][frozen]).all()
            assert (a["p"]["y"][frozen] == b["p"]["y"][frozen]).all()
        _invariants(after)
    m = env.pop_metrics()
    assert len(m["won"]) > 100                                    # random players do finish fights
    assert dropped > 1000                                         # random rows do overrun the budget


def _trace_hash(name, **config):
    env = osrs_rl.make(name, num_envs=8, seed=2026, **config)
    env.reset()
    rng = np.random.default_rng(2026)
    digest = hashlib.sha256()
    for _ in range(600):
        obs, rew, term, trunc, _ = env.step(random_legal_actions(env, rng))
        digest.update(obs.tobytes())
        digest.update(rew.tobytes())
        digest.update(term.tobytes())
    digest.update(env.states.tobytes())
    return digest.hexdigest()[:16]


# Pinned when the mechanics last changed on purpose. A change here means the simulation changed:
# if that was intended (a rule fixed, a field added), update the hash in the same commit and say why.
# issue 46 (no rule changed, obs and dones unchanged): the state gained reward_sums (kept by the runtime); a
# tick's reward with damage_reward = 0 is +0.0 where reward_for used to return -0.0 (0.0 x a net loss): equal
# values, other bytes; and the runtime zeroes a record before each reset, so the records no longer hold an
# earlier episode's bytes in free hit slots, event entries past event_count and scratch (landing, splats,
# bolt_ctx). Was 57eec1a15590b2d7 (issue 41: prayer_was_on, kits that fit 28 slots)
GOLDEN_SELFPLAY = "7c57b759b4b337d1"


def test_golden_trace():
    assert _trace_hash("pvp_selfplay") == GOLDEN_SELFPLAY
    assert _trace_hash("pvp_selfplay") == _trace_hash("pvp_selfplay")
