"""Data-parallel PPO under torchrun: where this process stands in the job, its seeds, and the
collectives the trainer needs.

    torchrun --nproc-per-node 2 -m osrs_rl.cli train template          # 2 ranks on this machine

torchrun starts one process per rank and tells each where it stands through environment variables
(``RANK``, ``WORLD_SIZE``, ``LOCAL_RANK``, ``LOCAL_WORLD_SIZE``, ``MASTER_ADDR``, ``MASTER_PORT``;
PyTorch docs, "torchrun (Elastic Launch)"). ``from_environment`` reads them; a process started any
other way (or a one-process torchrun job) is rank 0 of 1.

The trainer reaches the other ranks only through a collectives object (``collectives``): ``Group``
under torchrun, ``SingleProcess`` otherwise. Both offer the same methods and the trainer calls them
unconditionally; ``SingleProcess`` makes no torch.distributed call, and each of its methods does what
the trainer did alone before this module existed (identity broadcasts and gathers, no gradient
averaging, local advantage normalisation), so a plain run draws and computes the same numbers.

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
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import NamedTuple

import numpy as np
import torch
import torch.distributed as dist

from osrs_rl.train.losses import normalize_advantages

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


LossShare = Callable[[torch.Tensor], torch.Tensor]


def _as_is(loss: torch.Tensor) -> torch.Tensor:
    return loss


class Agreement(NamedTuple):
    """What the ranks settled at the end of an iteration (``agree_iteration``)."""

    log_now: bool
    save_now: bool
    stop: bool                      # a stop signal reached some rank: every rank stops now
    train_seconds: float            # rank 0's training time, the same on every rank
    digests: list[str] | None       # every rank's parameter digest, on rank 0 (``log.param_digests``); else None


class SingleProcess:
    """The collectives of a one-process run: the trainer calls the same methods as on a ``Group`` and each
    does what a job of one rank would, without torch.distributed: broadcasts and gathers hand their
    argument back, gradients stay as they are, advantages are normalised with their own moments
    (``losses.normalize_advantages``), and the loss is its own. Nothing here changes a number."""

    enabled = False
    wait = 0.0              # seconds spent waiting for other ranks: there are none

    def __init__(self, where: Dist | None = None):
        self.dist = where or Dist()

    def close(self) -> None:
        pass

    def begin_training(self) -> None:
        pass

    def broadcast_parameters(self, model: torch.nn.Module) -> None:
        pass

    def broadcast_object(self, obj, what: str):
        return obj

    def minibatch_advantages(self, advantages: torch.Tensor, valid: torch.Tensor,
                             normalize: bool) -> tuple[torch.Tensor, LossShare]:
        """The minibatch's advantages (normalised over its valid entries when ``normalize``) and the map
        from this process's mean loss to its share of the job's: the loss itself."""
        return (normalize_advantages(advantages, valid) if normalize else advantages), _as_is

    def average_gradients(self, params: Iterable[torch.nn.Parameter]) -> None:
        pass

    def agree_iteration(self, log_now: bool, save_now: bool, stop_requested: bool, train_seconds: float,
                        model: torch.nn.Module, digests: bool, when: str) -> Agreement:
        """This process's own decisions. A stop signal raises KeyboardInterrupt at once in a one-process
        run (nothing to agree on), so ``stop`` is False; ``digests``: its parameter digest, for
        ``param_digests.txt``."""
        return Agreement(log_now, save_now, False, train_seconds, [parameter_digest(model)] if digests else None)

    def gather_log(self, scalars: dict, episodes: dict, seconds: float, iterations: int) -> tuple[dict, dict]:
        """This process's scalars and finished episodes, as they are."""
        return scalars, episodes

    def barrier(self, what: str, timeout: float | None = None) -> None:
        pass


def collectives(where: Dist, device: torch.device, timeout: float) -> SingleProcess | Group:
    """The trainer's collectives: a ``Group`` of the job's ranks under torchrun (joining its process group,
    ``run.dist_timeout`` = ``timeout``), else ``SingleProcess``."""
    return Group(where, device, timeout) if where.enabled else SingleProcess(where)


