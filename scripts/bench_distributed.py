"""Training steps/s of a torchrun job beside a one-process run of the same total batch: a table.

    python scripts/bench_distributed.py template --steps 1_000_000 --ranks 2
    python scripts/bench_distributed.py zulrah --steps 600_000 --ranks 2 --envs 512

Runs ``osrs-rl train ENCOUNTER`` three times with the encounter's preset: in one process with
``--envs`` envs and its default threads (all cores for the update), the same with 1 torch thread, then
under torchrun on ``--ranks`` ranks of ``--envs / ranks`` envs each (1 torch thread per rank, the
torchrun default on a CPU), so all take the same total batch per rollout. Each run logs
``perf/steps_per_second`` (the job's total) every 2 s; the table gives their median over the logs
after the first (compilation and warm-up), the torchrun job's per-rank rate and its
``perf/scaling_efficiency`` (share of the ranks' time outside collectives), the ratio to the first
run, and, as a rough look at the learning, the encounter's declared success rate over the episodes
of the last 3 logs (one seed each: noise, not a comparison). A benchmark, not a test: nothing is
asserted. On a machine other jobs share, the figures move with their load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(argv: list[str], out: Path, name: str) -> dict[str, list[float]]:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    cmd = [*argv, "--run.out_dir", str(out), "--run.name", name, "--log.console", "false", "--run.eval_episodes",
           "0", "--log.replays", "false", "--run.log_every", "2"]
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stdout}\n{done.stderr}")
    from osrs_rl.train.tensorboard import read_events

    series: dict[str, list[float]] = {}
    for _, tag, value in read_events(out / name):
        if isinstance(value, float):
            series.setdefault(tag, []).append(value)
    return series


def _median(values: list[float]) -> float:
    rest = values[1:] or values          # the first window holds compilation and warm-up
    return statistics.median(rest) if rest else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("encounter")
    parser.add_argument("--steps", type=int, default=1_000_000, help="run.total_steps of each run")
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--envs", type=int, default=256, help="envs in all (per rank: envs / ranks)")
    args = parser.parse_args()
    if args.envs % args.ranks:
        raise SystemExit(f"--envs {args.envs} does not split into {args.ranks} ranks")
    common = ["--run.total_steps", str(args.steps)]
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        single = _run([py, "-m", "osrs_rl.cli", "train", args.encounter, *common, "--env.num_envs", str(args.envs)],
                      out, "single")
        thread = _run([py, "-m", "osrs_rl.cli", "train", args.encounter, *common, "--env.num_envs", str(args.envs),
                       "--run.torch_threads", "1"], out, "thread")
        ranks = _run([py, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", str(args.ranks), "-m",
                      "osrs_rl.cli", "train", args.encounter, *common, "--env.num_envs",
                      str(args.envs // args.ranks)], out, "ranks")
    from osrs_rl.runtime.registry import get_spec

    success = f"episode/{get_spec(args.encounter).outcome.success}"
    one = _median(single["perf/steps_per_second"])
    print(f"{args.encounter}: {args.steps:,} steps, {args.envs} envs in all, os.cpu_count() {os.cpu_count()}")
    print(f"{'run':<34}{'steps/s (total)':>16}{'per rank':>12}{'efficiency':>12}{'vs first':>10}{success:>20}")
    rows = [("1 process, default threads", single, None), ("1 process x 1 thread", thread, None),
            (f"{args.ranks} ranks x 1 thread (torchrun)", ranks, "x")]
    for label, series, dist in rows:
        total = _median(series["perf/steps_per_second"])
        per_rank = _median(series["perf/steps_per_second_per_rank"]) if dist else total
        efficiency = f"{_median(series['perf/scaling_efficiency']):.2f}" if dist else "-"
        won = statistics.mean(series.get(success, [float("nan")])[-3:])
        print(f"{label:<34}{total:>16,.0f}{per_rank:>12,.0f}{efficiency:>12}{total / one:>10.2f}{won:>20.3f}")


if __name__ == "__main__":
    main()
