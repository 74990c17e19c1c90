"""Replays of training episodes: the best so far and a sample of others, kept while the rollouts run.

A :class:`EpisodeTape` follows every env of one VecEnv: the snapshot its current episode started
from, and the actions sent and rewards returned each tick since. When an episode ends it can become
a :class:`~osrs_rl.replay.Replay` at no re-simulation cost, because the tape holds exactly what a
replay is made of. :class:`TrainingReplays` keeps the highest-return episode so far (the shortest
among equal returns, as a sparse reward gives) and a uniform sample of the others (a reservoir per
sampling interval) and writes them to the run folder.

Training replays carry the reward components and, given an ``annotate`` function, the policy's view
(values, probabilities): both are derived by re-simulating the episode when it is written (the
rollout does not keep probabilities per env across iterations); ``osrs_rl.train.policy_view`` runs
the policy of the moment over it. Evaluation replays (``evaluate.save_replays``) record both as they play.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from osrs_rl.replay.annotate import with_reward_components
from osrs_rl.replay.file import Replay, save_replay
from osrs_rl.replay.record import state_digest, state_record
from osrs_rl.runtime.recording import user_settings

INITIAL_CAPACITY = 512       # ticks the tape holds before it grows (it doubles when an episode gets longer)
BEST_WRITE_INTERVAL = 30.0   # seconds: a new best is written at most this often (and at the end)


class EpisodeTape:
    """What each env of ``env`` did since its episode started. Call :meth:`record` after every step
    with the actions that step was given and which envs were autoreset by it.

    The actions and rewards of every env go into a ring of whole ticks (one contiguous copy per
    tick, whatever the number of envs); an env's episode is the ring's ticks from its start on.
    The ring doubles when the oldest running episode would be overwritten. Episode starts are kept
    as raw state records and become snapshots only when a replay is made.
    """

    def __init__(self, env):
        self.env = env
        spec = env.spec
        n = env.num_envs
        self.config = user_settings(env)
        self.records = self._rows().copy()                     # the state each episode started from
        self.actions = np.zeros((INITIAL_CAPACITY, n, spec.num_agents, spec.num_heads), dtype=np.int16)
        self.rewards = np.zeros((INITIAL_CAPACITY, n, spec.num_agents), dtype=np.float32)
        self.tick = 0                                          # ticks recorded so far
        self.start = np.zeros(n, dtype=np.int64)               # tape tick of each episode's first action
        self.returns = np.zeros(n, dtype=np.float64)           # agent 0's return so far

    def _rows(self) -> np.ndarray:
        return self.env.states.view(np.uint8).reshape(self.env.num_envs, -1)

    @property
    def capacity(self) -> int:
        return self.actions.shape[0]

    def record(self, actions: np.ndarray, rewards: np.ndarray, done: np.ndarray, was_reset: np.ndarray) -> list:
        """Add one tick. ``was_reset``: envs this step autoreset (their actions were ignored and their
        state is now a new episode's start). Returns a :class:`FinishedEpisode` per env whose episode
        ``done`` ends (its state record is the final one until the next step)."""
        spec = self.env.spec
        n = self.env.num_envs
        t = self.tick
        if t - self.start.min() >= self.capacity:
            self._grow()
        slot = t % self.capacity
        self.actions[slot] = np.asarray(actions).reshape(n, spec.num_agents, spec.num_heads)
        rewards = np.asarray(rewards, dtype=np.float32).reshape(n, spec.num_agents)
        self.rewards[slot] = rewards
        self.returns += np.where(was_reset, 0.0, rewards[:, 0])
        self.tick = t + 1
        finished = [FinishedEpisode(self, int(i)) for i in np.flatnonzero(done & ~was_reset)]
        if was_reset.any():
            reset = np.flatnonzero(was_reset)
            self.records[reset] = self._rows()[reset]
            self.start[reset] = t + 1
            self.returns[reset] = 0.0
        return finished

    def restart(self, ids) -> None:
        """Envs ``ids`` were set to other states right after the step that reset them (archive starts): their
        episodes start from those states instead."""
        ids = np.asarray(ids, dtype=np.int64)
        self.records[ids] = self._rows()[ids]

    def _grow(self) -> None:
        old, cap = self.capacity, 2 * self.capacity
        kept = np.arange(self.tick - old, self.tick)           # the ticks the ring holds, oldest first
        for name in ("actions", "rewards"):
            ring = getattr(self, name)
            grown = np.zeros((cap,) + ring.shape[1:], dtype=ring.dtype)
            grown[kept % cap] = ring[kept % old]
            setattr(self, name, grown)


class FinishedEpisode:
    """An episode that just ended in env ``index`` of a tape: its return, and a replay on demand
    (valid until that env steps again)."""

    def __init__(self, tape: EpisodeTape, index: int):
        self.tape, self.index = tape, index
        self.first = int(tape.start[index])
        self.ticks = tape.tick - self.first
        self.episode_return = float(tape.returns[index])

    def replay(self, terminated: bool, truncated: bool, meta: dict) -> Replay:
        tape, i = self.tape, self.index
        at = np.arange(self.first, self.first + self.ticks) % tape.capacity
        snapshot = tape.env.snapshot_of_record(tape.records[i].tobytes())
        return Replay(tape.env.spec.name, tape.env.spec.version, dict(tape.config), snapshot,
                      tape.actions[at, i].astype(np.int64), tape.rewards[at, i].copy(), terminated, truncated,
                      state_digest(state_record(tape.env, i)), meta=dict(meta))


class TrainingReplays:
    """Keeps the best training episode so far and samples others; :meth:`flush` writes them to
    ``folder`` (``best.orlr``, and ``sample-<step>.orlr``, the newest ``keep`` of them)."""

    def __init__(self, folder: Path, sample_every: float, keep: int, seed: int = 0, annotate=None):
        self.folder = Path(folder)
        self.annotate = annotate              # annotate(replay) -> replay, before each write
        self.sample_every = float(sample_every)
        self.keep = int(keep)
        self.rng = np.random.default_rng(seed)
        self.best_key = (-np.inf, 0)
        self.best: Replay | None = None
        self._best_dirty = False
        self._next_best = 0.0
        self.sample: Replay | None = None
        self._seen = 0                        # episodes offered since the last sample was written
        self._next_sample = time.monotonic() + self.sample_every

    def offer(self, episodes: list, terminated: np.ndarray, truncated: np.ndarray, meta) -> None:
        """Consider the episodes that just ended (``meta(index) -> dict`` describes one)."""
        for ep in episodes:
            i = ep.index
            key = (ep.episode_return, -ep.ticks)          # equal returns (a sparse reward): the shorter wins
            if key > self.best_key:
                self.best_key = key
                self.best = ep.replay(bool(terminated[i]), bool(truncated[i]), {**meta(i), "kind": "best"})
                self._best_dirty = True
            if self.keep == 0:
                continue
            self._seen += 1
            if self.rng.random() * self._seen < 1.0:    # reservoir of one: each episode equally likely
                self.sample = ep.replay(bool(terminated[i]), bool(truncated[i]), {**meta(i), "kind": "sample"})

    def flush(self, global_step: int, force: bool = False) -> list[Path]:
        """Write the best episode if it changed, and the sample when its interval is over (or ``force``)."""
        written = []
        now = time.monotonic()
        if self._best_dirty and self.best is not None and (force or now >= self._next_best):
            self.best.meta["global_step"] = int(global_step)
            written.append(save_replay(self.folder / "best.orlr", self._annotated(self.best)))
            self._best_dirty = False
            self._next_best = now + BEST_WRITE_INTERVAL
        if self.keep > 0 and self.sample is not None and (force or now >= self._next_sample):
            self.sample.meta["global_step"] = int(global_step)
            written.append(save_replay(self.folder / f"sample-{global_step:012d}.orlr",
                                       self._annotated(self.sample)))
            self.sample, self._seen = None, 0
            self._next_sample = time.monotonic() + self.sample_every
            for old in sorted(self.folder.glob("sample-*.orlr"))[:-self.keep]:
                old.unlink()
        return written

    def _annotated(self, replay: Replay) -> Replay:
        replay = with_reward_components(replay)
        return replay if self.annotate is None else self.annotate(replay)
