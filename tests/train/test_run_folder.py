"""A run folder belongs to one run (issue 42): a second run with the same name, a run beside a live one
in the same folder, and ``eval --replays`` never write over another run's files; resources (memory,
writable output places, a disk that fills) are checked before the work or reported with what survived."""

import errno
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import osrs_rl
from osrs_rl.cli import main
from osrs_rl.train import ppo, resources
from osrs_rl.train.run_folder import LOCK_NAME, RunFolder, RunFolderError

TINY = ["--log.console", "false", "--run.eval_episodes", "0", "--env.num_envs", "32", "--log.replays", "false",
        "--run.total_steps", "2048"]


def _files(folder: Path) -> dict:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _train(tmp_path, *extra) -> int:
    return main(["train", "template", "--run.out_dir", str(tmp_path), "--run.name", "A", *TINY, *extra])


def _out(capsys) -> str:
    got = capsys.readouterr()
    return " ".join((got.out + got.err).split())


@pytest.mark.slow
def test_a_new_run_refuses_a_folder_that_holds_a_run_and_leaves_it_as_it_was(tmp_path, capsys):
    assert _train(tmp_path) == 0
    before = _files(tmp_path / "A")
    assert "checkpoint.pt" in before and LOCK_NAME not in before      # a finished run leaves no lock behind
    capsys.readouterr()
    assert _train(tmp_path, "--run.seed", "1") == 2
    said = _out(capsys)
    assert "holds a run already" in said and f"--resume {tmp_path / 'A' / 'checkpoint.pt'}" in said
    assert "pick another name" in said
    assert _files(tmp_path / "A") == before
    # resuming it in its own folder is what the message offers, and it works
    assert main(["train", "template", "--resume", str(tmp_path / "A" / "checkpoint.pt"),
                 "--run.total_steps", "4096"]) == 0


def test_a_resume_into_another_runs_folder_is_refused(tmp_path, capsys):
    assert _train(tmp_path) == 0
    assert main(["train", "template", "--run.out_dir", str(tmp_path), "--run.name", "B", *TINY]) == 0
    before = _files(tmp_path / "B")
    capsys.readouterr()
    assert main(["train", "template", "--resume", str(tmp_path / "A" / "checkpoint.pt"), "--run.out_dir",
                 str(tmp_path), "--run.name", "B", "--run.total_steps", "4096"]) == 2
    assert "holds a run already" in _out(capsys)
    assert _files(tmp_path / "B") == before


HOLDER = textwrap.dedent("""
    import fcntl, os, sys, time
    fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX)
    os.write(fd, f"{os.getpid()}\\n".encode())
    print("held", flush=True)
    time.sleep(120)
""")


@pytest.mark.skipif(sys.platform == "win32", reason="flock")
def test_a_folder_in_use_by_a_live_run_is_refused_and_freed_when_that_process_dies(tmp_path, capsys):
    folder = tmp_path / "A"
    folder.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(folder / LOCK_NAME)], stdout=subprocess.PIPE,
                              text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        assert _train(tmp_path) == 2
        said = _out(capsys)
        assert f"is in use by another run (process {holder.pid})" in said
        assert sorted(p.name for p in folder.iterdir()) == [LOCK_NAME]        # nothing of this run written
    finally:
        holder.kill()
        holder.wait()
    assert _train(tmp_path) == 0          # a killed holder's lock is gone with it: the folder is free
    assert (folder / "checkpoint.pt").is_file() and not (folder / LOCK_NAME).exists()


def test_two_claims_in_one_process_exclude_each_other_until_released(tmp_path):
    first = RunFolder(tmp_path / "X")
    with pytest.raises(RunFolderError, match="in use by another run"):
        RunFolder(tmp_path / "X")
    first.release()
    RunFolder(tmp_path / "X").release()


def test_unnamed_runs_started_in_the_same_second_get_folders_of_their_own(tmp_path, monkeypatch):
    from datetime import datetime

    class Frozen(datetime):
        @classmethod
        def now(cls, tz=None):
            return datetime(2026, 12, 6, 12, 0, 0)
    monkeypatch.setattr(ppo, "datetime", Frozen)
    from osrs_rl.agent.config import load_config

    cfg = load_config("template", None, ["--run.out_dir", str(tmp_path), *TINY])
    first = ppo.Trainer(cfg, console=False)
    second = ppo.Trainer(cfg, console=False)
    try:
        assert first.run_dir.name == "template-20261206-120000"
        assert second.run_dir.name == "template-20261206-120000-2"
    finally:
        first.close()
        second.close()


def test_eval_replays_never_replace_the_training_runs_replays(tmp_path, capsys):
    assert _train(tmp_path, "--run.eval_episodes", "2") == 0
    run = tmp_path / "A"
    before = _files(run / "replays")
    assert any(name.endswith(".orlr") for name in before)
    ckpt = str(run / "checkpoint.pt")
    capsys.readouterr()
    assert main(["eval", "template", "--checkpoint", ckpt, "--episodes", "2", "--replays", "1"]) == 0
    said = _out(capsys)
    assert _files(run / "replays") == before
    written = list((run / "eval-replays").rglob("*.orlr"))
    assert written and str(written[0].parent) in said
    # naming the run's own replays folder is refused before the evaluation, and it stays as it was
    assert main(["eval", "template", "--checkpoint", ckpt, "--episodes", "2", "--replays", "1", "--replay-dir",
                 str(run / "replays")]) == 2
    assert "holds replays already" in _out(capsys) and _files(run / "replays") == before


