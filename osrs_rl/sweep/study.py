"""A sweep: an Optuna study whose trials are training runs of a fixed budget.

    DIR/study.db               the Optuna study (SQLite; or any storage URL, e.g. PostgreSQL, shared
                               by ``osrs-rl sweep worker`` processes on several machines)
    DIR/trials/trial-NNNN/     each trial's run folder (config.json, checkpoint, TensorBoard events)
                               and trial.json (its settings, curve, score, wall time, state, the code
                               that ran it: osrs_rl.io.provenance)
    DIR/report/                ``osrs-rl sweep report``: report.md, PNG plots, best.toml

Every trial is a training run (``osrs_rl.train.run``, without its final evaluation) in this process with
the space's ``[fixed]`` settings and its drawn parameters as ``--section.key`` overrides. Its learning curve is
the encounter's declared success metric (``EncounterSpec.outcome.success``, logged by the trainer as
``episode/<name>``), a running mean over ``last_logs`` logs, reported to Optuna at ``curve_points``
evenly spaced steps of the budget, where a median pruner may stop a trial that trails the others.
The score maximised is that curve's last value (``objective = "train"``), the win rate of an
evaluation at the end (``"eval"``), or how soon the success rate smoothed over ``level_window`` env steps
reaches ``level`` (``"level"``: 1 - steps / budget_steps, 0 if not within the budget; the run stops
there, and its ``steps`` are kept beside the score); each trial's wall time is stored beside it, and the report
draws the Pareto front of score against time. The study itself stores what its trials need
(encounter, space file, base config), so a worker needs only the storage URL and the study's name.
"""

from __future__ import annotations

import dataclasses
import json
import math
import time
import tomllib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from osrs_rl.agent.config import TrainConfig, apply, load_config, parse_overrides
from osrs_rl.io.atomic import atomic_write
from osrs_rl.io.provenance import KEY as PROVENANCE
from osrs_rl.io.provenance import provenance
from osrs_rl.runtime.registry import get_spec
from osrs_rl.sweep.level import LevelWatch
from osrs_rl.sweep.space import Param, Space, SpaceError, _arg, parse_space

STUDY_NAME = "sweep"
DB_NAME = "study.db"
TRIALS_DIR = "trials"
TRIAL_FILE = "trial.json"
LOG_EVERY = 1e-6            # a trial logs after every update: its curve has every point
INTERRUPTED = "interrupted"  # the user attribute of a failed trial that Ctrl-C (or a kill) stopped: not finished


def optuna():
    """The optuna module, or an ImportError saying how to install the sweep extra."""
    try:
        import optuna as module
    except ImportError:
        raise ImportError("osrs-rl sweep needs optuna: pip install 'osrs-rl[sweep]'") from None
    module.logging.set_verbosity(module.logging.WARNING)
    return module


def storage_url(folder: Path, storage: str | None) -> str:
    """``storage`` (a ``postgresql://`` URL goes through psycopg 3, the driver the sweep extra installs,
    not SQLAlchemy's default psycopg2), or the sweep folder's SQLite file.

    >>> storage_url(Path("x"), "postgresql://me@db:5432/sweeps")
    'postgresql+psycopg://me@db:5432/sweeps'
    """
    if storage and storage.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + storage.split("://", 1)[1]
    return storage or f"sqlite:///{(folder / DB_NAME).resolve()}"


def objective_name(encounter: str) -> str:
    """The scalar a trial's curve follows: the success metric the encounter declares."""
    outcome = get_spec(encounter).outcome
    if outcome is None:
        raise ValueError(f"{encounter} declares no outcome (EncounterSpec.outcome): a sweep has nothing to maximise")
    return f"episode/{outcome.success}"


