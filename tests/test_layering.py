"""The package's layers: every import of ``osrs_rl`` goes down the declared order, never up, never round.

Each module's imports are read from its source (``ast``, so an import inside a function counts as
much as one at the top; a string that is a whole module path, as ``importlib.import_module`` takes,
counts too). A top-level folder (or module) may import only itself and the layers below it:

    core -> data -> runtime -> osrs_rl (the package root: make, __version__) -> encounters -> io -> agent
         -> replay -> explore -> train -> audit -> sweep -> calc -> cli

- ``core``: Numba kernels shared by all encounters; ``data``: the JSON facts, their tables, and
  combatant building from them (``data/combatants.py``, which the loadouts and ``calc.py`` share).
- ``runtime``: the spec an encounter declares (with ``truth.py``, what the audit reads), the registry,
  VecEnv; below ``encounters`` because encounters import the spec types they fill in.
- ``encounters``: one folder each, with the scripted policies it offers (the PvP tiers that run inside
  its step, the Zulrah solver that plays it from outside) and its tools, all declared in its spec.
- ``io``: file utilities (atomic writes), above the encounters so that no encounter writes files.
- ``agent``: a trained policy as modules and files (settings, networks, distributions, checkpoints,
  ``load_policy``, a policy's batched decision), below ``replay``, ``explore`` and ``train``, which all load
  policies or act with them.
- ``replay`` below ``train``: training writes replays (the trainer tapes its rollouts into replay
  files, evaluation saves replays of its episodes), so ``train`` imports ``replay``; the replay viewer
  and human play only need a trained policy, which they load through ``agent``, so ``replay`` never
  imports ``train``.
- ``explore`` (Go-Explore archives: cells, the archive file, exploration, archive starts) below ``train``,
  whose trainer starts episodes from an archive; above ``replay``, as a cell is shown as a replay.
- ``sweep`` (Optuna studies whose trials are training runs) above ``train`` and ``audit``, below the
  command line.
- ``audit`` (plays and re-simulates a run's policy), ``calc.py`` (the user-facing calculator, a view
  over ``data`` and ``core``) and ``cli.py`` (every command) sit on top.

Besides: nothing outside ``osrs_rl/encounters/<name>/`` names that encounter's modules (a new encounter
is one folder: the registry discovers it), except the places listed in ``NAMES_AN_ENCOUNTER`` (none
now), each with its reason.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "osrs_rl"
ROOT = "osrs_rl"     # the node of the package root itself (osrs_rl/__init__.py)

LAYERS = ("core", "data", "runtime", ROOT, "encounters", "io", "agent", "replay", "explore", "train", "audit", "sweep",
          "calc", "cli")

# (importing module, imported module prefix) -> why it may name an encounter from outside its folder.
# Each entry must still occur (a stale one fails), so the list only shrinks.
NAMES_AN_ENCOUNTER: dict[tuple[str, str], str] = {}
# imports that may go up the layer order, with why: discovery (the registry) falls back to scanning the
# encounters package for specs when the installed metadata lacks their entry points; it names the
# package only, never one encounter (test_nothing_outside_an_encounter_names_it holds it to that)
UPWARD_ALLOWED = {("osrs_rl.runtime.registry", "osrs_rl.encounters")}

_MODULE_PATH = re.compile(r"^osrs_rl(\.\w+)+(:\w+)?$")


def module_name(path: Path, package: Path) -> str:
    rel = path.relative_to(package.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, package: Path) -> list[tuple[str, int]]:
    """(imported osrs_rl module, line) for every import in ``path``, at any depth, and every string
    constant that is a whole module path (``"osrs_rl.x.y"`` or ``"osrs_rl.x.y:name"``)."""
    name = module_name(path, package)
    here = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")[: len(here.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            # ``from osrs_rl import calc`` imports the module osrs_rl.calc
            for a in node.names:
                sub = f"{target}.{a.name}"
                out.append((sub if _is_module(sub, package) else target, node.lineno))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _MODULE_PATH.match(node.value):
            out.append((node.value.partition(":")[0], node.lineno))
    return [(m, line) for m, line in out if m == ROOT or m.startswith(ROOT + ".")]


def _is_module(dotted: str, package: Path) -> bool:
    parts = dotted.split(".")
    if parts[0] != package.name:
        return False
    p = package.parent.joinpath(*parts)
    return p.with_suffix(".py").is_file() or (p / "__init__.py").is_file()


def top(module: str) -> str:
    """The layer node of a module: its top-level folder or module under osrs_rl, or ROOT."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ROOT


