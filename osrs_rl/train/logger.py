"""Training logs: config.json, TensorBoard events, optional Weights & Biases, and a console dashboard.

Scalar names follow prefixes the dashboard groups by:

- ``loss/<name>``: the latest value of each loss;
- ``episode/<name>`` and ``phase/<phase>/<name>``: finished-episode metrics (``episode_scalars``),
  shown as the mean over the episodes of the last ``window`` logs;
- ``opponent/<tier>/<name>``: the encounter's outcome metrics (its declared ``Outcome``: success,
  failures, other endings, length) per scripted opponent tier (``opponent_scalars``), shown over the
  same window;
- ``category/<name>/<value>``: for a categorical metric (an index such as an opponent tier or a
  rotation, whose mean means nothing), the share of the episodes with each value; no mean is logged;
- ``time/<part>``: seconds the last iteration spent in each part (env, inference, learn, ...),
  shown as percentages of their sum, so every ``time/`` key must be such a part.

Episode metrics that are 0 or 1 per episode (``rate_metrics``: the trainer passes the encounter's
declared outcome flags, :func:`outcome_rates`) are shown as percentages, like the phase and opponent
shares beside them.
"""

from __future__ import annotations

import importlib
import json
import math
import os
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from pathlib import Path, PurePath

import numpy as np
from rich.console import Console, Group
from rich.live import Live
from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text

from osrs_rl.agent.config import summary
from osrs_rl.io.atomic import atomic_write
from osrs_rl.io.provenance import KEY as PROVENANCE
from osrs_rl.train import tensorboard

LOSS_PREFIX = "loss/"
EPISODE_PREFIX = "episode/"
PHASE_PREFIX = "phase/"
TIME_PREFIX = "time/"
CATEGORY_PREFIX = "category/"
EPISODE_COUNT = "episode/count"
TRAIN_SECONDS = "perf/train_seconds"       # the trainer's training time so far (run.total_minutes' budget)
# metrics the framework itself knows to be indices (the opponents hook of ``EncounterSpec``); an
# encounter names its own in ``category_metrics``
CATEGORY_METRICS = ("opponent_tier", "opponent_slot")
WANDB_MODES = ("online", "offline")


# ---- episode metrics --------------------------------------------------------------------------------
OPPONENT_PREFIX = "opponent/"


def outcome_rates(outcome) -> tuple[str, ...]:
    """The 0/1 metrics an encounter's declared outcome (``EncounterSpec.outcome``, or None) names: the
    dashboard shows them as percentages."""
    return outcome.flags if outcome is not None else ()


def opponent_metrics(outcome) -> tuple[str, ...]:
    """What :func:`opponent_scalars` averages per tier: every metric the declared outcome names."""
    return outcome.metrics if outcome is not None else ()


def opponent_scalars(metrics: Mapping[str, np.ndarray], tier_names: Sequence[str],
                     names: Sequence[str]) -> dict[str, float]:
    """Per scripted opponent tier (the episodes' ``opponent_tier`` metric; -1, a policy, is left out):
    ``opponent/<tier>/count`` and the means of the metrics ``names`` (:func:`opponent_metrics` of the
    encounter's outcome) that the episodes have.

    >>> m = {"won": np.array([1.0, 0.0, 1.0]), "opponent_tier": np.array([0, 1, 1]), "phase": np.zeros(3)}
    >>> opponent_scalars(m, ("novice", "elite"), ("won", "ticks"))
    {'opponent/novice/count': 1.0, 'opponent/novice/won': 1.0, 'opponent/elite/count': 2.0, 'opponent/elite/won': 0.5}
    """
    if "opponent_tier" not in metrics:
        return {}
    tier = np.asarray(metrics["opponent_tier"]).astype(np.int64)
    out = {}
    for t in np.unique(tier[(tier >= 0) & (tier < len(tier_names))]):
        sel = tier == t
        name = tier_names[int(t)]
        out[f"{OPPONENT_PREFIX}{name}/count"] = float(sel.sum())
        for k in names:
            if k in metrics:
                out[f"{OPPONENT_PREFIX}{name}/{k}"] = float(np.asarray(metrics[k], dtype=np.float64)[sel].mean())
    return out


