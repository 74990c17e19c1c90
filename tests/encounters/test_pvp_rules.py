"""NH PvP rules added after v0: Vengeance, Smite, Redemption, PID reshuffles, running and the new
moves, gear kits and the per-env opponent choice. Numbers come from RULES.md (sections named)."""

import numpy as np
import pytest

import osrs_rl
from osrs_rl.core import prayers as P
from osrs_rl.core.energy import run_drain
from osrs_rl.core.pending_hits import HIT_PENDING, STYLE_MELEE, STYLE_TYPELESS, push_hit
from osrs_rl.core.skills import HITPOINTS, PRAYER
from osrs_rl.core.status import ICE_BARRAGE_FREEZE
from osrs_rl.encounters import pvp
from osrs_rl.encounters.pvp import mechanics as M
from osrs_rl.encounters.pvp import state as ST
from osrs_rl.encounters.pvp.loadouts import build_names, builds, kits

NOOP = np.zeros((1, 2, len(ST.HEAD_SIZES)), dtype=np.int64)


def duel(build="max_main", **config):
    config.setdefault("gear_variants", 0)
    env = osrs_rl.make("pvp_selfplay", num_envs=1, seed=1, build=build_names().index(build), **config)
    env.reset()
    return env


def act(**heads):
    a = NOOP.copy()
    for key, value in heads.items():
        player, head = key.split("_", 1)
        a[0, int(player[1]), getattr(ST, "H_" + head.upper())] = value
    return a


def commit(env):
    env.set_states([0], env.get_states([0]))


def player(env, i):
    return env.states[0]["players"][i]


def land_on(env, target, damage, attacker=None, flags=M.FLAG_ACCURATE):
    """Queue a melee hit of ``damage`` on ``target`` due next tick and step once."""
    s = env.states[0]
    attacker = 1 - target if attacker is None else attacker
    push_hit(s["hits"], int(s["tick"]) + 1, damage, STYLE_MELEE, attacker, target, flags, 0, 0)
    commit(env)
    env.step(NOOP)


# ---- Vengeance (RULES 9.1, 9.2) ----------------------------------------------------------------
def test_vengeance_only_on_lunar_builds():
    assert not duel("max_main").head_masks()["vengeance"][0, 0, 1]
    assert duel("max_lunar").head_masks()["vengeance"][0, 0, 1]


def test_vengeance_reflects_three_quarters_onto_the_attacker_then_ends():
    env = duel("max_lunar")
    env.step(act(p0_vengeance=1))
    assert player(env, 0)["vengeance"] == 1
    assert not env.head_masks()["vengeance"][0, 0, 1]                      # armed and cooling down
    hp1 = int(player(env, 1)["p"]["levels"][HITPOINTS])
    land_on(env, 0, 40)                                                    # p1 hits p0 for 40
    assert player(env, 0)["vengeance"] == 0
    reflected = [h for h in env.states[0]["hits"] if h["state"] == HIT_PENDING]
    landed_now = hp1 - int(player(env, 1)["p"]["levels"][HITPOINTS])
    if reflected:                                                          # p1's turn came first
        assert reflected[0]["target"] == 1 and reflected[0]["style"] == STYLE_TYPELESS
        assert reflected[0]["damage"] == 30
        env.step(NOOP)
        landed_now = hp1 - int(player(env, 1)["p"]["levels"][HITPOINTS])
    assert landed_now == 30                                                # floor(0.75 * 40)
    assert player(env, 0)["vengeance_damage"] == 30
    assert player(env, 0)["off_prayer_hits_landed"] == 0                   # a reflection is no off-prayer hit


def test_a_one_damage_hit_reflects_one_and_cooldown_is_50_ticks():
    env = duel("max_lunar")
    env.step(act(p0_vengeance=1))
    land_on(env, 0, 1)                 # floor(0.75) = 0, raised to the minimum of 1 (OSRS wiki "Vengeance")
    assert player(env, 0)["vengeance"] == 0
    env.step(NOOP)                                                         # the reflection has landed
    assert player(env, 0)["vengeance_damage"] == 1
    for _ in range(M.VENGEANCE_COOLDOWN - 3 - 1):
        env.step(NOOP)
    assert not env.head_masks()["vengeance"][0, 0, 1]
    env.step(NOOP)
    assert env.head_masks()["vengeance"][0, 0, 1]                          # 50 ticks after the cast


# ---- Smite and Redemption (RULES 9.3, 9.4, 10) -----------------------------------------------------
def test_smite_and_redemption_only_where_the_rules_allow():
    for build, allowed in (("lms_med", False), ("arena_med", False), ("max_main", True)):
        over = duel(build).head_masks()["overhead"][0, 0]
        assert bool(over[ST.OVERHEAD_SMITE]) == allowed and bool(over[ST.OVERHEAD_REDEMPTION]) == allowed, build