def _covers(prefix: str, module: str) -> bool:
    """``prefix`` names ``module``: "a.b." covers every module below a.b, "a.b" covers a.b and below."""
    return module.startswith(prefix) if prefix.endswith(".") else module == prefix or module.startswith(prefix + ".")


def _matches(module: str, imported: str, table) -> bool:
    return any(module == m and _covers(p, imported) for m, p in table)


def import_edges(package: Path = PACKAGE) -> list[tuple[str, str, str, int]]:
    """(importing module, imported module, file, line) for every osrs_rl import inside ``package``."""
    edges = []
    for path in sorted(package.rglob("*.py")):
        src = module_name(path, package)
        for imported, line in imports_of(path, package):
            edges.append((src, imported, str(path.relative_to(package.parent)), line))
    return edges


def upward_imports(edges, layers=LAYERS, allowed=UPWARD_ALLOWED) -> list[str]:
    rank = {name: i for i, name in enumerate(layers)}
    bad = []
    for src, dst, where, line in edges:
        a, b = top(src), top(dst)
        if a not in rank or b not in rank:
            bad.append(f"{where}:{line}: {src} -> {dst}: {a if a not in rank else b!r} is not in LAYERS")
        elif rank[b] > rank[a] and not _matches(src, dst, allowed):
            bad.append(f"{where}:{line}: {src} ({a}) imports {dst} ({b}), a layer above it")
    return bad


def folder_cycles(edges, allowed=UPWARD_ALLOWED) -> list[list[str]]:
    """Cycles in the graph of top-level folders (declared exceptions left out), each once."""
    graph: dict[str, set[str]] = {}
    for src, dst, _, _ in edges:
        a, b = top(src), top(dst)
        if a != b and not _matches(src, dst, allowed):
            graph.setdefault(a, set()).add(b)
    cycles, seen = [], set()

    def walk(node, path):
        for nxt in sorted(graph.get(node, ())):
            if nxt in path:
                cycle = path[path.index(nxt):] + [nxt]
                key = frozenset(cycle)
                if key not in seen:
                    seen.add(key)
                    cycles.append(cycle)
            elif len(path) < len(graph) + 1:
                walk(nxt, path + [nxt])

    for start in sorted(graph):
        walk(start, [start])
    return cycles


def encounter_names(edges, allowed=NAMES_AN_ENCOUNTER) -> tuple[list[str], set]:
    """Imports that name an encounter from outside its folder, and the allowed entries that were used."""
    bad, used = [], set()
    for src, dst, where, line in edges:
        parts = dst.split(".")
        if len(parts) < 3 or parts[1] != "encounters":
            continue
        own = src.split(".")[:3] if top(src) == "encounters" else None
        if own == parts[:3]:
            continue
        hit = [(m, p) for m, p in allowed if src == m and _covers(p, dst)]
        if hit:
            used.update(hit)
            continue
        bad.append(f"{where}:{line}: {src} names the encounter module {dst}")
    return bad, used


# ---- the package as it is ------------------------------------------------------------------------------
EDGES = import_edges()


def test_every_top_level_folder_and_module_has_a_layer():
    found = {p.stem if p.is_file() else p.name for p in PACKAGE.iterdir()
             if (p.suffix == ".py" and p.name != "__init__.py") or (p / "__init__.py").is_file()}
    assert found - set(LAYERS) == set(), "place each new top-level package in LAYERS (and the docstring)"
    assert set(LAYERS) - found - {ROOT} == set(), "LAYERS names a package that is gone"


def test_no_import_goes_up_the_layers():
    assert upward_imports(EDGES) == []


def test_no_import_cycle_between_top_level_folders():
    assert folder_cycles(EDGES) == []


