"""REQUIRED. Template encounter view: what the player sees (``observe``) and may do (``mask``), the episode's
metrics, and the cell of a state for Go-Explore archives (``cell_key``, ``progress``). The observation is
declared once, in ``OBS_SEGMENTS``, and written by feature name; the metrics likewise, in ``METRICS``.
"""

import numpy as np
from numba import njit

from osrs_rl.runtime.action_layout import head_bounds
from osrs_rl.runtime.obs_layout import feature_index, segment_bounds
from osrs_rl.runtime.spec import MetricRecord, ObsSegment

from .state import ATTACK, EAT, HEADS, MAX_FOOD, PRAYER

# the observation's segments and their features, in the order the flat vector holds them (spec.py declares
# these): `observe` writes each feature by its name, at its segment's start plus its place (START.player +
# PLAYER.hp), so a name here is the value written under it wherever it sits
PLAYER_NAMES = ("hp", "food", "attack_timer", "praying", "time")
NPC_NAMES = ("hp", "attack_timer")
OBS_SEGMENTS = (
    ObsSegment("player", len(PLAYER_NAMES), 1, PLAYER_NAMES),
    ObsSegment("npc", len(NPC_NAMES), 1, NPC_NAMES),
)
PLAYER = feature_index("PLAYER", PLAYER_NAMES)      # PLAYER.hp: where "hp" lies in the player segment
NPC = feature_index("NPC", NPC_NAMES)
START, STOP = segment_bounds(OBS_SEGMENTS)          # START.npc: where the npc segment starts in the flat vector
# where each action head's options lie in the flat mask: `mask` writes an option at its head's start plus the
# option's number (MASK_START.eat + EAT.eat), both from the heads' declaration (state.py)
MASK_START, MASK_STOP = head_bounds(HEADS)

# the episode metrics, in the order logs list them: `metrics` writes each by name (out.won), so a name here is
# the value written under it wherever it sits (spec.metric_names derives from this)
METRICS = MetricRecord("ticks", "damage_dealt", "damage_taken", "food_eaten", "won")
PHASE_EARLY, PHASE_LATE = 0, 1        # NPC above / at or below half hitpoints


@njit(cache=True)
def observe(s, cfg, obs):
    o = obs[0]                      # agent 0's row: each feature at its segment's start + its place in the segment
    o[START.player + PLAYER.hp] = s.player_hp / cfg.player_max_hp
    o[START.player + PLAYER.food] = s.food / MAX_FOOD
    o[START.player + PLAYER.attack_timer] = s.player_attack_timer / cfg.player_attack_speed   # about 2 after eating
    o[START.player + PLAYER.praying] = 1.0 if s.praying else 0.0
    o[START.player + PLAYER.time] = s.tick / cfg.max_ticks
    o[START.npc + NPC.hp] = s.npc_hp / cfg.npc_max_hp
    o[START.npc + NPC.attack_timer] = s.npc_attack_timer / cfg.npc_attack_speed


@njit(cache=True)
def mask(s, cfg, m):
    row = m[0]                      # agent 0's row: each option at its head's start + its number in the head
    # waiting is always legal; attacking needs a ready timer
    row[MASK_START.attack + ATTACK.wait] = True
    row[MASK_START.attack + ATTACK.attack] = s.player_attack_timer == 0
    # prayer: keep; switch on (if off); switch off (if on)
    row[MASK_START.prayer + PRAYER.keep] = True
    row[MASK_START.prayer + PRAYER.protect_melee] = not s.praying
    row[MASK_START.prayer + PRAYER.off] = s.praying
    # eat: food left, hitpoints to heal and the eat timer ready
    row[MASK_START.eat + EAT.no] = True
    row[MASK_START.eat + EAT.eat] = s.food > 0 and s.player_hp < cfg.player_max_hp and s.eat_timer == 0


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
