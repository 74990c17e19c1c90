"""The audit's picture: where the policy stood and where it attacked from, over the reference map (Pillow).

Two panels side by side, north up, one ``TILE_PX`` square per tile of the report's ``map.view`` box:
left the share of all ticks stood on each tile, right the share of all attacks made from it. Tiles the
reference says are walkable are grey (a checkerboard, so single tiles can be counted), the others dark
and hatched; a tile with any presence is coloured on a dark-violet to yellow ramp by its share of the
panel's largest (its percentage written in it from 1 % up), and a tile stood on that the reference says
is not walkable gets a red frame. Axes are the encounter's world tiles (``map.origin`` added). Below: the
ramp with its range, the three tile kinds, and the count of ticks and attacks on flagged tiles.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from osrs_rl.replay.render import font

TILE_PX = 24
PAD = 12
AXIS_LEFT = 40                  # room for the y labels
AXIS_BOTTOM = 18                # room for the x labels
GAP = 24                        # between the two panels
TITLE_H = 22
CAPTION_H = 18
LEGEND_H = 92
MIN_WIDTH = 660                 # the legend's text fits
LABEL_EVERY = 5                 # an axis label every 5 tiles
BACKGROUND = (22, 22, 26)
FLOOR = ((92, 96, 104), (84, 88, 96))
BLOCKED = (34, 34, 38)
HATCH = (58, 58, 64)
TEXT = (230, 230, 230)
DIM = (150, 150, 160)
FLAG = (235, 40, 40)
OK = (80, 200, 110)
RAMP = ((40, 11, 84), (120, 28, 109), (188, 55, 84), (237, 105, 37), (251, 180, 26), (252, 255, 164))


def ramp(u: float) -> tuple[int, int, int]:
    """The colour of share ``u`` in [0, 1] of the panel's largest."""
    u = min(max(u, 0.0), 1.0) * (len(RAMP) - 1)
    k = min(int(u), len(RAMP) - 2)
    f = u - k
    a, b = RAMP[k], RAMP[k + 1]
    return tuple(round(a[i] + (b[i] - a[i]) * f) for i in range(3))


def image_size(view_width: int, view_height: int) -> tuple[int, int]:
    """(width, height) of the heat map of a ``view_width`` x ``view_height`` tile box."""
    grid_w, grid_h = view_width * TILE_PX, view_height * TILE_PX
    width = max(PAD + 2 * (AXIS_LEFT + grid_w) + GAP + PAD, MIN_WIDTH)
    return width, PAD + TITLE_H + CAPTION_H + grid_h + AXIS_BOTTOM + LEGEND_H + PAD


def render_heatmap(report: dict, walkable) -> Image.Image:
    view = report["map"]["view"]
    width, height = image_size(view["width"], view["height"])
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    f = font()
    src = report["source"]
    title = (f"{report['encounter']} (spec {report['spec_version']}): {report['episodes']} episodes, "
             f"{report['ticks']:,} ticks, {src.get('what', '')}")
    draw.text((PAD, PAD), _fit(draw, title, width - 2 * PAD), fill=TEXT, font=f)
    top = PAD + TITLE_H
    stood = {(t["x"], t["y"]): t["ticks"] for t in report["tiles"]}
    attacked = {(t["x"], t["y"]): t["attacks"] for t in report["tiles"] if t["attacks"]}
    attacks = report["attacks"]["total"]
    panels = ((f"where it stood: share of {report['ticks']:,} ticks", stood, report["ticks"]),
              (f"where it attacked from: share of {attacks:,} attacks", attacked, attacks))
    for k, (caption, counts, total) in enumerate(panels):
        left, grid_top = panel_origin(view, k)
        draw.text((left, top), caption, fill=TEXT, font=f)
        _panel(draw, report, walkable, counts, total, set(stood), left, grid_top)
    _legend(draw, report, PAD, top + CAPTION_H + view["height"] * TILE_PX + AXIS_BOTTOM + 6, width - 2 * PAD)
    return image


def panel_origin(view: dict, k: int) -> tuple[int, int]:
    """Pixel (left, top) of panel ``k``'s grid (0: ticks, 1: attacks)."""
    return PAD + AXIS_LEFT + k * (AXIS_LEFT + view["width"] * TILE_PX + GAP), PAD + TITLE_H + CAPTION_H


def tile_box(view: dict, k: int, x: int, y: int) -> tuple[int, int, int, int]:
    """Pixel box of local tile (x, y) in panel ``k``, inclusive corners."""
    return _box(view, *panel_origin(view, k), x, y)


