"""Line of sight cast ray by ray against the same answers read from a precomputed sight table,
timed in one run so the figures compare as a ratio, plus the time to build the tables.

    python scripts/bench_sight_table.py [--queries 1000000] [--seed 0]

The maps are the Inferno arena's 8 collision maps (one per set of standing pillars, 31 x 45), the
queries random on them: a 1x1 attacker against a target of size 1..5, both footprints on the grid
and walkable, attack range 1..15. Each method answers every query inside one compiled loop; the
figure is wall time per query, best of 5 repeats, and the loops also count their disagreements
(which must be 0). Build time is best of 3, compile excluded.
"""

import argparse
import time

import numpy as np
from numba import njit

from osrs_rl.core.collision import can_occupy
from osrs_rl.core.line_of_sight import (
    has_line_of_sight,
    ray_clear,
    sight_table,
    sight_tables,
    table_line_of_sight,
    table_ray_clear,
)
from osrs_rl.encounters.inferno.loadouts import arena_tables


@njit(cache=True)
def _cast_all(maps, q, out):
    for i in range(q.shape[0]):
        out[i] = has_line_of_sight(maps[q[i, 0]], q[i, 1], q[i, 2], 1, q[i, 3], q[i, 4], q[i, 5], q[i, 6])


@njit(cache=True)
def _table_all(tables, w, h, q, out):
    for i in range(q.shape[0]):
        out[i] = table_line_of_sight(tables[q[i, 0]], w, h, q[i, 1], q[i, 2], 1, q[i, 3], q[i, 4], q[i, 5],
                                     q[i, 6])


@njit(cache=True)
def _rays_all(maps, q, out):
    for i in range(q.shape[0]):
        out[i] = ray_clear(maps[q[i, 0]], q[i, 1], q[i, 2], q[i, 3], q[i, 4])


@njit(cache=True)
def _table_rays_all(tables, w, h, q, out):
    for i in range(q.shape[0]):
        out[i] = table_ray_clear(tables[q[i, 0]], w, h, q[i, 1], q[i, 2], q[i, 3], q[i, 4])


def queries(maps, n, seed):
    """Rows (map, x0, y0, x1, y1, size1, range): walkable footprints on the map."""
    rng = np.random.default_rng(seed)
    m, w, h = maps.shape
    rows = []
    while len(rows) < n:
        k = int(rng.integers(0, m))
        size = int(rng.integers(1, 6))
        x0, y0 = int(rng.integers(0, w)), int(rng.integers(0, h))
        x1, y1 = int(rng.integers(0, w - size + 1)), int(rng.integers(0, h - size + 1))
        if can_occupy(maps[k], x0, y0, 1) and can_occupy(maps[k], x1, y1, size):
            rows.append((k, x0, y0, x1, y1, size, int(rng.integers(1, 16))))
    return np.array(rows, dtype=np.int64)


def best_of(fn, repeats):
    fn()                                            # compile / warm up
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--queries", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    maps, _ = arena_tables()
    m, w, h = maps.shape

    build_one = best_of(lambda: sight_table(maps[0]), 3)
    build_all = best_of(lambda: sight_tables(maps), 3)
    tables = sight_tables(maps)
    print(f"build: sight_table {w}x{h} {build_one * 1e3:.1f} ms; sight_tables x{m} {build_all * 1e3:.1f} ms; "
          f"{tables.nbytes / 1024:.0f} KiB for {m} tables ({tables.shape})")

    q = queries(maps, args.queries, args.seed)
    n = len(q)
    a, b = np.zeros(n, dtype=np.bool_), np.zeros(n, dtype=np.bool_)
    rows = [
        ("has_line_of_sight", lambda: _cast_all(maps, q, a),
         "table_line_of_sight", lambda: _table_all(tables, w, h, q, b)),
        ("ray_clear", lambda: _rays_all(maps, q, a),
         "table_ray_clear", lambda: _table_rays_all(tables, w, h, q, b)),
    ]
    for cast_name, cast, table_name, table in rows:
        t_cast = best_of(cast, 5) / n * 1e9
        t_table = best_of(table, 5) / n * 1e9
        print(f"{cast_name}: {t_cast:.1f} ns/query; {table_name}: {t_table:.1f} ns/query; "
              f"ratio {t_cast / t_table:.1f}x; clear {a.mean():.3f}; disagreements {int((a != b).sum())}")


if __name__ == "__main__":
    main()
