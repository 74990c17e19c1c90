"""The search space file of ``osrs-rl sweep``: which ``--section.key`` settings a sweep varies and how.

A TOML file with three tables::

    [sweep]                      # how each trial runs and is scored (all optional)
    budget_steps = 50_000        # env steps per trial (run.total_steps)
    budget_seconds = 0           # wall-time limit per trial (0: none); the trial ends at its next log
    objective = "train"          # "train": the encounter's success rate in training (its declared
                                 # Outcome.success) over the last `last_logs` logs; "eval": the win rate
                                 # of an evaluation of `eval_episodes` episodes at the end of the trial;
                                 # "level": how soon the training success rate, smoothed over
                                 # `level_window` env steps, reaches `level`: 1 - steps / budget_steps
                                 # (0: not within the budget), the run stopping there
    level = 0.9
    level_window = 500_000
    last_logs = 5
    eval_episodes = 64
    curve_points = 20            # the learning curve is reported at this many evenly spaced steps
    prune = true                 # stop trials whose curve trails the median of the others at a point
    prune_after = 0.25           # share of the budget a trial runs before it may be pruned
    startup_trials = 3           # finished trials before pruning and the sampler's model start

    [fixed]                      # settings every trial gets, as on the command line
    "env.num_envs" = 64

    [params."optim.lr"]          # a float range: low, high, optional log = true
    low = 1e-4
    high = 1e-2
    log = true
    [params."ppo.epochs"]        # an int setting gets integers: low, high, optional step or log
    low = 1
    high = 4
    [params."model.kind"]        # a list of choices (any setting type)
    choices = ["mlp", "lstm"]

A parameter's name is a training setting (``section.key``, or ``env.config.KEY`` for an encounter
setting, which takes the bounds' own type); the kind of range follows the setting's type. Everything
else is refused with the reason and the file's name.

    >>> space = parse_space('[params."optim.lr"]\\nlow = 1e-4\\nhigh = 1e-2\\nlog = true\\n', "s.toml")
    >>> space.params[0]
    Param(name='optim.lr', kind='float', low=0.0001, high=0.01, log=True, step=None, choices=())
    >>> parse_space('[params."ppo.gamma"]\\nlow = 0.0\\nhigh = 0.99\\nlog = true\\n', "s.toml")
    Traceback (most recent call last):
    ...
    osrs_rl.sweep.space.SpaceError: s.toml: params."ppo.gamma": log = true needs low > 0 (low is 0.0)
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_type_hints

from osrs_rl.agent.config import TrainConfig, parse_overrides

OBJECTIVES = ("train", "eval", "level")
PARAM_KEYS = {"low", "high", "log", "step", "choices"}
# settings a sweep owns for each trial: the space may not vary or fix them
OWNED = {"run.total_steps": "budget_steps in [sweep]", "run.out_dir": "the sweep folder",
         "run.name": "the trial's number", "log.console": "the sweep's progress display",
         "log.wandb": "the sweep (one W&B run per trial is not supported)"}


class SpaceError(ValueError):
    """The space file is not valid: the message names the file, the entry and what is wrong."""


@dataclass(frozen=True)
class Param:
    """One setting the sweep varies: a range (``int``/``float``, optionally on a log scale) or choices."""

    name: str
    kind: str                       # "int", "float" or "choice"
    low: float | int | None = None
    high: float | int | None = None
    log: bool = False
    step: float | int | None = None
    choices: tuple = ()

    def suggest(self, trial) -> Any:
        """The value an Optuna trial draws for this setting."""
        if self.kind == "choice":
            return trial.suggest_categorical(self.name, list(self.choices))
        if self.kind == "int":
            return trial.suggest_int(self.name, self.low, self.high, step=self.step or 1, log=self.log)
        return trial.suggest_float(self.name, self.low, self.high, step=self.step, log=self.log)

    def ends(self) -> tuple[tuple[str, Any], ...]:
        """The values that bound what this parameter draws, each labelled as the space file writes it:
        ``(("low", 0.0001), ("high", 0.01))``, or each choice."""
        if self.kind == "choice":
            return tuple(("choice", c) for c in self.choices)
        return (("low", self.low), ("high", self.high))

    def describe(self) -> str:
        if self.kind == "choice":
            return f"{self.name} in {list(self.choices)}"
        scale = " (log)" if self.log else f" step {self.step}" if self.step else ""
        return f"{self.name} {self.kind} in [{self.low}, {self.high}]{scale}"


@dataclass(frozen=True)
class Settings:
    """The ``[sweep]`` table: a trial's budget, its score and pruning."""

    budget_steps: int = 50_000
    budget_seconds: float = 0.0
    objective: str = "train"
    level: float = 0.0
    level_window: int = 500_000
    last_logs: int = 5
    eval_episodes: int = 64
    curve_points: int = 20
    prune: bool = True
    prune_after: float = 0.25
    startup_trials: int = 3


