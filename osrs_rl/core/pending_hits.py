"""A fixed-capacity queue of hits in flight, as plain data.

An encounter keeps ``("hits", HIT_DTYPE, (capacity,))`` in its state record. An attack pushes a hit
due ``hit_delay`` ticks later (``core.hit_delay``); at the start of each tick the encounter pops the
hits due and applies them in the order returned: by due tick, then by the order they were pushed.
Hits land at the start of the tick they are due (the tick contract, docs/guide/conventions.md; OSRS wiki "Hit delay");
hits due together apply in push order as in Naton1/osrs-pvp-reinforcement-learning simulation-rsps
HitQueue.process, which walks its pending list in insertion order [M].

Slot states: ``HIT_FREE`` (reusable), ``HIT_PENDING`` (in flight), ``HIT_LANDED`` (returned by the
last ``pop_due``; its fields stay readable and the slot is not reused until the next ``pop_due`` or
``release_landed``). So a hit pushed while the landed ones are being applied (recoil, vengeance)
never overwrites a landed hit that has not been read yet.

Insertion order is a per-slot sequence number one above the largest pending one, so no counter lives
outside the array and the order is the push order among hits in flight.
"""

import numpy as np
from numba import njit

# ---- slot states ----------------------------------------------------------------------------
HIT_FREE = 0
HIT_PENDING = 1
HIT_LANDED = 2

# ---- styles (what the hit is, for the defender's protection prayer) --------------------------
STYLE_MELEE = 0
STYLE_RANGED = 1
STYLE_MAGIC = 2
STYLE_TYPELESS = 3      # recoil, vengeance, poison-like damage: no prayer applies

# ---- flags ----------------------------------------------------------------------------------
FLAG_CHECK_PRAYER_ON_LANDING = 1 << 0   # the defender's overhead is read when the hit lands, not when sent
FLAG_ACCURATE = 1 << 1                  # the accuracy roll succeeded (a 0 can still be accurate)
FLAG_SPECIAL = 1 << 2                   # part of a special attack
FLAG_POISON = 1 << 3                    # may poison the target on landing
FLAG_VENOM = 1 << 4                     # may envenom the target on landing

HIT_DTYPE = np.dtype([
    ("state", np.uint8),         # HIT_FREE / HIT_PENDING / HIT_LANDED
    ("due_tick", np.int32),      # tick at whose start the hit lands
    ("seq", np.uint32),          # push order among pending hits
    ("damage", np.int16),        # rolled damage before the defender's prayer and hitpoint cap
    ("style", np.int8),          # STYLE_*
    ("attacker", np.int16),      # entity slot of the attacker (encounter-defined numbering)
    ("target", np.int16),        # entity slot of the target
    ("flags", np.uint16),        # FLAG_*
    ("heal_pct", np.int16),      # attacker heals floor(dealt * pct / 100): blood spells 25, blowpipe spec 50
    ("freeze_ticks", np.int16),  # freeze applied on landing when > 0 (ice spells)
])


@njit(cache=True)
def push_hit(queue, due_tick, damage, style, attacker, target, flags, heal_pct, freeze_ticks):
    """Queue a hit in the lowest free slot; False when every slot is pending or landed."""
    return push_hit_slot(queue, due_tick, damage, style, attacker, target, flags, heal_pct, freeze_ticks) >= 0


@njit(cache=True)
def push_hit_slot(queue, due_tick, damage, style, attacker, target, flags, heal_pct, freeze_ticks):
    """``push_hit`` that returns the slot the hit took, -1 when every slot is pending or landed."""
    slot = -1
    top = np.uint32(0)
    for i in range(queue.shape[0]):
        st = queue[i].state
        if st == HIT_FREE:
            if slot < 0:
                slot = i
        elif st == HIT_PENDING and queue[i].seq > top:
            top = queue[i].seq
    if slot < 0:
        return -1
    h = queue[slot]
    h.state = HIT_PENDING
    h.due_tick = due_tick
    h.seq = top + np.uint32(1)
    h.damage = damage
    h.style = style
    h.attacker = attacker
    h.target = target
    h.flags = flags
    h.heal_pct = heal_pct
    h.freeze_ticks = freeze_ticks
    return slot


