"""Does training from archive starts beat plain PPO? Two arms, several seeds each, equal env steps.

    python scripts/archive_experiment.py --encounter inferno --config osrs_rl/encounters/inferno/late.toml \\
        --seeds 6 --steps 8000000 --out docs/archive-experiment

Arm ``baseline`` is ``osrs-rl train ENCOUNTER --config CONFIG`` (the config's own start distribution, e.g.
the Inferno's wave mix); arm ``archive`` is the same plus ``--treatment`` (default: archive starts,
``--explore.enabled true``). Every run trains ``--steps`` env steps from seed 0, 1, ... and ends with the
trainer's evaluation on normal starts (``run.eval_episodes``, the config's ``run.eval_config``: never from the
archive), whose ``eval.json`` holds the clear rate, the progress metric's mean (the Inferno's final wave)
and every metric's mean (``--metric``, e.g. ``zuk_lowest_hp``). The table gives each arm's mean over seeds
with a 95 % percentile bootstrap interval (resampling seeds), the difference archive - baseline with its
own, and each seed's figures; it goes to ``OUT.md`` with this command, and the numbers to ``OUT.json``.

Each run's env steps trained are read from its logs and shown beside it (a run stopped by a wall-time guard such
as ``--run.total_minutes`` trains fewer than ``--steps``: then the evaluations are not at equal env steps).
``--curve-window LO:HI`` adds a second table read from the training logs at equal env steps: each run's
normal-start episodes (``episode/...``) logged between LO and HI env steps, their mean weighted by episodes.

Runs already finished (their folder under ``--runs-dir`` holds ``eval.json``) are read, not run again, so an
interrupted experiment goes on where it stopped; ``--parallel K`` runs K trainings at once (each then gets
``--run.torch_threads`` of its share of the cores and no env overlap).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from osrs_rl.io.atomic import atomic_write
from osrs_rl.io.provenance import provenance

ARMS = ("baseline", "archive")
DEFAULT_TREATMENT = "--explore.enabled true"
BOOTSTRAP = 10_000


def bootstrap_mean(xs, seed: int = 0, resamples: int = BOOTSTRAP) -> tuple[float, float, float]:
    """The mean of ``xs`` and its 95 % percentile bootstrap interval (resampling the values with replacement).

    >>> m, lo, hi = bootstrap_mean([1.0, 2.0, 3.0, 4.0])
    >>> m, 1.0 <= lo <= m <= hi <= 4.0
    (2.5, True)
    """
    xs = np.asarray(xs, dtype=np.float64)
    if len(xs) == 0:
        return float("nan"), float("nan"), float("nan")
    rng = np.random.default_rng(seed)
    means = xs[rng.integers(0, len(xs), size=(resamples, len(xs)))].mean(axis=1)
    return float(xs.mean()), float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5))


def bootstrap_difference(a, b, seed: int = 0, resamples: int = BOOTSTRAP) -> tuple[float, float, float]:
    """mean(a) - mean(b) and its 95 % percentile bootstrap interval (each sample resampled on its own)."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    rng = np.random.default_rng(seed)
    da = a[rng.integers(0, len(a), size=(resamples, len(a)))].mean(axis=1)
    db = b[rng.integers(0, len(b), size=(resamples, len(b)))].mean(axis=1)
    d = da - db
    return float(a.mean() - b.mean()), float(np.percentile(d, 2.5)), float(np.percentile(d, 97.5))


def run_command(args, arm: str, seed: int, threads: int) -> list[str]:
    stopped = args.runs_dir / f"{arm}-s{seed}" / "checkpoint.pt"
    if stopped.exists():              # a run stopped before its evaluation goes on (a new one would be refused)
        return [sys.executable, "-m", "osrs_rl.cli", "train", args.encounter, "--resume", str(stopped)]
    cmd = [sys.executable, "-m", "osrs_rl.cli", "train", args.encounter, "--run.total_steps", str(args.steps),
           "--run.seed", str(seed), "--run.out_dir", str(args.runs_dir), "--run.name", f"{arm}-s{seed}",
           "--log.console", "false", "--log.replays", "false"]
    if args.config:
        cmd += ["--config", args.config]
    if threads:
        cmd += ["--run.torch_threads", str(threads), "--env.overlap", "false"]
    cmd += shlex.split(args.extra or "")
    if arm == "archive":
        cmd += shlex.split(args.treatment)
    return cmd


