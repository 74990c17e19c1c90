"""Drawing a scene (``osrs_rl.replay.scene``) as a top-down image with Pillow.

    image = render_scene(scene, annotations=["value 0.31"], overlays=("los", "danger"))

Left: the arena, north up, one ``tile_px`` square per tile; blocked tiles dark and hatched. Each entity
is a square of its size in its colour with, inside it: an HP bar (top), its overhead prayer badge
(two letters, top left), its attack timer (top right: the ticks left in a dark disc, a green dot when
ready), its style (bottom left: ``mel`` / ``rng`` / ``mag`` on red / green / blue) and, when frozen, a
cyan border and ``F`` with the ticks left (bottom right), when stunned (cannot move nor attack) an
orange border and ``S`` with the ticks left; a dead entity is crossed out. Each entity is named as the
viewer names it (``scene.entity_labels``: "Jal-Nib #9" where namesakes need telling apart) on a dark tag
inside its box when it fits, else beside it (``name_boxes``). Entities on the
same tiles share them side by side (``entity_box``; a slice too narrow for them drops the attack
timer and ``F`` / ``S`` marks, which the panel's timers still give). Hits in flight
are arrows from attacker to target in the style's colour, labelled with the style only: the game
shows a projectile, not its damage, until it lands (then it is a hitsplat);
hitsplats are discs on the target (red hit, blue 0, green heal). Objects are drawn by kind (cloud:
translucent green, pillar: grey block, shield: yellow frame, target: orange, safespot: white frame).
Overlays are off unless asked for: ``los`` tints the tiles from which the agent could attack (cyan),
``danger`` the tiles where it could be hit (red). Right: a text panel with the tick, phase and
outcome, each player's HP, prayer, run energy, special energy, active prayers, inventory, equipment,
stats and timers, the entities' notes, the hits in flight, any annotation lines (policy outputs) and a
key to the marks (``legend_lines``).
Only Pillow's default font is used.
Writing a replay's frames to PNG, GIF or MP4 is ``export.py`` (``osrs-rl replay render``).
"""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw, ImageFont

from osrs_rl.replay.scene import entity_labels

TILE_PX = 48
PAD = 8
PANEL_W = 360
BACKGROUND = (22, 22, 26)
FLOOR = ((74, 78, 86), (68, 72, 80))            # checkerboard, so single tiles can be counted
BLOCKED = (34, 34, 38)
HATCH = (58, 58, 64)
TEXT = (230, 230, 230)
DIM = (150, 150, 160)
STYLE_COLORS = {"melee": (200, 50, 50), "ranged": (40, 160, 60), "magic": (50, 100, 220), "typeless": (150, 150, 150)}
STYLE_SHORT = {"melee": "mel", "ranged": "rng", "magic": "mag"}
OVERHEAD_BADGES = {"melee": ("Me", (200, 50, 50)), "missiles": ("Ra", (40, 160, 60)), "magic": ("Ma", (50, 100, 220)),
                   "smite": ("Sm", (150, 110, 20)), "redemption": ("Rd", (235, 235, 235)),
                   "retribution": ("Rt", (230, 110, 20))}
SPLAT_COLORS = {"hit": (190, 25, 25), "block": (40, 90, 210), "heal": (40, 160, 60)}
OVERLAY_TINTS = {"line_of_sight": (0, 200, 255, 70), "danger": (255, 40, 40, 70)}
OVERLAY_ALIASES = {"los": "line_of_sight", "line_of_sight": "line_of_sight", "danger": "danger"}
FROZEN = (80, 230, 255)
STUNNED = (255, 170, 40)
OBJECT_STYLES = {                                # kind -> (fill RGBA, outline RGB)
    "cloud": ((60, 200, 60, 90), (60, 200, 60)),
    "pillar": ((120, 120, 126, 255), (200, 200, 200)),
    "shield": ((240, 220, 40, 50), (240, 220, 40)),
    "target": ((255, 120, 20, 110), (255, 120, 20)),
    "safespot": ((255, 255, 255, 30), (235, 235, 235)),
}
OTHER_OBJECT = ((220, 60, 220, 50), (220, 60, 220))
SKILL_SHORT = {"attack": "atk", "strength": "str", "defence": "def", "ranged": "rng", "magic": "mag",
               "hitpoints": "hp", "prayer": "pray"}