def episode_scalars(metrics: Mapping[str, np.ndarray], phase_names: Sequence[str],
                    category_metrics: Sequence[str] = ()) -> dict[str, float]:
    """Scalars from the finished-episode metrics of ``VecEnv.pop_metrics()``: ``episode/count``,
    ``episode/<name>`` (mean over all episodes) and, per phase reached, ``phase/<phase>/fraction``
    (share of the episodes that ended in it) and ``phase/<phase>/<name>`` (mean over those). Phases no
    episode ended in get fraction 0 and no means. No episodes: no scalars. Categorical metrics
    (``category_metrics`` and ``CATEGORY_METRICS``) get no mean but ``category/<name>/<value>``, the
    share of the episodes with each value.

    >>> m = {"won": np.array([1.0, 0.0, 1.0]), "phase": np.array([0, 1, 1])}
    >>> s = episode_scalars(m, ("early", "late"))
    >>> s["episode/count"], round(s["episode/won"], 3), round(s["phase/late/fraction"], 3), s["phase/late/won"]
    (3.0, 0.667, 0.667, 0.5)
    >>> episode_scalars({"won": np.zeros(0), "phase": np.zeros(0, dtype=np.int64)}, ("early",))
    {}
    >>> m = {"rotation": np.array([1, 3, 3, 3]), "phase": np.zeros(4, dtype=np.int64)}
    >>> episode_scalars(m, ("fight",), category_metrics=("rotation",))
    {'episode/count': 4.0, 'category/rotation/1': 0.25, 'category/rotation/3': 0.75, 'phase/fight/fraction': 1.0}
    """
    if not metrics:
        return {}
    if "phase" not in metrics:
        raise ValueError(f"episode metrics have no 'phase' array (keys: {sorted(metrics)})")
    phase = np.asarray(metrics["phase"])
    n = len(phase)
    if n == 0:
        return {}
    if phase.min() < 0 or phase.max() >= len(phase_names):
        raise ValueError(f"episode phase index {int(phase.max())} outside 0..{len(phase_names) - 1} of {phase_names}")
    categorical = set(category_metrics) | set(CATEGORY_METRICS)
    values, categories = {}, {}
    for name, arr in metrics.items():
        if name in ("phase", "phase_name"):
            continue
        arr = np.asarray(arr)
        if arr.shape != (n,):
            raise ValueError(f"episode metric {name!r} has shape {arr.shape}, expected ({n},) like 'phase'")
        (categories if name in categorical else values)[name] = arr.astype(np.float64)
    out = {EPISODE_COUNT: float(n)}
    out.update({f"{EPISODE_PREFIX}{name}": float(v.mean()) for name, v in values.items()})
    for name, v in categories.items():
        kinds, counts = np.unique(v, return_counts=True)
        out.update({f"{CATEGORY_PREFIX}{name}/{_category_value(k)}": int(c) / n
                    for k, c in zip(kinds, counts, strict=True)})
    for i, pname in enumerate(phase_names):
        sel = phase == i
        k = int(sel.sum())
        out[f"{PHASE_PREFIX}{pname}/fraction"] = k / n
        if k:
            out.update({f"{PHASE_PREFIX}{pname}/{name}": float(v[sel].mean()) for name, v in values.items()})
    return out


