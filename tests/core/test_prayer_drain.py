"""Prayer drain counter (osrs_rl.core.prayer_drain) against dps-calc's getPrayerTicks."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from osrs_rl.core.player import new_player
from osrs_rl.core.prayer_drain import drain_prayer, drain_rate, drain_resistance, prayer_ticks
from osrs_rl.core.prayers import (
    IMPROVED_REFLEXES,
    NUM_PRAYERS,
    PIETY,
    PROTECT_FROM_MELEE,
    STEEL_SKIN,
    SUPERHUMAN_STRENGTH,
    THICK_SKIN,
)
from osrs_rl.core.skills import PRAYER


def mask(*pids):
    m = 0
    for pid in pids:
        m |= 1 << pid
    return m


def simulate(points, bonus, prayers, limit=100_000, was_on=1):
    """Draining ticks until the prayer points run out (None if they do not within ``limit``); with
    ``was_on=1`` the prayers were already on last tick, so every tick drains (dps-calc's count)."""
    p = new_player({"prayer": 99})[0]
    p["levels"][PRAYER] = points
    p["active_prayers"] = prayers
    p["prayer_was_on"] = was_on
    for t in range(1, limit + 1):
        drain_prayer(p, bonus)
        if p["levels"][PRAYER] == 0:
            assert p["active_prayers"] == 0
            return t
    return None


DPS_CALC_CASES = [
    # weirdgloop/osrs-dps-calc src/tests/lib/PrayerDrain.test.ts
    (99, 0, mask(PIETY), 248),                                                # "0 prayer bonus 99 prayer piety"
    (99, 30, mask(PIETY), 495),                                               # "30 prayer 99 prayer bonus piety"
    (99, 15, mask(STEEL_SKIN, SUPERHUMAN_STRENGTH, IMPROVED_REFLEXES), 372),  # "15 prayer bonus ... reflexes"
    (99, 14, mask(PROTECT_FROM_MELEE), 726),                                  # protection prayer, bonus 14
]


@pytest.mark.parametrize("points, bonus, prayers, ticks", DPS_CALC_CASES)
def test_dps_calc_prayer_ticks(points, bonus, prayers, ticks):
    assert simulate(points, bonus, prayers) == ticks
    assert prayer_ticks(points, bonus, prayers) == ticks


def test_no_prayers_never_drain():
    # dps-calc PrayerDrain.test.ts "no prayers lasts forever"
    p = new_player()[0]
    assert drain_prayer(p, 0) == 0
    assert p["levels"][PRAYER] == 99 and p["prayer_drain_counter"] == 0
    assert prayer_ticks(99, 0, 0) == float("inf")


def test_drain_rates_from_prayer_table():
    # OSRS wiki "Prayer": tier-1 prayers drain 1, Piety 24, protection prayers 12 (core.prayers)
    assert drain_rate(mask(THICK_SKIN)) == 1
    assert drain_rate(mask(PIETY)) == 24
    assert drain_rate(mask(PIETY, PROTECT_FROM_MELEE)) == 36


def test_thick_skin_loses_one_point_per_60_ticks():
    # resistance 60 with no bonus, drain 1 per tick: one point per 36 seconds (OSRS wiki "Prayer");
    # switched on from none at tick 1, whose drain is free (osrs-docs.com "Timers")
    p = new_player()[0]
    p["active_prayers"] = mask(THICK_SKIN)
    lost = [int(drain_prayer(p, 0)) for _ in range(121)]
    assert [t for t, n in enumerate(lost, start=1) if n] == [61, 121]


def test_prayers_switched_on_from_none_last_one_tick_longer():
    # the activation tick does not drain: on from none, the points last getPrayerTicks + 1 ticks
    for points, bonus, prayers, ticks in DPS_CALC_CASES:
        assert simulate(points, bonus, prayers, was_on=0) == ticks + 1


def test_a_one_tick_flick_costs_nothing():
    # on for one tick, off the next, again and again: the drain timer never runs (osrs-docs.com "Timers":
    # "what allows prayer-flicking to not drain prayer points"); kept on, the same prayer drains
    flicked, kept = new_player()[0], new_player()[0]
    for t in range(200):
        flicked["active_prayers"] = mask(PROTECT_FROM_MELEE) if t % 2 == 0 else 0
        kept["active_prayers"] = mask(PROTECT_FROM_MELEE)
        drain_prayer(flicked, 0)
        drain_prayer(kept, 0)
    assert flicked["levels"][PRAYER] == 99 and flicked["prayer_drain_counter"] == 0
    assert kept["levels"][PRAYER] == 99 - (199 * 12) // 60   # 12 a tick against 60


def test_switching_between_prayers_keeps_draining():
    # from one prayer straight to another the timer keeps running: the new one drains on its first tick
    p = new_player()[0]
    p["active_prayers"] = mask(PROTECT_FROM_MELEE)
    drain_prayer(p, 0)
    assert p["prayer_drain_counter"] == 0          # the free activation tick
    p["active_prayers"] = mask(PIETY)
    drain_prayer(p, 0)
    assert p["prayer_drain_counter"] == 24


def test_zero_points_switches_prayers_off():
    p = new_player()[0]
    p["levels"][PRAYER] = 0
    p["active_prayers"] = mask(PIETY)
    drain_prayer(p, 0)
    assert p["active_prayers"] == 0


def test_negative_bonus_floors_resistance():
    assert drain_resistance(-40) == 1
    assert simulate(10, -40, mask(PIETY)) == 1
    assert simulate(10, -40, mask(PIETY), was_on=0) == 2


@settings(max_examples=200, deadline=None)
@given(points=st.integers(1, 99), bonus=st.integers(-5, 60),
       prayers=st.integers(1, (1 << NUM_PRAYERS) - 1))
def test_simulation_matches_closed_form(points, bonus, prayers):
    assert simulate(points, bonus, prayers) == prayer_ticks(points, bonus, prayers)


@settings(max_examples=100, deadline=None)
@given(points=st.integers(0, 99), bonus=st.integers(-40, 60), prayers=st.integers(0, (1 << NUM_PRAYERS) - 1),
       ticks=st.integers(0, 300))
def test_points_and_counter_stay_in_range(points, bonus, prayers, ticks):
    p = new_player()[0]
    p["levels"][PRAYER] = points
    p["active_prayers"] = prayers
    for _ in range(ticks):
        drain_prayer(p, bonus)
        assert 0 <= p["levels"][PRAYER] <= points
        assert 0 <= p["prayer_drain_counter"] < max(1, drain_resistance(bonus)) + drain_rate(prayers)
