"""The ``osrs-rl sweep`` command line.

    osrs-rl sweep ENCOUNTER --space FILE [--trials N] [--budget-steps S] [--budget-seconds T] [--dir DIR]
                            [--config FILE] [--storage URL] [--seed K]
    osrs-rl sweep report DIR [--storage URL]
    osrs-rl sweep worker --storage URL [--dir DIR] [--trials N]
    osrs-rl sweep ablate DIR [--seeds K] [--knobs a,b] [--storage URL]
    osrs-rl sweep ablate ENCOUNTER --space FILE [--config FILE] [--dir DIR] [--seeds K] [--knobs a,b]
    osrs-rl sweep confirm DIR [--top N] [--seeds K] [--storage URL]

A sweep folder (``--dir``, default ``sweeps/ENCOUNTER``) that already holds a study is resumed: the
same space and config go on until the study has ``--trials`` finished trials.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console


def add_sweep_parser(sub) -> None:
    p = sub.add_parser("sweep", help="hyperparameter sweeps on Optuna (pip install 'osrs-rl[sweep]')",
                       description="osrs-rl sweep ENCOUNTER --space FILE: an Optuna study whose trials are training "
                                   "runs of a fixed budget, pruned from their learning curves, in --dir (SQLite, "
                                   "resumed when it exists). osrs-rl sweep report DIR: report.md, PNG plots and "
                                   "best.toml in DIR/report. osrs-rl sweep worker --storage URL: one more process "
                                   "working on a shared (PostgreSQL) study. osrs-rl sweep ablate DIR: the best "
                                   "config with one knob moved at a time, --seeds seeds each, effects with 95 % "
                                   "intervals in DIR/ablate (ablate ENCOUNTER --space FILE: the same from the "
                                   "preset or --config, in --dir, default sweeps/ENCOUNTER-ablate). osrs-rl "
                                   "sweep confirm DIR: the --top best trials again with --seeds seeds, their mean "
                                   "scores with 95 % intervals in DIR/confirm. Space file format: "
                                   "docs/guide/sweeps.md.")
    p.add_argument("target", help="an encounter, or report / worker / ablate / confirm")
    p.add_argument("path", nargs="?",
                   help="report, ablate, confirm: the sweep folder (ablate --space: the encounter)")
    p.add_argument("--seeds", type=int, default=3, help="ablate, confirm: seeds per variant (default 3)")
    p.add_argument("--top", type=int, default=3, help="confirm: how many of the best trials (default 3)")
    p.add_argument("--knobs", help="ablate: comma-separated parameters to move (default: all of the space's)")
    p.add_argument("--space", help="the search space file (TOML)")
    p.add_argument("--trials", type=int, default=20, help="finished trials the study should have (default 20)")
    p.add_argument("--budget-steps", type=int, help="env steps per trial (default: the space file's)")
    p.add_argument("--budget-seconds", type=float, help="wall-time limit per trial (default: the space file's)")
    p.add_argument("--dir", help="the sweep folder (default sweeps/ENCOUNTER; worker: sweeps/worker)")
    p.add_argument("--config", help="a TOML file of base settings (replaces the encounter's preset)")
    p.add_argument("--storage", help="an Optuna storage URL (postgresql://...) instead of DIR/study.db")
    p.add_argument("--seed", type=int, default=0, help="seed of the sampler")
    p.set_defaults(func=cmd_sweep)


def cmd_sweep(args: argparse.Namespace, console: Console | None = None) -> int:
    from rich.markup import escape

    from osrs_rl.sweep.space import SpaceError

    console = console or Console()
    try:
        if args.target == "report":
            return _report(args, console)
        if args.target == "worker":
            return _worker(args, console)
        if args.target == "ablate":
            return _ablate(args, console)
        if args.target == "confirm":
            return _confirm(args, console)
        return _sweep(args, console)
    except (SpaceError, ValueError, ImportError) as e:
        console.print("[red]error:[/red] " + escape(str(e)), soft_wrap=True)     # one line, however long
        return 2


def _say(console: Console, text: str) -> None:
    console.print(text, markup=False, soft_wrap=True)


def _sweep(args: argparse.Namespace, console: Console) -> int:
    from osrs_rl.runtime.registry import names
    from osrs_rl.sweep.study import create_or_load, fail_stale_trials, finished, optimize

    if args.target not in names():
        raise ValueError(f"unknown encounter {args.target!r}; known: {', '.join(names())} (or report, worker)")
    if not args.space:
        raise ValueError("osrs-rl sweep ENCOUNTER needs --space FILE (docs/guide/sweeps.md)")
    if args.path:
        raise ValueError(f"unexpected {args.path!r}: the sweep folder is --dir")
    definition = _definition(args, args.target)
    folder = Path(args.dir or Path("sweeps") / args.target)
    resumed = (folder / "study.db").is_file() or args.storage is not None
    study, definition = create_or_load(folder, definition, args.storage)
    if args.storage is None:
        stale = fail_stale_trials(study)
        if stale:
            _say(console, f"{stale} trial(s) a stopped sweep left running are marked interrupted (not counted)")
    before = finished(study)
    if resumed and before:
        _say(console, f"resuming the sweep in {folder}: {before} trial(s) finished")
    s = definition.space.settings
    _say(console, f"sweep of {definition.encounter} in {folder}: {args.trials} trials of {s.budget_steps:,} env steps"
                  + (f" or {s.budget_seconds:g} s" if s.budget_seconds else "") + f", score: {s.objective}")
    again = (f"osrs-rl sweep {definition.encounter} --space {args.space} --trials {args.trials} --dir {folder}"
             + (f" --config {args.config}" if args.config else "")
             + (f" --storage {args.storage}" if args.storage else ""))
    first = len(study.trials)
    try:
        run = optimize(study, definition, folder, args.trials, console)
    except KeyboardInterrupt:
        return _interrupted(console, study, first, args.storage or folder, again)
    _say(console, f"{run} trial(s) run here; report: osrs-rl sweep report {folder}")
    return 0


def _interrupted(console: Console, study, first: int, where, again: str) -> int:
    """Ctrl-C: one line on what stopped, where the study is and how to go on (the trial that was running
    is marked interrupted, so it does not count), then exit 130 as the shell's SIGINT status."""
    from osrs_rl.sweep.study import finished, interrupted
    from osrs_rl.train.ppo import ignore_stop_signals

    stopped = [t.number for t in study.get_trials(deepcopy=False)[first:] if interrupted(t)]
    what = f"trial {stopped[-1]} stopped, marked interrupted and not counted; " if stopped else ""
    _say(console, f"interrupted: {what}{finished(study)} finished trial(s) in the study in {where}; "
                  f"continue: {again}")
    ignore_stop_signals()               # a second Ctrl-C has nothing left to stop (as osrs-rl train)
    return 130


