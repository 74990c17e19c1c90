"""Which torch thread count should a preset train with, alone and beside other jobs? Env steps per second of
whole training iterations for ``run.torch_threads`` 1, 2, ... up to every core, measured in one process,
alternating, so the ratios hold on a shared machine; ``--busy N`` runs N busy processes (a stand-in for other
people's jobs on the machine) while it measures.

    python scripts/bench_threads.py --encounter template [--busy 1] [--config FILE] [--rounds 5] [--iterations 3]

Torch's thread pool spins while it waits for its slowest thread: when another process holds one of those
cores, every matrix product waits for a time slice, and a run can be tens of times slower than on one thread.
"""

from __future__ import annotations

import multiprocessing
import os

from osrs_rl.train.bench import arm_parser, arm_rates, arm_trainers, iteration, print_rates, warm_up


def _spin() -> None:
    while True:
        pass


def main(argv=None) -> int:
    p = arm_parser(__doc__.split("\n\n")[0])
    p.add_argument("--busy", type=int, default=0, help="busy processes running beside the measurement")
    args = p.parse_args(argv)
    cores = os.cpu_count() or 1
    arms = {"default (run.torch_threads 0)": []} | {
        f"run.torch_threads {k}": ["--run.torch_threads", str(k)] for k in range(1, cores + 1)}
    busy = [multiprocessing.Process(target=_spin, daemon=True) for _ in range(args.busy)]
    with arm_trainers(args.encounter, args.config, arms, "/tmp/bench-threads") as trainers:
        warm_up(trainers, args.iterations)
        for proc in busy:
            proc.start()
        try:
            rates = arm_rates(trainers, iteration, args.iterations, args.rounds)
        finally:
            for proc in busy:
                proc.terminate()
        print(f"{args.encounter}, {cores} cores, {args.busy} busy process(es) beside it:")
        print_rates(trainers, rates, first="the default", indent="  ", width=32)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