def read_result(folder: Path, metrics: list[str]) -> dict | None:
    """One finished run's normal-start evaluation (None when it has not finished)."""
    path = folder / "eval.json"
    if not path.exists():
        return None
    row = json.loads(path.read_text())[0]
    out = {"clear_rate": row["win_rate"], "progress": row.get("progress_mean"), "episodes": row["episodes"]}
    means = row.get("metric_means", {})
    for m in metrics:
        if m not in means:
            raise SystemExit(f"{path} has no metric {m!r} (its metrics: {', '.join(sorted(means)) or 'none'})")
        out[m] = means[m]
    return out


def read_training(folder: Path, names: list[str], window: tuple[int, int] | None) -> dict:
    """From a run's TensorBoard events: ``steps``, the env steps it trained (its last log), and for each of
    ``names`` the mean of its normal-start ``episode/NAME`` logs in ``window`` (LO < step <= HI), weighted by the
    episodes each log line counts (``episode/count``); None where the run logged none there."""
    from osrs_rl.train.logger import EPISODE_COUNT, TRAIN_SECONDS
    from osrs_rl.train.tensorboard import read_events

    events = read_events(folder)
    out = {"steps": max((step for step, tag, _ in events if tag == TRAIN_SECONDS), default=None)}
    if window is None:
        return out
    lo, hi = window
    count = {step: value for step, tag, value in events if tag == EPISODE_COUNT}
    for name in names:
        logs = [(value, count.get(step, 1.0)) for step, tag, value in events
                if tag == f"episode/{name}" and lo < step <= hi]
        weight = sum(w for _, w in logs)
        out[name] = sum(v * w for v, w in logs) / weight if weight else None
    return out


