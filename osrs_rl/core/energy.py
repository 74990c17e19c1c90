"""Energies and natural restoration: special attack, run energy, hitpoints regeneration, stat decay.

Index (call once per tick, after the player's actions; each kernel is independent):
  tick_spec_regen    +10 % special attack energy every 50 ticks, every 25 with Lightbearer worn
                     [H: weirdgloop/osrs-dps-calc PlayerVsNPCCalc.getSpecDps "ticksToRegen =
                     Lightbearer ? 25 : 50"]. The cycle runs continuously, also at 100 % [L].
  use_spec           spend energy if there is enough.
  tick_run_energy    running (moving 2 tiles this tick) drains 67 + floor(67 * clamp(weight, 0, 64) / 64)
                     units, x 0.3 under a stamina potion; otherwise energy restores floor(agility / 6)
                     + 8 units per tick [M: formulas in Unity ports of InfernoTrainer and RSPS movement
                     code; an older OSRS wiki "Energy" revision gives 64 + weight units per tick. The
                     wiki confirms 10,000 units, the weight clamp to 0..64 kg and the 70 % stamina
                     reduction for 2 minutes (H)]. Run switches off below 1 % (100 units) [M:
                     OSRS wiki "Energy": run can be turned on only with 1 % or more].
  tick_hitpoints     every 100 ticks hitpoints move 1 toward the base level: up when below, down when
                     overhealed; Rapid Heal (or the Hitpoints cape) halves the interval to 50; the regen
                     bracelet doubles the amount healed [H: OSRS wiki "Stat restoration", "Rapid Heal"].
  tick_stat_restore  every 100 ticks each drained stat rises 1 and each boosted stat falls 1 toward
                     base (not hitpoints or prayer) on continuous background cycles [H: OSRS wiki "Stat
                     restoration", "Level boost"]. One minute is 100 ticks, not 60.

Approximations (marked [M]/[L] where used): Rapid Restore is modelled as halving the restore interval
(the wiki describes a second, independent 1-minute timer: same average rate); Preserve as a 150-tick
boost-decay interval (the wiki: once active 15 s, each boost drain is postponed 30 s, i.e. boosts last
50 % longer); the agility-based reduction of run drain the current wiki mentions is not modelled; the
stamina 70 % reduction rounds down.
"""

import numpy as np
from numba import njit

from osrs_rl.core.player import RUN_ENERGY_MAX, SPEC_MAX
from osrs_rl.core.prayers import PRESERVE
from osrs_rl.core.skills import HITPOINTS, NUM_SKILLS, PRAYER

# ---- special attack -------------------------------------------------------------------------
SPEC_REGEN_AMOUNT = 10
SPEC_REGEN_TICKS = 50
SPEC_REGEN_TICKS_LIGHTBEARER = 25

# ---- run energy (units: 10000 = 100 %) -------------------------------------------------------
RUN_DRAIN_BASE = 67
RUN_DRAIN_MAX_WEIGHT = 64          # kg; heavier counts as 64, negative as 0
STAMINA_DRAIN_NUM, STAMINA_DRAIN_DEN = 3, 10   # 70 % less drain
RUN_RESTORE_BASE = 8
RUN_RESTORE_AGILITY_DIV = 6
RUN_MIN_TO_RUN = 100               # 1 %

# ---- natural restoration ----------------------------------------------------------------------
HP_REGEN_TICKS = 100
RAPID_HEAL_TICKS = 50
STAT_RESTORE_TICKS = 100
RAPID_RESTORE_TICKS = 50
BOOST_DECAY_TICKS = 100
PRESERVE_BOOST_DECAY_TICKS = 150


@njit(cache=True)
def tick_spec_regen(p, lightbearer):
    """Advance the special attack regeneration cycle by one tick."""
    interval = SPEC_REGEN_TICKS_LIGHTBEARER if lightbearer else SPEC_REGEN_TICKS
    p.spec_regen_timer += 1
    if p.spec_regen_timer >= interval:
        p.spec_regen_timer = 0
        p.spec_energy = min(SPEC_MAX, p.spec_energy + SPEC_REGEN_AMOUNT)


