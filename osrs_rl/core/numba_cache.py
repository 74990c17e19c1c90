"""Where Numba caches the compiled kernels: one folder per version of the package's sources.

Numba checks a cached kernel against its own file only, not the files of the kernels it calls, so after an
edit in one module a caller cached from another loads the old code. Here the cache folder is named by a
digest of every ``.py`` file under ``osrs_rl`` (path, content and modification time) and of the Python,
Numba, llvmlite and NumPy versions: an unchanged tree loads what an earlier process compiled, any edit
starts an empty folder. ``osrs_rl/__init__.py`` calls :func:`use_source_keyed_cache` before anything
imports Numba; a ``NUMBA_CACHE_DIR`` the user set wins (and is then theirs to empty after edits).

The folders live under ``$XDG_CACHE_HOME/osrs-rl/numba`` (``~/.cache`` by default); each use touches its
folder, and the least recently used beyond the newest ``KEEP`` are deleted once unused for ``IN_USE_S``
(a younger one may be another checkout's run). The modification times are in the digest so that a process
that outlives an edit (its later compiles use the new code but the old folder) never hands that folder to
a process of the old tree: reverting the edit gives the file a new time, so a new digest.

This module imports no Numba (it must run before Numba reads its configuration) and nothing of osrs_rl.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import shutil
import sys
import time
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]        # the osrs_rl folder
KEEP = 4                      # source versions kept besides the one in use
IN_USE_S = 3600.0             # a folder used this recently may be another process's: never deleted
_DIGEST = re.compile(r"[0-9a-f]{16}")
# the file of each compiler package that changes with its version (a text file: read, not imported)
_VERSION_FILES = {"numba": "_version.py", "llvmlite": "_version.py", "numpy": "version.py"}


def source_files(roots, skip: tuple[str, ...] = ()) -> list[tuple[Path, Path]]:
    """(root, file) for every ``.py`` file under each root (a package folder or one file), in sorted order."""
    out = []
    for root in sorted({Path(r).resolve() for r in roots}):
        files = [root] if root.is_file() else sorted(root.rglob("*.py"))
        out += [(root, p) for p in files if p.name not in skip]
    return out


def _compiler_versions() -> bytes:
    """The version files of Numba, llvmlite and NumPy, found without importing them (empty where absent)."""
    out = [sys.version.encode()]
    for name, file in _VERSION_FILES.items():
        try:
            spec = importlib.util.find_spec(name)
            out.append((Path(spec.origin).parent / file).read_bytes())
        except (ImportError, AttributeError, TypeError, OSError):
            out.append(b"-")
    return b"\0".join(out)


def source_digest(roots, skip: tuple[str, ...] = (), mtimes: bool = False) -> str:
    """A hex digest of every ``.py`` file under each root (a package folder or one file, in sorted order),
    of the Python version and of the Numba, llvmlite and NumPy versions; files named in ``skip`` are left
    out. ``mtimes``: each file's modification time counts too (a file rewritten with its old text differs)."""
    h = hashlib.blake2b(digest_size=8)
    h.update(_compiler_versions())
    for root, p in source_files(roots, skip):
        h.update(str(p.relative_to(root.parent)).encode() + b"\0")
        if mtimes:
            h.update(str(p.stat().st_mtime_ns).encode() + b"\0")
        h.update(p.read_bytes())
    return h.hexdigest()


def cache_root() -> Path:
    """The folder that holds one Numba cache folder per source version."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "osrs-rl" / "numba"


def source_keyed_dir(package: Path = PACKAGE) -> Path:
    """The Numba cache folder of the package's sources as they are on disk now."""
    return cache_root() / source_digest([package], mtimes=True)


def use_source_keyed_cache(environ=os.environ, package: Path = PACKAGE) -> Path | None:
    """Point ``NUMBA_CACHE_DIR`` at :func:`source_keyed_dir` unless the user set it, and delete old folders;
    return the folder, or None where the user's setting stands or the folder cannot be made (then Numba's
    default, ``__pycache__`` beside each source, stands too)."""
    if environ.get("NUMBA_CACHE_DIR"):
        return None
    try:
        folder = source_keyed_dir(package)
        folder.mkdir(parents=True, exist_ok=True)
        os.utime(folder)                    # its last use, which pruning goes by
    except OSError:
        return None
    environ["NUMBA_CACHE_DIR"] = str(folder)
    if "numba" in sys.modules:              # imported before osrs_rl: it read its configuration already
        from numba.core import config

        config.reload_config()
    prune(folder.parent, keep=folder)
    return folder


def prune(root: Path, keep: Path, versions: int = KEEP, in_use_s: float = IN_USE_S) -> list[Path]:
    """Delete the digest-named folders under ``root`` other than ``keep`` and the ``versions`` most recently
    used, where unused for ``in_use_s`` seconds; return those deleted. Other names are never touched."""
    try:
        found = [(d.stat().st_mtime, d) for d in root.iterdir() if _DIGEST.fullmatch(d.name) and d != keep]
    except OSError:
        return []
    cutoff = time.time() - in_use_s
    gone = []
    for used, d in sorted(found, reverse=True)[versions:]:
        if used < cutoff:
            shutil.rmtree(d, ignore_errors=True)
            gone.append(d)
    return gone
