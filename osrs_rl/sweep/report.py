"""``osrs-rl sweep report DIR``: what a sweep found, written to ``DIR/report/``.

- ``report.md``: the trials (state, score, wall time, parameters) best first, the Pareto front of
  score against wall time, and each parameter's importance;
- ``curves.png``: every trial's learning curve (pruned ones dashed); ``importance.png``: the
  importances as bars; ``pareto.png``: score against wall time, the front joined;
- ``best.toml``: the best trial's full training config, a file ``osrs-rl train ENC --config`` reads;
  none when the completed trials all tie (the score did not tell them apart, so no trial is best).

Importance is Optuna's PED-ANOVA (``optuna.importance.PedAnovaImportanceEvaluator``: how much each
parameter's distribution differs between the top trials and all of them), which needs no
scikit-learn, unlike its fANOVA evaluator.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from pathlib import Path

from osrs_rl.agent.config import to_toml
from osrs_rl.io.atomic import atomic_write
from osrs_rl.io.provenance import KEY as PROVENANCE
from osrs_rl.io.provenance import describe, tally
from osrs_rl.sweep.study import interrupted, optuna

REPORT_DIR = "report"


def pareto_front(points: list[tuple[float, float]]) -> list[int]:
    """Indices of the (score, seconds) points no other point beats on both (a higher or equal score in
    less or equal time, one of them strictly), ordered by time.

    >>> pareto_front([(0.5, 10.0), (0.7, 20.0), (0.6, 30.0), (0.7, 15.0)])
    [0, 3]
    """
    keep = []
    for i, (score, secs) in enumerate(points):
        beaten = any(s2 >= score and t2 <= secs and (s2 > score or t2 < secs) for j, (s2, t2) in enumerate(points)
                     if j != i)
        if not beaten:
            keep.append(i)
    return sorted(keep, key=lambda i: (points[i][1], -points[i][0]))


def importances(study) -> dict[str, float]:
    """Each parameter's importance over the completed trials ({} while there are too few to tell)."""
    opt = optuna()
    complete = [t for t in study.get_trials(deepcopy=False) if t.state == opt.trial.TrialState.COMPLETE]
    if len(complete) < 2 or len({t.value for t in complete}) < 2:
        return {}
    try:
        return dict(opt.importance.get_param_importances(study, evaluator=opt.importance.PedAnovaImportanceEvaluator()))
    except (ValueError, RuntimeError, ZeroDivisionError):
        return {}


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    return buf.getvalue()


def _figure():
    import matplotlib

    matplotlib.use("Agg")               # files only, no display
    from matplotlib.figure import Figure

    return Figure(figsize=(7, 4.5), layout="constrained")


def _value(v) -> str:
    return "" if v is None else f"{v:.4g}" if isinstance(v, float) else str(v)


def tie_note(scores: list[float]) -> str | None:
    """What to say when two or more scores are all equal: no trial is best (None otherwise).

    >>> tie_note([1.0, 1.0, 1.0])
    'all 3 completed trials scored 1: the score does not tell them apart, so no trial is best'
    >>> tie_note([1.0, 0.5]) is None and tie_note([1.0]) is None
    True
    """
    if len(scores) < 2 or len(set(scores)) > 1:
        return None
    return f"all {len(scores)} completed trials scored {scores[0]:.4g}: the score does not tell them apart, " \
           "so no trial is best"


def _state(t) -> str:
    return "interrupted" if interrupted(t) else t.state.name.lower()


