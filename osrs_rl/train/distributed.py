"""Data-parallel PPO under torchrun: where this process stands in the job, its seeds, and the
collectives the trainer needs.

    torchrun --nproc-per-node 2 -m osrs_rl.cli train template          # 2 ranks on this machine

torchrun starts one process per rank and tells each where it stands through environment variables
(``RANK``, ``WORLD_SIZE``, ``LOCAL_RANK``, ``LOCAL_WORLD_SIZE``, ``MASTER_ADDR``, ``MASTER_PORT``;
PyTorch docs, "torchrun (Elastic Launch)"). ``from_environment`` reads them; a process started any
other way (or a one-process torchrun job) is rank 0 of 1 and the trainer makes no collective call
at all, so a plain run is the same as before this module existed.

Each rank steps its own envs (``env.num_envs`` is per rank) with seeds of its own (``rank_seed``),
collects its own rollout and computes its gradient on it; the gradients are summed over the ranks
so that every minibatch step is the one a single process holding all ranks' minibatch segments
would take (``Group.moments`` gives the global count, mean and std the loss and the advantage
normalisation need). Rank 0 writes the run folder (logs, checkpoints, replays, the evaluation).

Two process groups: the default one (NCCL on CUDA, gloo on a CPU) carries the gradients and the
advantage moments; a gloo group carries the small control traffic (stop and log flags, parameter
digests, episode metrics for rank 0's log), which gloo handles on the CPU whatever the device.
Every collective runs with the ``run.dist_timeout`` timeout and fails with ``DistributedError``,
naming what it was doing, when a rank is lost or stuck.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import timedelta

import numpy as np
import torch
import torch.distributed as dist

# torchrun's own flags: given to ``osrs-rl train`` they mean the launcher was left out
TORCHRUN_FLAGS = ("--nproc-per-node", "--nproc_per_node", "--nnodes", "--node-rank", "--node_rank",
                  "--rdzv-backend", "--rdzv_backend", "--rdzv-endpoint", "--rdzv_endpoint", "--rdzv-id", "--rdzv_id",
                  "--master-addr", "--master_addr", "--master-port", "--master_port", "--standalone",
                  "--distributed")
LAUNCH_HINT = "torchrun --nproc-per-node N -m osrs_rl.cli train ENCOUNTER ..."
# the variables torchrun sets for every worker (PyTorch docs, "torchrun (Elastic Launch)", Environment Variables)
TORCHRUN_VARIABLES = ("RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT")
# the seed streams a rank draws; rank 0 keeps the single-process seeds, other ranks derive theirs
STREAMS = ("envs", "sampler", "numpy")
EPS = 1e-8          # as osrs_rl.train.losses.normalize_advantages


class DistributedError(RuntimeError):
    """A collective failed: another rank was lost (killed, crashed), stuck past ``run.dist_timeout``, or
    the ranks disagree (their parameters differ)."""


@dataclass(frozen=True)
class Dist:
    """This process's place in a torchrun job (rank 0 of 1 outside one)."""

    rank: int = 0
    world_size: int = 1
    local_rank: int = 0
    local_world_size: int = 1

    @property
    def enabled(self) -> bool:
        return self.world_size > 1

    @property
    def is_main(self) -> bool:
        return self.rank == 0


def from_environment(environ: Mapping[str, str] | None = None) -> Dist:
    """The job torchrun put this process in, from its variables; no ``WORLD_SIZE``: a plain run.

    >>> from_environment({})
    Dist(rank=0, world_size=1, local_rank=0, local_world_size=1)
    >>> env = {"RANK": "1", "WORLD_SIZE": "2", "LOCAL_RANK": "1", "LOCAL_WORLD_SIZE": "2",
    ...        "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": "29500"}
    >>> from_environment(env)
    Dist(rank=1, world_size=2, local_rank=1, local_world_size=2)
    """
    environ = os.environ if environ is None else environ
    if "WORLD_SIZE" not in environ:
        return Dist()
    missing = [v for v in TORCHRUN_VARIABLES if v not in environ]
    if missing:
        raise ValueError(f"WORLD_SIZE is set but {', '.join(missing)} not: start a distributed run through torchrun, "
                         f"which sets them all ({LAUNCH_HINT}), or unset WORLD_SIZE for a one-process run")
    values = {}
    for name in TORCHRUN_VARIABLES[:4]:
        try:
            values[name] = int(environ[name])
        except ValueError:
            raise ValueError(f"the torchrun variable {name}={environ[name]!r} is not an integer") from None
    world, rank = values["WORLD_SIZE"], values["RANK"]
    if world < 1 or not 0 <= rank < world:
        raise ValueError(f"RANK={rank} and WORLD_SIZE={world}: a rank must lie in 0..WORLD_SIZE - 1")
    if world == 1:
        return Dist()
    return Dist(rank, world, values["LOCAL_RANK"], values["LOCAL_WORLD_SIZE"])


