"""Throughput of one encounter under the runtime: ``osrs-rl bench ENCOUNTER``.

Prints env steps per second at batch 1, 64, 1024 and 4096 on one core and on all threads, the
same loop compiled without the runtime (the encounter's kernels called directly, for the
runtime's overhead), and the cost of snapshotting and restoring 1024 envs. Actions are random
legal ones drawn before timing. A table, never an assertion.
"""

from __future__ import annotations

import time

import numba
import numpy as np

from osrs_rl.runtime import kernels as K
from osrs_rl.runtime.checks import random_legal_actions
from osrs_rl.runtime.registry import get_spec, make

BATCHES = (1, 64, 1024, 4096)


def _direct_template(states, configs, actions, rewards, obs, masks, carried):
    """The encounter's own kernels in a plain loop, with the reward added up from its terms as the runtime
    does (part of any step): what the runtime is measured against (a reset, as the runtime's, starts from a
    cleared record: the encounter's reset sets only what starts non-zero)."""
    config = configs[0]
    for i in range(states.shape[0]):
        state = states[i]
        K.clear_reward_terms(state)
        term, trunc = step_fn(state, config, actions[i])  # noqa: F821 (bound by K._bind)
        K.add_up_rewards(state, rewards[i])
        if term or trunc:
            K.clear_record(states, i, carried)
            reset_fn(state, config, np.uint64(i))  # noqa: F821
        observe_fn(state, config, obs[i])  # noqa: F821
        mask_fn(state, config, masks[i])  # noqa: F821


def _timed(fn, min_seconds: float = 0.1, repeats: int = 5) -> float:
    """Seconds per call: the best of ``repeats`` runs of at least ``min_seconds`` each (after one
    warm-up call). The best, not the mean: on a shared machine other processes only ever slow a run."""
    fn()
    best = float("inf")
    for _ in range(repeats):
        calls, start = 0, time.perf_counter()
        while True:
            fn()
            calls += 1
            elapsed = time.perf_counter() - start
            if elapsed >= min_seconds:
                break
        best = min(best, elapsed / calls)
    return best


def alternating_rates(arms: dict, rounds: int) -> dict[str, float]:
    """Work per second of each of ``arms`` (name -> a call that does some work and returns how much, e.g. env
    steps), run in turns ``rounds`` times: on a shared machine the ratios between arms hold even when the
    machine's speed drifts during the measurement."""
    seconds = {name: 0.0 for name in arms}
    done = {name: 0 for name in arms}
    for _ in range(rounds):
        for name, work in arms.items():
            t0 = time.perf_counter()
            done[name] += work()
            seconds[name] += time.perf_counter() - t0
    return {name: done[name] / max(seconds[name], 1e-12) for name in arms}


def measure(name: str, seed: int = 0, threads: int | None = None, **config) -> dict:
    threads = threads or numba.config.NUMBA_NUM_THREADS
    rows = [measure_batch(name, n, seed, threads, **config) for n in BATCHES]
    # the runtime against the encounter's kernels called directly, at batch 1024
    env = make(name, num_envs=1024, seed=seed, **config)
    env.reset()
    direct = K._bind(_direct_template, env.spec)
    # the same fixed random actions for both (the runtime turns illegal ones into no-ops; the
    # encounter's step ignores them anyway)
    plan = random_legal_actions(env, np.random.default_rng(0))
    acts = plan.reshape(1024, env.spec.num_agents, env.spec.num_heads).copy()
    rewards, obs, masks = env._rewards.copy(), env._obs.copy(), env._masks.copy()
    def direct_step():
        direct(env.states, env.config, acts, rewards, obs, masks, env._carried)

    # alternate the two several times and keep each one's best, so load from other processes on
    # the machine hits both alike
    direct_rate = runtime_rate = 0.0
    for _ in range(5):
        direct_rate = max(direct_rate, 1024 / _timed(direct_step, 0.1, 2))
        runtime_rate = max(runtime_rate, 1024 / _timed(lambda: env.step(plan), 0.1, 2))
    # snapshot and restore of 1024 envs
    blob = env.snapshot_batch(range(1024))
    snap_s = _timed(lambda: env.snapshot_batch(range(1024)))
    restore_s = _timed(lambda: env.restore_batch(range(1024), blob))
    # what restores spend on checking: the declared bounds of 1024 records and of one, one whole restore
    records = env.get_states()
    check_s = _timed(lambda: env.check_states(records))
    check_one_s = _timed(lambda: env.check_states(records[:1]))
    one = env.snapshot(0)
    restore_one_s = _timed(lambda: env.restore(0, one))
    return {"encounter": name, "threads": threads, "rows": rows, "direct": direct_rate, "runtime": runtime_rate,
            "snapshot_ms": snap_s * 1e3, "restore_ms": restore_s * 1e3,
            "check_us_per_record": check_s * 1e6 / 1024, "check_one_us": check_one_s * 1e6,
            "restore_one_us": restore_one_s * 1e6, "state_bytes": env.spec.state_dtype.itemsize}


