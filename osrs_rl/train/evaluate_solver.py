"""Evaluate a scripted solver: kill rate with a 95 % interval, time to kill, deaths, damage, supplies.

    rows = evaluate_solver("zulrah", "solver", tiers=["max"], episodes=256)
    print_solver_table(rows)

Each env plays exactly one episode (so short episodes are not over-counted) in one gear tier; the
solver's kernel writes every env's actions each tick (``SOLVERS``). Times are in ticks and in minutes
of game time at 0.6 s a tick.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module

import numpy as np

import osrs_rl
from osrs_rl.train.league import wilson

TICK_SECONDS = 0.6
# (encounter, policy name) -> "module:kernel"; the kernel is ``kernel(states, configs, out_actions)``
SOLVERS = {("zulrah", "solver"): "osrs_rl.policies.zulrah_solver:solver_actions"}
# encounter -> (gear tier names, their gear_tier config values)
TIERS = {"zulrah": (("budget", "mid", "max"), (0, 1, 2))}


@dataclass
class SolverRow:
    tier: str
    episodes: int
    kills: int
    kill_rate: float
    low: float
    high: float
    mean_ticks_to_kill: float           # nan without a kill
    median_ticks_to_kill: float
    deaths: int
    timeouts: int
    damage_taken: dict = field(default_factory=dict)      # "all", then each source -> mean per episode
    supplies_used: dict = field(default_factory=dict)     # each "<name>_used" metric -> mean per episode


def policy_names(encounter: str) -> list[str]:
    return [p for e, p in SOLVERS if e == encounter]


def _kernel(encounter: str, policy: str):
    if (encounter, policy) not in SOLVERS:
        known = ", ".join(f"{e}: {p}" for e, p in SOLVERS)
        raise ValueError(f"encounter {encounter!r} has no scripted policy {policy!r} (scripted policies: {known})")
    module, name = SOLVERS[encounter, policy].split(":")
    return getattr(import_module(module), name)


def tier_names(encounter: str, tier: str) -> list[str]:
    """``tier`` (a gear tier name or "all") as the list of tier names to evaluate."""
    names = TIERS[encounter][0]
    if tier == "all":
        return list(names)
    if tier not in names:
        raise ValueError(f"unknown gear tier {tier!r} for {encounter}; known: {', '.join(names)}, all")
    return [tier]


def play_solver(encounter: str, policy: str, tier: str, episodes: int = 256, seed: int = 0,
                config: dict | None = None, progress=None) -> SolverRow:
    """``episodes`` episodes (one per env) of ``policy`` in gear tier ``tier``; ``progress`` is called
    with (episodes finished, episodes) after each tick."""
    if episodes < 1:
        raise ValueError(f"episodes must be >= 1, got {episodes}")
    kernel = _kernel(encounter, policy)
    names, values = TIERS[encounter]
    if tier not in names:
        raise ValueError(f"unknown gear tier {tier!r} for {encounter}; known: {', '.join(names)}")
    env = osrs_rl.make(encounter, num_envs=episodes, seed=seed,
                       **{**(config or {}), "gear_tier": values[names.index(tier)]})
    env.reset()
    actions = np.zeros((episodes, env.spec.num_heads), dtype=np.int64)
    metrics = np.zeros((episodes, env.spec.num_metrics))
    done = np.zeros(episodes, dtype=bool)
    while not done.all():
        kernel(env.states, env.config, actions)
        env.step(actions)
        ids, rows = env.finished_last_step()
        fresh = ~done[ids]
        metrics[ids[fresh]] = rows[fresh]
        done[ids] = True
        if progress is not None:
            progress(int(done.sum()), episodes)
    return _row(tier, env.spec.metric_names, metrics)


def _row(tier: str, names, metrics: np.ndarray) -> SolverRow:
    def col(name):
        return metrics[:, names.index(name)]

    killed = col("killed") > 0
    kills, n = int(killed.sum()), len(metrics)
    low, high = wilson(kills, n)
    ticks = col("ticks")[killed]
    sources = [k[len("taken_"):] for k in names if k.startswith("taken_")]
    supplies = [k[:-len("_used")] for k in names if k.endswith("_used")]
    return SolverRow(
        tier=tier, episodes=n, kills=kills, kill_rate=kills / n, low=low, high=high,
        mean_ticks_to_kill=float(ticks.mean()) if kills else float("nan"),
        median_ticks_to_kill=float(np.median(ticks)) if kills else float("nan"),
        deaths=int(col("died").sum()), timeouts=int(col("timed_out").sum()),
        damage_taken={"all": float(col("damage_taken").mean()),
                      **{s: float(col("taken_" + s).mean()) for s in sources}},
        supplies_used={s: float(col(s + "_used").mean()) for s in supplies})


def evaluate_solver(encounter: str, policy: str, tiers=None, episodes: int = 256, seed: int = 0,
                    config: dict | None = None, progress=None) -> list[SolverRow]:
    """One :func:`play_solver` per gear tier (default: every tier); ``progress(tier, done, total)``."""
    tiers = list(TIERS[encounter][0]) if tiers is None else list(tiers)
    rows = []
    for k, tier in enumerate(tiers):
        report = None if progress is None else (lambda done, total, tier=tier: progress(tier, done, total))
        rows.append(play_solver(encounter, policy, tier, episodes, seed + k, config, report))
    return rows


def _minutes(ticks: float) -> str:
    if np.isnan(ticks):
        return "-"
    return f"{ticks:.0f} ({ticks * TICK_SECONDS / 60:.2f} min)"


def print_solver_table(rows: list[SolverRow], console=None, title: str = "scripted solver") -> None:
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    if not console.is_terminal:
        console = Console(width=max(console.width, 140))     # logs and pipes get whole rows, not cut ones
    main = Table(title=title)
    for col in ("gear tier", "episodes", "kill rate", "95 % interval", "mean ticks to kill", "median ticks to kill",
                "deaths", "timeouts"):
        main.add_column(col, justify="right")
    for r in rows:
        main.add_row(r.tier, str(r.episodes), f"{100 * r.kill_rate:.1f} %", f"{100 * r.low:.1f}-{100 * r.high:.1f} %",
                     _minutes(r.mean_ticks_to_kill), _minutes(r.median_ticks_to_kill), str(r.deaths), str(r.timeouts))
    console.print(main)
    for what, key in (("damage taken per episode, by source", "damage_taken"),
                      ("used per episode (food pieces, potion doses, special attacks)", "supplies_used")):
        table = Table(title=what)
        table.add_column("gear tier", justify="right")
        names = list(getattr(rows[0], key)) if rows else []
        for n in names:
            table.add_column(n, justify="right")
        for r in rows:
            table.add_row(r.tier, *[f"{getattr(r, key)[n]:.1f}" for n in names])
        console.print(table)
