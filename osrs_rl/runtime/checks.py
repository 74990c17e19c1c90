"""Contract checks every encounter must pass (the rules listed in docs/writing-an-encounter.md): library
functions, so tests run them over the whole registry and an encounter author can run them while writing one.

``check_encounter(name_or_spec)`` steps a few envs with random legal actions and checks: shapes and
dtypes of what reset returns; finite observations and rewards; option 0 of every head always
legal; actions drawn from the mask are never reported invalid; never terminated and truncated at
once; identical trajectories for the same seed, on one thread and on two (when Numba has two); a
snapshot, continued, restored and replayed reproduces the run bit for bit; every finished episode
reports its metrics and a valid phase; the metrics kernel writes every metric the spec's metric record
declares (none left NaN in a record filled with NaN); the reward terms the state holds after each step add up to the
reward of every agent (float32 tolerance), and its ``reward_sums`` hold the terms of every tick since the
episode began (so neither observe nor mask writes the terms, and the encounter leaves the sums to the
runtime); an event buffer's count stays within its capacity; an episode does not depend on what its record
held before the reset (``check_reset_clears``);
a declared ``cell_key`` keeps its contract (``check_cell_key``).

``check_reset_clears(name_or_spec)`` plays one seed from fresh (zeroed) records and from records full of
garbage bytes (but the carried fields), through ``VecEnv.reset`` and through the autoreset, and requires
the same observations, rewards, dones, masks and finished-episode metrics.

``check_cell_key(name_or_spec)`` checks the archive key on the states of a random rollout: an integer,
the same for the same state (twice, and on a copy), blind to the RNG (a state and its copy with another
RNG state give one key), leaving the record untouched, and coarse (at most half as many keys as
distinct states visited), so Go-Explore cells group states rather than name each one.
"""

from __future__ import annotations

import numpy as np

from osrs_rl.runtime.kernels import carried_bytes
from osrs_rl.runtime.registry import get_spec
from osrs_rl.runtime.spec import EncounterSpec
from osrs_rl.runtime.vec_env import VecEnv


class ContractError(AssertionError):
    """An encounter broke the runtime contract; the message says where."""


def trace_hash(env: VecEnv, ticks: int, rng_seed: int = 7) -> str:
    """The golden-trace digest of an encounter: ``ticks`` steps of random legal actions from a generator seeded
    ``rng_seed`` on ``env`` as it stands (made and reset by the caller), hashing every env's state record after
    each step; 16 hex digits. A change to a pinned digest is a change to the simulation."""
    import hashlib

    rng = np.random.default_rng(rng_seed)
    h = hashlib.sha256()
    for _ in range(ticks):
        env.step(random_legal_actions(env, rng))
        h.update(env.states.tobytes())
    return h.hexdigest()[:16]


def random_legal_actions(env: VecEnv, rng: np.random.Generator) -> np.ndarray:
    """One random legal action per head for every env (and agent), drawn from the current mask."""
    spec = env.spec
    masks = env._masks
    out = np.zeros((env.num_envs, spec.num_agents, spec.num_heads), dtype=np.int64)
    offset = 0
    for h, head in enumerate(spec.action_heads):
        m = masks[:, :, offset:offset + head.size]
        u = rng.random(m.shape) * m
        out[:, :, h] = u.argmax(axis=-1)          # a legal option (0 is always legal)
        offset += head.size
    return out[:, 0] if env.single_agent else out


def _rollout(spec, seed, threads, ticks, num_envs, action_seed, config):
    env = VecEnv(spec, num_envs=num_envs, seed=seed, threads=threads, **config)
    obs, _ = env.reset()
    rng = np.random.default_rng(action_seed)
    trace = [obs.copy()]
    for _ in range(ticks):
        obs, rew, term, trunc, _ = env.step(random_legal_actions(env, rng))
        trace.append(obs.copy())
        trace.append(np.array(rew, copy=True))
        trace.append(term.copy())
        trace.append(trunc.copy())
    return env, trace


def _first_difference(a, b) -> str | None:
    for k, (x, y) in enumerate(zip(a, b, strict=True)):
        if not np.array_equal(x, y):
            return f"item {k} (tick {max(0, (k - 1) // 4)})"
    return None


def _check_metrics_written(env: VecEnv) -> None:
    """The metrics kernel writes every declared metric: on each env's state, a record filled with NaN has none
    left (a metric it forgets would log the last episode's value, or 0, under its name)."""
    spec = env.spec
    out = spec.metric_record.zeros(1)
    rows = spec.metric_record.rows(out)
    for i in range(env.num_envs):
        rows[:] = np.nan
        spec.metrics(env.states[i], env.config[0], out[0])
        unwritten = [name for name, v in zip(spec.metric_names, rows[0], strict=True) if np.isnan(v)]
        if unwritten:
            raise ContractError(f"{spec.name}: the metrics kernel leaves {unwritten} unwritten (or writes NaN) "
                                f"on env {i}'s state")


