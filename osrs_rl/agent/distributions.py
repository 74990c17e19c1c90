"""Action distribution for an encounter's heads: one categorical per head, each under its legality mask.

The flat layout is the runtime's: logits and mask are ``[..., sum(head_sizes)]``, head ``h`` owning
the columns after heads ``0..h-1``. Internally the heads are gathered into a padded block (pad slots
count as masked), so every method is a handful of batched tensor ops whatever the number of heads,
with no Python loop per head.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import torch
from numba import njit

MASKED_LOGIT = -1e9
"""Logit given to illegal options. Finite on purpose: its softmax weight underflows to exactly 0 in
float32, while ``0 * MASKED_LOGIT`` stays 0 where ``0 * -inf`` would be NaN (in the entropy and in
every backward pass)."""


@lru_cache(maxsize=64)
def _padded_layout(head_sizes: tuple[int, ...], device: torch.device) -> tuple[torch.Tensor, torch.Tensor]:
    """Gather index ``[M * H]`` from the slot-major padded block ``[M, H]`` into the flat columns extended
    by one pad column (index ``sum(head_sizes)``), and ``[M, H, 1]`` True where a slot is real.

    Pad slots point at the pad column, which holds False in a mask and 0 in the logits (masked out).
    """
    width, total = max(head_sizes), sum(head_sizes)
    index = torch.full((width, len(head_sizes)), total, dtype=torch.int64)
    start = 0
    for h, size in enumerate(head_sizes):
        index[:size, h] = torch.arange(start, start + size)
        start += size
    return index.reshape(-1).to(device), (index < total).unsqueeze(-1).to(device)


class MaskedMultiCategorical:
    """Independent categoricals, one per action head, with illegal options given probability 0.

    Args:
        logits: float ``[..., sum(head_sizes)]``, unnormalised.
        mask: bool ``[..., sum(head_sizes)]``, True = legal; ``None`` = everything legal. A head with no
            legal option falls back to option 0 (the no-op the runtime guarantees), so every head
            always has something to sample.
        head_sizes: options per head, in the flat layout's order.

    Attributes:
        log_probs: normalised log-probabilities ``[..., H, M]`` (``M`` = largest head); illegal and
            pad slots hold a very negative finite number.
        legal: bool ``[..., H, M]``, the mask after padding and the option-0 fallback.

    Example: head 0 has options 1 and 2 legal, head 1 has both legal, all equally likely, so each
    head is a fair coin and the entropy is ``2 ln 2``; the masked option 0 of head 0 adds nothing:

    >>> d = MaskedMultiCategorical(torch.tensor([5.0, 1.0, 1.0, 0.0, 0.0]),
    ...                            torch.tensor([False, True, True, True, True]), (3, 2))
    >>> d.mode().tolist(), round(d.entropy().item(), 4), d.log_prob(torch.tensor([2, 1])).exp().item()
    ([1, 0], 1.3863, 0.25)
    """

    def __init__(self, logits: torch.Tensor, mask: torch.Tensor | None, head_sizes: Sequence[int]):
        self.head_sizes = tuple(int(s) for s in head_sizes)
        total = sum(self.head_sizes)
        if not self.head_sizes or min(self.head_sizes) < 1:
            raise ValueError(f"head_sizes must be one or more positive sizes, got {self.head_sizes}")
        if logits.shape[-1] != total:
            raise ValueError(f"logits has {logits.shape[-1]} columns in shape {tuple(logits.shape)}, "
                             f"but head_sizes {self.head_sizes} sum to {total}")
        if mask is not None and mask.shape != logits.shape:
            raise ValueError(f"mask shape {tuple(mask.shape)} differs from logits shape {tuple(logits.shape)}")
        if logits.dtype in (torch.float16, torch.bfloat16):
            logits = logits.float()             # MASKED_LOGIT overflows float16; softmax wants float32 anyway
        slots, valid = _padded_layout(self.head_sizes, logits.device)
        self._batch = tuple(logits.shape[:-1])
        # Internally slot-major with the batch innermost, [M, H, N]: the softmax over a head's few
        # options is then a handful of vectorised passes over N instead of N * H tiny reductions
        # (several times faster on a CPU).
        n = logits[..., 0].numel()
        shape = (valid.shape[0], valid.shape[1], n)
        if mask is None:
            legal = valid.expand(shape).clone()
        else:
            flat = mask.reshape(n, total).t()
            legal = torch.cat([flat, flat.new_zeros(1, n)]).index_select(0, slots).view(shape)
        # A head with nothing legal keeps option 0: the runtime's no-op is always a valid answer.
        legal[0] |= ~legal.any(0)
        self._legal = legal
        flat_logits = logits.reshape(n, total).t()
        padded = torch.cat([flat_logits, flat_logits.new_zeros(1, n)]).index_select(0, slots).view(shape)
        # where, not a multiply by the mask: an illegal option's logit may be anything, even infinite
        self._log_probs = torch.log_softmax(torch.where(legal, padded, MASKED_LOGIT), dim=0)
        # The mask as 0/1 floats for the log-probabilities, which are finite at illegal slots: a multiply
        # is several times cheaper than masked_fill or where on a CPU, and exact (x * 1 = x, x * 0 = 0).
        self._keep = legal.to(self._log_probs.dtype)
        self._probs_cache: tuple[torch.Tensor, torch.Tensor] | None = None

    def _probs(self) -> tuple[torch.Tensor, torch.Tensor]:
        """(probabilities ``[M, H, N]``, exactly 0 at illegal and pad slots; the log-probabilities with those
        slots set to 0). The same numbers as ``exp(log_probs)``, whose MASKED_LOGIT-scale inputs underflow
        to 0 anyway, but ``exp`` of such inputs takes a slow path in the CPU's vector code (several times
        slower than the whole rest of the method), so illegal slots are zeroed before the exp."""
        if self._probs_cache is None:
            z = self._log_probs * self._keep
            self._probs_cache = (z.exp() * self._keep, z)
        return self._probs_cache

    def _out(self, x: torch.Tensor) -> torch.Tensor:
        """[H, N] (internal) -> [..., H]."""
        return x.t().reshape(*self._batch, x.shape[0])

    @property
    def log_probs(self) -> torch.Tensor:
        """Normalised log-probabilities ``[..., H, M]``; illegal and pad slots hold MASKED_LOGIT-scale values."""
        M, H, _ = self._log_probs.shape
        return self._log_probs.permute(2, 1, 0).reshape(*self._batch, H, M)

    @property
    def legal(self) -> torch.Tensor:
        """bool ``[..., H, M]``: the mask after padding and the option-0 fallback."""
        M, H, _ = self._legal.shape
        return self._legal.permute(2, 1, 0).reshape(*self._batch, H, M)

    @property
    def num_heads(self) -> int:
        return len(self.head_sizes)

    def sample(self, generator: torch.Generator | None = None) -> torch.Tensor:
        """One option per head: int64 ``[..., H]``.

        Inverse-CDF sampling over each head's options: with u uniform in [0, total), the pick is the
        number of options whose cumulative probability is <= u. An illegal option has probability
        exactly 0 (its MASKED_LOGIT underflows), so the cumulative sum does not rise there and no u
        can land on it. One uniform per head and env; the sums run over the outer dimension, which
        is vectorised (an argmax over Gumbel noise there was several times slower on a CPU).
        """
        # the scan runs over the last, contiguous dimension: the same sums, in the same order, as a
        # cumsum over dim 0, at a fraction of the cost on a CPU
        cdf = self._probs()[0].permute(1, 2, 0).contiguous().cumsum(-1)
        u = torch.rand(cdf.shape[:-1], generator=generator, device=cdf.device, dtype=cdf.dtype) * cdf[..., -1]
        return self._out((cdf <= u.unsqueeze(-1)).sum(-1))

    def mode(self) -> torch.Tensor:
        """The most likely legal option per head: int64 ``[..., H]``."""
        return self._out(self._log_probs.masked_fill(~self._legal, -torch.inf).argmax(0))

    def log_prob_per_head(self, actions: torch.Tensor) -> torch.Tensor:
        """Log-probability of ``actions`` (int ``[..., H]``) per head: ``[..., H]``.

        An illegal action gets a hugely negative (finite) value: the runtime never takes one, since
        it turns masked choices into option 0 before they are stored.
        """
        if actions.shape[-1] != self.num_heads:
            raise ValueError(f"actions has {actions.shape[-1]} columns in shape {tuple(actions.shape)}, "
                             f"expected one per head ({self.num_heads})")
        a = actions.reshape(-1, self.num_heads).t().unsqueeze(0)
        return self._out(self._log_probs.gather(0, a).squeeze(0))

    def log_prob(self, actions: torch.Tensor) -> torch.Tensor:
        """Joint log-probability ``[...]`` of ``actions[..., H]``: the sum over heads."""
        return self.log_prob_per_head(actions).sum(-1)

    def entropy_per_head(self) -> torch.Tensor:
        """Entropy of each head's distribution over its legal options: ``[..., H]``."""
        p, z = self._probs()
        return self._out(-(p * z).sum(0))

    def entropy(self) -> torch.Tensor:
        """Joint entropy ``[...]``: the heads are independent, so it is the sum over heads."""
        return self.entropy_per_head().sum(-1)


