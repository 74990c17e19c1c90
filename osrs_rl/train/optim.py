"""Optimizers for the trainer: AdamW, Muon and Aurora behind one builder, as one torch Optimizer.

Muon and Aurora are unmeasured here: no preset uses them (every one is ``adamw``) and no ablation in
docs/results measures them, so nothing shows that either trains any encounter better than AdamW.

    opt = build_optimizer(model, "muon", lr=3e-4)
    loss.backward(); opt.step(); opt.zero_grad()
    set_lr(opt, 1e-4)                     # or any torch.optim.lr_scheduler

Which parameters the matrix optimizer (Muon, Aurora) gets. Muon is for the 2-D weights of hidden
layers; the input embedding and the output heads are conventionally left to AdamW (Jordan 2024,
kellerjordan.github.io/posts/muon). The rule, first match wins, per parameter in registration order:
  1. fewer than 2 dims (biases, norm gains)          -> AdamW without weight decay
  2. more than 2 dims (conv kernels)                 -> AdamW
  3. the weight of an nn.Embedding                   -> AdamW
  4. a dotted name containing one of ``adamw_patterns`` (default "embed" and "head", case-insensitive):
     the input embedding and the output heads, by naming convention -> AdamW
  5. every other 2-D weight: a hidden layer          -> the matrix optimizer
``param_assignment(model)`` lists the outcome with the rule that decided it, for the start-of-run log.

Learning rates. One ``lr`` serves every group: the matrix optimizers use ``adjust_lr_fn=
"match_rms_adamw"`` (Liu et al. 2025, arXiv:2502.16982), which scales an orthogonalised update by
0.2 * sqrt(max(rows, cols)) so that its RMS is about 0.2 * lr, the RMS of a typical AdamW step;
AdamW's lr and weight decay then carry over. Each group also carries ``lr_scale`` (``matrix_lr_scale``
for matrix groups, 1 otherwise), and ``set_lr(opt, lr)`` sets every group to lr * lr_scale. torch's
LR schedulers work unchanged (they scale each group's own initial lr).

Aurora (Tilde Research 2026, blog.tilderesearch.com/blog/aurora; arXiv:2606.27715), written from its
description: Nesterov momentum -> leverage-uniform polar -> spectral aspect-ratio scale -> decoupled
weight decay. Muon's polar factor of a tall matrix has orthonormal columns, so its squared row norms
(leverage scores) sum to the column count but can be very uneven across rows: some output units get
almost no update. Aurora looks for the update that is both (near) semi-orthogonal and row-uniform (the
intersection of the Stiefel and row-oblique manifolds) by preconditioning the rows before the polar
factor: D = 1 / row norms of G; then ``pp_iterations`` times U = polar(D G), and between rounds
D *= (target / row_sq(U)) ** pp_beta with target = cols / rows, the squared row norm of a row-uniform
matrix with orthonormal columns. A square orthogonal matrix already has unit rows, so for square
matrices Aurora is Muon. Conventions below follow torch.optim.Muon so that Aurora is a drop-in for it:
EMA momentum (buf = mu buf + (1 - mu) g; Nesterov direction = (1 - mu) g + mu buf), the quintic
Newton-Schulz in bfloat16, decay by (1 - lr * weight_decay).
TODO(question): for a wide matrix we transpose to tall and equalise its column norms (so Aurora(G^T) =
Aurora(G)^T), as the descriptions we have state; whether the reference leaves wide matrices to plain
Muon is unconfirmed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import NamedTuple

import torch
from torch import Tensor, nn
from torch.optim import AdamW, Muon, Optimizer

OPTIMIZERS = ("adamw", "muon", "aurora")
ADJUST_LR_FNS = ("original", "match_rms_adamw")

# Keller Jordan's quintic Newton-Schulz: coefficients chosen for slope at 0, not convergence to 1, so
# the singular values land in about [0.7, 1.2] after 5 steps (the values torch.optim.Muon uses)
NS_COEFFICIENTS = (3.4445, -4.7750, 2.0315)
NS_STEPS = 5
NS_EPS = 1e-7
NS_DTYPE = torch.bfloat16   # as torch.optim.Muon; the iteration tolerates it and it is the fast path on GPUs

# ---- which parameter goes where --------------------------------------------------------------------------------------


class ParamAssignment(NamedTuple):
    name: str
    shape: tuple[int, ...]
    group: str      # "matrix", "adamw_decay" or "adamw_no_decay"
    reason: str


def param_assignment(model: nn.Module, adamw_patterns: Iterable[str] = ("embed", "head")) -> list[ParamAssignment]:
    """Each trainable parameter of ``model`` once, in registration order, with its group and the rule
    (module docstring) that put it there."""
    return [row for row, _ in _assign(model, adamw_patterns)]


def _assign(model: nn.Module, adamw_patterns: Iterable[str]) -> list[tuple[ParamAssignment, Tensor]]:
    patterns = tuple(p.lower() for p in adamw_patterns)
    seen: set[int] = set()
    rows = []
    for module_name, module in model.named_modules():
        for param_name, p in module.named_parameters(recurse=False):
            if not p.requires_grad or id(p) in seen:
                continue
            seen.add(id(p))
            name = f"{module_name}.{param_name}" if module_name else param_name
            if p.ndim < 2:
                group, reason = "adamw_no_decay", f"{p.ndim}-D (bias or norm)"
            elif p.ndim > 2:
                group, reason = "adamw_decay", f"{p.ndim}-D"
            elif isinstance(module, nn.Embedding):
                group, reason = "adamw_decay", "nn.Embedding"
            elif any(pattern in name.lower() for pattern in patterns):
                match = next(pattern for pattern in patterns if pattern in name.lower())
                group, reason = "adamw_decay", f"name contains {match!r}"
            else:
                group, reason = "matrix", "2-D hidden weight"
            rows.append((ParamAssignment(name, tuple(p.shape), group, reason), p))
    return rows


# ---- several optimizers as one ---------------------------------------------------------------------------------------


class MultiOptimizer(Optimizer):
    """Optimizers over disjoint parameters, stepped, zeroed, saved and scheduled as one.

    ``param_groups`` is every part's groups in order, read through on each access: torch's
    ``load_state_dict`` replaces a part's group dicts, so a stored list would go stale. Optimizer's
    own __init__ is deliberately not called, since the groups and all state live in the parts; the
    base class is there so torch's LR schedulers accept this object.
    """

    def __init__(self, parts: dict[str, Optimizer]):
        if not parts:
            raise ValueError("MultiOptimizer needs at least one optimizer")
        self.parts = dict(parts)
        self.defaults = {}

    @property
    def param_groups(self) -> list[dict]:
        return [group for part in self.parts.values() for group in part.param_groups]

    @property
    def state(self) -> dict:
        return {p: s for part in self.parts.values() for p, s in part.state.items()}

    def __getstate__(self):
        return self.__dict__.copy()

    def __setstate__(self, state):
        self.__dict__.update(state)

    def __repr__(self) -> str:
        return "MultiOptimizer(" + ", ".join(f"{k}={type(v).__name__}" for k, v in self.parts.items()) + ")"

    def add_param_group(self, param_group: dict) -> None:
        raise NotImplementedError("add groups to one of MultiOptimizer.parts")

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for part in self.parts.values():
            part.step()
        return loss

    def zero_grad(self, set_to_none: bool = True) -> None:
        for part in self.parts.values():
            part.zero_grad(set_to_none=set_to_none)

    def state_dict(self) -> dict:
        return {"parts": {name: part.state_dict() for name, part in self.parts.items()}}

    def load_state_dict(self, state_dict: dict) -> None:
        saved = state_dict.get("parts", {})
        if set(saved) != set(self.parts):
            raise ValueError(f"optimizer state has parts {sorted(saved)}, this optimizer has {sorted(self.parts)}")
        for name, part in self.parts.items():
            part.load_state_dict(saved[name])


def set_lr(optimizer: Optimizer, lr: float) -> None:
    """Set every group's lr to ``lr`` times its ``lr_scale`` (1 where a group has none)."""
    for group in optimizer.param_groups:
        group["lr"] = lr * group.get("lr_scale", 1.0)


