"""Advantages and returns for PPO (GAE with V-trace clipping), and prioritized segment sampling
(``ppo.priority_alpha`` > 0; unmeasured: no preset uses it and no ablation in docs/results measures it).

Storage contract. Rollout arrays are [T, B] (time, env). The runtime autoresets in Gymnasium's
next-step mode: the step that ends an episode returns the final observation with terminated or
truncated set; the next step resets that env, ignores its action and returns reward 0 and the first
observation. So for each t:

    value[t]        V(obs[t])
    reward[t]       reward after acting at t
    terminated[t]   the episode ended at t in a terminal state: nothing to bootstrap
    truncated[t]    the episode was cut at t (time limit): bootstrap from V(final obs), unless
                    ``bootstrap_truncation`` is off, which counts it as terminated
    valid[t]        False on a reset step, whose action was ignored: no advantage, no loss
    ratio[t]        pi_new(a_t) / pi_behaviour(a_t); all ones (or None) when on-policy
    bootstrap_value V(obs[T]), one per env

After a truncation at t, value[t + 1] is V(final obs) (the reset step's observation is the final one),
which is exactly the bootstrap a truncation needs; after a termination it is multiplied by 0. The
recursion never crosses a done boundary, so the reset step's own numbers never leak into the
episode before it.

The recursion (GAE, Schulman et al. 2016, arXiv:1506.02438, with the importance clipping of V-trace,
Espeholt et al. 2018, arXiv:1802.01561):

    rho_t   = min(rho_clip, ratio_t)        c_t = min(c_clip, ratio_t)
    delta_t = rho_t * (r_t + gamma * V_{t+1} * (1 - terminated_t) - V_t)
    A_t     = delta_t + gamma * lam * c_t * (1 - done_t) * A_{t+1}        done = terminated | truncated
    A_t     = 0 where not valid;   returns = A + V

With ratio all ones and both clips at least 1 this is plain GAE, bit for bit.

``bootstrap_truncation=False`` reads ``terminated | truncated`` as ``terminated``: no bootstrap at the
time limit. That is right when the limit is part of the task: the observation shows the time left
and the limit carries an outcome reward (Pardo et al. 2018, arXiv:1712.00378). V(final obs) is never
a regression target (its reset step is invalid), so bootstrapping from it there feeds the value its
own extrapolation.
"""

from __future__ import annotations

import numpy as np
import torch
from numba import njit

# ---- GAE with V-trace clipping ---------------------------------------------------------------------------------------


@njit(cache=True)
def _gae_kernel(reward, value, terminated, truncated, valid, bootstrap_value, ratio, gamma, lam, rho_clip, c_clip,
                advantages, returns):
    """Backward loop over time, envs in the inner loop (rows are contiguous). The carry A_{t+1} is read
    back from ``advantages[t + 1]``, so nothing is allocated."""
    T, B = reward.shape
    for t in range(T - 1, -1, -1):
        for b in range(B):
            if not valid[t, b]:
                advantages[t, b] = 0.0
                returns[t, b] = value[t, b]
                continue
            next_value = bootstrap_value[b] if t == T - 1 else value[t + 1, b]
            next_advantage = 0.0 if t == T - 1 else advantages[t + 1, b]
            not_terminal = 0.0 if terminated[t, b] else 1.0
            not_done = 0.0 if (terminated[t, b] or truncated[t, b]) else 1.0
            rho = min(rho_clip, ratio[t, b])
            c = min(c_clip, ratio[t, b])
            delta = rho * (reward[t, b] + gamma * next_value * not_terminal - value[t, b])
            a = delta + gamma * lam * c * not_done * next_advantage
            advantages[t, b] = a
            returns[t, b] = a + value[t, b]


def _as_numpy(x, name: str, dtype, shape: tuple[int, ...]) -> np.ndarray:
    if isinstance(x, torch.Tensor):
        x = x.detach().cpu().numpy()
    arr = np.ascontiguousarray(x, dtype=dtype)
    if arr.shape != shape:
        raise ValueError(f"{name} must have shape {shape} (like reward), got {arr.shape}")
    return arr


