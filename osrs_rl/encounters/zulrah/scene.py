"""Zulrah as a scene (format: ``osrs_rl.replay.scene``), read from its state and config records only.

- Coordinates are the encounter's local tiles (``rotations.ORIGIN`` subtracted). The arena is the box
  around the platform and Zulrah's four spots; every tile the platform's collision map blocks (the
  water, the shrine's outside) is ``blocked``.
- Entities: ``player`` (style of the worn set, overhead, attack timer; the magma stun as ``stunned``,
  its own field: a stunned player can neither move nor attack, unlike a frozen one; ``frozen`` stays 0),
  ``zulrah`` (5x5 at its spot, coloured by form: serpentine green, magma red, tanzanite blue; its
  ``style`` is the form's, in the Jad phase the next shot's; ``attack_timer`` counts the ticks to its
  next action of any kind, 1 = the next tick; notes say surfacing, diving, Jad), ``snakeling_<slot>``
  (variant, lock and life in the notes). A snakeling that died this tick (an ``EV_DEATH`` event, at
  the tile and with the variant it had) is drawn once more at 0 hp so its killing hitsplat has
  somewhere to be; ``snakeling_<slot>_old`` when a new one took its slot in the same tick.
- Hits in flight: the queue's ``HIT_PENDING`` slots, from the entity ``hit_source`` names (the
  snakeling slot that threw it); a hit whose thrower or target is gone is left out.
- Hitsplats: the state's event buffer (``core.events``): every hit the tick landed, on the player
  (Zulrah's, a snakeling's, the slam, each cloud, venom), on Zulrah and on snakelings, in the order
  they landed, with the damage dealt; a miss or a prayer-blocked attack is a blue 0.
- Objects: venom clouds (3x3, ticks left), the magma stand's stared tile (``target``, with the
  ticks to the slam) and, in magma phases, the melee safespots (``safespot``).
- Overlays: ``danger`` = tiles a cloud covers (it hurts from the tick after its volley, drawn at
  once) and the 3x3 of a pending slam less its safe tiles; ``line_of_sight`` = platform tiles from
  which the worn weapon reaches Zulrah (``mechanics.can_attack_zulrah``'s rule: within range with a clear
  line past the pillars), while it is above water (empty during the dive: it moves when it surfaces).
- Zulrah's clock is read from the state and the mechanics' own helpers (``mechanics.dive_tick``,
  ``targetable_from``, ``spot_sees``, ``slam_spares``) and the rotation's timeline in the config.
- Phase: ``phase <k> <form>@<spot>`` (``jad@<spot>`` in the Jad phase), plus the rotation once the
  phases seen single it out; outcome ``win`` on a kill, ``loss`` on a death, else None.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from osrs_rl.core import styles as S
from osrs_rl.core.consumables import load_consumables
from osrs_rl.core.events import EV_DEATH, EVF_KILLED, live_events
from osrs_rl.core.pending_hits import HIT_PENDING, STYLE_MAGIC
from osrs_rl.core.skills import HITPOINTS
from osrs_rl.runtime import scene_parts as SP

from . import mechanics as M
from . import rotations as RT
from . import state as ST

FORM_COLORS = ("#2f9e44", "#e03131", "#1c7ed6")        # serpentine, magma, tanzanite
PLAYER_COLOR = "#fab005"
SNAKELING_COLORS = ("#a0522d", "#9c36b5")              # melee, magic
FORM_STYLES = ("ranged", "melee", "magic")             # magma: the slam
OUTCOMES = {ST.OUTCOME_KILL: "win", ST.OUTCOME_DEATH: "loss"}
_POTIONS = (ST.SUP_PRAYER, ST.SUP_ANTIVENOM, ST.SUP_RANGED_BOOST, ST.SUP_MAGIC_BOOST)


def scene(s, cfg, agent: int = 0, previous=None) -> dict:
    walkable = cfg["collision"] == 0
    fallen = _fallen_now(s)
    return {
        "encounter": "zulrah",
        "tick": int(s["tick"]),
        "phase": _phase_label(s, cfg),
        "outcome": OUTCOMES.get(int(s["outcome"])),
        "arena": _arena(cfg, walkable),
        # drawn in this order: a snakeling that fell this tick over the living, the player on top
        "entities": [_zulrah(s, cfg)] + _snakelings(s) + _fallen(fallen) + [_player(s, cfg)],
        "pending_hits": _pending_hits(s),
        "hitsplats": SP.hitsplats(s, lambda entity: _name_now(s, fallen, entity)),
        "objects": _objects(s, cfg),
        "overlays": {"line_of_sight": _reach_tiles(s, cfg, walkable), "danger": _danger_tiles(s, cfg, walkable)},
        "panels": [_panel(s, cfg)],
    }


# ---- Zulrah's clock -------------------------------------------------------------------------------
def _dive_tick(s, cfg) -> int:
    return int(M.dive_tick(s, cfg))


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


def snakeling_id(k: int) -> str:
    return f"snakeling_{k}"


def _fallen_now(s) -> dict[int, tuple[str, object]]:
    """Slot -> (entity id, death event) of each snakeling that died in the tick that produced ``s``."""
    out = {}
    for e in live_events(s):
        k = int(e["source"]) - ST.ENT_SNAKELING
        if int(e["kind"]) == EV_DEATH and 0 <= k < ST.SNAKELING_SLOTS:
            out[k] = (snakeling_id(k) + ("_old" if s["snakelings"][k]["active"] else ""), e)
    return out


def _name_now(s, fallen, entity: int) -> str | None:
    """The scene id of entity ``entity`` (state.ENT_*) in this tick's picture, None if it is not in it."""
    if entity == ST.ENT_PLAYER:
        return "player"
    if entity == ST.ENT_ZULRAH:
        return "zulrah"
    k = entity - ST.ENT_SNAKELING
    if 0 <= k < ST.SNAKELING_SLOTS:
        if k in fallen:
            return fallen[k][0]
        return snakeling_id(k) if s["snakelings"][k]["active"] else None
    return None


