"""What the command line says and the words it takes (issue 42, items 8 and 10): one line where one line
is due, nothing silent, no float32 noise, one word (``--set KEY=VALUE``) for an encounter setting in every
command, and the presets an encounter ships listed with their paths."""

import json

import numba
import pytest
from numba.core.event import unregister

import osrs_rl
from osrs_rl.agent.config import load_config, summary
from osrs_rl.cli import main
from osrs_rl.runtime.compile_notice import MESSAGE, announce_compiles
from osrs_rl.runtime.recording import user_settings
from osrs_rl.train.logger import TRAIN_SECONDS, Dashboard

TINY = ["--log.console", "false", "--env.num_envs", "32", "--log.replays", "false", "--run.total_steps", "2048"]


def _lines(capsys) -> list[str]:
    got = capsys.readouterr()
    return [x for x in (got.out + got.err).splitlines() if x.strip()]


def test_a_numba_compile_is_announced_once_and_a_cached_call_not():
    said = []
    listener = announce_compiles(said.append)
    try:
        @numba.njit
        def f(x):
            return x + 1

        @numba.njit
        def g(x):
            return x * 2
        f(1), g(1), f(2)
    finally:
        unregister("numba:compile", listener)
    assert said == [MESSAGE]


def test_the_header_names_a_time_budget_as_minutes_not_the_step_count():
    cfg = load_config("template", None, ["--run.total_minutes", "1.5"])
    head = summary(cfg.to_dict()).splitlines()[0]
    assert "1.5 minutes of training" in head and head.index("minutes") < head.index(f"{cfg.run.total_steps:,}")
    board = Dashboard(cfg.run.total_steps, console=None, total_seconds=90.0)
    board.latest = {TRAIN_SECONDS: 45.0}
    board.step = 1000
    assert board._progress_text() == "step 1,000 | trained 0:00:45 of 0:01:30 (50.0%)"


@pytest.mark.slow
def test_a_run_without_a_win_points_to_its_best_episode(tmp_path, capsys):
    # a player who cannot hit loses every fight: no evaluation replay is a win
    assert main(["train", "template", "--run.out_dir", str(tmp_path), "--run.name", "A", *TINY,
                 "--run.eval_episodes", "2", "--set", "player_max_hit=0", "--set", "npc_max_hit=60"]) == 0
    text = "\n".join(_lines(capsys))
    assert "none of the evaluation replays is a win; watch its best episode" in text
    assert f"osrs-rl view {tmp_path / 'A' / 'replays' / 'best-default.orlr'}" in text
    config = json.loads((tmp_path / "A" / "config.json").read_text())
    assert config["env"]["config"] == {"player_max_hit": 0, "npc_max_hit": 60}      # --set is --env.config


def test_a_misspelt_setting_is_one_line_in_every_command(tmp_path, capsys):
    for argv in (["train", "template", "--set", "max_tiks=30"], ["train", "template", "--env.config.max_tiks", "30"],
                 ["eval", "template", "--policy", "x", "--set", "max_tiks=30"], ["bench", "template", "--set",
                                                                                 "max_tiks=30"]):
        assert main(argv) == 2, argv
        lines = _lines(capsys)
        assert len(lines) == 1 and "did you mean 'max_ticks'" in lines[0] and "osrs-rl list template" in lines[0], (
            argv, lines)


def test_a_set_without_a_value_is_refused_in_one_line(capsys):
    assert main(["train", "template", "--set", "max_ticks"]) == 2
    lines = _lines(capsys)
    assert len(lines) == 1 and "--set expects KEY=VALUE" in lines[0]


def test_settings_are_shown_as_written_not_as_float32_noise():
    env = osrs_rl.make("template", num_envs=1, win_reward=0.1)
    assert user_settings(env)["win_reward"] == 0.1 and repr(user_settings(env)["win_reward"]) == "0.1"


def test_list_names_the_encounters_presets_with_their_config_paths(capsys):
    assert main(["list", "inferno"]) == 0
    text = "\n".join(_lines(capsys))
    assert "training presets (osrs-rl train inferno [--config PATH]" in text
    for name in ("preset.toml", "zuk.toml", "late.toml"):
        assert f"osrs_rl/encounters/inferno/{name}: " in text
    assert main(["list", "zulrah"]) == 0
    text = "\n".join(_lines(capsys))
    assert "zulrah/preset.toml" in text and "ablation.toml" not in text      # a sweep space is no preset


def test_list_names_the_gpu_preset_apart_from_the_configs_that_stand_alone(capsys):
    assert main(["list", "zulrah"]) == 0
    text = "\n".join(_lines(capsys))
    presets, _, gpu = text.partition("GPU preset (osrs-rl train zulrah --preset gpu")
    assert "zulrah/gpu.toml" not in presets and "osrs_rl/encounters/zulrah/gpu.toml: Zulrah on one GPU" in gpu
    assert main(["list", "pvp_selfplay"]) == 0                               # its folder holds pvp's
    text = "\n".join(_lines(capsys))
    assert "gpu.toml" not in text and "GPU preset" not in text


def test_a_render_failure_inside_the_renderer_is_called_an_internal_error(tmp_path, capsys, monkeypatch):
    from osrs_rl.replay import export

    assert main(["train", "template", "--run.out_dir", str(tmp_path), "--run.name", "A", *TINY,
                 "--run.eval_episodes", "1"]) == 0
    replay = next((tmp_path / "A" / "replays").glob("default-*.orlr"))
    capsys.readouterr()

    def broken(*args, **kwargs):
        raise ValueError("x1 must be greater than or equal to x0")
    monkeypatch.setattr(export, "render_scene", broken)
    assert main(["replay", "render", str(replay), "--out", str(tmp_path / "f.png")]) == 1
    text = " ".join(_lines(capsys))
    assert text.startswith("internal error: drawing frame 1 of 1 failed (ValueError: x1 must be")
    assert "bug in osrs-rl's renderer" in text and "error: x1" not in text
    assert not (tmp_path / "f.png").exists()
