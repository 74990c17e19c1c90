"""Frames: a fixed scene draws what it holds where it should (structure, not a font-dependent hash), a
change of one field changes only its part of the picture, and replays export to PNG, frames, GIF and
MP4 (template replays: no PvP compile here)."""

import copy
import functools
import os
import stat

import imageio_ffmpeg
import numpy as np
import pytest
from PIL import Image, ImageChops

from osrs_rl import cli
from osrs_rl.replay import record_policy_episode, save_replay
from osrs_rl.replay import render as R
from osrs_rl.replay.export import frame_annotations, render_replay
from osrs_rl.replay.scene import validate_scene
from osrs_rl.runtime.checks import random_legal_actions
from osrs_rl.runtime.registry import get_spec

T = R.TILE_PX


def _entity(eid, x, y, size=1, color="#3b82f6", **kw):
    e = {"id": eid, "name": eid, "kind": "player", "x": x, "y": y, "size": size, "hp": 50, "max_hp": 100,
         "overhead": None, "style": "magic", "attack_timer": 0, "frozen": 0, "color": color, "notes": []}
    e.update(kw)
    return e


def _scene():
    """A 7 x 5 arena (origin 10, 20) with a wall tile, a player and a 2 x 2 NPC, nothing in flight."""
    return validate_scene({
        "encounter": "test", "tick": 12, "phase": "one", "outcome": None,
        "arena": {"x0": 10, "y0": 20, "width": 7, "height": 5, "blocked": [[16, 24]]},
        "entities": [_entity("p0", 11, 21), _entity("boss", 14, 22, size=2, color="#a855f7", kind="npc")],
        "pending_hits": [], "hitsplats": [], "objects": [],
        "overlays": {"line_of_sight": [[12, 21]], "danger": [[13, 22]]},
        "panels": [{"agent": "p0", "hp": [50, 100], "prayer": [40, 99], "run_energy": 80.0, "spec": 50.0,
                    "prayers": ["Augury"], "inventory": [["Shark", 3]], "equipment": {"weapon": "Staff"},
                    "stats": {"hitpoints": [50, 100]}, "timers": {"attack": 0}}],
    })


def _rgb(color):
    return tuple(int(color[i:i + 2], 16) for i in (1, 3, 5))


def _diff_box(a, b):
    return ImageChops.difference(a, b).getbbox()


def _inside(box, outer):
    return box is not None and outer[0] <= box[0] and outer[1] <= box[1] and box[2] <= outer[2] and box[3] <= outer[3]


def _grid(scene):
    w, h = R.grid_size(scene)
    return (R.PAD, R.PAD, R.PAD + w, R.PAD + h)


