"""Scenes: the encounter-independent picture of one state, which the renderer and the browser viewer draw.

An encounter that can be watched gives its spec a ``scene(state_record, config_record, agent=0,
previous=None)`` function (plain Python) that reads only the records, so a wrong state shows as a
wrong picture. Hitsplats come from the state's event buffer (``osrs_rl.core.events``: the kernel
records each hit it lands), not from comparing records; ``previous``, the record one tick earlier, is
passed for what an encounter draws as a change. ``encounter`` is set from the spec's name
(:func:`scene_fn`), so a scene function need not name its encounter.

A scene is a JSON-serialisable dict::

    {"encounter": str, "tick": int, "phase": str | None, "outcome": str | None,
     "arena": {"x0": int, "y0": int, "width": int, "height": int, "blocked": [[x, y], ...]},
     "entities": [{"id": str, "name": str, "kind": "player" | "npc", "x": int, "y": int, "size": int,
                   "hp": int, "max_hp": int, "overhead": str | None, "style": str | None,
                   "attack_timer": int | None, "frozen": int, "stunned": int (optional), "color": "#rrggbb",
                   "notes": [str, ...]}],
     "pending_hits": [{"from": id, "to": id, "style": str, "damage": int | None, "due_tick": int}],
     "hitsplats": [{"on": id, "damage": int, "kind": "hit" | "block" | "heal"}],
     "objects": [{"kind": str, "x": int, "y": int, "size": int, "label": str}],
     "overlays": {"line_of_sight": [[x, y], ...], "danger": [[x, y], ...]},
     "panels": [{"agent": id, "hp": [cur, max], "prayer": [cur, max], "run_energy": float,
                 "spec": float | None, "prayers": [str, ...], "inventory": [[item, count], ...],
                 "equipment": {slot: item}, "stats": {skill: [cur, base]}, "timers": {name: ticks}}]}

Meanings:
- coordinates are world tiles, ``y`` grows north (draw north up); an entity's ``(x, y)`` is its
  south-west tile and it covers ``size`` x ``size`` tiles; ``arena`` spans ``x0 .. x0 + width - 1``;
- ``outcome``: how the episode ended as of this state (``"win"``, ``"loss"``, ``"draw"``), else None;
- ``overhead``: the overhead prayer icon (``"melee"``, ``"missiles"``, ``"magic"``, ``"smite"``,
  ``"redemption"``, ``"retribution"``) or None; ``style``: ``"melee"``, ``"ranged"`` or ``"magic"``;
  ``attack_timer``: ticks until the entity may attack (0: now); ``frozen``: ticks left frozen (cannot
  move; may still attack, eat, pray: an ice spell); ``stunned``: ticks left stunned (cannot move nor
  attack: Zulrah's magma slam), absent in encounters without a stun (read as 0);
- ``pending_hits``: hits in flight, ``due_tick`` is the tick at whose start they land; ``style``
  adds ``"typeless"`` (recoil, Vengeance); ``damage`` is what will land before the hitpoints cap, None
  in a scene as a player sees it (``as_player_sees``: the game shows the projectile, not its damage);
- ``hitsplats``: hits that landed during the tick that produced this state (blue ``block`` = 0);
- ``objects``: encounter objects by ``kind`` (``"cloud"``, ``"pillar"``, ``"shield"``, ...);
- ``overlays``: ``line_of_sight``: tiles from which the agent could attack its target now;
  ``danger``: tiles where the agent could be hit (each encounter says how it approximates them);
- ``panels``: one per player, the watched agent first. ``prayer`` ``[0, 0]`` means the encounter
  keeps no prayer points; ``run_energy`` and ``spec`` are percentages (``spec`` None: no special bar).

What the viewer and the renderer call an entity is ``entity_labels``: its name, told apart from its namesakes
(nibblers, bloblets, healers) by the number its id ends in; ``option_target`` says which entity an action
option names (an attack head's target: an encounter names its targets' options by their entity ids), so a
target reads as its monster. The page's scenes
carry these as each entity's ``label`` (``viewer_data.labelled``); an encounter's scene function need not.

``validate_scene`` checks all of this; ``scene_of(env)`` gives a live env's scene and
``scenes_for_replay(replay)`` re-simulates a replay (the same path as ``verify_replay``) into the
scene of the initial state and of the state after each tick.
"""

from __future__ import annotations

import re

from osrs_rl.replay.file import Replay, ReplayError
from osrs_rl.replay.verify import replay_steps, start_env

OVERHEADS = ("melee", "missiles", "magic", "smite", "redemption", "retribution")
STYLES = ("melee", "ranged", "magic")
HIT_STYLES = STYLES + ("typeless",)
SPLAT_KINDS = ("hit", "block", "heal")
OUTCOMES = ("win", "loss", "draw")
_COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")
_TRAILING_NUMBER = re.compile(r"(\d+)$")