def compute_advantages(reward, value, terminated, truncated, valid, bootstrap_value, gamma: float, lam: float,
                       ratio=None, rho_clip: float = 1.0, c_clip: float = 1.0, bootstrap_truncation: bool = True):
    """GAE advantages and returns (advantages + values) for a rollout; see the module docstring.

    Takes NumPy arrays or torch tensors ([T, B]; bootstrap_value [B]). Computes on the CPU in float32
    and returns the same kind it was given: torch tensors on ``reward``'s device, else NumPy arrays.

    >>> reward = np.array([[1.0], [1.0]], dtype=np.float32)
    >>> value = np.array([[0.5], [0.5]], dtype=np.float32)
    >>> no = np.zeros((2, 1), dtype=bool)
    >>> adv, ret = compute_advantages(reward, value, no, no, ~no, np.array([0.5]), gamma=0.9, lam=0.5)
    >>> print(adv[:, 0].round(4), ret[:, 0].round(4))
    [1.3775 0.95  ] [1.8775 1.45  ]
    """
    is_torch = isinstance(reward, torch.Tensor)
    device = reward.device if is_torch else None
    r = _as_numpy(reward, "reward", np.float32, tuple(reward.shape))
    if r.ndim != 2:
        raise ValueError(f"reward must be [T, B], got shape {r.shape}")
    shape = r.shape
    v = _as_numpy(value, "value", np.float32, shape)
    term = _as_numpy(terminated, "terminated", np.bool_, shape)
    trunc = _as_numpy(truncated, "truncated", np.bool_, shape)
    if not bootstrap_truncation:
        term = term | trunc
    ok = _as_numpy(valid, "valid", np.bool_, shape)
    boot = _as_numpy(bootstrap_value, "bootstrap_value", np.float32, shape[1:])
    # on-policy: ratio 1 everywhere, so rho = min(rho_clip, 1) and c = min(c_clip, 1)
    rat = np.ones(shape, np.float32) if ratio is None else _as_numpy(ratio, "ratio", np.float32, shape)
    advantages = np.empty(shape, np.float32)
    returns = np.empty(shape, np.float32)
    _gae_kernel(r, v, term, trunc, ok, boot, rat, float(gamma), float(lam), float(rho_clip), float(c_clip),
                advantages, returns)
    if is_torch:
        return torch.from_numpy(advantages).to(device), torch.from_numpy(returns).to(device)
    return advantages, returns


# ---- prioritized segment sampling ------------------------------------------------------------------------------------

PRIORITY_EPS = 1e-6   # keeps a segment with all-zero advantages drawable when alpha > 0


def segment_priorities(advantages, alpha: float, valid=None) -> np.ndarray:
    """Sampling probability of each env column: mean |A| over its valid steps, to the power alpha,
    normalised to sum to 1. alpha = 0 gives the uniform distribution."""
    adv = np.abs(_as_numpy(advantages, "advantages", np.float64, tuple(advantages.shape)))
    if adv.ndim != 2:
        raise ValueError(f"advantages must be [T, B], got shape {adv.shape}")
    if valid is None:
        mean_abs = adv.mean(axis=0)
    else:
        ok = _as_numpy(valid, "valid", np.bool_, adv.shape)
        mean_abs = (adv * ok).sum(axis=0) / np.maximum(ok.sum(axis=0), 1)
    priority = (mean_abs + PRIORITY_EPS) ** alpha
    return priority / priority.sum()


def sample_segments(advantages, num_segments: int, alpha: float, beta: float, generator: np.random.Generator,
                    valid=None):
    """Draw ``num_segments`` whole env columns (with replacement, as in prioritized replay, Schaul et al.
    2016, arXiv:1511.05952) with probability p_i proportional to mean|A_i|^alpha. Unmeasured: no preset
    sets ``ppo.priority_alpha`` above 0 and no ablation in docs/results measures it.

    Returns (indices [num_segments] int64, weights [num_segments] float32), where weights are the
    importance weights (B * p_i)^-beta divided by their maximum, to multiply per-sample losses by.
    Torch in, torch out (on the advantages' device); NumPy otherwise.

    >>> adv = np.array([[0.0, 1.0, 3.0]], dtype=np.float32)
    >>> idx, w = sample_segments(adv, 4, alpha=1.0, beta=1.0, generator=np.random.default_rng(0))
    >>> print(idx, w.round(3))   # p = (0, 1/4, 3/4): weights (3 p)^-1 = (-, 4/3, 4/9), over their max 4/3
    [2 2 1 1] [0.333 0.333 1.    1.   ]
    """
    if not isinstance(generator, np.random.Generator):
        raise TypeError(f"generator must be a numpy.random.Generator, got {type(generator).__name__}")
    p = segment_priorities(advantages, alpha, valid)
    num_envs = p.shape[0]
    indices = generator.choice(num_envs, size=num_segments, replace=True, p=p)
    weights = (num_envs * p[indices]) ** -beta
    weights = (weights / weights.max()).astype(np.float32)
    if isinstance(advantages, torch.Tensor):
        device = advantages.device
        return torch.from_numpy(indices).to(device), torch.from_numpy(weights).to(device)
    return indices.astype(np.int64), weights


def anneal_beta(beta0: float, progress: float) -> float:
    """Importance-weight exponent at ``progress`` in [0, 1] of training: linear from beta0 to 1, so the
    correction is full by the end, when unbiased updates matter most (Schaul et al. 2016, section 3.4).

    >>> anneal_beta(0.4, 0.0), anneal_beta(0.4, 0.5), anneal_beta(0.4, 2.0)
    (0.4, 0.7, 1.0)
    """
    progress = min(max(progress, 0.0), 1.0)
    return beta0 + (1.0 - beta0) * progress
