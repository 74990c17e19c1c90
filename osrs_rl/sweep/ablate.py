"""``osrs-rl sweep ablate DIR``: one knob at a time from the sweep's best config, several seeds each.

The baseline is the best completed trial's parameters, or with ``osrs-rl sweep ablate ENCOUNTER --space
FILE`` (``ablate_config``) the preset or ``--config`` as it stands, no study needed. Each knob (a
parameter of the space, or those ``--knobs`` names) is moved alone to each of its other values (a
choice's other choices; a range's two ends), every variant and the baseline trained with ``--seeds``
seeds (``run.seed`` 0..K-1) at the sweep's budget and scored as the trials are. A knob's effect is the
mean score of the variant less the baseline's, with a 95 % Welch interval (Student's t at the Welch-
Satterthwaite degrees of freedom, rounded down). Runs go to ``DIR/ablate/<variant>/seed-K/`` with a
``result.json`` (and the code that made it: ``osrs_rl.io.provenance``); a run that already has one is read
back, not trained again, so an interrupted ablation resumes (``ablation.md`` says which code made the runs).
The table goes to ``DIR/ablate/ablation.md`` and ``ablation.json``.
"""

from __future__ import annotations

import json
import math
import shutil
import statistics
from collections.abc import Callable
from pathlib import Path

from osrs_rl.io.atomic import atomic_write
from osrs_rl.io.provenance import KEY as PROVENANCE
from osrs_rl.io.provenance import provenance, tally
from osrs_rl.io.setup_file import claim_setup
from osrs_rl.sweep.space import Param
from osrs_rl.sweep.study import SweepDefinition, load, optuna, train_and_score

ABLATE_DIR = "ablate"
CONFIRM_DIR = "confirm"
RESULT_FILE = "result.json"

# Two-sided 95 % critical values of Student's t, t(0.975, df) for df = 1..30 (NIST/SEMATECH
# e-Handbook of Statistical Methods, section 1.3.6.7.2, "Critical Values of the Student's t
# Distribution"); past 30 degrees of freedom the normal 1.960 is used (within 2 % of t from df 31 on)
T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def t975(df: float) -> float:
    """Student's t(0.975) at ``df`` degrees of freedom, rounded down (a wider, conservative interval).

    >>> t975(2), t975(2.9), t975(100)
    (4.303, 4.303, 1.96)
    """
    k = max(1, int(math.floor(df)))
    return T975[k - 1] if k <= len(T975) else 1.96


def _mean_var(xs: list[float]) -> tuple[float, float]:
    m = sum(xs) / len(xs)
    return m, (sum((x - m) ** 2 for x in xs) / (len(xs) - 1) if len(xs) > 1 else 0.0)


def welch_interval(a: list[float], b: list[float]) -> tuple[float, float, float]:
    """mean(a) - mean(b) and its 95 % Welch interval (low, high); both samples need 2 values or more.

    Variances 1 and 1 over 3 seeds each: se = sqrt(2/3), df = 4, t = 2.776, half width 2.267:

    >>> d, lo, hi = welch_interval([1.0, 2.0, 3.0], [0.0, 1.0, 2.0])
    >>> d, round(lo, 3), round(hi, 3)
    (1.0, -1.267, 3.267)
    """
    if len(a) < 2 or len(b) < 2:
        raise ValueError("an interval needs at least 2 seeds on each side")
    (ma, va), (mb, vb) = _mean_var(a), _mean_var(b)
    se2 = va / len(a) + vb / len(b)
    d = ma - mb
    if se2 == 0:
        return d, d, d
    df = se2 ** 2 / ((va / len(a)) ** 2 / (len(a) - 1) + (vb / len(b)) ** 2 / (len(b) - 1))
    half = t975(df) * math.sqrt(se2)
    return d, d - half, d + half


def variants(param: Param, best) -> list:
    """The values a knob is moved to from its best value ``best``: other choices, or the range's ends."""
    values = list(param.choices) if param.kind == "choice" else [param.low, param.high]
    return [v for v in dict.fromkeys(values) if v != best]


def _slug(name: str, value) -> str:
    text = f"{name}={value}"
    return "".join(c if c.isalnum() or c in "._=-" else "_" for c in text)


