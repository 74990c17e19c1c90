"""PPO losses as small pure functions of tensors (Schulman et al. 2017, arXiv:1707.06347).

Every loss takes two optional tensors, broadcastable to its input:
  ``valid``    bool; False entries (reset steps whose action was ignored) count for nothing, and the
               mean is over the valid entries only;
  ``weights``  per-sample importance weights (prioritized segments); they scale each entry, and the
               mean is still over the number of valid entries, as in prioritized replay, so weights
               below 1 shrink the step rather than being renormalised away.
Diagnostics (approx_kl, clip_fraction) are unweighted means over valid entries, detached.
"""

from __future__ import annotations

from typing import NamedTuple

import torch
from torch import Tensor


def masked_mean(x: Tensor, valid: Tensor | None = None, weights: Tensor | None = None) -> Tensor:
    """sum(weights * x over valid entries) / number of valid entries; 0 when none is valid.

    >>> masked_mean(torch.tensor([1.0, 2.0, 9.0]), valid=torch.tensor([True, True, False]))
    tensor(1.5000)
    """
    if weights is not None:
        x = x * weights
    if valid is None:
        return x.mean()
    valid = torch.broadcast_to(valid, x.shape)
    return torch.where(valid, x, torch.zeros((), dtype=x.dtype, device=x.device)).sum() / valid.sum().clamp(min=1)


class PolicyLoss(NamedTuple):
    loss: Tensor            # the clipped surrogate, to minimise
    approx_kl: Tensor       # mean((r - 1) - log r), the low-variance KL(old || new) estimator
    clip_fraction: Tensor   # share of valid entries with |r - 1| > clip_coef


def policy_loss(new_logprob: Tensor, old_logprob: Tensor, advantages: Tensor, clip_coef: float,
                weights: Tensor | None = None, valid: Tensor | None = None) -> PolicyLoss:
    """PPO's clipped surrogate: mean of max(-A r, -A clip(r, 1 - eps, 1 + eps)), r = exp(new - old).

    >>> out = policy_loss(torch.log(torch.tensor([1.5, 0.5])), torch.zeros(2), torch.tensor([1.0, -1.0]), 0.2)
    >>> print(round(out.loss.item(), 4), out.clip_fraction.item())   # (-1.2 + 0.8) / 2: both ratios clipped
    -0.2 1.0
    """
    logratio = new_logprob - old_logprob
    ratio = logratio.exp()
    unclipped = -advantages * ratio
    clipped = -advantages * ratio.clamp(1.0 - clip_coef, 1.0 + clip_coef)
    loss = masked_mean(torch.maximum(unclipped, clipped), valid, weights)
    with torch.no_grad():
        approx_kl = masked_mean((ratio - 1.0) - logratio, valid)
        clip_fraction = masked_mean(((ratio - 1.0).abs() > clip_coef).to(ratio.dtype), valid)
    return PolicyLoss(loss, approx_kl, clip_fraction)


def value_loss(new_value: Tensor, old_value: Tensor, returns: Tensor, clip_coef: float | None = None,
               weights: Tensor | None = None, valid: Tensor | None = None) -> Tensor:
    """0.5 * mean((V - R)^2); with ``clip_coef``, 0.5 * mean(max((V - R)^2, (V_clip - R)^2)) where
    V_clip = V_old + clip(V - V_old, -clip_coef, clip_coef), the PPO2 value clipping.

    >>> value_loss(torch.tensor([2.0]), torch.tensor([0.0]), torch.tensor([0.0]), clip_coef=0.5)
    tensor(2.)
    """
    loss = (new_value - returns).square()
    if clip_coef is not None:
        clipped_value = old_value + (new_value - old_value).clamp(-clip_coef, clip_coef)
        loss = torch.maximum(loss, (clipped_value - returns).square())
    return 0.5 * masked_mean(loss, valid, weights)


def mean_entropy(entropy: Tensor, valid: Tensor | None = None) -> Tensor:
    """Mean policy entropy over valid entries (the bonus the total loss subtracts, times its coefficient)."""
    return masked_mean(entropy, valid)


def normalize_advantages(advantages: Tensor, valid: Tensor | None = None, eps: float = 1e-8) -> Tensor:
    """(A - mean) / (std + eps) with mean and (population) std over the valid entries; invalid entries
    come back 0, so they stay inert even in code that forgets the mask.

    >>> normalize_advantages(torch.tensor([1.0, 3.0, 100.0]), torch.tensor([True, True, False]))
    tensor([-1.,  1.,  0.])
    """
    if valid is None:
        return (advantages - advantages.mean()) / (advantages.std(correction=0) + eps)
    valid = torch.broadcast_to(valid, advantages.shape)
    zero = torch.zeros((), dtype=advantages.dtype, device=advantages.device)
    mean = masked_mean(advantages, valid)
    std = masked_mean((advantages - mean).square(), valid).sqrt()
    return torch.where(valid, (advantages - mean) / (std + eps), zero)