def _pending_hits(s) -> list[dict]:
    out = []
    for i, h in enumerate(s["hits"]):
        if h["state"] != HIT_PENDING:
            continue
        source, target = _live(s, int(s["hit_source"][i])), _live(s, int(h["target"]))
        if source is not None and target is not None:
            out.append(SP.pending_hit(h, source, target))
    return out


def _live(s, entity: int) -> str | None:
    k = entity - ST.ENT_SNAKELING
    if 0 <= k < ST.SNAKELING_SLOTS:
        return snakeling_id(k) if s["snakelings"][k]["active"] else None
    return {ST.ENT_PLAYER: "player", ST.ENT_ZULRAH: "zulrah"}.get(entity)


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
            "hp": int(p["levels"][HITPOINTS]), "max_hp": int(p["base_levels"][HITPOINTS]),
            "overhead": SP.overhead_name(p["active_prayers"]),
            "style": "magic" if kind == S.MAGIC else "ranged", "attack_timer": max(int(p["attack_timer"]), 0),
            "frozen": 0, "stunned": int(s["stun"]), "color": PLAYER_COLOR, "notes": notes}


def _zulrah_state_note(s, cfg) -> str:
    now, dive = int(s["phase_tick"]), _dive_tick(s, cfg)
    if int(s["z_hp"]) <= 0:
        return "dead: its attacks in flight still land"
    if now >= dive:
        return f"diving: untargetable, surfaces in {dive + RT.DIVE_TICKS - now}"
    ready = int(M.targetable_from(s))
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
        what = f"{SP.HIT_STYLE_NAMES[int(s['last_style'])]} shot" if shot else RT.ACT_NAMES[last]
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
            out.append(_snakeling(snakeling_id(k), sn, 1, notes))
    return out


def _fallen(fallen) -> list[dict]:
    out = []
    for eid, e in fallen.values():
        flags = int(e["flags"])
        why = "killed" if flags & EVF_KILLED else ("died with Zulrah" if flags & ST.EVF_WITH_ZULRAH else "expired")
        kind = 1 if int(e["style"]) == STYLE_MAGIC else 0
        sn = {"kind": kind, "x": int(e["x"]), "y": int(e["y"]), "attack_timer": 0}
        out.append(_snakeling(eid, sn, 0, [why]))
    return out


# ---- objects and overlays ------------------------------------------------------------------------
def _clouds(s):
    return [c for c in s["clouds"] if c["active"]]


def _slam_tiles(s, cfg) -> list[tuple[int, int]]:
    """The 3x3 a pending slam hits, less the tiles it spares (mechanics._magma)."""
    if not s["magma_on"]:
        return []
    _, _, k = _next_action(s, cfg, RT.ACT_MAGMA_SLAM)
    mx, my = int(s["magma_x"]), int(s["magma_y"])
    return [(x, y) for x in range(mx - 1, mx + 2) for y in range(my - 1, my + 2)
            if not M.slam_spares(s, cfg, k, x, y)]


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
    spot = int(s["spot"])
    return [[int(x), int(y)] for x, y in np.argwhere(walkable) if M.spot_sees(cfg, spot, int(x), int(y), reach)]


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
    timers = {"stun": int(s["stun"]), "venom_hit": int(p["poison_timer"]) if int(p["poison_damage"]) > 0 else 0,
              "venom_immunity": int(p["venom_immunity_ticks"])}
    return SP.player_panel("player", p, inventory, timers)
