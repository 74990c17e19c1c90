"""Throughput of the hot engine kernels, run batched inside one compiled loop.

Prints calls per second (a table, never an assertion) so later work can spot regressions:
accuracy + damage rolls, the full attack sample (rolls, specials, bolts), NPC chase steps,
line-of-sight checks and click-to-move BFS.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from osrs_rl.core import attack as A
from osrs_rl.core import rng as R
from osrs_rl.core.accuracy import roll_accuracy
from osrs_rl.core.damage import roll_damage


@njit(cache=True)
def _bench_roll_damage(rngs, att, dfn, mx, reps):
    total = np.int64(0)
    for _ in range(reps):
        for i in range(rngs.shape[0]):
            r = rngs[i]
            if roll_accuracy(r, att[i], dfn[i]):
                total += roll_damage(r, 0, mx[i])
    return total


@njit(cache=True)
def _bench_sample_hits(rngs, att, dfn, mx, sp, ctx, reps, out):
    total = np.int64(0)
    for _ in range(reps):
        for i in range(rngs.shape[0]):
            n = A.sample_hits(rngs[i], att[i], dfn[i], 0, mx[i], sp, ctx, 0, out)
            for j in range(n):
                total += out[j]
    return total


def _timed(fn, *args, calls: int) -> float:
    fn(*args)                              # compile and warm up
    t0 = time.perf_counter()
    fn(*args)
    return calls / (time.perf_counter() - t0)


def run(batch: int = 4096, reps: int = 200, seed: int = 0) -> list[tuple[str, float]]:
    """Measure each kernel; returns (name, calls per second) rows."""
    from osrs_rl.core.bolts import bolt_context
    from osrs_rl.core.specials import identity_row

    rngs = np.zeros((batch, 1), dtype=np.uint64)
    for i in range(batch):
        R.seed_rng(rngs[i], seed, i)
    gen = np.random.default_rng(seed)
    att = gen.integers(5_000, 40_000, batch).astype(np.int64)
    dfn = gen.integers(5_000, 40_000, batch).astype(np.int64)
    mx = gen.integers(10, 60, batch).astype(np.int64)
    rows = [
        ("accuracy + damage roll", _timed(_bench_roll_damage, rngs, att, dfn, mx, reps, calls=batch * reps)),
        ("sample_hits (normal attack)", _timed(_bench_sample_hits, rngs, att, dfn, mx, identity_row(),
                                               bolt_context(), reps, np.zeros(4, np.int64), calls=batch * reps)),
    ]
    rows.extend(_movement_rows(batch, reps, seed))
    return rows


def _movement_rows(batch: int, reps: int, seed: int) -> list[tuple[str, float]]:
    try:
        from osrs_rl.core import movement_bench
    except ImportError:
        return []
    return movement_bench.run(batch, reps, seed)


def main() -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title="osrs-rl engine kernels (one core, batched)")
    table.add_column("kernel")
    table.add_column("calls / s", justify="right")
    for name, rate in run():
        table.add_row(name, f"{rate:,.0f}")
    Console().print(table)


if __name__ == "__main__":
    main()
