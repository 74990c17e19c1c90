"""A training run that fails before it writes anything leaves no run folder (issue 15, item 10: `osrs-rl train
zulrah --env.config.gear_tier 9` left an empty timestamped folder behind, as did any setting refused by the envs,
the league or the logger)."""

import pytest

from osrs_rl import cli
from osrs_rl.train import logger as logger_module

SMALL = ["--run.total_steps", "64", "--env.num_envs", "4", "--ppo.horizon", "8", "--run.eval_episodes", "0",
         "--log.tensorboard", "false"]


def _train(tmp_path, encounter: str, *extra: str) -> int:
    return cli.main(["train", encounter, "--run.out_dir", str(tmp_path / "runs"), *SMALL, *extra])


@pytest.mark.parametrize("encounter, extra, message", [
    ("zulrah", ["--env.config.gear_tier", "9"], "gear_tier"),                   # refused by make()
    ("template", ["--env.config.max_ticks", "0"], "max_ticks"),
    ("template", ["--env.opponents", "3"], "no opponents to choose"),           # refused by spread_opponents
    ("template", ["--league.enabled", "true"], "league.enabled"),               # refused by the trainer
    ("template", ["--optim.name", "bogus"], "optim.name"),                      # refused by the config
    ("template", ["--resume", "{tmp}/nope.pt"], "no checkpoint"),
    ("template", ["--resume", "{tmp}/empty.pt"], "empty file"),
])
def test_a_refused_setting_leaves_no_run_folder(tmp_path, capsys, encounter, extra, message):
    (tmp_path / "empty.pt").write_bytes(b"")
    assert _train(tmp_path, encounter, *[a.format(tmp=tmp_path) for a in extra]) == 2
    assert message in " ".join(capsys.readouterr().out.split())
    assert not (tmp_path / "runs").exists() or list((tmp_path / "runs").iterdir()) == []


def _no_wandb(mode):
    raise ImportError(f"W&B logging was asked for (wandb={mode!r}) but the 'wandb' package is not installed")


def test_a_logger_that_cannot_start_leaves_no_run_folder(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(logger_module, "_import_wandb", _no_wandb)
    assert _train(tmp_path, "template", "--log.wandb", "offline") == 2
    assert "'wandb' package is not installed" in " ".join(capsys.readouterr().out.split())
    assert list((tmp_path / "runs").iterdir()) == []


def test_a_folder_the_user_made_is_kept(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(logger_module, "_import_wandb", _no_wandb)
    mine = tmp_path / "runs" / "mine"
    mine.mkdir(parents=True)
    assert _train(tmp_path, "template", "--run.name", "mine", "--log.wandb", "offline") == 2
    assert mine.is_dir()                  # it was there before the run: not the run's to remove
