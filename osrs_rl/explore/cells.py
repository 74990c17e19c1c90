"""Every env's cell key and progress in one compiled call (``spec.cell_key``, ``spec.progress``).

The loop is written once and bound to each encounter's two kernels, as ``osrs_rl.runtime.kernels`` binds
the step: a tracker reads all envs after every tick, so a Python loop over envs would cost more than the
tick itself.
"""

from __future__ import annotations

import types

import numpy as np
from numba import njit

# placeholders the templates' clones see replaced by an encounter's kernels (``cell_reader``, ``phase_reader``)
cell_fn = progress_fn = metrics_fn = None


def _read_template(states, configs, keys, progress):
    config = configs[0]
    for i in range(states.shape[0]):
        keys[i] = cell_fn(states[i], config)
        progress[i] = progress_fn(states[i], config)


_READERS: dict[int, tuple] = {}


def cell_reader(spec):
    """``read(states, configs, keys_out, progress_out)`` for ``spec`` (compiled once per process and spec)."""
    if spec.cell_key is None or spec.progress is None:
        raise ValueError(f"encounter {spec.name!r} declares no cell_key and progress")
    if id(spec) not in _READERS:
        bound = dict(_read_template.__globals__, cell_fn=spec.cell_key, progress_fn=spec.progress)
        fn = types.FunctionType(_read_template.__code__, bound, f"read_cells_{spec.name}")
        _READERS[id(spec)] = (spec, njit(nogil=True)(fn))     # nogil: the trainer's env thread calls it
    return _READERS[id(spec)][1]


def read_cells(env, keys: np.ndarray | None = None, progress: np.ndarray | None = None):
    """The cell key and progress of every env of ``env`` (a VecEnv), into the given arrays or new ones."""
    n = env.num_envs
    keys = np.zeros(n, np.int64) if keys is None else keys
    progress = np.zeros(n, np.float64) if progress is None else progress
    cell_reader(env.spec)(env.states, env.config, keys, progress)
    return keys, progress


def _phase_template(states, configs, ids, phases, scratch):
    config = configs[0]
    for k in range(ids.shape[0]):
        phases[k] = metrics_fn(states[ids[k]], config, scratch[0])


_PHASES: dict[int, tuple] = {}


def read_phases(env, ids) -> np.ndarray:
    """The phase (index into ``spec.phase_names``) the states of envs ``ids`` are in: what the encounter's
    metrics kernel returns for them, in one compiled call."""
    spec = env.spec
    if id(spec) not in _PHASES:
        bound = dict(_phase_template.__globals__, metrics_fn=spec.metrics)
        fn = types.FunctionType(_phase_template.__code__, bound, f"read_phases_{spec.name}")
        _PHASES[id(spec)] = (spec, njit(nogil=True)(fn))
    ids = np.ascontiguousarray(ids, dtype=np.int64)
    phases = np.zeros(len(ids), np.int64)
    _PHASES[id(spec)][1](env.states, env.config, ids, phases, spec.metric_record.zeros(1))
    return phases