def check_encounter(spec_or_name, ticks: int = 200, num_envs: int = 8, seed: int = 123, **config) -> None:
    """Raise ContractError naming the first broken rule; return None when all hold."""
    spec: EncounterSpec = get_spec(spec_or_name) if isinstance(spec_or_name, str) else spec_or_name
    unknown = sorted(set(spec.category_metrics) - set(spec.metric_names))
    if unknown:
        raise ContractError(f"{spec.name}: category_metrics {unknown} are not among its metric_names")

    env = VecEnv(spec, num_envs=num_envs, seed=seed, **config)
    obs, info = env.reset()
    want_obs = (num_envs, spec.obs_size) if env.single_agent else (num_envs, spec.num_agents, spec.obs_size)
    if obs.shape != want_obs or obs.dtype != np.float32:
        raise ContractError(f"{spec.name}: reset obs has shape {obs.shape} {obs.dtype}, expected {want_obs} float32")
    if not np.isfinite(obs).all():
        raise ContractError(f"{spec.name}: non-finite observation after reset")
    rng = np.random.default_rng(seed)
    finished = 0
    sums = np.zeros_like(env.states["reward_sums"])     # the terms of each episode so far, as the runtime adds them
    ended = np.zeros(num_envs, dtype=bool)
    for t in range(ticks):
        masks = env._masks
        offset = 0
        for head in spec.action_heads:
            if not masks[:, :, offset].all():
                raise ContractError(f"{spec.name}: option 0 of head {head.name!r} is masked at tick {t}")
            offset += head.size
        obs, rew, term, trunc, info = env.step(random_legal_actions(env, rng))
        if not np.isfinite(obs).all():
            raise ContractError(f"{spec.name}: non-finite observation at tick {t}")
        if not np.isfinite(rew).all():
            raise ContractError(f"{spec.name}: non-finite reward at tick {t}")
        if info["invalid_actions"].any():
            raise ContractError(f"{spec.name}: legal actions were reported invalid at tick {t}")
        if (term & trunc).any():
            raise ContractError(f"{spec.name}: an env is both terminated and truncated at tick {t}")
        sums[ended] = 0.0                                   # these envs started an episode on this call
        sums += env.states["reward_terms"]
        _check_terms(env, rew, sums, t)
        _check_events(env, t)
        ended = term | trunc
        finished += int(ended.sum())
    metrics = env.pop_metrics()
    if len(metrics["phase"]) != finished:
        raise ContractError(f"{spec.name}: {finished} episodes ended but {len(metrics['phase'])} reported metrics")
    if len(metrics["phase"]) and (metrics["phase"].min() < 0 or metrics["phase"].max() >= len(spec.phase_names)):
        raise ContractError(f"{spec.name}: a phase index outside 0..{len(spec.phase_names) - 1}")
    _check_metrics_written(env)

    # determinism: same seed, same actions -> same trajectory, on one thread and on several
    _, a = _rollout(spec, seed, 1, ticks // 2, num_envs, 7, config)
    _, b = _rollout(spec, seed, 1, ticks // 2, num_envs, 7, config)
    if (where := _first_difference(a, b)) is not None:
        raise ContractError(f"{spec.name}: two runs with one seed differ at {where}")
    _, c = _rollout(spec, seed, 2, ticks // 2, num_envs, 7, config)
    if (where := _first_difference(a, c)) is not None:
        raise ContractError(f"{spec.name}: serial and 2-thread runs differ at {where}")

    # snapshot round trip: snapshot, continue, restore, replay the same actions
    env, _ = _rollout(spec, seed, 1, ticks // 4, num_envs, 11, config)
    blob = env.snapshot_batch(range(num_envs))
    acts = [random_legal_actions(env, np.random.default_rng(100 + k)) for k in range(ticks // 4)]
    first = []
    for act in acts:
        o, r, te, tr, _ = env.step(act)
        first += [o.copy(), np.array(r, copy=True), te.copy(), tr.copy()]
    env.restore_batch(range(num_envs), blob)
    second = []
    for act in acts:
        o, r, te, tr, _ = env.step(act)
        second += [o.copy(), np.array(r, copy=True), te.copy(), tr.copy()]
    if (where := _first_difference(first, second)) is not None:
        raise ContractError(f"{spec.name}: restore + replay differs from the original run at {where}")

    check_reset_clears(spec, ticks=ticks // 4, num_envs=num_envs, seed=seed, **config)
    check_cell_key(spec, ticks=ticks // 2, num_envs=num_envs, seed=seed, **config)


def _play(env: VecEnv, ticks: int, action_seed: int) -> list:
    """What ``ticks`` steps of random legal actions show: obs, rewards, dones, masks, finished metrics."""
    rng = np.random.default_rng(action_seed)
    trace = [env._obs.copy(), env._masks.copy()]
    for _ in range(ticks):
        obs, rew, term, trunc, info = env.step(random_legal_actions(env, rng))
        done_envs, done_metrics = env.finished_last_step()
        trace += [obs.copy(), np.array(rew, copy=True), term.copy(), trunc.copy(), info["action_mask"].copy(),
                  done_envs, done_metrics]
    return trace


def _trace_difference(a: list, b: list) -> str | None:
    names = ("obs", "rewards", "terminated", "truncated", "mask", "finished envs", "finished metrics")
    for k, (x, y) in enumerate(zip(a, b, strict=True)):
        if not np.array_equal(x, y):
            what, tick = ("obs", 0) if k == 0 else ("mask", 0) if k == 1 else (names[(k - 2) % 7], (k - 2) // 7 + 1)
            return f"the {what} of tick {tick}"
    return None


def check_reset_clears(spec_or_name, ticks: int = 30, num_envs: int = 8, seed: int = 123, **config) -> None:
    """Raise ContractError unless an episode plays the same whatever its state record held before its reset
    (the runtime zeroes the record but the spec's ``carried_fields`` before each reset): the same seed from
    fresh records and from records of garbage bytes (carried fields as a fresh record's), through
    ``VecEnv.reset``; then, from records a random rollout used, through the autoreset, with every byte but
    the rng (which draws the next seed) and the carried fields zeroed or garbage."""
    spec: EncounterSpec = get_spec(spec_or_name) if isinstance(spec_or_name, str) else spec_or_name
    keep = carried_bytes(spec).astype(bool)
    garbage = np.random.default_rng(seed)
    fresh = VecEnv(spec, num_envs=num_envs, seed=seed, **config)
    fresh.reset()
    first = _play(fresh, ticks, seed + 1)
    dirty = VecEnv(spec, num_envs=num_envs, seed=seed, **config)
    raw = dirty.states.view(np.uint8).reshape(num_envs, -1)
    raw[:, ~keep] = garbage.integers(0, 256, size=(num_envs, int((~keep).sum())), dtype=np.uint8)
    dirty.reset()
    if (where := _trace_difference(first, _play(dirty, ticks, seed + 1))) is not None:
        raise ContractError(f"{spec.name}: one seed from fresh records and from records of garbage bytes (but the "
                            f"carried fields {list(spec.carried_fields)}) differs at {where}: an episode depends on "
                            f"what its record held before the reset")

    # the autoreset: the used records of the rollout above, all but their rng and carried fields blank or garbage
    rng_field = spec.state_dtype.fields["rng"]
    kept = keep.copy()
    kept[rng_field[1]:rng_field[1] + rng_field[0].itemsize] = True
    used = fresh.states.view(np.uint8).reshape(num_envs, -1).copy()
    traces = []
    # the garbage on two threads: the parallel step clears records too
    for fill, threads in ((np.zeros_like(used), 1), (garbage.integers(0, 256, size=used.shape, dtype=np.uint8), 2)):
        env = VecEnv(spec, num_envs=num_envs, seed=seed, threads=threads, **config)
        env.states.view(np.uint8).reshape(num_envs, -1)[:] = np.where(kept, used, fill)
        env._needs_reset[:] = True          # every env resets on its next step, as after an episode's end
        env._started[:] = True
        traces.append(_play(env, ticks, seed + 2))
    if (where := _trace_difference(*traces)) is not None:
        raise ContractError(f"{spec.name}: an autoreset from blank records and from records of garbage bytes (but the "
                            f"rng and the carried fields {list(spec.carried_fields)}) differs at {where}: an episode "
                            f"depends on what its record held before the reset")


REWARD_TOLERANCE = 1e-5      # the terms are float32 each; the reward their sum rounded to float32


def _check_terms(env: VecEnv, rew, sums, t: int) -> None:
    """Each agent's reward is the sum of its terms in the state, and the state's ``reward_sums`` are ``sums``
    (every tick's terms since the episode began, added in float32 as the runtime adds them)."""
    spec = env.spec
    terms = env.states["reward_terms"]
    total = terms[:, :spec.num_agents].astype(np.float64).sum(axis=-1)   # [envs, agents]
    want = np.asarray(rew, dtype=np.float64).reshape(total.shape)
    bad = np.abs(total - want) > REWARD_TOLERANCE * np.maximum(1.0, np.abs(want))
    if bad.any():
        i, a = (int(v) for v in np.argwhere(bad)[0])
        named = dict(zip(spec.reward_terms, terms[i, a].tolist(), strict=True))
        raise ContractError(f"{spec.name}: the reward terms {named} of env {i}, agent {a} add up to {total[i, a]}, "
                            f"not the reward {want[i, a]} (tick {t}): only step may write the terms")
    held = env.states["reward_sums"]
    bad = np.abs(held.astype(np.float64) - sums) > REWARD_TOLERANCE * np.maximum(1.0, np.abs(sums))
    if bad.any():
        i, a, k = (int(v) for v in np.argwhere(bad)[0])
        raise ContractError(f"{spec.name}: reward_sums[{a}, {k}] ({spec.reward_terms[k]}) of env {i} holds "
                            f"{held[i, a, k]}, not its terms' sum {sums[i, a, k]} this episode (tick {t}): the "
                            f"runtime keeps the sums, the encounter only reads them")


def _check_events(env: VecEnv, t: int) -> None:
    names = env.spec.state_dtype.names or ()
    if "events" not in names:
        return
    count = env.states["event_count"]
    capacity = env.states["events"].shape[1]
    if count.min() < 0 or count.max() > capacity:
        raise ContractError(f"{env.spec.name}: event_count {int(count.max())} outside 0..{capacity} at tick {t}")


RNG_FLIP = np.uint64(0x9E3779B97F4A7C15)   # xor-ed into a copy's RNG state: another stream, same game state
COARSE_SHARE = 0.5                         # a cell key names at most this share of the distinct states seen


def check_cell_key(spec_or_name, ticks: int = 100, num_envs: int = 8, seed: int = 123, **config) -> None:
    """Raise ContractError naming the first broken rule of ``spec.cell_key`` and ``spec.progress`` (nothing to
    check when the encounter declares none)."""
    spec: EncounterSpec = get_spec(spec_or_name) if isinstance(spec_or_name, str) else spec_or_name
    if spec.cell_key is None:
        return
    env = VecEnv(spec, num_envs=num_envs, seed=seed, **config)
    env.reset()
    rng = np.random.default_rng(seed)
    cfg = env.config[0]
    keys, states = set(), set()
    for t in range(ticks + 1):
        for i in range(num_envs):
            record = env.states[i:i + 1].copy()
            before = record.tobytes()
            key = spec.cell_key(record[0], cfg)
            if not isinstance(key, int | np.integer) or isinstance(key, bool | np.bool_):
                raise ContractError(f"{spec.name}: cell_key returned {type(key).__name__} {key!r}, not an integer")
            if record.tobytes() != before:
                raise ContractError(f"{spec.name}: cell_key changed the state record (env {i}, tick {t})")
            again = spec.cell_key(record.copy()[0], cfg)
            if again != key:
                raise ContractError(f"{spec.name}: cell_key gave {key} then {again} for one state (env {i}, tick {t})")
            other = record.copy()
            other["rng"] ^= RNG_FLIP
            flipped = spec.cell_key(other[0], cfg)
            if flipped != key:
                raise ContractError(f"{spec.name}: cell_key reads the RNG: {key} and {flipped} for states that differ "
                                    f"only in their rng (env {i}, tick {t})")
            if spec.progress is not None:
                _check_progress(spec, record, other, cfg, f"env {i}, tick {t}")
            keys.add(int(key))
            states.add(before)
        if t < ticks:
            env.step(random_legal_actions(env, rng))
    if len(keys) > COARSE_SHARE * len(states):
        raise ContractError(f"{spec.name}: cell_key is not coarse: {len(keys)} keys for {len(states)} distinct states "
                            f"(at most {COARSE_SHARE:.0%} as many keys as states)")


def _check_progress(spec, record, other, cfg, where: str) -> None:
    """``spec.progress``: a finite number, the same for one state, blind to the RNG, leaving the record as it was."""
    before = record.tobytes()
    value = spec.progress(record[0], cfg)
    if not isinstance(value, float | np.floating | int | np.integer) or isinstance(value, bool | np.bool_) \
            or not np.isfinite(value):
        raise ContractError(f"{spec.name}: progress returned {value!r}, not a finite number ({where})")
    if record.tobytes() != before:
        raise ContractError(f"{spec.name}: progress changed the state record ({where})")
    again, flipped = spec.progress(record.copy()[0], cfg), spec.progress(other[0], cfg)
    if again != value or flipped != value:
        raise ContractError(f"{spec.name}: progress gave {value}, {again} and {flipped} for one state and its copy "
                            f"with another rng ({where})")