@cache
def font():
    return ImageFont.load_default()


def line_height() -> int:
    return font().getbbox("Ag")[3] + 4


def overlay_names(overlays) -> tuple[str, ...]:
    """``("los", "danger")`` or ``"los,danger"`` as scene overlay keys; ValueError on an unknown name."""
    if isinstance(overlays, str):
        overlays = [o for o in overlays.split(",") if o.strip()]
    out = []
    for o in overlays or ():
        key = OVERLAY_ALIASES.get(o.strip())
        if key is None:
            raise ValueError(f"unknown overlay {o!r}; choose from los, danger")
        out.append(key)
    return tuple(dict.fromkeys(out))


# ---- geometry --------------------------------------------------------------------------------------
def grid_size(scene: dict, tile_px: int = TILE_PX) -> tuple[int, int]:
    a = scene["arena"]
    return a["width"] * tile_px, a["height"] * tile_px


def tile_box(scene: dict, x: int, y: int, size: int = 1, tile_px: int = TILE_PX) -> tuple[int, int, int, int]:
    """Pixel box ``(left, top, right, bottom)`` (right and bottom exclusive) of the ``size`` x ``size``
    footprint whose south-west tile is ``(x, y)``; north is up."""
    a = scene["arena"]
    left = PAD + (x - a["x0"]) * tile_px
    top = PAD + (a["height"] - (y - a["y0"]) - size) * tile_px
    return left, top, left + size * tile_px, top + size * tile_px


def panel_left(scene: dict, tile_px: int = TILE_PX) -> int:
    return 2 * PAD + grid_size(scene, tile_px)[0]


def scene_size(scene: dict, annotations=None, tile_px: int = TILE_PX) -> tuple[int, int]:
    """The natural (width, height) of ``render_scene`` for this scene."""
    gw, gh = grid_size(scene, tile_px)
    lines = panel_lines(scene, annotations)
    return panel_left(scene, tile_px) + PANEL_W + PAD, max(gh, len(lines) * line_height()) + 2 * PAD


# ---- the whole picture -----------------------------------------------------------------------------
def render_scene(scene: dict, annotations: list[str] | None = None, tile_px: int = TILE_PX, overlays=(),
                 size: tuple[int, int] | None = None) -> Image.Image:
    """Draw ``scene``; ``size``: a canvas at least this large (frames of one video share a size)."""
    w, h = scene_size(scene, annotations, tile_px)
    if size is not None:
        w, h = max(w, size[0]), max(h, size[1])
    image = Image.new("RGBA", (w, h), BACKGROUND + (255,))
    draw = ImageDraw.Draw(image)
    _draw_tiles(draw, scene, tile_px)
    _draw_translucent(image, scene, tile_px, overlay_names(overlays))
    draw = ImageDraw.Draw(image)
    entities = {e["id"]: e for e in scene["entities"]}
    for e in scene["entities"]:
        _draw_entity(draw, scene, e, tile_px)
    _draw_pending_hits(draw, scene, entities, tile_px)
    _draw_hitsplats(draw, scene, entities, tile_px)
    _draw_names(draw, scene, tile_px)
    _draw_panel(draw, scene, annotations, panel_left(scene, tile_px))
    return image.convert("RGB")


def _draw_tiles(draw, scene: dict, tile_px: int) -> None:
    a = scene["arena"]
    blocked = {(x, y) for x, y in a["blocked"]}
    for x in range(a["x0"], a["x0"] + a["width"]):
        for y in range(a["y0"], a["y0"] + a["height"]):
            l, t, r, b = tile_box(scene, x, y, 1, tile_px)
            if (x, y) in blocked:
                draw.rectangle((l, t, r - 1, b - 1), fill=BLOCKED)
                draw.line((l, b - 1, r - 1, t), fill=HATCH)
            else:
                draw.rectangle((l, t, r - 1, b - 1), fill=FLOOR[(x + y) % 2])


