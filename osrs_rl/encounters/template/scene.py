"""OPTIONAL (render, view, play). The template encounter as a scene (format: ``osrs_rl.replay.scene``),
read from its records only.

The template has no positions: the player and the NPC are drawn at fixed tiles, side by side, in a
small open arena (no collision). Both fight in melee, so ``line_of_sight`` (where the player could
hit the NPC from) and ``danger`` (where the NPC could hit the player) are the tiles next to the NPC.

Hitsplats are the hits the tick recorded in the state's event buffer (``core.events``; entity ids
``state.ENT_PLAYER`` and ``state.ENT_NPC``), drawn with the shared helpers of ``runtime.scene_parts``;
a miss and a hit the prayer blocked show as a blue 0.
"""

from osrs_rl.runtime import scene_parts as SP

from .state import ENT_NPC, ENT_PLAYER

ARENA_WIDTH, ARENA_HEIGHT = 5, 3
PLAYER_TILE, NPC_TILE = (1, 1), (2, 1)       # fixed: the template has no positions
PLAYER_COLOR, NPC_COLOR = "#3b82f6", "#a855f7"
PHASES = ("npc_above_half", "npc_below_half")
ENTITY_IDS = {ENT_PLAYER: "player", ENT_NPC: "npc"}


def scene(s, cfg, agent: int = 0, previous=None) -> dict:
    player_hp, npc_hp = int(s["player_hp"]), int(s["npc_hp"])
    outcome = "win" if npc_hp <= 0 else ("loss" if player_hp <= 0 else None)
    melee_tiles = [[NPC_TILE[0] + dx, NPC_TILE[1] + dy] for dx, dy in ((-1, 0), (1, 0), (0, 1), (0, -1))]
    return {
        "tick": int(s["tick"]),
        "phase": PHASES[1] if 2 * npc_hp <= int(cfg["npc_max_hp"]) else PHASES[0],
        "outcome": outcome,
        "arena": {"x0": 0, "y0": 0, "width": ARENA_WIDTH, "height": ARENA_HEIGHT, "blocked": []},
        "entities": [
            {"id": "player", "name": "player", "kind": "player", "x": PLAYER_TILE[0], "y": PLAYER_TILE[1],
             "size": 1, "hp": player_hp, "max_hp": int(cfg["player_max_hp"]),
             "overhead": "melee" if s["praying"] else None, "style": "melee",
             "attack_timer": int(s["player_attack_timer"]), "frozen": 0, "color": PLAYER_COLOR,
             "notes": [f"food {int(s['food'])}"]},
            {"id": "npc", "name": "Abyssal demon", "kind": "npc", "x": NPC_TILE[0], "y": NPC_TILE[1], "size": 1,
             "hp": npc_hp, "max_hp": int(cfg["npc_max_hp"]), "overhead": None, "style": "melee",
             "attack_timer": int(s["npc_attack_timer"]), "frozen": 0, "color": NPC_COLOR, "notes": []},
        ],
        "pending_hits": [],                  # melee lands on the attack's tick: nothing is ever in flight
        "hitsplats": SP.hitsplats(s, ENTITY_IDS.get),
        "objects": [],
        "overlays": {"line_of_sight": melee_tiles, "danger": melee_tiles},
        "panels": [_panel(s, cfg)],
    }


def _panel(s, cfg) -> dict:
    hp = int(s["player_hp"])
    return SP.panel(
        "player", hp=(hp, int(cfg["player_max_hp"])),
        prayer=(0, 0),                       # no prayer points: Protect from Melee never drains here
        run_energy=100.0,                    # no movement, so run energy never changes
        spec=None,
        prayers=["Protect from Melee"] if s["praying"] else [],
        inventory=[["Shark", int(s["food"])]],
        equipment={"weapon": "Abyssal whip"},
        stats={"hitpoints": [hp, int(cfg["player_max_hp"])]},
        timers={"attack": int(s["player_attack_timer"]), "eat": int(s["eat_timer"]),
                "npc_attack": int(s["npc_attack_timer"])})