def _box(view: dict, left: int, top: int, x: int, y: int) -> tuple[int, int, int, int]:
    """Pixel box of local tile (x, y), inclusive corners; north is up."""
    l = left + (x - view["x0"]) * TILE_PX
    t = top + (view["height"] - 1 - (y - view["y0"])) * TILE_PX
    return l, t, l + TILE_PX - 1, t + TILE_PX - 1


def _walkable(walkable, x: int, y: int) -> bool:
    return 0 <= x < walkable.shape[0] and 0 <= y < walkable.shape[1] and bool(walkable[x, y])


def _panel(draw, report: dict, walkable, counts: dict, total: int, stood: set, left: int, top: int) -> None:
    view, origin = report["map"]["view"], report["map"]["origin"]
    f = font()
    largest = max(counts.values(), default=0)
    flagged = []
    for x in range(view["x0"], view["x0"] + view["width"]):
        for y in range(view["y0"], view["y0"] + view["height"]):
            box = _box(view, left, top, x, y)
            ok = _walkable(walkable, x, y)
            n = counts.get((x, y), 0)
            if n:
                draw.rectangle(box, fill=ramp(n / largest))
                share = 100 * n / total
                if share >= 1:
                    u = n / largest
                    draw.text((box[0] + 3, box[1] + 6), f"{share:.0f}", font=f,
                              fill=(20, 20, 20) if u > 0.55 else TEXT)
            elif ok:
                draw.rectangle(box, fill=FLOOR[(x + y) % 2])
            else:
                draw.rectangle(box, fill=BLOCKED)
                draw.line((box[0], box[3], box[2], box[1]), fill=HATCH)
            if not ok and (x, y) in stood:
                flagged.append(box)
    for l, t, r, b in flagged:                      # on top, so a neighbour's fill does not hide them
        draw.rectangle((l, t, r, b), outline=FLAG, width=3)
    for x in range(view["x0"], view["x0"] + view["width"]):
        if (x + origin[0]) % LABEL_EVERY == 0:
            l, _, _, b = _box(view, left, top, x, view["y0"])
            draw.text((l, b + 3), str(x + origin[0]), fill=DIM, font=f)
    for y in range(view["y0"], view["y0"] + view["height"]):
        if (y + origin[1]) % LABEL_EVERY == 0:
            _, t, _, _ = _box(view, left, top, view["x0"], y)
            draw.text((left - AXIS_LEFT + 2, t + 6), str(y + origin[1]), fill=DIM, font=f)


def _fit(draw, text: str, width: int) -> str:
    """``text`` cut (with an ellipsis) to ``width`` pixels."""
    f = font()
    if draw.textlength(text, font=f) <= width:
        return text
    while text and draw.textlength(text + "...", font=f) > width:
        text = text[:-1]
    return text + "..."


def _legend(draw, report: dict, left: int, top: int, width: int) -> None:
    f = font()
    bar_w = 200
    for i in range(bar_w):
        draw.line((left + i, top, left + i, top + 12), fill=ramp(i / (bar_w - 1)))
    draw.text((left, top + 15), "least", fill=DIM, font=f)
    most = "most of the panel"
    draw.text((left + bar_w - int(draw.textlength(most, font=f)), top + 15), most, fill=DIM, font=f)
    x = left + bar_w + 24
    swatches = ((FLOOR[0], None, "walkable in the reference"), (BLOCKED, None, "not walkable in the reference"),
                (RAMP[3], FLAG, "stood on but not walkable in the reference: a simulator bug"))
    for k, (fill, outline, label) in enumerate(swatches):
        y = top + 18 * k
        draw.rectangle((x, y, x + 12, y + 12), fill=fill, outline=outline, width=2 if outline else 0)
        draw.text((x + 18, y), _fit(draw, label, width - (x + 18 - left)), fill=TEXT, font=f)
    pos = report["position"]
    flagged = pos["ticks_off_reference"] or pos["attacks_off_reference"]
    share = pos["share_ticks_off_reference"] or 0.0
    text = (f"on tiles the reference says are not walkable: {pos['ticks_off_reference']:,} ticks "
            f"({100 * share:.2f} %), {pos['attacks_off_reference']:,} attacks")
    draw.text((left, top + 56), _fit(draw, text, width), fill=FLAG if flagged else OK, font=f)
    draw.text((left, top + 72), _fit(draw, f"reference map: {report['reference']}", width), fill=DIM, font=f)
