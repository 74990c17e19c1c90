"""What an encounter declares: the contract between its mechanics and everything else.

An encounter module builds one :class:`EncounterSpec`: its name, a version (bumped when the state
layout changes, so old snapshots are refused), the state dtype (one plain record per env, RNG
inside), the config fields (read-only settings with defaults and ranges, from which the config
dtype is derived), action heads, observation segments, metric and phase names, and five Numba
kernels with these signatures (all ``@njit``; ``state`` and ``config`` are records)::

    reset(state, config, seed)                    -> None   start an episode from a uint64 seed
    step(state, config, actions, rewards)         -> (terminated, truncated)
        actions: int64[num_agents, num_heads] (already checked against the mask)
        rewards: float32[num_agents], written by step
    observe(state, config, obs)                   -> None   obs: float32[num_agents, obs_size]
    mask(state, config, mask)                     -> None   mask: bool[num_agents, mask_size]
    metrics(state, config, out)                   -> phase  out: float64[num_metrics]; returns the
                                                            index of the phase the episode ended in
    cell_key(state, config)                       -> int64  optional, for Go-Explore archives:
                                                            coarse, the same for one state, blind to the RNG

Rules every encounter keeps (``osrs_rl.runtime.checks.check_encounter`` tests them):
- index 0 of every action head is a no-op and always legal (the runtime turns masked actions into 0);
- all randomness comes from the state's own RNG; nothing reads globals that change;
- observations are finite.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from osrs_rl.runtime.bounds import validate_bounds


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
    can encode slots with shared weights.
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

    def __post_init__(self):
        if self.shape and not self.derived:
            raise ValueError(f"config field {self.name!r}: only derived fields may be arrays")


@dataclass(frozen=True)
class EncounterSpec:
    name: str
    version: int
    state_dtype: np.dtype
    config_fields: tuple[ConfigField, ...]
    action_heads: tuple[ActionHead, ...]
    obs_segments: tuple[ObsSegment, ...]
    metric_names: tuple[str, ...]
    phase_names: tuple[str, ...]
    reset: Callable
    step: Callable
    observe: Callable
    mask: Callable
    metrics: Callable
    cell_key: Callable | None = None
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
    """The names of the reward's terms. ``step`` zeroes the state's ``reward_terms`` field
    (float32 ``[rows, len(reward_terms)]``, row ``a`` for agent ``a``; more rows than agents may hold a
    scripted player's) each tick and adds each term where it computes it; the
    reward it writes is their sum (``runtime.checks.check_encounter`` checks that). Replays, the viewer
    and the fuzz read the terms from the state after each step (``osrs_rl.runtime.rewards``)."""
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
    category_metrics: tuple[str, ...] = ()
    """Episode metrics that are indices, not quantities (a rotation, a gear tier): the trainer logs the
    share of episodes with each value (``category/<name>/<value>``) instead of a mean. ``opponent_tier``
    and ``opponent_slot`` are always treated so."""

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
    def num_metrics(self) -> int:
        return len(self.metric_names)

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
        self._check_reward_terms()
        if any(f.derived for f in self.config_fields) and self.config_hook is None:
            raise ValueError(f"encounter {self.name!r} has derived config fields but no config_hook to fill them")

    def _check_reward_terms(self) -> None:
        if not self.reward_terms:
            return
        if len(set(self.reward_terms)) != len(self.reward_terms):
            raise ValueError(f"encounter {self.name!r}: duplicate reward term names in {list(self.reward_terms)}")
        fields = self.state_dtype.fields or {}
        got = fields.get("reward_terms")
        shape = None if got is None else got[0].shape
        if got is None or got[0].base != np.float32 or len(shape) != 2 or shape[1] != len(self.reward_terms) \
                or shape[0] < self.num_agents:
            have = "none" if got is None else f"{got[0].base} {shape}"
            raise ValueError(f"encounter {self.name!r} declares reward terms {list(self.reward_terms)}: its state "
                             f"needs a field 'reward_terms' of float32 ({self.num_agents}, {len(self.reward_terms)}) "
                             f"(a row per agent, at least; a column per term), has {have}")
