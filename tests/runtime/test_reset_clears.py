"""The runtime zeroes each state record before an encounter's reset (but the spec's carried fields), so a field
a reset forgets starts the next episode at 0 instead of at what the last episode left."""

import dataclasses

import numpy as np
import pytest
from numba import njit

from osrs_rl.encounters.template import mechanics as T
from osrs_rl.runtime import checks
from osrs_rl.runtime import kernels as K
from osrs_rl.runtime.checks import random_legal_actions
from osrs_rl.runtime.registry import get_spec
from osrs_rl.runtime.vec_env import VecEnv

MAX_TICKS = 20      # the template truncates at this tick: a tick the reset forgot ends the next episode at once


@njit(cache=True)
def reset_forgetting_the_tick(s, cfg, seed):
    """The template's reset, then the tick put back as the record held it: a reset that never sets ``tick``,
    which ``step`` counts up and truncates by."""
    tick = s.tick
    T.reset(s, cfg, seed)
    s.tick = tick


FORGETFUL = dataclasses.replace(get_spec("template"), name="forgetful", reset=reset_forgetting_the_tick)


def _episode(env, seed, actions_seed=5):
    """Obs, rewards, dones and masks of one episode from ``env.reset(seed=seed)`` to its end."""
    obs, info = env.reset(seed=seed)
    trace = [obs.copy(), info["action_mask"].copy()]
    rng = np.random.default_rng(actions_seed)
    for _ in range(10 * MAX_TICKS):
        obs, rew, term, trunc, info = env.step(random_legal_actions(env, rng))
        trace += [obs.copy(), rew.copy(), term.copy(), trunc.copy(), info["action_mask"].copy()]
        if term[0] or trunc[0]:
            return trace
    raise AssertionError("the episode did not end")


def test_a_second_episode_replays_the_first_though_reset_forgets_a_field():
    env = VecEnv(FORGETFUL, num_envs=1, seed=0, max_ticks=MAX_TICKS)
    first = _episode(env, seed=11)
    assert env.states["tick"][0] > 0
    second = _episode(env, seed=11)
    assert len(second) == len(first)
    for k, (a, b) in enumerate(zip(first, second, strict=True)):
        np.testing.assert_array_equal(a, b, err_msg=f"item {k} of the second episode")


def test_an_autoreset_starts_the_forgotten_field_at_zero():
    env = VecEnv(FORGETFUL, num_envs=2, seed=3, max_ticks=MAX_TICKS)
    env.reset()
    idle = np.zeros((2, len(FORGETFUL.action_heads)), dtype=np.int64)
    for _ in range(MAX_TICKS):
        _, _, _, trunc, _ = env.step(idle)
    assert trunc.all() and (env.states["tick"] == MAX_TICKS).all()
    obs, *_ = env.step(idle)                        # the autoreset
    assert (env.states["tick"] == 0).all() and (obs[:, 4] == 0).all()


def test_the_contract_check_passes_a_forgetful_reset_and_names_a_runtime_that_does_not_clear(monkeypatch):
    checks.check_reset_clears(FORGETFUL, ticks=2 * MAX_TICKS, num_envs=4, max_ticks=MAX_TICKS)
    # a runtime that keeps every byte (as before it cleared records) lets the tick leak: the check says so
    monkeypatch.setattr(K, "carried_bytes", lambda spec: np.full(spec.state_dtype.itemsize, 0xFF, dtype=np.uint8))
    with pytest.raises(checks.ContractError, match="garbage bytes"):
        checks.check_reset_clears(FORGETFUL, ticks=2 * MAX_TICKS, num_envs=4, max_ticks=MAX_TICKS)


def test_carried_fields_outlive_a_reset_and_every_other_field_is_zeroed():
    spec = dataclasses.replace(get_spec("template"), name="carrying", carried_fields=("food_eaten",))
    env = VecEnv(spec, num_envs=2, seed=1)
    env.reset()
    env.states["food_eaten"] = 7
    env.states["damage_dealt"] = 5
    env.states["events"]["amount"] = 3             # past event_count: no reset writes these
    env.reset()
    assert (env.states["food_eaten"] == 7).all()
    assert (env.states["damage_dealt"] == 0).all() and (env.states["events"]["amount"] == 0).all()
    env.states["damage_dealt"] = 5
    env._needs_reset[:] = True                      # as after an episode's end: the next step autoresets
    env.step(np.zeros((2, len(spec.action_heads)), dtype=np.int64))
    assert (env.states["food_eaten"] == 7).all() and (env.states["damage_dealt"] == 0).all()


@pytest.mark.parametrize("carried, message", [
    (("no_such_field",), "not fields of its state dtype"),
    (("rng",), "'rng' cannot be carried"),
    (("food", "food"), "duplicate"),
    ("food", "tuple of state field names"),
])
def test_bad_carried_fields_are_refused(carried, message):
    with pytest.raises(ValueError, match=message):
        dataclasses.replace(get_spec("template"), carried_fields=carried)