def _category_value(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


# ---- formatting -------------------------------------------------------------------------------------
def format_duration(seconds: float | None) -> str:
    """``h:mm:ss``; ``--:--`` when unknown.

    >>> format_duration(3723.4), format_duration(None)
    ('1:02:03', '--:--')
    """
    if seconds is None or not math.isfinite(seconds):
        return "--:--"
    s = int(max(seconds, 0))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


def _fmt(x: float) -> str:
    return f"{x:.4g}"


def _strip(key: str, prefix: str) -> str:
    return key[len(prefix) :]


# ---- dashboard --------------------------------------------------------------------------------------
class Dashboard:
    """Live console view of a run: progress, speed, losses, episode metrics, time breakdown.

    On a terminal it is a ``rich.live.Live`` display redrawn at most ``refresh_per_second`` times a
    second; elsewhere (CI, pipes, files) it prints one plain summary line every ``plain_every``
    seconds instead. ``clock`` is injectable for tests.
    """

    def __init__(
        self,
        total_steps: int | None = None,
        console: Console | None = None,
        start_step: int = 0,
        refresh_per_second: float = 2.0,
        plain_every: float = 10.0,
        window: int = 20,
        rate_window: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
        rate_metrics: Sequence[str] = (),
        total_seconds: float | None = None,
    ):
        self.total_steps = total_steps
        self.total_seconds = total_seconds       # a training-time budget (run.total_minutes): eta()
        self.rate_metrics = frozenset(rate_metrics)
        self.console = console or Console()
        self.live_mode = self.console.is_terminal
        self.refresh_every = 1.0 / refresh_per_second
        self.plain_every = plain_every
        self.rate_window = rate_window
        self.clock = clock
        self.t0 = clock()
        self.step = start_step
        self.latest: dict[str, float] = {}
        self._rate_points: deque[tuple[float, int]] = deque([(self.t0, start_step)])
        self._episodes: deque[tuple[float, dict[str, float]]] = deque(maxlen=window)
        self._last_draw: float | None = None
        self._live: Live | None = None

    # ---- lifecycle -----------------------------------------------------------------------------------
    def start(self) -> Dashboard:
        if self.live_mode and self._live is None:
            self._live = Live(self.render(), console=self.console, auto_refresh=False)
            self._live.start(refresh=True)
        return self

    def stop(self) -> None:
        """Draw the final state (a last line in plain mode) and release the terminal."""
        if self._live is not None:
            self._live.update(self.render(), refresh=True)
            self._live.stop()
            self._live = None
        elif not self.live_mode and self._last_draw is not None:
            self.console.print(self.summary_line(), markup=False, highlight=False, soft_wrap=True)

    def __enter__(self) -> Dashboard:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # ---- data ----------------------------------------------------------------------------------------
    def update(self, step: int, scalars: Mapping[str, float]) -> None:
        now = self.clock()
        self.step = int(step)
        self.latest.update(scalars)
        self._rate_points.append((now, self.step))
        while len(self._rate_points) > 2 and now - self._rate_points[0][0] > self.rate_window:
            self._rate_points.popleft()
        episodic = {k: float(v) for k, v in scalars.items()
                    if k.startswith((EPISODE_PREFIX, PHASE_PREFIX, OPPONENT_PREFIX, CATEGORY_PREFIX))}
        if episodic:
            self._episodes.append((episodic.get(EPISODE_COUNT, 1.0), episodic))
        if self._last_draw is None or now - self._last_draw >= (
            self.refresh_every if self.live_mode else self.plain_every
        ):
            self._last_draw = now
            if self._live is not None:
                self._live.update(self.render(), refresh=True)
            elif not self.live_mode:
                self.console.print(self.summary_line(), markup=False, highlight=False, soft_wrap=True)

    def steps_per_second(self) -> float | None:
        (t_a, s_a), (t_b, s_b) = self._rate_points[0], self._rate_points[-1]
        return (s_b - s_a) / (t_b - t_a) if t_b > t_a else None

    def eta(self) -> float | None:
        """Seconds left: to ``total_steps`` at the recent rate, or to ``total_seconds`` of training (the
        logged ``perf/train_seconds``) if that comes first."""
        rate = self.steps_per_second()
        by_steps = max(self.total_steps - self.step, 0) / rate if self.total_steps and rate and rate > 0 else None
        trained = self.latest.get(TRAIN_SECONDS)
        if not self.total_seconds or trained is None:
            return by_steps
        by_time = max(self.total_seconds - trained, 0.0)
        return by_time if by_steps is None else min(by_steps, by_time)

    def episode_means(self) -> dict[str, float]:
        """Each episode/phase scalar averaged over the episodes of the last ``window`` logs (each log's
        mean weighted by its ``episode/count``)."""
        sums: dict[str, float] = {}
        weights: dict[str, float] = {}
        for count, values in self._episodes:
            for k, v in values.items():
                if k == EPISODE_COUNT:
                    continue
                w = count
                if k.startswith(PHASE_PREFIX) and not k.endswith("/fraction"):  # a mean over that phase's share
                    w *= values.get(k.rsplit("/", 1)[0] + "/fraction", 1.0)
                elif k.startswith(OPPONENT_PREFIX):                             # a mean over that tier's episodes
                    w = values.get(k.rsplit("/", 1)[0] + "/count", 0.0)
                sums[k] = sums.get(k, 0.0) + w * v
                weights[k] = weights.get(k, 0.0) + w
        total = self.episodes_in_window()           # a category value missing from a log had no episodes there
        weights.update({k: total for k in weights if k.startswith(CATEGORY_PREFIX)})
        return {k: sums[k] / weights[k] for k in sums if weights[k] > 0}

    def episodes_in_window(self) -> int:
        return int(sum(count for count, _ in self._episodes))

    def time_shares(self) -> dict[str, float]:
        parts = {_strip(k, TIME_PREFIX): v for k, v in self.latest.items() if k.startswith(TIME_PREFIX)}
        total = sum(parts.values())
        return {k: v / total for k, v in parts.items()} if total > 0 else {}

    # ---- views ---------------------------------------------------------------------------------------
    def _progress_text(self) -> str:
        if self.total_seconds:                      # run.total_minutes: the budget is training time
            trained = self.latest.get(TRAIN_SECONDS, 0.0)
            share = max(trained / self.total_seconds, self.step / self.total_steps if self.total_steps else 0.0)
            return (f"step {self.step:,} | trained {format_duration(trained)} of "
                    f"{format_duration(self.total_seconds)} ({100.0 * min(share, 1.0):.1f}%)")
        if self.total_steps:
            if self.step > self.total_steps:        # whole rollouts only: the last one may run past the total
                return (f"step {self.step:,}: done (asked {self.total_steps:,}; the last rollout ran "
                        f"{self.step - self.total_steps:,} past it)")
            pct = 100.0 * self.step / self.total_steps
            return f"step {self.step:,} / {self.total_steps:,} ({pct:.1f}%)"
        return f"step {self.step:,}"

    def _episode_value(self, name: str, value: float) -> str:
        return f"{100 * value:.1f}%" if name in self.rate_metrics else _fmt(value)

    def _speed_text(self) -> str:
        rate = self.steps_per_second()
        rate_s = f"{rate:,.0f} steps/s" if rate is not None else "-- steps/s"
        elapsed = format_duration(self.clock() - self.t0)
        return f"{rate_s} | elapsed {elapsed} | left {format_duration(self.eta())}"

    def summary_line(self) -> str:
        """The whole state on one plain line (the non-terminal view)."""
        parts = [self._progress_text(), self._speed_text()]
        losses = [f"{_strip(k, LOSS_PREFIX)}={_fmt(v)}" for k, v in self.latest.items() if k.startswith(LOSS_PREFIX)]
        if losses:
            parts.append("loss " + " ".join(losses))
        means = self.episode_means()
        episodes = [f"{_strip(k, EPISODE_PREFIX)}={self._episode_value(_strip(k, EPISODE_PREFIX), v)}"
                    for k, v in means.items() if k.startswith(EPISODE_PREFIX)]
        if episodes:
            parts.append(f"episodes({self.episodes_in_window()}) " + " ".join(episodes))
        shares = self.time_shares()
        if shares:
            parts.append("time " + " ".join(f"{k} {100 * v:.0f}%" for k, v in shares.items()))
        return " | ".join(parts)

    def render(self):
        """The terminal view: a rich renderable."""
        rows = [Text(self._progress_text(), style="bold")]
        if self.total_steps:
            bar = Table.grid(expand=True)  # a bare ProgressBar ends without a line break: a grid row adds it
            bar.add_column(ratio=1)
            bar.add_row(ProgressBar(total=self.total_steps, completed=min(self.step, self.total_steps)))
            rows.append(bar)
        rows.append(Text(self._speed_text()))
        tables = Table.grid(padding=(0, 3))
        columns = []
        losses = {_strip(k, LOSS_PREFIX): v for k, v in self.latest.items() if k.startswith(LOSS_PREFIX)}
        if losses:
            columns.append(_table("losses (latest)", losses))
        means = self.episode_means()
        episodes = {_strip(k, EPISODE_PREFIX): v for k, v in means.items() if k.startswith(EPISODE_PREFIX)}
        episodes = {k: self._episode_value(k, v) for k, v in episodes.items()}
        if episodes:
            columns.append(_table(f"episodes (last {self.episodes_in_window():,})", episodes))
        phases = {
            _strip(k, PHASE_PREFIX).rsplit("/", 1)[0]: v
            for k, v in means.items()
            if k.startswith(PHASE_PREFIX) and k.endswith("/fraction")
        }
        if phases:
            columns.append(_table("ended in phase", {k: f"{100 * v:.1f}%" for k, v in phases.items()}))
        by_tier = {_strip(k, OPPONENT_PREFIX).rsplit("/", 1)[0]: v for k, v in means.items()
                   if k.startswith(OPPONENT_PREFIX) and k.endswith("/won")}
        if by_tier:
            columns.append(_table("won by opponent", {k: f"{100 * v:.1f}%" for k, v in by_tier.items()}))
        categories = {_strip(k, CATEGORY_PREFIX).replace("/", " "): f"{100 * v:.1f}%" for k, v in sorted(means.items())
                      if k.startswith(CATEGORY_PREFIX)}
        if categories:
            columns.append(_table("episodes by kind", categories))
        shares = self.time_shares()
        if shares:
            columns.append(_table("time", {k: f"{100 * v:.0f}%" for k, v in shares.items()}))
        if columns:
            for _ in columns:
                tables.add_column(vertical="top")
            tables.add_row(*columns)
            rows.append(tables)
        return Group(*rows)


def _table(title: str, values: Mapping[str, float | str]) -> Table:
    t = Table(title=title, title_justify="left", show_header=False, box=None, pad_edge=False, min_width=len(title))
    t.add_column(style="cyan")
    t.add_column(justify="right")
    for k, v in values.items():
        t.add_row(k, v if isinstance(v, str) else _fmt(v))
    return t


# ---- logger -----------------------------------------------------------------------------------------
def _json_config(value, where: str = "config"):
    """``value`` as JSON values: paths become strings, tuples and numpy arrays lists, enums their
    value; anything else that JSON cannot hold is refused, naming ``where``."""
    if isinstance(value, PurePath):
        return str(value)
    if isinstance(value, Enum):
        return _json_config(value.value, where)
    if isinstance(value, np.ndarray | np.generic):
        return value.tolist()
    if value is None or type(value) in (str, int, float, bool):
        return value
    if isinstance(value, Mapping):
        bad = [k for k in value if not isinstance(k, str)]
        if bad:
            raise TypeError(f"{where} has a key {bad[0]!r} of type {type(bad[0]).__name__}; config keys must be str")
        return {k: _json_config(v, f"{where}[{k!r}]") for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_config(v, f"{where}[{i}]") for i, v in enumerate(value)]
    hint = " (pass dataclasses.asdict(config))" if hasattr(value, "__dataclass_fields__") else ""
    raise TypeError(f"{where} is a {type(value).__qualname__}{hint}; the logged config holds only JSON values")


def _import_wandb(mode: str):
    if mode not in WANDB_MODES:
        raise ValueError(f"wandb mode must be one of {WANDB_MODES} or None, got {mode!r}")
    try:
        return importlib.import_module("wandb")
    except ImportError as e:
        raise ImportError(
            f"W&B logging was asked for (wandb={mode!r}) but the 'wandb' package is not installed; "
            "install it with `pip install wandb`, or run without W&B logging"
        ) from e


class Logger:
    """One run's logs in ``logdir``: ``config.json`` (written at start; the console gets a summary),
    TensorBoard events (``use_tensorboard``), a W&B run (``wandb`` "online" or "offline"; offline
    needs no network and ``wandb sync`` uploads it later) and the console ``Dashboard``
    (``console``: True for the standard console, a ``rich`` Console, or False for none), which
    shows the episode metrics in ``rate_metrics`` (0 or 1 per episode) as percentages.

    ``provenance`` (the trainer passes ``osrs_rl.io.provenance.provenance()``): the code that runs, recorded
    as the first entry of ``config.json``, ``"provenance"`` (``osrs_rl.agent.config.from_dict`` passes it
    over), and beside the config in TensorBoard and W&B.
    """

    def __init__(
        self,
        logdir: str | os.PathLike,
        config: Mapping,
        use_tensorboard: bool = True,
        wandb: str | None = None,
        project: str = "osrs-rl",
        console: bool | Console = True,
        total_steps: int | None = None,
        start_step: int = 0,
        run_name: str | None = None,
        rate_metrics: Sequence[str] = (),
        total_seconds: float | None = None,
        provenance: Mapping | None = None,
    ):
        # everything that can refuse the inputs runs before any file is written
        self.config = _json_config(config)
        record = self.config if provenance is None else {PROVENANCE: _json_config(provenance, PROVENANCE),
                                                         **self.config}
        wandb_module = _import_wandb(wandb) if wandb is not None else None
        self.logdir = Path(logdir)
        self._closed = False
        atomic_write(self.logdir / "config.json", json.dumps(record, indent=2).encode() + b"\n")
        self.console = Console() if console is True else (console or None)
        if self.console is not None:               # the whole config is in config.json: a summary here
            self.console.rule(f"osrs-rl run: logs in {logdir}")
            said = summary(self.config) or f"{len(self.config)} settings"
            self.console.print(f"{said}\n(every setting: {self.logdir / 'config.json'})", markup=False,
                               highlight=False, soft_wrap=True)
        self.tb = tensorboard.writer(logdir) if use_tensorboard else None
        if self.tb is not None:
            self.tb.add_text("config", "```json\n" + json.dumps(record, indent=2) + "\n```", start_step)
            self.tb.flush()
        self.wandb_run = None
        if wandb_module is not None:
            try:
                self.wandb_run = wandb_module.init(
                    project=project, config=record, mode=wandb, dir=str(logdir), name=run_name
                )
            except BaseException:
                if self.tb is not None:
                    self.tb.close()
                raise
        self.dashboard = None
        if self.console is not None:
            self.dashboard = Dashboard(total_steps, self.console, start_step=start_step,
                                       rate_metrics=rate_metrics, total_seconds=total_seconds).start()

    def log(self, step: int, scalars: Mapping[str, float]) -> None:
        """Send ``scalars`` (numbers, 0-d arrays or one-element tensors) at ``step`` to every sink."""
        if self._closed:
            raise ValueError(f"logger for {self.logdir} is closed")
        values = {}
        for k, v in scalars.items():
            try:
                values[k] = float(v)
            except (TypeError, ValueError) as e:
                raise TypeError(f"scalar {k!r} is not a number: {v!r} ({type(v).__name__})") from e
        if self.tb is not None:
            for k, v in values.items():
                self.tb.add_scalar(k, v, int(step))
            self.tb.flush()                       # a log every few seconds: readers see it at once
        if self.wandb_run is not None:
            self.wandb_run.log(values, step=int(step))
        if self.dashboard is not None:
            self.dashboard.update(step, values)

    def close(self, failed: bool = False) -> None:
        """Stop the dashboard, close the event file, finish the W&B run (exit code 1 if ``failed``)."""
        if self._closed:
            return
        self._closed = True
        try:
            if self.dashboard is not None:
                self.dashboard.stop()
        finally:
            try:
                if self.tb is not None:
                    self.tb.close()
            finally:
                if self.wandb_run is not None:
                    self.wandb_run.finish(exit_code=1 if failed else 0)

    def __enter__(self) -> Logger:
        return self

    def __exit__(self, exc_type, *exc) -> None:
        self.close(failed=exc_type is not None)
