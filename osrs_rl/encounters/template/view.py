"""REQUIRED. Template encounter view: what the player sees (``observe``) and may do (``mask``), the episode's
metrics, and the cell of a state for Go-Explore archives (``cell_key``, ``progress``). The observation's
layout is named in spec.py's segments, in the order written here; the metrics are declared once, in ``METRICS``,
and written by name.
"""

import numpy as np
from numba import njit

from osrs_rl.runtime.spec import MetricRecord

from .state import MAX_FOOD

# the episode metrics, in the order logs list them: `metrics` writes each by name (out.won), so a name here is
# the value written under it wherever it sits (spec.metric_names derives from this)
METRICS = MetricRecord("ticks", "damage_dealt", "damage_taken", "food_eaten", "won")
PHASE_EARLY, PHASE_LATE = 0, 1        # NPC above / at or below half hitpoints


@njit(cache=True)
def observe(s, cfg, obs):
    o = obs[0]
    # player block
    o[0] = s.player_hp / cfg.player_max_hp
    o[1] = s.food / MAX_FOOD
    o[2] = s.player_attack_timer / cfg.player_attack_speed    # up to about 2 right after eating
    o[3] = 1.0 if s.praying else 0.0
    o[4] = s.tick / cfg.max_ticks
    # npc slot
    o[5] = s.npc_hp / cfg.npc_max_hp
    o[6] = s.npc_attack_timer / cfg.npc_attack_speed


@njit(cache=True)
def mask(s, cfg, m):
    row = m[0]
    # attack head: waiting is always legal; attacking needs a ready timer
    row[0] = True
    row[1] = s.player_attack_timer == 0
    # prayer head: keep, switch on (if off), switch off (if on)
    row[2] = True
    row[3] = not s.praying
    row[4] = s.praying
    # eat head
    row[5] = True
    row[6] = s.food > 0 and s.player_hp < cfg.player_max_hp and s.eat_timer == 0


@njit(cache=True)
def metrics(s, cfg, out):
    """The ended episode's metrics into ``out`` (a record of ``METRICS.dtype``), by name; returns its phase."""
    out.ticks = s.tick
    out.damage_dealt = s.damage_dealt
    out.damage_taken = s.damage_taken
    out.food_eaten = s.food_eaten
    out.won = 1.0 if s.npc_hp <= 0 else 0.0
    return PHASE_LATE if 2 * s.npc_hp <= cfg.npc_max_hp else PHASE_EARLY


@njit(cache=True)
def cell_key(s, cfg):
    """Archive cell: hitpoints of both fighters in tenths, and food left."""
    return np.int64((10 * s.npc_hp) // cfg.npc_max_hp) * 1000 + ((10 * s.player_hp) // cfg.player_max_hp) * 100 \
        + s.food


@njit(cache=True)
def progress(s, cfg):
    """How far a fight has got (higher is further): the share of the NPC's hitpoints taken, the player's
    hitpoints left as a tie-break; an archive keeps each cell's state with the most."""
    return 1.0 - s.npc_hp / cfg.npc_max_hp + 0.1 * s.player_hp / cfg.player_max_hp
