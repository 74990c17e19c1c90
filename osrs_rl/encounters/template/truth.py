"""What ``osrs-rl audit`` checks a template policy against (``osrs_rl.runtime.truth``), read from the records only.

The template has no positions: the player stands on ``scene.PLAYER_TILE`` of the scene's open arena
all fight, and the reference map is that arena, every tile walkable. The player attacked in a tick when
its timer was 0 before it and reads ``player_attack_speed - 1`` after it without a bite eaten (a bite
also raises the timer and blocks the attack), or when it dealt damage; with an attack speed of 1 a
missed attack cannot be told from none (the state keeps no attack event), so it is not counted. The
NPC is attackable while it has hitpoints; it has no windows. Damage has one source, the NPC's melee.
"""

from __future__ import annotations

import numpy as np

from osrs_rl.encounters.template import scene as SC
from osrs_rl.runtime.truth import Truth


def reference_walkable(cfg) -> np.ndarray:
    return np.ones((SC.ARENA_WIDTH, SC.ARENA_HEIGHT), dtype=bool)


def attacked(previous, s, cfg) -> bool:
    speed = int(cfg["player_attack_speed"])
    ate = int(s["food_eaten"]) != int(previous["food_eaten"])
    swung = speed > 1 and int(previous["player_attack_timer"]) == 0 and not ate \
        and int(s["player_attack_timer"]) == speed - 1
    return swung or int(s["damage_dealt"]) > int(previous["damage_dealt"])


def tick(previous, s, cfg, agent: int = 0) -> dict:
    attack = attacked(previous, s, cfg)
    return {"x": SC.PLAYER_TILE[0], "y": SC.PLAYER_TILE[1], "attack": attack, "target": "npc" if attack else "",
            "target_attackable": int(previous["npc_hp"]) > 0, "attackable": int(previous["npc_hp"]) > 0,
            "window_tick": None, "damage": {"damage_taken": int(s["damage_taken"]) - int(previous["damage_taken"])}}


TRUTH = Truth(
    reference_walkable=reference_walkable,
    tick=tick,
    damage_metrics=("damage_taken",),
    supply_metrics=("food_eaten",),
    reference="the scene's open arena (the template has no map)",
)
