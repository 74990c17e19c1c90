"""Evaluate a trained policy: win rate with a 95 % interval, per opponent.

    rows = evaluate(load_policy("runs/pvp-.../checkpoint.pt"), episodes=256, opponents=["average"])

``load_policy`` (``osrs_rl.agent.policy``) rebuilds a trained model from its checkpoint. Each env
plays exactly one episode (so short episodes are not over-counted) with the policy acting on agent 0;
a win, a loss and the episode's length are what the encounter's declared outcome says
(``EncounterSpec.outcome``: its success metric, any of its failure metrics, its length). Encounters
with an opponent hook (pvp, pvp_selfplay) are evaluated per scripted tier (in a two-agent encounter
the tier replaces agent 1's actions); others in their configured setting.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch

import osrs_rl
from osrs_rl.agent.policy import Policy, policy_actions, policy_note, policy_step
from osrs_rl.io.atomic import atomic_write
from osrs_rl.io.provenance import KEY as PROVENANCE
from osrs_rl.io.provenance import provenance
from osrs_rl.runtime.registry import get_spec
from osrs_rl.train.league import wilson

Progress = Callable[[int, int, str], None]   # (episodes done, episodes in all, the opponent being played)


@dataclass
class EvalRow:
    opponent: str
    episodes: int
    win_rate: float
    low: float
    high: float
    mean_ticks: float
    mean_return: float
    loss_rate: float = float("nan")     # nan when the encounter declares no failure metric
    progress: str = ""                  # the outcome's progress metric (the Inferno's final wave), "" for none
    progress_mean: float = float("nan")
    progress_median: float = float("nan")
    # where the episodes ended: {phase name: {"ended": n, "lost": n, "won": n}} in the encounter's phase
    # order, named as the console's table names them (eval.json is read by people and scripts)
    phases: dict = dataclasses.field(default_factory=dict)
    # every episode metric's mean over the episodes (the Inferno's zuk_lowest_hp, ...): eval.json keeps them
    metric_means: dict = dataclasses.field(default_factory=dict)


def declared_outcome(spec):
    """The spec's :class:`~osrs_rl.runtime.spec.Outcome`; ValueError when it declares none."""
    if spec.outcome is None:
        raise ValueError(f"encounter {spec.name!r} declares no outcome (EncounterSpec.outcome): evaluation cannot "
                         f"tell a win from a loss")
    return spec.outcome


