"""Which code made a file: the package version, the git commit of the source tree it was imported from, and
whether that tree differed from the commit.

    >>> sorted(provenance())
    ['commit', 'dirty', 'version']

``provenance()`` asks git once per process (``git rev-parse``, ``git status``, each with a short timeout) in
the repository the package was imported from, and only when the package's folder is that repository's own
``osrs_rl/`` (a wheel installed into a virtual environment that itself lies inside some other repository
must not take that repository's commit). Outside a git checkout (an installed wheel), without git, or when
git refuses the folder (another user's checkout: git's ``safe.directory``), ``commit`` and ``dirty`` are
None; nothing raises.

**Dirty** means the commit alone may not reproduce the code: a tracked file differs from it (staged or not),
or an untracked file that git does not ignore lies anywhere in the tree (a new module or encounter folder
not yet committed is imported all the same). Files ``.gitignore`` names (``runs/``, ``sweeps/``, caches) do
not count. Commit them or ignore them for a clean record.

Where it is recorded (one vocabulary, two spellings):

- JSON files an osrs-rl run writes (a run folder's ``config.json``, every row of ``eval.json``, a sweep
  trial's ``trial.json``, an ablation's result files and ``ablation.json``, an audit's ``report.json``, the
  summaries of ``scripts/compare_textbook.py``, ``reference_sweep.py`` and ``archive_experiment.py``):
  a ``"provenance"`` object, ``{"version", "commit", "dirty"}``;
- the JSON headers of the binary formats (checkpoint meta, replay header, archive header): the flat keys
  ``osrs_rl_version``, ``osrs_rl_commit``, ``osrs_rl_dirty`` (``header_fields``; files from before 0.2.0
  carry only the version, or nothing: ``from_header`` reads them as None).
"""

from __future__ import annotations

import functools
import os
import subprocess
from pathlib import Path

KEY = "provenance"         # the entry of a JSON file that records it
GIT_TIMEOUT = 5.0          # seconds for each git command; a slower answer is taken as none
HEADER_KEYS = {"version": "osrs_rl_version", "commit": "osrs_rl_commit", "dirty": "osrs_rl_dirty"}


def source_root() -> Path:
    """The folder that holds the imported ``osrs_rl`` package: a checkout's root, or site-packages."""
    return Path(__file__).resolve().parent.parent.parent


def provenance() -> dict:
    """``{"version": osrs_rl.__version__, "commit": full sha or None, "dirty": bool or None}`` of the code
    running now (asked once per process; a copy, so a caller may change it)."""
    return dict(_lookup(str(source_root())))


def _git(root: str, *args: str) -> str | None:
    """What ``git args`` prints in ``root`` (stripped), or None when git is missing, fails or is too slow.
    The caller's ``GIT_*`` variables (a hook's ``GIT_DIR``, ``GIT_INDEX_FILE``) are left out, so they cannot
    point git at another repository."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    try:
        done = subprocess.run(["git", "--no-optional-locks", *args], cwd=root, env=env, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=GIT_TIMEOUT, check=False)
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


@functools.cache
def _lookup(root: str) -> tuple[tuple[str, object], ...]:
    from osrs_rl import __version__

    commit = dirty = None
    out = _git(root, "rev-parse", "--show-toplevel", "HEAD")
    lines = out.splitlines() if out else []
    if len(lines) == 2 and _same_folder(lines[0], root) and _is_sha(lines[1]):
        commit = lines[1]
        status = _git(root, "status", "--porcelain", "--untracked-files=normal")
        dirty = None if status is None else status != ""
    return (("version", __version__), ("commit", commit), ("dirty", dirty))


def _same_folder(a: str, b: str) -> bool:
    try:
        return Path(a).resolve() == Path(b).resolve()
    except OSError:
        return False


def _is_sha(text: str) -> bool:
    return len(text) in (40, 64) and all(c in "0123456789abcdef" for c in text)


def header_fields(record: dict | None = None) -> dict:
    """``record`` (default: ``provenance()``) as the flat keys of a binary format's JSON header."""
    record = provenance() if record is None else record
    return {key: record.get(name) for name, key in HEADER_KEYS.items()}


def from_header(header: dict) -> dict:
    """The provenance a file's JSON header records (``header_fields``'s keys); None for each it lacks."""
    return {name: header.get(key) for name, key in HEADER_KEYS.items()}


def describe(record: dict | None = None, short: int = 7) -> str:
    """``0.2.0 (commit abc1234, dirty)``: ``record`` (default: ``provenance()``) in words, the commit cut to
    ``short`` characters."""
    record = provenance() if record is None else record
    version = record.get("version") or "unknown version"
    commit = record.get("commit")
    if commit is None:
        return f"{version} (commit unknown)"
    state = {True: ", dirty", False: ""}.get(record.get("dirty"), ", working tree unknown")
    return f"{version} (commit {commit[:short]}{state})"


def tally(records, what: str = "runs") -> str:
    """Which code made a set of results, in a line: each distinct record of ``records`` (provenance dicts; None
    or {} for a result that records none, as files from before 0.2.0) with how many ``what`` it made, most
    first, e.g. ``osrs-rl 0.2.0 (commit abc1234): 12 runs; osrs-rl 0.2.0 (commit def5678, dirty): 3 runs``.

    >>> tally([{"version": "0.2.0", "commit": "ab" * 20, "dirty": False}, None, None])
    'not recorded: 2 runs; osrs-rl 0.2.0 (commit abababa): 1 run'
    """
    counts: dict[tuple, int] = {}
    for record in records:
        key = tuple((record or {}).get(name) for name in HEADER_KEYS)
        counts[key] = counts.get(key, 0) + 1
    parts = []
    for key, n in sorted(counts.items(), key=lambda kv: -kv[1]):
        record = dict(zip(HEADER_KEYS, key, strict=True))
        said = "not recorded" if record["version"] is None else f"osrs-rl {describe(record)}"
        parts.append(f"{said}: {n} {what if n != 1 else what.removesuffix('s')}")
    return "; ".join(parts)
