"""scripts/compare_textbook.py, issue 19's per-sample and per-second comparison: the textbook's level is its
best smoothed point, each learner is timed to its first reach of it, and a real training run's events are
read back into the table."""

import csv
import json
import math

import pytest

from osrs_rl.agent.config import load_config
from osrs_rl.train.ppo import Trainer
from tests.scripts import load_script


@pytest.fixture(scope="module")
def ct():
    return load_script("compare_textbook")


def test_smoothing_weighs_episodes_within_the_window(ct):
    curve = [(100, 1.0, 0.0, 10), (200, 2.0, 1.0, 30), (300, 3.0, math.nan, 0), (400, 4.0, 0.5, 10)]
    got = ct.smooth(curve, window=250)
    # at 400 the window (150, 400] holds the logs at 200 (30 episodes of 1.0) and 400 (10 of 0.5)
    assert got == [(100, 1.0, 0.0, 10), (200, 2.0, 0.75, 40), (300, 3.0, 0.75, 40), (400, 4.0, 0.875, 40)]
    assert ct.first_reach(got, 0.8) == (400, 4.0, 40) and ct.first_reach(got, 0.9) is None


def test_a_point_before_a_whole_window_is_not_a_reach(ct):
    """A run's first log can hold two short fights, one won: 0.5 before any learning. Neither learner reaches a
    level there; each is timed from a whole window on (a 128-env preset "reached" 0.45 at 8 K steps so)."""
    textbook = [(k * 100, k * 1.0, v, 10) for k, v in enumerate([0.0, 0.1, 0.3, 0.4], start=1)]
    preset = [(50, 0.5, 0.5, 2), (100, 1.0, 0.1, 10), (200, 2.0, 0.2, 10), (300, 3.0, 0.6, 10)]
    row = ct.compare(textbook, preset, window=150)
    assert row["final"]["preset_steps"] == 300 and row["best"]["level"] == row["final"]["level"]
    assert ct.first_reach(ct.smooth(preset, 150), 0.4) == (50, 0.5, 2)          # without the window rule
    assert ct.first_reach(ct.smooth(preset, 150), 0.4, 150) == (300, 3.0, 20)


def test_a_rate_within_two_standard_errors_of_the_start_is_noise(ct):
    assert not ct.learned(0.001, 0.0, 3000, rate=True)          # 3 kills in 3,000: se 0.00058
    assert ct.learned(0.005, 0.0, 3000, rate=True)              # 15 in 3,000: se 0.0013
    assert ct.learned(0.1, 0.0, 100, rate=True) and not ct.learned(0.1, 0.0, 10, rate=True)   # 2 se: 0.06, 0.19
    assert ct.learned(3.5, 3.0, 1, rate=False) and not ct.learned(3.0, 3.0, 1000, rate=False)


def test_compare_reads_the_textbooks_final_and_best_levels_and_each_first_reach(ct):
    textbook = [(k * 100, k * 1.0, v, 10) for k, v in enumerate([0.1, 0.4, 0.6, 0.2], start=1)]   # best 0.6 at 300
    preset = [(k * 50, k * 0.25, v, 10) for k, v in enumerate([0.0, 0.3, 0.7, 0.9], start=1)]     # 0.7 at 150
    row = ct.compare(textbook, preset, window=1)
    best, final = row["best"], row["final"]
    assert best["level"] == 0.6 and (best["textbook_steps"], best["textbook_seconds"]) == (300, 3.0)
    assert (best["preset_steps"], best["preset_seconds"]) == (150, 0.75) and best["learned"]
    assert best["step_ratio"] == pytest.approx(0.5) and best["second_ratio"] == pytest.approx(0.25)
    assert final["level"] == 0.2 and final["textbook_steps"] == 200 and final["preset_steps"] == 100
    assert (row["textbook_final"], row["preset_final"]) == (0.2, 0.9)
    never = ct.compare(textbook, [(50, 1.0, 0.1, 10)], window=1)
    assert never["best"]["preset_steps"] is None and never["best"]["step_ratio"] is None
    assert ct.summary({0: row, 1: never, 2: never}, "best") == (None, None)     # the median seed did not reach it
    assert ct.summary({0: row, 1: row, 2: never}, "best") == (pytest.approx(0.5), pytest.approx(0.25))
    # a textbook that ends where it began learned nothing: that reading is left out of the medians
    flat = ct.compare([(100, 1.0, 0.0, 10), (200, 2.0, 0.6, 100), (300, 3.0, 0.0, 10)], preset, window=1)
    assert not flat["final"]["learned"] and flat["best"]["learned"]
    assert ct.summary({0: flat}, "final") == (None, None)


