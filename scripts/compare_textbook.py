"""Does an encounter's preset beat the strong plain-PPO reference per sample and per second? (issue 43's targets)

    python scripts/compare_textbook.py --encounter zulrah --seeds 0,1,2 --textbook-steps 4000000 \\
        --out docs/textbook-zulrah

For each seed, both learners train on the same env settings (the preset's ``env.config`` plus ``--set``,
its scripted opponents spread over the envs the same way) on this machine, one after the other:

- the textbook PPO, ``scripts/textbook_ppo.py``, configured as the encounter's strong reference: the best
  configuration of its own sweep (``--reference``, default ``docs/reference-ENCOUNTER.json``, written by
  scripts/reference_sweep.py on the same env settings; issue 43: a race against the textbook's defaults
  flatters the preset), for ``--textbook-steps`` env steps;
- the preset, ``osrs-rl train ENCOUNTER --run.seed S`` (everything else the preset's, plus ``--extra``),
  for the preset's own ``run.total_steps`` or ``--preset-steps`` (its entropy and learning-rate schedules
  follow the run's length, so a shorter budget is another recipe: the Zulrah preset cut to 4 M steps
  learned nothing from seed 1 in them).

Each learner's curve is the metric (``--metric``: ``success``, the encounter's declared success rate over
the training episodes; ``progress``, its declared progress metric's mean, e.g. the Inferno's final wave)
smoothed over a window of ``--window`` env steps. Two *levels* of the textbook's smoothed curve are read:
``final``, where it ended, and ``best``, the highest it reached (stricter where it peaks and falls back).
"Per sample" is the env steps each learner first reaches a level at, "per second" its seconds of
training (the textbook's from its first env step; the trainer's ``perf/train_seconds``, which includes
compiling its batched kernels in its first iteration, a few seconds). Issue 43's targets: the preset in
at most the reference's steps and half its seconds. The table (each
seed and the medians of the ratios) goes to ``OUT.md`` beside this command, the curves' numbers to
``OUT.json``. A learner that never reaches the level counts as "not reached" (ratio above 1).

Runs already done (a CSV for the textbook, a checkpoint for the preset, under ``--runs-dir``) are read
back, not run again. Run it on a quiet machine: the seconds are the comparison.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import shlex
import statistics
import subprocess
import sys
from pathlib import Path

from osrs_rl.io.atomic import atomic_write
from osrs_rl.io.provenance import provenance

SCRIPTS = Path(__file__).resolve().parent


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--encounter", required=True)
    p.add_argument("--seeds", default="0,1,2", help="comma-separated seeds (default 0,1,2)")
    p.add_argument("--textbook-steps", type=int, default=4_000_000)
    p.add_argument("--reference", default=None, metavar="JSON",
                   help="the reference sweep's result whose best configuration the textbook runs "
                        "(default: docs/reference-ENCOUNTER.json)")
    p.add_argument("--preset-steps", type=int, default=None,
                   help="default: the preset's own run.total_steps (its schedules follow the run's length)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="an encounter setting for both learners, over the preset's (repeatable)")
    p.add_argument("--extra", default="", help="more arguments for osrs-rl train, quoted: '--run.total_minutes 20'")
    p.add_argument("--metric", choices=("success", "progress"), default="success")
    p.add_argument("--window", type=int, default=500_000, help="env steps the curves are smoothed over")
    p.add_argument("--runs-dir", default="runs/textbook-compare")
    p.add_argument("--out", required=True, help="OUT.md and OUT.json are written (replaced)")
    return p.parse_args(argv)


def env_settings(encounter: str, pairs: list[str]) -> tuple[dict, list[str]]:
    """The preset's encounter settings with ``--set`` over them, as text (what both command lines take),
    and the preset's scripted opponents."""
    from osrs_rl.agent.config import load_config

    cfg = load_config(encounter)
    settings = {k: _text(v) for k, v in cfg.env.config.items()}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise SystemExit(f"--set takes KEY=VALUE, got {pair!r}")
        settings[key.strip()] = value.strip()
    return settings, list(cfg.env.opponents)


