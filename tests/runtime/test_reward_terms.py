"""The reward is the runtime's sum of the terms an encounter writes (issue 46): ``step`` writes only the state's
``reward_terms``; the runtime zeroes them before the step, sums each agent's row into its reward after it, and
keeps each episode's sums in the state's ``reward_sums`` (zeroed when an episode starts), so a term an encounter
writes can never be missing from the reward, the sums survive a snapshot, and an encounter that still keeps its
own sums is refused by the contract check."""

import dataclasses

import numpy as np
import pytest
from numba import njit

from osrs_rl.encounters.template import mechanics as TM
from osrs_rl.encounters.template.state import REWARD
from osrs_rl.runtime.checks import ContractError, check_encounter, random_legal_actions
from osrs_rl.runtime.registry import get_spec
from osrs_rl.runtime.vec_env import VecEnv
from tests.runtime import counting
from tests.runtime.template_copy import replace_counted, template_copy

BONUS = 0.25


@njit
def _step_with_a_bonus_term(s, cfg, actions):
    """The template's tick plus a term of its own, written into the state only: when each step also wrote its
    reward by hand, a term left out of that sum went unseen by the learner."""
    terminated, truncated = TM.step(s, cfg, actions)
    s.reward_terms[0, REWARD.damage_dealt] += BONUS
    return terminated, truncated


@njit
def _step_keeping_its_own_sums(s, cfg, actions):
    """The template's tick, still adding its terms into ``reward_sums`` as encounters once did: counted twice."""
    terminated, truncated = TM.step(s, cfg, actions)
    for k in range(s.reward_terms.shape[1]):
        s.reward_sums[0, k] += s.reward_terms[0, k]
    return terminated, truncated


def _bonus_env(num_envs=8, **config):
    spec = dataclasses.replace(get_spec("template"), step=_step_with_a_bonus_term, name="template_bonus")
    return VecEnv(spec, num_envs=num_envs, seed=5, **config)


def test_the_reward_is_the_sum_of_the_terms_step_wrote():
    env = _bonus_env()
    env.reset()
    rng = np.random.default_rng(5)
    stepped = 0
    ended = np.zeros(env.num_envs, dtype=bool)
    for _ in range(200):
        _, rew, term, trunc, _ = env.step(random_legal_actions(env, rng))
        terms = env.states["reward_terms"][:, 0]
        want = terms.astype(np.float64).sum(axis=-1).astype(np.float32)     # float64, column order, rounded once
        np.testing.assert_array_equal(rew, want)
        on = ~ended                                      # the others started an episode on this call: no terms
        assert (terms[on, REWARD.damage_dealt] >= BONUS).all()          # the bonus is in every stepped env's reward
        assert (terms[ended] == 0).all() and (rew[ended] == 0).all()
        stepped += int(on.sum())
        ended = term | trunc
    assert stepped > 0


def test_an_episodes_reward_sums_are_the_sum_of_its_rewards():
    """``reward_sums`` at an episode's end holds its terms summed over its ticks, which add up to the rewards the
    env returned; the next call starts an episode with the sums at 0."""
    env = _bonus_env(max_ticks=40)              # short episodes: many end in 300 ticks
    env.reset()
    rng = np.random.default_rng(6)
    returns = np.zeros(env.num_envs)
    ended = np.zeros(env.num_envs, dtype=bool)
    episodes = 0
    for _ in range(300):
        _, rew, term, trunc, _ = env.step(random_legal_actions(env, rng))
        sums = env.states["reward_sums"][:, 0].astype(np.float64)
        assert (sums[ended] == 0).all(), "an episode starts with its sums at 0"
        returns[ended] = 0.0
        returns += rew
        ended = term | trunc
        for i in np.flatnonzero(ended):
            assert sums[i].sum() == pytest.approx(returns[i], rel=1e-5, abs=1e-5)
            assert sums[i, REWARD.damage_dealt] >= BONUS * env.states["tick"][i] - 1e-3     # the bonus of every tick
            episodes += 1
    assert episodes >= 8


