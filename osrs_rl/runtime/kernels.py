"""Batched kernels: one compiled call steps every env of a VecEnv.

The loops are written once, below, and bound to each encounter's kernels (``BatchKernels``), so no
encounter writes a loop over envs. Each env's randomness lives in its record,
so the serial and the ``prange`` versions give identical results whatever the thread count.

Every reset starts from a blank record: the runtime zeroes the env's state record (``clear_record``)
but for the fields the spec declares carried (``EncounterSpec.carried_fields``), then calls the
encounter's reset, so a field that reset does not set starts every episode at 0, never at what the
last episode left.

Order of one env's tick inside ``BatchKernels.step`` (env i) (Gymnasium's next-step autoreset):
  1. if the env finished on the previous call: draw a seed from its own RNG (so the state record
     alone decides every later episode), clear the record (its reward terms and sums with it) and reset
     it with that seed; reward 0, not terminated, not truncated (the actions given are ignored);
  2. else: replace masked actions by 0 (counted), zero the state's ``reward_terms``, call the
     encounter's step, then sum each agent's row of terms into its reward and add every row into the
     state's ``reward_sums`` (``add_up_rewards``); if the episode ended, let its metrics kernel write
     record i of the finished-episode metrics (a structured array of the spec's ``metric_record.dtype``,
     written by field name) and its phase, and mark it;
  3. observe and mask into row i of the output buffers.
"""

import types
import warnings

import numpy as np
from numba import njit, prange

from osrs_rl.core.rng import mix64, next_u64
from osrs_rl.runtime import kernel_cache

_EPISODE_STRIDE = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True)
def episode_seed(base_seed, env_index, episode):
    """The seed ``VecEnv.reset`` gives env ``env_index``: ``episode`` counts that env's episodes since
    the base seed was set, so ``reset(seed=s)`` always replays the same starts."""
    return mix64(np.uint64(base_seed) ^ mix64(np.uint64(env_index) * _EPISODE_STRIDE + np.uint64(episode)))


@njit(cache=True, inline="always")
def sanitize_actions(actions, mask, head_offsets):
    """Set each masked (illegal) action to 0, the no-op; return how many were replaced.
    Branch-free: agents' random actions make the legality test unpredictable."""
    bad = 0
    for a in range(actions.shape[0]):
        for h in range(head_offsets.shape[0]):
            v = actions[a, h]
            ok = np.int64(mask[a, head_offsets[h] + v])
            actions[a, h] = v * ok
            bad += 1 - ok
    return bad


@njit(cache=True, inline="always")
def _zero(table):
    # element by element: a slice assignment (table[:, :] = 0) inside prange was lost in the parallel kernel
    for a in range(table.shape[0]):
        for k in range(table.shape[1]):
            table[a, k] = 0.0


@njit(cache=True, inline="always")
def clear_reward_terms(state):
    """Before a step: zero the state's ``reward_terms``, which the step adds its terms into."""
    _zero(state.reward_terms)


@njit(cache=True, inline="always")
def add_up_rewards(state, rewards):
    """After a step: each agent's reward is the sum of its row of ``reward_terms`` (in float64, in column
    order, then rounded once to float32), and every row (a scripted player's too) joins ``reward_sums``."""
    terms, sums = state.reward_terms, state.reward_sums
    for a in range(terms.shape[0]):
        total = 0.0
        for k in range(terms.shape[1]):
            sums[a, k] += terms[a, k]
            total += terms[a, k]
        if a < rewards.shape[0]:
            rewards[a] = total


def carried_bytes(spec) -> np.ndarray:
    """uint8 [state itemsize]: 0xFF over the bytes of ``spec.carried_fields``, 0 elsewhere (``clear_record``'s
    mask)."""
    keep = np.zeros(spec.state_dtype.itemsize, dtype=np.uint8)
    for name in spec.carried_fields:
        dtype, offset = spec.state_dtype.fields[name][:2]
        keep[offset:offset + dtype.itemsize] = 0xFF
    return keep


@njit(cache=True, inline="always")
def clear_record(states, i, carried):
    """Zero record ``i`` of ``states`` (C-contiguous) but its carried bytes (``carried_bytes``): one vectorised
    pass over the record's bytes, 0.2 us for the Inferno's 3.8 KB, serial or under prange. Indexed as a row of
    a 2-D byte view: a flat index (record start + byte) ran 20 times slower under prange."""
    row = states.view(np.uint8).reshape(states.shape[0], carried.shape[0])[i]
    for b in range(carried.shape[0]):
        row[b] &= carried[b]


