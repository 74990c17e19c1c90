"""Recording episodes as (initial snapshot, actions per tick): what replays are made of.

An :class:`EpisodeRecorder` attached to a VecEnv keeps, for each watched env, the snapshot taken
when its episode started and the actions of every tick. Re-simulating the episode (restore the
snapshot, step the same actions) reproduces it bit for bit, which :func:`replay_episode` does and
the tests check.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


def setting_value(value):
    """A config field's value as a Python number a person would write: a float32 as the shortest decimal
    that reads back to it (0.1, not 0.10000000149011612), other scalars as they are."""
    if isinstance(value, np.floating) and value.dtype == np.float32:
        return float(str(value))
    return value.item() if isinstance(value, np.generic) else value


def user_settings(env) -> dict:
    """The env's config as its user settings (derived fields, filled from these, left out; some are arrays)."""
    return {f.name: setting_value(env.config[0][f.name]) for f in env.spec.config_fields if not f.derived}


@dataclass
class RecordedEpisode:
    encounter: str
    version: int
    env_index: int
    config: dict
    initial_snapshot: bytes
    actions: np.ndarray            # int64 [ticks, agents, heads]
    finished: bool = False


@dataclass
class EpisodeRecorder:
    """Record the episodes of ``env_indices`` (all envs when None); keeps at most ``max_episodes``
    finished episodes (oldest dropped first)."""

    env_indices: list[int] | None = None
    max_episodes: int = 1000
    episodes: list[RecordedEpisode] = field(default_factory=list)
    _open: dict[int, tuple[bytes, list]] = field(default_factory=dict)

    def _watched(self, indices):
        if self.env_indices is None:
            return [int(i) for i in indices]
        watch = set(self.env_indices)
        return [int(i) for i in indices if int(i) in watch]

    def on_reset(self, env, indices) -> None:
        for i in self._watched(indices):
            self._open[i] = (env.snapshot(i), [])

    def on_actions(self, env, actions, stepping) -> None:
        for i in self._watched(np.flatnonzero(stepping)):
            if i in self._open:
                self._open[i][1].append(actions[i].copy())

    def on_finished(self, env, indices) -> None:
        config = user_settings(env)
        for i in self._watched(indices):
            if i not in self._open:
                continue
            snap, acts = self._open.pop(i)
            arr = np.array(acts, dtype=np.int64).reshape(len(acts), env.spec.num_agents, env.spec.num_heads)
            self.episodes.append(RecordedEpisode(env.spec.name, env.spec.version, i, config, snap, arr, True))
            if len(self.episodes) > self.max_episodes:
                self.episodes.pop(0)


def replay_episode(env, episode: RecordedEpisode, env_index: int = 0):
    """Reset ``env``, restore ``episode`` into ``env_index`` and step its actions; yields
    (obs, reward, terminated, truncated) of that env after each tick. Other envs step with no-ops.
    The env must have the episode's config (a mismatch raises)."""
    if env.spec.name != episode.encounter:
        raise ValueError(f"episode is from {episode.encounter!r}, env is {env.spec.name!r}")
    config = user_settings(env)
    if config != episode.config:
        diff = {k: (episode.config.get(k), v) for k, v in config.items() if episode.config.get(k) != v}
        raise ValueError(f"the env's config differs from the episode's (recorded, env): {diff}")
    env.reset()                    # every other env starts from a real state too
    env.restore(env_index, episode.initial_snapshot)
    shape = (env.num_envs, env.spec.num_heads) if env.single_agent else \
        (env.num_envs, env.spec.num_agents, env.spec.num_heads)
    actions = np.zeros(shape, dtype=np.int64)
    for t in range(len(episode.actions)):
        actions[env_index] = episode.actions[t, 0] if env.single_agent else episode.actions[t]
        obs, rew, term, trunc, _ = env.step(actions)
        yield obs[env_index].copy(), np.array(rew[env_index]).copy(), bool(term[env_index]), bool(trunc[env_index])
