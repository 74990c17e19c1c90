"""Zulrah as a scene (format: ``osrs_rl.replay.scene``), read from its state and config records only.

- Coordinates are the encounter's local tiles (``rotations.ORIGIN`` subtracted). The arena is the box
  around the platform and Zulrah's four spots; every tile the platform's collision map blocks (the
  water, the shrine's outside) is ``blocked``.
- Entities: ``player`` (style of the worn set, overhead, attack timer; the magma stun as ``stunned``,
  its own field: a stunned player can neither move nor attack, unlike a frozen one; ``frozen`` stays 0),
  ``zulrah`` (5x5 at its spot, coloured by form: serpentine green, magma red, tanzanite blue; its
  ``style`` is the form's, in the Jad phase the next shot's; ``attack_timer`` counts the ticks to its
  next action of any kind, 1 = the next tick; notes say surfacing, diving, Jad), ``snakeling_<slot>``
  (variant, lock and life in the notes). A snakeling that died this tick is drawn once more at 0 hp
  so its killing hitsplat has somewhere to be (``hits.py``).
- Hits in flight and hitsplats: ``hits.py`` (hitsplats need ``previous``).
- Objects: venom clouds (3x3, ticks left), the magma stand's stared tile (``target``, with the
  ticks to the slam) and, in magma phases, the melee safespots (``safespot``).
- Overlays: ``danger`` = tiles a cloud covers (it hurts from the tick after its volley, drawn at
  once) and the 3x3 of a pending slam less its safe tiles; ``line_of_sight`` = platform tiles from
  which the worn weapon reaches Zulrah (``mechanics.can_attack_zulrah``'s rule: within range with a clear
  line past the pillars), while it is above water (empty during the dive: it moves when it surfaces).
- Phase: ``phase <k> <form>@<spot>`` (``jad@<spot>`` in the Jad phase), plus the rotation once the
  phases seen single it out; outcome ``win`` on a kill, ``loss`` on a death, else None.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from osrs_rl.core import prayers as P
from osrs_rl.core import styles as S
from osrs_rl.core.consumables import load_consumables
from osrs_rl.core.equipment import SLOT_NAMES
from osrs_rl.core.line_of_sight import has_line_of_sight
from osrs_rl.core.pending_hits import HIT_PENDING
from osrs_rl.core.skills import HITPOINTS, PRAYER, SKILL_NAMES
from osrs_rl.data import tables
from osrs_rl.encounters.zulrah import hits as H
from osrs_rl.encounters.zulrah import rotations as RT
from osrs_rl.encounters.zulrah import state as ST

FORM_COLORS = ("#2f9e44", "#e03131", "#1c7ed6")        # serpentine, magma, tanzanite
PLAYER_COLOR = "#fab005"
SNAKELING_COLORS = ("#a0522d", "#9c36b5")              # melee, magic
FORM_STYLES = ("ranged", "melee", "magic")             # magma: the slam
OUTCOMES = {ST.OUTCOME_KILL: "win", ST.OUTCOME_DEATH: "loss"}
_OVERHEADS = ((P.PROTECT_FROM_MAGIC, "magic"), (P.PROTECT_FROM_MISSILES, "missiles"), (P.PROTECT_FROM_MELEE, "melee"))
_POTIONS = (ST.SUP_PRAYER, ST.SUP_ANTIVENOM, ST.SUP_RANGED_BOOST, ST.SUP_MAGIC_BOOST)


def scene(s, cfg, agent: int = 0, previous=None) -> dict:
    walkable = cfg["collision"] == 0
    return {
        "encounter": "zulrah",
        "tick": int(s["tick"]),
        "phase": _phase_label(s, cfg),
        "outcome": OUTCOMES.get(int(s["outcome"])),
        "arena": _arena(cfg, walkable),
        # drawn in this order: a snakeling that fell this tick over the living, the player on top
        "entities": [_zulrah(s, cfg)] + _snakelings(s) + _fallen(s, previous) + [_player(s, cfg)],
        "pending_hits": H.pending_hits(s),
        "hitsplats": H.hitsplats(s, previous, cfg),
        "objects": _objects(s, cfg),
        "overlays": {"line_of_sight": _reach_tiles(s, cfg, walkable), "danger": _danger_tiles(s, cfg, walkable)},
        "panels": [_panel(s, cfg)],
    }


# ---- Zulrah's clock -------------------------------------------------------------------------------
def _dive_tick(s, cfg) -> int:
    return int(cfg["phase_ticks"][int(s["rotation"]), int(s["phase"])]) - RT.DIVE_TICKS


def _is_jad(s, cfg) -> bool:
    return bool(cfg["phase_jad"][int(s["rotation"]), int(s["phase"])])


def _next_action(s, cfg, code=None) -> tuple[int | None, int, int]:
    """(ticks until Zulrah's next action, 1 = the next tick; its code; its argument), or (None, ACT_NONE, 0)
    when none is left this phase. ``code``: the next action of that kind only."""
    r, ph, now = int(s["rotation"]), int(s["phase"]), int(s["phase_tick"])
    for t in range(now, _dive_tick(s, cfg)):
        c = int(cfg["timeline"][r, ph, t])
        if c != RT.ACT_NONE and (code is None or c == code):
            return t - now + 1, c, int(cfg["timeline_arg"][r, ph, t])
    return None, RT.ACT_NONE, 0


def _phase_label(s, cfg) -> str:
    r, ph = int(s["rotation"]) % RT.NUM_ROTATIONS, int(s["phase"])
    form = "jad" if _is_jad(s, cfg) else RT.FORM_NAMES[int(s["form"])]
    label = f"{ph + 1}: {form}@{RT.SPOT_NAMES[int(s['spot'])]}"
    if ph >= int(cfg["identify_phase"][r]):
        label += f" (rotation {RT.ROTATION_NAMES[r]})"
    return label


# ---- arena and entities -------------------------------------------------------------------------
def _arena(cfg, walkable) -> dict:
    xs, ys = np.nonzero(walkable)
    spots = cfg["spot_tiles"]
    x0, y0 = int(min(xs.min(), spots[:, 0].min())), int(min(ys.min(), spots[:, 1].min()))
    x1 = int(max(xs.max(), spots[:, 0].max() + RT.ZULRAH_SIZE - 1))
    y1 = int(max(ys.max(), spots[:, 1].max() + RT.ZULRAH_SIZE - 1))
    blocked = [[x, y] for x in range(x0, x1 + 1) for y in range(y0, y1 + 1) if not walkable[x, y]]
    return {"x0": x0, "y0": y0, "width": x1 - x0 + 1, "height": y1 - y0 + 1, "blocked": blocked}


def _overhead(p) -> str | None:
    mask = int(p["active_prayers"])
    return next((name for bit, name in _OVERHEADS if mask >> bit & 1), None)


def _player(s, cfg) -> dict:
    p = s["p"]
    tier, worn = int(s["tier"]), int(s["set"])
    kind = int(cfg["set_combat"][tier, worn]["attack_type"])
    notes = [f"{ST.TIER_NAMES[tier]} gear, {ST.SET_NAMES[worn]} set, reach {int(cfg['set_range'][tier, worn])}"]
    if int(s["stun"]) > 0:
        notes.append(f"stunned {int(s['stun'])}")
    if int(p["poison_damage"]) > 0:
        what = "venom" if p["venom"] else "poison"
        notes.append(f"{what}: {int(p['poison_damage'])} in {int(p['poison_timer'])}")
    if cfg["safespot"][int(p["x"]), int(p["y"])]:
        notes.append("on a melee safespot")
    if int(p["levels"][HITPOINTS]) <= 0:
        notes.append("dead")
    return {"id": "player", "name": "player", "kind": "player", "x": int(p["x"]), "y": int(p["y"]), "size": 1,
            "hp": int(p["levels"][HITPOINTS]), "max_hp": int(p["base_levels"][HITPOINTS]), "overhead": _overhead(p),
            "style": "magic" if kind == S.MAGIC else "ranged", "attack_timer": max(int(p["attack_timer"]), 0),
            "frozen": 0, "stunned": int(s["stun"]), "color": PLAYER_COLOR, "notes": notes}


def _zulrah_state_note(s, cfg) -> str:
    now, dive = int(s["phase_tick"]), _dive_tick(s, cfg)
    if int(s["z_hp"]) <= 0:
        return "dead: its attacks in flight still land"
    if now >= dive:
        return f"diving: untargetable, surfaces in {dive + RT.DIVE_TICKS - now}"
    ready = RT.targetable_tick(int(s["rotation"]), int(s["phase"]))
    if now < ready:
        return f"surfacing: untargetable for {ready - now}"
    if s["stalled"]:
        return "targetable; holding its attack (no line of sight to the player)"
    return "targetable"


def _zulrah(s, cfg) -> dict:
    form = int(s["form"])
    wait, code, _ = _next_action(s, cfg)
    style = FORM_STYLES[form]
    notes = ["Jad phase: ranged and magic alternate" if _is_jad(s, cfg) else f"{RT.FORM_NAMES[form]} form"]
    if _is_jad(s, cfg):
        style = "ranged" if code == RT.ACT_RANGED else "magic" if code == RT.ACT_MAGIC else None
    elif form == RT.TANZANITE:
        notes.append("each shot ranged with p 3/10")
    notes.append(_zulrah_state_note(s, cfg))
    last = int(s["last_action"])
    if last != RT.ACT_NONE:
        shot = last in (RT.ACT_RANGED, RT.ACT_MAGIC, RT.ACT_TANZANITE)
        what = f"{H.HIT_STYLE_NAMES[int(s['last_style'])]} shot" if shot else RT.ACT_NAMES[last]
        notes.append(f"this tick: {what}")
    if wait is not None:
        notes.append(f"next: {RT.ACT_NAMES[code]} in {wait}")
    hp = int(s["z_hp"])
    if hp <= 0:
        notes.append("dead")
    return {"id": "zulrah", "name": ST.NPC_NAMES[form], "kind": "npc", "x": int(s["zx"]), "y": int(s["zy"]),
            "size": RT.ZULRAH_SIZE, "hp": max(hp, 0), "max_hp": int(cfg["npc_rows"][form]["hitpoints"]),
            "overhead": None, "style": style, "attack_timer": wait, "frozen": 0, "color": FORM_COLORS[form],
            "notes": notes}


def _snakeling(eid: str, sn, hp: int, notes: list[str]) -> dict:
    kind = int(sn["kind"])
    return {"id": eid, "name": ST.NPC_NAMES[ST.NPC_SNAKELING_MELEE + kind], "kind": "npc", "x": int(sn["x"]),
            "y": int(sn["y"]), "size": 1, "hp": hp, "max_hp": 1, "overhead": None,
            "style": "magic" if kind == 1 else "melee", "attack_timer": max(int(sn["attack_timer"]), 0),
            "frozen": 0, "color": SNAKELING_COLORS[kind], "notes": notes}


def _snakelings(s) -> list[dict]:
    out = []
    for k, sn in enumerate(s["snakelings"]):
        if sn["active"]:
            notes = [f"life {int(sn['life'])}"] + ([f"locked {int(sn['lock'])}"] if int(sn["lock"]) > 0 else [])
            out.append(_snakeling(H.snakeling_id(k), sn, 1, notes))
    return out


def _fallen(s, prev) -> list[dict]:
    if prev is None or int(s["tick"]) == 0:
        return []
    return [_snakeling(eid, prev["snakelings"][k], 0, [_why_gone(s, prev, k)])
            for k, eid in H.fallen_snakelings(s, prev).items()]


def _why_gone(s, prev, k: int) -> str:
    if int(s["snakelings_killed"]) > int(prev["snakelings_killed"]) and any(
            h["state"] == HIT_PENDING and int(h["target"]) == 2 + k and int(h["damage"]) > 0
            and int(h["due_tick"]) <= int(s["tick"]) for h in prev["hits"]):
        return "killed"
    if int(s["outcome"]) == ST.OUTCOME_KILL:
        return "died with Zulrah"
    return "expired" if int(prev["snakelings"][k]["life"]) <= 1 else "gone"


# ---- objects and overlays ------------------------------------------------------------------------
def _clouds(s):
    return [c for c in s["clouds"] if c["active"]]


def _slam_tiles(s, cfg) -> list[tuple[int, int]]:
    """The 3x3 a pending slam hits, less the tiles it spares (mechanics._magma)."""
    if not s["magma_on"]:
        return []
    _, _, k = _next_action(s, cfg, RT.ACT_MAGMA_SLAM)
    spared = RT.FIRST_SLAM_SAFE_TILE if k == 0 and int(s["rotation"]) % RT.NUM_ROTATIONS <= 1 else None
    mx, my = int(s["magma_x"]), int(s["magma_y"])
    return [(x, y) for x in range(mx - 1, mx + 2) for y in range(my - 1, my + 2)
            if not cfg["safespot"][x, y] and (x, y) != spared]


def _objects(s, cfg) -> list[dict]:
    out = [{"kind": "cloud", "x": int(c["x"]) - 1, "y": int(c["y"]) - 1, "size": 3,
            "label": f"cloud {int(c['life'])}" + (" new" if c["fresh"] else "")} for c in _clouds(s)]
    if s["magma_on"]:
        wait, _, _ = _next_action(s, cfg, RT.ACT_MAGMA_SLAM)
        out.append({"kind": "target", "x": int(s["magma_x"]), "y": int(s["magma_y"]), "size": 1,
                    "label": f"slam {wait}" if wait is not None else "slam"})
    if int(s["form"]) == RT.MAGMA:
        out += [{"kind": "safespot", "x": int(x), "y": int(y), "size": 1, "label": "safe"}
                for x, y in np.argwhere(cfg["safespot"])]
    return out


def _danger_tiles(s, cfg, walkable) -> list[list[int]]:
    tiles = {(int(c["x"]) + dx, int(c["y"]) + dy) for c in _clouds(s) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    tiles |= set(_slam_tiles(s, cfg))
    return [[x, y] for x, y in sorted(tiles) if walkable[x, y]]


def _reach_tiles(s, cfg, walkable) -> list[list[int]]:
    if int(s["phase_tick"]) >= _dive_tick(s, cfg) or int(s["z_hp"]) <= 0:
        return []
    reach = int(cfg["set_range"][int(s["tier"]), int(s["set"])])
    zx, zy = int(s["zx"]), int(s["zy"])
    flags = cfg["collision"]
    return [[int(x), int(y)] for x, y in np.argwhere(walkable)
            if has_line_of_sight(flags, int(x), int(y), 1, zx, zy, RT.ZULRAH_SIZE, reach)]


# ---- the side panel -------------------------------------------------------------------------------
@cache
def _consumable_names() -> tuple[str, ...]:
    return load_consumables().names


def _panel(s, cfg) -> dict:
    p = s["p"]
    tier = int(s["tier"])
    names = _consumable_names()
    inventory = [[names[int(cfg["supply_consumable"][tier, k])] + (" (doses)" if k in _POTIONS else ""),
                  int(s["supplies"][k])] for k in range(ST.NUM_SUPPLIES)]
    items = tables.items()
    mask = int(p["active_prayers"])
    return {
        "agent": "player",
        "hp": [int(p["levels"][HITPOINTS]), int(p["base_levels"][HITPOINTS])],
        "prayer": [int(p["levels"][PRAYER]), int(p["base_levels"][PRAYER])],
        "run_energy": int(p["run_energy"]) / 100.0,
        "spec": float(p["spec_energy"]),
        "prayers": [P.PRAYER_NAMES[b] for b in range(P.NUM_PRAYERS) if mask >> b & 1],
        "inventory": inventory,
        "equipment": {SLOT_NAMES[k]: items.name(int(v)) for k, v in enumerate(p["equipment"]) if v >= 0},
        "stats": {name: [int(p["levels"][k]), int(p["base_levels"][k])] for k, name in enumerate(SKILL_NAMES)},
        "timers": {"attack": max(int(p["attack_timer"]), 0), "food": max(int(p["food_timer"]), 0),
                   "potion": max(int(p["potion_timer"]), 0), "stun": int(s["stun"]),
                   "venom_hit": int(p["poison_timer"]) if int(p["poison_damage"]) > 0 else 0,
                   "venom_immunity": int(p["venom_immunity_ticks"])},
    }
