"""Batched kernels: one compiled call steps every env of a VecEnv.

The encounter's own kernels arrive as arguments (Numba specialises these generic loops once per
encounter), so no encounter writes a loop over envs. Each env's randomness lives in its record,
so the serial and the ``prange`` versions give identical results whatever the thread count.

Order inside ``step_all`` for env i (Gymnasium's next-step autoreset):
  1. if the env finished on the previous call: reset it with a seed drawn from its own RNG (so the
     state record alone decides every later episode), reward 0, not terminated, not truncated
     (the actions given are ignored);
  2. else: replace masked actions by 0 (counted), call the encounter's step; if the episode ended,
     write its metrics and phase into row i of the finished-episode buffers and mark it;
  3. observe and mask into row i of the output buffers.
"""

import numpy as np
from numba import njit, prange

from osrs_rl.core.rng import mix64, next_u64

_EPISODE_STRIDE = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True)
def episode_seed(base_seed, env_index, episode):
    """The seed ``reset(seed)`` gives env ``env_index`` (``episode`` counts explicit resets)."""
    return mix64(np.uint64(base_seed) ^ mix64(np.uint64(env_index) * _EPISODE_STRIDE + np.uint64(episode)))


@njit(cache=True)
def sanitize_actions(actions, mask, head_sizes):
    """Set each masked (illegal) action to 0, the no-op; return how many were replaced."""
    bad = 0
    for a in range(actions.shape[0]):
        offset = 0
        for h in range(head_sizes.shape[0]):
            v = actions[a, h]
            if not mask[a, offset + v]:
                actions[a, h] = 0
                bad += 1
            offset += head_sizes[h]
    return bad


@njit(cache=True)
def _one_env(i, reset_fn, step_fn, observe_fn, mask_fn, metrics_fn, states, configs, base_seed, episodes,
             needs_reset, actions, head_sizes, rewards, terminated, truncated, obs, masks, invalid,
             finished, finished_metrics, finished_phase):
    state = states[i]
    config = configs[0]      # a one-element array: Numba's parallel loops cannot take records by value
    finished[i] = False
    if needs_reset[i]:
        episodes[i] += 1
        reset_fn(state, config, next_u64(state.rng))
        needs_reset[i] = False
        rewards[i, :] = 0.0
        terminated[i] = False
        truncated[i] = False
        invalid[i] = 0
    else:
        invalid[i] = sanitize_actions(actions[i], masks[i], head_sizes)
        term, trunc = step_fn(state, config, actions[i], rewards[i])
        terminated[i] = term
        truncated[i] = trunc
        if term or trunc:
            finished_phase[i] = metrics_fn(state, config, finished_metrics[i])
            finished[i] = True
            needs_reset[i] = True
    observe_fn(state, config, obs[i])
    mask_fn(state, config, masks[i])


@njit(cache=True)
def step_all(reset_fn, step_fn, observe_fn, mask_fn, metrics_fn, states, configs, base_seed, episodes,
             needs_reset, actions, head_sizes, rewards, terminated, truncated, obs, masks, invalid,
             finished, finished_metrics, finished_phase):
    for i in range(states.shape[0]):
        _one_env(i, reset_fn, step_fn, observe_fn, mask_fn, metrics_fn, states, configs, base_seed, episodes,
                 needs_reset, actions, head_sizes, rewards, terminated, truncated, obs, masks, invalid,
                 finished, finished_metrics, finished_phase)


@njit(cache=True, parallel=True)
def step_all_parallel(reset_fn, step_fn, observe_fn, mask_fn, metrics_fn, states, configs, base_seed, episodes,
                      needs_reset, actions, head_sizes, rewards, terminated, truncated, obs, masks, invalid,
                      finished, finished_metrics, finished_phase):
    for i in prange(states.shape[0]):
        _one_env(i, reset_fn, step_fn, observe_fn, mask_fn, metrics_fn, states, configs, base_seed, episodes,
                 needs_reset, actions, head_sizes, rewards, terminated, truncated, obs, masks, invalid,
                 finished, finished_metrics, finished_phase)


@njit(cache=True)
def reset_envs(reset_fn, observe_fn, mask_fn, states, configs, base_seed, episodes, needs_reset, indices,
               obs, masks):
    """Start a new episode in each env of ``indices`` and refresh its observation and mask."""
    config = configs[0]
    for k in range(indices.shape[0]):
        i = indices[k]
        episodes[i] += 1
        reset_fn(states[i], config, episode_seed(base_seed, i, episodes[i]))
        needs_reset[i] = False
        observe_fn(states[i], config, obs[i])
        mask_fn(states[i], config, masks[i])


@njit(cache=True)
def refresh_envs(observe_fn, mask_fn, states, configs, indices, obs, masks):
    """Recompute observation and mask of ``indices`` (after a restore)."""
    config = configs[0]
    for k in range(indices.shape[0]):
        i = indices[k]
        observe_fn(states[i], config, obs[i])
        mask_fn(states[i], config, masks[i])