def test_a_run_that_cannot_fit_in_memory_is_refused_in_one_line_before_any_folder(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(resources, "available_bytes", lambda: 8 * 10**9)
    assert _train(tmp_path, "--env.num_envs", "3000000") == 2
    got = capsys.readouterr()
    lines = [x for x in (got.out + got.err).splitlines() if x.strip()]
    assert len(lines) == 1 and "needs about" in lines[0] and "8.0 GB available" in lines[0], lines
    assert not (tmp_path / "A").exists()
    # the estimate holds no lower bound a real run breaks: the tiny run fits
    assert _train(tmp_path) == 0


def test_an_env_too_large_to_allocate_says_so_in_one_line():
    with pytest.raises(MemoryError, match=r"template envs need about [\d,.]+ GB"):
        osrs_rl.make("template", num_envs=10**14)


def _read_only(tmp_path) -> Path:
    """A folder no file can be written under: a read-only folder for a user, sysfs for root."""
    if os.geteuid() != 0:
        folder = tmp_path / "ro"
        folder.mkdir()
        folder.chmod(0o555)
        return folder / "x"
    if not Path("/sys/kernel").is_dir():
        pytest.skip("no read-only place to write to")
    return Path("/sys/kernel/osrs-rl-test")


def test_unwritable_output_places_are_refused_before_the_work(tmp_path, capsys):
    ro = _read_only(tmp_path)
    assert main(["train", "template", "--run.out_dir", str(ro), "--run.name", "A", *TINY]) == 2
    assert "cannot" in _out(capsys)
    assert _train(tmp_path, "--run.eval_episodes", "2") == 0
    run = tmp_path / "A"
    capsys.readouterr()
    commands = [
        ["eval", "template", "--checkpoint", str(run / "checkpoint.pt"), "--replays", "1", "--replay-dir", str(ro)],
        ["audit", str(run), "--out", str(ro), "--episodes", "1"],
        ["archive", "build", "template", "--out", str(ro / "a.npz"), "--random", "--iterations", "1"],
        ["replay", "render", str(next((run / "replays").glob("*.orlr"))), "--out", str(ro / "f.png")],
    ]
    for argv in commands:
        assert main(argv) == 2, argv
        said = _out(capsys)
        assert "cannot write in" in said and "Traceback" not in said, (argv, said)


def test_a_full_disk_mid_run_says_which_checkpoint_survived(tmp_path, capsys, monkeypatch):
    saves = []
    real = ppo.Trainer.save

    def save(self, path=None):
        saves.append(self.global_step)
        if len(saves) == 2:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(self.checkpoint_path()))
        return real(self, path)
    monkeypatch.setattr(ppo.Trainer, "save", save)
    assert _train(tmp_path, "--run.checkpoint_every", "0.001", "--run.total_steps", "8192") == 1
    said = _out(capsys)
    assert f"writing the run failed at step {saves[1]:,}: No space left on device" in said
    assert f"the last checkpoint, at step {saves[0]:,}, is {tmp_path / 'A' / 'checkpoint.pt'}" in said
    assert f"--resume {tmp_path / 'A' / 'checkpoint.pt'}" in said


def test_default_torch_threads_leave_the_env_workers_cores_free(tmp_path, monkeypatch):
    from osrs_rl.agent.config import load_config

    monkeypatch.setattr(ppo, "machine_cores", lambda: 4)
    for env_threads in (1, 2):
        cfg = load_config("template", None, ["--run.out_dir", str(tmp_path), "--run.name", f"t{env_threads}", *TINY,
                                             "--env.overlap", "true", "--env.env_threads", str(env_threads)])
        t = ppo.Trainer(cfg, console=False)
        t.close()
        assert t.rollout_threads + env_threads <= 4, (env_threads, t.rollout_threads)
        assert t.learn_threads == 4


@pytest.mark.slow
def test_importing_osrs_rl_makes_torchs_threads_wait_passively_unless_the_user_chose():
    code = "import os, osrs_rl, torch; print(os.environ['OMP_WAIT_POLICY'])"
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    assert subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          check=True).stdout.strip() == "PASSIVE"
    env["OMP_WAIT_POLICY"] = "ACTIVE"
    assert subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          check=True).stdout.strip() == "ACTIVE"


def test_a_busy_machine_is_noted_once_and_an_idle_one_not(monkeypatch):
    monkeypatch.setattr(os, "getloadavg", lambda: (3.4, 3.0, 2.0))
    note = resources.busy_note(2, 2)
    assert note is not None and "load average 3.4 on 2 cores" in note and "--run.torch_threads 1" in note
    monkeypatch.setattr(os, "getloadavg", lambda: (1.9, 2.0, 2.0))
    assert resources.busy_note(2, 2) is None


def test_memory_estimate_grows_with_the_envs_and_names_what_fits():
    from osrs_rl.agent.config import load_config
    from osrs_rl.runtime.registry import get_spec

    spec = get_spec("template")
    small, large = (load_config("template", None, ["--env.num_envs", str(n)]) for n in (1024, 4096))
    a, b = (sum(resources.estimate_bytes(spec, c, 256).values()) for c in (small, large))
    assert np.isclose(b / a, 4.0, rtol=0.05)
    problem = resources.memory_problem(spec, large, 256, available=int(a * 2))
    assert problem is not None and "at most about" in problem
    most = int(problem.split("at most about ")[1].split(" ")[0].replace(",", ""))
    assert 1024 <= most < 4096
