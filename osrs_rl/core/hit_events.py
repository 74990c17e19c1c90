"""Hits in flight that remember who threw them, and the ``EV_HIT`` event each one makes when it lands.

``core.pending_hits`` records a hit's ``attacker`` as whatever the encounter tallies damage by (a
monster kind, a source index); the event buffer (``core.events``) wants the entity that threw it (a
slot id the scene can draw). An encounter that keeps both declares, beside its ``hits`` queue::

    ("hit_source", np.int16, (capacity,)), ("hit_flags", np.uint16, (capacity,))

and queues with :func:`queue_tracked_hit`; when a slot lands, :func:`record_hit_landed` writes the
event with the hit's own accuracy and special flags added to the event flags it was queued with.
"""

from numba import njit

from osrs_rl.core.events import EV_HIT, EVF_ACCURATE, EVF_SPECIAL, record_event
from osrs_rl.core.pending_hits import FLAG_ACCURATE, FLAG_SPECIAL, push_hit_slot


@njit(cache=True)
def queue_tracked_hit(s, entity, event_flags, due, damage, style, attacker, target, flags, heal_pct, freeze_ticks):
    """Queue a hit on ``s.hits`` (the lowest free slot; the fields are ``push_hit``'s) and remember its
    thrower ``entity`` and its ``event_flags`` (core.events.EVF_*) in that slot of ``s.hit_source`` /
    ``s.hit_flags``; False when the queue is full (the hit is dropped, as ``push_hit`` drops it)."""
    slot = push_hit_slot(s.hits, due, damage, style, attacker, target, flags, heal_pct, freeze_ticks)
    if slot < 0:
        return False
    s.hit_source[slot] = entity
    s.hit_flags[slot] = event_flags
    return True


@njit(cache=True)
def record_hit_landed(s, i, damage, x, y):
    """Queue slot ``i``'s hit landed with ``damage`` (after every cap and prayer) at (x, y): an EV_HIT
    from the entity that threw it."""
    h = s.hits[i]
    flags = s.hit_flags[i]
    if h.flags & FLAG_ACCURATE:
        flags |= EVF_ACCURATE
    if h.flags & FLAG_SPECIAL:
        flags |= EVF_SPECIAL
    record_event(s, EV_HIT, s.hit_source[i], h.target, h.style, damage, flags, x, y)
