"""Smoke runs of the command line (tiny budgets; no timing is asserted)."""

from osrs_rl import cli


def test_demo_rollout_runs(capsys):
    cli._demo_rollout(num_envs=8, ticks=120)
    assert "episodes finished" in capsys.readouterr().out


def test_bench_unknown_encounter(capsys):
    assert cli.main(["bench", "nope"]) == 2
    assert "template" in capsys.readouterr().out


def test_runtime_bench_reports_every_batch():
    from osrs_rl.runtime import bench

    r = bench.measure("template")
    assert [row["batch"] for row in r["rows"]] == list(bench.BATCHES)
    assert r["runtime"] > 0 and r["direct"] > 0 and r["snapshot_ms"] > 0