# ---- the rollout's sampler on a CPU -------------------------------------------------------------

@njit(cache=True, nogil=True)
def _sample_rows(logits, mask, offsets, u, action, logprob):
    """Per row and head: the masked softmax, an inverse-CDF pick with ``u[h, n]`` and its log-probability.

    The same distribution as :class:`MaskedMultiCategorical` (illegal options get probability 0; a head
    with nothing legal takes option 0 with probability 1), in one pass over the ``sum(head_sizes)``
    columns instead of a few dozen tensor operations over the padded block: at a rollout's batch of a
    few hundred envs those operations cost more in dispatch than in arithmetic.
    """
    weight = np.empty(logits.shape[1])       # exp(logit - max) of the current head's legal options
    for n in range(logits.shape[0]):
        total = 0.0
        for h in range(offsets.shape[0] - 1):
            a0, a1 = offsets[h], offsets[h + 1]
            top = -np.inf
            for j in range(a0, a1):
                if mask[n, j] and logits[n, j] > top:
                    top = logits[n, j]
            if top == -np.inf:          # nothing legal: the runtime's no-op, with certainty
                action[n, h] = 0
                continue
            norm = 0.0
            for j in range(a0, a1):
                w = np.exp(np.float64(logits[n, j]) - top) if mask[n, j] else 0.0
                weight[j] = w
                norm += w
            target = np.float64(u[h, n]) * norm
            pick, seen = a1 - 1, 0.0
            for j in range(a0, a1):
                seen += weight[j]
                if target < seen:
                    pick = j
                    break
            while weight[pick] == 0.0:  # float rounding left the target past the end: the last legal one
                pick -= 1
            action[n, h] = pick - a0
            total += np.float64(logits[n, pick]) - top - np.log(norm)
        logprob[n] = total