def compile_kernels(name: str, threads: int) -> None:
    """Step a few envs of ``name`` with one thread and with ``threads``: Numba compiles (and caches) the serial and
    the parallel kernels, so a measurement after it times none of that."""
    for t in sorted({1, threads}):
        env = make(name, num_envs=4, seed=0, threads=t)
        env.reset()
        for k in range(2):
            env.step(random_legal_actions(env, np.random.default_rng(k)))


def measure_batch(name: str, n: int = 1024, seed: int = 0, threads: int | None = None, **config) -> dict:
    """Env steps per second at batch ``n`` on one core and on all threads, under ``config``."""
    threads = threads or numba.config.NUMBA_NUM_THREADS
    row = {"batch": n}
    for label, t in (("1 core", 1), (f"{threads} threads", threads)):
        env = make(name, num_envs=n, seed=seed, threads=t, **config)
        env.reset()
        plan = [random_legal_actions(env, np.random.default_rng(k)) for k in range(16)]
        k = [0]

        def one_step(env=env, plan=plan, k=k):
            env.step(plan[k[0] % 16])
            k[0] += 1
        row[label] = n / _timed(one_step)
    return row


def main(name: str, config: dict | None = None) -> None:
    """Print the tables; ``config``: the encounter's settings (``--set``) for every measurement."""
    from rich.console import Console
    from rich.table import Table

    config = dict(config or {})
    r = measure(name, **config)
    threads = r["threads"]
    table = Table(title=f"osrs-rl runtime: {name} (env steps per second, numba {numba.__version__})")
    table.add_column("batch", justify="right")
    table.add_column("1 core", justify="right")
    table.add_column(f"{threads} threads", justify="right")
    for row in r["rows"]:
        table.add_row(str(row["batch"]), f"{row['1 core']:,.0f}", f"{row[f'{threads} threads']:,.0f}")
    console = Console()
    console.print(table)
    overhead = r["direct"] / r["runtime"] - 1
    console.print(f"batch 1024, 1 core: runtime {r['runtime']:,.0f} steps/s vs kernels called directly "
                  f"{r['direct']:,.0f} steps/s: overhead {overhead:+.1%}")
    console.print(f"snapshot 1024 envs: {r['snapshot_ms']:.3f} ms, restore: {r['restore_ms']:.3f} ms "
                  f"({r['state_bytes']} bytes per env)")
    console.print(f"bounds check ({len(get_spec(name).state_bounds)} bounds): {r['check_us_per_record']:.2f} us per "
                  f"record at batch 1024, {r['check_one_us']:.0f} us for one; a whole restore of one env: "
                  f"{r['restore_one_us']:.0f} us")
    declared = get_spec(name).bench_configs
    if declared:
        extra = Table(title=f"{name}: the settings it declares for benchmarks (batch 1024, random legal actions)")
        extra.add_column("settings")
        extra.add_column("1 core", justify="right")
        extra.add_column(f"{threads} threads", justify="right")
        for label, settings in declared:
            row = measure_batch(name, 1024, **{**settings, **config})
            extra.add_row(label, f"{row['1 core']:,.0f}", f"{row[f'{threads} threads']:,.0f}")
        console.print(extra)
