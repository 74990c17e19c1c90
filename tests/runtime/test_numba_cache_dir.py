"""The Numba cache folder keyed by the package's sources (osrs_rl.core.numba_cache): the same tree names the
same folder, an edit another; a user's NUMBA_CACHE_DIR wins; ``import osrs_rl`` sets it before Numba reads it;
old folders go, the recent and the foreign stay."""

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from osrs_rl.core import numba_cache

ROOT = Path(__file__).resolve().parents[2]


def _package(tmp_path) -> Path:
    pkg = tmp_path / "src" / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "kernels.py").write_text("X = 1\n")
    return pkg


def test_the_same_tree_names_the_same_folder_and_an_edit_another(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    pkg = _package(tmp_path)
    before = numba_cache.source_keyed_dir(pkg)
    assert before.parent == tmp_path / "xdg" / "osrs-rl" / "numba"
    assert numba_cache.source_keyed_dir(pkg) == before
    kernels = pkg / "sub" / "kernels.py"
    stamp = kernels.stat().st_mtime_ns
    kernels.write_text("X = 2\n")
    os.utime(kernels, ns=(stamp, stamp))
    assert numba_cache.source_keyed_dir(pkg) != before                      # new text, old time
    kernels.write_text("X = 1\n")
    os.utime(kernels, ns=(stamp + 10**9, stamp + 10**9))
    assert numba_cache.source_keyed_dir(pkg) != before                      # old text, new time (a revert)
    os.utime(kernels, ns=(stamp, stamp))
    assert numba_cache.source_keyed_dir(pkg) == before
    (pkg / "sub" / "more.py").write_text("")
    assert numba_cache.source_keyed_dir(pkg) != before                      # a new file
    # a copy of the tree elsewhere with the same times names the same folder (paths are relative)
    copy = tmp_path / "elsewhere" / "pkg"
    shutil.copytree(pkg, copy)
    for p in pkg.rglob("*.py"):
        st = p.stat()
        os.utime(copy / p.relative_to(pkg), ns=(st.st_atime_ns, st.st_mtime_ns))
    assert numba_cache.source_keyed_dir(copy) == numba_cache.source_keyed_dir(pkg)


def test_a_users_setting_wins_and_otherwise_the_keyed_folder_is_set(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    pkg = _package(tmp_path)
    mine = {"NUMBA_CACHE_DIR": str(tmp_path / "mine")}
    assert numba_cache.use_source_keyed_cache(mine, pkg) is None
    assert mine == {"NUMBA_CACHE_DIR": str(tmp_path / "mine")}
    environ = {"NUMBA_CACHE_DIR": ""}                 # set but empty: Numba's "unset"
    folder = numba_cache.use_source_keyed_cache(environ, pkg)
    assert folder == numba_cache.source_keyed_dir(pkg) and folder.is_dir()
    assert environ == {"NUMBA_CACHE_DIR": str(folder)}


def test_a_folder_that_cannot_be_made_leaves_numbas_default(tmp_path, monkeypatch):
    (tmp_path / "a-file").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "a-file"))
    environ = {}
    assert numba_cache.use_source_keyed_cache(environ, _package(tmp_path)) is None
    assert environ == {}


def _import_osrs_rl(tmp_path, first: str = "", **env) -> list[str]:
    """NUMBA_CACHE_DIR and Numba's own setting, as a fresh process that imports osrs_rl sees them."""
    code = (f"{first}\nimport os, osrs_rl\nfrom numba.core import config\n"
            "print(os.environ['NUMBA_CACHE_DIR']); print(config.CACHE_DIR)")
    environ = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    environ.update(XDG_CACHE_HOME=str(tmp_path / "xdg"), PYTHONPATH=str(ROOT), **env)
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=environ, capture_output=True, text=True,
                         check=True, timeout=300)
    return out.stdout.split()


def test_importing_osrs_rl_points_numba_at_the_keyed_folder_unless_the_user_chose(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    keyed = str(numba_cache.source_keyed_dir())
    assert _import_osrs_rl(tmp_path) == [keyed, keyed]
    assert _import_osrs_rl(tmp_path, first="import numba") == [keyed, keyed]    # Numba read its settings first
    mine = str(tmp_path / "mine")
    assert _import_osrs_rl(tmp_path, NUMBA_CACHE_DIR=mine) == [mine, mine]


def test_old_folders_go_the_recent_and_the_foreign_stay(tmp_path):
    root = tmp_path / "numba"
    now = time.time()

    def folder(name, hours_ago):
        d = root / name
        d.mkdir(parents=True)
        os.utime(d, (now - hours_ago * 3600, now - hours_ago * 3600))
        return d

    current = folder("f" * 16, 100)
    old = [folder(f"{i:016x}", 10 + i) for i in range(numba_cache.KEEP + 2)]     # old[0] the most recent
    notes = folder("notes", 100)
    recent = folder("e" * 16, 0.1)
    gone = numba_cache.prune(root, keep=current)
    # the recent one counts among the KEEP most recent, so one fewer old folder stays
    assert sorted(gone) == sorted(old[numba_cache.KEEP - 1:])
    assert all(d.is_dir() for d in [current, notes, recent, *old[:numba_cache.KEEP - 1]])
    assert numba_cache.prune(tmp_path / "missing", keep=current) == []
