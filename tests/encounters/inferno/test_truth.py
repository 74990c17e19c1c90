"""The Inferno's audit truth: its reference map, and the per-tick reading from the records (tile, attack and
whether the reference allows it, damage by source)."""

import numpy as np

from osrs_rl.core.events import EV_ATTACK
from osrs_rl.encounters.inferno import arena as A
from osrs_rl.encounters.inferno import state as ST
from osrs_rl.encounters.inferno import truth as T
from osrs_rl.runtime.registry import get_spec
from osrs_rl.runtime.truth import TICK_KEYS, check_truth

from .helpers import act, empty_arena, inferno, keeper, put


def test_the_reference_floor_is_the_dumps_rectangle():
    w = T.reference_walkable(None)
    assert w.shape == (A.GRID_W, A.GRID_H) and w.sum() == 29 * 30
    xs, ys = np.nonzero(w)
    assert (xs.min() + T.ORIGIN[0], xs.max() + T.ORIGIN[0]) == (2257, 2285)
    assert (ys.min() + T.ORIGIN[1], ys.max() + T.ORIGIN[1]) == (5329, 5358)
    # the game's data and the simulator's floor agree (reached independently: arena.py from InfernoTrainer)
    assert (w == A.base_walkable()).all()
    assert w[A.PLAYER_START]


def test_the_declaration_fits_the_spec():
    spec = get_spec("inferno")
    truth = check_truth(spec)
    assert truth is T.TRUTH and truth.window is None
    env = inferno(seed=1)
    before = env.states[0].copy()
    env.step(act())
    t = truth.tick(before, env.states[0], env.config[0], 0)
    assert set(TICK_KEYS) <= set(t) and set(t["damage"]) == set(truth.damage_metrics)


def _shot(player=(15, 12), monster=(15, 16)):
    """A tick in which the player shoots a ranger in plain sight: (before, after) records."""
    env = inferno(seed=4)
    empty_arena(env, player=player)
    keeper(env)
    put(env, 0, ST.K_RANGER, *monster, attack_timer=3)
    before = env.states[0].copy()
    env.step(act(attack=1))
    return env, before, env.states[0].copy()


def test_a_real_shot_is_read_and_allowed():
    env, before, after = _shot()
    t = T.tick(before, after, env.config[0])
    assert t["attack"] and t["target"] == "ranger" and t["target_attackable"] and t["attackable"]
    assert (t["x"], t["y"]) == (15, 12)


def test_a_planted_shot_behind_a_pillar_is_flagged():
    env, before, after = _shot()
    wx, wy = A.PILLARS[1]                            # the north pillar (3x3 at (18, 23)): hide behind it
    after["p"]["x"], after["p"]["y"] = wx + 1, wy - 1
    after["monsters"][0]["x"], after["monsters"][0]["y"] = wx, wy + 3
    assert not T.tick(before, after, env.config[0])["target_attackable"]
    after["pillar_hp"][1] = 0                        # with the pillar fallen the same shot is allowed
    assert T.tick(before, after, env.config[0])["target_attackable"]


def test_a_planted_shot_out_of_range_or_at_a_digging_meleer_is_flagged():
    env, before, after = _shot()
    far = after.copy()
    assert T.weapon_range(far) == 10                 # the twisted bow (OSRS wiki: attack range 10)
    far["monsters"][0]["y"] = 12 + 10 + 1            # 11 tiles north: beyond the bow's 10
    assert not T.tick(before, far, env.config[0])["target_attackable"]


def test_the_reach_is_the_worn_weapons():
    """A blowpipe shot reaches 5 tiles, a spell 10 (OSRS wiki "Toxic blowpipe", "Attack range")."""
    from osrs_rl.core.equipment import WEAPON
    from osrs_rl.core.pending_hits import STYLE_MAGIC
    from osrs_rl.data.tables import items

    env, before, after = _shot()
    rec = after.copy()
    rec["p"]["equipment"][WEAPON] = items().find("Toxic blowpipe (Charged)")
    assert T.weapon_range(rec) == 5
    assert T.weapon_range(rec, STYLE_MAGIC) == 10
    rec["p"]["equipment"][WEAPON] = items().find("Kodai wand")
    assert T.weapon_range(rec) == 10                 # a wand or staff: its autocast spell
    dug = after.copy()
    dug["monsters"][0]["dig_left"] = 3
    assert not T.tick(before, dug, env.config[0])["target_attackable"]


def test_a_planted_off_map_tile_is_off_the_reference():
    env, before, after = _shot()
    after["p"]["x"], after["p"]["y"] = 0, 12         # the arena's west wall
    t = T.tick(before, after, env.config[0])
    assert not T.reference_walkable(env.config[0])[t["x"], t["y"]]


def test_damage_is_read_by_source():
    env = inferno(seed=4, hp=5000)
    empty_arena(env, player=(15, 12))
    keeper(env)
    put(env, 0, ST.K_MELEER, 13, 13, attack_timer=1)   # in melee reach, attacking now (lands this tick)
    hits = 0
    for _ in range(40):
        before = env.states[0].copy()
        env.step(act())
        t = T.tick(before, env.states[0], env.config[0])
        assert all(v == 0 for k, v in t["damage"].items() if k != "taken_meleer"), t["damage"]
        hits += t["damage"]["taken_meleer"]
        assert not t["attack"]
        assert not any(int(e["kind"]) == EV_ATTACK and int(e["source"]) == ST.ENT_PLAYER
                       for e in env.states[0]["events"][:int(env.states[0]["event_count"])])
    assert hits == int(env.states[0]["damage_taken"][ST.K_MELEER]) > 0


def test_checkpoint_evaluation_reports_the_final_wave():
    """The outcome's progress metric (final_wave) reaches the evaluation row and its table."""
    from rich.console import Console

    from osrs_rl.agent.models import build_model
    from osrs_rl.agent.policy import Policy
    from osrs_rl.runtime.registry import get_spec
    from osrs_rl.train.evaluate import evaluate, print_table

    spec = get_spec("inferno")
    model = build_model(spec.obs_segments, spec.head_sizes, hidden=16)
    row = evaluate(Policy(model, "inferno", {"start_wave": 5, "max_ticks": 20}, []), episodes=4, seed=1)[0]
    assert row.progress == "final_wave"
    assert row.progress_mean == row.progress_median == 5.0       # 20 ticks clear no wave: every run ends on 5
    console = Console(record=True, width=200, force_terminal=True)
    print_table([row], console)
    assert "median final wave" in console.export_text()
