"""What an encounter tells the audit: its reference map and, per tick, what a careful player would check.

Part of the spec contract (``EncounterSpec.truth``), so it lives in the runtime beside the spec:
encounters import it, and ``osrs_rl.audit`` reads it, without an encounter importing the audit.

An encounter declares ``EncounterSpec.truth = Truth(...)`` (in ``encounters/<name>/truth.py``):

- ``reference_walkable(config_record) -> bool[W, H]``: the tiles the encounter's *reference* (the
  game's map as the encounter's data records it, not the simulator's collision) says a player can
  stand on, indexed ``[x, y]`` in the same local tiles the state uses;
- ``tick(previous, record, config_record, agent) -> dict``: one tick of one agent, read from the state
  records before and after the tick (plain Python, no kernel state), with the keys of :data:`TICK_KEYS`:

  ========================  ==================================================================
  ``x``, ``y``              the agent's tile after the tick (where it stands; attacks are made
                            from there)
  ``attack``                it started an attack this tick
  ``target``                the attacked target's kind (``"zulrah"``, ``"snakeling"``), ``""``
                            when it did not attack
  ``target_attackable``     the attacked target could be attacked at the attack, by the reference's
                            rules (an attack with ``False`` is a simulator bug: the mask should have
                            forbidden it); True when it did not attack
  ``attackable``            the main target (``window``) could be attacked this tick
  ``window_tick``           ticks since the main target's current attackable window opened (0 = its
                            first tick), None outside a window or when the encounter has none
  ``damage``                {damage metric name: hitpoints taken from that source this tick}
  ``hits`` (optional)       the hits that landed on the agent this tick as :class:`Hit` rows:
                            ``source`` and ``style`` as the spec's ``attacks`` rows name them
                            (``osrs_rl.runtime.attacks``), ``blocked`` True when a protection
                            prayer took it (:func:`hits_on`)
  ========================  ==================================================================

- ``damage_metrics``: the episode metrics that are damage taken, one per source (their sum need not be
  a total metric); ``harmful``: those of them the reference says can hurt at all (None: every one),
  so damage from any other is flagged;
- ``supply_metrics``: the episode metrics that count supplies used (food, doses, special attacks);
- ``window``: the main target's name, whose attackable windows ``window_tick`` counts (None: the
  target is attackable all fight, and the report has no window table);
- ``reference``: one line saying where the reference map comes from (printed in the report);
- ``origin``: the world tile of local tile (0, 0), for the heat map's axis labels.

:func:`check_truth` checks a declaration against its spec; the audit tests run it for every encounter
that has one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

import numpy as np

TICK_KEYS = ("x", "y", "attack", "target", "target_attackable", "attackable", "window_tick", "damage")


class Hit(NamedTuple):
    """One hit that landed on the agent: who threw it, in which style, for how much, and whether a protection
    prayer took it."""

    source: str
    style: str
    amount: int
    blocked: bool


@dataclass(frozen=True)
class Truth:
    reference_walkable: Callable
    tick: Callable
    damage_metrics: tuple[str, ...]
    supply_metrics: tuple[str, ...]
    harmful: tuple[str, ...] | None = None
    window: str | None = None
    reference: str = ""
    origin: tuple[int, int] = (0, 0)

    def can_hurt(self, metric: str) -> bool:
        return self.harmful is None or metric in self.harmful


def hits_on(record, entity: int, source_of: Callable) -> list[Hit]:
    """The ``hits`` of a tick dict, read from the event buffer of ``record`` (core.events): every EV_HIT on
    ``entity``, named by ``source_of(record, event) -> str | None`` (None: not an attack, e.g. a pillar falling)."""
    from osrs_rl.core.events import EV_HIT, EVF_BLOCKED, live_events
    from osrs_rl.runtime.attacks import STYLE_NAMES

    out = []
    for e in live_events(record):
        if int(e["kind"]) != EV_HIT or int(e["target"]) != entity or not 0 <= int(e["style"]) < len(STYLE_NAMES):
            continue
        source = source_of(record, e)
        if source is not None:
            out.append(Hit(source, STYLE_NAMES[int(e["style"])], int(e["amount"]), bool(int(e["flags"]) & EVF_BLOCKED)))
    return out


@cache
def npc_size(name: str) -> int:
    """The footprint side of NPC ``name`` as osrs_rl/data/npcs.json lists it (the OSRS wiki infobox's size): a
    reference's own reading, not the kernels' config."""
    from osrs_rl.data.tables import npcs

    table = npcs()
    return int(table.records[table.find(name)]["size"])


@cache
def item_attack_range(item: int) -> int:
    """The attack range of item index ``item`` (osrs_rl/data/items.json, the OSRS wiki's), 1 for none (-1)."""
    from osrs_rl.data.tables import items

    return int(items().records[item]["attack_range"]) if item >= 0 else 1


def check_truth(spec, truth: Truth | None = None) -> Truth:
    """Raise ValueError naming the first thing wrong with ``spec``'s truth (or ``truth``): metric names
    the spec lacks, a reference map of the wrong type, a tick dict with missing keys. Returns it."""
    truth = spec.truth if truth is None else truth
    if not isinstance(truth, Truth):
        raise ValueError(f"encounter {spec.name!r}: its truth must be an osrs_rl.runtime.truth.Truth, "
                         f"got {type(truth).__name__}")
    known = set(spec.metric_names)
    for what in ("damage_metrics", "supply_metrics"):
        missing = [m for m in getattr(truth, what) if m not in known]
        if missing:
            raise ValueError(f"encounter {spec.name!r}: truth.{what} names {missing}, not metrics of the spec "
                             f"({', '.join(spec.metric_names)})")
    stray = sorted(set(truth.harmful or ()) - set(truth.damage_metrics))
    if stray:
        raise ValueError(f"encounter {spec.name!r}: truth.harmful {stray} are not among its damage_metrics "
                         f"{list(truth.damage_metrics)}")
    return truth


def reference_map(truth: Truth, config_record, spec_name: str = "?") -> np.ndarray:
    """The reference map as a bool [W, H] array (checked)."""
    w = np.asarray(truth.reference_walkable(config_record))
    if w.ndim != 2 or w.dtype != np.bool_ or min(w.shape) < 1:
        raise ValueError(f"encounter {spec_name!r}: truth.reference_walkable must return a 2-D bool array, "
                         f"got {w.dtype} {w.shape}")
    return w


def check_tick(out: dict, spec_name: str = "?") -> dict:
    """One tick dict checked against :data:`TICK_KEYS` (raises ValueError naming what is missing)."""
    missing = [k for k in TICK_KEYS if k not in out]
    if missing:
        raise ValueError(f"encounter {spec_name!r}: truth.tick returned no {missing} (it must give {list(TICK_KEYS)})")
    return out
