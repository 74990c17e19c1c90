"""Smoke runs of the command line (tiny budgets; no timing is asserted)."""

import functools
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from osrs_rl import cli


def test_demo_rollout_runs(capsys):
    cli._demo_rollout(num_envs=8, ticks=120)
    assert "episodes finished" in capsys.readouterr().out


def test_bench_unknown_encounter(capsys):
    assert cli.main(["bench", "nope"]) == 2
    assert "template" in capsys.readouterr().out


@pytest.mark.slow
def test_runtime_bench_reports_every_batch():
    from osrs_rl.runtime import bench

    r = bench.measure("template")
    assert [row["batch"] for row in r["rows"]] == list(bench.BATCHES)
    assert r["runtime"] > 0 and r["direct"] > 0 and r["snapshot_ms"] > 0


def test_bench_refuses_an_unknown_setting(capsys):
    assert cli.main(["bench", "template", "--set", "nope=1"]) == 2
    assert "nope" in _said(capsys)


def test_bench_measures_the_settings_an_encounter_declares(monkeypatch, capsys):
    """``bench_configs`` rows are measured with their settings, the user's ``--set`` on top."""
    import dataclasses

    from osrs_rl.runtime import bench, registry

    spec = dataclasses.replace(registry.get_spec("template"), bench_configs=(("late", {"max_ticks": 77}),))
    monkeypatch.setattr(bench, "get_spec", lambda name: spec)
    seen = []

    def fake_measure(name, **config):
        seen.append(("all", config))
        rows = [{"batch": n, "1 core": 1.0, "2 threads": 2.0} for n in bench.BATCHES]
        return {"threads": 2, "rows": rows, "direct": 1.0, "runtime": 1.0, "snapshot_ms": 1.0, "restore_ms": 1.0,
                "check_us_per_record": 1.0, "check_one_us": 1.0, "restore_one_us": 1.0, "state_bytes": 8}

    def fake_batch(name, n=1024, seed=0, threads=None, **config):
        seen.append((n, config))
        return {"batch": n, "1 core": 123_456.0, "2 threads": 234_567.0}

    monkeypatch.setattr(bench, "measure", fake_measure)
    monkeypatch.setattr(bench, "measure_batch", fake_batch)
    bench.main("template", {"max_ticks": 50})
    out = capsys.readouterr().out
    assert seen == [("all", {"max_ticks": 50}), (1024, {"max_ticks": 50})]   # the user's --set wins
    assert "late" in out and "123,456" in out


def test_ladder_refuses_bad_settings(capsys):
    assert cli.main(["eval", "pvp", "--tool", "ladder", "--opt", "fights=0"]) == 2
    assert "'fights' = 0 is out of range" in _said(capsys)
    assert cli.main(["eval", "pvp", "--tool", "ladder", "--opt", "fights=1", "--opt", "max_ticks=5"]) == 2
    assert "max_ticks" in _said(capsys)
    assert cli.main(["eval", "pvp", "--tool", "ladder", "--opt", "tiers=random,nobody"]) == 2
    assert "unknown scripted tier 'nobody'" in _said(capsys)


@pytest.mark.slow
def test_ladder_reports_both_seat_head_to_heads():
    from osrs_rl.runtime.registry import get_spec

    report = get_spec("pvp").tool("ladder").run(seed=0, progress=None, fights=2, tiers="random,nightmare",
                                                max_ticks=60)
    assert report.columns == ("tier", "random", "nightmar") and [r[0] for r in report.rows] == ["random", "nightmare"]
    assert any("nightmare beats random in" in n and "/4 fights, both seats" in n for n in report.notes)


def test_eval_names_the_tools_an_encounter_declares(capsys):
    assert cli.main(["eval", "zulrah", "--tool", "ladder"]) == 2
    assert "encounter 'zulrah' has no tool 'ladder' (its tools: none)" in _said(capsys)


# ---- options that would do nothing in their combination are refused (issue 15, item 9) ---------------


def _said(capsys) -> str:
    return " ".join(capsys.readouterr().out.split())          # rich wraps long lines


