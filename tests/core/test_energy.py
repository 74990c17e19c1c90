"""Special attack, run energy, hitpoints regeneration and stat restoration (osrs_rl.core.energy)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from osrs_rl.core.energy import (
    run_drain,
    run_restore,
    set_running,
    tick_hitpoints,
    tick_run_energy,
    tick_spec_regen,
    tick_stat_restore,
    use_spec,
)
from osrs_rl.core.player import new_player
from osrs_rl.core.prayers import PRESERVE
from osrs_rl.core.skills import ATTACK, DEFENCE, HITPOINTS, PRAYER, STRENGTH


def player():
    return new_player()[0]


# ---- special attack -------------------------------------------------------------------------

@pytest.mark.parametrize("lightbearer, interval", [
    (False, 50),   # dps-calc PlayerVsNPCCalc.getSpecDps: ticksToRegen 50
    (True, 25),    # ... 25 with Lightbearer
])
def test_spec_regenerates_10_per_interval(lightbearer, interval):
    p = player()
    p["spec_energy"] = 0
    for _ in range(interval - 1):
        tick_spec_regen(p, lightbearer)
    assert p["spec_energy"] == 0
    tick_spec_regen(p, lightbearer)
    assert p["spec_energy"] == 10
    for _ in range(interval * 20):
        tick_spec_regen(p, lightbearer)
    assert p["spec_energy"] == 100


def test_use_spec():
    p = player()
    assert use_spec(p, 55) and p["spec_energy"] == 45
    assert not use_spec(p, 50) and p["spec_energy"] == 45
    assert use_spec(p, 45) and p["spec_energy"] == 0


# ---- run energy -----------------------------------------------------------------------------

@pytest.mark.parametrize("weight, stamina, drain", [
    # 67 + floor(67 * clamp(weight, 0, 64) / 64); stamina x 0.3 (OSRS wiki "Energy": 70 % less)
    (0, False, 67), (-20, False, 67), (32, False, 100), (64, False, 134), (200, False, 134),
    (0, True, 20), (64, True, 40),
])
def test_run_drain(weight, stamina, drain):
    assert run_drain(weight, stamina) == drain


@pytest.mark.parametrize("agility, restore", [(1, 8), (50, 16), (99, 24)])
def test_run_restore(agility, restore):
    # floor(agility / 6) + 8 units per tick; wiki: level 1 regains 1 % per 7.5 s (12.5 ticks x 8)
    assert run_restore(agility) == restore


def test_running_drains_and_switches_off_below_one_percent():
    p = player()
    p["run_energy"] = 200
    assert set_running(p, True)
    tick_run_energy(p, True, 0, 99)
    assert p["run_energy"] == 133 and p["running"] == 1
    tick_run_energy(p, True, 0, 99)
    assert p["run_energy"] == 66 and p["running"] == 0
    assert not set_running(p, True)                 # needs 1 % (OSRS wiki "Energy")


def test_walking_restores_and_stamina_counts_down():
    p = player()
    p["run_energy"] = 9990
    p["stamina_ticks"] = 2
    tick_run_energy(p, False, 10, 99)
    assert p["run_energy"] == 10000 and p["stamina_ticks"] == 1


# ---- hitpoints ------------------------------------------------------------------------------

@pytest.mark.parametrize("rapid_heal, bracelet, interval, amount", [
    (False, False, 100, 1),   # OSRS wiki "Stat restoration": 1 hitpoint per minute
    (True, False, 50, 1),     # OSRS wiki "Rapid Heal": 1 per 30 seconds
    (False, True, 100, 2),    # regen bracelet doubles the amount
    (True, True, 50, 2),      # Rapid Heal + bracelet: 2 per 30 seconds
])
def test_hitpoints_regeneration(rapid_heal, bracelet, interval, amount):
    p = player()
    p["levels"][HITPOINTS] = 50
    for _ in range(interval - 1):
        tick_hitpoints(p, rapid_heal, bracelet)
    assert p["levels"][HITPOINTS] == 50
    tick_hitpoints(p, rapid_heal, bracelet)
    assert p["levels"][HITPOINTS] == 50 + amount


def test_overheal_decays_and_dead_stays_dead():
    # OSRS wiki "Stat restoration": an overheal loses one point per minute
    p = player()
    p["levels"][HITPOINTS] = 115
    for _ in range(200):
        tick_hitpoints(p, False, False)
    assert p["levels"][HITPOINTS] == 113
    p["levels"][HITPOINTS] = 0
    for _ in range(200):
        tick_hitpoints(p, False, False)
    assert p["levels"][HITPOINTS] == 0


# ---- stats ----------------------------------------------------------------------------------

def test_drained_stats_restore_and_boosts_decay_each_minute():
    # OSRS wiki "Stat restoration": every 100 ticks each (de)boosted stat moves 1 toward base
    p = player()
    p["levels"][ATTACK] = 88
    p["levels"][STRENGTH] = 118
    p["levels"][PRAYER] = 50
    for _ in range(300):
        tick_stat_restore(p, False)
    assert p["levels"][ATTACK] == 91 and p["levels"][STRENGTH] == 115
    assert p["levels"][PRAYER] == 50 and p["levels"][DEFENCE] == 99


def test_rapid_restore_doubles_restoration_only():
    # OSRS wiki "Rapid Restore": doubles the restore rate (modelled as a 50-tick interval)
    p = player()
    p["levels"][ATTACK] = 88
    p["levels"][STRENGTH] = 118
    for _ in range(300):
        tick_stat_restore(p, True)
    assert p["levels"][ATTACK] == 94 and p["levels"][STRENGTH] == 115


def test_preserve_makes_boosts_last_50_percent_longer():
    # OSRS wiki "Preserve": boosted stats last 50 % longer (modelled as a 150-tick interval)
    p = player()
    p["levels"][STRENGTH] = 118
    p["active_prayers"] = 1 << PRESERVE
    for _ in range(300):
        tick_stat_restore(p, False)
    assert p["levels"][STRENGTH] == 116


# ---- properties -----------------------------------------------------------------------------

@settings(max_examples=150, deadline=None)
@given(steps=st.lists(st.tuples(st.booleans(), st.integers(-50, 300), st.integers(1, 99),
                                st.integers(0, 3), st.integers(0, 120)), max_size=80))
def test_energies_stay_in_range(steps):
    p = player()
    for ran, weight, agility, stamina, spec_cost in steps:
        if stamina == 0:
            p["stamina_ticks"] = 200
        tick_run_energy(p, ran, weight, agility)
        tick_spec_regen(p, stamina == 1)
        use_spec(p, spec_cost)
        assert 0 <= p["run_energy"] <= 10000
        assert 0 <= p["spec_energy"] <= 100
        assert p["stamina_ticks"] >= 0