@dataclass
class SweepDefinition:
    """What every trial of a study shares; stored in the study (``user_attrs["sweep"]``)."""

    encounter: str
    space_text: str
    space_file: str
    base_config: str = ""          # the text of --config FILE ("": the encounter's preset)
    seed: int = 0
    budget_steps: int | None = None        # the command line's --budget-steps over the space file's
    budget_seconds: float | None = None

    @property
    def space(self) -> Space:
        space = parse_space(self.space_text, self.space_file)
        given = {k: v for k, v in (("budget_steps", self.budget_steps), ("budget_seconds", self.budget_seconds))
                 if v is not None}
        return dataclasses.replace(space, settings=dataclasses.replace(space.settings, **given)) if given else space

    def key(self) -> tuple:
        """What a resumed sweep must not change."""
        return (self.encounter, self.space_text, self.base_config, self.space.settings)

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    def config(self, params: dict, folder: Path | None = None, name: str = "") -> TrainConfig:
        """The training config of a trial with ``params`` (a run writing into ``folder``/``name``; without
        ``folder`` the run settings stay as the user would train: ``runs/``, its own name)."""
        space = self.space
        overrides = space.fixed_overrides() + [a for k, v in params.items() for a in (f"--{k}", _arg(v))]
        overrides += ["--run.total_steps", str(space.settings.budget_steps)]
        if folder is not None:
            overrides += ["--run.out_dir", str(folder), "--run.name", name, "--run.log_every", str(LOG_EVERY),
                          "--log.console", "false"]
        if not self.base_config:
            return load_config(self.encounter, None, overrides)
        cfg = TrainConfig()                 # load_config's layers, with the stored --config text for the file
        apply(cfg, tomllib.loads(self.base_config), "the sweep's --config")
        cfg.env.encounter = self.encounter
        return apply(cfg, parse_overrides(overrides), "the sweep").validate()

    def check(self) -> None:
        """Refuse, before any trial runs, a space whose trials would fail whatever is drawn: the base config
        (preset or --config, with [fixed]) must pass the trainer's validation, and so must both ends of every
        range and every choice. An encounter setting (``env.config.KEY``) is checked against its declared
        type and bounds; a training setting by the config's validation, with the other parameters at their
        base values, or one of them at each of its own values in turn (validate's rules tie two settings:
        ``ppo.minibatches = 64`` is fine where ``env.num_envs`` may be drawn 64). Raises SpaceError (ValueError
        for a base config the trainer refuses)."""
        space = self.space
        self.config({})
        spec = get_spec(self.encounter)
        for name, value in space.fixed:
            if name.startswith("env.config."):
                _check_encounter_value(spec, name, value, f"{self.space_file}: fixed: {name} = {value!r}")
        trainer_params = [p for p in space.params if not p.name.startswith("env.config.")]
        for p in space.params:
            for label, value in p.ends():
                where = f'{self.space_file}: params."{p.name}": {label} = {value!r}'
                if p.name.startswith("env.config."):
                    _check_encounter_value(spec, p.name, value, where)
                    continue
                tries = [{}] + [{q.name: v} for q in trainer_params if q is not p for _, v in q.ends()]
                errors = []
                for others in tries:
                    try:
                        self.config({p.name: value, **others})
                        break
                    except ValueError as e:         # the config calls the space's values its overrides
                        errors.append(str(e).removeprefix("command line: ").removeprefix("the sweep: "))
                else:
                    raise SpaceError(f"{where} is refused: {errors[0]}")


def _check_encounter_value(spec, name: str, value, where: str) -> None:
    """SpaceError unless the encounter setting ``name`` (``env.config.KEY``) takes ``value``: its declared
    type and ``low``..``high``, as ``runtime.config.build_config`` checks them (building the config itself
    runs the encounter's tables, seconds for some)."""
    from osrs_rl.runtime.config import parse_bool

    fields = {f.name: f for f in spec.config_fields if not f.derived}
    key = name.split(".", 2)[2]
    if key not in fields:
        raise SpaceError(f"{where}: {spec.name} has no setting {key}; its settings: {', '.join(fields)}")
    f = fields[key]
    kind = np.dtype(f.dtype).kind
    if kind == "b":
        try:
            parse_bool(value)
            return
        except ValueError:
            raise SpaceError(f"{where} is outside what {name} takes: true or false") from None
    number = isinstance(value, int | float) and not isinstance(value, bool)
    ok = (number and math.isfinite(value) and (kind == "f" or isinstance(value, int))
          and (f.low is None or value >= f.low) and (f.high is None or value <= f.high))
    if not ok:
        raise SpaceError(f"{where} is outside what {name} takes: {'a number' if kind == 'f' else 'an integer'} "
                         f"in [{f.low}, {f.high}]")


