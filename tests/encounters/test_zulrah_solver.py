"""The scripted Zulrah solver: legal actions, kills in max gear, prayers, magma, what it may know,
and the ``osrs-rl eval zulrah --policy solver`` table (sources: the encounter's README.md, rotations.py)."""

import numpy as np
import pytest

import osrs_rl
from osrs_rl import cli
from osrs_rl.core import prayers as P
from osrs_rl.encounters.zulrah import rotations as RT
from osrs_rl.encounters.zulrah import state as ST
from osrs_rl.encounters.zulrah.solver import solver_actions
from osrs_rl.train.evaluate_solver import play_scripted


def make(num_envs=1, seed=0, **config):
    env = osrs_rl.make("zulrah", num_envs=num_envs, seed=seed, **config)
    env.reset()
    return env


def solve(env, ticks, watch=None):
    """Step ``ticks`` ticks with the solver's actions; ``watch(env, actions)`` after each step."""
    actions = np.zeros((env.num_envs, env.spec.num_heads), dtype=np.int64)
    for _ in range(ticks):
        solver_actions(env.states, env.config, actions)
        env.step(actions)
        if watch is not None:
            watch(env, actions)


def test_every_action_is_legal_under_the_mask():
    env = make(num_envs=48, seed=4, gear_tier=-1, max_ticks=400)     # every tier, autoreset included
    actions = np.zeros((env.num_envs, env.spec.num_heads), dtype=np.int64)
    offsets = np.concatenate(([0], np.cumsum(env.spec.head_sizes)[:-1]))
    for _ in range(900):
        solver_actions(env.states, env.config, actions)
        mask = env.action_mask()
        chosen = mask[np.arange(env.num_envs)[:, None], offsets[None, :] + actions]
        assert chosen.all(), np.argwhere(~chosen)
        _, _, _, _, info = env.step(actions)
        assert info["invalid_actions"].sum() == 0


def test_max_gear_kills_zulrah_in_most_fights():
    # measured: 256/256 kills in max gear on seeds 0-2 (about 168 ticks, 1.7 minutes, to kill)
    row = play_scripted("zulrah", "solver", episodes=64, seed=11, config={"gear_tier": ST.TIER_MAX})
    assert row.win_rate >= 0.9, row
    assert 120 <= row.mean_ticks_to_win <= 260, row
    assert row.damage_taken["taken_magma"] == 0 and row.damage_taken["taken_clouds"] == 0, row


# (rotation, phase, what Zulrah does): serpentine east, 5 ranged (rotation 3, phase 2); tanzanite west,
# 5 magic (rotation 1, phase 6); the Jad phases, first shot ranged (rotation 1) and magic (rotation 3)
PRAYER_PHASES = [(2, 1, "serpentine"), (0, 5, "tanzanite"), (0, 8, "jad"), (2, 9, "jad")]


@pytest.mark.parametrize("rotation,phase,kind", PRAYER_PHASES)
def test_it_prays_right_at_every_attack(rotation, phase, kind):
    env = make(num_envs=16, seed=rotation * 20 + phase, start_rotation=rotation, start_phase=phase,
               start_hp=500)
    env.states["z_hp"] = 30_000                      # Zulrah outlives the phase: every attack is made
    env.set_states(range(16), env.get_states())
    seen = []

    def watch(env, _):
        for s in env.states:
            code = int(s["last_action"])
            if s["phase"] != phase or code not in (RT.ACT_RANGED, RT.ACT_MAGIC, RT.ACT_TANZANITE):
                continue
            magic = bool((int(s["p"]["active_prayers"]) >> P.PROTECT_FROM_MAGIC) & 1)
            missiles = bool((int(s["p"]["active_prayers"]) >> P.PROTECT_FROM_MISSILES) & 1)
            want_magic = code != RT.ACT_RANGED      # a tanzanite shot gives no tell: magic [ZEN: ranged p = 3/10]
            seen.append((magic, missiles) == (want_magic, not want_magic))

    solve(env, RT.ROTATIONS[rotation][phase].ticks, watch)
    attacks = {"serpentine": 5, "tanzanite": 5, "jad": RT.JAD_SHOTS[rotation]}[kind]
    assert len(seen) == 16 * attacks and all(seen)
    s = env.states
    if kind != "tanzanite":                          # every shot is prayable: every one is blocked
        assert (s["prayed_attacks"] == s["zulrah_attacks"]).all()
        assert (s["damage_taken"][:, ST.SRC_JAD if kind == "jad" else ST.SRC_SERPENTINE] == 0).all()


