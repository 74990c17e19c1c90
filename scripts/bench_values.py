"""What does computing a rollout's values after it buy a preset? Env steps per second of rollouts and of whole
training iterations with the value in each tick's forward and with every tick's value computed in one batch
after the rollout (what the trainer does for a value that reads the observation alone: ``model.separate_value``),
measured in one process, alternating, so the ratios hold on a shared machine.

    python scripts/bench_values.py --encounter zulrah [--config FILE] [--rounds 5] [--iterations 3]
"""

from __future__ import annotations

from osrs_rl.train.bench import arm_parser, arm_rates, arm_trainers, iteration, rollout, warm_up

ARMS = {"per_tick": [], "batched": []}


def main(argv=None) -> int:
    args = arm_parser(__doc__.split("\n\n")[0]).parse_args(argv)
    with arm_trainers(args.encounter, args.config, ARMS, "/tmp/bench-values") as trainers:
        if not trainers["batched"].collector.batched_values:
            print(f"{args.encounter}'s model has no value of its own (model.separate_value false): nothing to compare")
            return 1
        trainers["per_tick"].collector.batched_values = False
        warm_up(trainers, args.iterations)
        for what, work in (("rollout", rollout), ("iteration", iteration)):
            rates = arm_rates(trainers, work, args.iterations, args.rounds)
            for arm in trainers:
                print(f"{what:9s} {arm:8s} {rates[arm]:>10,.0f} env steps/s  ({rates[arm] / rates['per_tick']:.2f}x "
                      f"per tick)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
