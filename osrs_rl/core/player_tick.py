"""The end of a player's tick in a PvM fight: the timers and cycles that run whatever the player did, in one
call, for the encounters whose player has no status effects of its own to tick (the wave encounters).

Order (each kernel's source is in its module): the action timers (core.player.tick_action_timers), the prayer
drain of the prayers on (core.prayer_drain), run energy by whether the player ran this tick (core.energy), the
special-attack cycle, the hitpoint and stat cycles (core.energy). No Rapid Heal, Rapid Restore, Lightbearer or
regen bracelet: the wave kits wear none.
"""

from numba import njit

from osrs_rl.core.energy import tick_hitpoints, tick_run_energy, tick_spec_regen, tick_stat_restore
from osrs_rl.core.player import tick_action_timers
from osrs_rl.core.prayer_drain import drain_prayer


@njit(cache=True)
def end_of_tick(p, prayer_bonus, ran, weight_kg, agility_level):
    """Player record ``p``'s end of tick: timers, prayer drain at ``prayer_bonus``, run energy (``ran``: it ran
    this tick; ``weight_kg``, ``agility_level`` set the drain and the restore), special attack, hitpoints and
    stats."""
    tick_action_timers(p)
    drain_prayer(p, prayer_bonus)
    tick_run_energy(p, ran, weight_kg, agility_level)
    tick_spec_regen(p, False)
    tick_hitpoints(p, False, False)
    tick_stat_restore(p, False)
