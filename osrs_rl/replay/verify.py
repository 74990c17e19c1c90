"""Re-simulating a replay and proving it reproduces exactly (STYLE 34: a failure names the first
diverging tick and field).

Each tick compares, in this order: every agent's reward (bit for bit), ``terminated``, ``truncated``
(false before the last tick, the recorded flags on it) and, when the replay has them, the digest of
the state record; after the last tick, the sha256 of the final state record.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from osrs_rl.replay.file import Replay, ReplayError, check_compatible
from osrs_rl.replay.record import state_digest, state_record, tick_digest
from osrs_rl.runtime.registry import get_spec
from osrs_rl.runtime.snapshot import SnapshotError
from osrs_rl.runtime.vec_env import VecEnv


@dataclass
class VerifyResult:
    ok: bool
    encounter: str
    ticks: int
    tick: int | None = None        # the first diverging tick (0-based), or None
    field: str | None = None       # what diverged there: "reward[agent 0]", "terminated", "state", ...
    expected: object = None        # as recorded
    got: object = None             # as re-simulated

    def message(self) -> str:
        if self.ok:
            return f"OK: {self.encounter} replay of {self.ticks} ticks reproduces exactly"
        where = "after the last tick" if self.tick == self.ticks else f"at tick {self.tick} of {self.ticks}"
        return (f"DIVERGED {where}: {self.field} recorded {self.expected!r}, re-simulated {self.got!r} "
                f"({self.encounter})")


def start_env(replay: Replay) -> VecEnv:
    """A fresh 1-env VecEnv with the replay's config, holding its initial snapshot. Raises ReplayError
    when the replay cannot be re-simulated here."""
    check_compatible(replay)
    try:
        env = VecEnv(get_spec(replay.encounter), num_envs=1, seed=0, **replay.config)
        env.reset()
        env.restore(0, replay.initial_snapshot)
    except (SnapshotError, ValueError) as e:       # ConfigError is a ValueError
        raise ReplayError(f"cannot start the replay: {e}") from None
    return env


def replay_steps(replay: Replay, env: VecEnv) -> Iterator[tuple[int, tuple]]:
    """Step ``env`` (from ``start_env``) through the replay's actions: yields ``(t, env.step(...))``
    after each tick ``t``; the step's arrays are views that the next step overwrites."""
    spec = env.spec
    shape = (1, spec.num_heads) if env.single_agent else (1, spec.num_agents, spec.num_heads)
    for t in range(replay.ticks):
        try:
            out = env.step(replay.actions[t].reshape(shape))
        except ValueError as e:
            raise ReplayError(f"the action recorded at tick {t} is refused: {e}") from None
        yield t, out


def verify_replay(replay: Replay) -> VerifyResult:
    """Restore the replay's initial snapshot into a fresh 1-env VecEnv with its config, step its
    actions and compare what comes back. Raises ReplayError when it cannot be re-simulated at all."""
    env = start_env(replay)
    spec = env.spec
    result = VerifyResult(True, replay.encounter, replay.ticks)
    last = replay.ticks - 1
    for t, (_, rew, term, trunc, _) in replay_steps(replay, env):
        got_rew = np.asarray(rew[0], dtype=np.float32).reshape(spec.num_agents)
        for a in range(spec.num_agents):
            if got_rew[a].view(np.uint32) != replay.rewards[t, a].view(np.uint32):
                return _diverged(result, t, f"reward[agent {a}]", float(replay.rewards[t, a]), float(got_rew[a]))
        flags = (("terminated", replay.terminated, bool(term[0])), ("truncated", replay.truncated, bool(trunc[0])))
        for name, recorded, got in flags:
            expected = recorded if t == last else False
            if got != expected:
                return _diverged(result, t, name, expected, got)
        if replay.state_hashes is not None:
            digest = tick_digest(state_record(env))
            if digest != int(replay.state_hashes[t]):
                return _diverged(result, t, "state (record digest)", f"{int(replay.state_hashes[t]):016x}",
                                 f"{digest:016x}")
    final = state_digest(state_record(env))
    if final != replay.final_state_hash:
        return _diverged(result, replay.ticks, "final state (sha256)", replay.final_state_hash, final)
    return result


def _diverged(result: VerifyResult, tick: int, field: str, expected, got) -> VerifyResult:
    result.ok, result.tick, result.field, result.expected, result.got = False, tick, field, expected, got
    return result
