"""What an encounter declares: the contract between its mechanics and everything else.

An encounter module builds one :class:`EncounterSpec`: its name, a version (bumped when the state
layout changes, so old snapshots are refused), the state dtype (one plain record per env, RNG
inside), the config fields (read-only settings with defaults and ranges, from which the config
dtype is derived), action heads, observation segments, its metrics (a :class:`MetricRecord`: the record
dtype the ``metrics`` kernel fills, from which ``metric_names`` is derived), phase names, and five Numba
kernels with these signatures (all ``@njit``; ``state``, ``config`` and ``out`` are records)::

    reset(state, config, seed)                    -> None   start an episode from a uint64 seed, on a
                                                            record the runtime has zeroed but for the
                                                            spec's carried_fields: it sets only what
                                                            starts non-zero (and seeds state.rng)
    step(state, config, actions)                  -> (terminated, truncated)
        actions: int64[num_agents, num_heads] (already checked against the mask); step adds the
        tick's reward, by term, into state.reward_terms (below) and writes no reward itself
    observe(state, config, obs)                   -> None   obs: float32[num_agents, obs_size], each
                                                            feature written by its declared name
                                                            (``o[SELF.hp] = ...``, ``osrs_rl.runtime.obs_layout``)
    mask(state, config, mask)                     -> None   mask: bool[num_agents, mask_size]
    metrics(state, config, out)                   -> phase  out: a record of ``metric_record.dtype``,
                                                            written by name (``out.ticks = s.tick``,
                                                            ``out.taken_by_source[k] = ...``); returns the
                                                            index of the phase the episode ended in
    cell_key(state, config)                       -> int64  optional, for Go-Explore archives:
                                                            coarse, the same for one state, blind to the RNG
    progress(state, config)                       -> float64  with cell_key: how far the fight has got
                                                            (higher is further); an archive keeps the
                                                            best-progress state of each cell

Besides the kernels, a spec declares what the framework would otherwise guess: its ``outcome``
(:class:`Outcome`: which metrics say success, failure, timeout and the episode's length, read by
training logs, evaluation, replays, the viewer and the audit), the ``scripted_policies`` it offers
(:class:`ScriptedPolicy`: ``osrs-rl eval NAME --policy P``), its ``tools`` (:class:`Tool`: reports
such as PvP's ladder, ``osrs-rl eval NAME --tool T``) and, in its config fields, the settings a user
picks on the command line (``--set KEY=VALUE``, named ``choices`` allowed).

The reward is the runtime's sum of the encounter's named terms (``reward_terms``, at least one). The state
holds two float32 fields of shape ``[rows, len(reward_terms)]`` (row ``a`` for agent ``a``; more rows than
agents may hold a scripted player's): ``reward_terms``, zeroed by the runtime before every step (and when
an episode starts), into which ``step`` adds each term where it computes it; and ``reward_sums``, zeroed
by the runtime when an episode starts, into which the runtime adds every row of terms after every step.
Agent ``a``'s reward is its row's sum, in float64 in column order, rounded once to float32. So the terms
always add up to the reward, and the sums are part of the state (snapshots and archives keep them); an
encounter may read ``reward_sums`` (Zulrah's and the Inferno's ``reward_<term>`` metrics) but writes
neither the reward nor the sums.

Rules every encounter keeps (``osrs_rl.runtime.checks.check_encounter`` tests them):
- index 0 of every action head is a no-op and always legal (the runtime turns masked actions into 0);
- all randomness comes from the state's own RNG; nothing reads globals that change;
- observations are finite;
- ``metrics`` writes every metric its record declares, each by its own name;
- only ``step`` writes ``reward_terms``, and only the runtime writes ``reward_sums``;
- an episode does not depend on what its record held before the reset (the runtime zeroes it but the
  ``carried_fields``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from osrs_rl.runtime.bounds import validate_bounds
from osrs_rl.runtime.metric_record import MetricFamily, MetricRecord  # noqa: F401 - declared beside the spec's others


@dataclass(frozen=True)
class ActionHead:
    """One discrete choice per tick: ``size`` options, option 0 is "do nothing"."""

    name: str
    size: int
    labels: tuple[str, ...] = ()

    def __post_init__(self):
        if self.size < 1:
            raise ValueError(f"action head {self.name!r} needs at least one option, got size {self.size}")
        if self.labels and len(self.labels) != self.size:
            raise ValueError(f"action head {self.name!r}: {len(self.labels)} labels for {self.size} options")


@dataclass(frozen=True)
class ObsSegment:
    """A named block of the observation: ``slots`` entities of ``features`` values each.

    A scalar block has ``slots == 1``; an entity block (NPCs, hits) has one row per slot so a model
    can encode slots with shared weights. ``feature_names`` name a row's values in order; the audit, replays
    and tools read values by them, so the kernel writes by them too: ``osrs_rl.runtime.obs_layout`` turns
    them into the positions it writes at (``feature_index``) and the segments into their bounds
    (``segment_bounds``).
    """

    name: str
    features: int
    slots: int = 1
    feature_names: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        return self.features * self.slots

    def __post_init__(self):
        if self.features < 1 or self.slots < 1:
            raise ValueError(f"observation segment {self.name!r} needs features >= 1 and slots >= 1")
        if self.feature_names and len(self.feature_names) != self.features:
            raise ValueError(f"observation segment {self.name!r}: {len(self.feature_names)} feature names "
                             f"for {self.features} features")


@dataclass(frozen=True)
class ConfigField:
    """A read-only setting: a scalar with a default and an inclusive valid range.

    A *derived* field is not a user setting: ``config_hook`` fills it once when the config is built
    (for example a table of precomputed combat rolls per loadout). It may be an array (``shape``)
    or a record dtype, so kernels get static tables without globals.
    """

    name: str
    dtype: Any
    default: float | int | bool | None = None
    low: float | int | None = None
    high: float | int | None = None
    doc: str = ""
    shape: tuple[int, ...] = ()
    derived: bool = False
    choices: tuple[tuple[int, str], ...] = ()
    """Named values, ``((value, name), ...)``: the command line takes the name (``--set gear_tier=max``)
    and lists them; values outside ``choices`` stay valid when they are in range."""

    def __post_init__(self):
        if self.shape and not self.derived:
            raise ValueError(f"config field {self.name!r}: only derived fields may be arrays")
        labels = [n for _, n in self.choices]
        if len(set(labels)) != len(labels) or len({v for v, _ in self.choices}) != len(self.choices):
            raise ValueError(f"config field {self.name!r}: duplicate values or names in its choices {self.choices}")
        for value, label in self.choices:
            if not isinstance(label, str) or not label or label[0].isdigit() or label[0] == "-":
                raise ValueError(f"config field {self.name!r}: choice name {label!r} must be a word, not a number")
            if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
                raise ValueError(f"config field {self.name!r}: choice {label!r} = {value} is outside its range "
                                 f"[{self.low}, {self.high}]")

    def parse(self, text: str):
        """A value written on the command line: one of the named ``choices``, else a number or a bool
        of this field's dtype (its range is checked when the config is built).

        >>> ConfigField("tier", "i4", 2, 0, 2, choices=((0, "low"), (2, "high"))).parse("high")
        2
        """
        text = str(text).strip()
        for value, label in self.choices:
            if text == label:
                return value
        kind = np.dtype(self.dtype).kind
        try:
            if kind in "iu":
                return int(text)
            if kind == "f":
                return float(text)
        except ValueError:
            pass
        else:
            return text                 # a bool: the config's own parser reads its spellings
        named = f"one of {', '.join(n for _, n in self.choices)} or " if self.choices else ""
        raise ValueError(f"config {self.name!r} takes {named}{'an integer' if kind in 'iu' else 'a number'}, "
                         f"got {text!r}")

    def label(self, value) -> str:
        """``value``'s name among the choices, else the value itself as text."""
        return next((n for v, n in self.choices if v == value), str(value))


