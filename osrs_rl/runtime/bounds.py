"""Declared bounds of a state record's index-like fields, checked before a restored state is written.

An encounter lists, in ``EncounterSpec.state_bounds``, each state field the kernels use as an index
or a loop bound (a kit, a slot, a hit's target, an enum, a count) with its inclusive valid range::

    Bound("players.kit", 0, lambda recs, cfg: cfg["num_kits"][recs["players"]["build"]] - 1)

``path`` names a leaf of the state dtype, dots between nested fields ("hits.target",
"players.p.equipment"); every element of array fields along the path is checked. ``low`` and
``high`` are integers or callables ``f(records, config) -> array`` (broadcastable to the field's
values, shape ``[records, *element shape]``) for ranges that depend on the config or on another
field; bounds are checked in order and stop at the first failure, so a callable may index with a
field declared (and so checked) before it. ``VecEnv.restore``, ``restore_batch`` and ``set_states``
call :func:`check_records` before any state changes; a refusal names the record, the field with its
element index, the value and the range, e.g.
``state field players[1].kit = -44 is outside 0..7 (record 0)``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from osrs_rl.runtime.snapshot import SnapshotError


class InvalidStateError(SnapshotError):
    """A state record with an index-like field outside its declared range."""


@dataclass(frozen=True)
class Bound:
    """The inclusive range ``low..high`` of one state field (see the module docstring)."""

    path: str
    low: int | Callable
    high: int | Callable
    doc: str = ""


def leaf(dtype: np.dtype, path: str) -> tuple[np.dtype, list[tuple[str, tuple[int, ...]]]]:
    """The base dtype of the field at ``path`` and, for each part of the path, its name and the
    array shape it adds (so an element index can be written as ``players[1].kit``)."""
    parts, dt = [], dtype
    for name in path.split("."):
        if dt.names is None or name not in dt.names:
            raise KeyError(f"state dtype has no field {path!r} (at {name!r})")
        sub = dt.fields[name][0]
        shape = sub.shape
        dt = sub.base if shape else sub
        parts.append((name, shape))
    return dt, parts


def field_values(records: np.ndarray, path: str) -> np.ndarray:
    """The values at ``path`` of every record: shape ``[records, *element shape]``."""
    out = records
    for name in path.split("."):
        out = out[name]
    return out


def element_name(parts, index: tuple[int, ...]) -> str:
    """``players[1].kit`` from the path's parts and an element index (record axis excluded)."""
    out, k = [], 0
    for name, shape in parts:
        n = len(shape)
        sub = "".join(f"[{i}]" for i in index[k:k + n])
        out.append(name + sub)
        k += n
    return ".".join(out)


def validate_bounds(dtype: np.dtype, bounds) -> None:
    """Raise ValueError when a bound names no integer field of ``dtype`` (checked when a spec is built)."""
    seen = set()
    for b in bounds:
        if not isinstance(b, Bound):
            raise ValueError(f"state_bounds holds {type(b).__name__}, not Bound")
        if b.path in seen:
            raise ValueError(f"state bound {b.path!r} is declared twice")
        seen.add(b.path)
        base, _ = leaf(dtype, b.path)
        if base.kind not in "iub":
            raise ValueError(f"state bound {b.path!r}: field has dtype {base}, bounds are for integer fields")


def _limit(x, records, config):
    return x(records, config) if callable(x) else x


def check_records(records: np.ndarray, config, bounds, envs=None) -> None:
    """Raise InvalidStateError naming the first field of ``records`` outside its bound (and, when
    ``envs`` gives the env row each record is meant for, that row)."""
    if not bounds or records.size == 0:
        return
    for b in bounds:
        values = field_values(records, b.path)
        if values.dtype.kind == "b":
            values = values.view(np.uint8)
        lo = _limit(b.low, records, config)
        hi = _limit(b.high, records, config)
        if np.ndim(lo) == 0 and np.ndim(hi) == 0 and lo <= values.min() and values.max() <= hi:
            continue                  # the common case, in two reductions (half the time of the mask)
        bad = (values < lo) | (values > hi)
        if bad.any():
            where = tuple(int(i) for i in np.argwhere(bad)[0])
            lo_e = int(np.broadcast_to(lo, values.shape)[where])
            hi_e = int(np.broadcast_to(hi, values.shape)[where])
            _, parts = leaf(records.dtype, b.path)
            raise InvalidStateError(
                f"state field {element_name(parts, where[1:])} = {int(values[where])} is outside "
                f"{lo_e}..{hi_e} (record {where[0]}" + ("" if envs is None else f", env {int(envs[where[0]])}")
                + ")" + (f": {b.doc}" if b.doc else ""))


def event_bounds(capacity: int, last_source: int, last_target: int) -> tuple[Bound, ...]:
    """The bounds of an event buffer (``osrs_rl.core.events``) whose entity ids run ``-1..last_*``: the
    count within the capacity, kinds and styles among the declared ones (the scenes index by them)."""
    from osrs_rl.core.events import ENTITY_NONE, NUM_EVENT_KINDS
    from osrs_rl.core.pending_hits import STYLE_TYPELESS

    return (
        Bound("event_count", 0, capacity, "events recorded in the last tick, at most the buffer's capacity"),
        Bound("events.kind", 0, NUM_EVENT_KINDS - 1, "core.events.EV_*"),
        Bound("events.source", ENTITY_NONE, last_source, "an entity id of the encounter, -1 for none"),
        Bound("events.target", ENTITY_NONE, last_target, "an entity id of the encounter, -1 for none"),
        Bound("events.style", -1, STYLE_TYPELESS, "core.pending_hits.STYLE_*, -1 for none"),
    )