def write_report(folder: Path, storage: str | None = None, say: Callable[[str], None] | None = None) -> dict[str, Path]:
    """Write the report files; returns them by kind (``say`` hears why there is no best, when the scores
    tie). Raises ValueError for a folder with no sweep."""
    from osrs_rl.sweep.study import load

    opt = optuna()
    study, definition = load(folder, storage)
    out = folder / REPORT_DIR
    trials = [t for t in study.get_trials(deepcopy=False) if t.state != opt.trial.TrialState.RUNNING]
    # best first; of equal scores the cheaper
    complete = sorted([t for t in trials if t.state == opt.trial.TrialState.COMPLETE],
                      key=lambda t: (-t.value, t.user_attrs.get("wall_seconds", 0.0)))
    names = [p.name for p in definition.space.params]
    tie = tie_note([t.value for t in complete])
    if tie and say is not None:
        say(f"no best.toml: {tie}")
    files: dict[str, Path] = {}

    # ---- learning curves ----
    fig = _figure()
    ax = fig.add_subplot()
    for t in trials:
        if t.intermediate_values:
            steps = sorted(t.intermediate_values)
            ax.plot(steps, [t.intermediate_values[s] for s in steps], label=f"trial {t.number}",
                    linestyle="--" if t.state == opt.trial.TrialState.PRUNED else "-")
    metric = next((t.user_attrs.get("metric") for t in trials if "metric" in t.user_attrs), "score")
    ax.set(xlabel="env steps", ylabel=metric, title=f"{definition.encounter}: learning curves (dashed: pruned)")
    if len(trials) <= 12 and any(t.intermediate_values for t in trials):
        ax.legend(fontsize="small")
    files["curves"] = atomic_write(out / "curves.png", _png(fig))

    # ---- importance ----
    imp = importances(study)
    fig = _figure()
    ax = fig.add_subplot()
    if imp:
        ax.barh(list(imp)[::-1], list(imp.values())[::-1])
        ax.set(xlabel="importance (PED-ANOVA)", title="parameter importance")
    else:
        ax.text(0.5, 0.5, "the scores all tie: nothing to rank" if tie else
                "too few completed trials to rank the parameters", ha="center", va="center")
        ax.set_axis_off()
    files["importance"] = atomic_write(out / "importance.png", _png(fig))

    # ---- Pareto front ----
    points = [(t.value, t.user_attrs.get("wall_seconds", math.nan)) for t in complete]
    front = pareto_front(points) if points else []
    fig = _figure()
    ax = fig.add_subplot()
    if points:
        ax.scatter([p[1] for p in points], [p[0] for p in points], label="completed trials")
        ax.plot([points[i][1] for i in front], [points[i][0] for i in front], "r-o", label="Pareto front")
        for i, t in enumerate(complete):
            ax.annotate(str(t.number), (points[i][1], points[i][0]), fontsize="small")
        ax.legend(fontsize="small")
    ax.set(xlabel="wall seconds", ylabel="score", title="score against cost")
    files["pareto"] = atomic_write(out / "pareto.png", _png(fig))

    # ---- best config ----
    (out / "best.toml").unlink(missing_ok=True)        # an earlier report's best is not this one's
    if complete and not tie:
        best = complete[0]
        cfg = definition.config({k: best.params[k] for k in names if k in best.params})
        header = (f"# best trial {best.number} of the sweep in {folder} (score {best.value:.4g}); its settings with\n"
                  f"# run.total_steps at the trial's budget: osrs-rl train {definition.encounter} --config FILE\n")
        files["best"] = atomic_write(out / "best.toml", (header + to_toml(cfg)).encode())

    # ---- markdown ----
    states = [_state(t) for t in trials]
    lines = [f"# Sweep of {definition.encounter}", "",
             f"{len(trials)} trials: {len(complete)} complete, {states.count('pruned')} pruned, "
             f"{states.count('fail')} failed" + (f", {states.count('interrupted')} interrupted (not counted)"
                                                if "interrupted" in states else "")
             + f". Score: {definition.space.settings.objective} ({metric}); budget "
             f"{definition.space.settings.budget_steps:,} env steps a trial.", "",
             f"Code the trials ran: {tally((t.user_attrs.get(PROVENANCE) for t in trials), 'trials') or 'none'}; "
             f"this report: osrs-rl {describe()}.", ""]
    if tie:
        lines += [f"**No best trial: {tie}.** Make the task harder (it may be won untrained), the budget longer "
                  "or the objective another, so that the scores differ.", ""]
    lines += ["![learning curves](curves.png) ![importance](importance.png) ![Pareto front](pareto.png)", "",
              "## Trials (the scores tie; the fastest first)" if tie else "## Trials (best first)", "",
              "| trial | state | score | wall s | " + " | ".join(names) + " |",
              "|---" * (4 + len(names)) + "|"]
    order = complete + sorted([t for t in trials if t not in complete], key=lambda t: t.number)
    for t in order:
        wall = t.user_attrs.get("wall_seconds")
        lines.append(f"| {t.number} | {_state(t)} | {_value(t.value)} | "
                     f"{'' if wall is None else f'{wall:.1f}'} | " + " | ".join(_value(t.params.get(n)) for n in names)
                     + " |")
    lines += ["", "## Pareto front (score against wall time)", ""]
    lines += [f"- trial {complete[i].number}: score {points[i][0]:.4g} in {points[i][1]:.1f} s" for i in front] or [
        "no completed trial"]
    lines += ["", "## Parameter importance (PED-ANOVA)", ""]
    lines += [f"- {k}: {v:.3f}" for k, v in imp.items()] or [
        "the scores all tie: nothing to rank" if tie else "too few completed trials to rank the parameters"]
    if "best" in files:
        lines += ["", f"Best config: `best.toml` (trial {complete[0].number}): "
                      f"`osrs-rl train {definition.encounter} --config {files['best']}`"]
    files["markdown"] = atomic_write(out / "report.md", ("\n".join(lines) + "\n").encode())
    return files