@dataclass(frozen=True)
class Outcome:
    """How an episode ended, named by the encounter's own 0/1 episode metrics.

    ``success`` is 1 for a win (``won``, ``killed``, whatever the encounter calls it); each of
    ``failure`` is 1 for a loss (``lost``, ``died``); ``timeout`` is 1 when the episode was cut at its
    tick limit; ``other`` are further endings (a ``draw``); ``length`` is the metric holding the
    episode's ticks; ``progress``, for a long fight, the metric saying how far an episode got (the
    Inferno's ``final_wave``), whose mean and median evaluations print. A spec naming a metric it does
    not have is refused when it is built. Training logs (the rates), evaluation (win rate and its
    interval), the replay's outcome word, the viewer and the audit all read this declaration; nothing
    guesses by metric name.

    >>> Outcome(success="killed", failure="died", timeout="timed_out", length="ticks").flags
    ('killed', 'died', 'timed_out')
    """

    success: str
    failure: tuple[str, ...] | str = ()
    timeout: str | None = None
    other: tuple[str, ...] | str = ()
    length: str | None = None
    progress: str | None = None

    def __post_init__(self):
        for what in ("failure", "other"):           # one name may be given as a plain string
            value = getattr(self, what)
            if isinstance(value, str):
                object.__setattr__(self, what, (value,))
        flags = self.flags
        if len(set(flags)) != len(flags):
            raise ValueError(f"outcome names a metric twice: {flags}")
        for what in ("length", "progress"):
            name = getattr(self, what)
            if name is not None and name in flags:
                raise ValueError(f"outcome {what} {name!r} is also one of its 0/1 flags {flags}")

    @property
    def flags(self) -> tuple[str, ...]:
        """The 0/1 metrics, success first: at most one of them is 1 at an episode's end."""
        return (self.success, *self.failure, *((self.timeout,) if self.timeout else ()), *self.other)

    @property
    def metrics(self) -> tuple[str, ...]:
        """Every metric the declaration names (the flags, then the length and the progress)."""
        return self.flags + ((self.length,) if self.length else ()) + ((self.progress,) if self.progress else ())

    def columns(self, metric_names) -> dict[str, int]:
        """Each named metric's index in ``metric_names`` (a row of ``VecEnv.finished_last_step``)."""
        names = list(metric_names)
        return {m: names.index(m) for m in self.metrics}


