"""Action distribution for an encounter's heads: one categorical per head, each under its legality mask.

The flat layout is the runtime's: logits and mask are ``[..., sum(head_sizes)]``, head ``h`` owning
the columns after heads ``0..h-1``. Internally the heads are gathered into a padded block (pad slots
count as masked), so every method is a handful of batched tensor ops whatever the number of heads,
with no Python loop per head.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import torch

MASKED_LOGIT = -1e9
"""Logit given to illegal options. Finite on purpose: its softmax weight underflows to exactly 0 in
float32, while ``0 * MASKED_LOGIT`` stays 0 where ``0 * -inf`` would be NaN (in the entropy and in
every backward pass)."""


@lru_cache(maxsize=64)
def _padded_layout(head_sizes: tuple[int, ...], device: torch.device) -> tuple[torch.Tensor, torch.Tensor]:
    """Gather index ``[H, M]`` from padded slots into flat columns, and ``[H, M]`` True where a slot is real.

    Pad slots point at column 0 (any valid column would do); the validity table masks them out.
    """
    width = max(head_sizes)
    index = torch.zeros(len(head_sizes), width, dtype=torch.int64)
    valid = torch.zeros(len(head_sizes), width, dtype=torch.bool)
    start = 0
    for h, size in enumerate(head_sizes):
        index[h, :size] = torch.arange(start, start + size)
        valid[h, :size] = True
        start += size
    return index.to(device), valid.to(device)


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
        index, valid = _padded_layout(self.head_sizes, logits.device)
        self._batch = tuple(logits.shape[:-1])
        # Internally slot-major with the batch innermost, [M, H, N]: the softmax over a head's few
        # options is then a handful of vectorised passes over N instead of N * H tiny reductions
        # (several times faster on a CPU).
        slots = index.t().reshape(-1)
        n = logits[..., 0].numel()
        shape = (index.shape[1], index.shape[0], n)
        valid_t = valid.t().unsqueeze(-1)
        if mask is None:
            legal = valid_t.expand(shape)
        else:
            legal = mask.reshape(n, total).t().index_select(0, slots).view(shape) & valid_t
        # A head with nothing legal keeps option 0: the runtime's no-op is always a valid answer.
        empty = ~legal.any(0)
        legal = legal.clone()
        legal[0] |= empty
        self._legal = legal
        padded = logits.reshape(n, total).t().index_select(0, slots).view(shape)
        self._log_probs = torch.log_softmax(padded.masked_fill(~legal, MASKED_LOGIT), dim=0)

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
        cdf = self._log_probs.exp().cumsum(0)
        u = torch.rand(cdf.shape[1:], generator=generator, device=cdf.device, dtype=cdf.dtype) * cdf[-1]
        return self._out((cdf <= u).sum(0))

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
        plogp = self._log_probs.exp() * self._log_probs
        return self._out(-plogp.masked_fill(~self._legal, 0.0).sum(0))

    def entropy(self) -> torch.Tensor:
        """Joint entropy ``[...]``: the heads are independent, so it is the sum over heads."""
        return self.entropy_per_head().sum(-1)
