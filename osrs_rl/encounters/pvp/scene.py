"""An NH duel as a scene (format: ``osrs_rl.replay.scene``), read from its state and config records only.

- Arena: the ``ARENA`` x ``ARENA`` walkable tiles (1..ARENA) inside a one-tile blocked border.
- Entities ``p0`` and ``p1``: position, hitpoints, the overhead from the active prayers, the style of
  the worn gear set, the attack timer (negative idle values shown as 0) and the freeze.
- Pending hits: the ``HIT_PENDING`` slots of the hit queue, damage after the defender's protection
  prayer, before the hitpoints cap.
- Hitsplats: the queue frees a slot as its hit lands, and a slot freed this tick may be reused by an
  attack in the same tick, so one record cannot tell what landed. They are derived from the previous
  record: its pending hits due by this tick (the queue lands every due hit in the tick, except a
  Vengeance reflection queued after its target's turn, which stays pending and lands next tick),
  plus the reflections queued and landed within this tick (free slots flagged as reflections and due
  this tick). Each target's splats are capped in landing order so that they add up to the change of
  its ``damage_taken`` tally, as the hitpoints cap does at a death. Without ``previous``: none.
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

from osrs_rl.core import prayers as P
from osrs_rl.core import styles as S
from osrs_rl.core.collision import make_arena
from osrs_rl.core.consumables import load_consumables
from osrs_rl.core.equipment import SLOT_NAMES
from osrs_rl.core.line_of_sight import has_line_of_sight
from osrs_rl.core.movement import in_melee_reach
from osrs_rl.core.pending_hits import HIT_FREE, HIT_PENDING
from osrs_rl.core.skills import HITPOINTS, PRAYER, SKILL_NAMES
from osrs_rl.data import tables
from osrs_rl.encounters.pvp import state as ST
from osrs_rl.encounters.pvp.loadouts import POTION_SLOTS, build_names
from osrs_rl.encounters.pvp.mechanics import FLAG_REFLECTED
from osrs_rl.encounters.pvp.scripted import TIER_NAMES

COLORS = ("#3b82f6", "#ef4444")
HIT_STYLE_NAMES = ("melee", "ranged", "magic", "typeless")     # core.pending_hits.STYLE_*
# overhead icons in the order the game shows one (only one overhead is on at a time)
_OVERHEAD_BITS = ((P.PROTECT_FROM_MELEE, "melee"), (P.PROTECT_FROM_MISSILES, "missiles"),
                  (P.PROTECT_FROM_MAGIC, "magic"), (P.SMITE, "smite"), (P.REDEMPTION, "redemption"),
                  (P.RETRIBUTION, "retribution"))
OUTCOME_NAMES = {ST.OUTCOME_WIN: "win", ST.OUTCOME_LOSS: "loss", ST.OUTCOME_DRAW: "draw"}
PHASES = ("under_100_ticks", "100_to_200_ticks", "over_200_ticks")   # view.PHASE_NAMES, by tick


@cache
def _arena_flags() -> np.ndarray:
    return make_arena(ST.ARENA + 2, ST.ARENA + 2, border=1)


@cache
def _consumable_names() -> tuple[str, ...]:
    return load_consumables().names


def _id(i: int) -> str:
    return f"p{i}"


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
        "pending_hits": [_hit(h) for h in s["hits"] if h["state"] == HIT_PENDING],
        "hitsplats": [] if previous is None else _hitsplats(s, previous),
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


def _overhead(p) -> str | None:
    mask = int(p["active_prayers"])
    for bit, name in _OVERHEAD_BITS:
        if mask >> bit & 1:
            return name
    return None


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
            "overhead": _overhead(p), "style": _style(cfg, pl), "attack_timer": max(int(p["attack_timer"]), 0),
            "frozen": int(p["freeze_ticks"]), "color": COLORS[i], "notes": notes}


def _name(s, i: int) -> str:
    if i == 0:
        return "player 0"
    if int(s["opponent_kind"]) == ST.OPPONENT_SCRIPTED:
        return f"player 1 (scripted {TIER_NAMES[int(s['opponent_tier'])]})"
    return f"player 1 (policy slot {int(s['opponent_slot'])})"


def _hit(h) -> dict:
    return {"from": _id(int(h["attacker"])), "to": _id(int(h["target"])), "style": HIT_STYLE_NAMES[int(h["style"])],
            "damage": int(h["damage"]), "due_tick": int(h["due_tick"])}


def _same_hit(a, b) -> bool:
    return all(a[k] == b[k] for k in ("due_tick", "seq", "damage", "attacker", "target", "flags"))


def _hitsplats(s, prev) -> list[dict]:
    tick = int(s["tick"])
    if tick == 0:
        return []
    landed = []
    for k, h in enumerate(prev["hits"]):
        now = s["hits"][k]
        if h["state"] == HIT_PENDING and h["due_tick"] <= tick and not (now["state"] == HIT_PENDING
                                                                        and _same_hit(now, h)):
            landed.append(h)
    for h in s["hits"]:
        if h["state"] == HIT_FREE and h["due_tick"] == tick and int(h["flags"]) & FLAG_REFLECTED:
            landed.append(h)            # a reflection queued and landed within this tick
    landed.sort(key=lambda h: (int(h["due_tick"]), int(h["seq"])))
    budget = [int(s["players"][i]["damage_taken"]) - int(prev["players"][i]["damage_taken"]) for i in range(2)]
    out = []
    for h in landed:
        target = int(h["target"])
        damage = min(int(h["damage"]), max(budget[target], 0))
        budget[target] -= damage
        out.append({"on": _id(target), "damage": damage, "kind": "hit" if damage > 0 else "block"})
    return out


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
    items = tables.items()
    equipment = {SLOT_NAMES[k]: items.name(int(v)) for k, v in enumerate(p["equipment"]) if v >= 0}
    timers = {"attack": max(int(p["attack_timer"]), 0), "food": int(p["food_timer"]),
              "potion": int(p["potion_timer"]), "karambwan": int(p["karambwan_timer"]),
              "freeze": int(p["freeze_ticks"]), "freeze_immunity": int(p["freeze_immunity_ticks"]),
              "vengeance_cooldown": int(pl["vengeance_cooldown"])}
    if int(s["pid_timer"]) >= 0:
        timers["pid_reshuffle"] = int(s["pid_timer"])
    mask = int(p["active_prayers"])
    return {
        "agent": _id(i),
        "hp": [int(p["levels"][HITPOINTS]), int(p["base_levels"][HITPOINTS])],
        "prayer": [int(p["levels"][PRAYER]), int(p["base_levels"][PRAYER])],
        "run_energy": int(p["run_energy"]) / 100.0,
        "spec": float(p["spec_energy"]),
        "prayers": [P.PRAYER_NAMES[b] for b in range(P.NUM_PRAYERS) if mask >> b & 1],
        "inventory": inventory,
        "equipment": equipment,
        "stats": {name: [int(p["levels"][k]), int(p["base_levels"][k])] for k, name in enumerate(SKILL_NAMES)},
        "timers": timers,
    }
