"""The Zulrah scene and reward components: hitsplats add up to the tallies over a recorded episode, the
records' clouds, slam and hits show where the state has them, Zulrah's form is its colour in the
picture, and the reward terms add up to the episode sums the state keeps."""

import functools

import numpy as np
import pytest
from PIL import ImageChops

import osrs_rl
from osrs_rl.core.pending_hits import HIT_PENDING, STYLE_RANGED
from osrs_rl.encounters.zulrah import rotations as RT
from osrs_rl.encounters.zulrah import state as ST
from osrs_rl.encounters.zulrah.scene import FORM_COLORS
from osrs_rl.replay import record_policy_episode
from osrs_rl.replay import render as R
from osrs_rl.replay.scene import copy_record, scene_of, scenes_for_replay, validate_scene
from osrs_rl.replay.verify import replay_steps, start_env
from osrs_rl.runtime.checks import random_legal_actions

TICKS = 300


@functools.cache
def _episode(seed: int = 4):
    rng = np.random.default_rng(seed)
    config = {"max_ticks": TICKS, "coef_damage_dealt": 0.5, "coef_damage_taken": 0.3, "coef_prayer": 0.1}
    replay = record_policy_episode("zulrah", config, lambda env, obs, info: random_legal_actions(env, rng), seed=seed)
    env = start_env(replay)
    for _ in replay_steps(replay, env):
        pass
    return replay, scenes_for_replay(replay), copy_record(env)


def _env(**config):
    env = osrs_rl.make("zulrah", num_envs=1, seed=2, start_rotation=0, **config)
    env.reset()
    return env


def test_hitsplats_add_up_to_the_tallies():
    replay, scenes, final = _episode()
    splats: dict[str, int] = {}
    for scene in scenes:
        validate_scene(scene)
        for s in scene["hitsplats"]:
            splats[s["on"]] = splats.get(s["on"], 0) + s["damage"]
            assert (s["kind"] == "block") == (s["damage"] == 0)
    assert splats.get("player", 0) == int(final["damage_taken"].sum()) > 0
    assert splats.get("zulrah", 0) == int(final["damage_dealt"]) > 0
    on_snakelings = sum(v for k, v in splats.items() if k.startswith("snakeling"))
    assert on_snakelings == int(final["snakelings_killed"])      # 1 hitpoint each


def test_reward_terms_add_up_to_the_episode_sums():
    replay, _, final = _episode()
    parts = replay.reward_components
    assert set(parts) == {"outcome", "damage_dealt", "damage_taken", "prayer"}
    assert np.allclose(sum(parts.values()), replay.rewards[:, 0], atol=1e-5)
    kept = dict(zip(("outcome", "damage_dealt", "damage_taken", "prayer"), final["reward_sums"][0], strict=True))
    for name, values in parts.items():
        assert float(values.sum()) == pytest.approx(float(kept[name]), abs=1e-4), name


def test_pending_hits_land_as_hitsplats():
    _, scenes, _ = _episode()
    for scene in scenes[:-1]:
        for h in scene["pending_hits"]:
            if h["to"] == "player" and h["due_tick"] < len(scenes):
                assert any(s["on"] == "player" for s in scenes[h["due_tick"]]["hitsplats"]), h


def test_a_cloud_and_a_slam_show_where_the_state_has_them():
    env = _env()
    s = env.states[0]
    s["clouds"][3] = (1, 0, 12, 17, 23)               # active, not fresh, centre (12, 17), 23 ticks left
    s["magma_on"], s["magma_x"], s["magma_y"] = 1, 20, 11
    scene = validate_scene(scene_of(env))
    clouds = [o for o in scene["objects"] if o["kind"] == "cloud"]
    assert [(o["x"], o["y"], o["size"]) for o in clouds] == [(11, 16, 3)] and "23" in clouds[0]["label"]
    assert [(o["x"], o["y"]) for o in scene["objects"] if o["kind"] == "target"] == [(20, 11)]
    danger = {tuple(t) for t in scene["overlays"]["danger"]}
    walkable = env.config[0]["collision"] == 0
    cloud = {(12 + dx, 17 + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    assert {t for t in cloud if walkable[t]} <= danger and not any(walkable[t] for t in cloud - danger)
    assert (21, 12) in danger and (12, 14) not in danger


def test_hits_in_flight_and_the_reach_are_read_from_the_record():
    env = _env()
    s = env.states[0]
    hit = s["hits"][0]
    hit["state"], hit["due_tick"], hit["damage"], hit["style"] = HIT_PENDING, 5, 17, STYLE_RANGED
    hit["attacker"], hit["target"] = ST.SRC_PLAYER, ST.TARGET_ZULRAH
    scene = validate_scene(scene_of(env))
    assert scene["pending_hits"] == [{"from": "player", "to": "zulrah", "style": "ranged", "damage": 17,
                                      "due_tick": 5}]
    assert scene["overlays"]["line_of_sight"]
    reach = int(env.config[0]["set_range"][int(s["tier"]), int(s["set"])])
    zx, zy = int(s["zx"]), int(s["zy"])
    for x, y in scene["overlays"]["line_of_sight"]:
        gap = max(max(0, zx - x, x - (zx + RT.ZULRAH_SIZE - 1)), max(0, zy - y, y - (zy + RT.ZULRAH_SIZE - 1)))
        assert 0 < gap <= reach


def test_zulrahs_form_is_its_colour_in_the_picture():
    env = _env()
    s = env.states[0]
    images = []
    for form in (RT.SERPENTINE, RT.MAGMA, RT.TANZANITE):
        s["form"] = form
        scene = validate_scene(scene_of(env))
        zulrah = next(e for e in scene["entities"] if e["id"] == "zulrah")
        image = R.render_scene(scene)
        left, top, right, bottom = R.tile_box(scene, zulrah["x"], zulrah["y"], zulrah["size"])
        probe = (left + (right - left) // 4, top + (bottom - top) // 3)       # clear of the bar, badges and text
        assert image.getpixel(probe) == tuple(int(FORM_COLORS[form][i:i + 2], 16) for i in (1, 3, 5))
        images.append((image, scene, (left, top, right, bottom)))
    (first, scene, box), (second, _, _) = images[0], images[2]     # magma adds its safespots: not that one
    grid = (R.PAD, R.PAD, R.PAD + R.grid_size(scene)[0], R.PAD + R.grid_size(scene)[1])
    changed = ImageChops.difference(first.crop(grid), second.crop(grid)).getbbox()
    changed = (changed[0] + R.PAD, changed[1] + R.PAD, changed[2] + R.PAD, changed[3] + R.PAD)
    assert box[0] <= changed[0] and box[1] <= changed[1] and changed[2] <= box[2] and changed[3] <= box[3]


def test_the_magma_stun_is_a_stun_not_a_freeze():
    # issue 15: the stun shared the scene's `frozen` field, so the viewer called a stunned player "frozen"
    env = _env()
    env.states[0]["stun"] = 4
    player = next(e for e in validate_scene(scene_of(env))["entities"] if e["id"] == "player")
    assert player["stunned"] == 4 and player["frozen"] == 0
    env.states[0]["stun"] = 0
    player = next(e for e in scene_of(env)["entities"] if e["id"] == "player")
    assert player["stunned"] == 0 and player["frozen"] == 0