def test_smite_drains_a_quarter_of_the_damage_from_prayer():
    env = duel("max_main")
    env.step(act(p0_overhead=ST.OVERHEAD_SMITE))
    assert player(env, 0)["p"]["active_prayers"] & (1 << P.SMITE)
    assert not player(env, 0)["p"]["active_prayers"] & (1 << P.PROTECT_FROM_MAGIC)
    before = int(player(env, 1)["p"]["levels"][PRAYER])
    land_on(env, 1, 23, attacker=0)
    assert before - int(player(env, 1)["p"]["levels"][PRAYER]) == 23 // 4


def test_redemption_heals_below_ten_percent_and_empties_prayer():
    env = duel("max_main")
    env.step(act(p1_overhead=ST.OVERHEAD_REDEMPTION))
    player(env, 1)["p"]["levels"][HITPOINTS] = 12
    land_on(env, 1, 3)                                                     # 9 left: below 9.9
    p = player(env, 1)["p"]
    assert p["levels"][HITPOINTS] == 9 + 99 // 4
    assert p["levels"][PRAYER] == 0 and p["active_prayers"] == 0


def test_redemption_does_not_save_from_a_lethal_hit():
    env = duel("max_main")
    env.step(act(p1_overhead=ST.OVERHEAD_REDEMPTION))
    player(env, 1)["p"]["levels"][HITPOINTS] = 5
    land_on(env, 1, 7)
    assert player(env, 1)["p"]["levels"][HITPOINTS] == 0
    assert env.states[0]["outcome"] == ST.OUTCOME_WIN


# ---- PID (RULES 1.2, 1.3) -------------------------------------------------------------------
def test_pid_reshuffles_every_100_to_150_ticks_outside_the_arena():
    env = osrs_rl.make("pvp_selfplay", num_envs=64, seed=5, build=build_names().index("max_main"),
                       max_ticks=1000)
    env.reset()
    timers = env.states["pid_timer"]
    assert timers.min() >= 100 and timers.max() <= 150
    acts = np.zeros((64, 2, len(ST.HEAD_SIZES)), dtype=np.int64)
    firsts, seen = [], set()
    for _ in range(1000):
        env.step(acts)
        firsts.append(env.states["first"].copy())
        seen.update(env.states["pid_timer"].tolist())
    assert min(seen) >= 1 and max(seen) <= 150
    changed = (np.diff(np.array(firsts), axis=0) != 0).any(axis=0)
    assert changed.mean() > 0.9                   # ~7 draws in 1000 ticks: nearly every env swapped


def test_pid_is_fixed_in_the_pvp_arena_and_configurable():
    env = osrs_rl.make("pvp_selfplay", num_envs=16, seed=5, build=build_names().index("arena_med"))
    env.reset()
    assert (env.states["pid_timer"] == -1).all()
    env = osrs_rl.make("pvp_selfplay", num_envs=16, seed=5, build=build_names().index("arena_med"), pid_shuffle=1)
    env.reset()
    assert (env.states["pid_timer"] >= 100).all()


# ---- movement (RULES 5.7-5.9) ---------------------------------------------------------------
def place(env, x0, y0, x1, y1):
    for i, (x, y) in enumerate(((x0, y0), (x1, y1))):
        player(env, i)["p"]["x"], player(env, i)["p"]["y"] = x, y
    commit(env)


def test_running_covers_two_tiles_and_drains_energy_outside_lms():
    env = duel("max_main")
    place(env, 2, 7, 12, 7)
    env.step(act(p0_move=ST.MOVE_TOWARD))
    assert player(env, 0)["p"]["x"] == 4
    assert player(env, 0)["p"]["run_energy"] == 10000 - run_drain(M.RUN_WEIGHT_KG, False)
    env = duel("lms_med")
    place(env, 2, 7, 12, 7)
    env.step(act(p0_move=ST.MOVE_TOWARD))
    assert player(env, 0)["p"]["x"] == 4 and player(env, 0)["p"]["run_energy"] == 10000


def test_diagonal_keeps_a_frozen_opponent_from_meleeing():
    env = duel("max_main")
    place(env, 5, 7, 7, 9)
    player(env, 1)["p"]["freeze_ticks"] = ICE_BARRAGE_FREEZE
    commit(env)
    env.step(act(p0_move=ST.MOVE_DIAGONAL, p1_loadout=1 + ST.SET_MELEE))
    p0, p1 = player(env, 0)["p"], player(env, 1)["p"]
    assert abs(p0["x"] - p1["x"]) == 1 and abs(p0["y"] - p1["y"]) == 1
    assert not env.head_masks()["attack"][0, 1, ST.ATTACK_WEAPON]       # melee cannot reach a diagonal
    assert not env.head_masks()["move"][0, 0, ST.MOVE_DIAGONAL]         # already there


