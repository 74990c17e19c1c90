"""Annotations derived by re-simulating a replay: for replays written without them (training replays,
older files), from the state records, which the re-simulation reproduces exactly."""

from __future__ import annotations

import numpy as np

from osrs_rl.replay.file import Replay
from osrs_rl.replay.verify import replay_steps, start_env
from osrs_rl.runtime.registry import get_spec
from osrs_rl.runtime.rewards import terms_of


def derive_reward_components(replay: Replay) -> dict[str, np.ndarray]:
    """Agent 0's reward per tick split into the encounter's named terms (``EncounterSpec.reward_terms``,
    read from the state after each tick; {} when it declares none)."""
    spec = get_spec(replay.encounter)
    if not spec.reward_terms:
        return {}
    env = start_env(replay)
    rows = [env.states[0:1].copy() for _ in replay_steps(replay, env)]
    terms = terms_of(spec, np.concatenate(rows)) if rows else np.zeros((0, len(spec.reward_terms)), np.float32)
    return {name: terms[:, k].copy() for k, name in enumerate(spec.reward_terms)}


def with_reward_components(replay: Replay) -> Replay:
    """``replay`` with its reward components filled in when it has none (changed in place, returned)."""
    if not replay.reward_components:
        replay.reward_components = derive_reward_components(replay)
    return replay
