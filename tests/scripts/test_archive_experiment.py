"""scripts/archive_experiment.py, issue 20's experiment: it trains both arms, reads their normal-start
evaluations, and its intervals and table say what the runs gave."""

import json

import numpy as np
import pytest

from tests.scripts import load_script


@pytest.fixture(scope="module")
def ex():
    return load_script("archive_experiment")


def test_bootstrap_intervals_cover_the_mean_and_shrink_with_agreement(ex):
    m, lo, hi = ex.bootstrap_mean([0.2, 0.4, 0.6])
    assert lo < m < hi and m == pytest.approx(0.4)
    assert ex.bootstrap_mean([0.5] * 6) == (0.5, 0.5, 0.5)
    d, dlo, dhi = ex.bootstrap_difference([1.0, 1.1, 0.9], [0.0, 0.1, -0.1])
    assert d == pytest.approx(1.0) and 0.7 < dlo < d < dhi < 1.3


@pytest.mark.slow
def test_both_arms_train_then_the_table_reads_their_evaluations(ex, tmp_path):
    runs, out = tmp_path / "runs", tmp_path / "docs" / "exp"
    args = ["--encounter", "template", "--seeds", "2", "--steps", "4096", "--runs-dir", str(runs), "--out", str(out),
            "--extra", "--env.num_envs 16 --run.eval_episodes 8", "--metric", "damage_taken"]
    assert ex.main(args) == 0
    for arm in ("baseline", "archive"):
        for s in (0, 1):
            assert (runs / f"{arm}-s{s}" / "eval.json").exists()
    assert (runs / "archive-s0" / "archive.orla").exists() and not (runs / "baseline-s0" / "archive.orla").exists()
    table = out.with_suffix(".md").read_text()
    assert "| success rate (won) |" in table and "| damage_taken |" in table and "archive - baseline" in table
    data = json.loads(out.with_suffix(".json").read_text())
    evals = [json.loads((runs / f"baseline-s{s}" / "eval.json").read_text())[0]["win_rate"] for s in (0, 1)]
    clear = next(r for r in data["rows"] if r["key"] == "clear_rate")
    assert clear["baseline"][0] == pytest.approx(np.mean(evals))
    # a second call reads the finished runs instead of training them again
    stamp = (runs / "baseline-s0" / "eval.json").stat().st_mtime_ns
    assert ex.main(args) == 0
    assert (runs / "baseline-s0" / "eval.json").stat().st_mtime_ns == stamp
    # every run trained its steps (4,096, from the logs) and none is flagged as short
    data = json.loads(out.with_suffix(".json").read_text())
    assert {k: t["steps"] for k, t in data["trained"].items()} == {f"{a}-s{s}": 4096 for a in ("baseline", "archive")
                                                                   for s in (0, 1)}
    assert "Not at equal env steps" not in out.with_suffix(".md").read_text()
    # the training logs read at equal steps: each run's normal-start episodes in the window
    assert ex.main([*args, "--curve-window", "0:4096"]) == 0
    data = json.loads(out.with_suffix(".json").read_text())
    table = out.with_suffix(".md").read_text()
    assert "Training curves at equal env steps" in table and data["curve_window"] == [0, 4096]
    from osrs_rl.train.tensorboard import read_events
    events = read_events(runs / "archive-s1")
    logs = [(v, next(c for st, t, c in events if t == "episode/count" and st == step))
            for step, tag, v in events if tag == "episode/damage_taken"]
    mean = sum(v * c for v, c in logs) / sum(c for _, c in logs)
    assert data["curves"]["archive"]["1"]["damage_taken"] == pytest.approx(mean)


def test_a_run_short_of_its_steps_is_flagged(ex):
    text = ex.markdown([], {"baseline": {0: {"clear_rate": 0.5}}, "archive": {0: {"clear_rate": 0.6}}},
                       ["clear_rate"], "cmd", 1000, {}, {"baseline-s0": {"steps": 1000}, "archive-s0": {"steps": 800}})
    assert "**Not at equal env steps**: archive-s0 trained fewer than 1,000" in text
    assert "| archive | 0 | 60.0% | 800 | - |" in text


@pytest.mark.parametrize("text", ["5:3", "x:4", "7", "-1:4"])
def test_a_bad_curve_window_is_refused(ex, text):
    import argparse
    with pytest.raises(argparse.ArgumentTypeError, match="--curve-window"):
        ex.parse_window(text)
    assert ex.parse_window("6_800_000:7800000") == (6_800_000, 7_800_000)
