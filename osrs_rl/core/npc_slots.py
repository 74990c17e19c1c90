"""Monsters in fixed slots of an encounter's state (the wave encounters): a monster appearing in a slot, and the
first free slot for one that appears mid-fight.

Duck-typed state (as core.npc_crowd): ``s.monsters`` a record array whose records hold at least the fields the
shared kernels read, ``state`` (``SLOT_FREE`` 0, ``SLOT_ALIVE`` 1; an encounter may number more states after
these), ``kind``, ``x``, ``y``, ``hp``, ``attack_timer``, ``stun``, ``target``, ``had_los``, ``frozen``
(core.npc_crowd), ``scan``, ``windup``, ``procced``, ``parent`` (core.jad), and the event buffer (core.events).
"""

from numba import njit

from osrs_rl.core.events import EV_SPAWN, record_event

SLOT_FREE, SLOT_ALIVE = 0, 1


@njit(cache=True)
def spawn(s, slot, kind, x, y, hp, target, stun, entity, by, amount, flags):
    """Monster ``kind`` appears in ``slot`` with south-west tile (x, y) and ``hp`` hitpoints, aiming at ``target``,
    stunned ``stun`` ticks, its attack ready, seeing nothing yet, no tell shown, no healers called, no parent; an
    EV_SPAWN of entity ``entity`` (``by``, ``amount`` and ``flags`` as the encounter numbers them). The encounter
    sets its own fields after."""
    m = s.monsters[slot]
    m.state = SLOT_ALIVE
    m.kind = kind
    m.x = x
    m.y = y
    m.hp = hp
    m.attack_timer = 0
    m.stun = stun
    m.target = target
    m.had_los = 0
    m.frozen = 0
    m.scan = -1
    m.windup = 0
    m.procced = 0
    m.parent = -1
    record_event(s, EV_SPAWN, entity, by, -1, amount, flags, x, y)


@njit(cache=True)
def free_slot(s):
    """The first free slot, -1 when none is."""
    for slot in range(s.monsters.shape[0]):
        if s.monsters[slot].state == SLOT_FREE:
            return slot
    return -1