def _definition(args: argparse.Namespace, encounter: str):
    """The sweep definition the command line gives (space file, --config, budgets), checked before anything
    is written: the space file, the base settings, the budgets and the space's ranges against the settings'
    bounds (``SweepDefinition.check``)."""
    from osrs_rl.sweep.space import load_space
    from osrs_rl.sweep.study import SweepDefinition

    load_space(args.space)
    base = ""
    if args.config:
        path = Path(args.config)
        if not path.is_file():
            raise ValueError(f"config file {path} does not exist")
        base = path.read_text()
    definition = SweepDefinition(encounter, Path(args.space).read_text(), str(args.space), base, args.seed,
                                 args.budget_steps, args.budget_seconds)
    definition.check()
    return definition


def _report(args: argparse.Namespace, console: Console) -> int:
    from osrs_rl.sweep.report import write_report

    if not args.path:
        raise ValueError("osrs-rl sweep report needs the sweep folder: osrs-rl sweep report DIR")
    files = write_report(Path(args.path), args.storage, say=lambda text: _say(console, text))
    for kind, path in files.items():
        _say(console, f"{kind}: {path}")
    return 0


def _worker(args: argparse.Namespace, console: Console) -> int:
    from osrs_rl.sweep.study import load, optimize

    if not args.storage:
        raise ValueError("osrs-rl sweep worker needs --storage URL (the study's database, e.g. postgresql://...)")
    folder = Path(args.dir or Path("sweeps") / "worker")
    study, definition = load(folder, args.storage)
    _say(console, f"worker on the sweep of {definition.encounter} in {args.storage}; trials write to {folder}")
    first = len(study.trials)
    try:
        run = optimize(study, definition, folder, args.trials, console)
    except KeyboardInterrupt:
        return _interrupted(console, study, first, args.storage,
                            f"osrs-rl sweep worker --storage {args.storage} --dir {folder} --trials {args.trials}")
    _say(console, f"{run} trial(s) run here")
    return 0


