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


def test_ladder_refuses_bad_settings(capsys):
    assert cli.main(["eval", "pvp", "--ladder", "--fights", "0"]) == 2
    assert "--fights" in capsys.readouterr().out
    assert cli.main(["eval", "pvp", "--ladder", "--fights", "1", "--max-ticks", "5"]) == 2
    assert "max_ticks" in capsys.readouterr().out


def test_ladder_prints_both_seat_head_to_heads(capsys):
    from osrs_rl.encounters.pvp.ladder import print_ladder

    matrix = print_ladder(fights=2, tiers=[0, 9], max_ticks=60)
    out = capsys.readouterr().out
    assert matrix.shape == (2, 2, 2)
    assert "nightmare beats random in" in out and "/4 fights, both seats" in out
