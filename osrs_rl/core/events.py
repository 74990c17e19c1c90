"""What happened in a tick, as plain data: a fixed-slot event buffer the kernels write and the
renderers, the viewer and metrics read, so no Python code has to re-derive a mechanic from two records.

An encounter keeps three fields in its state record (``event_fields(capacity)``)::

    ("events", EVENT_DTYPE, (capacity,)), ("event_count", np.int16), ("events_lost", np.int16)

``step`` calls ``clear_events(s)`` first and ``record_event(s, kind, ...)`` where the kernel decides
the thing happened: a hit landing (its actual attacker, style, damage after every cap, blocked by
prayer or not), an attack started, a spawn, a death, a hazard placed. The buffer holds the events of
the last tick only, in the order they happened. A full buffer drops the event and counts it in
``events_lost`` (never a write out of bounds); the capacity is the encounter's to pick.

Entity ids (``source``, ``target``) are small ints the encounter numbers and names in its scene;
``ENTITY_NONE`` marks no entity (venom, a cloud's damage has its cloud as source). ``style`` is a
``core.pending_hits.STYLE_*`` or -1; ``amount`` the damage (HIT), the hitpoints (SPAWN) or 0.
"""

import numpy as np
from numba import njit

# ---- kinds -------------------------------------------------------------------------------------
EV_NONE = 0          # an unused slot
EV_HIT = 1           # damage landed on ``target`` (0: a miss or a blocked hit)
EV_ATTACK = 2        # ``source`` started an attack on ``target`` (its hits are queued or land now)
EV_SPAWN = 3         # ``source`` appeared at (x, y)
EV_DEATH = 4         # ``source`` died or left (flags say why, the encounter's EVF_* bits)
EV_HAZARD = 5        # ``source`` placed a hazard centred on (x, y) (a cloud, a slam's tile)
EV_HEAL = 6          # ``target`` healed ``amount`` from ``source``'s effect
NUM_EVENT_KINDS = 7
EVENT_KIND_NAMES = ("none", "hit", "attack", "spawn", "death", "hazard", "heal")

ENTITY_NONE = -1

# ---- flags (bits 0..7 shared, 8..15 the encounter's own) -----------------------------------------
EVF_BLOCKED = 1 << 0       # a protection prayer removed the damage (PvE) or part of it (PvP)
EVF_ACCURATE = 1 << 1      # the accuracy roll succeeded
EVF_SPECIAL = 1 << 2       # part of a special attack
EVF_REFLECTED = 1 << 3     # recoil or Vengeance damage
EVF_KILLED = 1 << 4        # a death by damage (not by expiry)
EVF_ENCOUNTER = 1 << 8     # first bit an encounter may use for its own flags

EVENT_DTYPE = np.dtype([
    ("kind", np.int8),         # EV_*
    ("tick", np.int32),        # the tick it happened in
    ("source", np.int16),      # entity id of who did it (ENTITY_NONE: nobody)
    ("target", np.int16),      # entity id of who it happened to (ENTITY_NONE: nobody)
    ("style", np.int8),        # core.pending_hits.STYLE_*, -1 for none
    ("amount", np.int32),      # damage, heal or hitpoints
    ("flags", np.uint16),      # EVF_*
    ("x", np.int16),           # tile, where the kind has one
    ("y", np.int16),
])


def event_fields(capacity: int) -> list[tuple]:
    """The three state fields of an event buffer with room for ``capacity`` events a tick."""
    if capacity < 1:
        raise ValueError(f"event buffer capacity must be >= 1, got {capacity}")
    return [("events", EVENT_DTYPE, (capacity,)), ("event_count", np.int16), ("events_lost", np.int16)]


@njit(cache=True)
def clear_events(s):
    """Start a tick with an empty buffer (the slots keep their bytes: only the count says what is live)."""
    s.event_count = 0
    s.events_lost = 0


@njit(cache=True)
def record_event(s, kind, source, target, style, amount, flags, x, y):
    """Append one event of this tick; a full buffer counts it in ``events_lost`` instead."""
    n = s.event_count
    if n < 0 or n >= s.events.shape[0]:
        if s.events_lost < 32767:
            s.events_lost += 1
        return
    e = s.events[n]
    e.kind = kind
    e.tick = s.tick
    e.source = source
    e.target = target
    e.style = style
    e.amount = amount
    e.flags = flags
    e.x = x
    e.y = y
    s.event_count = n + 1


def live_events(record) -> np.ndarray:
    """The events of the tick that produced ``record`` (a state record with an event buffer)."""
    n = max(0, min(int(record["event_count"]), record["events"].shape[0]))
    return record["events"][:n]


def first_event(record, kind: int, source: int):
    """The first event of ``kind`` from entity ``source`` in the tick that produced ``record``, or None
    (the audit's truths read an agent's attack this way)."""
    for e in live_events(record):
        if int(e["kind"]) == kind and int(e["source"]) == source:
            return e
    return None