# ---- Aurora ----------------------------------------------------------------------------------------------------------


def newton_schulz(g: Tensor, coefficients=NS_COEFFICIENTS, steps: int = NS_STEPS, eps: float = NS_EPS) -> Tensor:
    """Approximate polar factor U V^T of a 2-D ``g`` (in NS_DTYPE): scale to spectral norm <= 1 by the
    Frobenius norm, then X <- a X + (b A + c A^2) X with A = X X^T, iterated on the wide orientation
    so that A is the smaller Gram matrix."""
    a, b, c = coefficients
    tall = g.shape[0] > g.shape[1]
    x = g.to(NS_DTYPE)
    if tall:
        x = x.T
    x = x / x.norm().clamp(min=eps)
    for _ in range(steps):
        gram = x @ x.T
        # b A + c A^2, then a X + poly X; fused as torch.optim.Muon fuses them, so the bf16 roundings agree
        poly = torch.addmm(gram, gram, gram, beta=b, alpha=c)
        x = torch.addmm(x, poly, x, beta=a)
    return x.T if tall else x


def leverage_uniform_polar(g: Tensor, iterations: int = 2, beta: float = 0.5, coefficients=NS_COEFFICIENTS,
                           steps: int = NS_STEPS, eps: float = NS_EPS) -> Tensor:
    """Aurora's direction: an approximate polar factor whose long-side row norms are (near) equal.
    Square matrices and ``iterations == 0`` give the plain polar factor (Muon's)."""
    rows, cols = g.shape
    if rows == cols or iterations == 0:
        return newton_schulz(g, coefficients, steps, eps)
    m = g.float() if rows > cols else g.float().T        # tall: m rows >= n cols
    target = min(rows, cols) / max(rows, cols)            # squared row norm when rows are equal and U^T U = I
    d = 1.0 / m.norm(dim=1).clamp(min=eps)
    for k in range(iterations):
        u = newton_schulz(d[:, None] * m, coefficients, steps, eps)
        if k + 1 < iterations:
            row_sq = u.float().square().sum(dim=1)
            # a zero row (a unit with no gradient) stays zero whatever its scale: leave its scale alone,
            # or it would grow every round until inf * 0 gave NaN
            d = d * torch.where(row_sq > eps, (target / row_sq.clamp(min=eps)) ** beta, 1.0)
    return u if rows > cols else u.T


