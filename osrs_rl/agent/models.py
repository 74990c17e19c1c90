"""Policy/value networks built from an encounter's declared layout (observation segments, head sizes) alone.

One network, three memory kinds::

    obs ──(actor columns)──> ObsEncoder ──> core ──┬──> policy layer ──> logits [sum(head_sizes)]
     └──(privileged columns)───────────────────────┴──> value MLP ──> value

- ``core`` is nothing (``mlp``), an LSTM (``lstm``) or a minGRU (``mingru``, Feng et al. 2024,
  "Were RNNs All We Needed?"), trained over whole segments with Heinsen's log-space parallel scan
  (Heinsen 2023, "Efficient Parallelization of a Ubiquitous Sequential Computation").
  The two recurrent cores are unmeasured: no preset uses them (every one is ``mlp``) and no ablation in
  docs/results measures them, so nothing shows that either helps any encounter.
- Privileged segments (hidden state the agent could not observe) feed the value MLP only: the actor
  never reads their columns, so the policy cannot learn to cheat, while the critic's baseline gets
  sharper. The value MLP sits on the shared core so the critic has the policy's memory too.
- ``separate_value`` (``mlp`` only) gives the value MLP an ObsEncoder of its own in place of the
  shared one, so the value loss no longer shapes the policy's features (Andrychowicz et al. 2020,
  "What Matters In On-Policy Reinforcement Learning?", found separate networks better for PPO).
  Recurrent kinds refuse it: a critic that still read the shared core would send its gradient into
  the core and through it into the policy's encoder, and one with a core of its own would need a
  second recurrent state in the rollout storage.
- ``activation`` (``relu`` or ``tanh``) is that of every hidden layer of the encoders and the value MLP.
- ``train_precision`` ``bfloat16`` runs the observation encoders (most of the arithmetic: the entity nets and
  the trunk) under ``torch.autocast`` in bfloat16 while a gradient is being taken (the update); the weights,
  the core, the heads and everything after them stay float32, so log-probabilities, values and the losses
  keep float32's resolution. Without a gradient (rollouts, evaluation) the encoders run float32: at a
  rollout's small batches bfloat16 saves nothing (autocast's casts cost more than the products save).
- Every kind keeps its recurrent state in one float tensor ``[batch, state_size]`` (``state_size`` 0
  for ``mlp``), so rollout storage and resets treat all kinds alike.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn

from osrs_rl.runtime.spec import ObsSegment

KINDS = ("mlp", "lstm", "mingru")
PRECISIONS = ("float32", "bfloat16", "auto")
"""The encoders' arithmetic in an update: float32; bfloat16 under autocast (a CPU with AVX512-BF16 multiplies the
update's matrices 3-6x faster in it, one without emulates it, slower than float32); auto: bfloat16 where the
device has it natively (:func:`native_bfloat16`), else float32."""
ACTIVATIONS = {"relu": nn.ReLU, "tanh": nn.Tanh}
"""The hidden layers' activation by name: ReLU, or tanh, the usual one of small PPO MLPs (CleanRL's ppo.py)."""

RELU_GAIN = math.sqrt(2.0)
"""Orthogonal gain of every hidden layer: ReLU's (He et al. 2015); kept with tanh too, as CleanRL's
ppo.py does (``layer_init`` with ``std=np.sqrt(2)`` before each ``nn.Tanh``)."""
POLICY_GAIN = 0.01
"""Near-zero initial logits, so the first policy is close to uniform over the legal options."""
VALUE_GAIN = 1.0
RESET_CUT = 1e4
"""At an episode start inside a minGRU scan, ``log(1 - z)`` is replaced by ``-RESET_CUT``, standing for
``log 0``: ``exp`` of anything cut by it is exactly 0 in float64 (which underflows below -745), yet,
unlike ``-inf``, it keeps the cumulative sums finite, so later timesteps do not turn into NaN."""


@lru_cache(maxsize=8)
def native_bfloat16(device_type: str) -> bool:
    """Whether a ``device_type`` (``"cpu"``, ``"cuda"``) device here multiplies bfloat16 natively: a CUDA GPU that
    says so, or a CPU whose flags (Linux's /proc/cpuinfo) list ``avx512_bf16`` or ``amx_bf16``."""
    if device_type == "cuda":
        return torch.cuda.is_available() and torch.cuda.is_bf16_supported()
    if device_type != "cpu":
        return False
    try:
        flags = Path("/proc/cpuinfo").read_text().split()
    except OSError:              # not Linux: no way to tell cheaply, so the safe choice
        return False
    return "avx512_bf16" in flags or "amx_bf16" in flags


def train_dtype(precision: str, device_type: str) -> torch.dtype | None:
    """The autocast dtype of a ``precision`` (:data:`PRECISIONS`) on a ``device_type``; None: float32."""
    if precision == "bfloat16" or (precision == "auto" and native_bfloat16(device_type)):
        return torch.bfloat16
    return None


def _orthogonal(layer: nn.Linear, gain: float) -> nn.Linear:
    """Orthogonal weights with ``gain``, zero bias (the usual PPO initialisation); returns ``layer``."""
    nn.init.orthogonal_(layer.weight, gain)
    nn.init.zeros_(layer.bias)
    return layer


def _activation(name: str) -> type[nn.Module]:
    """The module class of activation ``name``; an unknown name is refused with the choices."""
    if name not in ACTIVATIONS:
        raise ValueError(f"unknown activation {name!r}; choose one of {', '.join(ACTIVATIONS)}")
    return ACTIVATIONS[name]


def _mlp(sizes: Sequence[int], activation: str = "relu") -> nn.Sequential:
    """``Linear -> activation`` for each consecutive pair of ``sizes``."""
    act = _activation(activation)
    parts = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:], strict=True):
        parts += [_orthogonal(nn.Linear(n_in, n_out), RELU_GAIN), act()]
    return nn.Sequential(*parts)


