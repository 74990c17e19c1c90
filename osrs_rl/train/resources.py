"""What a run will allocate, estimated before it allocates it, against what the machine can give.

A run with too many envs must be refused in one line at the start, not killed by the kernel's
out-of-memory killer half way through its setup (a folder and no checkpoint) or stopped by a raw
``MemoryError``. The estimate counts the large arrays: each env's state row and step buffers, the
rollout storage (``horizon`` x ``num_envs`` observations, masks, actions, values) and the update's
copies of one minibatch with its activations; it leaves out the interpreter, torch and the compiled
kernels (about half a gigabyte, fixed). Measured on the template (peak resident memory of a 2-iteration
run against the estimate): 65,536 envs 1.9 GB against 1.6 GB, 262,144 envs 5.3 GB against 6.2 GB.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from osrs_rl.runtime.vec_env import bytes_per_env

GB = 1e9
HEADROOM = 0.9          # a run may plan to use this share of what is available, not all of it


def estimate_bytes(spec, cfg, state_size: int) -> dict[str, int]:
    """The large allocations of a training run with ``cfg`` (bytes, by part)."""
    n, t = cfg.env.num_envs, cfg.ppo.horizon
    per_step = spec.obs_size * 4 + spec.mask_size + spec.num_heads * 8 + 4 * 6 + 4   # RolloutStorage, one (t, env)
    minibatch = (t * n) // max(cfg.ppo.minibatches, 1)
    activations = minibatch * (spec.obs_size * 4 + 4 * cfg.model.hidden * 8)          # gathered inputs, layers, grads
    return {"envs": n * bytes_per_env(spec),
            "rollout buffers": (t + 1) * n * per_step + n * state_size * 4 * 3,
            "update": minibatch * per_step + activations}


def available_bytes() -> int | None:
    """Memory this process can still take: the smaller of the machine's available memory and what its
    cgroup (a container's limit) leaves; None where neither can be read."""
    found = []
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                found.append(int(line.split()[1]) * 1024)
    except (OSError, ValueError):
        pass
    try:
        limit = Path("/sys/fs/cgroup/memory.max").read_text().strip()
        if limit != "max":
            used = int(Path("/sys/fs/cgroup/memory.current").read_text().strip())
            found.append(max(int(limit) - used, 0))
    except (OSError, ValueError):
        pass
    return min(found) if found else None


def memory_problem(spec, cfg, state_size: int, available: int | None = None, update_on_host: bool = True
                   ) -> str | None:
    """Why a run with ``cfg`` cannot fit in this machine's memory (one line), or None when it fits or the
    memory cannot be read. ``available``: bytes (default: ``available_bytes()``). ``update_on_host``: the
    update runs on the CPU (on a GPU its minibatch and activations live in the GPU's memory instead)."""
    available = available_bytes() if available is None else available
    if available is None:
        return None
    parts = estimate_bytes(spec, cfg, state_size)
    if not update_on_host:
        del parts["update"]
    need = sum(parts.values())
    if need <= HEADROOM * available:
        return None
    most = max(int(HEADROOM * available / (need / cfg.env.num_envs)), 0)
    split = ", ".join(f"{k} {v / GB:.1f}" for k, v in parts.items())
    return (f"env.num_envs {cfg.env.num_envs:,} with ppo.horizon {cfg.ppo.horizon} needs about {need / GB:.1f} GB "
            f"({split}) and this machine has {available / GB:.1f} GB available: give at most about {most:,} envs "
            f"here (or a shorter ppo.horizon, or more ppo.minibatches)")


def check_memory(spec, cfg, state_size: int, device_type: str = "cpu") -> None:
    """Refuse (ValueError, one line) a run that would not fit in memory, before it allocates anything."""
    problem = memory_problem(spec, cfg, state_size, update_on_host=device_type == "cpu")
    if problem is not None:
        raise ValueError(problem)


def busy_note(cores: int, threads: int) -> str | None:
    """A one-line warning when other processes compete for this run's cores, or None: the one-minute load
    average (runnable threads, this run's included: at most ``threads`` of them) above the cores. Torch's
    threads then wait on each other's time slices; ``scripts/bench_threads.py --busy 1`` measures how much
    (on 2 cores with a busy process beside it, the template's default fell from 94 K to 2.3 K steps/s
    before ``OMP_WAIT_POLICY=PASSIVE``; see ``osrs_rl/__init__.py``)."""
    try:
        load = os.getloadavg()[0]
    except (OSError, AttributeError):        # not on every platform
        return None
    if load <= max(cores, threads) + 0.75:
        return None
    return (f"note: the machine is busy (load average {load:.1f} on {cores} cores, this run uses up to {threads} "
            "threads): other processes are taking its cores and its steps/s fall; where they stay, "
            "--run.torch_threads 1 loses least")


# ---- threads ---------------------------------------------------------------------------------------------
def machine_cores() -> int:
    """The cores this process may run on: its CPU affinity where the OS reports one (a container's or
    ``taskset``'s share of a larger machine), else every core the OS counts."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):       # not on every platform
        return os.cpu_count() or 1


def auto_env_threads(cores: int, device_type: str, overlap: bool) -> int:
    """``env.env_threads`` 0 (auto): Numba threads per env half on ``cores`` cores. Half of them where the envs step
    beside torch on the same cores (a CPU with ``env.overlap``); every core but one where they do not share them
    (the network on a GPU, or the envs and the network taking turns without overlap). On 2 cores both give 1, the
    value every 2-core figure was measured with; the many-core values are unmeasured until the device check
    (``osrs-rl device-check``) has run on such a machine."""
    if device_type == "cpu" and overlap:
        return max(1, cores // 2)
    return max(1, cores - 1)


@dataclass(frozen=True)
class Threads:
    """How a run shares the cores: Numba threads per env half, torch threads during rollouts and in updates."""

    env: int
    rollout: int
    learn: int


def thread_plan(env_threads: int, torch_threads: int, overlap: bool, device_type: str, cores: int,
                ranks_here: int | None = None) -> Threads:
    """The threads of a run on ``cores`` cores (``machine_cores``); ``ranks_here``: the processes of its torchrun
    job on this machine (None: a plain run). ``env_threads`` and ``torch_threads`` are the settings (0: auto).

    Torch: during rollouts the env worker's threads are left to it with ``overlap``, so the two never
    oversubscribe the cores; the update has every core (the envs are idle then). Under torchrun on a CPU each
    rank gets one core (the ranks share the machine's); on a GPU the cores are shared out between the ranks.

    >>> thread_plan(0, 0, True, "cpu", 2)
    Threads(env=1, rollout=1, learn=2)
    """
    if ranks_here is not None:
        cores = 1 if device_type == "cpu" else max(1, cores // ranks_here)
    env = env_threads or auto_env_threads(cores, device_type, overlap)
    worker = env if overlap else 0
    return Threads(env=env, rollout=torch_threads or max(1, cores - worker), learn=torch_threads or cores)