def create_or_load(folder: Path, definition: SweepDefinition | None, storage: str | None = None):
    """The sweep's study: created with ``definition``, or an existing one (whose definition must be
    the same, when one is given). Returns (study, definition)."""
    opt = optuna()
    folder.mkdir(parents=True, exist_ok=True)
    url = storage_url(folder, storage)
    names = [s.study_name for s in opt.get_all_study_summaries(url)] if _exists(url, folder) else []
    if STUDY_NAME in names:
        study = opt.load_study(study_name=STUDY_NAME, storage=url)
        stored = SweepDefinition(**study.user_attrs["sweep"])
        if definition is not None:          # a budget not given again keeps the stored one
            definition = dataclasses.replace(
                definition, budget_steps=stored.budget_steps if definition.budget_steps is None
                else definition.budget_steps, budget_seconds=stored.budget_seconds
                if definition.budget_seconds is None else definition.budget_seconds)
        if definition is not None and stored.key() != definition.key():
            raise ValueError(f"the study in {url} is a sweep of {stored.encounter} with another space or config "
                             f"({stored.space_file}): resume it without changing them, or use a new --dir")
        return study, stored
    if definition is None:
        raise ValueError(f"no sweep study in {url}: start one with osrs-rl sweep ENCOUNTER --space FILE")
    settings = definition.space.settings
    sampler = opt.samplers.TPESampler(seed=definition.seed, n_startup_trials=settings.startup_trials)
    study = opt.create_study(study_name=STUDY_NAME, storage=url, direction="maximize", sampler=sampler,
                             load_if_exists=True)
    if "sweep" not in study.user_attrs:
        study.set_user_attr("sweep", definition.to_dict())
    return study, definition


def _exists(url: str, folder: Path) -> bool:
    return not url.startswith("sqlite:///") or Path(url[len("sqlite:///"):]).is_file()


def load(folder: Path, storage: str | None = None):
    """An existing sweep's (study, definition)."""
    opt = optuna()
    url = storage_url(folder, storage)
    if not _exists(url, folder):
        raise ValueError(f"{folder} holds no sweep ({DB_NAME} is missing)")
    study = opt.load_study(study_name=STUDY_NAME, storage=url)
    return study, SweepDefinition(**study.user_attrs["sweep"])


def fail_stale_trials(study) -> int:
    """Trials left RUNNING by a sweep that was killed (SQLite: one process at a time) are marked failed and
    interrupted: they did not finish, and no count of finished trials includes them."""
    opt = optuna()
    stale = [t for t in study.get_trials(deepcopy=False) if t.state == opt.trial.TrialState.RUNNING]
    for t in stale:
        study._storage.set_trial_user_attr(t._trial_id, INTERRUPTED, True)
        study._storage.set_trial_state_values(t._trial_id, opt.trial.TrialState.FAIL)
    return len(stale)


def interrupted(trial) -> bool:
    """Whether ``trial`` was stopped by Ctrl-C (or left running by a killed sweep): failed, not finished."""
    return bool(trial.user_attrs.get(INTERRUPTED))


