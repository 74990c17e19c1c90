"""OPTIONAL (osrs-rl audit). What the audit checks a template policy against (``osrs_rl.runtime.truth``),
read from the records only.

The template has no positions: the player stands on ``scene.PLAYER_TILE`` of the scene's open arena
all fight, and the reference map is that arena, every tile walkable. The player attacked in a tick when
the kernel recorded its attack in the event buffer (``core.events``). The NPC is attackable while it
has hitpoints; it has no windows. Damage has one source, the NPC's melee.
"""

from __future__ import annotations

import numpy as np

from osrs_rl.core.events import EV_ATTACK, first_event
from osrs_rl.runtime.truth import Truth, hits_on

from . import scene as SC
from .state import ENT_PLAYER


def reference_walkable(cfg) -> np.ndarray:
    return np.ones((SC.ARENA_WIDTH, SC.ARENA_HEIGHT), dtype=bool)


def attacked(s) -> bool:
    """The player started an attack in the tick that produced ``s`` (its event buffer says so)."""
    return first_event(s, EV_ATTACK, ENT_PLAYER) is not None


def tick(previous, s, cfg, agent: int = 0) -> dict:
    attack = attacked(s)
    return {"x": SC.PLAYER_TILE[0], "y": SC.PLAYER_TILE[1], "attack": attack, "target": "npc" if attack else "",
            "target_attackable": int(previous["npc_hp"]) > 0, "attackable": int(previous["npc_hp"]) > 0,
            "window_tick": None, "damage": {"damage_taken": int(s["damage_taken"]) - int(previous["damage_taken"])},
            "hits": hits_on(s, ENT_PLAYER, lambda record, event: "npc")}     # named as spec.attacks names it


TRUTH = Truth(
    reference_walkable=reference_walkable,
    tick=tick,
    damage_metrics=("damage_taken",),
    supply_metrics=("food_eaten",),
    reference="the scene's open arena (the template has no map)",
)
