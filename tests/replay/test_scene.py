"""Scenes: every state of recorded template and pvp episodes gives a valid scene read from the record,
hitsplats add up to the damage the tallies recorded, and a bad scene is named."""

import dataclasses
import functools
import json

import numpy as np
import pytest

from osrs_rl.core import prayers as P
from osrs_rl.replay import ReplayError, record_policy_episode
from osrs_rl.replay.scene import (
    copy_record,
    entity_labels,
    option_target,
    scene_fn,
    scene_of,
    scenes_for_replay,
    validate_scene,
)
from osrs_rl.replay.verify import replay_steps, start_env
from osrs_rl.replay.viewer_data import play_view
from osrs_rl.runtime import registry
from osrs_rl.runtime.checks import random_legal_actions
from osrs_rl.runtime.registry import get_spec, make

TICKS = 40


@functools.cache
def _replay(name: str, seed: int = 3):
    rng = np.random.default_rng(seed)
    return record_policy_episode(name, {"max_ticks": TICKS, **get_spec(name).demo_settings},
                                 lambda env, obs, info: random_legal_actions(env, rng),
                                 seed=seed, max_ticks=TICKS)


@functools.cache
def _scenes(name: str):
    return scenes_for_replay(_replay(name))


def _final_record(replay):
    env = start_env(replay)
    for _ in replay_steps(replay, env):
        pass
    return copy_record(env)


def test_every_encounter_can_be_watched():
    """A new encounter declares a scene and its reward terms: the renderer, the viewer and human
    play need the first, the replays' reward breakdown the second (docs/writing-an-encounter.md)."""
    missing = [(n, hook) for n in registry.builtin_names() for hook in ("scene", "reward_terms")
               if not getattr(get_spec(n), hook)]
    assert not missing, f"encounters without a hook: {missing}"


@pytest.mark.parametrize("name", registry.builtin_names())      # not the tests' own counting encounters
def test_every_tick_gives_a_valid_scene(name):
    replay, scenes = _replay(name), _scenes(name)
    assert len(scenes) == replay.ticks + 1
    for k, scene in enumerate(scenes):
        validate_scene(scene)
        assert scene["tick"] == k and scene["encounter"] == name
        assert json.loads(json.dumps(scene)) == scene          # plain JSON all the way down
    assert scenes[0]["hitsplats"] == []
    assert any(s["hitsplats"] for s in scenes), "a 40-tick fight should land something"


@pytest.mark.parametrize("name", ["template", "pvp"])
def test_hitsplats_add_up_to_the_damage_taken(name):
    final = _final_record(_replay(name))
    splats: dict[str, int] = {}
    for scene in _scenes(name):
        for s in scene["hitsplats"]:
            splats[s["on"]] = splats.get(s["on"], 0) + s["damage"]
            assert (s["kind"] == "block") == (s["damage"] == 0)
    if name == "template":
        taken = {"player": int(final["damage_taken"]), "npc": int(final["damage_dealt"])}
    else:
        taken = {f"p{i}": int(final["players"][i]["damage_taken"]) for i in range(2)}
    assert {k: splats.get(k, 0) for k in taken} == taken


def test_pvp_pending_hits_land_on_their_tick():
    scenes = _scenes("pvp")
    for k, scene in enumerate(scenes[:-1]):
        for h in scene["pending_hits"]:
            assert h["due_tick"] >= scene["tick"]
            # due now: a Vengeance reflection queued after its target's turn, landing in the next one
            lands = max(h["due_tick"], scene["tick"] + 1)
            if lands < len(scenes):
                assert any(s["on"] == h["to"] for s in scenes[lands]["hitsplats"]), (k, h)


def test_pvp_scene_reads_the_record():
    env = make("pvp", num_envs=1, seed=5, max_ticks=TICKS)
    env.reset()
    s = env.states[0]
    p0 = s["players"][0]["p"]
    p0["x"], p0["y"] = 3, 12
    p0["levels"][5] = 42                                        # hitpoints
    p0["active_prayers"] = 1 << P.PROTECT_FROM_MISSILES
    p0["freeze_ticks"] = 17
    scene = validate_scene(scene_of(env))
    me = scene["entities"][0]
    assert (me["x"], me["y"], me["hp"], me["overhead"], me["frozen"]) == (3, 12, 42, "missiles", 17)
    assert me.get("stunned", 0) == 0                            # an ice freeze is not a stun
    assert scene["panels"][0]["prayers"] == ["Protect from Missiles"]
    foe = scene["entities"][1]
    assert sorted(map(tuple, scene["overlays"]["danger"])) == sorted(
        (foe["x"] + dx, foe["y"] + dy) for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1)))
    seen_by_1 = validate_scene(scene_of(env, agent=1))
    assert [p["agent"] for p in seen_by_1["panels"]] == ["p1", "p0"]


