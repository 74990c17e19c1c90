"""Potential-based reward shaping (Ng, Harada and Russell 1999), shared by the encounters that use it: a term
``coef * (gamma * after - before) / scale`` each tick, with ``after`` = 0 once the run has ended, adds up over a
run, discounted by ``gamma``, to ``-coef * first / scale`` whatever the policy does. It says when a loss is felt
(the tick it happens) and pays no stall, no loop and no early death, so it steers learning and never changes the
best policy; ``gamma`` is the trainer's discount, else a per-tick bonus for staying alive creeps in.

The two settings every such encounter declares are built here, so their meaning and bounds are written once:
``coef_hitpoints`` (the player's hitpoints / 99) and ``hitpoints_gamma`` (the discount of every potential term
the encounter has).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from osrs_rl.runtime.spec import ConfigField

HITPOINTS_SCALE = 99.0        # the player's most hitpoints: a full bar's potential is 1


@njit(cache=True)
def potential_term(coef, gamma, before, after, scale):
    """The tick's shaping: ``coef * (gamma * after - before) / scale`` (``after`` 0 once the run has ended)."""
    return coef * (gamma * after - before) / scale


def coef_hitpoints_field(run_end: str) -> ConfigField:
    """``coef_hitpoints``: potential-based on the player's hitpoints / 99, the potential 0 once the run ends
    (``run_end`` says how a run of this encounter ends, for the help text)."""
    return ConfigField(
        "coef_hitpoints", np.float32, 0.0, -10.0, 10.0,
        "shaping: potential-based on the player's hitpoints / 99 (Ng, Harada and Russell 1999): hitpoints_gamma * "
        f"after - before each tick, after = 0 once the run ends ({run_end}), so a run's return discounted by "
        "hitpoints_gamma is minus its first hitpoints / 99 whatever it does: a hit costs on the tick it lands, a "
        "heal pays back, and no stall, loop or early death pays")


def hitpoints_gamma_field() -> ConfigField:
    """``hitpoints_gamma``: the discount of the encounter's potential terms."""
    return ConfigField(
        "hitpoints_gamma", np.float32, 0.995, 0.0, 1.0,
        "the discount of the potential-based shaping terms: the trainer's ppo.gamma (0.995 by default), so no "
        "per-tick bonus for staying alive creeps in")