def test_the_templates_terms_reordered_still_sum_under_their_own_names(tmp_path):
    """The reward terms' names swapped in the declaration: each episode's sums, read by name, still hold that
    term (dealt damage never negative, taken never positive): step writes each by name (REWARD.damage_dealt)."""
    def edit(text):
        return replace_counted(text, '("damage_dealt", "damage_taken", "outcome")',
                               '("damage_taken", "damage_dealt", "outcome")')

    spec = template_copy(tmp_path, "reward_terms_reordered", edit, edits=1)   # one declaration, read by all
    assert spec.reward_terms == ("damage_taken", "damage_dealt", "outcome")
    env = VecEnv(spec, num_envs=16, seed=4)
    env.reset()
    rng = np.random.default_rng(4)
    dealt, taken = spec.reward_terms.index("damage_dealt"), spec.reward_terms.index("damage_taken")
    for _ in range(60):
        env.step(random_legal_actions(env, rng))
        sums = env.states["reward_sums"][:, 0]
        assert (sums[:, dealt] >= 0).all() and (sums[:, taken] <= 0).all(), sums
    assert (sums[:, dealt] > 0).any() and (sums[:, taken] < 0).any()


def test_every_agent_gets_its_own_row_and_sums():
    env = VecEnv(counting.COUNTING2, num_envs=4, seed=3)
    env.reset()
    rng = np.random.default_rng(3)
    totals = np.zeros((4, 2))
    ended = np.zeros(4, dtype=bool)
    for _ in range(60):
        actions = random_legal_actions(env, rng)
        _, rew, term, trunc, _ = env.step(actions)
        totals[ended] = 0.0
        totals += rew
        assert np.array_equal(rew, env.states["reward_terms"][:, :, 0])
        np.testing.assert_array_equal(env.states["reward_sums"][:, :, 0], totals)
        ended = term | trunc
    assert (totals > 0).any()


def test_the_sums_travel_with_a_snapshot():
    env = _bonus_env(num_envs=4, max_ticks=200)
    env.reset()
    rng = np.random.default_rng(7)
    for _ in range(15):
        env.step(random_legal_actions(env, rng))
    blob = env.snapshot_batch(range(4))
    at_snapshot = env.states["reward_sums"].copy()
    assert (at_snapshot != 0).any()
    plan = [random_legal_actions(env, np.random.default_rng(100 + k)) for k in range(10)]
    for a in plan:
        env.step(a)
    first = env.states["reward_sums"].copy()
    other = _bonus_env(num_envs=4, max_ticks=200)
    other.reset()
    other.restore_batch(range(4), blob)
    np.testing.assert_array_equal(other.states["reward_sums"], at_snapshot)
    for a in plan:
        other.step(a)
    np.testing.assert_array_equal(other.states["reward_sums"], first)


def test_an_encounter_that_keeps_its_own_sums_is_refused():
    spec = dataclasses.replace(get_spec("template"), step=_step_keeping_its_own_sums, name="own_sums")
    with pytest.raises(ContractError, match="reward_sums"):
        check_encounter(spec, ticks=40)


def test_a_spec_declares_its_terms_and_both_fields():
    template = get_spec("template")
    with pytest.raises(ValueError, match="declares no reward_terms"):
        dataclasses.replace(template, reward_terms=())
    without_sums = np.dtype([(n, template.state_dtype.fields[n][0]) for n in template.state_dtype.names
                             if n != "reward_sums"])
    with pytest.raises(ValueError, match="reward_sums"):
        dataclasses.replace(template, state_dtype=without_sums)
    other_shape = np.dtype([(n, np.float32, (2, 3)) if n == "reward_sums" else (n, template.state_dtype.fields[n][0])
                            for n in template.state_dtype.names])
    with pytest.raises(ValueError, match="shape"):
        dataclasses.replace(template, state_dtype=other_shape)