def test_a_fixed_scene_has_its_structure():
    scene = _scene()
    image = R.render_scene(scene)
    assert image.size == R.scene_size(scene) and image.mode == "RGB"
    assert image.size[0] == R.panel_left(scene) + R.PANEL_W + R.PAD
    # north is up: tile (10, 24) is the top-left one, (16, 20) the bottom-right
    assert R.tile_box(scene, 10, 24) == (R.PAD, R.PAD, R.PAD + T, R.PAD + T)
    assert R.tile_box(scene, 16, 20) == (R.PAD + 6 * T, R.PAD + 4 * T, R.PAD + 7 * T, R.PAD + 5 * T)
    l, t, _, _ = R.tile_box(scene, 16, 24)
    assert image.getpixel((l + 3, t + 3)) == R.BLOCKED
    for x, y in ((10, 20), (13, 24)):
        l, t, _, _ = R.tile_box(scene, x, y)
        assert image.getpixel((l + 1, t + 1)) == R.FLOOR[(x + y) % 2]
    for e in scene["entities"]:                          # a plain part of each box is the entity's colour
        l, t, r, b = R.tile_box(scene, e["x"], e["y"], e["size"])
        assert image.getpixel((l + 6, (t + b) // 2 + 2)) == _rgb(e["color"])
        assert image.getpixel((r - 6, (t + b) // 2 + 2)) == _rgb(e["color"]) or e["size"] == 1
    # the HP bar: green for the half that is left, then red
    l, t, r, _ = R.tile_box(scene, 11, 21)
    assert image.getpixel((l + 7, t + 7)) == (40, 210, 60) and image.getpixel((r - 8, t + 7)) == (170, 20, 20)
    # the side panel holds text
    panel = image.crop((R.panel_left(scene), 0, image.size[0], image.size[1]))
    assert panel.getbbox() is not None and len(panel.getcolors(1 << 16)) > 5


@pytest.mark.parametrize("field, value, region", [
    ("hp", 20, lambda l, t, r, b: (l + 4, t + 4, r - 4, t + 10)),          # the HP bar only
    ("overhead", "melee", lambda l, t, r, b: (l + 4, t + 11, l + 22, t + 24)),
    ("attack_timer", 3, lambda l, t, r, b: (r - 18, t + 10, r - 4, t + 24)),
    ("style", "ranged", lambda l, t, r, b: (l + 4, b - 15, l + 24, b - 4)),
    ("frozen", 9, lambda l, t, r, b: (l + 1, t + 1, r - 2, b - 2)),          # border and marker
    ("hp", 0, lambda l, t, r, b: (l, t, r, b)),                              # dead: crossed out
])
def test_one_entity_field_changes_only_its_part(field, value, region):
    scene = _scene()
    changed = copy.deepcopy(scene)
    changed["entities"][0][field] = value
    box = _diff_box(R.render_scene(scene), R.render_scene(changed))
    assert _inside(box, region(*R.tile_box(scene, 11, 21))), box


def test_moving_an_entity_changes_its_old_and_new_tiles_and_its_panel_line():
    scene = _scene()
    moved = copy.deepcopy(scene)
    moved["entities"][0]["x"] = 13
    a, b = R.render_scene(scene), R.render_scene(moved)
    grid = _grid(scene)
    box = _diff_box(a.crop(grid), b.crop(grid))
    old, new = (tuple(v - R.PAD for v in R.tile_box(scene, x, 21)) for x in (11, 13))
    tag = R.name_boxes(scene)["p0"][1][1] - R.PAD               # its name tag, just above it, moves with it
    assert tag == old[1] - R.line_height()
    assert _inside(box, (old[0], tag, new[2], new[3])) and box[0] < old[2] and box[2] > new[0], box
    l, t, _, bottom = R.tile_box(scene, 13, 21)
    assert b.getpixel((l + 6, (t + bottom) // 2 + 2)) == _rgb("#3b82f6")
    assert a.getpixel((l + 6, (t + bottom) // 2 + 2)) == R.FLOOR[(13 + 21) % 2]
    assert _diff_box(a, b)[0] < R.panel_left(scene) < _diff_box(a, b)[2]   # "p0 at (13, 21)" in the panel


def test_a_panel_field_changes_only_the_panel():
    scene = _scene()
    changed = copy.deepcopy(scene)
    changed["panels"][0]["run_energy"] = 12.5
    box = _diff_box(R.render_scene(scene), R.render_scene(changed))
    assert box is not None and box[0] >= R.panel_left(scene)


def test_overlays_are_off_unless_asked_and_tint_their_tiles():
    scene = _scene()
    plain = R.render_scene(scene)
    for flag, key in (("los", "line_of_sight"), ("danger", "danger")):
        tinted = R.render_scene(scene, overlays=(flag,))
        x, y = scene["overlays"][key][0]
        assert _diff_box(plain, tinted) == R.tile_box(scene, x, y)
    with pytest.raises(ValueError, match="unknown overlay 'fog'"):
        R.render_scene(scene, overlays="los,fog")


def test_hits_in_flight_splats_and_objects_are_drawn():
    scene = _scene()
    scene["pending_hits"] = [{"from": "p0", "to": "boss", "style": "magic", "damage": 30, "due_tick": 14}]
    scene["hitsplats"] = [{"on": "p0", "damage": 7, "kind": "hit"}]
    scene["objects"] = [{"kind": "cloud", "x": 10, "y": 23, "size": 1, "label": "gas"}]
    image = R.render_scene(validate_scene(scene))
    (x0, y0), (x1, y1) = R._centre(scene, scene["entities"][0], T), R._centre(scene, scene["entities"][1], T)
    mid = (round(x0 + (x1 - x0) * 0.6), round(y0 + (y1 - y0) * 0.6))
    assert image.getpixel(mid) == R.STYLE_COLORS["magic"]
    cx, cy = x0, y0 + 2                                  # the splat disc sits in the middle of the box
    assert image.getpixel((round(cx) - 6, round(cy))) == R.SPLAT_COLORS["hit"]
    l, t, r, b = R.tile_box(scene, 10, 23)
    floor = R.FLOOR[(10 + 23) % 2]
    tinted = image.getpixel((r - 6, b - 6))
    assert tinted != floor and tinted[1] > tinted[0]     # translucent green over the floor


def test_a_hit_in_flight_shows_its_style_and_direction_not_its_damage():
    scene = _scene()
    scene["pending_hits"] = [{"from": "p0", "to": "boss", "style": "magic", "damage": 30, "due_tick": 14}]
    image = R.render_scene(validate_scene(scene))
    other = copy.deepcopy(scene)
    other["pending_hits"][0]["damage"] = 7               # a different hit still to land looks the same
    assert _diff_box(image, R.render_scene(other)) is None
    assert not any("30" in text for text, _ in R.panel_lines(scene, []))
    assert any("p0->boss magic" in text for text, _ in R.panel_lines(scene, []))
    # the arrowhead: a filled triangle near the target, off the line itself
    (x0, y0), (x1, y1) = R._centre(scene, scene["entities"][0], T), R._centre(scene, scene["entities"][1], T)
    tip, left, right = R.arrowhead((x0, y0), (x1, y1), T)
    inside = ((tip[0] + left[0] + right[0]) / 3, (tip[1] + left[1] + right[1]) / 3)
    wing = ((inside[0] + left[0]) / 2, (inside[1] + left[1]) / 2)   # between the line and a corner of the head
    assert image.getpixel((round(wing[0]), round(wing[1]))) == R.STYLE_COLORS["magic"]
    assert R.render_scene(_scene()).getpixel((round(wing[0]), round(wing[1]))) != R.STYLE_COLORS["magic"]
    reverse = copy.deepcopy(scene)
    reverse["pending_hits"][0].update({"from": "boss", "to": "p0"})
    assert _diff_box(image, R.render_scene(reverse)) is not None     # the direction shows


def test_entities_on_one_tile_are_both_drawn():
    scene = _scene()
    scene["entities"].append(_entity("p1", 11, 21, color="#ef4444"))     # under p0
    image = R.render_scene(validate_scene(scene))
    a, b = R.entity_box(scene, scene["entities"][0], T), R.entity_box(scene, scene["entities"][2], T)
    assert a[2] <= b[0] and (a[0], b[2]) == (R.tile_box(scene, 11, 21, 1, T)[0], R.tile_box(scene, 11, 21, 1, T)[2])
    def low(box):                                                # inside the box, clear of its badges
        return box[0] + 4, box[3] - 16
    assert image.getpixel(low(a)) == _rgb("#3b82f6") and image.getpixel(low(b)) == _rgb("#ef4444")
    assert R._centre(scene, scene["entities"][0], T) != R._centre(scene, scene["entities"][2], T)


@pytest.mark.parametrize("crowd", [5, 9, 16, 40])
def test_a_crowded_tile_renders_every_entity(crowd):
    """Issue 42: five or more entities on one tile (nibblers and a blob's split) crashed the renderer ("x1 must be
    greater than or equal to x0"): each slice is narrower than its HP bar. Every one renders, the narrowest as a
    column of its colour; big monsters stacked on the same tiles too."""
    scene = _scene()
    colours = ["#ef4444", "#22c55e", "#eab308", "#06b6d4"]
    for k in range(crowd - 1):
        scene["entities"].append(_entity(f"n{k}", 11, 21, color=colours[k % 4], kind="npc", overhead="magic",
                                         frozen=3, stunned=2))
        scene["entities"].append(_entity(f"big{k}", 14, 22, size=2, color=colours[k % 4], kind="npc"))
    image = R.render_scene(validate_scene(scene))
    tile = R.tile_box(scene, 11, 21, 1, T)
    boxes = [R.entity_box(scene, e, T) for e in scene["entities"] if (e["x"], e["y"]) == (11, 21)]
    assert len(boxes) == crowd and boxes[0][0] == tile[0] and boxes[-1][2] == tile[2]
    last = scene["entities"][-2]                                    # the last small one: its slice, its colour
    l, t, r, b = R.entity_box(scene, last, T)
    body_l, body_r = l + 2, max(r - 3, l + 2)                       # as _draw_entity insets it
    assert image.getpixel(((body_l + body_r) // 2, (t + b) // 2)) == _rgb(last["color"])


def test_monsters_are_named_as_the_viewer_names_them():
    """Issue 42, item 7: the renderer drew a monster's id (``m4``, ``m6``) and only on a big one, and its panel
    and arrows named ids too: every entity gets a tag with its name as the viewer gives it (namesakes told
    apart by slot), inside a big box or beside a small one, no two tags overlapping."""
    scene = _scene()
    scene["entities"] += [_entity("m4", 12, 23, color="#a16207", kind="npc", name="Jal-Nib"),
                          _entity("m5", 13, 23, color="#a16207", kind="npc", name="Jal-Nib"),
                          _entity("m6", 12, 22, color="#a16207", kind="npc", name="Jal-Nib")]
    scene["entities"][1].update(id="m9", name="Jal-Ak")
    scene["pending_hits"] = [{"from": "m4", "to": "p0", "style": "melee", "damage": 3, "due_tick": 13}]
    validate_scene(scene)
    text = "\n".join(t for t, _ in R.panel_lines(scene, []))
    for label, (x, y) in (("Jal-Nib #4", (12, 23)), ("Jal-Nib #6", (12, 22)), ("Jal-Ak", (14, 22))):
        assert f"{label} at ({x}, {y})" in text
    assert "In flight: Jal-Nib #4->p0 melee" in text and "m4" not in text.replace("#4", "")
    tags = R.name_boxes(scene)
    assert {eid: t for eid, (t, _) in tags.items()} == {"p0": "p0", "m9": "Jal-Ak", "m4": "Jal-Nib #4",
                                                        "m5": "Jal-Nib #5", "m6": "Jal-Nib #6"}
    assert _inside(tags["m9"][1], R.tile_box(scene, 14, 22, 2))                  # inside the 2x2 monster
    boxes = [box for _, box in tags.values()]
    for k, a in enumerate(boxes):
        assert _inside(a, _grid(scene))
        assert all(a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1] for b in boxes[k + 1:]), a
    renamed = copy.deepcopy(scene)
    renamed["entities"][1]["name"] = "JalTok-Jad"               # another name: only its tag changes in the arena
    grid = _grid(scene)
    box = _diff_box(R.render_scene(scene).crop(grid), R.render_scene(renamed).crop(grid))
    tag = tuple(v - R.PAD for v in R.name_boxes(renamed)["m9"][1])
    assert box is not None and _inside(box, tag), (box, tag)


def test_annotations_go_into_the_panel():
    scene = _scene()
    plain, noted = R.render_scene(scene), R.render_scene(scene, annotations=["value +0.31", "attack: go 90%"])
    assert noted.size[0] == plain.size[0]
    assert _diff_box(plain.crop((0, 0) + plain.size), noted.crop((0, 0) + plain.size))[0] >= R.panel_left(scene)
    assert R.render_scene(scene, size=(2000, 1000)).size == (2000, 1000)


# ---- replays to files -------------------------------------------------------------------------------
@functools.cache
def _replay():
    rng = np.random.default_rng(0)

    def act(env, obs, info):
        probs = [rng.random(h.size).astype(np.float32) for h in env.spec.action_heads]
        return random_legal_actions(env, rng), {"value": 0.25, "probs": probs, "reward_components": {"hp": 0.5}}
    return record_policy_episode("template", {"max_ticks": 12}, act, seed=4, max_ticks=12)


def test_frame_annotations():
    replay = _replay()
    first, last = frame_annotations(replay, 0), frame_annotations(replay, replay.ticks)
    assert first[0] == "value +0.250" and any(line.startswith("attack: ") for line in first)
    assert first[-1].startswith("next action player: ")
    assert last == [f"reward of tick {replay.ticks - 1}: {replay.rewards[-1, 0]:+.3f} (hp +0.500)"]



def test_frame_annotations_name_the_option_taken():
    replay = _replay()
    heads = get_spec("template").action_heads
    seen_other = False
    for k in range(replay.ticks):
        lines = frame_annotations(replay, k)
        for h, head in enumerate(heads):
            chosen, best = int(replay.actions[k, 0, h]), int(np.argmax(replay.probs[h][k]))
            line = next(x for x in lines if x.startswith(f"{head.name}: "))
            label = head.labels[chosen] if head.labels else str(chosen)
            assert line.startswith(f"{head.name}: {label} {float(replay.probs[h][k][chosen]):.0%}"), (k, line)
            seen_other |= best != chosen
            assert ("most likely" in line) == (best != chosen)
    assert seen_other                                    # random actions are not always the most likely


def test_the_panel_has_a_key_to_the_marks():
    text = " ".join(t for t, _ in R.panel_lines(_scene(), []))
    for mark in ("Key:", "Ma magic", "ticks to attack", "rng ranged", "cannot move", "hits in flight", "hitsplats",
                 "line of sight", "danger"):
        assert mark in text, mark


def test_png_frames_and_gif(tmp_path):
    replay = _replay()
    png = render_replay(replay, tmp_path / "last.png")
    assert Image.open(png).size[0] > 0
    folder = render_replay(replay, str(tmp_path / "frames") + "/", start=2, end=5)
    assert sorted(p.name for p in folder.iterdir()) == [f"tick_{k:05d}.png" for k in range(2, 6)]
    gif = render_replay(replay, tmp_path / "all.gif", fps=10)
    with Image.open(gif) as im:
        assert im.n_frames == replay.ticks + 1
    assert not list(tmp_path.glob(".*"))                 # no temporary files left behind


def test_mp4(tmp_path):
    replay = _replay()
    mp4 = render_replay(replay, tmp_path / "fight.mp4", start=0, end=6)
    data = mp4.read_bytes()
    assert len(data) > 100 and data[4:8] == b"ftyp"
    reader = imageio_ffmpeg.read_frames(str(mp4))
    meta = next(reader)
    assert meta["size"][0] % 2 == 0 and meta["size"][1] % 2 == 0
    assert sum(1 for _ in reader) == 7


@pytest.mark.parametrize("umask", [0o022, 0o077])
def test_mp4_mode_follows_the_umask(tmp_path, umask):
    old = os.umask(umask)
    try:
        mp4 = render_replay(_replay(), tmp_path / "fight.mp4", start=0, end=1)
    finally:
        os.umask(old)
    assert stat.S_IMODE(mp4.stat().st_mode) == 0o666 & ~umask
    assert not list(tmp_path.glob(".*"))


def test_bad_outputs_are_named(tmp_path):
    replay = _replay()
    with pytest.raises(ValueError, match=r"unknown output type '\.avi'"):
        render_replay(replay, tmp_path / "x.avi")
    with pytest.raises(ValueError, match="outside 0"):
        render_replay(replay, tmp_path / "x.png", tick=replay.ticks + 1)
    with pytest.raises(ValueError, match="start <= end"):
        render_replay(replay, tmp_path / "x.gif", start=5, end=2)


def test_cli_replay_render(tmp_path, capsys):
    path = save_replay(tmp_path / "t.orlr", _replay())
    out = tmp_path / "out" / "t.gif"
    assert cli.main(["replay", "render", str(path), "--out", str(out), "--start", "1", "--end", "4",
                     "--overlays", "los,danger"]) == 0
    assert str(out) in capsys.readouterr().out.replace("\n", "")
    with Image.open(out) as im:
        assert im.n_frames == 4
    assert cli.main(["replay", "render", str(path), "--out", str(tmp_path / "t.png"), "--tick", "3"]) == 0
    assert (tmp_path / "t.png").exists()
    assert cli.main(["replay", "render", str(path), "--out", str(tmp_path / "t.webm")]) == 2
    assert "unknown output type" in " ".join(capsys.readouterr().out.split())     # rich wraps long lines
    assert cli.main(["replay", "render", str(path)]) == 2


def _colours_in(image, box) -> set:
    return {c for _, c in image.crop(box).convert("RGB").getcolors(1 << 16)}


def test_a_stun_and_a_freeze_are_marked_apart():
    # a stun (cannot move nor attack: Zulrah's slam) has its own border and S<n>; a freeze its cyan and F<n>
    scene = _scene()
    box = R.tile_box(scene, 11, 21)
    stunned, frozen = copy.deepcopy(scene), copy.deepcopy(scene)
    stunned["entities"][0]["stunned"] = 4
    frozen["entities"][0]["frozen"] = 4
    in_stun, in_freeze = _colours_in(R.render_scene(stunned), box), _colours_in(R.render_scene(frozen), box)
    assert R.STUNNED in in_stun and R.FROZEN not in in_stun
    assert R.FROZEN in in_freeze and R.STUNNED not in in_freeze
    assert R.STUNNED not in _colours_in(R.render_scene(scene), box)
    assert "S<n>: stunned" in R.legend_lines()[0] and "F<n>: frozen" in R.legend_lines()[0]


def test_an_option_that_names_an_entity_reads_as_its_label():
    """An attack option that is an entity's id (an Inferno ``slot_K``) is written as that entity's label in
    the panel, as the viewer writes it, not as the raw option (issue 42, item 7)."""
    replay = _replay()
    heads = get_spec("template").action_heads
    k, h = next((k, h) for k in range(replay.ticks) for h, head in enumerate(heads)
                if head.labels and int(replay.actions[k, 0, h]) != 0)
    option = heads[h].labels[int(replay.actions[k, 0, h])]
    lines = frame_annotations(replay, k, {option: "Jal-Nib #4"})
    assert any(x.startswith(f"{heads[h].name}: Jal-Nib #4 ") for x in lines)
    assert f"{heads[h].name}=Jal-Nib #4" in lines[-1] and f"={option}" not in lines[-1]
