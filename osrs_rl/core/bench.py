"""Throughput of the hot engine kernels, run batched inside one compiled loop.

Prints calls per second (a table, never an assertion) so later work can spot regressions:
accuracy + damage rolls, the full attack sample (rolls, specials, bolts), NPC chase steps,
line-of-sight checks and click-to-move BFS.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit

from osrs_rl.core import attack as A
from osrs_rl.core import bench_movement
from osrs_rl.core import rng as R
from osrs_rl.core import weapons as W
from osrs_rl.core.accuracy import roll_accuracy
from osrs_rl.core.bolts import RUBY, bolt_context
from osrs_rl.core.damage import roll_damage
from osrs_rl.core.specials import build_special_table, identity_row


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


def _rate(fn, *args, calls: int) -> float:
    return bench_movement.best_rate(fn, args, calls, 3)


def combat_rows(batch: int = 4096, reps: int = 100, seed: int = 0) -> list[tuple[str, int, float]]:
    """(kernel, batch, calls per second on one core) for the combat kernels."""
    rngs = np.zeros((batch, 1), dtype=np.uint64)
    for i in range(batch):
        R.seed_rng(rngs[i], seed, i)
    gen = np.random.default_rng(seed)
    att = gen.integers(5_000, 40_000, batch).astype(np.int64)
    dfn = gen.integers(5_000, 40_000, batch).astype(np.int64)
    mx = gen.integers(10, 60, batch).astype(np.int64)
    out = np.zeros(A.MAX_HITSPLATS, np.int64)
    claws = build_special_table()[W.DRAGON_CLAWS]
    calls = batch * reps
    return [
        ("accuracy + damage roll", batch, _rate(_bench_roll_damage, rngs, att, dfn, mx, reps, calls=calls)),
        ("sample_hits (normal attack)", batch,
         _rate(_bench_sample_hits, rngs, att, dfn, mx, identity_row(), bolt_context(), reps, out, calls=calls)),
        ("sample_hits (ruby bolts)", batch,
         _rate(_bench_sample_hits, rngs, att, dfn, mx, identity_row(),
                    bolt_context(RUBY, target_hp=500), reps, out, calls=calls)),
        ("sample_hits (dragon claws)", batch,
         _rate(_bench_sample_hits, rngs, att, dfn, mx, claws, bolt_context(), reps, out, calls=calls)),
    ]


def main() -> None:
    from rich.console import Console
    from rich.table import Table

    threads = numba.get_num_threads()
    table = Table(title=f"osrs-rl engine kernels, batched in one compiled loop (numba {numba.__version__})")
    table.add_column("kernel")
    table.add_column("batch", justify="right")
    table.add_column("calls/s, 1 core", justify="right")
    table.add_column(f"calls/s, {threads} threads", justify="right")
    for name, batch, rate in combat_rows():
        table.add_row(name, str(batch), f"{rate:,.0f}", "-")
    for name, batch, r1, rn in bench_movement.measure(n=20_000):
        table.add_row(name, str(batch), f"{r1:,.0f}", f"{rn:,.0f}")
    Console().print(table)


if __name__ == "__main__":
    main()
