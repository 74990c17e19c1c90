"""Resuming a run: where it writes, which settings it keeps, what it refuses; checkpoints whose
contents are wrong; a run that diverges."""

import os
import re
import shlex
import shutil
import subprocess
import sys

import pytest
import torch

from osrs_rl.agent.checkpoint import CheckpointError, load_checkpoint, non_finite_tensors, save_checkpoint
from osrs_rl.agent.config import load_config
from osrs_rl.agent.policy import load_policy
from osrs_rl.cli import main
from osrs_rl.train import ppo
from osrs_rl.train.ppo import Trainer

# a tiny run: 32 envs x 32 ticks = 1024 steps per iteration
TINY = ["--log.console", "false", "--run.eval_episodes", "0", "--env.num_envs", "32", "--log.replays", "false"]


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A finished 4-iteration run with settings of its own (not the preset's): its checkpoint."""
    out = tmp_path_factory.mktemp("runs")
    cfg = load_config("template", overrides=["--run.out_dir", str(out), "--run.name", "A", *TINY,
                                             "--run.total_steps", "4096", "--optim.lr", "0.002"])
    Trainer(cfg, console=False).train()
    return out / "A" / "checkpoint.pt"


def _files(folder):
    return {p.relative_to(folder): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


class _Captured(Exception):
    pass


@pytest.fixture
def capture(monkeypatch):
    """``capture()``: from now on the Trainers the command line builds stop before they train (so
    write nothing) and are kept in the list it returns."""
    trainers = []

    def train(self):
        self.collector.close()
        trainers.append(self)
        raise _Captured

    def start() -> list:
        monkeypatch.setattr(Trainer, "train", train)
        return trainers
    return start


def _text(capsys) -> str:
    return " ".join(capsys.readouterr().out.split())


# ---- where a resume writes ------------------------------------------------------------------------
def test_a_copied_checkpoint_never_writes_into_the_run_it_came_from(finished, tmp_path, capsys, monkeypatch):
    run_a = finished.parent
    before = _files(run_a)
    copy = tmp_path / "ck" / "x.pt"
    copy.parent.mkdir()
    shutil.copy(finished, copy)
    other = tmp_path / "other"
    assert main(["train", "template", "--resume", str(copy), "--run.out_dir", str(other), "--run.name", "fresh",
                 "--run.total_steps", "6144"]) == 0
    assert _files(run_a) == before                                 # byte for byte, and nothing added
    assert f"this run writes to {other / 'fresh'}" in _text(capsys)
    payload, _ = load_checkpoint(other / "fresh" / "checkpoint.pt")
    assert payload["global_step"] == 6144 and "run_dir" not in payload
    assert payload["config"]["run"]["out_dir"] == str(other) and payload["config"]["run"]["name"] == "fresh"
    # without a folder named, a copy has none of its own: refused, nothing written
    assert main(["train", "template", "--resume", str(copy)]) == 2
    assert "is not a run folder's checkpoint.pt" in _text(capsys)
    # naming only the run's name puts it under runs/ (as a new run's folder)
    monkeypatch.chdir(tmp_path)
    assert main(["train", "template", "--resume", str(copy), "--run.name", "b"]) == 0
    assert (tmp_path / "runs" / "b" / "checkpoint.pt").is_file()
    assert sorted(p.name for p in copy.parent.iterdir()) == ["x.pt"] and _files(run_a) == before


# ---- which settings a resume keeps, changes, refuses ------------------------------------------------------
def test_a_resume_keeps_the_runs_settings_and_changes_only_the_allowed_ones(finished, capture, capsys):
    captured = capture()
    resume = ["train", "template", "--resume", str(finished)]
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    stale = finished.parent / f".checkpoint.pt.{gone.pid}.0.tmp"        # what a killed run left
    live = finished.parent / f".checkpoint.pt.{os.getpid()}.77.tmp"     # a write in progress
    for path in (stale, live):
        path.write_bytes(b"partial")
    with pytest.raises(_Captured):
        main(resume)
    assert not stale.exists() and live.exists()     # a run starting in the folder sweeps it
    live.unlink()
    kept = captured[-1]
    assert kept.cfg.run.total_steps == 4096 and kept.cfg.optim.lr == 0.002     # the run's, not the preset's
    assert kept.cfg.env.num_envs == 32 and kept.run_dir == finished.parent
    assert f"resuming {finished} at step 4,096 of 4,096; this run writes to {finished.parent}" in _text(capsys)
    with pytest.raises(_Captured):
        main(resume + ["--run.total_steps", "20000", "--optim.lr", "1e-4", "--run.eval_episodes", "3",
                       "--env.num_envs", "32"])                            # the run's own value: no change
    changed = captured[-1].cfg
    assert (changed.run.total_steps, changed.optim.lr, changed.run.eval_episodes) == (20000, 1e-4, 3)
    for key, value, has in [("--model.hidden", "32", "64"), ("--env.num_envs", "64", "32"),
                            ("--ppo.horizon", "8", "32"), ("--env.config.max_ticks", "40", "it unset"),
                            ("--model.activation", "tanh", "'relu'"), ("--model.separate_value", "true", "False"),
                            ("--ppo.bootstrap_truncation", "false", "True")]:
        assert main(resume + [key, value]) == 2
        text = _text(capsys)
        assert f"cannot change {key[2:]} (the run has {has}, asked" in text, text
    assert main(resume + ["--config", "x.toml"]) == 2
    assert "--config goes with a new run" in _text(capsys)
    # the library refuses the same, whatever config it is given
    cfg = load_config("template", overrides=["--run.out_dir", str(finished.parent.parent), *TINY[:2],
                                             "--env.num_envs", "16"])
    with pytest.raises(ValueError, match=r"cannot change env\.num_envs \(the run has 32, asked 16\)"):
        Trainer(cfg, resume=finished, console=False)


@pytest.mark.slow
def test_the_command_printed_on_interrupt_continues_the_same_run(tmp_path, capture, capsys, monkeypatch):
    calls = []
    real_update = Trainer.update

    def update(self, progress):
        calls.append(progress)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real_update(self, progress)
    monkeypatch.setattr(Trainer, "update", update)
    assert main(["train", "template", "--run.out_dir", str(tmp_path), "--run.name", "A", *TINY,
                 "--run.total_steps", "50000", "--optim.lr", "0.002", "--ppo.horizon", "16",
                 "--run.eval_episodes", "3"]) == 130
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("interrupted at step"))
    step = int(re.search(r"at step ([\d,]+);", line).group(1).replace(",", ""))
    argv = shlex.split(re.search(r"\(continue: (.*)\)$", line).group(1))
    assert argv[:2] == ["osrs-rl", "train"] and step == 3 * 32 * 16     # the third rollout counted
    payload, _ = load_checkpoint(tmp_path / "A" / "checkpoint.pt")
    assert payload["global_step"] == step
    stored = payload["config"]
    assert (stored["run"]["total_steps"], stored["optim"]["lr"], stored["ppo"]["horizon"]) == (50000, 0.002, 16)
    captured = capture()
    with pytest.raises(_Captured):
        main(argv[1:])
    resumed = captured[-1]
    assert resumed.global_step == step and resumed.run_dir == tmp_path / "A"
    assert resumed.cfg.to_dict() == stored


def test_a_checkpoint_from_before_the_issue_19_knobs_loads_and_resumes_with_their_defaults(finished, tmp_path,
                                                                                            capture):
    payload, meta = load_checkpoint(finished)
    for section, key in (("model", "activation"), ("model", "separate_value"), ("ppo", "bootstrap_truncation")):
        del payload["config"][section][key]
    old = tmp_path / "old" / "checkpoint.pt"
    save_checkpoint(old, payload, meta)
    policy = load_policy(old)
    assert policy.model.value_encoder is None
    assert any(isinstance(m, torch.nn.ReLU) for m in policy.model.modules())
    captured = capture()
    with pytest.raises(_Captured):
        main(["train", "template", "--resume", str(old)])
    cfg = captured[-1].cfg
    assert (cfg.model.activation, cfg.model.separate_value, cfg.ppo.bootstrap_truncation) == ("relu", False, True)
    for name, p in captured[-1].model.state_dict().items():
        assert torch.equal(p, payload["model"][name]), name


# ---- checkpoints whose contents are wrong ---------------------------------------------------------------
@pytest.mark.parametrize("damage, message", [
    ("shape", r"weights do not fit the model: {key} has shape \({bigger}, {cols}\), the model's is \({rows}, {cols}\)"),
    ("config", r"has no 'config' entry"),
    ("nan", r"weights hold NaN or infinite values \(in {key}\)"),
])
def test_checkpoint_contents_that_are_wrong_get_clear_errors(finished, tmp_path, capsys, damage, message):
    payload, meta = load_checkpoint(finished)
    key = next(k for k, v in payload["model"].items() if v.dim() == 2)
    rows, cols = payload["model"][key].shape
    if damage == "shape":
        payload["model"][key] = torch.zeros(rows + 3, cols)
    elif damage == "config":
        del payload["config"]
    else:
        payload["model"][key][0, 0] = float("nan")
    bad = tmp_path / "bad" / "checkpoint.pt"
    save_checkpoint(bad, payload, meta)
    pattern = message.format(key=re.escape(key), rows=rows, cols=cols, bigger=rows + 3)
    with pytest.raises(CheckpointError, match=pattern):
        load_policy(bad)
    assert main(["eval", "template", "--checkpoint", str(bad), "--episodes", "2"]) == 2
    assert re.search(pattern, _text(capsys))
    assert main(["train", "template", "--resume", str(bad)]) == 2
    assert re.search(pattern, _text(capsys))
    assert sorted(p.name for p in bad.parent.iterdir()) == ["checkpoint.pt"]     # nothing written


# ---- a run that diverges ----------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("where", ["loss", "weights"])
def test_a_diverged_run_stops_and_keeps_its_last_good_checkpoint(tmp_path, monkeypatch, where):
    cfg = load_config("template", overrides=["--run.out_dir", str(tmp_path), "--run.name", "d", *TINY,
                                             "--run.total_steps", "8192", "--run.checkpoint_every", "1e-9"])
    t = Trainer(cfg, console=False)                 # a checkpoint after every iteration
    if where == "loss":
        real = ppo.value_loss
        monkeypatch.setattr(ppo, "value_loss",
                            lambda *a, **k: real(*a, **k) * (float("nan") if t.iteration >= 2 else 1.0))
    else:                                           # the last optimizer step of iteration 3 overflows
        real_step, steps = t.optimizer.step, []

        def step(*a, **k):
            out = real_step(*a, **k)
            steps.append(1)
            if len(steps) == 3 * cfg.ppo.epochs * cfg.ppo.minibatches:
                with torch.no_grad():
                    next(t.model.parameters())[0] = float("inf")
            return out
        monkeypatch.setattr(t.optimizer, "step", step)
    with pytest.raises(ppo.NonFiniteError) as e:
        t.train()
    msg = " ".join(str(e.value).split())
    assert "training diverged at step 3,072 (iteration 3)" in msg
    what = "the loss is not finite (policy" if where == "loss" else "the weights are not finite after the update"
    assert what in msg
    assert f"the last good checkpoint, at step 2,048, is kept: {t.checkpoint_path()}" in msg
    payload, _ = load_checkpoint(t.checkpoint_path())
    assert payload["global_step"] == 2048 and not non_finite_tensors(payload["model"])
    assert load_policy(t.checkpoint_path()).encounter == "template"
