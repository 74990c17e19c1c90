"""scripts/bench_values.py: rollouts with the value in each tick's forward against the values computed after."""

from tests.scripts import load_script, small_config


def test_it_times_both_arms_or_says_there_is_nothing_to_compare(tmp_path, capsys):
    script = load_script("bench_values")
    for separate in ("true", "false"):
        config = small_config(tmp_path / f"small-{separate}.toml", separate_value=separate)
        code = script.main(["--encounter", "template", "--config", str(config), "--rounds", "1", "--iterations", "1"])
        out = capsys.readouterr().out
        if separate == "true":
            assert code == 0
            assert "rollout   batched" in out and "iteration per_tick" in out and "(1.00x per tick)" in out
        else:
            assert code == 1 and "nothing to compare" in out
