"""Does a preset train faster with its env halves overlapped or not? Env steps per second of whole training
iterations (rollout and update) for ``env.overlap`` true, false, and true with every core for torch, measured
in one process, alternating, so the ratios hold on a shared machine.

    python scripts/bench_overlap.py --encounter inferno [--config FILE] [--rounds 5] [--iterations 3]

Overlap steps one half of the envs on a worker thread while the policy reads the other: it pays when the env
step is a large part of a tick; when the network is, both cores on the network can win.
"""

from __future__ import annotations

import os

from osrs_rl.train.bench import arm_parser, arm_rates, arm_trainers, iteration, print_rates, warm_up

ARMS = {"overlap": ["--env.overlap", "true"], "no overlap": ["--env.overlap", "false"],
        "overlap, torch on every core": ["--env.overlap", "true", "--run.torch_threads", str(os.cpu_count() or 1)]}


def main(argv=None) -> int:
    args = arm_parser(__doc__.split("\n\n")[0]).parse_args(argv)
    with arm_trainers(args.encounter, args.config, ARMS, "/tmp/bench-overlap") as trainers:
        warm_up(trainers, args.iterations)
        print_rates(trainers, arm_rates(trainers, iteration, args.iterations, args.rounds))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