@dataclass(frozen=True)
class Setting:
    """A setting a scripted policy or a tool takes: a default, and either named ``choices`` (strings)
    or an inclusive range ``[low, high]`` for a number. Written ``--opt NAME=VALUE`` on the command line.

    >>> Setting("fights", 64, "fights per pairing", low=1).parse("8")
    8
    """

    name: str
    default: int | float | str | bool
    doc: str = ""
    choices: tuple[str, ...] = ()
    low: float | int | None = None
    high: float | int | None = None

    def __post_init__(self):
        if not self.name.isidentifier():
            raise ValueError(f"setting name {self.name!r} must be a Python identifier")
        if self.choices and self.default not in self.choices:
            raise ValueError(f"setting {self.name!r}: default {self.default!r} is not among {self.choices}")

    def parse(self, text) -> int | float | str | bool:
        """``text`` as this setting's value, checked; ValueError names the setting and what it takes."""
        if self.choices:
            if text not in self.choices:
                raise ValueError(f"setting {self.name!r} takes one of {', '.join(self.choices)}, got {text!r}")
            return text
        kind = type(self.default)
        try:
            if kind is bool:
                from osrs_rl.runtime.config import parse_bool

                return parse_bool(text)
            value = kind(text)
        except ValueError:
            raise ValueError(f"setting {self.name!r} takes {'an integer' if kind is int else 'a ' + kind.__name__}, "
                             f"got {text!r}") from None
        if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
            raise ValueError(f"setting {self.name!r} = {value!r} is out of range [{self.low}, {self.high}]")
        return value

    def describe(self) -> str:
        if self.choices:
            span = f", one of {', '.join(self.choices)}"
        elif self.low is not None and self.high is not None:
            span = f", {self.low}..{self.high}"
        elif self.low is not None or self.high is not None:
            span = f", at least {self.low}" if self.low is not None else f", at most {self.high}"
        else:
            span = ""
        return f"{self.name} (default {self.default!r}{span}){': ' + self.doc if self.doc else ''}"