class Curve:
    """A trial's learning curve: the running mean of the success metric over ``last_logs`` logs, reported
    at ``points`` evenly spaced steps of ``budget`` (the same steps for every trial, whatever its batch
    size); ``should_prune`` asks the study's pruner from ``prune_after`` of the budget on."""

    def __init__(self, metric: str, budget: int, points: int, last_logs: int, prune_after: float = 1.0):
        self.metric = metric
        self.grid = max(1, budget // points)
        self.recent: deque[float] = deque(maxlen=last_logs)
        self.points: list[tuple[int, float]] = []
        self.prune_from = prune_after * budget
        self.next_point = self.grid

    @property
    def value(self) -> float | None:
        return sum(self.recent) / len(self.recent) if self.recent else None

    def update(self, step: int, scalars: dict) -> list[tuple[int, float]]:
        """Take a log's scalars; return the new (step, value) points crossed (none before an episode ends)."""
        if self.metric in scalars and math.isfinite(scalars[self.metric]):
            self.recent.append(float(scalars[self.metric]))
        out = []
        while step >= self.next_point:
            if self.value is not None:
                out.append((self.next_point, self.value))
            self.next_point += self.grid
        self.points += out
        return out


@dataclass
class Result:
    """What one training run of a sweep scored."""

    score: float | None
    seconds: float
    curve: list
    metric: str
    pruned: bool = False
    timed_out: bool = False
    steps: int | None = None       # objective "level": the env steps it took (None: not within the budget)


def train_and_score(cfg: TrainConfig, definition: SweepDefinition, report: Callable[[int, float], bool] | None = None,
                    progress: Callable[[int, int], None] | None = None, train: Callable | None = None) -> Result:
    """Train ``cfg`` within the sweep's budget and score it. ``report(step, value)`` gets each curve point
    and returns True to prune the run; ``train(cfg, on_log)`` runs the training (default: ``osrs_rl.train.run``;
    tests pass a fake learning curve) and returns the trained model's Policy (None: no evaluation)."""
    from osrs_rl.train.logger import EPISODE_COUNT

    s = definition.space.settings
    curve = Curve(objective_name(definition.encounter), s.budget_steps, s.curve_points, s.last_logs, s.prune_after)
    start = time.monotonic()
    state = {"pruned": False, "timed_out": False}
    watch = LevelWatch(s.level, s.level_window) if s.objective == "level" else None

    def on_log(step: int, scalars: dict) -> bool:
        if watch is not None and watch.add(step, scalars.get(curve.metric, math.nan),
                                           scalars.get(EPISODE_COUNT, 0.0)):
            return True               # the score is had: the rest of the budget would not change it
        for at, value in curve.update(step, scalars):
            if report is not None and report(at, value) and at >= curve.prune_from:
                state["pruned"] = True
        if progress is not None:
            progress(step, s.budget_steps)
        if s.budget_seconds and time.monotonic() - start >= s.budget_seconds:
            state["timed_out"] = True
        return state["pruned"] or state["timed_out"]

    policy = (train or _train)(cfg, on_log)
    score = curve.value
    if not state["pruned"] and s.objective == "eval":
        score = _evaluate(policy, s.eval_episodes, cfg)
    steps = None
    if watch is not None:
        steps = watch.reached_at
        score = 0.0 if steps is None else 1.0 - steps / s.budget_steps
    metric = "eval/win_rate" if s.objective == "eval" else curve.metric
    return Result(score, time.monotonic() - start, curve.points, metric, state["pruned"], state["timed_out"], steps)


def run_trial(trial, definition: SweepDefinition, folder: Path, progress: Callable[[int, int], None] | None = None,
              train: Callable | None = None) -> float:
    """One trial: train with the drawn parameters, report the curve (the study's pruner may stop it),
    return the score (raises optuna.TrialPruned for a pruned one)."""
    opt = optuna()
    space = definition.space
    params = {p.name: p.suggest(trial) for p in space.params}
    name = f"trial-{trial.number:04d}"
    cfg = definition.config(params, folder / TRIALS_DIR, name)
    run_dir = folder / TRIALS_DIR / name
    trial.set_user_attr("run_dir", str(run_dir))
    trial.set_user_attr(PROVENANCE, provenance())      # the code this worker runs (the report tallies them)

    def report(step: int, value: float) -> bool:
        trial.report(value, step)
        return space.settings.prune and trial.should_prune()

    r = train_and_score(cfg, definition, report, progress, train)
    trial.set_user_attr("wall_seconds", r.seconds)
    trial.set_user_attr("metric", r.metric)
    record = dict(number=trial.number, params=params, state="pruned" if r.pruned else "complete", score=r.score,
                  wall_seconds=r.seconds, timed_out=r.timed_out, metric=r.metric, curve=r.curve,
                  config=cfg.to_dict(), **{PROVENANCE: provenance()})
    atomic_write(run_dir / TRIAL_FILE, (json.dumps(record, indent=1) + "\n").encode())
    if r.pruned:
        raise opt.TrialPruned(f"trailing the median at step {r.curve[-1][0]:,}")
    if r.score is None:
        raise ValueError(f"no episode ended in {cfg.run.total_steps:,} steps: {r.metric} was never logged "
                         "(a larger budget_steps)")
    return r.score


def _train(cfg: TrainConfig, on_log):
    """The trial's run (``osrs_rl.train.run``) without the final evaluation: the objective decides whether
    to evaluate, and with how many episodes (``_evaluate``)."""
    from osrs_rl.train.runner import run

    return run(cfg, on_log=on_log, evaluate=False).policy


def _evaluate(policy, episodes: int, cfg: TrainConfig) -> float:
    """Objective ``"eval"``: the run's final evaluation (``runner.final_evaluation``, its seeds) with
    ``episodes`` per opponent; its win rate, averaged over the opponents."""
    from osrs_rl.train.runner import final_evaluation

    rows = final_evaluation(policy, cfg, episodes)
    return sum(r.win_rate for r in rows) / len(rows)


def finished(study) -> int:
    """Trials complete, pruned or failed; an interrupted one did not finish."""
    opt = optuna()
    done = (opt.trial.TrialState.COMPLETE, opt.trial.TrialState.PRUNED, opt.trial.TrialState.FAIL)
    return sum(t.state in done and not interrupted(t) for t in study.get_trials(deepcopy=False))


def optimize(study, definition: SweepDefinition, folder: Path, trials: int, console=None,
             train: Callable | None = None, total: bool = True) -> int:
    """Run trials until the study has ``trials`` finished ones (``total``: other workers' count too; else
    ``trials`` more), with a progress display on ``console``; returns the number run here. A trial whose
    settings the config refuses, or whose training diverges, is marked failed, one line says why, and the
    sweep goes on. Ctrl-C marks the running trial failed and interrupted (not finished) and raises
    KeyboardInterrupt on."""
    from osrs_rl.sweep.progress import SweepProgress
    from osrs_rl.train.ppo import NonFiniteError

    opt = optuna()
    state = opt.trial.TrialState
    s = definition.space.settings
    todo = max(0, trials - finished(study)) if total else trials
    if todo == 0:
        return 0
    study.pruner = (opt.pruners.MedianPruner(n_startup_trials=s.startup_trials, n_warmup_steps=0) if s.prune
                    else opt.pruners.NopPruner())
    # the sampler is not stored with the study: a loaded one gets the same seeded TPE again, offset by the
    # trials already run so a resumed sweep does not redraw its first points
    study.sampler = opt.samplers.TPESampler(seed=definition.seed + len(study.trials),
                                            n_startup_trials=s.startup_trials)
    run = 0
    with SweepProgress(console, todo, study) as bar:
        # ask and tell rather than study.optimize, which logs each failure with its traceback and records
        # a trial that Ctrl-C stopped as an ordinary failure
        while run < todo and not (total and finished(study) >= trials):
            trial = study.ask()
            bar.trial_started(trial.number)
            value, end = None, state.COMPLETE
            try:
                value = run_trial(trial, definition, folder, progress=bar.trial_progress, train=train)
            except opt.TrialPruned:
                end = state.PRUNED
            except (ValueError, NonFiniteError) as e:
                end = state.FAIL
                trial.set_user_attr("error", str(e))
            except BaseException as e:          # Ctrl-C, or a bug: the trial is not left running
                if isinstance(e, KeyboardInterrupt):
                    trial.set_user_attr(INTERRUPTED, True)
                study.tell(trial, state=state.FAIL)
                raise
            bar.trial_done(study, study.tell(trial, value, state=end))
            run += 1
    return run


def describe(params: tuple[Param, ...]) -> str:
    return "; ".join(p.describe() for p in params)


__all__ = ["SpaceError", "SweepDefinition", "create_or_load", "load", "optimize", "run_trial", "Curve",
           "fail_stale_trials", "interrupted", "objective_name", "storage_url"]