@pytest.mark.parametrize("argv, names", [
    (["eval", "zulrah", "--policy", "solver", "--replays", "2"], "--replays"),
    (["eval", "zulrah", "--policy", "solver", "--opponent", "elite"], "--opponent"),
    (["eval", "zulrah", "--policy", "solver", "--greedy"], "--greedy"),
    (["eval", "pvp", "--tool", "ladder", "--opponent", "elite"], "--opponent"),
    (["eval", "pvp", "--tool", "ladder", "--greedy"], "--greedy"),
    (["eval", "pvp", "--tool", "ladder", "--replays", "2"], "--replays"),
    (["eval", "pvp", "--tool", "ladder", "--episodes", "8"], "--episodes"),
    (["eval", "pvp", "--tool", "ladder", "--policy", "solver"], "--tool"),
    (["eval", "pvp", "--tool", "ladder", "--checkpoint", "x.pt"], "--tool"),
    (["eval", "pvp", "--checkpoint", "x.pt", "--opt", "fights=3"], "--opt"),
    (["eval", "pvp", "--checkpoint", "x.pt", "--replay-dir", "out"], "--replays"),
    (["eval", "zulrah"], "osrs-rl list zulrah"),
])
def test_eval_refuses_options_that_would_do_nothing(capsys, argv, names):
    assert cli.main(argv) == 2
    said = _said(capsys)
    assert "error:" in said and names in said


@functools.cache
def _template_replay():
    import numpy as np

    from osrs_rl.replay import record_policy_episode
    from osrs_rl.runtime.checks import random_legal_actions

    rng = np.random.default_rng(0)
    return record_policy_episode("template", {"max_ticks": 12}, lambda env, obs, info: (
        random_legal_actions(env, rng), {}), seed=4, max_ticks=12)


@pytest.mark.parametrize("argv, names", [
    (["render", "{f}", "--out", "{d}/x.png", "--start", "50", "--end", "10"], "--start"),
    (["render", "{f}", "--out", "{d}/x.png", "--fps", "3"], "--fps"),
    (["render", "{f}", "--out", "{d}/x.gif", "--start", "5", "--end", "1"], "--start 5 comes after --end 1"),
    (["render", "{f}", "--out", "{d}/x.gif", "--tick", "3"], "--tick"),
    (["verify", "{f}", "--out", "{d}/x.gif"], "--out"),
    (["info", "{f}", "--start", "3"], "--start"),
])
def test_replay_refuses_render_options_that_would_do_nothing(tmp_path, capsys, argv, names):
    from osrs_rl.replay import save_replay

    path = save_replay(tmp_path / "t.orlr", _template_replay())
    argv = ["replay"] + [a.format(f=path, d=tmp_path) for a in argv]
    assert cli.main(argv) == 2
    said = _said(capsys)
    assert "error:" in said and names in said
    assert not list(tmp_path.glob("x.*"))                       # nothing was drawn


# ---- Ctrl-C outside training stops with one line (issue 15, item 14) -----------------------------------
_INTERRUPTIBLE = textwrap.dedent("""
    import signal, sys, time
    signal.signal(signal.SIGINT, signal.default_int_handler)   # a background child may inherit SIG_IGN
    from osrs_rl import cli
    from osrs_rl.encounters.pvp import ladder

    def slow_ladder(*args, **kwargs):                          # stands for a long ladder: waits for Ctrl-C
        print("ready", flush=True)
        time.sleep(60)
    ladder.ladder = slow_ladder
    sys.exit(cli.main(["eval", "pvp", "--tool", "ladder", "--opt", "fights=2"]))
""")


def test_ctrl_c_outside_training_prints_one_line_and_exits_130(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(Path(cli.__file__).parents[1]), "COLUMNS": "200"}
    child = subprocess.Popen([sys.executable, "-c", _INTERRUPTIBLE], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=env, start_new_session=True)
    try:
        before = []                                    # the ladder's start line, then the stand-in's "ready"
        while not before or before[-1] not in ("ready", ""):
            before.append(child.stdout.readline().strip())
        assert before[-1] == "ready", before
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 130
    assert "Traceback" not in err and "Traceback" not in out
    lines = [line for line in out.splitlines() if line.strip()]                # what came after the signal
    assert lines == ["interrupted: osrs-rl eval stopped before it finished"]


# ---- what train will do, before it does it (issue 15, item 22) ------------------------------------------
def test_train_help_lists_the_encounters_and_every_sections_settings(capsys):
    from osrs_rl.runtime.registry import names

    with pytest.raises(SystemExit):
        cli.main(["train", "--help"])
    said = _said(capsys)
    assert all(name in said for name in names())
    for setting in ("[env] encounter=pvp num_envs=", "[ppo] horizon=", "entropy_coef=", "[run] total_steps=",
                    "[league] enabled="):
        assert setting in said, setting