def _draw_translucent(image, scene: dict, tile_px: int, overlays: tuple[str, ...]) -> None:
    """Overlays and objects, alpha-blended onto the floor."""
    layer = Image.new("RGBA", image.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    for name in overlays:
        for x, y in scene["overlays"][name]:
            l, t, r, b = tile_box(scene, x, y, 1, tile_px)
            draw.rectangle((l, t, r - 1, b - 1), fill=OVERLAY_TINTS[name])
    for o in scene["objects"]:
        fill, outline = OBJECT_STYLES.get(o["kind"], OTHER_OBJECT)
        l, t, r, b = tile_box(scene, o["x"], o["y"], o["size"], tile_px)
        draw.rectangle((l + 1, t + 1, r - 2, b - 2), fill=fill, outline=outline + (255,), width=2)
        draw.text((l + 4, t + 3), o["label"] or o["kind"], fill=TEXT + (255,), font=font())
    image.alpha_composite(layer)


def entity_box(scene: dict, e: dict, tile_px: int = TILE_PX) -> tuple[int, int, int, int]:
    """The pixels ``e`` is drawn in: its tiles, or, when other entities stand on the same tiles (PvP
    "under"), its vertical slice of them (in scene order), so that none hides another."""
    stack = [o["id"] for o in scene["entities"] if (o["x"], o["y"], o["size"]) == (e["x"], e["y"], e["size"])]
    l, t, r, b = tile_box(scene, e["x"], e["y"], e["size"], tile_px)
    if len(stack) < 2:
        return l, t, r, b
    k, n = stack.index(e["id"]), len(stack)
    return l + (r - l) * k // n, t, l + (r - l) * (k + 1) // n, b


def _centre(scene: dict, e: dict, tile_px: int) -> tuple[float, float]:
    l, t, r, b = entity_box(scene, e, tile_px)
    return (l + r) / 2, (t + b) / 2


def _text_in(draw, box, text: str, fill, background, outline=None) -> None:
    """``text`` centred in ``box`` on a ``background`` rectangle."""
    draw.rectangle(box, fill=background, outline=outline)
    tl, tt, tr, tb = font().getbbox(text)
    x = (box[0] + box[2] + 1 - (tr - tl)) / 2 - tl
    y = (box[1] + box[3] + 1 - (tb - tt)) / 2 - tt
    draw.text((x, y), text, fill=fill, font=font())


def _draw_entity(draw, scene: dict, e: dict, tile_px: int) -> None:
    l, t, r, b = entity_box(scene, e, tile_px)
    # a gap shows the tile under it; a slice of a crowded tile (five nibblers and a blob's split on one) keeps
    # at least a pixel's column, and each decoration below is drawn only where it fits
    l, t, r, b = l + 2, t + 2, max(r - 3, l + 2), b - 3
    width = r - l
    roomy = width >= 30                                       # a slice of a shared tile keeps two badges
    color = e["color"]
    draw.rectangle((l, t, r, b), fill=color, outline=(0, 0, 0) if width >= 2 else None)
    stunned = e.get("stunned", 0)               # optional in the scene format: 0 when absent
    if (e["frozen"] > 0 or stunned > 0) and width >= 6:
        draw.rectangle((l, t, r, b), outline=STUNNED if stunned > 0 else FROZEN, width=3)
    if width < 8:
        return                                  # too narrow for a bar or a badge: the colour says who it is
    # HP bar
    if e["max_hp"] > 0:
        frac = min(max(e["hp"] / e["max_hp"], 0.0), 1.0)
        draw.rectangle((l + 3, t + 3, r - 3, t + 7), fill=(170, 20, 20))
        if frac > 0:
            draw.rectangle((l + 3, t + 3, l + 3 + round(frac * (r - l - 6)), t + 7), fill=(40, 210, 60))
    if e["overhead"] is not None and width >= 18:
        text, bg = OVERHEAD_BADGES.get(e["overhead"], (e["overhead"][:2], (120, 120, 120)))
        fg = (0, 0, 0) if sum(bg) > 500 else (255, 255, 255)
        _text_in(draw, (l + 3, t + 10, l + 18, t + 21), text, fg, bg, outline=(0, 0, 0))
    if e["attack_timer"] is not None and roomy:
        if e["attack_timer"] <= 0:
            draw.ellipse((r - 10, t + 12, r - 4, t + 18), fill=(60, 230, 80), outline=(0, 0, 0))
        else:
            draw.ellipse((r - 15, t + 9, r - 3, t + 21), fill=(20, 20, 20))
            _text_in(draw, (r - 13, t + 11, r - 5, t + 19), str(e["attack_timer"]), (255, 255, 255), (20, 20, 20))
    if e["style"] is not None and width >= 22:
        _text_in(draw, (l + 3, b - 12, l + 21, b - 2), STYLE_SHORT.get(e["style"], e["style"][:3]),
                 (255, 255, 255), STYLE_COLORS.get(e["style"], (120, 120, 120)), outline=(0, 0, 0))
    if stunned > 0 and roomy:                  # the stun is the stronger lock: it wins the corner
        _text_in(draw, (r - 19, b - 12, r - 3, b - 2), f"S{stunned}", STUNNED, (40, 25, 5))
    elif e["frozen"] > 0 and roomy:
        _text_in(draw, (r - 19, b - 12, r - 3, b - 2), f"F{e['frozen']}", FROZEN, (10, 30, 40))
    if e["hp"] <= 0:
        draw.line((l, t, r, b), fill=(0, 0, 0), width=3)
        draw.line((l, b, r, t), fill=(0, 0, 0), width=3)


NAME_REACH = 4        # a name tag moves at most this many lines away from its entity's box


def name_boxes(scene: dict, tile_px: int = TILE_PX) -> dict[str, tuple[str, tuple[int, int, int, int]]]:
    """Entity id -> (its name as the viewer gives it, ``scene.entity_labels``; the pixel box of its tag): inside
    a box it fits in (a 2x2 monster at 48 px a tile), else just above or below the entity, then a line further
    or half a tag sideways at a time, up to ``NAME_REACH`` lines: the first spot inside the arena that overlaps
    no tag placed before and no other entity (whose badges it would hide), else the first that overlaps no tag,
    else (a knot of nibblers at a small ``tile_px``) just above it."""
    labels = entity_labels(scene)
    gw, gh = grid_size(scene, tile_px)
    h = line_height()
    bodies = {e["id"]: entity_box(scene, e, tile_px) for e in scene["entities"]}
    placed: dict[str, tuple[str, tuple[int, int, int, int]]] = {}

    def fit(x: float, y: float, w: int) -> tuple[int, int, int, int]:
        x = min(max(x, PAD), PAD + gw - w)
        y = min(max(y, PAD), PAD + gh - h)
        return round(x), round(y), round(x) + w, round(y) + h

    def clear(box, others) -> bool:
        return all(box[2] <= o[0] or o[2] <= box[0] or box[3] <= o[1] or o[3] <= box[1] for o in others)

    for e in scene["entities"]:
        text = labels[e["id"]]
        l, t, r, b = bodies[e["id"]]
        tl, _, tr, _ = font().getbbox(text)
        w = tr - tl + 6
        x = (l + r - w) / 2
        # inside: under the badges' row and above the splats, in a box tall enough for all three (a 2x2 monster)
        if w <= r - l - 8 and b - t >= 72:
            placed[e["id"]] = (text, fit(x, t + 24, w))
            continue
        boxes = [fit(x + dx * w / 2, y, w) for k in range(NAME_REACH + 1) for y in (t - h - k * h, b + k * h)
                 for dx in (0, -1, 1)]
        tags = [box for _, box in placed.values()]
        others = [box for eid, box in bodies.items() if eid != e["id"]]
        placed[e["id"]] = (text, next((box for box in boxes if clear(box, tags) and clear(box, others)),
                                      next((box for box in boxes if clear(box, tags)), boxes[0])))
    return placed


def _draw_names(draw, scene: dict, tile_px: int) -> None:
    for text, box in name_boxes(scene, tile_px).values():
        draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=(0, 0, 0))
        tl, tt, _, _ = font().getbbox(text)
        draw.text((box[0] + 3 - tl, box[1] + 2 - tt), text, fill=TEXT, font=font())


