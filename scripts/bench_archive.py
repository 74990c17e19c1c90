"""What archive starts cost a training rollout: steps per second of the trainer's collector on one encounter
with and without ``explore`` (an archive followed every tick, a share of starts restored), measured in one
process, alternating, so the ratio holds on a shared machine.

    python scripts/bench_archive.py --encounter inferno --config osrs_rl/encounters/inferno/late.toml
"""

from __future__ import annotations

import argparse

import torch

from osrs_rl.agent.config import load_config
from osrs_rl.runtime.bench import alternating_rates
from osrs_rl.train.ppo import Trainer


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--encounter", default="inferno")
    p.add_argument("--config")
    p.add_argument("--rounds", type=int, default=4, help="alternations (each arm collects --rollouts rollouts)")
    p.add_argument("--rollouts", type=int, default=4)
    p.add_argument("--fraction", type=float, default=0.25)
    args = p.parse_args(argv)
    trainers = {}
    for arm, extra in (("plain", []), ("archive", ["--explore.enabled", "true", "--explore.fraction",
                                                   str(args.fraction)])):
        cfg = load_config(args.encounter, args.config, ["--run.out_dir", "/tmp/bench-archive", "--log.console",
                                                        "false", "--log.replays", "false", *extra])
        trainers[arm] = Trainer(cfg, console=False)
    for t in trainers.values():              # warm up: compile, fill the archive a little
        t.model.eval()
        t.collector.collect(t.store)

    def rollouts(t: Trainer) -> int:
        torch.set_num_threads(t.rollout_threads)
        for _ in range(args.rollouts):
            t.collector.collect(t.store)
        return args.rollouts * t.cfg.batch_steps

    rates = alternating_rates({arm: (lambda t=t: rollouts(t)) for arm, t in trainers.items()}, args.rounds)
    for arm in trainers:
        print(f"{arm:8s} {rates[arm]:>10,.0f} env steps/s in rollouts")
    a = trainers["archive"].archive_starts
    print(f"archive: {len(a.archive):,} cells; rollout speed with archive starts / without: "
          f"{rates['archive'] / rates['plain']:.2f}")
    for t in trainers.values():
        t.collector.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
