"""What does ``torch.compile`` buy a preset's update? Samples per second of updates with the model's unrolled
forward pass (the update's network, and through AOTAutograd its backward) eager and compiled, measured in one
process, alternating, so the ratio holds on a shared machine; and the seconds the compilation itself took,
which a run pays once before its first update.

    python scripts/bench_compile.py --encounter zulrah [--config FILE] [--rounds 5] [--iterations 3]

Issue 43 asks where an update's seconds go: on a CPU about half of them are the matrix products of the
encoders (which a compiler does not make cheaper); what it can fuse is the elementwise work around them. Whether that
pays for the compilation is a measurement, and this is it.
"""

from __future__ import annotations

import time

import torch

from osrs_rl.train.bench import arm_parser, arm_rates, arm_trainers, iteration, update, warm_up

ARMS = {"eager": [], "compiled": []}


def main(argv=None) -> int:
    args = arm_parser(__doc__.split("\n\n")[0]).parse_args(argv)
    with arm_trainers(args.encounter, args.config, ARMS, "/tmp/bench-compile") as trainers:
        warm_up(trainers, args.iterations)
        model = trainers["compiled"].model
        model.unroll = torch.compile(model.unroll)       # the instance's attribute: the eager arm keeps its own
        t0 = time.perf_counter()
        iteration(trainers["compiled"])                  # the first update compiles (forward and backward)
        print(f"compiling took {time.perf_counter() - t0:.1f} s (one iteration included)")
        warm_up(trainers, 1)                             # a recompile for the last minibatch's shape, if any
        rates = arm_rates(trainers, update, args.iterations, args.rounds)
        for arm in trainers:
            print(f"update {arm:9s} {rates[arm]:>10,.0f} samples/s  ({rates[arm] / rates['eager']:.2f}x eager; "
                  f"{torch.get_num_threads()} threads)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
