"""Throughput of the movement kernels, batched over many entities inside one njit loop.

Prints a table of calls per second for the NPC chase step, the click-to-move BFS and the
line-of-sight check, on one core and on all cores (``prange``; OpenMP threading layer when
available). Not a test: nothing here asserts on time.

    .venv/bin/python -m osrs_rl.core.bench_movement [--n 100000] [--repeat 3]

The arena is Inferno-sized (29 x 30 walkable tiles inside a 1-tile border) with three 3x3
pillars; the pillar layout is illustrative, not the real one.
"""

import argparse
import os
import time

import numba
import numpy as np
from numba import njit, prange

from osrs_rl.core.collision import add_block, can_occupy, make_arena
from osrs_rl.core.line_of_sight import has_line_of_sight
from osrs_rl.core.movement import make_path, npc_chase_step
from osrs_rl.core.pathfinding import find_path, make_bfs_scratch

NPC_SIZES = np.array([1, 2, 3, 4, 5], dtype=np.int64)
ATTACK_RANGE = 15


def arena():
    f = make_arena(31, 32)
    for x, y in ((8, 20), (20, 18), (12, 8)):
        add_block(f, x, y, 3, 3)
    return f


def random_placements(f, n, seed):
    """``n`` (x, y, size) rows with each footprint on free tiles, plus a 1x1 target each."""
    rng = np.random.default_rng(seed)
    out = np.empty((n, 5), dtype=np.int64)
    i = 0
    while i < n:
        size = int(rng.choice(NPC_SIZES))
        x, y = rng.integers(0, f.shape[0]), rng.integers(0, f.shape[1])
        tx, ty = rng.integers(0, f.shape[0]), rng.integers(0, f.shape[1])
        if can_occupy(f, x, y, size) and can_occupy(f, tx, ty, 1):
            out[i] = (x, y, size, tx, ty)
            i += 1
    return out


# ----------------------------------------------------------------------------------------------
# Batched kernels: one call does the whole batch.
# ----------------------------------------------------------------------------------------------


@njit(cache=True)
def chase_serial(f, e, out):
    for i in range(e.shape[0]):
        out[i, 0], out[i, 1] = npc_chase_step(f, e[i, 0], e[i, 1], e[i, 2], e[i, 3], e[i, 4], 1)


@njit(cache=True, parallel=True)
def chase_parallel(f, e, out):
    for i in prange(e.shape[0]):
        out[i, 0], out[i, 1] = npc_chase_step(f, e[i, 0], e[i, 1], e[i, 2], e[i, 3], e[i, 4], 1)


@njit(cache=True)
def bfs_serial(f, e, paths, scratch):
    for i in range(e.shape[0]):
        find_path(f, e[i, 0], e[i, 1], 1, e[i, 3], e[i, 4], paths[i], scratch[0])


@njit(cache=True, parallel=True)
def bfs_parallel(f, e, paths, scratch):
    for i in prange(e.shape[0]):
        find_path(f, e[i, 0], e[i, 1], 1, e[i, 3], e[i, 4], paths[i], scratch[numba.get_thread_id()])


@njit(cache=True)
def los_serial(f, e, out):
    for i in range(e.shape[0]):
        out[i] = has_line_of_sight(f, e[i, 0], e[i, 1], e[i, 2], e[i, 3], e[i, 4], 1, ATTACK_RANGE)


@njit(cache=True, parallel=True)
def los_parallel(f, e, out):
    for i in prange(e.shape[0]):
        out[i] = has_line_of_sight(f, e[i, 0], e[i, 1], e[i, 2], e[i, 3], e[i, 4], 1, ATTACK_RANGE)


def best_rate(fn, args, n, repeat):
    fn(*args)  # compile / warm
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - t0)
    return n / best


def measure(n: int = 100_000, repeat: int = 3) -> list[tuple[str, int, float, float]]:
    """(kernel, batch, calls/s on one core, calls/s on all threads) per movement kernel."""
    f = arena()
    e = random_placements(f, n, seed=1)
    e_bfs = np.ascontiguousarray(e[: max(n // 10, 1)])
    e_bfs[:, 2] = 1
    pos = np.empty((n, 2), dtype=np.int64)
    seen = np.empty(n, dtype=np.bool_)
    paths = make_path(len(e_bfs))
    scratch = make_bfs_scratch(numba.get_num_threads())
    rows = [
        ("npc_chase_step (sizes 1-5)", chase_serial, chase_parallel, (f, e, pos), n),
        ("find_path BFS (1x1)", bfs_serial, bfs_parallel, (f, e_bfs, paths, scratch), len(e_bfs)),
        (f"has_line_of_sight (r={ATTACK_RANGE})", los_serial, los_parallel, (f, e, seen), n),
    ]
    return [(name, batch, best_rate(serial, fargs, batch, repeat), best_rate(parallel, fargs, batch, repeat))
            for name, serial, parallel, fargs, batch in rows]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100_000, help="entities per batch (BFS uses n / 10)")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs; the best is reported")
    args = ap.parse_args()
    threads = numba.get_num_threads()
    print(f"numba {numba.__version__}, cpus {os.cpu_count()}, threads {threads}")
    print(f"{'kernel':34s} {'batch':>8s} {'calls/s 1 core':>16s} {f'calls/s {threads} threads':>20s}")
    for name, n, r1, rn in measure(args.n, args.repeat):
        print(f"{name:34s} {n:8d} {r1:16,.0f} {rn:20,.0f}")
    print(f"threading layer: {numba.threading_layer()}")


if __name__ == "__main__":
    main()
