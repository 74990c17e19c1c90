"""What the browser viewer gets for one replay: every scene (the initial state, then one per tick), the
action heads with their labels, the actions, rewards and annotations per tick, and a timeline of
events (hits, kills, deaths, overhead prayer switches) derived from consecutive scenes.

Frame ``t`` is the state after ``t`` ticks; the actions, value, probabilities and reward of tick ``t``
belong to the decision taken in that state (they lead to frame ``t + 1``).
"""

from __future__ import annotations

import math

import numpy as np

from osrs_rl.replay.file import Replay
from osrs_rl.replay.scene import entity_labels, option_target, scenes_for_replay
from osrs_rl.runtime.registry import get_spec


def _finite(values) -> list:
    """A float array as a JSON list (NaN and infinities become null: JSON has neither)."""
    return [v if math.isfinite(v) else None for v in np.asarray(values, dtype=np.float64).reshape(-1).tolist()]


def _head(name: str, labels: list[str], ids) -> dict:
    """A head for the page: its name, option labels and, for options that name an entity (an attack's
    target, ``scene.option_target``), ``targets``: option index -> entity id, so a target reads as its monster."""
    targets = {k: t for k, o in enumerate(labels) if (t := option_target(o, ids)) is not None}
    return {"name": name, "labels": labels, **({"targets": targets} if targets else {})}


def heads_of(spec, scenes=()) -> list[dict]:
    """The action heads of ``spec``; ``targets`` for the entities that appear in ``scenes``."""
    ids = {e["id"] for s in scenes for e in s["entities"]}
    return [_head(h.name, list(h.labels) if h.labels else [str(k) for k in range(h.size)], ids)
            for h in spec.action_heads]


def labelled(scene: dict) -> dict:
    """A copy of ``scene`` whose entities carry their ``label`` (``scene.entity_labels``: the name the page
    draws)."""
    labels = entity_labels(scene)
    return {**scene, "entities": [{**e, "label": labels[e["id"]]} for e in scene["entities"]]}


def play_view(state: dict) -> dict:
    """A play session's state (``PlaySession.state``) as the page draws it: labelled, targets named."""
    scene = labelled(state["scene"])
    ids = {e["id"] for e in scene["entities"]}
    return {**state, "scene": scene, "heads": [{**h, **_head(h["name"], h["labels"], ids)} for h in state["heads"]]}


def summary(replay: Replay, name: str) -> dict:
    """A replay's one-line facts, for the list of open replays."""
    return {"name": name, "encounter": replay.encounter, "ticks": replay.ticks, "outcome": replay.outcome(),
            "return": _finite(replay.rewards.sum(axis=0, dtype=np.float64)), "meta": replay.meta,
            "annotations": replay.annotations()}


def replay_payload(replay: Replay, name: str, scenes: list[dict] | None = None) -> dict:
    """The viewer's JSON for ``replay`` (``scenes`` from ``scene.scenes_for_replay`` unless given)."""
    scenes = [labelled(s) for s in (scenes_for_replay(replay) if scenes is None else scenes)]
    spec = get_spec(replay.encounter)
    if not replay.reward_components:
        from osrs_rl.replay.annotate import derive_reward_components

        components = derive_reward_components(replay)
    else:
        components = replay.reward_components
    out = summary(replay, name)
    out.update({
        "agents": list(spec.agents), "heads": heads_of(spec, scenes), "config": replay.config, "scenes": scenes,
        "actions": replay.actions.tolist(), "rewards": [_finite(r) for r in replay.rewards],
        "values": None if replay.values is None else _finite(replay.values),
        "probs": None if replay.probs is None else [[_finite(row) for row in p] for p in replay.probs],
        "reward_components": {k: _finite(v) for k, v in components.items()},
        "events": timeline(scenes),
    })
    return out


def timeline(scenes: list[dict]) -> list[dict]:
    """Events per frame: ``hit`` (a hitsplat with damage), ``kill`` / ``death`` (an entity's hitpoints
    reach 0: a death when it is the watched agent, the first panel's, else a kill), ``prayer`` (an
    overhead changed)."""
    events = []
    for t in range(1, len(scenes)):
        before = {e["id"]: e for e in scenes[t - 1]["entities"]}
        now = scenes[t]
        names = {e["id"]: e.get("label", e["name"]) for e in now["entities"]}
        panels = now.get("panels") or []
        me = panels[0]["agent"] if panels else None
        for splat in now.get("hitsplats", []):
            if splat.get("kind") == "hit" and splat.get("damage", 0) > 0:
                events.append({"tick": t, "kind": "hit", "on": splat["on"], "damage": splat["damage"],
                               "text": f"{names.get(splat['on'], splat['on'])} hit for {splat['damage']}"})
        for e in now["entities"]:
            old = before.get(e["id"])
            if old is None:
                continue
            if old["hp"] > 0 >= e["hp"]:
                kind = "death" if e["id"] == me else "kill"
                events.append({"tick": t, "kind": kind, "on": e["id"], "text": f"{names[e['id']]} dies"})
            if old.get("overhead") != e.get("overhead"):
                events.append({"tick": t, "kind": "prayer", "on": e["id"],
                               "text": f"{names[e['id']]}: {old.get('overhead') or 'no'} -> "
                                       f"{e.get('overhead') or 'no'} overhead"})
    return events