def test_nothing_outside_an_encounter_names_it():
    bad, used = encounter_names(EDGES)
    assert bad == []
    assert set(NAMES_AN_ENCOUNTER) - used == set(), "an allowed exception no longer occurs: remove it"


def encounter_imports(edges) -> list[str]:
    """Imports from one encounter's folder into another's: encounters share code through ``core`` (and the
    runtime), never through each other (no exception list can allow one)."""
    bad = []
    for src, dst, where, line in edges:
        a, b = src.split("."), dst.split(".")
        if len(a) >= 3 and len(b) >= 3 and a[1] == b[1] == "encounters" and a[2] != b[2]:
            bad.append(f"{where}:{line}: encounter {a[2]} imports encounter {b[2]} ({dst})")
    return bad


def test_no_encounter_imports_another():
    assert encounter_imports(EDGES) == []


def test_every_upward_exception_is_still_used():
    used = {(m, p) for m, p in UPWARD_ALLOWED for src, dst, _, _ in EDGES
            if src == m and _covers(p, dst) and top(dst) != top(src)}
    assert UPWARD_ALLOWED - used == set(), "an allowed upward import no longer occurs: remove it"


def test_the_registry_names_no_encounter():
    """Discovery replaced the hand-kept list: the registry's imports reach the encounters package, not one."""
    reached = {dst for src, dst, _, _ in EDGES if src == "osrs_rl.runtime.registry" and top(dst) == "encounters"}
    assert reached == {"osrs_rl.encounters"}


# ---- the checks themselves catch what they are for ------------------------------------------------------
def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    pkg = tmp_path / "osrs_rl"
    for rel, text in files.items():
        f = pkg / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(text)
        for d in f.parent.relative_to(tmp_path).parents:
            if d != Path("."):
                (tmp_path / d / "__init__.py").touch()
        (f.parent / "__init__.py").touch()
    return pkg


def test_an_upward_import_inside_a_function_is_caught(tmp_path):
    pkg = _tree(tmp_path, {"core/a.py": "def f():\n    from osrs_rl.train import ppo\n", "train/ppo.py": ""})
    bad = upward_imports(import_edges(pkg))
    assert len(bad) == 1 and "osrs_rl.core.a (core) imports osrs_rl.train.ppo (train)" in bad[0]


def test_relative_and_from_package_imports_resolve(tmp_path):
    pkg = _tree(tmp_path, {"data/a.py": "from ..calc import x\nfrom osrs_rl import cli\nfrom . import b\n",
                           "data/b.py": "", "calc.py": "", "cli.py": ""})
    got = sorted(dst for _, dst, _, _ in import_edges(pkg))
    assert got == ["osrs_rl.calc", "osrs_rl.cli", "osrs_rl.data.b"]
    assert len(upward_imports(import_edges(pkg))) == 2


def test_a_folder_cycle_is_caught(tmp_path):
    pkg = _tree(tmp_path, {"replay/a.py": "import osrs_rl.train.b\n", "train/b.py": "from osrs_rl.replay import a\n"})
    assert folder_cycles(import_edges(pkg)) == [["replay", "train", "replay"]]


def test_an_encounter_importing_another_is_caught(tmp_path):
    pkg = _tree(tmp_path, {"encounters/caves/rules.py": "from ..inferno import monsters\n",
                           "encounters/inferno/monsters.py": ""})
    assert encounter_imports(import_edges(pkg)) == ["osrs_rl/encounters/caves/rules.py:1: encounter caves imports "
                                                    "encounter inferno (osrs_rl.encounters.inferno.monsters)"]


@pytest.mark.parametrize("src, text", [
    ("train/t.py", "import importlib\nimportlib.import_module('osrs_rl.encounters.pvp.state')\n"),
    ("encounters/zulrah/z.py", "from osrs_rl.encounters.pvp import state\n"),
])
def test_naming_an_encounter_from_outside_its_folder_is_caught(tmp_path, src, text):
    pkg = _tree(tmp_path, {src: text, "encounters/pvp/state.py": ""})
    bad, _ = encounter_names(import_edges(pkg))
    assert len(bad) == 1 and "names the encounter module osrs_rl.encounters.pvp.state" in bad[0]