# ---- building scenes ------------------------------------------------------------------------------
def scene_fn(spec):
    """The encounter's scene function, its scenes named after the spec (so a scene copied from another
    encounter cannot carry that one's name); ReplayError when it declares none."""
    if spec.scene is None:
        raise ReplayError(f"encounter {spec.name!r} declares no scene function (EncounterSpec.scene), "
                          "so it cannot be drawn")
    draw = spec.scene

    def named(state, config, agent: int = 0, previous=None) -> dict:
        out = draw(state, config, agent=agent, previous=previous)
        out["encounter"] = spec.name
        return out
    return named


def copy_record(env, i: int = 0):
    """A copy of env ``i``'s state record, safe to keep across steps (``previous`` of the next scene)."""
    return env.states[i:i + 1].copy()[0]


def scene_of(env, i: int = 0, agent: int = 0, previous=None) -> dict:
    """The scene of env ``i`` of a live VecEnv, seen as ``agent``; ``previous``: the record one tick
    earlier (``copy_record`` before the step), for hitsplats."""
    return scene_fn(env.spec)(env.states[i], env.config[0], agent=agent, previous=previous)


def as_player_sees(scene: dict) -> dict:
    """``scene`` without what a player cannot see yet: the damage of hits still in flight (the game draws
    the projectile and its style; the number appears as a hitsplat when it lands). What ``osrs-rl play``
    sends to the page."""
    return {**scene, "pending_hits": [{**h, "damage": None} for h in scene["pending_hits"]]}


def scenes_for_replay(replay: Replay, agent: int = 0) -> list[dict]:
    """Re-simulate ``replay`` and return ``ticks + 1`` scenes: the initial state, then after each tick."""
    env = start_env(replay)
    fn = scene_fn(env.spec)
    scenes = [fn(env.states[0], env.config[0], agent=agent, previous=None)]
    previous = copy_record(env)
    for _ in replay_steps(replay, env):
        scenes.append(fn(env.states[0], env.config[0], agent=agent, previous=previous))
        previous = copy_record(env)
    return scenes


# ---- names --------------------------------------------------------------------------------------
def entity_labels(scene: dict) -> dict[str, str]:
    """Entity id -> what the viewer and the renderer call it: its name, and, when another entity of the scene
    has the same name (nibblers, bloblets, healers), ``#`` and the number its id ends in (a monster's slot,
    which its attack option names) or else its id, so that namesakes are told apart."""
    counts: dict[str, int] = {}
    for e in scene["entities"]:
        counts[e["name"]] = counts.get(e["name"], 0) + 1
    out = {}
    for e in scene["entities"]:
        tag = _TRAILING_NUMBER.search(e["id"])
        out[e["id"]] = (e["name"] if counts[e["name"]] == 1 else f"{e['name']} #{tag.group(1)}" if tag
                        else f"{e['name']} ({e['id']})")
    return out


def option_target(option: str, ids) -> str | None:
    """The id of the entity an action option names, or None: an encounter whose attack options name their
    targets gives its entities those ids (``snakeling_2``, ``slot_4``), so the option is the id."""
    return option if option in ids else None


# ---- checking scenes ------------------------------------------------------------------------------
def _fail(where: str, what: str):
    raise ValueError(f"scene {where}: {what}")


def _int(v, where: str) -> None:
    if not isinstance(v, int) or isinstance(v, bool):
        _fail(where, f"must be an int, got {v!r}")


def _num(v, where: str) -> None:
    if not isinstance(v, int | float) or isinstance(v, bool):
        _fail(where, f"must be a number, got {v!r}")


def _str(v, where: str, allowed=None, optional: bool = False) -> None:
    if v is None and optional:
        return
    if not isinstance(v, str):
        _fail(where, f"must be a string{' or None' if optional else ''}, got {v!r}")
    if allowed is not None and v not in allowed:
        _fail(where, f"is {v!r}; expected one of {list(allowed)}")


def _keys(d, keys: tuple[str, ...], where: str) -> None:
    if not isinstance(d, dict):
        _fail(where, f"must be a dict, got {type(d).__name__}")
    missing = [k for k in keys if k not in d]
    if missing:
        _fail(where, f"misses key(s) {missing}")


def _list(v, where: str) -> list:
    if not isinstance(v, list):
        _fail(where, f"must be a list, got {type(v).__name__}")
    return v


def _pair(v, where: str, number=_int) -> None:
    if not isinstance(v, list) or len(v) != 2:
        _fail(where, f"must be a [a, b] list, got {v!r}")
    number(v[0], where)
    number(v[1], where)


_TOP = ("encounter", "tick", "phase", "arena", "entities", "pending_hits", "hitsplats", "objects", "overlays",
        "panels")
_ENTITY = ("id", "name", "kind", "x", "y", "size", "hp", "max_hp", "overhead", "style", "attack_timer", "frozen",
           "color", "notes")
_PANEL = ("agent", "hp", "prayer", "run_energy", "spec", "prayers", "inventory", "equipment", "stats", "timers")