def test_main_reads_a_real_runs_events_and_a_textbook_csv_into_the_table(ct, tmp_path):
    runs = tmp_path / "runs"
    cfg = load_config("template", overrides=["--run.out_dir", str(runs), "--run.name", "preset-s0", "--env.num_envs",
                                             "16", "--ppo.horizon", "16", "--run.total_steps", "2560",
                                             "--run.log_every", "1e-6", "--log.console", "false", "--log.replays",
                                             "false", "--run.eval_episodes", "0", "--env.config.max_ticks", "12"])
    Trainer(cfg, console=False).train()
    settings, opponents = ct.env_settings("template", [])
    reference = tmp_path / "reference-template.json"
    best = dict(config={}, name="epochs2-envs16", textbook_args=["--epochs", "2", "--num-envs", "16"])
    reference.write_text(json.dumps(dict(encounter="template", settings=settings, opponents=opponents, best=best)))
    with (runs / "textbook-epochs2-envs16-s0.csv").open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(("env_steps", "since_first_step_s", "success_rate", "progress", "episodes"))
        w.writerows([(1024, 1.0, 0.0, "nan", 8), (2048, 2.0, 0.0, "nan", 8)])
    out = tmp_path / "table"
    argv = ["--encounter", "template", "--seeds", "0", "--textbook-steps", "2048", "--window", "1",
            "--runs-dir", str(runs), "--out", str(out), "--reference", str(reference)]
    assert ct.main(argv) == 0
    data = json.loads(out.with_suffix(".json").read_text())
    preset = data["curves"]["0"]["preset"]
    assert [p[0] for p in preset] == sorted(p[0] for p in preset) and preset[-1][0] == 2560
    assert all(p[1] > 0 for p in preset)                 # seconds of training from perf/train_seconds
    row = data["rows"]["0"]["best"]
    assert row["level"] == 0.0 and row["preset_steps"] == preset[0][0] and not row["learned"]   # 0 is had at once
    md = out.with_suffix(".md").read_text()
    assert "python scripts/compare_textbook.py --encounter template" in md and "| 0 | best | 0.000 |" in md
    assert "`epochs2-envs16` (textbook_ppo.py --epochs 2 --num-envs 16)" in md and data["reference"] == best


def test_the_textbook_runs_the_reference_never_its_defaults(ct, tmp_path):
    """Issue 43: no reference, or one tuned on other env settings, is refused; the reference's arguments
    reach textbook_ppo.py's command line."""
    args = ct.parse_args(["--encounter", "template", "--out", "x", "--reference", str(tmp_path / "none.json")])
    settings, opponents = ct.env_settings("template", [])
    with pytest.raises(SystemExit, match="no reference configuration.*reference_sweep.py"):
        ct.load_reference(args, settings, opponents)
    best = dict(name="n", textbook_args=["--epochs", "4", "--shared"])
    path = tmp_path / "none.json"
    path.write_text(json.dumps(dict(encounter="template", settings={"max_ticks": "9"}, opponents=[], best=best)))
    with pytest.raises(SystemExit, match="tuned on other env settings"):
        ct.load_reference(args, settings, opponents)
    path.write_text(json.dumps(dict(encounter="zulrah", settings=settings, opponents=opponents, best=best)))
    with pytest.raises(SystemExit, match="reference of 'zulrah'"):
        ct.load_reference(args, settings, opponents)
    path.write_text(json.dumps(dict(encounter="template", settings=settings, opponents=opponents, best=best)))
    ref = ct.load_reference(args, settings, opponents)
    cmd = ct.textbook_command(args, 0, settings, opponents, "o.csv", ref["textbook_args"])
    assert cmd[-3:] == ["--epochs", "4", "--shared"]


def test_textbook_and_trainer_commands_share_the_env_settings_and_opponents(ct):
    args = ct.parse_args(["--encounter", "pvp", "--set", "max_ticks=300", "--out", "x", "--extra",
                          "--run.total_minutes 20"])
    settings, opponents = ct.env_settings("pvp", args.set)
    assert settings["max_ticks"] == "300" and settings["damage_reward"] == "0.05"
    assert opponents[:2] == ["average", "skilled"] and opponents.count("nightmare") == 3
    tb = ct.textbook_command(args, 1, settings, opponents, "o.csv")
    tr = ct.preset_command(args, 1, settings, "runs")
    assert "max_ticks=300" in tb and tb[tb.index("--opponents") + 1] == ",".join(opponents)
    assert tr[tr.index("--env.config.max_ticks") + 1] == "300" and tr[-2:] == ["--run.total_minutes", "20"]