@njit(cache=True)
def use_spec(p, cost):
    """Spend ``cost`` % special attack energy; False (nothing spent) when there is not enough."""
    if cost < 0 or p.spec_energy < cost:
        return False
    p.spec_energy -= cost
    return True


@njit(cache=True)
def run_drain(weight_kg, stamina):
    """Run energy units lost for one tick of running."""
    w = min(max(weight_kg, 0), RUN_DRAIN_MAX_WEIGHT)
    drain = RUN_DRAIN_BASE + RUN_DRAIN_BASE * w // RUN_DRAIN_MAX_WEIGHT
    if stamina:
        drain = drain * STAMINA_DRAIN_NUM // STAMINA_DRAIN_DEN
    return drain


@njit(cache=True)
def run_restore(agility_level):
    """Run energy units regained for one tick of not running."""
    return agility_level // RUN_RESTORE_AGILITY_DIV + RUN_RESTORE_BASE


@njit(cache=True)
def tick_run_energy(p, ran, weight_kg, agility_level):
    """One tick of run energy: drain if the player ran two tiles this tick, else restore.

    ``ran`` is decided by the movement code (a one-tile step with run on does not drain).
    """
    energy = np.int64(p.run_energy)
    if ran:
        energy = max(0, energy - run_drain(weight_kg, p.stamina_ticks > 0))
        if energy < RUN_MIN_TO_RUN:
            p.running = 0
    else:
        energy = min(RUN_ENERGY_MAX, energy + run_restore(agility_level))
    p.run_energy = energy
    if p.stamina_ticks > 0:
        p.stamina_ticks -= 1


@njit(cache=True)
def set_running(p, on):
    """Toggle run; switching it on needs at least 1 % energy. Returns the new state."""
    if on and p.run_energy >= RUN_MIN_TO_RUN:
        p.running = 1
    elif not on:
        p.running = 0
    return p.running != 0


@njit(cache=True)
def tick_hitpoints(p, rapid_heal, regen_bracelet):
    """Hitpoints regeneration / overheal decay cycle (no effect on a dead player)."""
    interval = RAPID_HEAL_TICKS if rapid_heal else HP_REGEN_TICKS
    p.hp_regen_timer += 1
    if p.hp_regen_timer < interval:
        return
    p.hp_regen_timer = 0
    hp = np.int64(p.levels[HITPOINTS])
    base = np.int64(p.base_levels[HITPOINTS])
    if 0 < hp < base:
        p.levels[HITPOINTS] = min(base, hp + (2 if regen_bracelet else 1))
    elif hp > base:
        p.levels[HITPOINTS] = hp - 1


@njit(cache=True)
def tick_stat_restore(p, rapid_restore):
    """Drained-stat restore and boost decay cycles for every stat but hitpoints and prayer.

    Preserve is read from ``p.active_prayers``; Rapid Restore is an argument because
    ``core.prayers`` does not list it.
    """
    p.stat_restore_timer += 1
    if p.stat_restore_timer >= (RAPID_RESTORE_TICKS if rapid_restore else STAT_RESTORE_TICKS):
        p.stat_restore_timer = 0
        for s in range(NUM_SKILLS):
            if s != HITPOINTS and s != PRAYER and p.levels[s] < p.base_levels[s]:
                p.levels[s] += 1
    preserve = (np.uint32(p.active_prayers) >> np.uint32(PRESERVE)) & np.uint32(1)
    p.boost_decay_timer += 1
    if p.boost_decay_timer >= (PRESERVE_BOOST_DECAY_TICKS if preserve else BOOST_DECAY_TICKS):
        p.boost_decay_timer = 0
        for s in range(NUM_SKILLS):
            if s != HITPOINTS and s != PRAYER and p.levels[s] > p.base_levels[s]:
                p.levels[s] -= 1