@njit(cache=True)
def release_landed(queue):
    """Free the slots of the hits returned by the last ``pop_due``."""
    for i in range(queue.shape[0]):
        if queue[i].state == HIT_LANDED:
            queue[i].state = HIT_FREE


@njit(cache=True)
def _before(queue, a, b):
    """Hit ``a`` is applied before hit ``b``: earlier due tick, then earlier push."""
    if queue[a].due_tick != queue[b].due_tick:
        return queue[a].due_tick < queue[b].due_tick
    return queue[a].seq < queue[b].seq


@njit(cache=True)
def _insert_landing(queue, out_indices, n, i):
    """Insert slot ``i`` into the ``n`` slots of ``out_indices`` already in landing order (insertion sort:
    later-landing hits shift right); returns the new count."""
    j = n
    while j > 0 and _before(queue, i, out_indices[j - 1]):
        out_indices[j] = out_indices[j - 1]
        j -= 1
    out_indices[j] = i
    return n + 1


@njit(cache=True)
def pop_due(queue, tick, out_indices):
    """Write the slots of pending hits due at or before ``tick`` into ``out_indices`` in landing order.

    Returns how many; those slots become ``HIT_LANDED`` (fields readable until the next ``pop_due`` /
    ``release_landed``). Landed slots from the previous call are freed first. ``out_indices`` needs
    room for the queue's capacity.
    """
    release_landed(queue)
    n = 0
    for i in range(queue.shape[0]):
        if queue[i].state != HIT_PENDING or queue[i].due_tick > tick:
            continue
        n = _insert_landing(queue, out_indices, n, i)
    for k in range(n):
        queue[out_indices[k]].state = HIT_LANDED
    return n


@njit(cache=True)
def pop_due_for(queue, tick, target, out_indices):
    """``pop_due`` restricted to the hits on entity ``target``: one pass over the queue, for
    encounters whose entities take turns (PID order) and land each one's hits in its own turn.
    Hits on other targets stay pending; landed slots from the previous call are freed first."""
    n = 0
    for i in range(queue.shape[0]):
        st = queue[i].state
        if st == HIT_LANDED:
            queue[i].state = HIT_FREE
            continue
        if st != HIT_PENDING or queue[i].due_tick > tick or queue[i].target != target:
            continue
        n = _insert_landing(queue, out_indices, n, i)
    for k in range(n):
        queue[out_indices[k]].state = HIT_LANDED
    return n


@njit(cache=True)
def count_pending(queue):
    """Number of hits in flight."""
    n = 0
    for i in range(queue.shape[0]):
        if queue[i].state == HIT_PENDING:
            n += 1
    return n


@njit(cache=True)
def count_pending_on(queue, target):
    """Number of hits in flight on entity ``target``."""
    n = 0
    for i in range(queue.shape[0]):
        if queue[i].state == HIT_PENDING and queue[i].target == target:
            n += 1
    return n


@njit(cache=True)
def clear_queue(queue):
    """Drop every hit (death, teleport, reset)."""
    for i in range(queue.shape[0]):
        queue[i].state = HIT_FREE


def new_hit_queue(capacity: int) -> np.ndarray:
    """An empty queue of ``capacity`` slots (tests and tools; encounters embed the dtype instead)."""
    if capacity < 1:
        raise ValueError(f"hit queue capacity must be >= 1, got {capacity}")
    return np.zeros(capacity, dtype=HIT_DTYPE)


def check_hit_queue(queue, name: str = "queue") -> None:
    """Raise ``TypeError`` unless ``queue`` is a 1-D array of ``HIT_DTYPE`` records."""
    if not isinstance(queue, np.ndarray) or queue.dtype != HIT_DTYPE or queue.ndim != 1:
        got = f"dtype {queue.dtype}, shape {queue.shape}" if isinstance(queue, np.ndarray) else type(queue).__name__
        raise TypeError(
            f"{name} must be a 1-D array of HIT_DTYPE (osrs_rl.core.pending_hits) with fields "
            f"{', '.join(HIT_DTYPE.names)}; got {got}"
        )
