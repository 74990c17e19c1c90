"""osrs_rl.io.provenance: which code made a file (version, git commit, dirty tree), and every file that records it."""

import json
import re
import shutil
import subprocess
import tomllib

import pytest

import osrs_rl
from osrs_rl import cli
from osrs_rl.io import provenance as prov

ROOT = prov.source_root()
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
in_checkout = pytest.mark.skipif(not (ROOT / ".git").exists() or shutil.which("git") is None,
                                 reason="osrs_rl was not imported from a git checkout")


def _git(cwd, *args) -> str:
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false",
                           *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


@pytest.fixture
def root_at(monkeypatch):
    """Point provenance at another source tree (each look-up afresh)."""
    def point(path):
        monkeypatch.setattr(prov, "source_root", lambda: path)
        prov._lookup.cache_clear()
    yield point
    prov._lookup.cache_clear()


def test_the_version_is_one_number_in_pyproject_and_the_package():
    pyproject = ROOT / "pyproject.toml"
    if not pyproject.is_file():
        pytest.skip("an installed package has no pyproject.toml beside it")
    assert tomllib.loads(pyproject.read_text())["project"]["version"] == osrs_rl.__version__


@in_checkout
def test_inside_this_checkout_the_commit_is_head_and_dirty_is_what_git_status_says():
    prov._lookup.cache_clear()                 # as the tree is now, not when an earlier test first asked
    got = prov.provenance()
    assert got["version"] == osrs_rl.__version__
    assert re.fullmatch(r"[0-9a-f]{40}", got["commit"]) and got["commit"] == _git(ROOT, "rev-parse", "HEAD")
    assert got["dirty"] is (_git(ROOT, "status", "--porcelain") != "")
    got["commit"] = "changed"
    assert prov.provenance()["commit"] != "changed"            # a copy: the cached record stays


def test_outside_a_repository_commit_and_dirty_are_none(root_at, tmp_path):
    root_at(tmp_path)
    assert prov.provenance() == {"version": osrs_rl.__version__, "commit": None, "dirty": None}
    assert prov.describe() == f"{osrs_rl.__version__} (commit unknown)"


def test_without_git_commit_and_dirty_are_none(root_at, monkeypatch):
    monkeypatch.setenv("PATH", "")                 # no git to run
    root_at(ROOT)
    assert prov.provenance() == {"version": osrs_rl.__version__, "commit": None, "dirty": None}


@needs_git
def test_dirty_counts_changes_and_untracked_files_but_not_ignored_ones(root_at, tmp_path):
    _git(tmp_path, "init", "-q")
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / ".gitignore").write_text("runs/\n")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-q", "-m", "one")
    head = _git(tmp_path, "rev-parse", "HEAD")

    def look():
        root_at(tmp_path)
        return prov.provenance()
    assert look() == {"version": osrs_rl.__version__, "commit": head, "dirty": False}
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "config.json").write_text("{}")      # what git ignores does not count
    assert look()["dirty"] is False
    (tmp_path / "new_module.py").write_text("y = 2\n")         # an untracked file may be imported: it counts
    assert look()["dirty"] is True
    (tmp_path / "new_module.py").unlink()
    (tmp_path / "a.py").write_text("x = 2\n")                  # a tracked file changed
    assert look()["dirty"] is True and prov.describe() == f"{osrs_rl.__version__} (commit {head[:7]}, dirty)"


@needs_git
def test_a_package_inside_another_repository_takes_no_commit_of_it(root_at, tmp_path):
    """A wheel installed into a virtual environment that lies inside some repository is not that repository's code."""
    _git(tmp_path, "init", "-q")
    (tmp_path / "README").write_text("another project\n")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-q", "-m", "one")
    site = tmp_path / ".venv" / "site-packages"
    site.mkdir(parents=True)
    root_at(site)
    assert prov.provenance()["commit"] is None and prov.provenance()["dirty"] is None


def test_header_fields_and_back():
    record = {"version": "0.2.0", "commit": "ab" * 20, "dirty": True}
    fields = prov.header_fields(record)
    assert fields == {"osrs_rl_version": "0.2.0", "osrs_rl_commit": "ab" * 20, "osrs_rl_dirty": True}
    assert prov.from_header(fields) == record
    assert prov.from_header({"osrs_rl_version": "0.1.0"}) == {"version": "0.1.0", "commit": None, "dirty": None}
    assert prov.describe(record) == "0.2.0 (commit abababa, dirty)"
    assert prov.describe({**record, "dirty": None}) == "0.2.0 (commit abababa, working tree unknown)"


def test_version_prints_the_version_and_the_commit(capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["--version"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert out == f"osrs-rl {prov.describe()}\n"
    record = prov.provenance()
    assert out.startswith(f"osrs-rl {osrs_rl.__version__} (")
    if record["commit"] is not None:
        assert f"commit {record['commit'][:7]}" in out and ("dirty" in out) is record["dirty"]


def test_a_config_json_reads_back_as_a_config(tmp_path):
    from osrs_rl.agent.config import from_dict, load_config
    from osrs_rl.train.logger import Logger

    cfg = load_config("template", overrides=["--ppo.gamma", "0.9"])
    Logger(tmp_path, cfg.to_dict(), use_tensorboard=False, console=False, provenance=prov.provenance()).close()
    saved = json.loads((tmp_path / "config.json").read_text())
    assert next(iter(saved)) == "provenance" and saved["provenance"] == prov.provenance()
    assert from_dict(saved) == cfg


def test_replays_record_their_writer_and_older_ones_still_read(monkeypatch, tmp_path):
    import numpy as np

    from osrs_rl.replay.file import Replay, load_replay, save_replay

    def replay():
        return Replay("template", 1, {}, b"\0", np.zeros((2, 1, 1), np.int64), np.zeros((2, 1), np.float32),
                      True, False, "00")
    save_replay(tmp_path / "now.orlr", replay())
    assert load_replay(tmp_path / "now.orlr", check=False).written_by == prov.provenance()
    assert replay().written_by is None                            # not read from a file
    monkeypatch.setattr(prov, "header_fields", lambda: {"osrs_rl_version": "0.1.0"})     # as 0.1.0 wrote them
    save_replay(tmp_path / "old.orlr", replay())
    assert load_replay(tmp_path / "old.orlr", check=False).written_by == {"version": "0.1.0", "commit": None,
                                                                          "dirty": None}


def test_a_trained_run_records_its_code_in_every_file(tmp_path, capsys):
    """config.json, eval.json (every row), the checkpoint's meta and the evaluation replays name the code that made
    them, and the run's opening lines say it."""
    from osrs_rl.agent.checkpoint import load_meta
    from osrs_rl.agent.config import from_dict
    from osrs_rl.replay.file import load_replay

    assert cli.main(["train", "template", "--run.out_dir", str(tmp_path), "--run.name", "p", "--log.console", "false",
                     "--env.num_envs", "32", "--run.total_steps", "2048", "--log.replays", "false",
                     "--log.tensorboard", "false", "--run.eval_episodes", "4", "--run.torch_threads", "1"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert f"code: osrs-rl {prov.describe()}" in said
    record = prov.provenance()
    run = tmp_path / "p"
    config = json.loads((run / "config.json").read_text())
    assert config["provenance"] == record and from_dict(config).env.encounter == "template"
    rows = json.loads((run / "eval.json").read_text())
    assert rows and all(r["provenance"] == record for r in rows)
    meta = load_meta(run / "checkpoint.pt")
    assert prov.from_header(meta) == record
    replays = sorted((run / "replays").glob("*.orlr"))
    assert replays and all(load_replay(p, check=False).written_by == record for p in replays)