def validate_scene(scene: dict) -> dict:
    """Check ``scene`` against the format in this module's docstring; ValueError naming the first problem.
    Returns the scene."""
    _keys(scene, _TOP, "")
    _str(scene["encounter"], "encounter")
    _int(scene["tick"], "tick")
    _str(scene["phase"], "phase", optional=True)
    _str(scene.get("outcome"), "outcome", OUTCOMES, optional=True)
    arena = scene["arena"]
    _keys(arena, ("x0", "y0", "width", "height", "blocked"), "arena")
    for k in ("x0", "y0", "width", "height"):
        _int(arena[k], f"arena.{k}")
    if arena["width"] < 1 or arena["height"] < 1:
        _fail("arena", f"needs width and height >= 1, got {arena['width']} x {arena['height']}")
    for n, t in enumerate(_list(arena["blocked"], "arena.blocked")):
        _pair(t, f"arena.blocked[{n}]")
    ids = _validate_entities(scene["entities"])
    for n, h in enumerate(_list(scene["pending_hits"], "pending_hits")):
        where = f"pending_hits[{n}]"
        _keys(h, ("from", "to", "style", "damage", "due_tick"), where)
        _str(h["from"], f"{where}.from", ids)
        _str(h["to"], f"{where}.to", ids)
        _str(h["style"], f"{where}.style", HIT_STYLES)
        if h["damage"] is not None:
            _int(h["damage"], f"{where}.damage")
        _int(h["due_tick"], f"{where}.due_tick")
    for n, h in enumerate(_list(scene["hitsplats"], "hitsplats")):
        where = f"hitsplats[{n}]"
        _keys(h, ("on", "damage", "kind"), where)
        _str(h["on"], f"{where}.on", ids)
        _int(h["damage"], f"{where}.damage")
        _str(h["kind"], f"{where}.kind", SPLAT_KINDS)
    for n, o in enumerate(_list(scene["objects"], "objects")):
        where = f"objects[{n}]"
        _keys(o, ("kind", "x", "y", "size", "label"), where)
        _str(o["kind"], f"{where}.kind")
        _str(o["label"], f"{where}.label")
        for k in ("x", "y", "size"):
            _int(o[k], f"{where}.{k}")
    _keys(scene["overlays"], ("line_of_sight", "danger"), "overlays")
    for name in ("line_of_sight", "danger"):
        for n, t in enumerate(_list(scene["overlays"][name], f"overlays.{name}")):
            _pair(t, f"overlays.{name}[{n}]")
    for n, p in enumerate(_list(scene["panels"], "panels")):
        _validate_panel(p, f"panels[{n}]", ids)
    return scene


def _validate_entities(entities) -> list[str]:
    ids = []
    for n, e in enumerate(_list(entities, "entities")):
        where = f"entities[{n}]"
        _keys(e, _ENTITY, where)
        _str(e["id"], f"{where}.id")
        if e["id"] in ids:
            _fail(f"{where}.id", f"repeats {e['id']!r}")
        ids.append(e["id"])
        _str(e["name"], f"{where}.name")
        _str(e["kind"], f"{where}.kind", ("player", "npc"))
        for k in ("x", "y", "size", "hp", "max_hp", "frozen"):
            _int(e[k], f"{where}.{k}")
        _int(e.get("stunned", 0), f"{where}.stunned")
        if e["size"] < 1:
            _fail(f"{where}.size", f"must be >= 1, got {e['size']}")
        _str(e["overhead"], f"{where}.overhead", OVERHEADS, optional=True)
        _str(e["style"], f"{where}.style", STYLES, optional=True)
        if e["attack_timer"] is not None:
            _int(e["attack_timer"], f"{where}.attack_timer")
        _str(e["color"], f"{where}.color")
        if not _COLOR.match(e["color"]):
            _fail(f"{where}.color", f"must look like '#rrggbb', got {e['color']!r}")
        for k, note in enumerate(_list(e["notes"], f"{where}.notes")):
            _str(note, f"{where}.notes[{k}]")
    return ids


def _validate_panel(p, where: str, ids: list[str]) -> None:
    _keys(p, _PANEL, where)
    _str(p["agent"], f"{where}.agent", ids)
    _pair(p["hp"], f"{where}.hp")
    _pair(p["prayer"], f"{where}.prayer")
    _num(p["run_energy"], f"{where}.run_energy")
    if p["spec"] is not None:
        _num(p["spec"], f"{where}.spec")
    for k, name in enumerate(_list(p["prayers"], f"{where}.prayers")):
        _str(name, f"{where}.prayers[{k}]")
    for k, item in enumerate(_list(p["inventory"], f"{where}.inventory")):
        if not isinstance(item, list) or len(item) != 2:
            _fail(f"{where}.inventory[{k}]", f"must be [item, count], got {item!r}")
        _str(item[0], f"{where}.inventory[{k}] item")
        _int(item[1], f"{where}.inventory[{k}] count")
    _keys(p["equipment"], (), f"{where}.equipment")
    for slot, item in p["equipment"].items():
        _str(slot, f"{where}.equipment slot")
        _str(item, f"{where}.equipment[{slot!r}]")
    _keys(p["stats"], (), f"{where}.stats")
    for skill, pair in p["stats"].items():
        _pair(pair, f"{where}.stats[{skill!r}]")
    _keys(p["timers"], (), f"{where}.timers")
    for name, ticks in p["timers"].items():
        _int(ticks, f"{where}.timers[{name!r}]")
