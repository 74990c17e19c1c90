"""What archive starts cost a training rollout: steps per second of the trainer's collector on one encounter
with and without ``explore`` (an archive followed every tick, a share of starts restored), measured in one
process, alternating, so the ratio holds on a shared machine.

    python scripts/bench_archive.py --encounter inferno --config osrs_rl/encounters/inferno/late.toml
"""

from __future__ import annotations

import argparse

from osrs_rl.train.bench import arm_rates, arm_trainers, rollout


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--encounter", default="inferno")
    p.add_argument("--config")
    p.add_argument("--rounds", type=int, default=4, help="alternations (each arm collects --rollouts rollouts)")
    p.add_argument("--rollouts", type=int, default=4)
    p.add_argument("--fraction", type=float, default=0.25)
    args = p.parse_args(argv)
    arms = {"plain": [], "archive": ["--explore.enabled", "true", "--explore.fraction", str(args.fraction)]}
    with arm_trainers(args.encounter, args.config, arms, "/tmp/bench-archive") as trainers:
        for t in trainers.values():              # warm up: compile, fill the archive a little
            rollout(t)
        rates = arm_rates(trainers, rollout, args.rollouts, args.rounds)
        for arm in trainers:
            print(f"{arm:8s} {rates[arm]:>10,.0f} env steps/s in rollouts")
        a = trainers["archive"].archive_starts
        print(f"archive: {len(a.archive):,} cells; rollout speed with archive starts / without: "
              f"{rates['archive'] / rates['plain']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