def _text(value) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def load_reference(args, settings: dict, opponents: list[str]) -> dict:
    """The reference sweep's best configuration (``best``: its name and textbook_ppo.py arguments), refused
    when missing or tuned on other env settings than this comparison's."""
    path = Path(args.reference) if args.reference else SCRIPTS.parent / "docs" / f"reference-{args.encounter}.json"
    if not path.is_file():
        raise SystemExit(f"no reference configuration at {path}: run scripts/reference_sweep.py --encounter "
                         f"{args.encounter} first, or name one with --reference (the textbook's defaults are not a "
                         "reference: issue 43)")
    ref = json.loads(path.read_text())
    if ref.get("encounter") != args.encounter:
        raise SystemExit(f"{path} is the reference of {ref.get('encounter')!r}, not {args.encounter!r}")
    if ref.get("settings") != settings or list(ref.get("opponents", [])) != list(opponents):
        raise SystemExit(f"{path} was tuned on other env settings ({ref.get('settings')}, opponents "
                         f"{ref.get('opponents')}) than this comparison's ({settings}, opponents {opponents}): "
                         "run the reference sweep on these")
    return ref["best"]


def textbook_command(args, seed: int, settings: dict, opponents: list[str], out: Path,
                     reference: list[str] = ()) -> list[str]:
    cmd = [sys.executable, str(SCRIPTS / "textbook_ppo.py"), "--encounter", args.encounter, "--total-steps",
           str(args.textbook_steps), "--seed", str(seed), "--log-every", "2", "--out", str(out), *reference]
    cmd += [a for k, v in settings.items() for a in ("--set", f"{k}={v}")]
    if opponents:
        cmd += ["--opponents", ",".join(opponents)]
    return cmd


def preset_command(args, seed: int, settings: dict, runs_dir: Path) -> list[str]:
    steps = ["--run.total_steps", str(args.preset_steps)] if args.preset_steps else []
    cmd = [sys.executable, "-m", "osrs_rl.cli", "train", args.encounter, "--run.seed", str(seed), *steps,
           "--run.eval_episodes", "0", "--run.out_dir", str(runs_dir),
           "--run.name", f"preset-s{seed}", "--log.console", "false", "--log.replays", "false"]
    cmd += [a for k, v in settings.items() for a in (f"--env.config.{k}", v)]
    return cmd + shlex.split(args.extra)


def textbook_curve(path: Path, metric: str) -> list[tuple[int, float, float, int]]:
    """(env steps, seconds since the first step, metric, episodes) per logged interval of a textbook CSV."""
    column = "success_rate" if metric == "success" else "progress"
    rows = []
    with path.open() as f:
        for r in csv.DictReader(f):
            rows.append((int(r["env_steps"]), float(r["since_first_step_s"]), float(r[column]), int(r["episodes"])))
    return rows


