"""osrs-rl: a reinforcement-learning workbench for tick-accurate Old School RuneScape encounters."""

import os as _os

__version__ = "0.6.1"

# Torch's OpenMP threads spin while they wait for each other; when another process holds one of their
# cores every parallel product waits a time slice. Passive waiting (set before torch loads OpenMP; a
# user's own setting wins) measured on 2 cores beside one busy process, the template's preset with the
# default threads: 2,260 env steps/s spinning, 42,647 passive; alone 94 K and 98 K
# (scripts/bench_threads.py, docs/threads.md).
_os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

# Numba's cache checks a kernel against its own file only; a folder per version of the package's sources
# (set before anything imports Numba; a user's NUMBA_CACHE_DIR wins) keeps a caller from loading a compile
# made against another module's old code, and lets an unchanged tree skip compiling (core/numba_cache.py).
from osrs_rl.core.numba_cache import use_source_keyed_cache as _use_source_keyed_cache  # noqa: E402

_use_source_keyed_cache()


def make(name: str, num_envs: int = 1, seed: int = 0, threads: int = 1, **config):
    """A batched env of encounter ``name`` (see ``osrs_rl.runtime.vec_env.VecEnv``).

    >>> env = make("template", num_envs=2, seed=0)
    >>> obs, info = env.reset()
    >>> obs.shape
    (2, 7)
    """
    from osrs_rl.runtime.registry import make as _make

    return _make(name, num_envs=num_envs, seed=seed, threads=threads, **config)