def parse_window(text: str) -> tuple[int, int]:
    """``LO:HI`` env steps (``6800000:7800000``; underscores allowed)."""
    try:
        lo, hi = (int(x.replace("_", "")) for x in text.split(":"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--curve-window takes LO:HI env steps, e.g. 6800000:7800000; "
                                         f"got {text!r}") from None
    if not 0 <= lo < hi:
        raise argparse.ArgumentTypeError(f"--curve-window needs 0 <= LO < HI, got {text!r}")
    return lo, hi


def summarize(results: dict, metrics: list[str], progress_name: str,
              success_name: str = "") -> tuple[list[dict], list[str]]:
    """Per measure: each arm's mean and interval, the difference and its interval. ``results[arm][seed]``."""
    measures = ["clear_rate", "progress", *metrics]
    labels = {"clear_rate": f"success rate ({success_name})" if success_name else "success rate",
              "progress": f"mean {progress_name or 'progress'}"}
    rows = []
    for m in measures:
        base = [r[m] for r in results["baseline"].values() if r.get(m) is not None]
        arch = [r[m] for r in results["archive"].values() if r.get(m) is not None]
        if not base or not arch:
            continue
        rows.append({"measure": labels.get(m, m), "key": m, "baseline": bootstrap_mean(base),
                     "archive": bootstrap_mean(arch), "difference": bootstrap_difference(arch, base)})
    return rows, measures


def markdown(rows: list[dict], results: dict, measures: list[str], command: str, steps: int, seconds: dict,
             trained: dict | None = None, curve_rows: list[dict] | None = None,
             window: tuple[int, int] | None = None) -> str:
    """The tables: evaluations (mean over seeds, intervals), then each run with the env steps it trained
    (``trained["arm-sN"]["steps"]``), then the training curves at equal steps (``curve_rows``) when asked."""
    trained = trained or {}

    def f(x, m):
        return f"{x:.1%}" if m == "clear_rate" else f"{x:.1f}"

    out = [f"Command: `{command}`", "",
           f"{len(results['baseline'])} + {len(results['archive'])} seeds, {steps:,} env steps each; normal-start "
           "evaluation; mean over seeds [95 % bootstrap interval]", "",
           "| measure | baseline | archive | archive - baseline |", "| --- | --- | --- | --- |"]
    for r in rows:
        m = r["key"]
        b, a, d = r["baseline"], r["archive"], r["difference"]
        out.append(f"| {r['measure']} | {f(b[0], m)} [{f(b[1], m)}, {f(b[2], m)}] | {f(a[0], m)} [{f(a[1], m)}, "
                   f"{f(a[2], m)}] | {f(d[0], m)} [{f(d[1], m)}, {f(d[2], m)}] |")
    short = [k for k, t in trained.items() if t.get("steps") is not None and t["steps"] < steps]
    if short:
        out += ["", f"**Not at equal env steps**: {', '.join(sorted(short))} trained fewer than {steps:,} (a wall-time "
                "limit stopped them); the steps column says how many."]
    out += ["", "Each run:", "", "| arm | seed | " + " | ".join(measures) + " | env steps | minutes |",
            "| --- | --- | " + " | ".join("---" for _ in measures) + " | --- | --- |"]
    for arm in ARMS:
        for seed, r in sorted(results[arm].items()):
            cells = " | ".join(f(r[m], m) if r.get(m) is not None else "-" for m in measures)
            spent = seconds.get(f"{arm}-s{seed}")
            minutes = f"{spent / 60:.1f}" if spent else "-"
            done = trained.get(f"{arm}-s{seed}", {}).get("steps")
            out.append(f"| {arm} | {seed} | {cells} | {f'{done:,}' if done is not None else '-'} | {minutes} |")
    if curve_rows is not None and window is not None:
        lo, hi = window
        out += ["", f"Training curves at equal env steps: normal-start episodes logged between {lo:,} and {hi:,} env "
                "steps (each run's mean weighted by episodes; mean over seeds [95 % bootstrap interval]):", "",
                "| measure | baseline | archive | archive - baseline |", "| --- | --- | --- | --- |"]
        for r in curve_rows:
            b, a, d = r["baseline"], r["archive"], r["difference"]
            spec = ".1%" if r["key"] == "clear_rate" else ".2f" if max(abs(b[0]), abs(a[0])) >= 10 else ".3f"

            def g(x, spec=spec):
                return format(x, spec)
            out.append(f"| {r['measure']} | {g(b[0])} [{g(b[1])}, {g(b[2])}] | {g(a[0])} [{g(a[1])}, {g(a[2])}] | "
                       f"{g(d[0])} [{g(d[1])}, {g(d[2])}] |")
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--encounter", required=True)
    p.add_argument("--config", help="a TOML config file for both arms (default: the encounter's preset)")
    p.add_argument("--seeds", type=int, default=6)
    p.add_argument("--first-seed", type=int, default=0)
    p.add_argument("--steps", type=int, required=True, help="env steps each run trains")
    p.add_argument("--treatment", default=DEFAULT_TREATMENT, help=f"the archive arm's extra settings "
                                                                  f"(default {DEFAULT_TREATMENT!r})")
    p.add_argument("--extra", default="", help="more settings for both arms, e.g. '--env.num_envs 128'")
    p.add_argument("--metric", action="append", default=[], help="a metric whose mean to compare too (repeatable)")
    p.add_argument("--runs-dir", default="runs/archive-experiment")
    p.add_argument("--out", required=True, help="where the table goes: OUT.md and OUT.json")
    p.add_argument("--parallel", type=int, default=1, help="trainings at once (default 1)")
    p.add_argument("--curve-window", type=parse_window, help="LO:HI env steps: also compare the normal-start "
                                                             "training logs in that window (equal env steps)")
    p.add_argument("--arms", default=",".join(ARMS), help="which arms to train now, comma-separated (both are read "
                                                          "for the table; empty: train none, only tabulate)")
    args = p.parse_args(argv)
    args.runs_dir = Path(args.runs_dir)
    seeds = list(range(args.first_seed, args.first_seed + args.seeds))
    threads = max(1, (os.cpu_count() or 1) // args.parallel) if args.parallel > 1 else 0
    arms = [a for a in args.arms.split(",") if a]
    unknown = [a for a in arms if a not in ARMS]
    if unknown:
        raise SystemExit(f"--arms takes {', '.join(ARMS)} (comma-separated; empty: only tabulate), got {unknown}")
    todo = [(arm, s) for s in seeds for arm in arms if read_result(args.runs_dir / f"{arm}-s{s}", args.metric) is None]
    seconds_file = args.runs_dir / "seconds.json"
    seconds = json.loads(seconds_file.read_text()) if seconds_file.exists() else {}

    def train(job):
        arm, seed = job
        cmd = run_command(args, arm, seed, threads)
        print(f"start {arm} seed {seed}: {shlex.join(cmd)}", flush=True)
        t0 = time.monotonic()
        log = args.runs_dir / f"{arm}-s{seed}.log"
        with open(log, "w") as out:
            code = subprocess.call(cmd, stdout=out, stderr=subprocess.STDOUT)
        spent = time.monotonic() - t0
        print(f"done {arm} seed {seed} in {spent / 60:.1f} min (exit {code}; log {log})", flush=True)
        return job, code, spent

    args.runs_dir.mkdir(parents=True, exist_ok=True)
    with ThreadPoolExecutor(max_workers=max(1, args.parallel)) as pool:
        for (arm, seed), code, spent in pool.map(train, todo):
            if code == 0:
                seconds[f"{arm}-s{seed}"] = spent
                atomic_write(seconds_file, json.dumps(seconds, indent=1).encode())
    results = {arm: {} for arm in ARMS}
    for arm in ARMS:
        for s in seeds:
            r = read_result(args.runs_dir / f"{arm}-s{s}", args.metric)
            if r is not None:
                results[arm][s] = r
    progress_name = success_name = ""
    try:
        from osrs_rl.runtime.registry import get_spec

        outcome = get_spec(args.encounter).outcome
        progress_name, success_name = outcome.progress or "", outcome.success
    except Exception:            # the table still reads without the names
        pass
    rows, measures = summarize(results, args.metric, progress_name, success_name)
    # the same measures from the training logs: the success and progress names are the episode metrics
    names = {"clear_rate": success_name, "progress": progress_name, **{m: m for m in args.metric}}
    trained, curves = {}, {arm: {} for arm in ARMS}
    for arm in ARMS:
        for s in results[arm]:
            t = read_training(args.runs_dir / f"{arm}-s{s}", [n for n in names.values() if n], args.curve_window)
            trained[f"{arm}-s{s}"] = t
            curves[arm][s] = {key: t.get(name) for key, name in names.items() if name}
    curve_rows = None
    if args.curve_window is not None:
        curve_rows, _ = summarize(curves, args.metric, progress_name, success_name)
    command = "python scripts/archive_experiment.py " + shlex.join(argv if argv is not None else sys.argv[1:])
    text = markdown(rows, results, measures, command, args.steps, seconds, trained, curve_rows, args.curve_window)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(out.with_suffix(".md"), text.encode())
    atomic_write(out.with_suffix(".json"), json.dumps({"command": command, "provenance": provenance(),
                                                       "steps": args.steps, "rows": rows, "runs": results,
                                                       "trained": trained, "curve_window": args.curve_window,
                                                       "curve_rows": curve_rows, "curves": curves}, indent=1).encode())
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
