"""PettingZoo ``ParallelEnv`` over one env of a (usually two-player) encounter.

Agents are the encounter's ``agents`` names; each gets a Box observation and a MultiDiscrete action
with its mask in ``infos[agent]["action_mask"]``. When the episode ends every agent leaves
(``agents`` becomes empty) and ``reset`` starts the next one. It passes
``pettingzoo.test.parallel_api_test``.
"""

from __future__ import annotations

import functools

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from osrs_rl.runtime.registry import make


class PettingZooEnv(ParallelEnv):
    metadata = {"render_modes": [], "name": "osrs_rl"}

    def __init__(self, name: str, seed: int = 0, **config):
        self.env = make(name, num_envs=1, seed=seed, **config)
        spec = self.env.spec
        self.metadata = {"render_modes": [], "name": f"osrs_rl_{spec.name}"}
        self.possible_agents = list(spec.agents)
        self.agents: list[str] = []
        self._obs_space = spaces.Box(-np.inf, np.inf, shape=(spec.obs_size,), dtype=np.float32)
        self._act_space = spaces.MultiDiscrete(spec.head_sizes)

    @functools.cache  # noqa: B019  (one space object per agent, as PettingZoo asks)
    def observation_space(self, agent):
        return self._obs_space

    @functools.cache  # noqa: B019
    def action_space(self, agent):
        return self._act_space

    def _split(self, obs, masks):
        obs = obs.reshape(self.env.spec.num_agents, -1)
        masks = masks.reshape(self.env.spec.num_agents, -1)
        return ({a: obs[k].copy() for k, a in enumerate(self.possible_agents)},
                {a: {"action_mask": masks[k].copy()} for k, a in enumerate(self.possible_agents)})

    def reset(self, seed=None, options=None):
        obs, info = self.env.reset(seed=seed)
        self.agents = list(self.possible_agents)
        return self._split(obs[0], info["action_mask"][0])

    def step(self, actions):
        spec = self.env.spec
        if not self.agents:
            raise RuntimeError("the episode is over (no agents left): call reset()")
        missing = [a for a in self.agents if a not in actions]
        unknown = [a for a in actions if a not in self.agents]
        if missing or unknown:
            raise ValueError(f"actions must name exactly the agents {self.agents}; missing {missing}, "
                             f"unknown {unknown}")
        a = np.stack([np.asarray(actions[name], dtype=np.int64).reshape(spec.num_heads)
                      for name in self.possible_agents])
        batch = a[None, 0] if self.env.single_agent else a[None]
        obs, rew, term, trunc, info = self.env.step(batch)
        observations, infos = self._split(obs[0], info["action_mask"][0])
        rewards_arr = np.asarray(rew[0]).reshape(-1)
        rewards = {name: float(rewards_arr[k]) for k, name in enumerate(self.possible_agents)}
        terminations = {name: bool(term[0]) for name in self.possible_agents}
        truncations = {name: bool(trunc[0]) for name in self.possible_agents}
        if term[0] or trunc[0]:
            self.agents = []
        return observations, rewards, terminations, truncations, infos