def torchrun_flag_error(args: Iterable[str]) -> str | None:
    """Why ``args`` (the settings given to ``osrs-rl train``) cannot run: a torchrun flag among them."""
    for arg in args:
        flag = arg.split("=", 1)[0]
        if flag in TORCHRUN_FLAGS:
            return (f"{flag} is a flag of torchrun, not of osrs-rl train: launch the ranks through torchrun, "
                    f"e.g. `torchrun --nproc-per-node 2 -m osrs_rl.cli train ENCOUNTER ...` (multi-node: "
                    f"--nnodes, --node-rank, --rdzv-backend c10d, --rdzv-endpoint HOST:PORT; "
                    f"docs/guide/distributed.md)")
    return None


def rank_seed(single: int, seed: int, rank: int, stream: str, iteration: int = 0) -> int:
    """The seed rank ``rank`` uses for ``stream`` (``STREAMS``): rank 0 uses ``single``, the seed a
    one-process run uses, so rank 0 of a job draws what a plain run draws; any other rank a 63-bit
    seed NumPy's ``SeedSequence`` derives from (``seed``, rank, stream, ``iteration``), a stream
    independent of rank 0's and of every other rank's.

    >>> rank_seed(7, 0, 0, "envs")
    7
    >>> len({rank_seed(7, 0, r, "envs") for r in range(1, 9)} | {7})
    9
    """
    if rank == 0:
        return int(single)
    words = seed_sequence(seed, rank, stream, iteration).generate_state(2, np.uint64)
    return int(words[0]) >> 1


def seed_sequence(seed: int, rank: int, stream: str, iteration: int = 0) -> np.random.SeedSequence:
    """The ``SeedSequence`` of ``rank_seed``; its spawn key keeps it apart from ``SeedSequence(seed)``,
    which seeds rank 0's (and a plain run's) NumPy generator."""
    return np.random.SeedSequence(int(seed), spawn_key=(int(rank), STREAMS.index(stream), int(iteration)))


def parameter_digest(model: torch.nn.Module) -> str:
    """SHA-256 of every parameter's bytes in registration order: ranks in step have the same."""
    h = hashlib.sha256()
    for p in model.parameters():
        h.update(p.detach().cpu().contiguous().view(torch.uint8).numpy().tobytes())
    return h.hexdigest()


def global_normalize(advantages: torch.Tensor, valid: torch.Tensor, mean: torch.Tensor, std: torch.Tensor,
                     eps: float = EPS) -> torch.Tensor:
    """(A - mean) / (std + eps) with the moments over every rank's minibatch; invalid entries 0, as
    ``osrs_rl.train.losses.normalize_advantages`` does with local moments."""
    valid = torch.broadcast_to(valid, advantages.shape)
    zero = torch.zeros((), dtype=advantages.dtype, device=advantages.device)
    out = (advantages - mean.to(advantages.dtype)) / (std.to(advantages.dtype) + eps)
    return torch.where(valid, out, zero)