def test_farcast_leaves_melee_reach_but_stays_in_range():
    env = duel("max_main")
    place(env, 6, 7, 7, 7)                                              # adjacent, mage set worn
    env.step(act(p0_move=ST.MOVE_FARCAST))
    d = M.distance(env.states[0])
    assert 2 <= d <= 10
    assert not env.head_masks()["move"][0, 0, ST.MOVE_FARCAST]
    place(env, 1, 7, 15, 7)
    env.step(act(p0_loadout=1 + ST.SET_RANGED, p0_move=ST.MOVE_FARCAST))  # crossbow: range 8
    assert M.distance(env.states[0]) == 12


def test_stepping_under_a_frozen_opponent_and_back_out():
    env = duel("max_main")
    place(env, 6, 7, 7, 7)
    player(env, 1)["p"]["freeze_ticks"] = ICE_BARRAGE_FREEZE
    commit(env)
    env.step(act(p0_move=ST.MOVE_UNDER))
    p0, p1 = player(env, 0)["p"], player(env, 1)["p"]
    assert (p0["x"], p0["y"]) == (p1["x"], p1["y"])
    assert not env.head_masks()["attack"][0, 1].any(where=np.arange(4) > 0)   # nobody attacks from under
    env.step(act(p0_move=ST.MOVE_TOWARD))
    assert M.distance(env.states[0]) == 1


# ---- gear kits and opponents ------------------------------------------------------------------
def test_kits_are_distinct_valid_variants():
    for bid, build in builds().items():
        ks = kits(bid, build)
        assert 2 <= len(ks) <= ST.MAX_KITS
        assert ks[0]["mage"] == build["sets"]["mage"]
        for kit in ks[1:]:
            for key, names in build.get("variants", {}).items():
                slot, _, set_name = key.partition("_")
                assert kit[set_name][slot] in names or kit[set_name][slot] is None


def test_gear_variants_draw_kits_per_player_and_can_be_switched_off():
    env = osrs_rl.make("pvp", num_envs=256, seed=0, build=build_names().index("max_main"))
    env.reset()
    k = env.states["players"]["kit"]
    assert len(np.unique(k)) == len(kits("max_main", builds()["max_main"]))
    assert (k[:, 0] != k[:, 1]).any()
    env = osrs_rl.make("pvp", num_envs=64, seed=0, gear_variants=0)
    env.reset()
    assert (env.states["players"]["kit"] == 0).all()


def test_set_opponents_per_env_at_reset():
    env = osrs_rl.make("pvp_selfplay", num_envs=4, seed=0, max_ticks=200)
    env.reset()
    scripted, tier, slot = pvp.opponents(env)
    assert not scripted.any() and (slot == 0).all()               # default: a policy in slot 0
    pvp.set_opponents(env, tier=[9, 2], env_ids=[0, 1])
    pvp.set_opponents(env, slot=3, env_ids=[2])
    assert not pvp.opponents(env)[0].any()                        # only from the next reset
    env.reset()
    scripted, tier, slot = pvp.opponents(env)
    assert scripted.tolist() == [True, True, False, False]
    assert tier.tolist() == [9, 2, -1, -1] and slot.tolist() == [-1, -1, 3, 0]
    acts = np.zeros((4, 2, len(ST.HEAD_SIZES)), dtype=np.int64)   # nobody clicks anything
    for _ in range(60):
        env.step(acts)
    dealt = env.states["players"]["damage_dealt"][:, 1]
    assert dealt[0] > 0 and dealt[2] == 0 and dealt[3] == 0       # the scripted tier fights on its own
    pvp.clear_opponents(env)
    env.reset()
    assert not pvp.opponents(env)[0].any()


def test_set_opponents_refuses_bad_input_and_changes_nothing():
    env = osrs_rl.make("pvp_selfplay", num_envs=4, seed=0)
    env.reset()
    before = env.states.copy()
    for kwargs, match in (({"tier": 10}, "tier must lie"), ({"slot": -1}, "slot must lie"),
                          ({}, "exactly one"), ({"tier": 1, "slot": 1}, "exactly one"),
                          ({"tier": [1, 2], "env_ids": [0]}, "one int per env"),
                          ({"tier": 1, "env_ids": [7]}, "env_ids must lie"), ({"tier": 1.5}, "int")):
        with pytest.raises(ValueError, match=match):
            pvp.set_opponents(env, **kwargs)
    assert env.states.tobytes() == before.tobytes()
    single = osrs_rl.make("pvp", num_envs=2)
    with pytest.raises(ValueError, match="pvp_selfplay"):
        pvp.set_opponents(single, slot=0)
    with pytest.raises(ValueError, match="pvp encounters"):
        pvp.set_opponents(osrs_rl.make("template"), tier=1)