def resolve_settings(owner: str, declared: tuple[Setting, ...], given: dict[str, str]) -> dict:
    """The declared settings' values: defaults, then ``given`` (name -> text) parsed; an unknown name
    raises ValueError listing the declared ones."""
    known = {s.name: s for s in declared}
    unknown = [k for k in given if k not in known]
    if unknown:
        listed = "; ".join(s.describe() for s in declared) or "none"
        raise ValueError(f"{owner} has no setting {unknown[0]!r} (its settings: {listed})")
    return {name: (s.parse(given[name]) if name in given else s.default) for name, s in known.items()}


@dataclass(frozen=True)
class ScriptedPolicy:
    """A scripted policy the encounter offers (a baseline solver, a scripted player), evaluated with
    ``osrs-rl eval NAME --policy POLICY``.

    ``actions(states, config, out, **settings)`` writes every env's actions for one tick into ``out``
    (int64 ``[num_envs, num_heads]``, or ``[num_envs, num_agents, num_heads]`` for several agents)
    from the batch's state records and the config array; a Numba kernel fits. ``rows``, a config
    field, splits the evaluation table: one row per value in ``row_values`` (names of its choices, or
    values; default: all of its named choices), unless the user sets that field.
    """

    name: str
    actions: Callable
    doc: str
    settings: tuple[Setting, ...] = ()
    rows: str | None = None
    row_values: tuple = ()