def test_template_scene_reads_the_record():
    env = make("template", num_envs=1, seed=1)
    env.reset()
    before = copy_record(env)
    env.states[0]["player_hp"] = 7
    env.states[0]["praying"] = True
    scene = validate_scene(scene_of(env, previous=before))
    player = scene["entities"][0]
    assert (player["hp"], player["overhead"]) == (7, "melee")
    assert scene["panels"][0]["hp"] == [7, 99]


def test_a_spec_without_scene_is_named():
    spec = dataclasses.replace(get_spec("template"), scene=None)
    with pytest.raises(ReplayError, match="declares no scene"):
        scene_fn(spec)


def _good_scene():
    return json.loads(json.dumps(_scenes("template")[5]))


@pytest.mark.parametrize("edit, message", [
    (lambda s: s.pop("arena"), "misses key"),
    (lambda s: s["entities"][0].update(x=1.5), r"entities\[0\]\.x"),
    (lambda s: s["entities"][0].update(style="fire"), r"entities\[0\]\.style"),
    (lambda s: s["entities"][1].update(id="player"), "repeats"),
    (lambda s: s["entities"][0].update(color="blue"), "#rrggbb"),
    (lambda s: s["hitsplats"].append({"on": "ghost", "damage": 3, "kind": "hit"}), r"hitsplats\[\d+\]\.on"),
    (lambda s: s["panels"][0].update(hp=[1]), r"panels\[0\]\.hp"),
    (lambda s: s["overlays"].pop("danger"), "overlays"),
    (lambda s: s["entities"][0].update(stunned="3"), r"entities\[0\]\.stunned"),   # optional, but an int
])
def test_a_bad_scene_is_named(edit, message):
    scene = _good_scene()
    validate_scene(scene)
    edit(scene)
    with pytest.raises(ValueError, match=message):
        validate_scene(scene)


# ---- names (issue 42, item 7) -----------------------------------------------------------------------------------
def test_namesakes_are_told_apart_by_slot_and_a_target_names_its_entity():
    """Monsters were drawn as ``m4``, ``m6`` (the renderer) or by a name shared by every nibbler (the viewer), and
    attack options read ``slot_0..slot_15`` with nothing mapping a slot to its monster: a monster's label is its
    name, with its slot where another has the same name, and an option that is an entity's id names it."""
    def npc(eid, name):
        return {"id": eid, "name": name}
    scene = {"entities": [npc("player", "player"), npc("slot_4", "Jal-Nib"), npc("slot_11", "Jal-Nib"),
                          npc("slot_6", "Jal-Ak"), npc("snakeling_2", "Snakeling"), npc("snakeling_2_old", "Snakeling"),
                          npc("zulrah", "Zulrah")]}
    assert entity_labels(scene) == {"player": "player", "slot_4": "Jal-Nib #4", "slot_11": "Jal-Nib #11",
                                    "slot_6": "Jal-Ak", "snakeling_2": "Snakeling #2",
                                    "snakeling_2_old": "Snakeling (snakeling_2_old)", "zulrah": "Zulrah"}
    ids = {e["id"] for e in scene["entities"]}
    assert [option_target(o, ids) for o in ("none", "slot_4", "slot_15", "zulrah", "snakeling_2", "weapon")] == \
        [None, "slot_4", None, "zulrah", "snakeling_2", None]
    # what the page gets in play: labelled entities, the attack head's targets by option index
    state = play_view({"scene": scene, "heads": [{"name": "attack", "labels": ["none", "slot_4", "zulrah"],
                                                  "legal": [True, True, False]}]})
    assert [e["label"] for e in state["scene"]["entities"]] == list(entity_labels(scene).values())
    assert state["heads"][0]["targets"] == {1: "slot_4", 2: "zulrah"}
    assert state["heads"][0]["legal"] == [True, True, False]