def spectral_scale(shape: tuple[int, ...], adjust_lr_fn: str | None) -> float:
    """The factor on lr for an orthogonalised update, as torch.optim.Muon: "original" (or None)
    sqrt(max(1, rows / cols)); "match_rms_adamw" 0.2 * sqrt(max(rows, cols))."""
    rows, cols = shape[:2]
    if adjust_lr_fn is None or adjust_lr_fn == "original":
        return math.sqrt(max(1.0, rows / cols))
    if adjust_lr_fn == "match_rms_adamw":
        return 0.2 * math.sqrt(max(rows, cols))
    raise ValueError(f"adjust_lr_fn must be one of {ADJUST_LR_FNS} or None, got {adjust_lr_fn!r}")


class Aurora(Optimizer):
    """Aurora for 2-D parameters (module docstring). Defaults are torch.optim.Muon's, plus
    ``pp_iterations`` (polar calls per step on non-square matrices) and ``pp_beta`` in (0, 1] (the
    damping exponent of the row-scaling update; 0.5 steps by the square root of the leverage error).
    Unmeasured: no preset uses it and no ablation in docs/results measures it."""

    def __init__(self, params, lr: float = 1e-3, weight_decay: float = 0.1, momentum: float = 0.95,
                 nesterov: bool = True, ns_coefficients=NS_COEFFICIENTS, ns_steps: int = NS_STEPS,
                 eps: float = NS_EPS, pp_iterations: int = 2, pp_beta: float = 0.5, adjust_lr_fn: str | None = None):
        if lr < 0 or weight_decay < 0 or momentum < 0:
            raise ValueError(f"lr, weight_decay and momentum must be >= 0, got {lr}, {weight_decay}, {momentum}")
        if not 0 < pp_beta <= 1:
            raise ValueError(f"pp_beta must be in (0, 1], got {pp_beta}")
        if pp_iterations < 0:
            raise ValueError(f"pp_iterations must be >= 0, got {pp_iterations}")
        spectral_scale((1, 1), adjust_lr_fn)   # validates the name
        defaults = dict(lr=lr, weight_decay=weight_decay, momentum=momentum, nesterov=nesterov,
                        ns_coefficients=tuple(ns_coefficients), ns_steps=ns_steps, eps=eps,
                        pp_iterations=pp_iterations, pp_beta=pp_beta, adjust_lr_fn=adjust_lr_fn)
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                if p.ndim != 2:
                    raise ValueError(f"Aurora takes only 2-D parameters, got one of shape {tuple(p.shape)}")

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            lr, mu = group["lr"], group["momentum"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if "momentum_buffer" not in state:
                    state["momentum_buffer"] = torch.zeros_like(p.grad)
                buf = state["momentum_buffer"]
                buf.lerp_(p.grad, 1 - mu)
                direction = p.grad.lerp(buf, mu) if group["nesterov"] else buf
                update = leverage_uniform_polar(direction, group["pp_iterations"], group["pp_beta"],
                                                group["ns_coefficients"], group["ns_steps"], group["eps"])
                p.mul_(1 - lr * group["weight_decay"])
                p.add_(update.to(p.dtype), alpha=-lr * spectral_scale(p.shape, group["adjust_lr_fn"]))
        return loss


# ---- the builder -----------------------------------------------------------------------------------------------------


def build_optimizer(model: nn.Module, name: str = "adamw", lr: float = 3e-4, weight_decay: float = 0.0,
                    betas: tuple[float, float] = (0.9, 0.999), momentum: float = 0.95, eps: float = 1e-5,
                    matrix_lr_scale: float = 1.0, adjust_lr_fn: str | None = "match_rms_adamw",
                    adamw_patterns: Iterable[str] = ("embed", "head"), **kw) -> MultiOptimizer:
    """One optimizer over ``model``'s trainable parameters (module docstring for the split and the lr).

    ``name`` "adamw": AdamW on everything (every preset's). "muon": torch.optim.Muon on the hidden matrices,
    AdamW on the rest. "aurora": Aurora on the hidden matrices, AdamW on the rest. The last two are
    unmeasured: no preset uses them and no ablation in docs/results measures them. ``weight_decay`` applies to
    every parameter with 2 or more dims; ``eps`` is AdamW's (1e-5, the usual PPO value); ``momentum``,
    ``adjust_lr_fn`` and ``kw`` (e.g. ns_steps, nesterov, pp_iterations, pp_beta) go to the matrix
    optimizer. Parts with no parameters are left out.
    """
    if name not in OPTIMIZERS:
        raise ValueError(f"unknown optimizer {name!r}; choices: {', '.join(OPTIMIZERS)}")
    if name == "adamw" and kw:
        raise TypeError(f"adamw takes no extra options, got {sorted(kw)}")
    buckets: dict[str, list[Tensor]] = {"matrix": [], "adamw_decay": [], "adamw_no_decay": []}
    for row, p in _assign(model, adamw_patterns):
        group = "adamw_decay" if name == "adamw" and row.group == "matrix" else row.group
        buckets[group].append(p)
    if not any(buckets.values()):
        raise ValueError("the model has no trainable parameters")

    parts: dict[str, Optimizer] = {}
    adamw_groups = [dict(params=buckets["adamw_decay"], weight_decay=weight_decay, name="adamw_decay"),
                    dict(params=buckets["adamw_no_decay"], weight_decay=0.0, name="adamw_no_decay")]
    adamw_groups = [dict(g, lr=lr, lr_scale=1.0) for g in adamw_groups if g["params"]]
    if buckets["matrix"]:
        matrix_group = [dict(params=buckets["matrix"], name="matrix", lr=lr * matrix_lr_scale,
                             lr_scale=matrix_lr_scale)]
        cls = Muon if name == "muon" else Aurora
        parts[name] = cls(matrix_group, lr=lr * matrix_lr_scale, weight_decay=weight_decay, momentum=momentum,
                          adjust_lr_fn=adjust_lr_fn, **kw)
    if adamw_groups:
        # fused: one kernel for every tensor's update (0.12 ms a step for Zulrah's preset on two cores, 0.53 ms
        # as a loop over tensors); the same AdamW
        fused = all(p.device.type in ("cpu", "cuda") and p.is_floating_point()
                    for g in adamw_groups for p in g["params"])
        parts["adamw"] = AdamW(adamw_groups, lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                               fused=fused or None)
    return MultiOptimizer(parts)
