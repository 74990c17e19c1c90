"""Prayer point drain: the game's drain counter.

Each tick the drain rates of the active prayers (``PRAYER_TABLE[:, COL_DRAIN]``) are added to the
player's ``prayer_drain_counter``; while the counter has reached the drain resistance
``60 + 2 * prayer_bonus`` the resistance is subtracted and one prayer point is lost. At 0 points every
prayer switches off. Sources: OSRS wiki "Prayer" (drain rates and resistance) and weirdgloop/
osrs-dps-calc ``PlayerVsNPCCalc.getPrayerTicks`` = ``ceil(points * resistance / drain)`` [H].

The drain does not run on the tick a prayer is switched on from none: the game queues its drain timer
then, and "timers do not execute on the tick on which they were queued. This is ... what allows
prayer-flicking to not drain prayer points" (osrs-docs.com "Timers") [M]; the OSRS wiki "Prayer" says
flicked prayers cost "minimal to no" points. So a prayer that is on for one tick after none was costs
nothing, while switching from one prayer to another keeps the timer running (the new set drains at
once). ``prayer_was_on`` remembers whether any prayer was on when the last tick ended.
The same rule lets a player keep prayers on for free: clicked off and on again within one tick, they
queue the timer anew on that tick, so it never runs (the "1-tick flick"; PufferLib PR 689 has it as
its explicit off-then-on prayer commands). core.player_input ``one_tick_flick`` is that double click,
for encounters whose heads choose the prayers wanted each tick. APPROXIMATION (less than the game,
never more): an encounter whose heads take one click a tick (toggles) can flick for free only every
other tick.

Comparison: the counter loses a point when it is >= the resistance. That is the only rule under which
this simulation lasts exactly ``getPrayerTicks`` ticks for every input (dps-calc
``src/tests/lib/PrayerDrain.test.ts``: 99 points, Piety, bonus 0 -> 248, bonus 30 -> 495, Protect from
Melee bonus 14 -> 726). A strict ">" (the wiki's "exceeds") lasts one tick longer whenever
points * resistance is a multiple of the drain [M: the two sources differ only there].

Approximations: the counter is kept (not reset) when prayers are switched off or points run out [L];
a resistance below 1 (prayer bonus <= -30) is treated as 1 so the loop ends [L].
"""

import math

import numpy as np
from numba import njit

from osrs_rl.core.prayers import COL_DRAIN, PRAYER_TABLE
from osrs_rl.core.skills import PRAYER

BASE_RESISTANCE = 60
RESISTANCE_PER_BONUS = 2

_DRAIN_RATES = np.ascontiguousarray(PRAYER_TABLE[:, COL_DRAIN], dtype=np.int64)
_NUM_PRAYERS = _DRAIN_RATES.shape[0]


@njit(cache=True)
def drain_rate(active_prayers):
    """Sum of the drain rates of the prayers set in the bit mask ``active_prayers``."""
    total = 0
    mask = np.uint32(active_prayers)
    for pid in range(_NUM_PRAYERS):
        if (mask >> np.uint32(pid)) & np.uint32(1):
            total += _DRAIN_RATES[pid]
    return total


@njit(cache=True)
def drain_resistance(prayer_bonus):
    """``60 + 2 * prayer_bonus``, at least 1."""
    return max(1, BASE_RESISTANCE + RESISTANCE_PER_BONUS * prayer_bonus)


@njit(cache=True)
def drain_prayer(p, prayer_bonus):
    """One tick of prayer drain for player ``p`` (at the end of the tick, after this tick's prayer
    clicks); returns the prayer points lost this tick. Nothing drains on the tick prayers come on from
    none (the module docstring)."""
    was_on = p.prayer_was_on != 0
    p.prayer_was_on = 1 if p.active_prayers != 0 else 0
    if p.active_prayers == 0:
        return 0
    if p.levels[PRAYER] <= 0:
        p.active_prayers = 0
        p.prayer_was_on = 0
        return 0
    if not was_on:
        return 0
    resistance = drain_resistance(prayer_bonus)
    counter = np.int64(p.prayer_drain_counter) + drain_rate(p.active_prayers)
    points = np.int64(p.levels[PRAYER])
    lost = 0
    while counter >= resistance and points > 0:
        counter -= resistance
        points -= 1
        lost += 1
    p.prayer_drain_counter = counter
    p.levels[PRAYER] = points
    if points == 0:
        p.active_prayers = 0
        p.prayer_was_on = 0
    return lost


def prayer_ticks(points: int, prayer_bonus: int, active_prayers: int) -> float:
    """Closed form of how many draining ticks ``points`` last (dps-calc ``getPrayerTicks``), not counting
    the free tick the prayers came on; inf with no drain."""
    drain = int(drain_rate(np.uint32(active_prayers)))
    if drain == 0:
        return math.inf
    return -(-points * int(drain_resistance(prayer_bonus)) // drain)