@njit(cache=True)
def first_bad_action(src, head_sizes):
    """Flat index of the first action outside its head's range, or -1."""
    flat = src.reshape(-1)
    heads = head_sizes.shape[0]
    for row in range(flat.shape[0] // heads):
        for h in range(heads):
            v = flat[row * heads + h]
            if v < 0 or v >= head_sizes[h]:
                return row * heads + h
    return -1


@njit(cache=True)
def copy_checked_actions(src, dst, head_sizes):
    """Copy ``src`` into ``dst`` (both [envs, agents, heads]); return the flat index of the first
    value outside its head's range, or -1. ``dst`` is the runtime's scratch buffer, so a partial
    copy before an error changes no env."""
    flat, out = src.reshape(-1), dst.reshape(-1)
    heads = head_sizes.shape[0]
    for row in range(flat.shape[0] // heads):
        for h in range(heads):
            k = row * heads + h
            v = flat[k]
            if v < 0 or v >= head_sizes[h]:
                return k
            out[k] = v
    return -1


# ---- loop templates ---------------------------------------------------------------------------
# These read the encounter's kernels from the module globals below. BatchKernels gets each template
# with those names bound to one encounter's functions (a generated module, or a clone), so Numba sees
# static calls it can inline (passing the functions as arguments or closure values costs 2-3x in
# throughput here).
reset_fn = step_fn = observe_fn = mask_fn = metrics_fn = None


def _step_template(src, states, configs, episodes, needs_reset, actions, head_sizes, head_offsets, rewards,
                   terminated, truncated, obs, masks, invalid, finished, finished_metrics, finished_phase,
                   done_envs, done_metrics, done_phase, carried):
    """Validate every action first (nothing changes if one is out of range: its flat index is
    returned), then run one tick of every env; returns (-1, episodes finished), with the ended
    envs, their metric records and phases packed in ``done_envs``, ``done_metrics``, ``done_phase[:count]``."""
    bad = copy_checked_actions(src, actions, head_sizes)
    if bad >= 0:
        return bad, 0
    done = 0
    # prange is a plain range in the serial clone; configs[0] is read inside the loop because
    # Numba's parallel regions cannot take a record from outside
    for i in prange(states.shape[0]):
        state = states[i]
        config = configs[0]
        finished[i] = False
        if needs_reset[i]:
            episodes[i] += 1
            seed = next_u64(state.rng)          # drawn before the record (its rng too) is cleared
            clear_record(states, i, carried)
            reset_fn(state, config, seed)
            needs_reset[i] = False
            rewards[i, :] = 0.0
            terminated[i] = False
            truncated[i] = False
            invalid[i] = 0
        else:
            act = actions[i]
            invalid[i] = sanitize_actions(act, masks[i], head_offsets)
            clear_reward_terms(state)
            term, trunc = step_fn(state, config, act)
            add_up_rewards(state, rewards[i])
            terminated[i] = term
            truncated[i] = trunc
            if term or trunc:
                finished_phase[i] = metrics_fn(state, config, finished_metrics[i])
                finished[i] = True
                needs_reset[i] = True
                done += 1
        observe_fn(state, config, obs[i])
        mask_fn(state, config, masks[i])
    if done:
        k = 0
        for i in range(states.shape[0]):
            if finished[i]:
                done_envs[k] = i
                done_metrics[k] = finished_metrics[i]
                done_phase[k] = finished_phase[i]
                k += 1
    return -1, done


def _reset_template(states, configs, base_seed, episodes, needs_reset, indices, obs, masks, carried):
    config = configs[0]
    for k in range(indices.shape[0]):
        i = indices[k]
        episodes[i] += 1
        clear_record(states, i, carried)
        reset_fn(states[i], config, episode_seed(base_seed, i, episodes[i]))
        needs_reset[i] = False
        observe_fn(states[i], config, obs[i])
        mask_fn(states[i], config, masks[i])


def _refresh_template(states, configs, indices, obs, masks):
    config = configs[0]
    for k in range(indices.shape[0]):
        i = indices[k]
        observe_fn(states[i], config, obs[i])
        mask_fn(states[i], config, masks[i])


# name -> (template, jit options). nogil: a trainer steps one half of its envs in a thread while the
# policy reads the other half
_KERNELS = {
    "step": (_step_template, {"nogil": True}),
    "step_parallel": (_step_template, {"nogil": True, "parallel": True}),
    "reset": (_reset_template, {"nogil": True}),
    "refresh": (_refresh_template, {"nogil": True}),
}


def _encounter_functions(spec) -> dict:
    """The names the templates call -> the encounter's kernels."""
    return {"reset_fn": spec.reset, "step_fn": spec.step, "observe_fn": spec.observe, "mask_fn": spec.mask,
            "metrics_fn": spec.metrics}


def _bind(template, spec, **jit_options):
    """A clone of ``template`` calling ``spec``'s kernels, compiled per process: clones share their
    template's code location, so Numba's disk cache could not tell encounters apart (kernel_cache does)."""
    bound = dict(template.__globals__, **_encounter_functions(spec))
    fn = types.FunctionType(template.__code__, bound, f"{template.__name__}_{spec.name}")
    return njit(**jit_options)(fn)


class BatchKernels:
    """The batched kernels of one encounter: serial and parallel step, reset and refresh. From a
    generated module whose compile is cached on disk (``kernel_cache``) where the encounter's kernels
    can be imported by name, else bound in this process."""

    def __init__(self, spec):
        stray = spec.metric_record.stray_fields(spec.metrics)
        if stray:
            raise ValueError(f"encounter {spec.name!r}: its metrics kernel writes out.{stray[0]}, not a field of its "
                             f"metric record ({', '.join(spec.metric_dtype.names)}): declare it or write a declared "
                             f"name")
        try:
            cached = kernel_cache.load(spec.name, _KERNELS, _encounter_functions(spec))
        except Exception as e:                  # noqa: BLE001 - a cache is never worth a failed run
            warnings.warn(f"the batched kernels of {spec.name!r} compile per process: their disk cache failed "
                          f"({type(e).__name__}: {e})", RuntimeWarning, stacklevel=2)
            cached = None
        self.cached = cached is not None
        for name, (template, options) in _KERNELS.items():
            setattr(self, name, cached[name] if cached else _bind(template, spec, **options))


_BOUND: dict[int, tuple] = {}


def bound_kernels(spec) -> BatchKernels:
    """The (memoised) BatchKernels of ``spec``."""
    key = id(spec)
    if key not in _BOUND:
        _BOUND[key] = (spec, BatchKernels(spec))
    return _BOUND[key][1]
