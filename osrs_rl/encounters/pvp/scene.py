"""An NH duel as a scene (format: ``osrs_rl.replay.scene``), read from its state and config records only.

- Arena: the ``ARENA`` x ``ARENA`` walkable tiles (1..ARENA) inside a one-tile blocked border.
- Entities ``p0`` and ``p1``: position, hitpoints, the overhead from the active prayers, the style of
  the worn gear set, the attack timer (negative idle values shown as 0) and the freeze.
- Pending hits: the ``HIT_PENDING`` slots of the hit queue, damage after the defender's protection
  prayer, before the hitpoints cap.
- Hitsplats: the hits the tick landed, from the state's event buffer (``core.events``; entity ids are
  the player indices), with the damage dealt after the hitpoints cap (``mechanics.land_hits`` records
  them), Vengeance reflections included.
- Overlays: ``line_of_sight`` are the tiles from which the agent's worn weapon reaches the opponent
  (melee: next to it, not diagonally; otherwise ``core.line_of_sight`` within the set's range, the
  rule ``mechanics.attack_reach`` uses on this open arena). ``danger`` approximates where the agent
  can be hit as the tiles in the opponent's melee reach (any set can switch to melee in one tick; its
  ranged and magic reach cover nearly the whole arena and are not drawn).
- Panels for both players, the agent first: supplies as items (potions in doses), the worn items,
  levels, timers (attack, consumables, freeze and its immunity, Vengeance cooldown, PID reshuffle).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from osrs_rl.core import styles as S
from osrs_rl.core.collision import make_arena
from osrs_rl.core.consumables import load_consumables
from osrs_rl.core.line_of_sight import has_line_of_sight
from osrs_rl.core.movement import in_melee_reach
from osrs_rl.core.pending_hits import HIT_PENDING
from osrs_rl.core.skills import HITPOINTS
from osrs_rl.runtime import scene_parts as SP

from . import state as ST
from .loadouts import POTION_SLOTS, build_names
from .scripted import TIER_NAMES

COLORS = ("#3b82f6", "#ef4444")
OUTCOME_NAMES = {ST.OUTCOME_WIN: "win", ST.OUTCOME_LOSS: "loss", ST.OUTCOME_DRAW: "draw"}
PHASES = ("under_100_ticks", "100_to_200_ticks", "over_200_ticks")   # view.PHASE_NAMES, by tick


@cache
def _arena_flags() -> np.ndarray:
    return make_arena(ST.ARENA + 2, ST.ARENA + 2, border=1)


@cache
def _consumable_names() -> tuple[str, ...]:
    return load_consumables().names


def _id(i: int) -> str | None:
    return f"p{i}" if i in (0, 1) else None


def scene(s, cfg, agent: int = 0, previous=None, encounter: str = "pvp") -> dict:
    tick = int(s["tick"])
    foe = s["players"][1 - agent]["p"]
    return {
        "encounter": encounter,
        "tick": tick,
        "phase": PHASES[0 if tick < 100 else (1 if tick < 200 else 2)],
        "outcome": OUTCOME_NAMES.get(int(s["outcome"])),
        "arena": _arena(),
        "entities": [_entity(s, cfg, i) for i in range(2)],
        "pending_hits": [SP.pending_hit(h, _id(int(h["attacker"])), _id(int(h["target"])))
                         for h in s["hits"] if h["state"] == HIT_PENDING],
        "hitsplats": SP.hitsplats(s, _id),
        "objects": [],
        "overlays": {"line_of_sight": _reach_tiles(s, cfg, agent, foe), "danger": _melee_tiles(foe)},
        "panels": [_panel(s, cfg, agent), _panel(s, cfg, 1 - agent)],
    }


def _arena() -> dict:
    size = ST.ARENA + 2
    border = [[x, y] for x in range(size) for y in range(size) if x in (0, size - 1) or y in (0, size - 1)]
    return {"x0": 0, "y0": 0, "width": size, "height": size, "blocked": border}


def _walkable_where(test) -> list[list[int]]:
    return [[x, y] for x in range(1, ST.ARENA + 1) for y in range(1, ST.ARENA + 1) if test(x, y)]


def _melee_tiles(foe) -> list[list[int]]:
    fx, fy = int(foe["x"]), int(foe["y"])
    return _walkable_where(lambda x, y: in_melee_reach(x, y, 1, fx, fy, 1))


def _reach_tiles(s, cfg, agent: int, foe) -> list[list[int]]:
    reach = _set_value(cfg, s["players"][agent], "set_range")
    fx, fy = int(foe["x"]), int(foe["y"])
    if reach <= 1:
        return _melee_tiles(foe)
    flags = _arena_flags()
    return _walkable_where(lambda x, y: has_line_of_sight(flags, x, y, 1, fx, fy, 1, reach))


def _set_value(cfg, pl, table: str, set_index: int | None = None):
    s = int(pl["set"]) if set_index is None else set_index
    return cfg[table][int(pl["build"]), int(pl["kit"]), s]


def _style(cfg, pl) -> str:
    kind = int(_set_value(cfg, pl, "set_combat")["attack_type"])
    return "magic" if kind == S.MAGIC else ("ranged" if kind == S.RANGED else "melee")


def _entity(s, cfg, i: int) -> dict:
    pl = s["players"][i]
    p = pl["p"]
    notes = [f"build {build_names()[int(pl['build'])]}, kit {int(pl['kit'])}", f"set {ST.SET_NAMES[int(pl['set'])]}"]
    if int(s["first"]) == i:
        notes.append("PID first")
    if pl["vengeance"]:
        notes.append("vengeance armed")
    if int(p["levels"][HITPOINTS]) <= 0:
        notes.append("dead")
    return {"id": _id(i), "name": _name(s, i), "kind": "player", "x": int(p["x"]), "y": int(p["y"]), "size": 1,
            "hp": int(p["levels"][HITPOINTS]), "max_hp": int(p["base_levels"][HITPOINTS]),
            "overhead": SP.overhead_name(p["active_prayers"]), "style": _style(cfg, pl),
            "attack_timer": max(int(p["attack_timer"]), 0),
            "frozen": int(p["freeze_ticks"]), "color": COLORS[i], "notes": notes}


def _name(s, i: int) -> str:
    if i == 0:
        return "player 0"
    if int(s["opponent_kind"]) == ST.OPPONENT_SCRIPTED:
        return f"player 1 (scripted {TIER_NAMES[int(s['opponent_tier'])]})"
    return f"player 1 (policy slot {int(s['opponent_slot'])})"


def _panel(s, cfg, i: int) -> dict:
    pl = s["players"][i]
    p = pl["p"]
    build = int(pl["build"])
    names = _consumable_names()
    inventory = []
    for slot in range(ST.NUM_SUPPLIES):
        consumable = int(cfg["supply_consumable"][build, slot])
        if consumable >= 0:
            doses = " (doses)" if slot in POTION_SLOTS else ""
            inventory.append([names[consumable] + doses, int(pl["supplies"][slot])])
    timers = {"karambwan": int(p["karambwan_timer"]), "freeze": int(p["freeze_ticks"]),
              "freeze_immunity": int(p["freeze_immunity_ticks"]),
              "vengeance_cooldown": int(pl["vengeance_cooldown"])}
    if int(s["pid_timer"]) >= 0:
        timers["pid_reshuffle"] = int(s["pid_timer"])
    return SP.player_panel(_id(i), p, inventory, timers)
