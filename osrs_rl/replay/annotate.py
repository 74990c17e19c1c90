"""Annotations derived by re-simulating a replay: for replays written without them (training replays,
older files), from the state records, which the re-simulation reproduces exactly."""

from __future__ import annotations

import numpy as np

from osrs_rl.replay.file import Replay
from osrs_rl.replay.verify import replay_steps, start_env
from osrs_rl.runtime.registry import get_spec


def derive_reward_components(replay: Replay) -> dict[str, np.ndarray]:
    """Agent 0's reward per tick split into the encounter's named terms ({} when it declares none)."""
    fn = get_spec(replay.encounter).reward_components
    if fn is None:
        return {}
    env = start_env(replay)
    rows = []
    before = env.states[0].copy()
    for _ in replay_steps(replay, env):
        rows.append(fn(before, env.states[0], env.config[0]))
        before = env.states[0].copy()
    names = list(rows[0]) if rows else []
    return {k: np.array([r[k] for r in rows], dtype=np.float32) for k in names}


def with_reward_components(replay: Replay) -> Replay:
    """``replay`` with its reward components filled in when it has none (changed in place, returned)."""
    if not replay.reward_components:
        replay.reward_components = derive_reward_components(replay)
    return replay