def seeded_scores(definition: SweepDefinition, folder: Path, values: dict, seeds: int, train: Callable | None = None,
                  say: Callable[[str], None] | None = None) -> list[float]:
    """Scores of ``values`` trained with seeds 0..``seeds``-1 into ``folder``/seed-K (read back where a
    run already wrote its result.json)."""
    got = []
    for seed in range(seeds):
        run_dir = folder / f"seed-{seed}"
        result = run_dir / RESULT_FILE
        if result.is_file():
            got.append(json.loads(result.read_text())["score"])
            continue
        if run_dir.exists():          # this ablation's own run, stopped before its score: its curve starts again
            shutil.rmtree(run_dir)
            if say is not None:
                say(f"{folder.name} seed {seed}: its earlier run stopped before a score; training it again")
        cfg = definition.config(values, folder, run_dir.name)
        cfg.run.seed = seed
        r = train_and_score(cfg, definition, train=train)
        if r.score is None:
            raise ValueError(f"{folder.name} seed {seed}: no episode ended within the budget ({r.metric} never logged)")
        atomic_write(result, (json.dumps(dict(params=values, seed=seed, score=r.score, seconds=r.seconds,
                                              steps=r.steps, curve=r.curve, **{PROVENANCE: provenance()}),
                                         indent=1) + "\n").encode())
        if say is not None:
            say(f"{folder.name} seed {seed}: {r.score:.4g} ({r.seconds:.1f} s)")
        got.append(r.score)
    return got


def mean_interval(xs: list[float]) -> tuple[float, float, float]:
    """The mean of ``xs`` and its 95 % Student's t interval (2 values or more).

    Variance 1 over 3 seeds: se = sqrt(1/3), t(2) = 4.303, half width 2.484:

    >>> [round(x, 3) for x in mean_interval([1.0, 2.0, 3.0])]
    [2.0, -0.484, 4.484]
    """
    if len(xs) < 2:
        raise ValueError("an interval needs at least 2 seeds")
    m, v = _mean_var(xs)
    half = t975(len(xs) - 1) * math.sqrt(v / len(xs))
    return m, m - half, m + half


def confirm(folder: Path, top: int = 3, seeds: int = 3, storage: str | None = None, train: Callable | None = None,
            say: Callable[[str], None] | None = None) -> list[dict]:
    """Several seeds per promising point: the ``top`` best completed trials' parameters trained again with
    ``seeds`` seeds each (``DIR/confirm/trial-NNNN/seed-K/``), their mean score and its 95 % interval in
    ``DIR/confirm/confirm.md`` and ``confirm.json``; the rows are returned best mean first."""
    opt = optuna()
    if seeds < 2:
        raise ValueError("confirm needs --seeds 2 or more (an interval needs two scores)")
    study, definition = load(folder, storage)
    complete = sorted([t for t in study.get_trials(deepcopy=False) if t.state == opt.trial.TrialState.COMPLETE],
                      key=lambda t: (-t.value, t.user_attrs.get("wall_seconds", 0.0)))[:top]
    if not complete:
        raise ValueError(f"the sweep in {folder} has no completed trial to confirm")
    rows = []
    for t in complete:
        got = seeded_scores(definition, folder / CONFIRM_DIR / f"trial-{t.number:04d}", dict(t.params), seeds, train,
                            say)
        mean, low, high = mean_interval(got)
        rows.append(dict(trial=t.number, params=dict(t.params), trial_score=t.value, scores=got, mean=mean, low=low,
                         high=high))
    rows.sort(key=lambda r: -r["mean"])
    lines = [f"# {len(rows)} best trials of {definition.encounter} again, {seeds} seeds each", "",
             "| trial | its score | mean over seeds | 95 % interval | parameters |", "|---|---|---|---|---|"]
    lines += [f"| {r['trial']} | {r['trial_score']:.4g} | {r['mean']:.4g} | [{r['low']:.4g}, {r['high']:.4g}] | "
              + ", ".join(f"{k}={v}" for k, v in r["params"].items()) + " |" for r in rows]
    atomic_write(folder / CONFIRM_DIR / "confirm.json", (json.dumps(rows, indent=1) + "\n").encode())
    atomic_write(folder / CONFIRM_DIR / "confirm.md", ("\n".join(lines) + "\n").encode())
    return rows