def test_print_config_prints_a_toml_file_that_reads_back_and_trains_nothing(tmp_path, capsys):
    from osrs_rl.agent.config import load_config

    argv = ["--run.total_steps", "777", "--env.config.max_ticks", "321", "--run.out_dir", str(tmp_path / "runs"),
            "--model.activation", "tanh", "--model.separate_value", "true", "--ppo.bootstrap_truncation", "false"]
    assert cli.main(["train", "zulrah", "--print-config", *argv]) == 0
    text = capsys.readouterr().out
    (tmp_path / "printed.toml").write_text(text)
    again = load_config("zulrah", tmp_path / "printed.toml")
    assert again == load_config("zulrah", overrides=argv)
    assert again.run.total_steps == 777 and again.env.config["max_ticks"] == 321
    assert (again.model.activation, again.model.separate_value, again.ppo.bootstrap_truncation) == ("tanh", True, False)
    assert "#   gear_tier = " in text                      # the encounter's own settings, as comments
    assert not (tmp_path / "runs").exists()


# ---- long evaluations say they started, off a terminal too (issue 15, item 13) ---------------------------
def test_ladder_off_a_terminal_says_it_started_before_its_table(capsys):
    assert cli.main(["eval", "pvp", "--tool", "ladder", "--opt", "fights=2", "--opt", "tiers=random,nightmare",
                     "--opt", "max_ticks=60"]) == 0
    out = capsys.readouterr().out
    assert "pvp ladder ..." in out
    assert out.index("pvp ladder ...") < out.index("pvp ladder: % of fights") < out.index("nightmare beats random")


@pytest.mark.slow
def test_solver_eval_off_a_terminal_says_it_started_before_its_table(capsys):
    assert cli.main(["eval", "zulrah", "--policy", "solver", "--set", "gear_tier=max", "--episodes", "2",
                     "--set", "max_ticks=40"]) == 0
    out = _said(capsys)
    assert "solver: 1 gear_tier value(s) x 2 episodes: 2 episodes ..." in out
    assert out.index("2 episodes ...") < out.index("gear tier")


# ---- a run's evaluation is logged beside its training curves (issue 15, item 23) -------------------------
def test_train_logs_its_final_evaluation_to_tensorboard(tmp_path, capsys):
    import json

    from osrs_rl.train.tensorboard import read_events

    assert cli.main(["train", "template", "--run.total_steps", "2048", "--run.out_dir", str(tmp_path), "--run.name",
                     "e", "--log.console", "false", "--log.replays", "false", "--run.eval_episodes", "8"]) == 0
    run = tmp_path / "e"
    events = read_events(run)
    last_step = max(step for step, tag, _ in events if tag.startswith("loss/"))
    logged = {tag: (step, value) for step, tag, value in events if tag.startswith("eval/")}
    (row,) = json.loads((run / "eval.json").read_text())
    assert logged[f"eval/{row['opponent']}/win_rate"] == (last_step, pytest.approx(row["win_rate"]))
    assert logged[f"eval/{row['opponent']}/mean_ticks"] == (last_step, pytest.approx(row["mean_ticks"]))


def test_first_win_names_a_won_evaluation_replay(tmp_path):
    """The trainer's closing lines point at a replay the learner won: found by re-simulating each one's end."""
    import numpy as np

    from osrs_rl.cli import _first_win
    from osrs_rl.replay import record_policy_episode, save_replay
    from osrs_rl.replay.outcome import replay_outcome

    def fight(env, obs, info):                       # attack behind protect from melee, eat when the option is open
        return np.array([[1, 1, 1]]) if info["action_mask"][0, 6] else np.array([[1, 1, 0]])

    def idle(env, obs, info):
        return np.zeros((1, 3), dtype=np.int64)

    lost = save_replay(tmp_path / "default-0.orlr", record_policy_episode("template", {"max_ticks": 300}, idle))
    won = save_replay(tmp_path / "default-1.orlr", record_policy_episode("template", {"max_ticks": 300}, fight))
    copy = save_replay(tmp_path / "best-default.orlr", record_policy_episode("template", {"max_ticks": 300}, fight,
                                                                            meta={"copy_of": won.name}))
    from osrs_rl.replay import load_replay

    assert replay_outcome(load_replay(lost)) != "won" and replay_outcome(load_replay(won)) == "won"
    assert _first_win([lost, copy, won]) == won
    assert _first_win([lost]) is None
