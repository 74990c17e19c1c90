"""Can files be written there? Asked before the work whose results would go there, so that a read-only
or mistyped output place is refused in one line at the start, not after minutes of work."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def writable_problem(path: str | os.PathLike, what: str) -> str | None:
    """Why files cannot be written at ``path`` (a folder to be, or one that exists), or None: checked
    before the work whose results would go there, by writing (and removing) a probe file in the nearest
    folder that exists; permission bits alone would not tell a read-only file system, nor bind root."""
    path = Path(path)
    probe = path
    while not probe.exists() and probe.parent != probe:
        probe = probe.parent
    if not probe.is_dir():
        return f"{what} {path}: {probe} is a file, not a folder"
    try:
        fd, name = tempfile.mkstemp(dir=probe, prefix=".osrs-rl-write-check-")
    except OSError as e:
        return f"{what} {path}: cannot write in {probe} ({e.strerror or e})"
    os.close(fd)
    os.unlink(name)
    return None


def check_writable(path: str | os.PathLike, what: str) -> None:
    """Refuse (ValueError, one line) an output place that cannot be written, before any work for it."""
    problem = writable_problem(path, what)
    if problem is not None:
        raise ValueError(problem)
