"""The adapters pass their libraries' own checkers."""

import numpy as np
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import parallel_api_test

from osrs_rl.runtime.adapters.gymnasium import GymEnv, GymVectorEnv
from osrs_rl.runtime.adapters.pettingzoo import PettingZooEnv


def test_gymnasium_env_checker():
    check_env(GymEnv("template"), skip_render_check=True)


def test_gymnasium_vector_env():
    env = GymVectorEnv("template", num_envs=4, seed=1)
    obs, info = env.reset(seed=5)
    assert env.observation_space.contains(obs)
    assert info["action_mask"].shape == (4, 7)
    obs, rew, term, trunc, info = env.step(env.action_space.sample() * 0)
    assert obs.shape == (4, 7) and rew.shape == (4,) and term.dtype == np.bool_
    assert env.metadata["autoreset_mode"].value == "NextStep"


def test_pettingzoo_parallel_api():
    parallel_api_test(PettingZooEnv("counting2"), num_cycles=200)


def test_pettingzoo_single_agent_encounter():
    env = PettingZooEnv("template")
    obs, infos = env.reset(seed=3)
    assert list(obs) == ["player"] and infos["player"]["action_mask"].shape == (7,)