@dataclass(frozen=True)
class Space:
    params: tuple[Param, ...]
    settings: Settings = field(default_factory=Settings)
    fixed: tuple[tuple[str, Any], ...] = ()

    def fixed_overrides(self) -> list[str]:
        """``[fixed]`` as command-line overrides (``--section.key value``)."""
        return [a for name, value in self.fixed for a in (f"--{name}", _arg(value))]


def _arg(value: Any) -> str:
    """A TOML value as the command line would spell it (lists: Python literals, read back by the config)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, list) else str(value)


def setting_type(name: str, where: str) -> type | None:
    """The type of the training setting ``name`` (None for an encounter setting ``env.config.KEY``,
    which takes its value's type); an unknown name raises SpaceError listing the valid ones."""
    parts = name.split(".")
    if len(parts) == 3 and parts[:2] == ["env", "config"]:
        return None
    hints = get_type_hints(TrainConfig)
    if len(parts) != 2 or parts[0] not in hints:
        raise SpaceError(f"{where}: {name!r} is not a setting: use section.key (sections: {', '.join(hints)}) "
                         "or env.config.KEY")
    section = get_type_hints(hints[parts[0]])
    if parts[1] not in section:
        raise SpaceError(f"{where}: unknown setting {name}; {parts[0]} has: {', '.join(section)}")
    if name in OWNED:
        raise SpaceError(f"{where}: {name} is set by the sweep ({OWNED[name]})")
    return section[parts[1]]


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def parse_param(name: str, table: Any, file: str) -> Param:  # noqa: C901 - one refusal per malformed field of a parameter
    where = f'{file}: params."{name}"'
    if not isinstance(table, dict):
        raise SpaceError(f"{where} must be a table (low/high[/log/step] or choices)")
    unknown = sorted(set(table) - PARAM_KEYS)
    if unknown:
        raise SpaceError(f"{where}: unknown key {unknown[0]!r}; a parameter has: {', '.join(sorted(PARAM_KEYS))}")
    want = setting_type(name, where)
    if "choices" in table:
        if set(table) != {"choices"}:
            raise SpaceError(f"{where}: choices goes alone (no low/high/log/step beside it)")
        choices = table["choices"]
        if not isinstance(choices, list) or not choices:
            raise SpaceError(f"{where}: choices must be a non-empty list")
        if len(set(map(repr, choices))) != len(choices):
            raise SpaceError(f"{where}: choices lists a value twice: {choices}")
        if any(isinstance(c, dict | list) for c in choices):
            raise SpaceError(f"{where}: choices must be plain values (numbers, strings, booleans)")
        return Param(name, "choice", choices=tuple(choices))
    if "low" not in table or "high" not in table:
        raise SpaceError(f"{where}: a range needs low and high (or give choices)")
    low, high = table["low"], table["high"]
    if not (_number(low) and _number(high)):
        raise SpaceError(f"{where}: low and high must be numbers, got {low!r} and {high!r}")
    if want is None:                                # an encounter setting: the bounds' type
        want = int if isinstance(low, int) and isinstance(high, int) else float
    if want not in (int, float):
        raise SpaceError(f"{where}: {name} is a {want.__name__} setting: give choices, not a range")
    if want is int and not (isinstance(low, int) and isinstance(high, int)):
        raise SpaceError(f"{where}: {name} is an int setting: low and high must be integers")
    if not low < high:
        raise SpaceError(f"{where}: bad range: low ({low}) must be below high ({high})")
    log = table.get("log", False)
    if not isinstance(log, bool):
        raise SpaceError(f"{where}: log must be true or false")
    if log and low <= 0:
        raise SpaceError(f"{where}: log = true needs low > 0 (low is {low})")
    step = table.get("step")
    if step is not None:
        if log:
            raise SpaceError(f"{where}: step and log = true do not go together")
        if not _number(step) or step <= 0 or (want is int and not isinstance(step, int)):
            raise SpaceError(f"{where}: step must be a positive {want.__name__}")
        if step > high - low:
            raise SpaceError(f"{where}: step ({step}) is wider than the range [{low}, {high}]")
    if want is float:
        low, high = float(low), float(high)
    return Param(name, want.__name__, low, high, log, step)


def parse_settings(table: Any, file: str) -> Settings:
    if not isinstance(table, dict):
        raise SpaceError(f"{file}: [sweep] must be a table")
    fields = {f.name: f for f in dataclasses.fields(Settings)}
    values = {}
    for key, value in table.items():
        if key not in fields:
            raise SpaceError(f"{file}: unknown key sweep.{key}; [sweep] has: {', '.join(fields)}")
        want = type(fields[key].default)
        if want is float and _number(value):
            value = float(value)
        if type(value) is not want:
            raise SpaceError(f"{file}: sweep.{key} must be {want.__name__}, got {value!r}")
        values[key] = value
    s = Settings(**values)
    if s.objective not in OBJECTIVES:
        raise SpaceError(f"{file}: sweep.objective must be one of {', '.join(OBJECTIVES)}, got {s.objective!r}")
    if s.objective == "level" and not s.level > 0:
        raise SpaceError(f"{file}: objective = \"level\" needs sweep.level, the success rate to reach (above 0)")
    for key, ok in (("budget_steps", s.budget_steps >= 1), ("budget_seconds", s.budget_seconds >= 0),
                    ("last_logs", s.last_logs >= 1), ("eval_episodes", s.eval_episodes >= 1),
                    ("curve_points", s.curve_points >= 1), ("prune_after", 0 <= s.prune_after <= 1),
                    ("startup_trials", s.startup_trials >= 0), ("level_window", s.level_window >= 1)):
        if not ok:
            raise SpaceError(f"{file}: sweep.{key} is out of range ({getattr(s, key)})")
    return s


def parse_space(text: str, file: str = "space") -> Space:
    """A space from the text of a space file; SpaceError names what is wrong."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise SpaceError(f"{file} is not valid TOML: {e}") from None
    unknown = sorted(set(doc) - {"sweep", "fixed", "params"})
    if unknown:
        raise SpaceError(f"{file}: unknown table [{unknown[0]}]; a space file has [sweep], [fixed] and [params]")
    params_table = doc.get("params", {})
    if not isinstance(params_table, dict) or not params_table:
        raise SpaceError(f'{file}: no parameters: add at least one [params."section.key"] table')
    params = tuple(parse_param(name, table, file) for name, table in params_table.items())
    fixed_table = doc.get("fixed", {})
    if not isinstance(fixed_table, dict):
        raise SpaceError(f"{file}: [fixed] must be a table of settings")
    fixed = []
    for name, value in fixed_table.items():
        setting_type(name, f"{file}: fixed")
        if name in params_table:
            raise SpaceError(f"{file}: {name} is both fixed and a parameter")
        fixed.append((name, value))
    space = Space(params, parse_settings(doc.get("sweep", {}), file), tuple(fixed))
    try:                                                  # the values' own types, checked by the config
        parse_overrides(space.fixed_overrides())
    except ValueError as e:
        raise SpaceError(f"{file}: fixed: {e}") from None
    return space


def load_space(path: str | Path) -> Space:
    path = Path(path)
    if not path.is_file():
        raise SpaceError(f"space file {path} does not exist")
    return parse_space(path.read_text(), str(path))
