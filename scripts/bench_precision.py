"""What does ``model.train_precision bfloat16`` buy a preset? Samples per second of its updates, and env steps
per second of whole training iterations, in float32 and in bfloat16, measured in one process, alternating, so
the ratios hold on a shared machine.

    python scripts/bench_precision.py --encounter inferno [--config FILE] [--rounds 5] [--iterations 3]

bfloat16 pays where the device multiplies it natively (a CPU with AVX512-BF16 or AMX, a GPU): this prints
whether this one does. Elsewhere it is emulated and slower than float32.
"""

from __future__ import annotations

from osrs_rl.agent.models import native_bfloat16
from osrs_rl.train.bench import arm_parser, arm_rates, arm_trainers, iteration, update, warm_up

ARMS = {"float32": ["--model.train_precision", "float32"], "bfloat16": ["--model.train_precision", "bfloat16"]}


def main(argv=None) -> int:
    args = arm_parser(__doc__.split("\n\n")[0]).parse_args(argv)
    with arm_trainers(args.encounter, args.config, ARMS, "/tmp/bench-precision") as trainers:
        device = next(iter(trainers.values())).device.type
        print(f"device {device}: bfloat16 native here: {'yes' if native_bfloat16(device) else 'no (emulated)'}")
        warm_up(trainers, args.iterations)
        for what, work in (("update", update), ("iteration", iteration)):
            rates = arm_rates(trainers, work, args.iterations, args.rounds)
            unit = "samples/s in updates" if what == "update" else "env steps/s in training iterations"
            for arm in trainers:
                print(f"{what:9s} {arm:8s} {rates[arm]:>10,.0f} {unit}  ({rates[arm] / rates['float32']:.2f}x float32)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