def _rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def arrowhead(start: tuple[float, float], end: tuple[float, float], tile_px: int) -> list[tuple[float, float]]:
    """The three corners of the arrowhead of a line ``start`` -> ``end``: its tip a quarter tile short of
    ``end`` (so it sits on the target's edge, not under its badges), a third of a tile long."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    n = max((dx * dx + dy * dy) ** 0.5, 1e-9)
    ux, uy = dx / n, dy / n
    tip = (end[0] - ux * tile_px / 4, end[1] - uy * tile_px / 4)
    back, half = tile_px / 3, tile_px / 7
    base = (tip[0] - ux * back, tip[1] - uy * back)
    return [tip, (base[0] - uy * half, base[1] + ux * half), (base[0] + uy * half, base[1] - ux * half)]


def _draw_pending_hits(draw, scene: dict, entities: dict, tile_px: int) -> None:
    stacked: dict[tuple[str, str], int] = {}
    for h in scene["pending_hits"]:
        src, dst = entities.get(h["from"]), entities.get(h["to"])
        if src is None or dst is None:
            continue
        (x0, y0), (x1, y1) = _centre(scene, src, tile_px), _centre(scene, dst, tile_px)
        color = STYLE_COLORS.get(h["style"], (150, 150, 150))
        draw.line((x0, y0, x1, y1), fill=color, width=2)
        draw.polygon(arrowhead((x0, y0), (x1, y1), tile_px), fill=color)
        k = stacked.get((h["from"], h["to"]), 0)
        stacked[(h["from"], h["to"])] = k + 1
        label = STYLE_SHORT.get(h["style"], h["style"])
        lx, ly = x1 + (x0 - x1) * 0.35, y1 + (y0 - y1) * 0.35 + k * line_height()
        tl, tt, tr, tb = font().getbbox(label)
        draw.rectangle((lx - 2, ly + tt - 1, lx + tr - tl + 2, ly + tb + 1), fill=(0, 0, 0), outline=color)
        draw.text((lx, ly), label, fill=TEXT, font=font())


def _draw_hitsplats(draw, scene: dict, entities: dict, tile_px: int) -> None:
    by_entity: dict[str, list[dict]] = {}
    for s in scene["hitsplats"]:
        if s["on"] in entities:
            by_entity.setdefault(s["on"], []).append(s)
    for eid, splats in by_entity.items():
        e = entities[eid]
        l, t, r, b = tile_box(scene, e["x"], e["y"], e["size"], tile_px)
        for k, s in enumerate(splats):
            # between the badge rows, two abreast, further ones below (the game stacks them too)
            row, col = divmod(k, 2)
            in_row = min(2, len(splats) - 2 * row)
            cx = (l + r) / 2 + (col - (in_row - 1) / 2) * 20
            cy = (t + b) / 2 + 2 + row * 15
            draw.ellipse((cx - 9, cy - 7, cx + 9, cy + 7), fill=SPLAT_COLORS.get(s["kind"], (120, 120, 120)),
                         outline=(0, 0, 0))
            text = str(s["damage"])
            tl, tt, tr, tb = font().getbbox(text)
            draw.text((cx - (tr - tl) / 2 - tl, cy - (tb - tt) / 2 - tt), text, fill=(255, 255, 255), font=font())


# ---- the side panel --------------------------------------------------------------------------------
def _wrap(text: str, width: int = PANEL_W - 2 * PAD, indent: str = "    ") -> list[str]:
    """Break ``text`` at spaces so each line fits ``width`` pixels."""
    lines, current = [], ""
    for word in text.split(" "):
        candidate = word if not current else f"{current} {word}"
        if current and font().getlength(candidate) > width:
            lines.append(current)
            current = indent + word
        else:
            current = candidate
    return lines + [current]


def panel_lines(scene: dict, annotations=None) -> list[tuple[str, tuple]]:
    """The side panel as (text, colour) lines, already wrapped."""
    out: list[tuple[str, tuple]] = []

    def add(text: str, color=TEXT) -> None:
        out.extend((line, color) for line in _wrap(text))

    add(f"{scene['encounter']}   tick {scene['tick']}")
    status = f"phase {scene['phase']}" if scene["phase"] is not None else "phase -"
    if scene.get("outcome"):
        status += f"   outcome {scene['outcome']}"
    add(status, DIM)
    names = {e["id"]: e for e in scene["entities"]}
    labels = entity_labels(scene)
    for p in scene["panels"]:
        e = names.get(p["agent"], {})
        out.append(("", TEXT))
        add(f"{p['agent']}: {labels.get(p['agent'], '?')}", _rgb(e["color"]) if e else TEXT)
        prayer = f"{p['prayer'][0]}/{p['prayer'][1]}" if p["prayer"][1] else "-"
        add(f"HP {p['hp'][0]}/{p['hp'][1]}   Prayer {prayer}")
        spec = "-" if p["spec"] is None else f"{p['spec']:.0f}%"
        add(f"Run {p['run_energy']:.1f}%   Spec {spec}")
        add("Prayers: " + (", ".join(p["prayers"]) or "none"))
        add("Inventory: " + (", ".join(f"{item} x{n}" for item, n in p["inventory"]) or "empty"))
        add("Equipment: " + ("; ".join(f"{slot} {item}" for slot, item in p["equipment"].items()) or "none"), DIM)
        add("Stats: " + " ".join(f"{SKILL_SHORT.get(k, k)} {c}/{b}" for k, (c, b) in p["stats"].items()))
        add("Timers: " + ", ".join(f"{k} {v}" for k, v in p["timers"].items()))
    out.append(("", TEXT))
    for e in scene["entities"]:
        add(f"{labels[e['id']]} at ({e['x']}, {e['y']}): " + (", ".join(e["notes"]) or "-"), DIM)
    if scene["pending_hits"]:
        add("In flight: " + "; ".join(f"{labels.get(h['from'], h['from'])}->{labels.get(h['to'], h['to'])} {h['style']}"
                                      for h in scene["pending_hits"]), DIM)
    if annotations:
        out.append(("", TEXT))
        for line in annotations:
            add(line, (250, 210, 120))
    out.append(("", TEXT))
    for line in legend_lines():
        add(line, DIM)
    return out


def legend_lines() -> list[str]:
    """What the marks on the arena mean (the panel's last lines)."""
    overheads = ", ".join(f"{badge} {name}" for name, (badge, _) in OVERHEAD_BADGES.items())
    return ["Key: top left overhead (" + overheads + "); top right ticks to attack (green dot: ready); "
            "bottom left style (" + ", ".join(f"{v} {k}" for k, v in STYLE_SHORT.items()) + "); cyan border, "
            "F<n>: frozen, cannot move for n ticks; orange border, S<n>: stunned, cannot move nor attack for n "
            "ticks; arrows: hits in flight, coloured by style (red melee, green ranged, "
            "blue magic); discs: hitsplats (red hit, blue 0, green heal); tints: cyan line of sight, red danger."]


def _draw_panel(draw, scene: dict, annotations, left: int) -> None:
    y = PAD
    for text, color in panel_lines(scene, annotations):
        draw.text((left, y), text, fill=color, font=font())
        y += line_height()