def preset_curve(run_dir: Path, encounter: str, metric: str) -> list[tuple[int, float, float, int]]:
    """(env steps, seconds of training, metric, episodes) per log line of a training run's TensorBoard events."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    from osrs_rl.runtime.registry import get_spec
    from osrs_rl.train.logger import EPISODE_COUNT, TRAIN_SECONDS

    outcome = get_spec(encounter).outcome
    name = f"episode/{outcome.success if metric == 'success' else outcome.progress}"
    acc = EventAccumulator(str(run_dir), size_guidance={"scalars": 0})
    acc.Reload()
    seconds = {e.step: e.value for e in acc.Scalars(TRAIN_SECONDS)}
    count = {e.step: e.value for e in acc.Scalars(EPISODE_COUNT)}
    return [(e.step, seconds[e.step], e.value, int(count.get(e.step, 1))) for e in acc.Scalars(name)
            if e.step in seconds]


def smooth(curve: list[tuple[int, float, float, int]], window: int) -> list[tuple[int, float, float, int]]:
    """(steps, seconds, the episode-weighted mean of the metric over the logs of the last ``window`` steps,
    the episodes in them)."""
    out = []
    for i, (step, sec, _, _) in enumerate(curve):
        pick = [(v, n) for s, _, v, n in curve[: i + 1] if s > step - window and n > 0 and not math.isnan(v)]
        if pick:
            weight = sum(n for _, n in pick)
            out.append((step, sec, sum(v * n for v, n in pick) / weight, weight))
    return out


def first_reach(curve: list[tuple[int, float, float, int]], level: float,
                window: int = 0) -> tuple[int, float, int] | None:
    """(steps, seconds, episodes in the window) where the smoothed curve first reaches ``level`` once a whole
    ``window`` has run (before it a point averages a handful of early fights: two short ones, one won, read
    0.5); None if it never does."""
    for step, sec, value, n in curve:
        if step >= window and value >= level - 1e-12:
            return step, sec, n
    return None


READINGS = ("final", "best")


def learned(level: float, start: float, episodes: int, rate: bool) -> bool:
    """Whether the textbook's ``level`` is learning rather than noise: above its first smoothed point
    ``start``, for a rate by more than two binomial standard errors over the ``episodes`` of its window
    (three kills in 3,000 fights after none is not a level to race to)."""
    margin = 2.0 * math.sqrt(level * (1.0 - level) / max(episodes, 1)) if rate else 0.0
    return level - start > margin + 1e-12


def reach(tb: list, pr: list, level: float, rate: bool, window: int = 0) -> dict:
    """Where each smoothed curve first reaches ``level``, and the preset's steps and seconds as shares of
    the textbook's (None where the preset never reaches it); ``learned`` False marks a level that is no
    learning to compare (``learned``), which the medians leave out."""
    at_tb, at_pr = first_reach(tb, level, window), first_reach(pr, level, window)
    row = dict(level=level, learned=learned(level, tb[0][2], at_tb[2], rate), textbook_steps=at_tb[0],
               textbook_seconds=at_tb[1], preset_steps=None, preset_seconds=None, step_ratio=None, second_ratio=None)
    if at_pr is not None:
        row.update(preset_steps=at_pr[0], preset_seconds=at_pr[1], step_ratio=at_pr[0] / max(at_tb[0], 1),
                   second_ratio=at_pr[1] / max(at_tb[1], 1e-9))
    return row


def compare(textbook: list, preset: list, window: int, rate: bool = True) -> dict:
    """One seed's comparison at two levels of the textbook's smoothed curve: ``final``, where it ended (the
    usual "reaches the baseline's final performance"), and ``best``, the highest it reached on the way (a
    stricter bar where the textbook peaks and falls back); each learner is timed to its first reach once a whole
    ``window`` has run. ``rate``: the metric is a success rate."""
    tb, pr = smooth(textbook, window), smooth(preset, window)
    if not tb:
        raise ValueError("the textbook run logged no finished episode")
    # the best level among the points past a whole window (the last point when the run was shorter than one)
    best = max((p[2] for p in tb if p[0] >= window), default=tb[-1][2])
    after = min(window, tb[-1][0])
    return dict(final=reach(tb, pr, tb[-1][2], rate, after), best=reach(tb, pr, best, rate, after),
                textbook_final=tb[-1][2], preset_final=pr[-1][2] if pr else float("nan"))


def _run(cmd: list[str], log: Path) -> None:
    print("$ " + shlex.join(cmd), flush=True)
    with log.open("w") as f:
        done = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT)
    if done.returncode != 0:
        raise SystemExit(f"exit {done.returncode}: {shlex.join(cmd)} (its output: {log})")


def _fmt(x, spec: str = ".3g") -> str:
    return "-" if x is None else format(x, spec)


def markdown(args, rows: dict, settings: dict, command: str, reference: dict) -> str:
    metric = "success rate" if args.metric == "success" else "progress"
    lines = [f"# The {args.encounter} preset against its strong plain-PPO reference, per sample and per second", "",
             "```", command, "```", "",
             f"Env settings (both): {', '.join(f'{k}={v}' for k, v in settings.items()) or 'the defaults'}. Metric: "
             f"the training episodes' {metric}, smoothed over {args.window:,} env steps. Two levels of the textbook's "
             "curve: where it ended (final) and the highest it reached (best); each learner's env steps and seconds "
             "(from its first env step) to first reach it. Final values: each curve's last smoothed point. "
             f"The textbook runs the reference configuration `{reference['name']}` (textbook_ppo.py "
             f"{' '.join(reference['textbook_args'])}), the best of its sweep (scripts/reference_sweep.py).", "",
             "| seed | level | value | textbook: steps, s | preset: steps, s | step ratio | second ratio |",
             "|---|---|---|---|---|---|---|"]
    for seed, r in rows.items():
        for reading in READINGS:
            x = r[reading]
            got = "not reached" if x["preset_steps"] is None else f"{x['preset_steps']:,}, {x['preset_seconds']:.0f}"
            ratios = (f"{_fmt(x['step_ratio'], '.2f')} | {_fmt(x['second_ratio'], '.2f')}" if x["learned"]
                      else "noise | noise")
            lines.append(f"| {seed} | {reading} | {x['level']:.3f} | {x['textbook_steps']:,}, "
                         f"{x['textbook_seconds']:.0f} | {got} | {ratios} |")
    lines += ["", "| seed | textbook's last point | preset's last point |", "|---|---|---|"]
    lines += [f"| {seed} | {r['textbook_final']:.3f} | {r['preset_final']:.3f} |" for seed, r in rows.items()]
    lines.append("")
    for reading in READINGS:
        s, t = summary(rows, reading)
        n = sum(r[reading]["learned"] for r in rows.values())
        lines.append(f"Median ratios, {reading} level, over the {n} of {len(rows)} seeds whose textbook learned: "
                     f"steps {_fmt(s, '.2f')}, seconds {_fmt(t, '.2f')}.")
    lines += ["", "Issue 43's targets: at most 1.0 of the reference's steps and 0.5 of its seconds; a seed whose "
                  "preset never reaches the level counts as infinite; \"-\": none to take a median of. \"Noise\": a "
                  "level the textbook did not learn, not above its first smoothed point (for a rate, by more than two "
                  "binomial standard errors over the window's episodes); it is left out of the medians."]
    return "\n".join(lines) + "\n"


def summary(rows: dict, reading: str) -> tuple[float | None, float | None]:
    """The median step and second ratios over the seeds whose textbook learned something at one reading
    (None: no such seed, or the median one's preset never reached the level)."""
    def med(key):
        xs = [math.inf if r[reading][key] is None else r[reading][key] for r in rows.values()
              if r[reading]["learned"]]
        m = statistics.median(xs) if xs else None
        return None if m is None or math.isinf(m) else m
    return med("step_ratio"), med("second_ratio")


def _no_nan(x):
    """``x`` with NaN (an interval with no finished episode) as null, so the JSON is strict."""
    if isinstance(x, dict):
        return {k: _no_nan(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_no_nan(v) for v in x]
    return None if isinstance(x, float) and math.isnan(x) else x


def main(argv=None) -> int:
    args = parse_args(argv)
    seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
    runs = Path(args.runs_dir)
    runs.mkdir(parents=True, exist_ok=True)
    settings, opponents = env_settings(args.encounter, args.set)
    reference = load_reference(args, settings, opponents)
    rows, curves = {}, {}
    for seed in seeds:
        csv_path = runs / f"textbook-{reference['name']}-s{seed}.csv"   # named by its configuration
        if not csv_path.is_file():
            partial = csv_path.with_suffix(".partial.csv")
            partial.unlink(missing_ok=True)            # an interrupted run's log: start it again
            _run(textbook_command(args, seed, settings, opponents, partial, reference["textbook_args"]),
                 csv_path.with_suffix(".log"))
            partial.replace(csv_path)
        run_dir = runs / f"preset-s{seed}"
        if not (run_dir / "checkpoint.pt").is_file():
            _run(preset_command(args, seed, settings, runs), runs / f"preset-s{seed}.log")
        tb = textbook_curve(csv_path, args.metric)
        pr = preset_curve(run_dir, args.encounter, args.metric)
        rows[seed] = compare(tb, pr, args.window, rate=args.metric == "success")
        curves[seed] = dict(textbook=tb, preset=pr)
        for reading in READINGS:
            r = rows[seed][reading]
            got = "never" if r["preset_steps"] is None else f"at {r['preset_steps']:,} / {r['preset_seconds']:.0f} s"
            print(f"seed {seed}, {reading} level {r['level']:.3f}: textbook at {r['textbook_steps']:,} steps / "
                  f"{r['textbook_seconds']:.0f} s; preset {got}", flush=True)
    command = "python scripts/compare_textbook.py " + shlex.join(argv if argv is not None else sys.argv[1:])
    out = Path(args.out)
    atomic_write(out.with_suffix(".md"), markdown(args, rows, settings, command, reference).encode())
    data = _no_nan(dict(command=command, provenance=provenance(), settings=settings, opponents=opponents,
                        reference=reference, rows=rows, curves=curves))
    atomic_write(out.with_suffix(".json"), (json.dumps(data, indent=1, allow_nan=False) + "\n").encode())
    for reading in READINGS:
        s, t = summary(rows, reading)
        print(f"median ratios, {reading} level: steps {_fmt(s, '.2f')}, seconds {_fmt(t, '.2f')}")
    print(f"table: {out.with_suffix('.md')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