def ablate(folder: Path, seeds: int = 3, knobs: list[str] | None = None, storage: str | None = None,
           train: Callable | None = None, say: Callable[[str], None] | None = None) -> dict:
    """Run (or read back) the ablation of the sweep in ``folder`` from its best completed trial; returns
    {"baseline": {...}, "knobs": [rows]} and writes the files in ``folder/ablate``."""
    opt = optuna()
    study, definition = load(folder, storage)
    complete = [t for t in study.get_trials(deepcopy=False) if t.state == opt.trial.TrialState.COMPLETE]
    if not complete:
        raise ValueError(f"the sweep in {folder} has no completed trial to start from")
    best = min(complete, key=lambda t: (-t.value, t.user_attrs.get("wall_seconds", 0.0)))
    base = {p.name: best.params[p.name] for p in definition.space.params if p.name in best.params}
    return _ablate(definition, base, f"trial {best.number}", folder / ABLATE_DIR, seeds, knobs, train, say)


def ablate_config(definition: SweepDefinition, folder: Path, seeds: int = 3, knobs: list[str] | None = None,
                  train: Callable | None = None, say: Callable[[str], None] | None = None) -> dict:
    """The ablation of a config rather than a sweep's best trial: the baseline is ``definition``'s base
    config (the encounter's preset, or its ``--config`` text) as it is, each knob of its space moved from
    the value that config gives it. No study is needed; the runs and tables go to ``folder/ablate``."""
    cfg = definition.config({})
    base = {p.name: setting_value(cfg, p.name) for p in definition.space.params}
    source = "the preset" if not definition.base_config else "the --config settings"
    return _ablate(definition, base, source, folder / ABLATE_DIR, seeds, knobs, train, say)


def setting_value(cfg, name: str):
    """The value of the training setting ``section.key`` (or ``env.config.KEY``: the config's, else the
    encounter's default) in ``cfg``."""
    parts = name.split(".")
    if parts[:2] == ["env", "config"]:
        key = parts[2]
        if key in cfg.env.config:
            return cfg.env.config[key]
        from osrs_rl.runtime.registry import get_spec

        field = {f.name: f for f in get_spec(cfg.env.encounter).config_fields}.get(key)
        if field is None:
            raise ValueError(f"{name}: encounter {cfg.env.encounter} has no setting {key}")
        return field.default
    return getattr(getattr(cfg, parts[0]), parts[1])


def _ablate(definition: SweepDefinition, base: dict, source: str, out: Path, seeds: int, knobs: list[str] | None,
            train: Callable | None, say: Callable[[str], None] | None) -> dict:
    if seeds < 2:
        raise ValueError("ablate needs --seeds 2 or more (an interval needs two scores a side)")
    params = {p.name: p for p in definition.space.params}
    chosen = knobs or list(params)
    unknown = [k for k in chosen if k not in params]
    if unknown:
        raise ValueError(f"--knobs {unknown[0]} is not a parameter of the sweep's space ({', '.join(params)})")
    _claim(out, dict(definition=definition.to_dict(), baseline=base, source=source))
    moves = [(knob, value) for knob in chosen for value in variants(params[knob], base[knob])]
    names = ["baseline"] + [_slug(knob, value) for knob, value in moves]
    done = [sum((out / name / f"seed-{seed}" / RESULT_FILE).is_file() for name in names for seed in range(seeds))]

    def counted(text: str) -> None:           # each trained run's line, numbered against the whole ablation
        done[0] += 1
        if say is not None:
            say(f"[{done[0]}/{len(names) * seeds}] {text}")

    def scores(name: str, values: dict) -> list[float]:
        return seeded_scores(definition, out / name, values, seeds, train, counted)

    half = definition.space.settings.budget_steps // 2

    def halfway(name: str) -> float | None:    # a run of objective "level" stops at the level: no halfway to read
        return None if definition.space.settings.objective == "level" else midway(out / name, seeds, half)

    baseline = scores("baseline", base)
    rows = []
    for (knob, value), name in zip(moves, names[1:], strict=True):
        got = scores(name, {**base, knob: value})
        effect, low, high = welch_interval(got, baseline)
        rows.append(dict(knob=knob, best=base[knob], value=value, mean=sum(got) / len(got), scores=got,
                         effect=effect, low=low, high=high, clear=low > 0 or high < 0, halfway=halfway(name),
                         **to_level(out / name, seeds)))
    made_by = [r.get(PROVENANCE) for name in names for r in results(out / name, seeds)]
    summary = dict(baseline=dict(source=source, params=base, scores=baseline, mean=sum(baseline) / len(baseline),
                                 halfway=halfway("baseline"), **to_level(out / "baseline", seeds)),
                   seeds=seeds, knobs=rows, runs_made_by=tally(made_by), **{PROVENANCE: provenance()})
    atomic_write(out / "ablation.json", (json.dumps(summary, indent=1) + "\n").encode())
    atomic_write(out / "ablation.md", markdown(summary, definition).encode())
    return summary


