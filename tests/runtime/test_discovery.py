"""Encounters are discovered, not listed (issue 16): the entry-point group ``osrs_rl.encounters``, a scan of
the built-in encounters folder when the installed metadata is stale, and ``register`` in-process."""

import importlib.metadata
import textwrap
import tomllib
from pathlib import Path

import pytest

from osrs_rl.runtime import registry

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"
# the built-ins this package declares (a new encounter is one folder and one line there, never a list here)
BUILTINS = sorted(tomllib.loads(PYPROJECT.read_text())["project"]["entry-points"][registry.ENTRY_POINT_GROUP])


@pytest.fixture
def entry_points(monkeypatch):
    """Replace the installed metadata's entry points with a list the test sets (``points[:] = [...]``)."""
    points: list = []
    real = importlib.metadata.entry_points

    def fake(**kwargs):
        if kwargs.get("group") == registry.ENTRY_POINT_GROUP:
            return list(points)
        return real(**kwargs)

    monkeypatch.setattr(importlib.metadata, "entry_points", fake)
    registry.rediscover()
    yield points
    monkeypatch.undo()
    registry.rediscover()


def point(name, value):
    return importlib.metadata.EntryPoint(name=name, value=value, group=registry.ENTRY_POINT_GROUP)


@pytest.fixture
def fight_package(tmp_path, monkeypatch):
    """A package outside osrs_rl with one encounter, ``fakefight`` (the counting encounter renamed)."""
    (tmp_path / "fakefight_pkg").mkdir()
    (tmp_path / "fakefight_pkg" / "__init__.py").write_text(textwrap.dedent("""
        import dataclasses
        from tests.runtime.counting import make_spec
        SPEC = dataclasses.replace(make_spec(1), name="fakefight")
        NOT_A_SPEC = 3
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    return "fakefight_pkg"


def test_a_package_registers_an_encounter_through_the_entry_point_group(entry_points, fight_package):
    entry_points[:] = [point("fakefight", f"{fight_package}:SPEC")]
    assert "fakefight" in registry.names() and "fakefight" not in registry.builtin_names()
    assert registry.sources()["fakefight"].describe() == "entry point: fakefight_pkg:SPEC"
    env = registry.make("fakefight", num_envs=2)
    env.reset()
    assert env.spec is registry.get_spec("fakefight") and env.spec.name == "fakefight"


def test_builtins_are_found_when_the_metadata_lacks_their_entry_points(entry_points):
    assert registry.builtin_names() == BUILTINS
    assert {registry.sources()[n].kind for n in BUILTINS} == {"package scan"}
    assert registry.get_spec("zulrah").name == "zulrah"


def test_builtins_come_from_their_entry_points_when_the_metadata_has_them(entry_points):
    declared = tomllib.loads(PYPROJECT.read_text())["project"]["entry-points"][registry.ENTRY_POINT_GROUP]
    entry_points[:] = [point(n, v) for n, v in declared.items()]
    assert registry.builtin_names() == BUILTINS
    assert {n: registry.sources()[n].target for n in BUILTINS} == declared


def test_pyproject_declares_every_encounter_the_scan_finds(entry_points):
    """A built-in missing from pyproject.toml would be found only while the scan covers it: declare it."""
    declared = tomllib.loads(PYPROJECT.read_text())["project"]["entry-points"][registry.ENTRY_POINT_GROUP]
    assert sorted(declared) == registry.builtin_names()
    for name, target in declared.items():
        module, _, attr = target.partition(":")
        assert getattr(importlib.import_module(module), attr) is registry.get_spec(name), name


@pytest.mark.parametrize("value, message", [
    ("fakefight_pkg:NOT_A_SPEC", "fakefight_pkg:NOT_A_SPEC is a int, not an EncounterSpec"),
    ("fakefight_pkg:GONE", "cannot be loaded"),
    ("no_such_package_xyz:SPEC", "cannot be loaded"),
])
def test_a_broken_entry_point_is_named_when_its_encounter_is_asked_for(entry_points, fight_package, value, message):
    entry_points[:] = [point("fakefight", value)]
    assert "fakefight" in registry.names()                     # listing never imports it
    with pytest.raises(ValueError, match=message):
        registry.get_spec("fakefight")
    assert registry.get_spec("template").name == "template"    # the others still load


def test_an_entry_point_must_carry_the_name_of_its_spec(entry_points, fight_package):
    entry_points[:] = [point("otherfight", f"{fight_package}:SPEC")]
    with pytest.raises(ValueError, match="holds the spec named 'fakefight'"):
        registry.get_spec("otherfight")


def test_two_packages_claiming_one_name_are_refused(entry_points, fight_package):
    entry_points[:] = [point("fakefight", f"{fight_package}:SPEC"), point("fakefight", "elsewhere:SPEC")]
    with pytest.raises(ValueError, match="declared by more than one entry point"):
        registry.get_spec("fakefight")


def test_register_adds_an_in_process_spec_and_refuses_a_discovered_name(entry_points, fight_package):
    import dataclasses

    from tests.runtime.counting import make_spec

    entry_points[:] = [point("fakefight", f"{fight_package}:SPEC")]
    with pytest.raises(ValueError, match="'fakefight' is already registered"):
        registry.register(dataclasses.replace(make_spec(1), name="fakefight"))
    spec = registry.register(dataclasses.replace(make_spec(1), name="localfight"))
    try:
        assert registry.get_spec("localfight") is spec and registry.sources()["localfight"].kind == "registered"
    finally:
        registry.unregister("localfight")
    assert "localfight" not in registry.names()
