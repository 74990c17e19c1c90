"""OPTIONAL (render, view, play). The Fight Cave as a scene (format: ``osrs_rl.replay.scene``), read from its records
only.

The whole region grid (arena.py's frame: x east, y north, every entity by its south-west tile); tiles off the floor
(rock and lava alike) are ``blocked``. The player and every monster in a slot are entities; hitsplats come from the
tick's event buffer, hits in flight name their thrower (``hit_source``), their style and landing tick, never their
damage before they land. Overlays: ``danger``, the tiles in melee reach of a monster that melees (edge contact);
``line_of_sight`` stays empty (sight over the cave's rock is the kernels' rule and the scene does not guess it).
"""

from osrs_rl.core.pending_hits import HIT_PENDING
from osrs_rl.core.skills import HITPOINTS
from osrs_rl.runtime import scene_parts as SP

from . import arena as A
from . import state as ST
from . import view as V

PLAYER_COLOR = "#3b82f6"
KIND_COLOR = {ST.K_KIH: "#a16207", ST.K_KEK: "#65a30d", ST.K_KEK_SPLIT: "#84cc16", ST.K_XIL: "#15803d",
              ST.K_MEJKOT: "#b91c1c", ST.K_ZEK: "#1d4ed8", ST.K_JAD: "#ea580c", ST.K_HURKOT: "#fb923c"}
STYLE_NAMES = ("melee", "ranged", "magic")
PHASES = tuple(n.replace("_", " ") for n in ST.PHASE_NAMES)
_BLOCKED = [[x, y] for x in range(A.GRID_W) for y in range(A.GRID_H) if not A.walkable()[x, y]]


def _entity_name(s, ent: int) -> str | None:
    if ent == ST.ENT_PLAYER:
        return "player"
    k = ent - ST.ENT_MONSTER
    if 0 <= k < ST.MONSTER_SLOTS and int(s["monsters"][k]["state"]) == ST.SLOT_ALIVE:
        return f"slot_{k}"
    return None


def _melee_ring(x: int, y: int, size: int) -> list[list[int]]:
    return [[x + i, y - 1] for i in range(size)] + [[x + i, y + size] for i in range(size)] + \
        [[x - 1, y + j] for j in range(size)] + [[x + size, y + j] for j in range(size)]


def scene(s, cfg, agent: int = 0, previous=None) -> dict:
    p = s["p"]
    outcome = {ST.OUTCOME_CLEARED: "win", ST.OUTCOME_DEATH: "loss", ST.OUTCOME_TIMEOUT: "draw"}.get(int(s["outcome"]))
    entities = [{
        "id": "player", "name": "player", "kind": "player", "x": int(p["x"]), "y": int(p["y"]), "size": 1,
        "hp": int(p["levels"][HITPOINTS]), "max_hp": int(p["base_levels"][HITPOINTS]),
        "overhead": SP.overhead_name(p["active_prayers"]), "style": "ranged",
        "attack_timer": max(int(p["attack_timer"]), 0), "frozen": 0, "color": PLAYER_COLOR,
        "notes": [f"wave {int(s['wave'])}", f"kit {ST.KIT_NAMES[int(cfg['kit'])]}"]
        + ([f"{'running' if int(s['dest_run']) else 'walking'} to ({int(s['dest_x'])}, {int(s['dest_y'])})"]
           if int(s["dest_x"]) >= 0 else [])}]
    danger = []
    for k in range(ST.MONSTER_SLOTS):
        m = s["monsters"][k]
        if int(m["state"]) != ST.SLOT_ALIVE:
            continue
        kind = int(m["kind"])
        size = int(cfg["kind_size"][kind])
        notes = []
        if int(m["windup"]) > 0:
            notes.append(f"tell: {STYLE_NAMES[int(m['scan'])]} in {int(m['windup'])}")
        if int(m["target"]) >= 0:
            notes.append("healing")
        entities.append({
            "id": f"slot_{k}", "name": ST.KIND_NPC[kind], "kind": "npc", "x": int(m["x"]), "y": int(m["y"]),
            "size": size, "hp": max(int(m["hp"]), 0), "max_hp": int(cfg["kind_row"][kind]["hitpoints"]),
            "overhead": None, "style": STYLE_NAMES[int(cfg["kind_style"][kind])],
            "attack_timer": max(int(m["attack_timer"]), 0), "frozen": 0, "stunned": max(int(m["stun"]), 0),
            "color": KIND_COLOR[kind], "notes": notes})
        if int(cfg["kind_melee"][kind]) or int(cfg["kind_range"][kind]) == 1:
            danger += _melee_ring(int(m["x"]), int(m["y"]), size)
    pending = []
    for i, h in enumerate(s["hits"]):
        if int(h["state"]) != HIT_PENDING:
            continue
        source, target = _entity_name(s, int(s["hit_source"][i])), _entity_name(s, int(h["target"]))
        if source is not None and target is not None:
            hit = SP.pending_hit(h, source, target)
            hit["damage"] = None
            pending.append(hit)
    supplies = [[item, int(s["supplies"][k])] for k, item in enumerate(ST.SUPPLY_ITEMS)]
    return {
        "tick": int(s["tick"]),
        "phase": PHASES[int(V.phase_of(s))],
        "outcome": outcome,
        "arena": {"x0": 0, "y0": 0, "width": A.GRID_W, "height": A.GRID_H, "blocked": _BLOCKED},
        "entities": entities,
        "pending_hits": pending,
        "hitsplats": SP.hitsplats(s, lambda ent: _entity_name(s, ent)),
        "objects": [],
        "overlays": {"line_of_sight": [], "danger": [list(t) for t in sorted({tuple(t) for t in danger})]},
        "panels": [SP.player_panel("player", p, supplies, {"next wave": max(int(s["next_wave_in"]), 0)})],
    }
