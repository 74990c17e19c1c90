"""Hits that remember their thrower (osrs_rl.core.hit_events): the slot they took, the event they make."""

import numpy as np
from numba import njit

from osrs_rl.core import events as E
from osrs_rl.core.hit_events import queue_tracked_hit, record_hit_landed
from osrs_rl.core.pending_hits import (
    FLAG_ACCURATE,
    FLAG_SPECIAL,
    HIT_DTYPE,
    HIT_FREE,
    HIT_PENDING,
    STYLE_RANGED,
)

CAPACITY = 3
DTYPE = np.dtype([("tick", np.int32), ("hits", HIT_DTYPE, (CAPACITY,)), ("hit_source", np.int16, (CAPACITY,)),
                  ("hit_flags", np.uint16, (CAPACITY,)), *E.event_fields(4)])


@njit
def _queue(s, entity, event_flags, flags):
    return queue_tracked_hit(s, entity, event_flags, 5, 17, STYLE_RANGED, 2, 0, flags, 25, 32)


@njit
def _land(s, i, damage):
    E.clear_events(s)
    record_hit_landed(s, i, damage, 3, 4)


def test_the_thrower_is_remembered_in_the_slot_the_hit_took():
    rec = np.zeros(1, dtype=DTYPE)
    s = rec[0]
    s["hits"]["state"][0] = HIT_PENDING            # slot 0 busy: the hit takes slot 1
    assert _queue(s, 9, E.EVF_BLOCKED, FLAG_ACCURATE)
    assert s["hits"]["state"].tolist() == [HIT_PENDING, HIT_PENDING, HIT_FREE]
    assert int(s["hit_source"][1]) == 9 and int(s["hit_flags"][1]) == E.EVF_BLOCKED
    h = s["hits"][1]
    assert (int(h["due_tick"]), int(h["damage"]), int(h["attacker"]), int(h["heal_pct"])) == (5, 17, 2, 25)
    assert int(h["freeze_ticks"]) == 32


def test_a_full_queue_drops_the_hit_and_writes_no_thrower():
    rec = np.zeros(1, dtype=DTYPE)
    s = rec[0]
    s["hits"]["state"][:] = HIT_PENDING
    s["hit_source"][:] = -7
    assert not _queue(s, 9, 0, 0)
    assert s["hit_source"].tolist() == [-7, -7, -7]


def test_the_landing_event_names_the_thrower_with_the_hits_own_flags():
    rec = np.zeros(1, dtype=DTYPE)
    s = rec[0]
    assert _queue(s, 9, E.EVF_BLOCKED, FLAG_ACCURATE | FLAG_SPECIAL)
    _land(s, 0, 12)
    (ev,) = E.live_events(s)
    assert (int(ev["kind"]), int(ev["source"]), int(ev["amount"]), int(ev["style"])) == (E.EV_HIT, 9, 12, STYLE_RANGED)
    assert int(ev["flags"]) == E.EVF_BLOCKED | E.EVF_ACCURATE | E.EVF_SPECIAL
    assert (int(ev["x"]), int(ev["y"])) == (3, 4)
    assert _queue(s, 4, 0, 0)                      # a plain hit: no accuracy or special flag on its event
    _land(s, 1, 0)
    (ev,) = E.live_events(s)
    assert int(ev["source"]) == 4 and int(ev["flags"]) == 0
