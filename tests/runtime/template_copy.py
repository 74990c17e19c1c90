"""A copy of the template encounter package with its declarations edited, imported under a name of its own:
how the tests show that a reordered declaration (observation features, action options, reward terms) moves
where a value sits, never what its name means."""

import importlib
import shutil
import sys
from pathlib import Path

import osrs_rl

TEMPLATE = Path(osrs_rl.__file__).parent / "encounters" / "template"


def template_copy(site: Path, name: str, edit, edits: int = 2) -> object:
    """Copy the template package to ``site/name``, pass each ``.py`` file's text to ``edit(text) -> (text,
    edits)``, require ``edits`` edits in all (a test whose edit no longer matches fails, instead of testing the
    unedited package) and return the copy's SPEC."""
    pkg = site / name
    shutil.copytree(TEMPLATE, pkg, ignore=shutil.ignore_patterns("__pycache__", "*.md"))
    total = 0
    for file in pkg.glob("*.py"):
        text, made = edit(file.read_text())
        total += made
        file.write_text(text)
    assert total == edits, f"the template no longer declares what this test edits ({total} of {edits} edits)"
    sys.path.insert(0, str(site))
    try:
        return importlib.import_module(name).SPEC
    finally:
        sys.path.remove(str(site))


def swap_lines(text: str, first: str, second: str) -> tuple[str, int]:
    """``text`` with the one line holding ``first`` and the one holding ``second`` swapped (1 edit), or as it
    was (0) where either is missing."""
    lines = text.splitlines(keepends=True)
    a = [i for i, line in enumerate(lines) if first in line]
    b = [i for i, line in enumerate(lines) if second in line]
    if not a or not b:
        return text, 0
    (i,), (j,) = a, b
    lines[i], lines[j] = lines[j], lines[i]
    return "".join(lines), 1


def replace_counted(text: str, old: str, new: str) -> tuple[str, int]:
    """``text`` with ``old`` replaced by ``new``, and how many times it was."""
    return text.replace(old, new), text.count(old)
