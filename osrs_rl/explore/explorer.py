"""Exploration without training: restore selected cells and play on from them, adding what is found.

Each iteration resets every env, then restores a cell into all but a ``normal`` share of them (drawn by
``Archive.weights`` from all cells: exploration goes wherever is new), and plays ``ticks`` ticks with the
policy's sampled actions or with random legal ones; a :class:`~osrs_rl.explore.tracker.CellTracker`
offers every cell change to the archive. Episodes that end start again normally. ``osrs-rl archive build``
runs this; a training run with ``explore.enabled`` can start from the file it writes (``explore.archive``).
"""

from __future__ import annotations

import numpy as np
import torch

from osrs_rl.agent.policy import policy_actions
from osrs_rl.explore.archive import Archive
from osrs_rl.explore.tracker import CellTracker
from osrs_rl.runtime.checks import random_legal_actions


@torch.no_grad()
def explore(env, archive: Archive, iterations: int, ticks: int, model=None, normal: float = 0.1, seed: int = 0,
            reseed: bool = True, progress=None) -> dict:
    """Grow ``archive`` by ``iterations`` rounds of ``ticks`` ticks in every env of ``env`` (a VecEnv); actions
    from ``model`` (an ActorCritic, sampled) or random legal ones when None. ``progress(done, total)`` follows
    the rounds. Returns counts: cells before and after, env steps, episodes ended."""
    if iterations < 1 or ticks < 1:
        raise ValueError(f"iterations and ticks must be at least 1, got {iterations} and {ticks}")
    if not 0.0 <= normal <= 1.0:
        raise ValueError(f"the share of normal starts must lie in [0, 1], got {normal}")
    if model is not None and model.state_size != archive.hidden_size:
        raise ValueError(f"the archive keeps recurrent states of {archive.hidden_size} values; the policy's have "
                         f"{model.state_size}")
    spec = env.spec
    archive.check_states(env)                 # once, so that restores need not
    rng = np.random.default_rng(seed)
    generator = torch.Generator().manual_seed(seed)
    heads = tuple(int(h) for h in spec.head_sizes)
    state = model.initial_state(env.num_envs, "cpu") if model is not None else None
    tracker = CellTracker(env, archive, (lambda ids: state[torch.as_tensor(ids)].numpy()) if state is not None
                          else None)
    before, steps, ended = len(archive), 0, 0
    for it in range(iterations):
        obs, info = env.reset(seed=int(rng.integers(0, 2**63)))
        n = env.num_envs
        chosen = np.flatnonzero(rng.random(n) >= normal) if len(archive) else np.zeros(0, np.int64)
        rows = archive.select(rng, len(chosen), np.arange(len(archive)))
        hidden = None
        if len(rows):
            records, hidden = archive.starting_states(rows, rng if reseed else None)
            env.set_states(chosen, records, checked=True)     # the archive's records are checked
        tracker.started(np.setdiff1d(np.arange(n), chosen))
        tracker.started(chosen, cells=rows)
        first = torch.ones(n, dtype=torch.bool)
        if state is not None:
            state.zero_()
            if hidden is not None:
                state[torch.as_tensor(chosen)] = torch.from_numpy(hidden)
                first[torch.as_tensor(chosen)] = False
        info = {"action_mask": env.action_mask()}
        was_reset = np.zeros(n, dtype=np.bool_)
        for _ in range(ticks):
            if model is None:
                actions = random_legal_actions(env, rng)
            else:
                actions, state = policy_actions(model, obs, info, state, first, heads, spec.num_agents,
                                                greedy=False, generator=generator)
            obs, rewards, terminated, truncated, info = env.step(actions)
            done = terminated | truncated
            sent = np.asarray(actions).reshape(n, spec.num_agents, spec.num_heads)
            tracker.after_step(sent, np.asarray(rewards).reshape(n, -1)[:, 0], done, was_reset)
            if was_reset.any():
                tracker.started(np.flatnonzero(was_reset))
            first = torch.from_numpy(was_reset.copy())
            ended += int(done.sum())
            was_reset = done.copy()
            steps += n
        if progress is not None:
            progress(it + 1, iterations)
    return {"cells_before": before, "cells": len(archive), "steps": steps, "episodes_ended": ended}
