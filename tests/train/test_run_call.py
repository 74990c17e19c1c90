"""``osrs_rl.train.run``: one library call trains, evaluates and writes what ``osrs-rl train`` writes
(eval.json with its provenance, the evaluation's scalars, the replays), and says where in its result."""

import json

import pytest
import torch

import osrs_rl.train
from osrs_rl.agent.checkpoint import load_checkpoint
from osrs_rl.agent.config import load_config
from osrs_rl.agent.policy import load_policy
from osrs_rl.cli import main
from osrs_rl.io.provenance import provenance
from osrs_rl.train.ppo import Trainer
from osrs_rl.train.tensorboard import read_events

# 16 envs x 16 ticks = 256 steps an update, 2 updates: a few seconds once the kernels are compiled
TINY = ["--run.total_steps", "512", "--env.num_envs", "16", "--ppo.horizon", "16", "--log.console", "false",
        "--run.eval_episodes", "4"]


def _cfg(tmp_path, name: str, *extra: str):
    return load_config("template", overrides=[*TINY, "--run.out_dir", str(tmp_path), "--run.name", name, *extra])


def test_run_trains_evaluates_and_says_where_everything_went(tmp_path, capsys):
    result = osrs_rl.train.run(_cfg(tmp_path, "lib"))
    run_dir = tmp_path / "lib"
    assert result.run_dir == run_dir and result.checkpoint == run_dir / "checkpoint.pt"
    assert result.global_step == 512 and load_checkpoint(result.checkpoint)[0]["global_step"] == 512
    assert load_policy(result.checkpoint).encounter == "template"
    assert capsys.readouterr().out == ""                          # no console asked for: nothing printed

    rows = json.loads((run_dir / "eval.json").read_text())
    assert result.eval_path == run_dir / "eval.json"
    assert [r["opponent"] for r in rows] == ["default"] and rows[0]["episodes"] == 4
    assert rows[0]["provenance"] == provenance()
    summary = result.eval_summary["default"]
    assert summary["win_rate"] == rows[0]["win_rate"] and summary["loss_rate"] is None   # template: no failure
    logged = {tag: (step, value) for step, tag, value in read_events(run_dir) if tag.startswith("eval/")}
    assert logged["eval/default/win_rate"] == (512, pytest.approx(summary["win_rate"]))
    assert "eval/default/loss_rate" not in logged                  # nan is not logged

    assert sorted(p.name for p in result.replays) == ["best-default.orlr", "default-0.orlr", "default-1.orlr"]
    assert all(p.parent == run_dir / "replays" for p in result.replays)
    assert result.training_replays == run_dir / "replays" / "train"
    assert not (run_dir / ".lock").exists()                         # the folder is free once run returns
    assert result.policy is not None and not result.policy.model.training


def test_the_command_line_writes_what_the_library_call_writes(tmp_path, capsys):
    """The CLI is a shell around run(): the same settings give the same weights, eval.json and files."""
    osrs_rl.train.run(_cfg(tmp_path, "lib"))
    assert main(["train", "template", *TINY, "--run.out_dir", str(tmp_path), "--run.name", "cli"]) == 0
    assert "eval.json" in capsys.readouterr().out
    lib, cli = tmp_path / "lib", tmp_path / "cli"
    assert json.loads((lib / "eval.json").read_text()) == json.loads((cli / "eval.json").read_text())
    a, b = load_checkpoint(lib / "checkpoint.pt")[0]["model"], load_checkpoint(cli / "checkpoint.pt")[0]["model"]
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)

    def files(run):
        return sorted(str(p.relative_to(run)) for p in run.rglob("*") if p.is_file() and "tfevents" not in p.name)
    assert files(lib) == files(cli)


def test_without_the_evaluation_no_eval_files_are_written_and_the_policy_is_returned(tmp_path):
    result = osrs_rl.train.run(_cfg(tmp_path, "quiet", "--log.replays", "false"), evaluate=False)
    assert result.eval_rows == [] and result.eval_summary == {} and result.eval_path is None
    assert not (tmp_path / "quiet" / "eval.json").exists() and not (tmp_path / "quiet" / "replays").exists()
    assert result.policy is not None and result.checkpoint.is_file()


def test_a_built_trainer_takes_no_second_set_of_trainer_arguments(tmp_path):
    trainer = Trainer(_cfg(tmp_path, "t"), console=False)
    try:
        with pytest.raises(ValueError, match="resume belong to the Trainer"):
            osrs_rl.train.run(trainer, resume=tmp_path / "x.pt")
    finally:
        trainer.close()