def results(folder: Path, seeds: int) -> list[dict]:
    """The ``result.json`` of each seed's run of one variant (``folder``/seed-K), in seed order."""
    return [json.loads((folder / f"seed-{seed}" / RESULT_FILE).read_text()) for seed in range(seeds)]


def to_level(folder: Path, seeds: int) -> dict:
    """Objective "level": each seed's env steps to the level (None: not within the budget) and wall seconds,
    and their medians (a miss counts as infinite: None when the median one missed). Empty otherwise."""
    runs = results(folder, seeds)
    if "steps" not in runs[0]:
        return {}
    steps = [r["steps"] for r in runs]
    median = statistics.median(math.inf if x is None else x for x in steps)
    seconds = statistics.median(math.inf if x is None else r["seconds"] for r, x in zip(runs, steps, strict=True))
    return dict(steps=steps, median_steps=None if math.isinf(median) else median,
                median_seconds=None if math.isinf(seconds) else seconds)


def midway(folder: Path, seeds: int, step: int) -> float | None:
    """The mean over seeds of each run's learning curve (``result.json``) at ``step``: its last point at or
    before it (how far a variant had got by then, beside its final score); None where no run had a point."""
    got = []
    for result in results(folder, seeds):
        curve = result.get("curve") or []
        before = [v for at, v in curve if at <= step]
        if before:
            got.append(before[-1])
    return sum(got) / len(got) if got else None


def _claim(out: Path, setup: dict) -> None:
    """Record what ``out`` ablates (``setup.json``), or refuse if it already holds another ablation: its
    finished runs are read back as results, so they must belong to the same baseline, space and config."""
    other = claim_setup(out, setup)
    if other is not None:
        raise ValueError(f"{out} holds an ablation of another baseline, space or config ({other}); its runs "
                         "would be read back as this one's: use another --dir")


def number_or_dash(x) -> str:
    """A table cell for a number that may be missing (a halfway point no run reached)."""
    return "-" if x is None else f"{x:.3g}"


def markdown(summary: dict, definition: SweepDefinition) -> str:
    b = summary["baseline"]
    s = definition.space.settings
    level = s.objective == "level"
    lines = [f"# Ablation of {definition.encounter}", "",
             f"Baseline: {b['source']} ({', '.join(f'{k}={v}' for k, v in b['params'].items())}), mean score "
             f"{b['mean']:.4g} over {summary['seeds']} seeds. Effect: a variant's mean less the baseline's, with "
             "its 95 % Welch interval; **bold**: the interval excludes 0."
             + ("" if level else " Halfway: the training curve's success rate at half the budget, mean over seeds "
                f"(the baseline's: {number_or_dash(b.get('halfway'))})."), "",
             "| knob | baseline | moved to | mean | effect | 95 % interval |" + ("" if level else " halfway |"),
             "|---|---|---|---|---|---|" + ("" if level else "---|")]
    if summary.get("runs_made_by"):       # the runs are read back: an ablation resumed later may mix code
        lines[2:2] = [f"Code the runs ran: {summary['runs_made_by']}.", ""]
    for r in summary["knobs"]:
        effect = f"**{r['effect']:+.4g}**" if r["clear"] else f"{r['effect']:+.4g}"
        halfway = "" if level else f" {number_or_dash(r.get('halfway'))} |"
        lines.append(f"| {r['knob']} | {r['best']} | {r['value']} | {r['mean']:.4g} | {effect} | "
                     f"[{r['low']:+.4g}, {r['high']:+.4g}] |{halfway}")
    if level:
        lines += ["", f"Score: 1 - (env steps for the training success rate, smoothed over {s.level_window:,} steps, "
                  f"to reach {s.level:g}) / {s.budget_steps:,}; 0: not within the budget. Each run's steps and its "
                  "wall seconds to there (a miss counts as infinite in the medians):", "",
                  "| variant | steps to the level, per seed | median steps | median seconds |", "|---|---|---|---|"]
        for label, r in [("baseline", b)] + [(f"{r['knob']} = {r['value']}", r) for r in summary["knobs"]]:
            per_seed = ", ".join("-" if x is None else f"{x:,}" for x in r["steps"])
            med = "-" if r["median_steps"] is None else f"{r['median_steps']:,.0f}"
            sec = "-" if r["median_seconds"] is None else f"{r['median_seconds']:.0f}"
            lines.append(f"| {label} | {per_seed} | {med} | {sec} |")
    return "\n".join(lines) + "\n"