@dataclass(frozen=True)
class Report:
    """What a :class:`Tool` returns: a titled table (every cell a string) and lines of notes below it."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Tool:
    """A report the encounter offers beside evaluation (PvP's ladder of scripted tiers), run with
    ``osrs-rl eval NAME --tool TOOL [--opt KEY=VALUE ...]``.

    ``run(seed=..., progress=..., config=..., **settings) -> Report``: ``progress(done, total)`` (or
    None) follows the work; ``config`` is the user's encounter settings (``--set``, a dict); the
    command prints the report. It writes no files and prints nothing itself.
    """

    name: str
    run: Callable
    doc: str
    settings: tuple[Setting, ...] = ()


@dataclass(frozen=True)
class EncounterSpec:
    name: str
    version: int
    state_dtype: np.dtype
    config_fields: tuple[ConfigField, ...]
    action_heads: tuple[ActionHead, ...]
    obs_segments: tuple[ObsSegment, ...]
    metric_record: MetricRecord
    """The episode metrics (:class:`MetricRecord`, or a record dtype of float64 fields: ``MetricRecord.from_dtype``):
    the record the ``metrics`` kernel writes by name; ``metric_names`` and ``num_metrics`` derive from it."""
    phase_names: tuple[str, ...]
    reset: Callable
    step: Callable
    observe: Callable
    mask: Callable
    metrics: Callable
    cell_key: Callable | None = None
    progress: Callable | None = None
    start_settings: tuple[str, ...] = ()
    """Config fields that only say where an episode starts (a curriculum's draw: a start wave, a phase, hitpoints
    at the start): an archive's states (``osrs_rl.explore``) made under other values of these may be restored,
    since a state once running does not read them; any other setting must match."""
    agents: tuple[str, ...] = ("player",)
    description: str = ""
    config_hook: Callable | None = field(default=None, compare=False)
    """Optional ``hook(config_record)`` run once after validation, to fill the derived fields."""
    opponents: Any = field(default=None, compare=False)
    """Optional opponent control, for encounters where another player can be scripted or a policy:
    an object with ``tier_names`` (tuple of str), ``set(env, env_ids, tier=None, slot=None)`` (from
    each env's next reset) and ``current(env) -> (is_scripted, tier, slot)`` arrays. The trainer
    spreads scripted opponents and routes a self-play league through it. An episode metric named
    ``opponent_tier`` (the tier index, -1 for a policy) gets the trainer's logs per tier too."""
    scene: Callable | None = field(default=None, compare=False)
    """Optional ``scene(state_record, config_record, agent=0, previous=None) -> dict``: the picture of
    one state in the encounter-independent format of ``osrs_rl.replay.scene`` (tiles, entities,
    hits in flight, panels), read from the records only, so the renderer and the browser viewer show
    what the state holds; hitsplats come from the state's event buffer (``osrs_rl.core.events``), which
    holds what the tick that produced the state did. ``previous`` is the record one tick earlier, for
    what only a change shows (an entity drawn once more after it died)."""
    reward_terms: tuple[str, ...] = ()
    """The names of the reward's terms, at least one (required; a default only so that it may follow the
    other fields). The state needs the fields ``reward_terms`` and ``reward_sums``, float32
    ``[rows, len(reward_terms)]`` (row ``a`` for agent ``a``; more rows than agents may hold a scripted
    player's): ``step`` adds each term into ``reward_terms`` (zeroed by the runtime before it), and the
    runtime sums each agent's row into its reward and every row into ``reward_sums`` (zeroed when an episode
    starts), as the module docstring says. Replays, the viewer and the fuzz read the terms from the state
    after each step (``osrs_rl.runtime.rewards``)."""
    truth: Any = field(default=None, compare=False)
    """Optional ``osrs_rl.runtime.truth.Truth``: the reference map (the tiles the game lets a player stand
    on), a ``tick(previous, state, config_record, agent)`` reader (tile, attack started, target
    attackable, damage by source) and the names of the damage, supply and outcome metrics, from which
    ``osrs-rl audit`` reports what a trained policy does against what the reference allows."""
    state_bounds: tuple = field(default=(), compare=False)
    """The valid ranges of the state's index-like fields (``osrs_rl.runtime.bounds.Bound``): kits,
    slots, targets, enums, counts the kernels index with or loop to. ``VecEnv`` checks them on every
    restore and ``set_states`` before any state changes, so kernels never index outside their arrays
    on a restored state (tests/runtime/test_state_fuzz.py checks every field)."""
    preset: str | None = field(default=None, compare=False)
    """Optional path of the encounter's training preset, a TOML file beside its spec (``osrs-rl train NAME``
    starts from it; ``--config FILE`` replaces it). It lives in the encounter's folder, so a new encounter
    ships its own defaults without a file in the framework."""
    gpu_preset: str | None = field(default=None, compare=False)
    """Optional path of a TOML file of the settings that change for one GPU and many cores (env count, threads,
    network width, minibatches, precision), applied over ``preset`` by ``osrs-rl train NAME --preset gpu``: only
    what differs, so the fight's settings and its reward stay in ``preset`` alone."""
    category_metrics: tuple[str, ...] = ()
    """Episode metrics that are indices, not quantities (a rotation, a gear tier): the trainer logs the
    share of episodes with each value (``category/<name>/<value>``) instead of a mean. ``opponent_tier``
    and ``opponent_slot`` are always treated so."""
    outcome: Outcome | None = None
    """Which metrics say how an episode ended (:class:`Outcome`); every built-in declares one.
    Without it evaluation refuses to count wins and replays say only terminated / truncated."""
    scripted_policies: tuple[ScriptedPolicy, ...] = field(default=(), compare=False)
    """The scripted policies it offers (:class:`ScriptedPolicy`), for ``osrs-rl eval NAME --policy P``."""
    tools: tuple[Tool, ...] = field(default=(), compare=False)
    """Reports it offers (:class:`Tool`), for ``osrs-rl eval NAME --tool T``."""
    attacks: Callable | None = field(default=None, compare=False)
    """``attacks(config_record) -> Sequence[osrs_rl.runtime.attacks.Attack]``: every (source, style) that can
    hurt the player, with the max hit the kernels roll; building a config refuses one below 1, and the audit
    flags a pair that never hurt through unprotected attacks (``osrs_rl.runtime.attacks``). None declares
    nothing, so nothing is checked at build, but not silently: the audit then counts the damage of every hit the
    truth reads (its ``hits``) as damage from an undeclared attack, a failed check. Every built-in encounter
    declares it (a test holds that)."""
    kit: Callable | None = field(default=None, compare=False)
    """``kit(config_record) -> Kit | Sequence[Kit]``: what each player the config can make carries (gear sets
    and supplies); building a config refuses a kit past 28 inventory slots (``osrs_rl.runtime.inventory``).
    None: the player carries nothing worth counting (a toy encounter); every built-in encounter declares it."""
    carried_fields: tuple[str, ...] = ()
    """State fields a reset keeps: before each reset (``VecEnv.reset`` and every autoreset) the runtime zeroes
    the env's whole state record but these, so ``reset`` sets only the fields that start non-zero and a field
    it forgets cannot leak one episode into the next. Carry only what is set from outside the kernels to take
    effect at the next reset (PvP's ``set_opponents`` choice); never ``rng``, which ``reset`` seeds."""
    bench_configs: tuple[tuple[str, dict], ...] = field(default=(), compare=False)
    """Named settings ``osrs-rl bench NAME`` also measures at batch 1024 (``(label, {field: value})``):
    the states where the encounter is slowest (the Inferno's late waves), beside its defaults."""
    demo_settings: dict = field(default_factory=dict, compare=False)
    """Settings under which a short episode (forty ticks of random play) already shows the fight: a monster in
    reach, hits thrown and landing (``{"start_wave": 7}`` where wave 1 is a monster still walking in). The
    replay and scene tests play each encounter so; empty: its defaults do."""

    # ---- derived layout -------------------------------------------------------------------
    @property
    def num_agents(self) -> int:
        return len(self.agents)

    @property
    def num_heads(self) -> int:
        return len(self.action_heads)

    @property
    def head_sizes(self) -> np.ndarray:
        return np.array([h.size for h in self.action_heads], dtype=np.int64)

    @property
    def mask_size(self) -> int:
        return int(self.head_sizes.sum())

    @property
    def obs_size(self) -> int:
        return sum(s.size for s in self.obs_segments)

    @property
    def metric_names(self) -> tuple[str, ...]:
        """The metrics' names in record order (``metric_record.names``): a row of ``VecEnv.finished_last_step``."""
        return self.metric_record.names

    @property
    def num_metrics(self) -> int:
        return len(self.metric_record)

    @property
    def metric_dtype(self) -> np.dtype:
        """The record the ``metrics`` kernel writes (``metric_record.dtype``)."""
        return self.metric_record.dtype

    def obs_slices(self) -> dict[str, slice]:
        """Where each observation segment lies in the flat observation vector."""
        out, start = {}, 0
        for seg in self.obs_segments:
            out[seg.name] = slice(start, start + seg.size)
            start += seg.size
        return out

    def mask_slices(self) -> dict[str, slice]:
        out, start = {}, 0
        for h in self.action_heads:
            out[h.name] = slice(start, start + h.size)
            start += h.size
        return out

    @property
    def config_dtype(self) -> np.dtype:
        return np.dtype([(f.name, f.dtype, f.shape) if f.shape else (f.name, f.dtype) for f in self.config_fields])

    def __post_init__(self):
        if not self.name.isidentifier():
            raise ValueError(f"encounter name {self.name!r} must be a Python identifier")
        if not self.action_heads:
            raise ValueError(f"encounter {self.name!r} declares no action heads")
        if not self.obs_segments:
            raise ValueError(f"encounter {self.name!r} declares no observation segments")
        if not self.phase_names:
            raise ValueError(f"encounter {self.name!r} declares no phase names")
        if "rng" not in (self.state_dtype.names or ()):
            raise ValueError(f"encounter {self.name!r}: its state dtype needs an 'rng' field (core.rng.RNG_DTYPE)")
        names = [f.name for f in self.config_fields]
        if len(set(names)) != len(names):
            raise ValueError(f"encounter {self.name!r}: duplicate config field names in {names}")
        validate_bounds(self.state_dtype, self.state_bounds)
        self._check_metric_record()
        self._check_carried_fields()
        self._check_reward_terms()
        self._check_declarations()
        for hook, settings in (("start_settings", self.start_settings), ("demo_settings", self.demo_settings)):
            unknown = [s for s in settings if s not in names]
            if unknown:
                raise ValueError(f"encounter {self.name!r}: {hook} {unknown} are not config fields of the spec")
        if self.progress is not None and self.cell_key is None:
            raise ValueError(f"encounter {self.name!r} declares progress but no cell_key: an archive needs both")
        if any(f.derived for f in self.config_fields) and self.config_hook is None:
            raise ValueError(f"encounter {self.name!r} has derived config fields but no config_hook to fill them")

    def _check_metric_record(self) -> None:
        """A record dtype given by hand becomes its MetricRecord; anything else is refused, naming the encounter."""
        declared = self.metric_record
        if isinstance(declared, MetricRecord):
            return
        if not isinstance(declared, np.dtype):
            raise ValueError(f"encounter {self.name!r}: metric_record must be a MetricRecord (or a record dtype of "
                             f"float64 fields), got {type(declared).__name__}")
        try:
            object.__setattr__(self, "metric_record", MetricRecord.from_dtype(declared))
        except ValueError as e:
            raise ValueError(f"encounter {self.name!r}: {e}") from None

    def _check_reward_terms(self) -> None:
        """At least one named term, and the state's ``reward_terms`` and ``reward_sums`` fields of one shape:
        float32, a row per agent at least, a column per term."""
        if not self.reward_terms:
            raise ValueError(f"encounter {self.name!r} declares no reward_terms: the reward is the sum of its named "
                             f"terms, at least one (the state's 'reward_terms' field holds them)")
        if len(set(self.reward_terms)) != len(self.reward_terms):
            raise ValueError(f"encounter {self.name!r}: duplicate reward term names in {list(self.reward_terms)}")
        fields = self.state_dtype.fields or {}
        shapes = []
        for name in ("reward_terms", "reward_sums"):
            got = fields.get(name)
            shape = None if got is None else got[0].shape
            if got is None or got[0].base != np.float32 or len(shape) != 2 or shape[1] != len(self.reward_terms) \
                    or shape[0] < self.num_agents:
                have = "none" if got is None else f"{got[0].base} {shape}"
                raise ValueError(f"encounter {self.name!r} declares reward terms {list(self.reward_terms)}: its state "
                                 f"needs a field {name!r} of float32 ({self.num_agents}, {len(self.reward_terms)}) "
                                 f"(a row per agent, at least; a column per term), has {have}")
            shapes.append(shape)
        if shapes[0] != shapes[1]:
            raise ValueError(f"encounter {self.name!r}: its state's 'reward_sums' {shapes[1]} must have the shape of "
                             f"its 'reward_terms' {shapes[0]} (the runtime adds one into the other)")

    def _check_carried_fields(self) -> None:
        fields = self.state_dtype.names or ()
        carried = list(self.carried_fields)
        if isinstance(self.carried_fields, str) or not all(isinstance(c, str) for c in carried):
            raise ValueError(f"encounter {self.name!r}: carried_fields must be a tuple of state field names, "
                             f"got {self.carried_fields!r}")
        object.__setattr__(self, "carried_fields", tuple(carried))      # a list would make the spec unhashable
        unknown = [c for c in carried if c not in fields]
        if unknown:
            raise ValueError(f"encounter {self.name!r}: carried_fields {unknown} are not fields of its state dtype "
                             f"(its fields: {', '.join(fields)})")
        if len(set(carried)) != len(carried):
            raise ValueError(f"encounter {self.name!r}: duplicate names in carried_fields {carried}")
        if "rng" in carried:
            raise ValueError(f"encounter {self.name!r}: 'rng' cannot be carried: reset seeds it from its seed "
                             "(an autoreset draws that seed from the rng before the record is cleared)")
        kept_by_runtime = [c for c in carried if c in ("reward_terms", "reward_sums")]
        if kept_by_runtime:
            raise ValueError(f"encounter {self.name!r}: {kept_by_runtime} cannot be carried: an episode's reward "
                             "starts from nothing (the runtime keeps these fields)")

    def _check_declarations(self) -> None:
        """The outcome, scripted policies and tools name only what the spec has."""
        if self.outcome is not None:
            if not isinstance(self.outcome, Outcome):
                raise ValueError(f"encounter {self.name!r}: outcome must be an osrs_rl.runtime.spec.Outcome, "
                                 f"got {type(self.outcome).__name__}")
            missing = [m for m in self.outcome.metrics if m not in self.metric_names]
            if missing:
                raise ValueError(f"encounter {self.name!r}: its outcome names {missing}, not metrics of the spec "
                                 f"({', '.join(self.metric_names)})")
        for what, kind in (("scripted_policies", ScriptedPolicy), ("tools", Tool)):
            items = getattr(self, what)
            bad = [type(p).__name__ for p in items if not isinstance(p, kind)]
            if bad:
                raise ValueError(f"encounter {self.name!r}: {what} must be {kind.__name__}s, got {bad[0]}")
            names = [p.name for p in items]
            if len(set(names)) != len(names):
                raise ValueError(f"encounter {self.name!r}: duplicate {what} names in {names}")
        fields = {f.name: f for f in self.config_fields if not f.derived}
        for p in self.scripted_policies:
            if p.rows is None:
                continue
            if p.rows not in fields:
                raise ValueError(f"encounter {self.name!r}: scripted policy {p.name!r} splits rows by {p.rows!r}, "
                                 f"not a config field of the spec")
            for v in self.row_values(p):
                if not isinstance(v, (int, np.integer)) or (fields[p.rows].low is not None and v < fields[p.rows].low) \
                        or (fields[p.rows].high is not None and v > fields[p.rows].high):
                    raise ValueError(f"encounter {self.name!r}: scripted policy {p.name!r} row value {v!r} is not a "
                                     f"valid {p.rows!r}")

    def row_values(self, policy: ScriptedPolicy) -> tuple[int, ...]:
        """The config values of ``policy.rows`` its evaluation table has one row each for."""
        f = next(f for f in self.config_fields if f.name == policy.rows)
        wanted = policy.row_values or tuple(n for _, n in f.choices)
        return tuple(f.parse(v) if isinstance(v, str) else v for v in wanted)

    def scripted_policy(self, name: str) -> ScriptedPolicy:
        """The declared scripted policy ``name`` (KeyError listing the declared ones)."""
        return self._declared(self.scripted_policies, "scripted policy", "scripted policies", name)

    def tool(self, name: str) -> Tool:
        """The declared tool ``name`` (KeyError listing the declared ones)."""
        return self._declared(self.tools, "tool", "tools", name)

    def _declared(self, items, kind: str, kinds: str, name: str):
        for item in items:
            if item.name == name:
                return item
        known = ", ".join(item.name for item in items) or "none"
        raise KeyError(f"encounter {self.name!r} has no {kind} {name!r} (its {kinds}: {known})")
