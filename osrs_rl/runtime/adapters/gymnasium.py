"""Gymnasium adapters over a VecEnv.

- :class:`GymVectorEnv`: ``gymnasium.vector.VectorEnv`` for single-agent encounters, MultiDiscrete
  actions, the action mask in ``info["action_mask"]``, next-step autoreset (the VecEnv's own).
- :class:`GymEnv`: one env as a ``gymnasium.Env`` (for tools that want one; it passes
  ``gymnasium.utils.env_checker.check_env``).

Observations are returned as copies: Gymnasium callers may keep them across steps.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from osrs_rl.runtime.registry import make


def _spaces(spec):
    obs = spaces.Box(-np.inf, np.inf, shape=(spec.obs_size,), dtype=np.float32)
    act = spaces.MultiDiscrete(spec.head_sizes)
    return obs, act


def _single_agent(env):
    if not env.single_agent:
        raise ValueError(f"encounter {env.spec.name!r} has {env.spec.num_agents} agents; use the PettingZoo adapter")
    return env


class GymVectorEnv(gym.vector.VectorEnv):
    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, name: str, num_envs: int = 1, seed: int = 0, threads: int = 1, **config):
        self.env = _single_agent(make(name, num_envs=num_envs, seed=seed, threads=threads, **config))
        self.num_envs = num_envs
        self.single_observation_space, self.single_action_space = _spaces(self.env.spec)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def reset(self, *, seed=None, options=None):
        if isinstance(seed, (list, tuple)):
            raise ValueError("osrs-rl envs take one base seed (each env derives its own); pass an int")
        if options:
            raise ValueError(f"reset options are not supported, got {options!r}")
        obs, info = self.env.reset(seed=seed)
        return obs.copy(), self._info(info)

    def step(self, actions):
        obs, rew, term, trunc, info = self.env.step(np.asarray(actions))
        return obs.copy(), rew.astype(np.float64), term.copy(), trunc.copy(), self._info(info)

    def _info(self, info) -> dict:
        # Gymnasium's vector info convention: each key has a boolean "_key" saying which envs have it
        everyone = np.ones(self.num_envs, dtype=np.bool_)
        out = {"action_mask": info["action_mask"].copy(), "_action_mask": everyone}
        if "invalid_actions" in info:
            out["invalid_actions"] = info["invalid_actions"].copy()
            out["_invalid_actions"] = everyone.copy()
        return out


class GymEnv(gym.Env):
    metadata = {"render_modes": []}

    def __init__(self, name: str, seed: int = 0, **config):
        self.env = _single_agent(make(name, num_envs=1, seed=seed, **config))
        self.observation_space, self.action_space = _spaces(self.env.spec)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        obs, info = self.env.reset(seed=seed)
        return obs[0].copy(), {"action_mask": info["action_mask"][0].copy()}

    def step(self, action):
        a = np.asarray(action).reshape(1, -1)
        obs, rew, term, trunc, info = self.env.step(a)
        return (obs[0].copy(), float(rew[0]), bool(term[0]), bool(trunc[0]),
                {"action_mask": info["action_mask"][0].copy(), "invalid_actions": int(info["invalid_actions"][0])})
