"""A bounds fuzz of restored states: every leaf field of an encounter's state dtype, set to values in
range, at the range's edges, outside it and to random bytes; then either validation refuses the
state or the kernels run on it without an out-of-bounds access, an exception or a hang.

Each trial takes a state from a pool of states reached by random legal play, changes one element of
one leaf field (one trial in eight changes several), hands it to ``VecEnv.set_states`` (which checks
``spec.state_bounds``) and, when accepted, steps it ``ticks`` ticks with random legal actions,
calling observe, mask (inside step), metrics, ``cell_key``, ``spec.scene`` and reading the reward
terms (``runtime.rewards``) on the way. The kernels run in a worker process with
``NUMBA_BOUNDSCHECK=1``, so an index outside an array raises ``IndexError`` instead of reading or
writing another env's memory; the parent puts a time limit on every trial (a hang) and restarts a
worker that dies (a segfault), going on with the next trial.

    python -m osrs_rl.runtime.fuzz --trials 2000 zulrah pvp template   # figures: a table by field

The worker's Numba cache is a folder of its own (bounds-checked machine code differs from the package's
ordinary cache), named like that one by a hash of every source file of the package and the compiler
versions (``osrs_rl.core.numba_cache``), so cached kernels always match the code and the bounds-checked
compile (minutes on two cores) is paid once per change of the code.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

POOL_ENVS, POOL_TICKS, POOL_EVERY = 8, 240, 16      # the pool: states after 0, 16, ... 240 ticks of random play
MULTI_SHARE = 8                                      # one trial in this many changes 2..6 fields at once


# ---- the state dtype's leaves ---------------------------------------------------------------------
def leaves(dtype: np.dtype, prefix: str = "") -> list[str]:
    """Dotted paths of every leaf (non-record) field of ``dtype``."""
    out = []
    for name in dtype.names:
        sub = dtype.fields[name][0]
        base = sub.base if sub.shape else sub
        path = prefix + name
        out += leaves(base, path + ".") if base.names else [path]
    return out


def element_shape(dtype: np.dtype, path: str) -> tuple[int, ...]:
    """The index shape of the elements at ``path`` (array axes along the path, in order)."""
    from osrs_rl.runtime.bounds import leaf

    return tuple(n for _, shape in leaf(dtype, path)[1] for n in shape)


def element_offset(dtype: np.dtype, path: str, index: tuple[int, ...]) -> int:
    """Byte offset inside one record of the element ``index`` of the field at ``path``."""
    offset, dt, k = 0, dtype, 0
    for name in path.split("."):
        sub, off = dt.fields[name][:2]
        offset += off
        base = sub.base if sub.shape else sub
        if sub.shape:
            flat = int(np.ravel_multi_index(index[k:k + len(sub.shape)], sub.shape))
            offset += flat * base.itemsize
            k += len(sub.shape)
        dt = base
    return offset


# ---- values to try ----------------------------------------------------------------------------------
def _int_range(dt: np.dtype) -> tuple[int, int]:
    if dt.kind == "b":
        return 0, 255                              # a bool's byte, written raw
    info = np.iinfo(dt)
    return int(info.min), int(info.max)


def candidate(rng, dt: np.dtype, current, bound_range) -> tuple[str, bytes]:
    """(label, raw bytes) of one value for an element of base dtype ``dt``."""
    if rng.random() < 0.15:
        return "random bytes", rng.bytes(dt.itemsize)
    if dt.kind == "f":
        v = [np.nan, np.inf, -np.inf, 0.0, -1.0, float(rng.normal() * 1e4), float(current) * 2][int(rng.integers(7))]
        return f"{v}", np.array(v, dtype=dt).tobytes()
    lo_t, hi_t = _int_range(dt)
    choices = [0, 1, -1, lo_t, hi_t, int(rng.integers(-64, 64)), int(current) + int(rng.integers(-3, 4)),
               int(rng.integers(lo_t, hi_t, endpoint=True, dtype=np.uint8 if dt.kind == "b" else dt))]
    if bound_range is not None:
        lo, hi = bound_range
        choices += [lo, hi, lo - 1, hi + 1, int(rng.integers(lo, hi, endpoint=True)) if lo <= hi else lo] * 2
    v = min(max(int(choices[int(rng.integers(len(choices)))]), lo_t), hi_t)
    raw = np.array(v, dtype=np.uint8 if dt.kind == "b" else dt).tobytes()
    return str(v), raw


def bound_range(spec, records, config, path, where) -> tuple[int, int] | None:
    """The declared range of the element ``where`` (record axis first) of ``path``, if any."""
    from osrs_rl.runtime.bounds import _limit, field_values

    for b in spec.state_bounds:
        if b.path == path:
            shape = field_values(records, path).shape
            try:
                lo = int(np.broadcast_to(_limit(b.low, records, config), shape)[where])
                hi = int(np.broadcast_to(_limit(b.high, records, config), shape)[where])
            except (IndexError, ValueError):      # a bound reading another field that is out of range
                return None
            return lo, hi
    return None


# ---- the worker (runs with NUMBA_BOUNDSCHECK=1) ---------------------------------------------------------
def _pool(spec, seed: int) -> list[np.ndarray]:
    from osrs_rl.runtime.checks import random_legal_actions
    from osrs_rl.runtime.vec_env import VecEnv

    env = VecEnv(spec, num_envs=POOL_ENVS, seed=seed)
    env.reset()
    rng = np.random.default_rng(seed)
    pool = [env.get_states()]
    for t in range(1, POOL_TICKS + 1):
        env.step(random_legal_actions(env, rng))
        if t % POOL_EVERY == 0:
            pool.append(env.get_states())
    return [p[i:i + 1].copy() for p in pool for i in range(POOL_ENVS)]


def mutate(spec, config, rec: np.ndarray, rng, paths: list[str], first: int) -> str:
    """Change one element of leaf ``paths[first]`` (and of 1..5 random others, one trial in
    MULTI_SHARE); describe what changed."""
    from osrs_rl.runtime.bounds import field_values, leaf

    dtype = spec.state_dtype
    count = int(rng.integers(2, 7)) if rng.integers(MULTI_SHARE) == 0 else 1
    raw = rec.view(np.uint8)
    parts = []
    for j in range(count):
        path = paths[first if j == 0 else int(rng.integers(len(paths)))]
        shape = element_shape(dtype, path)
        index = tuple(int(rng.integers(n)) for n in shape)
        base, _ = leaf(dtype, path)
        current = field_values(rec, path)[(0,) + index]
        label, value = candidate(rng, base, current, bound_range(spec, rec, config, path, (0,) + index))
        off = element_offset(dtype, path, index)
        raw[off:off + base.itemsize] = np.frombuffer(value, dtype=np.uint8)
        parts.append(f"{path}{''.join(f'[{i}]' for i in index)}={label}")
    return ";".join(parts)


def _exercise(env, spec, rng, ticks: int) -> None:
    from osrs_rl.runtime.checks import random_legal_actions
    from osrs_rl.runtime.rewards import tick_terms

    cfg = env.config[0]
    out = spec.metric_record.zeros(1)
    agents = range(spec.num_agents)
    for t in range(ticks):
        prev = env.states[0].copy()
        if t < 2 or t == ticks - 1:
            for a in agents:
                if spec.scene is not None:
                    spec.scene(env.states[0], cfg, a, None if t == 0 else prev)
        env.step(random_legal_actions(env, rng))
        spec.metrics(env.states[0], cfg, out[0])
        if spec.cell_key is not None:
            spec.cell_key(env.states[0], cfg)
        if t < 2 or t == ticks - 1:
            for a in agents:
                tick_terms(spec, env.states[0], a)


def worker(name: str, start: int, trials: int, ticks: int, seed: int, out=sys.stdout) -> None:
    """Run trials ``start..trials-1`` of encounter ``name``; one line per event on ``out``:
    ``T k what`` before a trial, then ``R k refused|ok`` or ``E k what: error``."""
    from osrs_rl.runtime.bounds import InvalidStateError
    from osrs_rl.runtime.registry import get_spec
    from osrs_rl.runtime.vec_env import VecEnv

    spec = get_spec(name)
    pool = _pool(spec, seed)
    env = VecEnv(spec, num_envs=1, seed=seed)
    env.reset()
    paths = leaves(spec.state_dtype)
    print(f"READY {len(paths)}", file=out, flush=True)
    for k in range(start, trials):
        rng = np.random.default_rng([seed, k])
        rec = pool[int(rng.integers(len(pool)))].copy()
        what = mutate(spec, env.config[0], rec, rng, paths, k % len(paths))     # every field in turn
        print(f"T {k} {what}", file=out, flush=True)
        try:
            env.check_states(rec)
        except InvalidStateError:
            print(f"R {k} refused", file=out, flush=True)
            continue
        try:
            env.set_states([0], rec)           # observe and mask run here first
            _exercise(env, spec, rng, ticks)
        except Exception as e:      # noqa: BLE001 - every failure is a finding, reported by type
            msg = f"{type(e).__name__}: {e}".replace("\n", " ")[:300]
            print(f"E {k} {what}: {msg}", file=out, flush=True)
            env.reset()
            continue
        print(f"R {k} ok", file=out, flush=True)


# ---- the parent --------------------------------------------------------------------------------------
def cache_dir() -> Path:
    """The bounds-checked kernels' Numba cache, named by a hash of the package's sources."""
    from osrs_rl.runtime.kernel_cache import source_digest

    root = Path(__file__).resolve().parents[1]
    base = Path(os.environ.get("OSRS_RL_FUZZ_CACHE", _default_cache_base()))
    return base / source_digest([root], skip=("fuzz.py",))      # this file holds no kernel


def _default_cache_base() -> Path:
    return Path(tempfile.gettempdir()) / "osrs-rl-boundscheck"


def _forget_old_caches(keep: Path, days: float = 2.0) -> None:
    """Delete the caches of other source versions untouched for ``days`` (each is tens of MB; a
    younger one may belong to another checkout fuzzing now)."""
    import shutil

    if keep.parent != _default_cache_base() or not keep.parent.is_dir():
        return                                  # a folder the user named: never delete in it
    cutoff = time.time() - days * 86400
    for d in keep.parent.iterdir():
        if (d != keep and re.fullmatch(r"[0-9a-f]{16}", d.name) and d.is_dir()
                and d.stat().st_mtime < cutoff):
            shutil.rmtree(d, ignore_errors=True)


@dataclass
class Findings:
    encounter: str
    trials: int = 0
    refused: int = 0
    ran: int = 0
    errors: list[str] = field(default_factory=list)     # "what: error" of each failing trial
    crashes: list[str] = field(default_factory=list)    # the worker died during this trial
    hangs: list[str] = field(default_factory=list)      # the trial ran past its time limit
    fields: int = 0

    @property
    def failures(self) -> list[str]:
        return self.errors + [f"{w}: crash" for w in self.crashes] + [f"{w}: hang" for w in self.hangs]


def _reader(stream, q):
    for line in stream:
        q.put(line.rstrip("\n"))
    q.put(None)


def fuzz(name: str, trials: int, ticks: int = 20, seed: int = 0, trial_timeout: float = 30.0,
         start_timeout: float = 900.0) -> Findings:
    """Run ``trials`` trials of encounter ``name`` in bounds-checked workers; return what was found."""
    found = Findings(name)
    cache = cache_dir()
    _forget_old_caches(cache)
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(cache), PYTHONUNBUFFERED="1")
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    start = 0
    while start < trials:
        cmd = [sys.executable, "-m", "osrs_rl.runtime.fuzz", "--worker", name, "--start", str(start),
               "--trials", str(trials), "--ticks", str(ticks), "--seed", str(seed)]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
        q: queue.Queue = queue.Queue()
        threading.Thread(target=_reader, args=(proc.stdout, q), daemon=True).start()
        current, limit, last = None, start_timeout, start - 1
        while True:
            try:
                line = q.get(timeout=limit)
            except queue.Empty:                        # no word within the limit: a hang
                proc.kill()
                proc.wait()
                if current is None:
                    raise RuntimeError(f"fuzz worker for {name!r} did not start within {start_timeout:.0f} s") \
                        from None
                found.hangs.append(current[1])
                found.trials += 1
                last = current[0]
                break
            if line is None:                           # the worker ended
                code = proc.wait()
                if current is not None:                # ... inside a trial: a crash
                    found.crashes.append(f"{current[1]} (exit {code})")
                    found.trials += 1
                    last = current[0]
                elif code != 0:
                    raise RuntimeError(f"fuzz worker for {name!r} failed (exit {code}) before trial {last + 1}")
                break
            kind, _, rest = line.partition(" ")
            if kind == "READY":
                found.fields = int(rest)
                limit = trial_timeout
            elif kind == "T":
                k, _, what = rest.partition(" ")
                current = (int(k), what)
            elif kind in ("R", "E"):
                k, _, what = rest.partition(" ")
                found.trials += 1
                last = int(k)
                if kind == "E":
                    found.errors.append(what)
                elif what == "refused":
                    found.refused += 1
                else:
                    found.ran += 1
                current = None
        start = last + 1
    return found


def by_field(findings: Findings) -> dict[str, int]:
    """Failures counted by the field each failing trial changed (index dropped; "several: " when
    the trial changed more than one)."""
    out: dict[str, int] = {}
    for w in findings.failures:
        path = w.split("=", 1)[0].split("[", 1)[0]
        if ";" in w.split(": ", 1)[0]:
            path = "several: " + path
        out[path] = out.get(path, 0) + 1
    return dict(sorted(out.items(), key=lambda kv: -kv[1]))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("encounters", nargs="*", default=["template", "pvp", "zulrah"])
    ap.add_argument("--trials", type=int, default=500)
    ap.add_argument("--ticks", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--json", help="also write the findings to this file")
    args = ap.parse_args(argv)
    if args.worker:
        worker(args.encounters[0], args.start, args.trials, args.ticks, args.seed)
        return 0
    report, bad = {}, 0
    for name in args.encounters:
        t = time.perf_counter()
        f = fuzz(name, args.trials, args.ticks, args.seed)
        fails = by_field(f)
        bad += len(f.failures)
        print(f"{name}: {f.fields} fields x {f.trials} trials ({args.ticks} ticks each): {f.refused} refused, "
              f"{f.ran} ran clean, {len(f.errors)} errors, {len(f.crashes)} crashes, {len(f.hangs)} hangs "
              f"({time.perf_counter() - t:.0f} s)")
        for path, n in fails.items():
            print(f"    {n:5d}  {path}")
        for w in f.failures[:12]:
            print(f"      e.g. {w}")
        report[name] = dict(fields=f.fields, trials=f.trials, refused=f.refused, ran=f.ran, errors=f.errors,
                            crashes=f.crashes, hangs=f.hangs, by_field=fails)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