class Group:
    """The trainer's collectives over the job's ranks, each timed (``wait``: seconds spent inside them,
    waiting for the others included) and each failing with ``DistributedError``."""

    def __init__(self, where: Dist, device: torch.device, timeout: float):
        self.dist = where
        self.device = device
        self.timeout = float(timeout)
        self.backend = "nccl" if device.type == "cuda" else "gloo"
        self.wait = 0.0
        if device.type == "cuda":
            torch.cuda.set_device(device)
        try:
            dist.init_process_group(self.backend, rank=where.rank, world_size=where.world_size,
                                    timeout=timedelta(seconds=self.timeout))
            self.control = dist.new_group(backend="gloo") if self.backend != "gloo" else None
        except (RuntimeError, ValueError) as e:
            raise DistributedError(f"rank {where.rank} of {where.world_size} could not join the job's process group "
                                   f"({self.backend}) within run.dist_timeout ({self.timeout:g} s): {e}") from None

    # ---- plumbing ----------------------------------------------------------------------------------
    def _run(self, what: str, fn):
        t0 = time.perf_counter()
        try:
            return fn()
        except (RuntimeError, ValueError) as e:       # DistBackendError is a RuntimeError
            raise DistributedError(
                f"rank {self.dist.rank} of {self.dist.world_size}: {what} failed: another rank stopped (killed, "
                f"crashed or interrupted) or did not answer within run.dist_timeout ({self.timeout:g} s). "
                f"{type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}") from None
        finally:
            self.wait += time.perf_counter() - t0

    def close(self) -> None:
        if dist.is_initialized():
            dist.destroy_process_group()

    # ---- the update ---------------------------------------------------------------------------------
    def moments(self, advantages: torch.Tensor, valid: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """(count, mean, std) of ``advantages`` over the valid entries of every rank's minibatch: one
        all-reduce of (count, sum, sum of squares) in float64, so the one-pass variance loses nothing
        that matters at float32 advantages."""
        valid = torch.broadcast_to(valid, advantages.shape)
        a = torch.where(valid, advantages, torch.zeros((), dtype=advantages.dtype, device=advantages.device)).double()
        sums = torch.stack([valid.sum().double(), a.sum(), a.square().sum()])
        self._run("the all-reduce of the advantage moments", lambda: dist.all_reduce(sums))
        count = sums[0].clamp(min=1.0)
        mean = sums[1] / count
        var = (sums[2] / count - mean.square()).clamp(min=0.0)
        return sums[0], mean, var.sqrt()

    def average_gradients(self, params: Iterable[torch.nn.Parameter]) -> None:
        """Replace every gradient by its mean over the ranks: one all-reduce of all of them, flattened.
        Every rank runs the same model through the same code, so the same parameters have gradients."""
        grads = [p.grad for p in params if p.grad is not None]
        if not grads:
            return
        flat = torch.cat([g.reshape(-1) for g in grads])
        self._run("the gradient all-reduce", lambda: dist.all_reduce(flat))
        flat /= self.dist.world_size
        offset = 0
        for g in grads:
            n = g.numel()
            g.copy_(flat[offset:offset + n].view_as(g))
            offset += n

    def broadcast_parameters(self, model: torch.nn.Module) -> None:
        """Rank 0's parameters and buffers on every rank (they start equal anyway: the same seed)."""
        for t in list(model.parameters()) + list(model.buffers()):
            self._run("the broadcast of rank 0's parameters",
                      lambda t=t: dist.broadcast(t.data, src=0))

    # ---- control (gloo) -------------------------------------------------------------------------------
    def agree(self, flags: list[int], digest: str) -> tuple[list[int], bool]:
        """Each of ``flags`` (non-negative ints) as the largest any rank gave, and whether every rank's
        ``digest`` (hex) is the same, in one all-reduce: the digest's words enter as x and -x, so the
        maximum of both gives the largest and the smallest."""
        words = [int(digest[k:k + 14], 16) for k in range(0, 56, 14)]      # 56-bit words: -x never overflows
        t = torch.tensor(list(flags) + words + [-w for w in words], dtype=torch.int64)
        self._run("the per-iteration agreement (stop, log, checkpoint, parameter digest)",
                  lambda: dist.all_reduce(t, op=dist.ReduceOp.MAX, group=self.control))
        n, k = len(flags), len(words)
        same = all(int(t[n + i]) == -int(t[n + k + i]) for i in range(k))
        return [int(v) for v in t[:n]], same

    def gather(self, obj, what: str) -> list | None:
        """Every rank's ``obj`` on rank 0 (in rank order); None elsewhere."""
        out = [None] * self.dist.world_size if self.dist.is_main else None
        self._run(f"gathering {what} on rank 0", lambda: dist.gather_object(obj, out, dst=0, group=self.control))
        return out

    def broadcast_object(self, obj, what: str):
        """Rank 0's ``obj`` on every rank."""
        box = [obj]
        self._run(f"the broadcast of {what}", lambda: dist.broadcast_object_list(box, src=0, group=self.control))
        return box[0]

    def barrier(self, what: str, timeout: float | None = None) -> None:
        """Wait for every rank, at most ``timeout`` seconds (default ``run.dist_timeout``); a rank that
        does not come is named in the error (gloo's monitored barrier)."""
        seconds = self.timeout if timeout is None else timeout
        self._run(what, lambda: dist.monitored_barrier(group=self.control, timeout=timedelta(seconds=seconds)))


def merge_episodes(parts: list[dict]) -> dict:
    """Each rank's finished-episode metrics (``Collector.pop_episodes``) as one set, rank by rank."""
    parts = [p for p in parts if p]
    if not parts:
        return {}
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