@pytest.mark.parametrize("tile", [(2274, 3077), (2262, 3070)])     # the platform's north-east and south-west corners
@pytest.mark.parametrize("safespots_clouded", [False, True])
def test_it_leaves_the_stared_tile_before_the_slam(tile, safespots_clouded):
    # magma at center, rotation 1 phase 2: stares at ticks 0 and 9 of its stand, slams at 5 and 15
    # [ZEN MeleeSequence]. With clouds over the melee safespots it has to step off the stared tile itself.
    env = make(num_envs=8, seed=3, start_rotation=0, start_phase=1)
    s = env.states
    s["p"]["x"], s["p"]["y"] = RT.local(*tile)
    if safespots_clouded:
        for k, centre in enumerate(((2273, 3072), (2263, 3072))):     # each 3x3 covers two safespots
            s["clouds"][:, k]["active"], s["clouds"][:, k]["life"] = 1, 1000
            s["clouds"][:, k]["x"], s["clouds"][:, k]["y"] = RT.local(*centre)
    env.set_states(range(8), env.get_states())
    cfg = env.config[0]
    picks_off_safespot = []

    def watch(env, _):
        for st in env.states:
            x, y = int(st["p"]["x"]), int(st["p"]["y"])
            if st["last_action"] == RT.ACT_MAGMA_PICK:
                picks_off_safespot.append(not cfg["safespot"][x, y])
            if st["last_action"] == RT.ACT_MAGMA_SLAM:
                away = max(abs(x - int(st["magma_x"])), abs(y - int(st["magma_y"]))) > 1
                assert away or cfg["safespot"][x, y]

    solve(env, RT.ROTATIONS[0][1].ticks, watch)
    assert (env.states["damage_taken"][:, ST.SRC_MAGMA] == 0).all() and (env.states["stun"] == 0).all()
    if safespots_clouded:
        assert len(picks_off_safespot) == 16 and all(picks_off_safespot)
    assert (env.states["damage_taken"][:, ST.SRC_CLOUDS] == 0).all()


def test_the_current_phase_is_known_before_the_rotation_is():
    # the solver reads the current phase from the rotation table: that must leak nothing, so every
    # rotation the phases seen so far allow must hold the same phase there (rotations.ROTATIONS)
    for r, rot in enumerate(RT.ROTATIONS):
        for p in range(RT.identify_phase(r)):
            seen = [(q.form, q.spot) for q in rot[:p + 1]]
            allowed = [o for o in RT.ROTATIONS if [(q.form, q.spot) for q in o[:p + 1]] == seen]
            assert all(o[p] == rot[p] for o in allowed), (r, p)


def test_the_eval_command_prints_a_table_for_one_tier(capsys):
    assert cli.main(["eval", "zulrah", "--policy", "solver", "--set", "gear_tier=max", "--episodes", "4",
                     "--seed", "1"]) == 0
    out = capsys.readouterr().out
    for words in ("killed rate", "95 % interval", "ticks when killed", "min)", "died", "timed out", "snakelings",
                  "antivenom_doses"):
        assert words in out
    assert "budget" not in out


def test_the_solver_is_declared_by_the_zulrah_spec_with_a_row_per_gear_tier():
    from osrs_rl.runtime.registry import get_spec
    from osrs_rl.train.evaluate_solver import scripted_rows

    spec = get_spec("zulrah")
    assert spec.scripted_policy("solver").actions is solver_actions
    assert scripted_rows(spec, "solver") == [(n, {"gear_tier": k}) for k, n in enumerate(ST.TIER_NAMES)]
    assert scripted_rows(spec, "solver", chosen=1) == [("mid", {"gear_tier": 1})]


@pytest.mark.parametrize("argv,message", [
    (["eval", "zulrah", "--policy", "nope"], "no scripted policy 'nope' (its scripted policies: solver)"),
    (["eval", "pvp", "--policy", "solver"], "no scripted policy 'solver'"),
    (["eval", "zulrah", "--opt", "x=1"], "--opt goes with --policy or --tool"),
    (["eval", "zulrah", "--policy", "solver", "--opt", "x=1"], "has no setting 'x'"),
    (["eval", "zulrah", "--policy", "solver", "--episodes", "0"], "--episodes must be at least 1"),
    (["eval", "zulrah", "--policy", "solver", "--set", "gear_tier=max", "--set", "max_ticks=5"], "max_ticks"),
    (["eval", "zulrah", "--policy", "solver", "--checkpoint", "x.pt"], "not both"),
    (["eval", "zulrah", "--policy", "solver", "--set", "gear_tier=huge"], "one of weighted, drawn, budget, mid, max"),
    (["eval", "zulrah", "--policy", "solver", "--set", "gear_tiers=max"], "has no setting 'gear_tiers'"),
])
def test_the_eval_command_names_bad_values(argv, message, capsys):
    assert cli.main(argv) == 2
    assert message in " ".join(capsys.readouterr().out.split())