@lru_cache(maxsize=64)
def _offsets(head_sizes: tuple[int, ...]) -> np.ndarray:
    return np.concatenate([[0], np.cumsum(head_sizes)]).astype(np.int64)


def sample_with_log_prob(logits: torch.Tensor, mask: torch.Tensor | None, head_sizes: Sequence[int],
                         generator: torch.Generator | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """``(actions [N, H] int64, joint log-probabilities [N] float32)`` sampled from
    ``MaskedMultiCategorical(logits [N, A], mask, head_sizes)``: what a rollout needs per tick.

    On a CPU a compiled loop does it (one uniform per head and row from ``generator``, drawn ``[H, N]``
    as :meth:`MaskedMultiCategorical.sample` draws them); elsewhere the distribution's own methods.
    The two agree in distribution, and the log-probability agrees with ``log_prob`` to float32
    rounding, but not bit for bit (their sums run in a different order).
    """
    heads = tuple(int(s) for s in head_sizes)
    if logits.device.type != "cpu" or logits.dim() != 2:
        dist = MaskedMultiCategorical(logits, mask, heads)
        action = dist.sample(generator)
        return action, dist.log_prob(action).float()
    if logits.shape[-1] != sum(heads):
        raise ValueError(f"logits has {logits.shape[-1]} columns, but head_sizes {heads} sum to {sum(heads)}")
    n = logits.shape[0]
    flat = logits.detach().float().contiguous().numpy()
    legal = (np.ones(flat.shape, dtype=np.bool_) if mask is None
             else np.ascontiguousarray(mask.detach().numpy(), dtype=np.bool_))
    if legal.shape != flat.shape:
        raise ValueError(f"mask shape {tuple(legal.shape)} differs from logits shape {tuple(flat.shape)}")
    u = torch.rand((len(heads), n), generator=generator, dtype=torch.float32).numpy()
    action = np.empty((n, len(heads)), dtype=np.int64)
    logprob = np.empty(n, dtype=np.float32)
    _sample_rows(flat, legal, _offsets(heads), u, action, logprob)
    return torch.from_numpy(action), torch.from_numpy(logprob)


# ---- the update's log-probabilities and entropies ------------------------------------------------

@lru_cache(maxsize=64)
def _flat_layout(head_sizes: tuple[int, ...], device: torch.device) -> tuple[torch.Tensor, ...]:
    """(head of each flat column ``[A]``, first column of each head ``[H]``, one-hot ``[A, H]`` float)."""
    head = torch.repeat_interleave(torch.arange(len(head_sizes)), torch.tensor(head_sizes))
    first = torch.tensor((0, *head_sizes[:-1])).cumsum(0)
    onehot = torch.nn.functional.one_hot(head, len(head_sizes)).float()
    return head.to(device), first.to(device), onehot.to(device)


def log_prob_and_entropy(logits: torch.Tensor, mask: torch.Tensor | None, actions: torch.Tensor,
                         head_sizes: Sequence[int]) -> tuple[torch.Tensor, torch.Tensor]:
    """``(log_prob(actions), entropy())`` of ``MaskedMultiCategorical(logits, mask, head_sizes)``, both
    ``[...]``, differentiable: what a PPO update needs.

    The same numbers (to float32 rounding) from the flat ``[..., sum(head_sizes)]`` layout, without the
    padded ``[max head, heads, N]`` block the distribution builds: with one large head among small
    ones most of that block is padding (Zulrah: 55 real options in 200 slots), and an update spends
    its time there. Per-head sums are a product with the column -> head one-hot matrix; each head's
    maximum, subtracted for stability, is taken without gradient (the results do not depend on it).
    An action outside the mask gets ``MASKED_LOGIT``.
    """
    heads = tuple(int(s) for s in head_sizes)
    total = sum(heads)
    if logits.shape[-1] != total:
        raise ValueError(f"logits has {logits.shape[-1]} columns, but head_sizes {heads} sum to {total}")
    if actions.shape[-1] != len(heads) or actions.shape[:-1] != logits.shape[:-1]:
        raise ValueError(f"actions has shape {tuple(actions.shape)}; expected {tuple(logits.shape[:-1])} "
                         f"+ ({len(heads)},), one per head")
    batch = logits.shape[:-1]
    x = logits.reshape(-1, total)
    if x.dtype in (torch.float16, torch.bfloat16):
        x = x.float()
    head, first, onehot = _flat_layout(heads, x.device)
    if mask is None:
        legal = torch.ones_like(x, dtype=torch.bool)
    else:
        if mask.shape != logits.shape:
            raise ValueError(f"mask shape {tuple(mask.shape)} differs from logits shape {tuple(logits.shape)}")
        legal = mask.reshape(-1, total)
        # a head with nothing legal keeps option 0, as in MaskedMultiCategorical
        empty = (legal.to(onehot.dtype) @ onehot) == 0
        # on a device always (asking whether any head is empty would wait for it); on a CPU only where one is
        if x.device.type != "cpu" or empty.any():
            legal = legal.clone()
            legal[:, first] |= empty
    keep = legal.to(x.dtype)
    with torch.no_grad():       # each head's legal maximum [N, H], from its own columns (a padded gather was 3x slower)
        masked = torch.where(legal, x, MASKED_LOGIT)
        ends = np.cumsum(heads)
        top = torch.stack([masked[:, end - size:end].amax(-1) for end, size in zip(ends, heads, strict=True)], 1)
    # illegal options: 0 before the exp (no slow path on huge negatives, no inf - inf) and 0 after it
    shifted = torch.where(legal, x - top.index_select(1, head), 0.0)
    weight = shifted.exp() * keep
    norm = weight @ onehot                                                     # [N, H]
    log_norm = norm.log()
    picked = (actions.reshape(-1, len(heads)) + first).clamp(0, total - 1)
    lp = shifted.gather(1, picked) - log_norm
    lp = torch.where(legal.gather(1, picked), lp, MASKED_LOGIT)
    prob = weight / norm.index_select(1, head)
    entropy = log_norm - (prob * shifted) @ onehot
    return lp.sum(-1).view(batch), entropy.sum(-1).view(batch)