def _column_runs(segments: Sequence[ObsSegment], keep: Sequence[bool]) -> list[tuple[int, int]]:
    """The flat-observation column ranges ``(start, stop)`` of the kept segments, neighbours merged."""
    runs, start = [], 0
    for seg, k in zip(segments, keep, strict=True):
        if k:
            if runs and runs[-1][1] == start:
                runs[-1] = (runs[-1][0], start + seg.size)
            else:
                runs.append((start, start + seg.size))
        start += seg.size
    return runs


def _take(x: torch.Tensor, runs: list[tuple[int, int]]) -> torch.Tensor:
    """The columns of ``x[..., :]`` in ``runs``, concatenated (a view when there is a single run)."""
    if len(runs) == 1:
        return x[..., runs[0][0]:runs[0][1]]
    return torch.cat([x[..., a:b] for a, b in runs], dim=-1)


class ObsEncoder(nn.Module):
    """The actor's observation ``[N, sum of segment sizes]`` -> features ``[N, hidden]``.

    With ``entity_encoder``, each segment with ``slots > 1`` goes through one small MLP shared by its
    slots, then a max over slots: the result does not depend on slot order or on how many slots are
    empty (empty slots all encode alike, so they cannot outvote a real entity, as they would in a
    sum). The pooled vectors and the other segments' raw features then enter the trunk MLP.
    """

    def __init__(self, segments: Sequence[ObsSegment], hidden: int, layers: int, entity_encoder: bool,
                 activation: str = "relu"):
        super().__init__()
        self.segments = tuple(segments)
        self.entity_width = max(8, hidden // 4)
        self.entity_nets = nn.ModuleDict()
        width = 0
        for seg in self.segments:
            if entity_encoder and seg.slots > 1:
                self.entity_nets[seg.name] = _mlp((seg.features, self.entity_width, self.entity_width),
                                                     activation)
                width += self.entity_width
            else:
                width += seg.size
        self.trunk = _mlp((width,) + (hidden,) * layers, activation)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """``x [N, input]`` -> ``[N, hidden]``."""
        if not self.entity_nets:
            return self.trunk(x)
        parts, start = [], 0
        for seg in self.segments:
            block = x[:, start:start + seg.size]
            start += seg.size
            if seg.name in self.entity_nets:
                # every slot as a row of one 2-D matmul, and the last activation after the max over slots: the
                # activations are monotone, so max(act(h)) = act(max(h)) on 1/slots of the elements. max, not
                # amax: its backward scatters into the winners (amax's compares every element, 2x slower); at a
                # tie it credits one slot where amax splits evenly, the same weight gradient when the tied slots
                # hold the same features (empty slots, the usual tie)
                # Without a gradient (a rollout), amax: max's forward also finds the indices, 8x slower on a CPU.
                net = self.entity_nets[seg.name]
                per_slot = net[:-1](block.reshape(-1, seg.features))
                per_slot = per_slot.view(-1, seg.slots, per_slot.shape[-1])
                pooled = per_slot.max(dim=1).values if torch.is_grad_enabled() else per_slot.amax(dim=1)
                block = net[-1](pooled)
            parts.append(block)
        return self.trunk(torch.cat(parts, dim=-1))


class Feedforward(nn.Module):
    """No memory: the core of ``kind="mlp"``; its state is ``[B, 0]``."""

    state_size = 0

    def __init__(self, hidden: int):
        super().__init__()      # ``hidden`` only keeps the three cores' constructors alike

    def step(self, x: torch.Tensor, state: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``x [B, hidden]``, ``state [B, 0]`` -> (``x``, ``state``)."""
        return x, state

    def unroll(self, x: torch.Tensor, state: torch.Tensor, reset: torch.Tensor,
               start_state: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """``x [T, B, hidden]`` -> (``x``, ``state``)."""
        return x, state


class LSTMCore(nn.Module):
    """One LSTM layer; state ``[B, 2 * hidden]`` holds ``h`` then ``c``. Unmeasured: no preset uses it and no
    ablation in docs/results measures it.

    ``unroll`` runs ``nn.LSTM`` over the stretches between timesteps where some env resets, zeroing
    the resetting envs' state at each cut: exact, and a single call (cuDNN on a GPU) when no env
    resets inside the segment.
    """

    def __init__(self, hidden: int):
        super().__init__()
        self.hidden = hidden
        self.state_size = 2 * hidden
        self.lstm = nn.LSTM(hidden, hidden)
        for name, p in self.lstm.named_parameters():
            if name.startswith("weight"):
                nn.init.orthogonal_(p, 1.0)
            else:
                nn.init.zeros_(p)
        # Forget-gate bias 1 (gate order i, f, g, o): remember by default at the start of training
        # (Jozefowicz et al. 2015, "An Empirical Exploration of Recurrent Network Architectures").
        with torch.no_grad():
            self.lstm.bias_ih_l0[hidden:2 * hidden] = 1.0

    def _run(self, x: torch.Tensor, state: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h, c = state.unsqueeze(0).chunk(2, dim=-1)
        y, (h, c) = self.lstm(x, (h.contiguous(), c.contiguous()))
        return y, torch.cat([h[0], c[0]], dim=-1)

    def step(self, x: torch.Tensor, state: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``x [B, hidden]``, ``state [B, 2 * hidden]`` -> (``y [B, hidden]``, new state)."""
        y, state = self._run(x.unsqueeze(0), state)
        return y[0], state

    def unroll(self, x: torch.Tensor, state: torch.Tensor, reset: torch.Tensor,
               start_state: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """``x [T, B, hidden]``, ``state [B, 2 * hidden]``, ``reset [T, B]`` -> (``y [T, B, hidden]``, final state).
        ``start_state [T, B, 2 * hidden]``: the state a reset at ``t`` starts from (zeros when None)."""
        cuts = [0] + (reset[1:].any(dim=1).nonzero().flatten() + 1).tolist() + [x.shape[0]]
        ys = []
        for t0, t1 in zip(cuts[:-1], cuts[1:], strict=True):
            cut = reset[t0].unsqueeze(-1)
            state = state.masked_fill(cut, 0.0) if start_state is None else torch.where(cut, start_state[t0], state)
            y, state = self._run(x[t0:t1], state)
            ys.append(y)
        return torch.cat(ys, dim=0), state


def _g(x: torch.Tensor) -> torch.Tensor:
    """minGRU's positive activation: ``x + 0.5`` for ``x >= 0``, ``sigmoid(x)`` below (continuous at 0)."""
    return torch.where(x >= 0, x + 0.5, torch.sigmoid(x))


def _log_g(x: torch.Tensor) -> torch.Tensor:
    """``log(_g(x))`` without forming ``_g``, so very negative ``x`` cannot underflow to ``log 0``."""
    # relu keeps the unused branch's log finite, so its zero gradient stays 0 rather than NaN.
    return torch.where(x >= 0, torch.log(F.relu(x) + 0.5), F.logsigmoid(x))


def mingru_scan(k: torch.Tensor, p: torch.Tensor, h0: torch.Tensor, reset: torch.Tensor,
                start_state: torch.Tensor | None = None) -> torch.Tensor:
    """All hidden states of ``h_t = (1 - z_t) h_{t-1} + z_t g(p_t)``, ``z_t = sigmoid(k_t)``, in parallel.

    Args:
        k, p: gate and candidate pre-activations ``[T, B, H]``.
        h0: state before the first step ``[B, H]`` (any sign: it never goes through a log).
        reset: bool ``[T, B]``; True at ``t`` means ``h_{t-1}`` is replaced by 0 before step ``t``.
        start_state: ``[T, B, H]`` or None: what ``h_{t-1}`` is replaced by at a reset instead of 0 (an archive
            start's stored state; minGRU states are positive, as ``g`` is, so its log is taken; 0 stays 0).
    Returns:
        ``h [T, B, H]`` in the dtype of ``k``.

    With ``a_t = 1 - z_t``, ``b_t = z_t g(p_t)`` and ``A_t = sum_{s<=t} log a_s``, the recurrence
    unrolls to ``h_t = exp(A_t) h0 + sum_{s<=t} exp(A_t - A_s) b_s``, and Heinsen's method writes the
    sum as ``exp(A_t + logcumsumexp_s(log b_s - A_s))``: one cumsum and one logcumsumexp over time.
    A reset at ``t`` makes ``a_t = 0``; we use ``log a_t = -RESET_CUT`` instead of ``-inf``, which
    scales every earlier term by ``exp(-RESET_CUT) = 0`` exactly; a start state ``s`` at a reset adds
    ``a_t s`` to ``b_t`` there (``h_t = a_t s + b_t``). The two scans run in float64
    because the cuts pile up in ``A`` (``-RESET_CUT`` per reset) and ``log h`` is the small difference
    of two such large numbers: in float32 the tests' segments come out up to 2% wrong, in float64
    the error is under ``1e-9``. Only ``A`` and ``log h`` need it; the pointwise work stays in the
    input dtype.
    """
    dtype = k.dtype
    log_a = -F.softplus(k)                                      # log(1 - z)
    log_b = log_a + k + _log_g(p)                               # log z = log(1 - z) + k
    cut = reset.unsqueeze(-1)
    log_b = log_b.double()
    if start_state is not None:
        injected = log_a.double() + torch.log(start_state.double().clamp(min=0.0))
        log_b = torch.where(cut, torch.logaddexp(log_b, injected), log_b)
    a_star = log_a.double().masked_fill(cut, -RESET_CUT).cumsum(dim=0)
    log_h = a_star + torch.logcumsumexp(log_b - a_star, dim=0)
    return torch.exp(a_star).to(dtype) * h0 + torch.exp(log_h.to(dtype))


class MinGRUCore(nn.Module):
    """One minGRU layer with a residual connection; state ``[B, hidden]``.

    The gates read only the current input, never ``h_{t-1}``, which is what lets ``unroll`` run as a
    parallel scan. The output is ``x_t + h_t``: ``h_t`` sees ``x_t`` only through the gate ``z_t``,
    so the residual keeps the current observation directly in reach of the heads (the paper stacks
    its minGRU layers inside residual blocks for the same reason).

    Unmeasured: no preset uses it and no ablation in docs/results measures it.
    """

    def __init__(self, hidden: int):
        super().__init__()
        self.state_size = hidden
        self.gates = _orthogonal(nn.Linear(hidden, 2 * hidden), 1.0)
        # Gate bias -1: keep (1 - z) = sigmoid(1) of the old state, the same default memory as the
        # LSTM's forget-gate bias of 1.
        with torch.no_grad():
            self.gates.bias[:hidden] = -1.0

    def step(self, x: torch.Tensor, state: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``x [B, hidden]``, ``state [B, hidden]`` -> (``y [B, hidden]``, new state)."""
        k, p = self.gates(x).chunk(2, dim=-1)
        h = torch.lerp(state, _g(p), torch.sigmoid(k))       # (1 - z) h + z g(p) in one op
        return x + h, h

    def unroll(self, x: torch.Tensor, state: torch.Tensor, reset: torch.Tensor,
               start_state: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """``x [T, B, hidden]``, ``state [B, hidden]``, ``reset [T, B]`` -> (``y [T, B, hidden]``, final state).
        ``start_state [T, B, hidden]``: the state a reset at ``t`` starts from (zeros when None)."""
        k, p = self.gates(x).chunk(2, dim=-1)
        h = mingru_scan(k, p, state, reset, start_state)
        return x + h, h[-1]


class ActorCritic(nn.Module):
    """Policy logits and value from a flat observation; see the module docstring for the layout.

    Attributes: ``obs_size``, ``head_sizes``, ``num_actions`` (``sum(head_sizes)``), ``kind``,
    ``state_size``, ``actor_segments`` and ``critic_segments`` (names of the privileged segments the
    value alone reads), ``value_encoder`` (the value's own ObsEncoder with ``separate_value``, else None).
    """

    def __init__(self, obs_segments: Sequence[ObsSegment], head_sizes: Sequence[int], kind: str = "mlp",
                 hidden: int = 256, layers: int = 2, entity_encoder: bool = False,
                 privileged: Sequence[str] = ("privileged",), activation: str = "relu", separate_value: bool = False,
                 start_input: bool = False, train_precision: str = "float32"):
        super().__init__()
        if kind not in KINDS:
            raise ValueError(f"unknown model kind {kind!r}; choose one of {', '.join(KINDS)}")
        if train_precision not in PRECISIONS:
            raise ValueError(f"unknown train_precision {train_precision!r}; choose one of {', '.join(PRECISIONS)}")
        self.train_precision = train_precision
        act = _activation(activation)
        if separate_value and kind != "mlp":
            raise ValueError(f"separate_value needs kind 'mlp', not {kind!r}: a {kind} critic would either share the "
                             f"policy's core (and train it) or need a recurrent state of its own")
        self.head_sizes = tuple(int(s) for s in head_sizes)
        if not self.head_sizes or min(self.head_sizes) < 1:
            raise ValueError(f"head_sizes must be one or more positive sizes, got {self.head_sizes}")
        if hidden < 1 or layers < 1:
            raise ValueError(f"hidden and layers must be at least 1, got hidden={hidden}, layers={layers}")
        segments = tuple(obs_segments)
        is_actor = [seg.name not in privileged for seg in segments]
        if not any(is_actor):
            raise ValueError(f"every observation segment is privileged ({[s.name for s in segments]}); "
                             f"the actor would see nothing")
        self.kind = kind
        self.obs_size = sum(seg.size for seg in segments)
        self.num_actions = sum(self.head_sizes)
        self.actor_segments = tuple(s.name for s, a in zip(segments, is_actor, strict=True) if a)
        self.critic_segments = tuple(s.name for s, a in zip(segments, is_actor, strict=True) if not a)
        self._actor_runs = _column_runs(segments, is_actor)
        self._critic_runs = _column_runs(segments, [not a for a in is_actor])
        # the start-type input (1 for an episode restored from an archive cell) goes to the value alone
        self.start_input = bool(start_input)
        critic_extra = sum(b - a for a, b in self._critic_runs) + int(self.start_input)

        actor = [s for s, a in zip(segments, is_actor, strict=True) if a]
        self.encoder = ObsEncoder(actor, hidden, layers, entity_encoder, activation)
        self.core = {"mlp": Feedforward, "lstm": LSTMCore, "mingru": MinGRUCore}[kind](hidden)
        self.state_size = self.core.state_size
        self.policy = _orthogonal(nn.Linear(hidden, self.num_actions), POLICY_GAIN)
        # built after the policy's layers, so that the policy starts from the same weights with or without it
        self.value_encoder = ObsEncoder(actor, hidden, layers, entity_encoder, activation) if separate_value else None
        self.value = nn.Sequential(_orthogonal(nn.Linear(hidden + critic_extra, hidden), RELU_GAIN), act(),
                                   _orthogonal(nn.Linear(hidden, 1), VALUE_GAIN))

    def edge_layers(self) -> tuple[str, ...]:
        """Dotted-name prefixes of the layers that read the observation or write an output: each encoder's
        trunk input and entity nets' first layers, the policy logits, the value's last layer (and its first
        where it reads privileged columns). Muon and Aurora leave these to AdamW (osrs_rl.train.optim,
        ``adamw_patterns``); the hidden layers are theirs."""
        prefixes = []
        for name in ("encoder", "value_encoder"):
            encoder = getattr(self, name)
            if encoder is not None:
                prefixes.append(f"{name}.trunk.0.")
                prefixes += [f"{name}.entity_nets.{seg}.0." for seg in encoder.entity_nets]
        if self._critic_runs:       # the value's first layer also reads the privileged columns themselves
            prefixes.append("value.0.")
        return tuple(prefixes) + ("policy.", f"value.{len(self.value) - 1}.")

    def _encode(self, encoder: ObsEncoder, x: torch.Tensor) -> torch.Tensor:
        """``encoder(x)`` as float32, computed in ``train_precision`` when a gradient is being taken."""
        dtype = train_dtype(self.train_precision, x.device.type) if torch.is_grad_enabled() else None
        if dtype is None:
            return encoder(x)
        with torch.autocast(x.device.type, dtype=dtype):
            return encoder(x).float()

    def initial_state(self, batch_size: int, device: torch.device | str | None = None) -> torch.Tensor:
        """Zero recurrent state ``[batch_size, state_size]`` (``[batch_size, 0]`` for ``mlp``)."""
        if device is None:
            device = self.policy.weight.device
        return torch.zeros(batch_size, self.state_size, device=device, dtype=self.policy.weight.dtype)

    def _check_obs(self, obs: torch.Tensor, dims: int):
        if obs.dim() != dims or obs.shape[-1] != self.obs_size:
            want = "[T, B, " if dims == 3 else "[B, "
            raise ValueError(f"obs has shape {tuple(obs.shape)}; expected {want}{self.obs_size}]")

    @property
    def value_reads_obs(self) -> bool:
        """Whether the value is a function of the observation (and start input) alone, not of the policy's
        features or recurrent state (``separate_value``): a rollout can then leave it out of each tick's
        forward (:meth:`act`) and compute every tick's value in one batch (:meth:`value_of`)."""
        return self.value_encoder is not None

    def _value(self, out: torch.Tensor | None, obs: torch.Tensor, start: torch.Tensor | None) -> torch.Tensor:
        """The value ``[N]`` from the core output ``[N, hidden]`` (unread with a value encoder of its own) and the
        observation ``[N, obs_size]``; ``start [N]``: the start-type input of a model with one (None: zeros)."""
        features = out if self.value_encoder is None else self._encode(self.value_encoder, _take(obs, self._actor_runs))
        parts = [features] + ([_take(obs, self._critic_runs)] if self._critic_runs else [])
        if self.start_input:
            parts.append(torch.zeros_like(features[:, :1]) if start is None else
                         start.reshape(-1, 1).to(features.dtype))
        critic_in = torch.cat(parts, dim=-1) if len(parts) > 1 else features
        return self.value(critic_in).squeeze(-1)

    def _core_step(self, obs: torch.Tensor, state: torch.Tensor,
                   reset: torch.Tensor | None) -> tuple[torch.Tensor, torch.Tensor]:
        self._check_obs(obs, 2)
        if reset is not None:
            state = state.masked_fill(reset.unsqueeze(-1), 0.0)
        return self.core.step(self._encode(self.encoder, _take(obs, self._actor_runs)), state)

    def step(self, obs: torch.Tensor, state: torch.Tensor, reset: torch.Tensor | None = None,
             start: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """One tick for a batch of envs, as in a rollout.

        Args:
            obs: ``[B, obs_size]``; state: ``[B, state_size]``; reset: bool ``[B]``, True where an
                episode starts this tick (that env's state is zeroed first), ``None`` for none; start:
                ``[B]`` the value's start-type input (1: an archive start; None: 0), if the model has one.
        Returns:
            ``(logits [B, num_actions], value [B], new_state [B, state_size])``.
        """
        out, state = self._core_step(obs, state, reset)
        return self.policy(out), self._value(out, obs, start), state

    def act(self, obs: torch.Tensor, state: torch.Tensor,
            reset: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """:meth:`step` without the value: ``(logits [B, num_actions], new_state [B, state_size])``."""
        out, state = self._core_step(obs, state, reset)
        return self.policy(out), state

    def value_of(self, obs: torch.Tensor, start: torch.Tensor | None = None) -> torch.Tensor:
        """The value ``[N]`` of observations ``[N, obs_size]`` (``start [N]`` as :meth:`step`'s), for a model whose
        value reads the observation alone (``value_reads_obs``); equal to :meth:`step`'s up to float rounding."""
        if not self.value_reads_obs:
            raise ValueError("this model's value reads the policy's features (no separate_value): use step or unroll")
        self._check_obs(obs, 2)
        return self._value(None, obs, start)

    def unroll(self, obs: torch.Tensor, state: torch.Tensor, reset: torch.Tensor | None = None,
               start: torch.Tensor | None = None,
               start_state: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """A whole segment at once, for training; equal to calling :meth:`step` for ``t = 0 .. T-1``.

        Args:
            obs: ``[T, B, obs_size]``; state: ``[B, state_size]`` before ``t = 0``; reset: bool
                ``[T, B]`` (``reset[t]`` as :meth:`step` would get it), ``None`` for none; start: ``[T, B]``
                the value's start-type input (as :meth:`step`); start_state: ``[T, B, state_size]``, the state
                a reset at ``t`` starts from instead of zeros (an archive start's stored state), or None.
        Returns:
            ``(logits [T, B, num_actions], value [T, B], final_state [B, state_size])``.
        """
        self._check_obs(obs, 3)
        steps, batch = obs.shape[:2]
        if reset is None:
            reset = torch.zeros(steps, batch, dtype=torch.bool, device=obs.device)
        flat = obs.reshape(steps * batch, self.obs_size)
        x = self._encode(self.encoder, _take(flat, self._actor_runs)).view(steps, batch, -1)
        out, state = self.core.unroll(x, state, reset, start_state)
        out = out.reshape(steps * batch, -1)
        value = self._value(out, flat, None if start is None else start.reshape(-1))
        return self.policy(out).view(steps, batch, -1), value.view(steps, batch), state


def build_model(obs_segments: Sequence[ObsSegment], head_sizes: Sequence[int], kind: str = "mlp",
                hidden: int = 256, layers: int = 2, entity_encoder: bool = False,
                privileged: Sequence[str] = ("privileged",), activation: str = "relu",
                separate_value: bool = False, start_input: bool = False,
                train_precision: str = "float32") -> ActorCritic:
    """An :class:`ActorCritic` for an encounter's layout (typically ``spec.obs_segments, spec.head_sizes``).

    Args:
        obs_segments: the flat observation's blocks, in order.
        head_sizes: options per action head.
        kind: ``"mlp"``, ``"lstm"`` or ``"mingru"``.
        hidden: width of every hidden layer and of the recurrent state.
        layers: ``Linear -> activation`` layers in the encoder trunk (the recurrent layer, if any, comes on top).
        entity_encoder: encode segments with ``slots > 1`` slot by slot with shared weights.
        privileged: names of segments only the value may read.
        activation: ``"relu"`` or ``"tanh"``, for every hidden layer (encoders and value MLP).
        separate_value: the value reads an encoder of its own, not the policy's (``kind="mlp"`` only).
        start_input: the value reads one more input, the episode's start type (1: restored from an archive cell).
        train_precision: the observation encoders' arithmetic in an update: ``"float32"``, ``"bfloat16"`` or
            ``"auto"`` (:data:`PRECISIONS`).
    """
    return ActorCritic(obs_segments, head_sizes, kind=kind, hidden=hidden, layers=layers,
                       entity_encoder=entity_encoder, privileged=privileged, activation=activation,
                       separate_value=separate_value, start_input=start_input,
                       train_precision=train_precision)
