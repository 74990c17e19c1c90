"""Atomic file writes: a file holds either its old contents or all of the new, never a torn half.

>>> import pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> atomic_write(folder / "a.txt", b"hello").read_bytes()
b'hello'
>>> sorted(p.name for p in folder.iterdir())
['a.txt']

Checkpoints, replays, logs, evaluation tables and audit reports are all written through
:func:`atomic_write`, so it lives below every package that writes files (``train/``, ``replay/``,
``audit/``) and imports nothing of osrs_rl.
"""

from __future__ import annotations

import itertools
import os
import re
import time
from collections.abc import Iterable
from pathlib import Path

# A write in progress is ".<target name>.<pid>.<n>.tmp" in the target's folder (n counts the writes of
# one process), so a file a killed process left behind can be told from one still being written.
STALE_TEMP_AGE = 15 * 60.0       # seconds: older than this a temporary file is stale even if its pid runs
_TEMP_TAIL = re.compile(r"(\d+)\.(\d+)\.tmp")
_temp_counter = itertools.count()


def temp_name(target: str, pid: int | None = None) -> str:
    """The name ``atomic_write`` gives its temporary file for ``target`` (a file name)."""
    return f".{target}.{os.getpid() if pid is None else pid}.{next(_temp_counter)}.tmp"


def _pid_alive(pid: int) -> bool:
    if os.name == "nt":              # os.kill there terminates the process: judge by age alone
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:                  # EPERM: it exists, owned by someone else
        return True
    return True


def remove_stale_temp_files(folder: str | os.PathLike, target: str | None = None,
                            max_age: float = STALE_TEMP_AGE) -> list[Path]:
    """Delete the temporary files interrupted atomic writes left in ``folder`` (of ``target`` only,
    when given): files named as ``temp_name`` names them whose process is gone or that are older
    than ``max_age`` seconds. Other files are never touched. Returns the paths removed."""
    folder = Path(folder)
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:                  # no such folder yet
        return removed
    now = time.time()
    for entry in entries:
        name = entry.name
        if not (name.startswith(".") and name.endswith(".tmp")):
            continue
        if target is not None:
            prefix = f".{target}."
            tail = _TEMP_TAIL.fullmatch(name[len(prefix):]) if name.startswith(prefix) else None
        else:
            tail = re.fullmatch(r"\..+\.(\d+)\.(\d+)\.tmp", name)
        if tail is None:
            continue
        try:
            if not entry.is_file(follow_symlinks=False):
                continue
            old = now - entry.stat(follow_symlinks=False).st_mtime > max_age
            if old or not _pid_alive(int(tail.group(1))):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except FileNotFoundError:    # its writer finished (renamed it) or another cleaner got it
            continue
    return removed


def atomic_write(path: str | os.PathLike, data: bytes | Iterable[bytes]) -> Path:
    """Write ``data`` to ``path`` so that ``path`` holds either its old contents or all of the new.

    The bytes go to a temporary file in the same folder (``temp_name``), are flushed and fsynced,
    and the file is renamed over ``path`` (``os.replace`` is atomic within one file system). On any
    failure the temporary file is removed and ``path`` is untouched; temporary files of ``path``
    that a killed process left behind are removed first (``remove_stale_temp_files``).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temp_files(path.parent, path.name)
    tmp = path.parent / temp_name(path.name)
    # 0o666 less the user's umask, as any file the user writes (the file holds no secret)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        with os.fdopen(fd, "wb") as fh:
            _write_chunks(fh, [data] if isinstance(data, bytes | bytearray | memoryview) else data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)
    return path


def _write_chunks(fh, chunks: Iterable[bytes]) -> None:
    for chunk in chunks:
        fh.write(chunk)


def _fsync_dir(folder: Path) -> None:
    """Make the rename itself durable (POSIX); folders cannot be opened this way on Windows."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
