"""Shared material for the viewer, server and play tests: short annotated replays and a tiny checkpoint."""

import functools
from pathlib import Path

import numpy as np

from osrs_rl.replay import record_policy_episode, save_replay
from osrs_rl.runtime.checks import random_legal_actions

TICKS = 40


@functools.cache
def annotated_replay(name: str, seed: int):
    """A random-policy episode of ``name`` with a value, probabilities and reward components per tick."""
    rng = np.random.default_rng(seed)

    def act(env, obs, info):
        probs = [rng.dirichlet(np.ones(h.size)).astype(np.float32) for h in env.spec.action_heads]
        return random_legal_actions(env, rng), {"value": float(rng.normal()), "probs": probs,
                                                "reward_components": {"damage": float(rng.random()), "win": 0.0}}
    return record_policy_episode(name, {"max_ticks": TICKS}, act, seed=seed, meta={"policy": "random"})


def save_annotated(folder: Path, name: str, seed: int) -> Path:
    return save_replay(folder / f"{name}-{seed}.orlr", annotated_replay(name, seed))


def tiny_checkpoint(path: Path, encounter: str = "pvp") -> Path:
    """An untrained policy saved as ``osrs-rl train`` would save it (what ``load_policy`` reads)."""
    from osrs_rl.agent.checkpoint import save_checkpoint
    from osrs_rl.agent.config import load_config
    from osrs_rl.agent.policy import make_model, model_meta
    from osrs_rl.runtime.registry import get_spec

    cfg = load_config(encounter, overrides=["--model.hidden", "16", "--model.kind", "mlp"])
    spec = get_spec(encounter)
    model = make_model(cfg, spec)
    save_checkpoint(path, {"model": model.state_dict(), "config": cfg.to_dict()}, model_meta(cfg, spec))
    return path


@functools.cache
def inferno_replay(start_wave: int = 63, ticks: int = 12, seed: int = 0):
    """A short random-policy Inferno episode from ``start_wave`` (63: nibblers at a pillar, a blob, a meleer, a
    ranger and a mager on the floor at once), with the policy notes of ``annotated_replay``."""
    rng = np.random.default_rng(seed)

    def act(env, obs, info):
        probs = [rng.dirichlet(np.ones(h.size)).astype(np.float32) for h in env.spec.action_heads]
        return random_legal_actions(env, rng), {"value": float(rng.normal()), "probs": probs}
    config = {"start_wave": start_wave, "last_wave": start_wave, "max_ticks": ticks}
    return record_policy_episode("inferno", config, act, seed=seed, meta={"policy": "random"})
