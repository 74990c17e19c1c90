"""OPTIONAL (render, view, play). The Inferno as a scene (format: ``osrs_rl.replay.scene``), read from
its records only.

The arena in the encounter's local frame (``arena``: x east, y north, every entity by its south-west
tile), the whole grid so that the Zuk wave's north (the glyph, Zuk, his healers) fits; tiles off the floor
are ``blocked``. The player, every monster in a slot (alive, or underground while it digs) and every
standing pillar are entities, so hitsplats on any of them, and hits in flight between them, have somewhere
to go. Hitsplats come from the tick's event buffer; in-flight hits name their style and landing tick (the
viewer shows no damage before a hit lands). Objects: lava sparks in the air (``spark`` on their 3x3,
labelled with the ticks to landing) and, on the Zuk wave, the floor tiles the glyph shelters from Zuk now
(``shelter``). Overlays: ``danger``, the tiles next to a monster that can melee, and ``line_of_sight``
stays empty (sight in the Inferno depends on each monster's footprint and the standing pillars; the
kernels own that rule and the scene does not guess it).
"""

from osrs_rl.core.pending_hits import HIT_PENDING
from osrs_rl.core.skills import HITPOINTS
from osrs_rl.runtime import scene_parts as SP

from . import arena as A
from . import state as ST
from . import waves as W

X0, Y0, WIDTH, HEIGHT = 0, 0, A.GRID_W, A.GRID_H   # the grid: the floor, its edge and Zuk's side
PLAYER_COLOR, PILLAR_COLOR = "#3b82f6", "#78716c"
KIND_COLOR = {ST.K_NIBBLER: "#a16207", ST.K_BAT: "#65a30d", ST.K_BLOB: "#7c3aed", ST.K_BLOBLET_MAGIC: "#2563eb",
              ST.K_BLOBLET_RANGED: "#16a34a", ST.K_BLOBLET_MELEE: "#dc2626", ST.K_MELEER: "#b91c1c",
              ST.K_RANGER: "#15803d", ST.K_MAGER: "#1d4ed8", ST.K_JAD: "#ea580c", ST.K_JAD_HEALER: "#fb923c",
              ST.K_ZUK: "#7f1d1d", ST.K_SHIELD: "#facc15", ST.K_ZUK_HEALER: "#f97316"}
STYLE_NAMES = ("melee", "ranged", "magic")     # core.pending_hits STYLE_* (typeless has no entity style)
PHASES = tuple(n.replace("_", " ") for n in ST.PHASE_NAMES)


def _blocked() -> list[list[int]]:
    floor = A.base_walkable()
    return [[x, y] for x in range(X0, X0 + WIDTH) for y in range(Y0, Y0 + HEIGHT) if not floor[x, y]]


_BLOCKED = _blocked()


def _entity_name(s, ent: int) -> str | None:
    """The scene id of event/hit entity ``ent`` (state.ENT_*), or None when it is not drawn."""
    if ent == ST.ENT_PLAYER:
        return "player"
    if ST.ENT_MONSTER <= ent < ST.ENT_PILLAR:
        k = ent - ST.ENT_MONSTER
        return f"slot_{k}" if int(s["monsters"][k]["state"]) == ST.SLOT_ALIVE or int(s["monsters"][k]["dig_left"]) > 0 \
            else None
    p = ent - ST.ENT_PILLAR
    return f"pillar_{A.PILLAR_NAMES[p]}" if 0 <= p < A.NUM_PILLARS and int(s["pillar_hp"][p]) > 0 else None


def _phase(s, cfg) -> str:
    from . import finale as FIN

    return PHASES[int(FIN.phase_of(s, cfg))]


def _shelter(s, cfg) -> list[list[int]]:
    """The floor tiles the glyph shelters now (finale.sheltered's rule), on the Zuk wave."""
    from . import finale as FIN

    g = s["monsters"][FIN.SHIELD_SLOT]
    if int(s["wave"]) < W.ZUK_WAVE or int(g["state"]) != ST.SLOT_ALIVE or int(g["kind"]) != ST.K_SHIELD:
        return []
    x0, x1, y0, y1 = (int(v) for v in FIN.shelter_box(cfg, int(g["x"]), int(g["y"])))
    return [[x, y] for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)
            if A.ARENA_X[0] <= x <= A.ARENA_X[1] and A.ARENA_Y[0] <= y <= A.ARENA_Y[1]]