def outcome_columns(spec, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(won, lost, ticks) per row of final metrics ``rows`` (``VecEnv.finished_last_step``) under the
    spec's declared outcome: lost is 1 when any failure metric is; ticks 0 when it declares no length."""
    outcome = declared_outcome(spec)
    col = outcome.columns(spec.metric_names)
    rows = np.asarray(rows, dtype=np.float64).reshape(-1, spec.num_metrics)
    won = rows[:, col[outcome.success]]
    lost = np.zeros(len(rows))
    for m in outcome.failure:
        lost = np.maximum(lost, rows[:, col[m]])
    ticks = rows[:, col[outcome.length]] if outcome.length else np.zeros(len(rows))
    return won, lost, ticks


@torch.no_grad()
def play(policy: Policy, episodes: int, seed: int = 0, opponent=None, greedy: bool = False,
         config: dict | None = None, progress: Callable[[int, int], None] | None = None) -> EvalRow:
    """``episodes`` episodes (one per env) against ``opponent`` (a tier name, or None);
    ``progress(done, episodes)`` is called whenever episodes finish."""
    spec = get_spec(policy.encounter)
    if episodes < 1:
        raise ValueError(f"episodes must be >= 1, got {episodes}")
    outcome = declared_outcome(spec)
    env = osrs_rl.make(spec.name, num_envs=episodes, seed=seed, **{**policy.env_config, **(config or {})})
    if opponent is not None:
        if spec.opponents is None:
            raise ValueError(f"encounter {spec.name!r} has no opponents to choose")
        spec.opponents.set(env, None, tier=spec.opponents.tier_index(opponent))
    model = policy.model
    device = next(model.parameters()).device
    heads = tuple(int(h) for h in spec.head_sizes)
    multi = spec.num_agents > 1
    obs, info = env.reset()
    state = model.initial_state(episodes, device)
    first = torch.ones(episodes, dtype=torch.bool, device=device)
    done = np.zeros(episodes, dtype=bool)
    returns = np.zeros(episodes)
    won = np.zeros(episodes)
    lost = np.zeros(episodes)
    ticks = np.zeros(episodes)
    progressed = np.zeros(episodes)
    ended_in = np.zeros(episodes, dtype=np.int64)
    finals = np.zeros((episodes, spec.num_metrics))
    progress_col = list(spec.metric_names).index(outcome.progress) if outcome.progress else None
    generator = torch.Generator(device=device)
    generator.manual_seed(seed)
    while not done.all():
        act, state = policy_actions(model, obs, info, state, first, heads, spec.num_agents, greedy, generator)
        obs, reward, term, trunc, info = env.step(act)
        r = reward[:, 0] if multi else reward
        returns += np.where(done, 0.0, r)
        ended = (term | trunc) & ~done
        if ended.any():
            ids, env_metrics = env.finished_last_step()
            fresh = ~done[ids]
            won[ids[fresh]], lost[ids[fresh]], ticks[ids[fresh]] = outcome_columns(spec, env_metrics[fresh])
            if progress_col is not None:
                progressed[ids[fresh]] = env_metrics[fresh][:, progress_col]
            ended_in[ids[fresh]] = env.phases_last_step()[fresh]
            finals[ids[fresh]] = env_metrics[fresh]
            done |= ended
            if progress is not None:
                progress(int(done.sum()), episodes)
    low, high = wilson(float(won.sum()), episodes)
    phases = {name: {"ended": int((ended_in == k).sum()), "lost": int(lost[ended_in == k].sum()),
                     "won": int(won[ended_in == k].sum())} for k, name in enumerate(spec.phase_names)}
    return EvalRow(str(opponent) if opponent is not None else "default", episodes, float(won.mean()), low, high,
                   float(ticks.mean()), float(returns.mean()),
                   float(lost.mean()) if outcome.failure else float("nan"), outcome.progress or "",
                   *((float(progressed.mean()), float(np.median(progressed))) if progress_col is not None
                     else (float("nan"), float("nan"))), phases,
                   {name: float(finals[:, k].mean()) for k, name in enumerate(spec.metric_names)})


def evaluate(policy: Policy, episodes: int = 256, opponents=None, seed: int = 0, greedy: bool = False,
             config: dict | None = None, progress: Progress | None = None) -> list[EvalRow]:
    """One :func:`play` per opponent (default: the tiers it trained against, or the configured one).
    ``progress(done, total, opponent)`` follows the episodes over all opponents (``progress_bar``)."""
    spec = get_spec(policy.encounter)
    if opponents is None:
        opponents = list(dict.fromkeys(policy.opponents)) if spec.opponents is not None else []
    plays = list(enumerate(opponents)) or [(0, None)]
    total = episodes * len(plays)
    rows = []
    for k, opponent in plays:
        label = str(opponent) if opponent is not None else "default"
        def report(done: int, _: int, k: int = k, label: str = label) -> None:
            progress(k * episodes + done, total, label)
        if progress is not None:
            progress(k * episodes, total, label)
        rows.append(play(policy, episodes, seed + k, opponent, greedy, config,
                         report if progress is not None else None))
    return rows


@contextlib.contextmanager
def progress_bar(console, description: str) -> Iterator[Progress]:
    """A transient ``rich`` progress bar on ``console``; yields the ``progress`` callback that
    ``evaluate`` and ``save_replays`` take. Off a terminal (a log file, a pipe) it prints one line
    when the work starts instead."""
    from rich.progress import Progress as Bar

    started = []
    with Bar(console=console, transient=True, disable=not console.is_terminal) as bar:
        task = bar.add_task(description, total=None)

        def report(done: int, total: int, opponent: str) -> None:
            if not started:
                started.append(True)
                if not console.is_terminal:
                    console.print(f"{description}: {total:,} episodes ...", markup=False)
            bar.update(task, completed=done, total=total, description=f"{description} ({opponent})")
        yield report


def print_table(rows: list[EvalRow], console=None, title: str = "evaluation") -> None:
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    if not console.is_terminal:
        console = Console(file=console.file, width=max(console.width, 120))   # logs, pipes: whole rows
    table = Table(title=title)
    progress = next((r.progress for r in rows if r.progress), "")
    extra = (f"mean {progress}", f"median {progress}") if progress else ()
    for col in ("opponent", "episodes", "win rate", "95 % interval", "loss rate", "mean ticks", "mean return", *extra):
        table.add_column(col.replace("_", " "), justify="right")
    for r in rows:
        loss = "-" if np.isnan(r.loss_rate) else f"{100 * r.loss_rate:.1f} %"
        more = (f"{r.progress_mean:.1f}", f"{r.progress_median:.1f}") if progress else ()
        table.add_row(r.opponent, str(r.episodes), f"{100 * r.win_rate:.1f} %",
                      f"{100 * r.low:.1f}-{100 * r.high:.1f} %", loss, f"{r.mean_ticks:.0f}", f"{r.mean_return:.3f}",
                      *more)
    console.print(table)
    print_phase_table(rows, console)


def print_phase_table(rows: list[EvalRow], console) -> None:
    """Where the episodes ended, by the encounter's fight phase (the phase an episode ends in is its
    deepest in encounters whose phases follow milestones): per opponent the episodes that ended there,
    with how many of them were lost and won. Nothing for an encounter whose episodes all end in one phase."""
    from rich.table import Table

    names = [name for name in (rows[0].phases if rows else ()) if any(r.phases[name]["ended"] for r in rows)]
    if len(names) < 2:
        return
    table = Table(title="where the episodes ended")
    table.add_column("phase", justify="left")
    for r in rows:
        table.add_column(f"{r.opponent}: ended / lost / won", justify="right")
    for name in names:
        cells = []
        for r in rows:
            ended, lost, won = (r.phases[name][k] for k in ("ended", "lost", "won"))
            cells.append(f"{ended} ({100 * ended / r.episodes:.1f} %) / {lost} / {won}" if ended else "-")
        table.add_row(name, *cells)
    console.print(table)


def save_rows(rows: list[EvalRow], path: Path) -> None:
    """Write ``rows`` to ``path`` (``eval.json``): a JSON list, one object per row with ``EvalRow``'s fields (a
    missing rate, nan, is null) and the ``"provenance"`` of the code that evaluated (``osrs_rl.io.provenance``),
    so a row copied out of its file still names it."""
    made_by = provenance()

    def plain(row):     # strict JSON: a missing rate (nan) is null
        return {**{k: None if isinstance(v, float) and np.isnan(v) else v for k, v in asdict(row).items()},
                PROVENANCE: made_by}

    atomic_write(path, json.dumps([plain(r) for r in rows], indent=2).encode() + b"\n")


def save_replays(policy: Policy, out_dir, per_opponent: int = 2, opponents=None, seed: int = 0,
                 greedy: bool = False, progress: Progress | None = None) -> list[Path]:
    """Play ``per_opponent`` episodes per opponent one at a time and save each as a replay
    (``osrs_rl.replay``) with the policy's value and action probabilities per tick; the episode with
    the highest return per opponent is also saved as ``best-<opponent>.orlr`` (its meta's ``copy_of``
    names the file it copies). Returns the paths.
    ``progress(done, total, opponent)`` is called after each episode."""
    from osrs_rl.replay import record_policy_episode, save_replay

    spec = get_spec(policy.encounter)
    if opponents is None:
        opponents = list(dict.fromkeys(policy.opponents)) if spec.opponents is not None else []
    fields = {f.name for f in spec.config_fields}
    if opponents and "opponent_tier" not in fields:
        raise ValueError(f"encounter {spec.name!r} takes no opponent_tier setting to record replays against")
    model, heads = policy.model, tuple(int(h) for h in spec.head_sizes)
    device = next(model.parameters()).device
    out_dir = Path(out_dir)
    paths = []
    count = per_opponent * len(opponents or [None])
    for k, opponent in enumerate(opponents or [None]):
        config = dict(policy.env_config)
        if opponent is not None:
            config["opponent_tier"] = spec.opponents.tier_index(opponent)
        label = str(opponent) if opponent is not None else "default"
        best = None
        for e in range(per_opponent):
            run = {"state": model.initial_state(1, device), "first": torch.ones(1, dtype=torch.bool, device=device)}
            generator = torch.Generator(device=device)
            generator.manual_seed(seed + 1000 * k + e)

            @torch.no_grad()
            def act(env, obs, info, run=run, generator=generator):
                dist, value, run["state"] = policy_step(model, obs, info["action_mask"], run["state"], run["first"],
                                                        heads, spec.num_agents)
                a = (dist.mode() if greedy else dist.sample(generator)).cpu().numpy()
                note = policy_note(dist, value, heads)
                if spec.num_agents > 1:
                    both = np.zeros((1, spec.num_agents, len(heads)), np.int64)
                    both[:, 0] = a
                    a = both
                return a, note

            replay = record_policy_episode(spec.name, config, act, seed=seed + 1000 * k + e,
                                           meta={"opponent": label, "greedy": greedy})
            paths.append(save_replay(out_dir / f"{label}-{e}.orlr", replay))
            if progress is not None:
                progress(k * per_opponent + e + 1, count, label)
            total = float(replay.rewards[:, 0].sum())
            if best is None or total > best[0]:
                best = (total, replay, paths[-1].name)
        if best is not None:              # the copy says what it copies, so no reader counts its episode twice
            copy = dataclasses.replace(best[1], meta={**best[1].meta, "copy_of": best[2]})
            paths.append(save_replay(out_dir / f"best-{label}.orlr", copy))
    return paths
