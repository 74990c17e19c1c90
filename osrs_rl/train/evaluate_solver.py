"""Evaluate a scripted policy an encounter declares: win rate with a 95 % interval, time to win, losses,
timeouts, and, where the encounter's truth names them, damage taken by source and supplies used.

    rows = evaluate_scripted("zulrah", "solver", rows=["max"], episodes=256)
    print_scripted_table(get_spec("zulrah"), rows)

Everything comes from the spec: the policy (``EncounterSpec.scripted_policies``: its kernel writes
every env's actions each tick), what a win, a loss, a timeout and an episode's length are
(``EncounterSpec.outcome``), the table's rows (the policy's ``rows`` config field, one row per value)
and the damage and supply metrics (``EncounterSpec.truth``). Each env plays exactly one episode (so
short episodes are not over-counted). Times are in ticks and in minutes of game time at 0.6 s a tick.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import osrs_rl
from osrs_rl.runtime.registry import get_spec
from osrs_rl.train.evaluate import declared_outcome, outcome_columns
from osrs_rl.train.league import wilson

TICK_SECONDS = 0.6
DEFAULT_ROW = "default"            # the label of the one row of a policy that declares no rows


@dataclass
class ScriptedRow:
    row: str                            # the value of the policy's rows field (a name where it has one)
    episodes: int
    wins: int
    win_rate: float
    low: float
    high: float
    mean_ticks_to_win: float            # nan without a win (or without a declared length)
    median_ticks_to_win: float
    losses: int
    timeouts: int
    progress_mean: float = float("nan")     # the outcome's progress metric (nan: the encounter has none)
    progress_median: float = float("nan")
    damage_taken: dict = field(default_factory=dict)      # each damage metric -> mean per episode
    supplies_used: dict = field(default_factory=dict)     # each supply metric -> mean per episode


def scripted_rows(spec, policy_name: str, chosen=None) -> list[tuple[str, dict]]:
    """(row label, config overrides) per table row of ``policy_name``: every declared row value, or
    ``chosen`` (a value of the rows field, given by the user) alone."""
    policy = spec.scripted_policy(policy_name)
    if policy.rows is None:
        return [(DEFAULT_ROW, {})]
    f = next(f for f in spec.config_fields if f.name == policy.rows)
    values = spec.row_values(policy) if chosen is None else (chosen,)
    return [(f.label(v), {policy.rows: v}) for v in values]


def play_scripted(encounter: str, policy_name: str, episodes: int = 256, seed: int = 0, config: dict | None = None,
                  settings: dict | None = None, label: str = DEFAULT_ROW, progress=None) -> ScriptedRow:
    """``episodes`` episodes (one per env) of the declared scripted policy in ``config``; ``progress``
    is called with (episodes finished, episodes) after each tick."""
    spec = get_spec(encounter)
    policy = spec.scripted_policy(policy_name)
    declared_outcome(spec)
    if episodes < 1:
        raise ValueError(f"episodes must be >= 1, got {episodes}")
    env = osrs_rl.make(encounter, num_envs=episodes, seed=seed, **(config or {}))
    env.reset()
    shape = (episodes, spec.num_heads) if spec.num_agents == 1 else (episodes, spec.num_agents, spec.num_heads)
    actions = np.zeros(shape, dtype=np.int64)
    metrics = np.zeros((episodes, spec.num_metrics))
    done = np.zeros(episodes, dtype=bool)
    while not done.all():
        policy.actions(env.states, env.config, actions, **(settings or {}))
        env.step(actions)
        ids, rows = env.finished_last_step()
        fresh = ~done[ids]
        metrics[ids[fresh]] = rows[fresh]
        done[ids] = True
        if progress is not None:
            progress(int(done.sum()), episodes)
    return _row(spec, label, metrics)


def _row(spec, label: str, metrics: np.ndarray) -> ScriptedRow:
    outcome = spec.outcome
    won, lost, ticks = outcome_columns(spec, metrics)
    col = {m: k for k, m in enumerate(spec.metric_names)}
    wins, n = int(won.sum()), len(metrics)
    low, high = wilson(wins, n)
    to_win = ticks[won > 0] if outcome.length else np.zeros(0)
    truth = spec.truth
    return ScriptedRow(
        row=label, episodes=n, wins=wins, win_rate=wins / n, low=low, high=high,
        mean_ticks_to_win=float(to_win.mean()) if len(to_win) else float("nan"),
        median_ticks_to_win=float(np.median(to_win)) if len(to_win) else float("nan"),
        losses=int(lost.sum()),
        timeouts=int(metrics[:, col[outcome.timeout]].sum()) if outcome.timeout else 0,
        progress_mean=float(metrics[:, col[outcome.progress]].mean()) if outcome.progress else float("nan"),
        progress_median=float(np.median(metrics[:, col[outcome.progress]])) if outcome.progress else float("nan"),
        damage_taken={m: float(metrics[:, col[m]].mean()) for m in (truth.damage_metrics if truth else ())},
        supplies_used={m: float(metrics[:, col[m]].mean()) for m in (truth.supply_metrics if truth else ())})


def evaluate_scripted(encounter: str, policy_name: str, rows=None, episodes: int = 256, seed: int = 0,
                      config: dict | None = None, settings: dict | None = None, progress=None) -> list[ScriptedRow]:
    """One :func:`play_scripted` per table row (``scripted_rows``; ``rows``, a list of (label, config),
    picks them); ``progress(label, done, total)``."""
    spec = get_spec(encounter)
    rows = scripted_rows(spec, policy_name) if rows is None else rows
    out = []
    for k, (label, extra) in enumerate(rows):
        report = None if progress is None else (lambda done, total, label=label: progress(label, done, total))
        out.append(play_scripted(encounter, policy_name, episodes, seed + k, {**(config or {}), **extra}, settings,
                                 label, report))
    return out


def _minutes(ticks: float) -> str:
    if np.isnan(ticks):
        return "-"
    return f"{ticks:.0f} ({ticks * TICK_SECONDS / 60:.2f} min)"


def print_scripted_table(spec, rows: list[ScriptedRow], rows_by: str | None, console=None,
                         title: str = "scripted policy") -> None:
    """The evaluation table (columns named by the spec's outcome), then damage and supplies per row."""
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    if not console.is_terminal:
        console = Console(width=max(console.width, 140))     # logs and pipes get whole rows, not cut ones
    outcome = spec.outcome
    head = (rows_by or "row").replace("_", " ")
    win = outcome.success.replace("_", " ")
    main = Table(title=title)
    columns = [head, "episodes", f"{win} rate", "95 % interval", f"mean ticks when {win}", f"median ticks when {win}"]
    columns += [" / ".join(outcome.failure) or "losses"] + ([outcome.timeout] if outcome.timeout else [])
    columns += [f"mean {outcome.progress}", f"median {outcome.progress}"] if outcome.progress else []
    for c in columns:
        main.add_column(c.replace("_", " "), justify="right")
    for r in rows:
        main.add_row(r.row, str(r.episodes), f"{100 * r.win_rate:.1f} %", f"{100 * r.low:.1f}-{100 * r.high:.1f} %",
                     _minutes(r.mean_ticks_to_win), _minutes(r.median_ticks_to_win),
                     str(r.losses) if outcome.failure else "-", *([str(r.timeouts)] if outcome.timeout else []),
                     *((f"{r.progress_mean:.1f}", f"{r.progress_median:.1f}") if outcome.progress else ()))
    console.print(main)
    for what, key in (("damage taken per episode, by source", "damage_taken"),
                      ("supplies used per episode", "supplies_used")):
        names = list(getattr(rows[0], key)) if rows else []
        if not names:
            continue
        table = Table(title=what)
        table.add_column(head, justify="right")
        for n in names:
            table.add_column(n, justify="right")
        for r in rows:
            table.add_row(r.row, *[f"{getattr(r, key)[n]:.1f}" for n in names])
        console.print(table)
