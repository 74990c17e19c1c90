"""Data-parallel training under torchrun, with real 2-process gloo jobs on the CPU: the ranks stay in
step and their update is the one a single process holding every rank's rollout takes; a killed rank
ends the job with a clear error and a loadable checkpoint; a resumed job goes on from it and a stop
signal stops every rank at once, rank 0 saving. Each job is a tiny template run (16 envs per rank x
16 ticks = 512 steps an iteration over both ranks)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch

from osrs_rl.agent.checkpoint import load_checkpoint
from osrs_rl.agent.config import load_config
from osrs_rl.agent.policy import load_policy
from osrs_rl.cli import main
from osrs_rl.train import distributed
from osrs_rl.train.distributed import Dist, SingleProcess, from_environment, rank_seed
from osrs_rl.train.ppo import Trainer, resume_config
from osrs_rl.train.run_folder import LOCK_NAME

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
STEPS = 512                                  # per iteration over both ranks
TINY = ["--log.console", "false", "--run.eval_episodes", "0", "--env.num_envs", "16", "--ppo.horizon", "16",
        "--log.tensorboard", "false", "--log.replays", "false", "--log.param_digests", "true"]
DEADLINE = 240.0                             # seconds a job may take before the test gives up (not a timing)


def _torchrun(*args: str, **kw) -> subprocess.Popen:
    """A 2-rank job on this machine (torchrun's --standalone picks a free port)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), "COLUMNS": "1000"}
    return subprocess.Popen([sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", "2",
                             *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT,
                            **kw)


def _train(*args: str) -> subprocess.Popen:
    return _torchrun("-m", "osrs_rl.cli", "train", "template", *TINY, *args)


def _wait_until(what: str, ready, proc: subprocess.Popen) -> None:
    end = time.monotonic() + DEADLINE
    while not ready():
        if proc.poll() is not None:
            pytest.fail(f"the job ended before {what}:\n{proc.stdout.read()}")
        if time.monotonic() > end:
            proc.kill()
            pytest.fail(f"no {what} after {DEADLINE:.0f} s:\n{proc.communicate()[0]}")
        time.sleep(0.2)


def _digests(run: Path) -> list[tuple[int, int, list[str]]]:
    """param_digests.txt: (iteration, step, every rank's digest) per update."""
    path = run / "param_digests.txt"
    if not path.is_file():
        return []
    rows = []
    for line in path.read_text().splitlines():
        it, step, *digests = line.split()
        rows.append((int(it), int(step), digests))
    return rows


def _rank_pid(parent: int, rank: int) -> int | None:
    """The worker of torchrun ``parent`` whose environment says RANK=``rank`` (Linux /proc)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            if ppid == parent and f"RANK={rank}".encode() in (entry / "environ").read_bytes().split(b"\0"):
                return int(entry.name)
        except (OSError, IndexError, ValueError):
            continue
    return None


# ---- a job whose rank 1 is killed --------------------------------------------------------------------
@pytest.fixture(scope="module")
def killed(tmp_path_factory):
    """A long job (no run name: rank 0's clock names the folder) with a checkpoint every 0.2 s, whose
    rank 1 gets SIGKILL once 3 updates are done: (exit status, output, run folders, rank 0's pid)."""
    out = tmp_path_factory.mktemp("runs")
    proc = _train("--run.total_steps", "100000000", "--run.checkpoint_every", "0.2", "--run.out_dir", str(out),
                  "--run.dist_timeout", "60")
    runs = lambda: [p for p in out.iterdir() if p.is_dir()]   # noqa: E731
    _wait_until("3 updates and a checkpoint",
                lambda: runs() and len(_digests(runs()[0])) >= 3 and (runs()[0] / "checkpoint.pt").is_file(), proc)
    pid, rank_0 = _rank_pid(proc.pid, 1), _rank_pid(proc.pid, 0)
    assert pid is not None and rank_0 is not None, "the ranks' processes not found among torchrun's children"
    os.kill(pid, signal.SIGKILL)
    try:
        output, _ = proc.communicate(timeout=DEADLINE)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail(f"the job did not end after its rank 1 was killed:\n{proc.communicate()[0]}")
    return proc.returncode, output, runs(), rank_0


@pytest.mark.slow
def test_a_killed_rank_ends_the_job_with_a_clear_error_and_a_loadable_checkpoint(killed):
    code, output, runs, _ = killed
    assert code != 0, output
    flat = " ".join(output.split())
    # torchrun names the lost rank
    assert "rank : 1 (local_rank: 1) exitcode : -9" in flat and "SIGKILL" in flat, output
    # rank 0 says what happened (a collective failed: a rank stopped) or stopped on torchrun's signal
    assert "another rank stopped" in flat or "the ranks stop together" in flat, output
    assert len(runs) == 1
    ckpt = runs[0] / "checkpoint.pt"
    payload, meta = load_checkpoint(ckpt)
    assert payload["world_size"] == 2 and payload["global_step"] % STEPS == 0 and payload["global_step"] > 0
    assert load_policy(ckpt).encounter == "template"


@pytest.mark.slow
def test_the_ranks_hold_the_same_parameters_after_every_update_and_only_rank_0_writes(killed):
    _, output, runs, rank_0 = killed
    rows = _digests(runs[0])
    assert len(rows) >= 3
    for it, step, digests in rows:
        assert len(digests) == 2 and digests[0] == digests[1], (it, digests)
        assert step == it * STEPS                      # run.total_steps counts both ranks' steps
    assert len({d[0] for _, _, d in rows}) == len(rows)     # the parameters did change every update
    # one folder (both ranks would have named their own from their clocks), written by rank 0 alone: no
    # atomic-write temporaries of another process, one config. torchrun kills rank 0 once rank 1 is lost, so
    # rank 0 may leave its claim (run_folder's lock file, taken over by the next claim) and a write of its own
    # cut short; nothing of any other process
    files = sorted(p.name for p in runs[0].rglob("*") if p.is_file())
    own = re.compile(rf"\.[^/]+\.{rank_0}\.\d+\.tmp")            # osrs_rl.io.atomic's temporary of rank 0
    written = [f for f in files if f != LOCK_NAME and not own.fullmatch(f)]
    assert written == ["checkpoint.pt", "config.json", "param_digests.txt"], files
    assert output.count("this run writes to") == 1


# ---- resuming that job, then stopping it with a signal ------------------------------------------------
@pytest.fixture(scope="module")
def resumed(killed):
    """The killed job resumed on 2 ranks; SIGTERM to torchrun once it has made 2 updates of its own:
    (exit status, output, run folder, the step the checkpoint it resumed from held)."""
    _, _, runs, _ = killed
    run = runs[0]
    start = load_checkpoint(run / "checkpoint.pt")[0]["global_step"]
    before = len(_digests(run))
    proc = _torchrun("-m", "osrs_rl.cli", "train", "template", "--resume", str(run / "checkpoint.pt"),
                     "--run.total_steps", "100000000")
    _wait_until("2 updates after the resume", lambda: len(_digests(run)) >= before + 2, proc)
    proc.send_signal(signal.SIGTERM)
    try:
        output, _ = proc.communicate(timeout=DEADLINE)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail(f"the job did not stop on SIGTERM:\n{proc.communicate()[0]}")
    return proc.returncode, output, run, start, _digests(run)[before:]


@pytest.mark.slow
def test_a_resumed_job_goes_on_from_the_checkpoint(resumed):
    _, output, run, start, rows = resumed
    assert f"resuming {run / 'checkpoint.pt'} at step {start:,}" in " ".join(output.split()), output
    assert [step for _, step, _ in rows][:2] == [start + STEPS, start + 2 * STEPS]
    assert all(d[0] == d[1] for _, _, d in rows)


@pytest.mark.slow
def test_a_stop_signal_stops_every_rank_and_rank_0_saves(resumed):
    """SIGTERM to torchrun reaches every rank; they finish the iteration, rank 0 saves, all exit: the
    checkpoint holds the last update every rank made (nothing half done), and says so."""
    code, output, run, _, rows = resumed
    assert code != 0
    payload, _ = load_checkpoint(run / "checkpoint.pt")
    last_it, last_step, _ = rows[-1]
    assert payload["global_step"] == last_step and payload["iteration"] == last_it
    flat = " ".join(output.split())
    assert f"interrupted at step {last_step:,}; checkpoint saved" in flat, output
    assert "torchrun --nproc-per-node 2 -m osrs_rl.cli train template --resume" in flat


@pytest.mark.slow
def test_a_job_resumes_only_on_as_many_ranks(resumed, tmp_path):
    run = resumed[2]
    cfg = resume_config(run / "checkpoint.pt", ["--run.out_dir", str(tmp_path), "--run.name", "one"])
    with pytest.raises(ValueError, match=r"written by a run on 2 rank\(s\) and this one has 1"):
        Trainer(cfg, resume=run / "checkpoint.pt", console=False)


# ---- the update is a single process's ------------------------------------------------------------------
@pytest.mark.slow
def test_the_two_rank_update_is_the_update_of_one_process_holding_both_rollouts(tmp_path):
    """Deterministic: gradients and parameters after a 2-rank update equal a one-process update on
    both ranks' rollouts (to float rounding), and differ from one on rank 0's rollout alone, which a
    job that did not combine its ranks' gradients and advantage moments would take."""
    result = tmp_path / "result.json"
    proc = _torchrun(str(HERE / "dist_equivalence.py"), str(tmp_path / "runs"), str(result))
    output, _ = proc.communicate(timeout=DEADLINE)
    assert proc.returncode == 0, output
    r = json.loads(result.read_text())
    assert r["grad_diff_single"] <= 1e-5 * r["grad_scale"], r
    assert r["param_diff_single"] <= 1e-6, r
    assert r["grad_norm_ranks"] == pytest.approx(r["grad_norm_single"], rel=1e-5)
    assert r["grad_diff_rank0_alone"] > 1e-2 * r["grad_scale"], r          # the check can tell them apart


# ---- without torchrun -----------------------------------------------------------------------------------
@pytest.mark.slow
def test_a_plain_run_makes_no_collective_call(tmp_path, monkeypatch):
    """Outside torchrun the trainer's collectives are the one-process ones, which never touch torch.distributed
    (and so it draws as before)."""
    import torch.distributed as dist

    def refuse(*a, **k):
        raise AssertionError("a collective call in a one-process run")

    for name in ("init_process_group", "all_reduce", "broadcast", "gather_object", "broadcast_object_list",
                 "monitored_barrier", "all_gather"):
        monkeypatch.setattr(dist, name, refuse)
    for var in ("WORLD_SIZE", "RANK", "LOCAL_RANK"):
        monkeypatch.delenv(var, raising=False)
    cfg = load_config("template", overrides=["--run.out_dir", str(tmp_path), "--run.name", "p", *TINY,
                                             "--run.total_steps", "512"])
    t = Trainer(cfg, console=False)
    assert isinstance(t.group, SingleProcess) and t.dist == Dist()
    t.train()
    assert t.global_step == 512 and len(_digests(tmp_path / "p")[0][2]) == 1


def test_rank_0_draws_a_plain_runs_seeds_and_the_others_their_own():
    assert rank_seed(12345, 7, 0, "envs", 3) == 12345
    others = {rank_seed(12345, 7, r, s, 3) for r in range(1, 5) for s in distributed.STREAMS}
    assert len(others) == 4 * len(distributed.STREAMS) and 12345 not in others
    assert all(0 <= s < 2**63 for s in others)
    assert rank_seed(12345, 7, 1, "envs", 3) != rank_seed(12345, 7, 1, "envs", 4)   # a resume draws afresh


@pytest.mark.parametrize("argv, message", [
    (["--nproc-per-node", "2"], "--nproc-per-node is a flag of torchrun"),
    (["--nnodes=2"], "--nnodes is a flag of torchrun"),
])
def test_torchrun_flags_given_to_train_are_refused_with_the_launch_command(argv, message, capsys):
    assert main(["train", "template", *argv]) == 2
    out = " ".join(capsys.readouterr().out.split())
    assert message in out and "torchrun --nproc-per-node 2 -m osrs_rl.cli train" in out


def test_a_half_set_torchrun_environment_is_refused(capsys, monkeypatch):
    monkeypatch.setenv("WORLD_SIZE", "2")
    for var in ("RANK", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"):
        monkeypatch.delenv(var, raising=False)
    assert main(["train", "template"]) == 2
    assert "WORLD_SIZE is set but RANK" in " ".join(capsys.readouterr().out.split())
    with pytest.raises(ValueError, match="must lie in 0..WORLD_SIZE - 1"):
        from_environment({"RANK": "2", "WORLD_SIZE": "2", "LOCAL_RANK": "0", "LOCAL_WORLD_SIZE": "2",
                          "MASTER_ADDR": "x", "MASTER_PORT": "1"})


def test_the_global_advantage_normalisation_matches_the_local_one_on_one_rank():
    """``global_normalize`` with one rank's moments is ``normalize_advantages`` (same eps, same zeros)."""
    from osrs_rl.train.losses import normalize_advantages

    g = torch.Generator().manual_seed(0)
    a = torch.randn(5, 7, generator=g)
    valid = torch.rand(5, 7, generator=g) > 0.3
    x = a[valid].double()
    mean, std = x.mean(), x.var(correction=0).sqrt()
    got = distributed.global_normalize(a, valid, mean, std)
    assert torch.allclose(got, normalize_advantages(a, valid), atol=1e-6)
    assert (got[~valid] == 0).all()
