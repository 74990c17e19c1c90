"""A run folder belongs to one run: a new run refuses a folder that already holds one, and a folder in
use by a live run (in this process or another) is refused to every other run until it is released.

The claim is a ``flock`` on ``.lock`` inside the folder, removed on release: the kernel drops the lock
when the holder's process ends, however it ends, so a killed run never leaves a folder locked (only a
``.lock`` file that the next claim takes over). Where ``fcntl`` is missing (Windows) the folder is
checked but not locked.
"""

from __future__ import annotations

import os
from pathlib import Path

try:
    import fcntl
except ImportError:          # Windows: no flock; the "holds a run" check still applies
    fcntl = None

LOCK_NAME = ".lock"


def held_files(folder: Path) -> list[str]:
    """The files under ``folder`` (relative paths, sorted) other than its lock: empty when no run wrote
    there (empty subfolders a failed start left count as nothing)."""
    if not folder.is_dir():
        return []
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")
                  if p.is_file() and p.name != LOCK_NAME)


def fresh_folder(parent: Path, stem: str) -> Path:
    """``parent/stem``, or ``parent/stem-2``, ``-3``, ... the first that does not exist: two runs (or two
    evaluations) started in the same second get a folder each."""
    return next(parent / name for name in (stem if k == 0 else f"{stem}-{k + 1}" for k in range(10_000))
                if not (parent / name).exists())


class RunFolderError(ValueError):
    """The folder cannot be this run's: it holds another run, or another run is using it."""


class RunFolder:
    """``folder`` claimed for one run: created if absent, locked, and refused when it already holds files
    (unless ``resuming``: a run that goes on in its own folder). ``release()`` (or the process's end) frees
    it; ``remove_if_empty()`` undoes a folder this claim made when nothing was written into it."""

    def __init__(self, folder: str | os.PathLike, resuming: bool = False, again: str = ""):
        self.folder = Path(folder)
        self._fd: int | None = None
        self.made = not self.folder.exists()
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise RunFolderError(f"cannot create the run folder {self.folder}: {e.strerror or e}") from None
        try:
            self._lock()
            files = held_files(self.folder)
            if files and not resuming:
                shown = ", ".join(files[:4]) + (f" and {len(files) - 4} more" if len(files) > 4 else "")
                resume = f"resume it ({again}), " if again else "resume it (--resume its checkpoint.pt), "
                raise RunFolderError(f"{self.folder} holds a run already ({shown}): {resume}or pick another name "
                                     f"(--run.name NAME); a new run never writes over another")
        except BaseException:
            self.release()
            self.remove_if_empty()
            raise

    def _lock(self) -> None:
        path = self.folder / LOCK_NAME
        while True:
            try:
                fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as e:
                raise RunFolderError(f"cannot write in the run folder {self.folder}: {e.strerror or e}") from None
            if fcntl is None:
                break
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = os.read(fd, 64).decode(errors="replace").strip()
                os.close(fd)
                who = f" (process {holder})" if holder.isdigit() else ""
                if holder == str(os.getpid()):
                    who = " (a Trainer of this process: close() it first)"
                raise RunFolderError(f"{self.folder} is in use by another run{who}: wait for it to end, or pick "
                                     "another name (--run.name NAME)") from None
            try:                      # the holder before us may have removed the file as it released it
                same = os.stat(path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        """Free the folder for other runs: the lock file goes (a finished run leaves only its files), then
        closing the descriptor drops the flock; a run waiting on the removed file retries on a new one."""
        if self._fd is not None:
            (self.folder / LOCK_NAME).unlink(missing_ok=True)
            os.close(self._fd)
            self._fd = None

    def remove_if_empty(self) -> None:
        """Remove the folder (and its empty subfolders) if this claim made it and no run file
        was written into it: a run that failed before writing anything leaves nothing behind."""
        if not self.made or held_files(self.folder):
            return
        if self.held:
            return                   # still claimed: the holder removes it after releasing
        for sub in sorted((p for p in self.folder.rglob("*") if p.is_dir()), key=lambda p: -len(p.parts)):
            try:
                sub.rmdir()
            except OSError:
                pass
        try:
            self.folder.rmdir()
        except OSError:              # something appeared meanwhile: keep it
            pass

    def __del__(self):               # a claim dropped without release (an exception in the caller) frees the folder
        self.release()