class Group:
    """The trainer's collectives over the job's ranks, each timed (``wait``: seconds spent inside them,
    waiting for the others included) and each failing with ``DistributedError``. The methods the trainer
    calls are ``SingleProcess``'s; the lower-level ones below them (``moments``, ``agree``, ``gather``)
    are what they are built of."""

    enabled = True

    def __init__(self, where: Dist, device: torch.device, timeout: float):
        self.dist = where
        self.device = device
        self.timeout = float(timeout)
        self.backend = "nccl" if device.type == "cuda" else "gloo"
        self.wait = 0.0
        self._logged_wait = 0.0     # ``wait`` at the last log
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

    def begin_training(self) -> None:
        """The first log's sync time starts here: the setup's broadcasts are not part of it."""
        self._logged_wait = self.wait

    # ---- the update ---------------------------------------------------------------------------------
    def minibatch_advantages(self, advantages: torch.Tensor, valid: torch.Tensor,
                             normalize: bool) -> tuple[torch.Tensor, LossShare]:
        """The minibatch is every rank's segments: the advantages normalised (``normalize``) with the moments
        over all of them, and the map from this rank's mean loss to its share of the mean over every rank's
        valid entries (weighted by its count), so that the averaged gradient is the gradient of the mean
        over all of them, what one process holding them all would take."""
        count, mean, std = self.moments(advantages, valid)
        if normalize:
            advantages = global_normalize(advantages, valid, mean, std)
        share = (self.dist.world_size * valid.sum().double() / count.clamp(min=1.0)).float()
        return advantages, lambda loss: loss * share

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
    def agree_iteration(self, log_now: bool, save_now: bool, stop_requested: bool, train_seconds: float,
                        model: torch.nn.Module, digests: bool, when: str) -> Agreement:
        """The ranks' one collective per iteration: whether to log and save (rank 0's clock), to stop (a
        signal to any rank), rank 0's training time (so the schedules' progress and ``run.total_minutes``
        agree on every rank), and a check that every rank holds the same parameters (their SHA-256,
        DistributedError naming ``when`` if not); with ``digests`` every rank's digest is gathered on rank 0."""
        digest = parameter_digest(model)
        main = self.dist.is_main
        (log_now, save_now, stop, micros), same = self.agree(
            [int(log_now and main), int(save_now and main), int(bool(stop_requested)),
             int(train_seconds * 1e6) if main else 0], digest)
        gathered = self.gather(digest, "the parameter digests") if digests else None
        if not same:
            raise DistributedError(f"rank {self.dist.rank}: the ranks' parameters differ {when}: their gradients "
                                   "were not averaged alike")
        return Agreement(bool(log_now), bool(save_now), bool(stop), micros / 1e6, gathered)

    def gather_log(self, scalars: dict, episodes: dict, seconds: float, iterations: int) -> tuple[dict, dict] | None:
        """Every rank's scalars and finished episodes as one set on rank 0 (``merge_ranks``,
        ``merge_episodes``), with the seconds each spent in the collectives since the last log; None on
        the other ranks."""
        waited, self._logged_wait = self.wait - self._logged_wait, self.wait
        mine = {"scalars": scalars, "episodes": episodes, "sync": waited, "seconds": seconds, "iterations": iterations}
        parts = self.gather(mine, "the logged statistics")
        if not self.dist.is_main:
            return None
        return merge_ranks(parts), merge_episodes([p["episodes"] for p in parts])

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
        """Wait for every rank, at most ``timeout`` seconds and never longer than ``run.dist_timeout``; a
        rank that does not come is named in the error (gloo's monitored barrier)."""
        seconds = self.timeout if timeout is None else min(timeout, self.timeout)
        self._run(what, lambda: dist.monitored_barrier(group=self.control, timeout=timedelta(seconds=seconds)))


def merge_ranks(parts: list[dict]) -> dict:
    """One set of scalars from every rank's (``Group.gather_log``'s parts): losses and times are means over
    the ranks (each rank's own minibatch means; the gradient norm is the same on all, taken after
    averaging); ``perf/steps_per_second`` is the job's, the sum of the ranks'. ``perf/scaling_efficiency``
    is the share of the ranks' wall time spent on their own rollouts and updates rather than inside the
    collectives (communicating, or waiting for a slower rank): 1 if the ranks cost each other nothing. It
    cannot see what sharing the machine costs them (cores, memory bandwidth): comparing the job's steps/s
    with a one-process run's shows that."""
    scalars = [p["scalars"] for p in parts]
    out = {k: float(np.mean([s[k] for s in scalars if k in s])) for k in scalars[0]}
    rates = [s["perf/steps_per_second"] for s in scalars]
    out["perf/steps_per_second"] = float(sum(rates))
    out["perf/steps_per_second_per_rank"] = float(np.mean(rates))
    out["perf/slowest_rank_steps_per_second"] = float(min(rates))
    busy = [1.0 - min(p["sync"] / p["seconds"], 1.0) if p["seconds"] > 0 else 1.0 for p in parts]
    out["perf/scaling_efficiency"] = float(np.mean(busy))
    out["perf/sync_seconds"] = float(np.mean([p["sync"] / max(p["iterations"], 1) for p in parts]))
    out["perf/ranks"] = float(len(parts))
    return out


def merge_episodes(parts: list[dict]) -> dict:
    """Each rank's finished-episode metrics (``Collector.pop_episodes``) as one set, rank by rank."""
    parts = [p for p in parts if p]
    if not parts:
        return {}
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