def _ablate(args: argparse.Namespace, console: Console) -> int:
    from osrs_rl.runtime.registry import names
    from osrs_rl.sweep.ablate import ABLATE_DIR, ablate, ablate_config, number_or_dash

    knobs = [k.strip() for k in args.knobs.split(",") if k.strip()] if args.knobs else None

    def say(text: str) -> None:
        _say(console, text)
    if args.space:          # osrs-rl sweep ablate ENCOUNTER --space FILE: the preset (or --config) is the baseline
        if args.path not in names():
            raise ValueError(f"osrs-rl sweep ablate --space FILE needs an encounter ({', '.join(names())}), "
                             f"got {args.path!r}")
        if args.storage:
            raise ValueError("--storage is for a sweep's study; an ablation of a config needs none")
        folder = Path(args.dir or Path("sweeps") / f"{args.path}-ablate")
        summary = ablate_config(_definition(args, args.path), folder, args.seeds, knobs, say=say)
    else:
        if not args.path:
            raise ValueError("osrs-rl sweep ablate needs the sweep folder (osrs-rl sweep ablate DIR), or an "
                             "encounter and a space (osrs-rl sweep ablate ENCOUNTER --space FILE)")
        folder = Path(args.path)
        summary = ablate(folder, args.seeds, knobs, args.storage, say=say)
    from rich.table import Table

    table = Table(title=f"one knob at a time from {summary['baseline']['source']} "
                        f"(baseline {summary['baseline']['mean']:.4g}, {args.seeds} seeds)")
    for column in ("knob", "baseline", "moved to", "mean", "effect", "95 % interval", "halfway"):
        table.add_column(column)
    for r in summary["knobs"]:
        table.add_row(r["knob"], str(r["best"]), str(r["value"]), f"{r['mean']:.4g}",
                      ("[bold]" if r["clear"] else "") + f"{r['effect']:+.4g}",
                      f"[{r['low']:+.4g}, {r['high']:+.4g}]", number_or_dash(r["halfway"]))
    console.print(table)
    _say(console, f"table: {folder / ABLATE_DIR / 'ablation.md'}")
    return 0


def _confirm(args: argparse.Namespace, console: Console) -> int:
    from osrs_rl.sweep.ablate import CONFIRM_DIR, confirm

    if not args.path:
        raise ValueError("osrs-rl sweep confirm needs the sweep folder: osrs-rl sweep confirm DIR")
    rows = confirm(Path(args.path), args.top, args.seeds, args.storage, say=lambda text: _say(console, text))
    for r in rows:
        _say(console, f"trial {r['trial']}: {r['mean']:.4g} [{r['low']:.4g}, {r['high']:.4g}] over {args.seeds} seeds "
                      f"(its own score {r['trial_score']:.4g})")
    _say(console, f"table: {Path(args.path) / CONFIRM_DIR / 'confirm.md'}")
    return 0