def scene(s, cfg, agent: int = 0, previous=None) -> dict:
    p = s["p"]
    outcome = {ST.OUTCOME_CLEARED: "win", ST.OUTCOME_DEATH: "loss", ST.OUTCOME_TIMEOUT: "draw"}.get(
        int(s["outcome"]))
    entities = [{
        "id": "player", "name": "player", "kind": "player", "x": int(p["x"]), "y": int(p["y"]), "size": 1,
        "hp": int(p["levels"][HITPOINTS]), "max_hp": int(p["base_levels"][HITPOINTS]),
        "overhead": SP.overhead_name(p["active_prayers"]),
        "style": "magic" if int(s["gear_set"]) == ST.SET_MAGIC else "ranged",
        "attack_timer": max(int(p["attack_timer"]), 0), "frozen": 0, "color": PLAYER_COLOR,
        "notes": [f"wave {int(s['wave'])}", ST.SET_NAMES[int(s["gear_set"])]]
        + ([f"{'running' if int(s['dest_run']) else 'walking'} to ({int(s['dest_x'])}, {int(s['dest_y'])})"]
           if int(s["dest_x"]) >= 0 else [])}]
    danger = []
    for k in range(ST.MONSTER_SLOTS):
        m = s["monsters"][k]
        digging = int(m["dig_left"]) > 0
        if int(m["state"]) != ST.SLOT_ALIVE and not digging:
            continue
        kind = int(m["kind"])
        size = int(cfg["kind_size"][kind])
        style = int(cfg["kind_style"][kind])
        notes = [ST.ACTIVITY_NAMES[int(m["activity"])]] if int(m["activity"]) else []
        if digging:
            notes.append(f"underground {int(m['dig_left'])}")
        if int(m["revived"]):
            notes.append("revived")
        entities.append({
            "id": f"slot_{k}", "name": ST.KIND_NPC[kind], "kind": "npc", "x": int(m["x"]), "y": int(m["y"]),
            "size": size, "hp": max(int(m["hp"]), 0), "max_hp": int(cfg["kind_row"][kind]["hitpoints"]),
            "overhead": None, "style": STYLE_NAMES[style] if 0 <= style < 3 else None,
            "attack_timer": max(int(m["attack_timer"]), 0), "frozen": max(int(m["frozen"]), 0),
            "stunned": max(int(m["stun"]), 0), "color": KIND_COLOR.get(kind, "#525252"), "notes": notes})
        if not digging and (int(cfg["kind_melee"][kind]) or int(cfg["kind_range"][kind]) == 1):
            x, y = int(m["x"]), int(m["y"])    # melee reach: edge contact, no diagonal
            danger += [[x + i, y - 1] for i in range(size)] + [[x + i, y + size] for i in range(size)]
            danger += [[x - 1, y + j] for j in range(size)] + [[x + size, y + j] for j in range(size)]
    for k in range(A.NUM_PILLARS):
        hp = int(s["pillar_hp"][k])
        if hp > 0:
            x, y = A.PILLARS[k]
            entities.append({
                "id": f"pillar_{A.PILLAR_NAMES[k]}", "name": f"{A.PILLAR_NAMES[k]} pillar", "kind": "npc", "x": x,
                "y": y, "size": A.PILLAR_SIZE, "hp": hp, "max_hp": A.PILLAR_HP, "overhead": None, "style": None,
                "attack_timer": None, "frozen": 0, "color": PILLAR_COLOR, "notes": []})
    pending = []
    for h in s["hits"]:
        if int(h["state"]) != HIT_PENDING:
            continue
        source, target = _entity_name(s, int(h["attacker"])), _entity_name(s, int(h["target"]))
        if source is not None and target is not None:
            hit = SP.pending_hit(h, source, target)
            hit["damage"] = None       # only the projectile and its style show before it lands
            pending.append(hit)
    supplies = [[item, int(s["supplies"][k])] for k, item in enumerate(ST.SUPPLY_ITEMS)]
    return {
        "tick": int(s["tick"]),
        "phase": _phase(s, cfg),
        "outcome": outcome,
        "arena": {"x0": X0, "y0": Y0, "width": WIDTH, "height": HEIGHT, "blocked": _BLOCKED},
        "entities": entities,
        "pending_hits": pending,
        "hitsplats": SP.hitsplats(s, lambda ent: _entity_name(s, ent)),
        "objects": [{"kind": "spark", "x": int(sp["x"]) - 1, "y": int(sp["y"]) - 1, "size": 3,
                     "label": f"lands in {int(sp['due_tick']) - int(s['tick'])}"}
                    for sp in s["sparks"] if int(sp["due_tick"]) > 0]
        + [{"kind": "shelter", "x": x, "y": y, "size": 1, "label": "glyph shelter"} for x, y in _shelter(s, cfg)],
        "overlays": {"line_of_sight": [], "danger": [list(t) for t in sorted({tuple(t) for t in danger})]},
        "panels": [SP.player_panel("player", p, supplies, {"next wave": max(int(s["next_wave_in"]), 0)})],
    }
