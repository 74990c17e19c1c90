"""Each encounter's preset lies in its own folder and is found through its spec (EncounterSpec.preset)."""

import dataclasses
from pathlib import Path

import pytest

import osrs_rl
from osrs_rl.agent.config import load_config, preset_path
from osrs_rl.runtime import registry
from osrs_rl.runtime.registry import get_spec


@pytest.mark.parametrize("name", [n for n in registry.builtin_names() if get_spec(n).preset is not None])
def test_builtin_presets_lie_in_their_encounter_folder(name):
    path = preset_path(name)
    encounters = Path(osrs_rl.__file__).parent / "encounters"
    assert path is not None and path.is_file()
    assert encounters in path.parents                        # not in a framework folder
    assert load_config(name).env.encounter == name


def test_preset_values_are_applied():
    assert load_config("template").run.total_steps == 500_000        # template/preset.toml
    assert load_config("template", overrides=["--run.total_steps", "7"]).run.total_steps == 7


@pytest.fixture
def registered(tmp_path):
    added = []

    def add(spec):
        registry.register(spec)
        added.append(spec.name)
        return spec
    yield add
    for name in added:
        registry.unregister(name)


def test_an_encounter_without_a_preset_trains_from_the_defaults(registered):
    spec = registered(dataclasses.replace(get_spec("template"), name="no_preset_fight", preset=None))
    assert preset_path(spec.name) is None
    assert load_config(spec.name).run.total_steps != 500_000


def test_a_declared_preset_that_is_missing_is_named(registered, tmp_path):
    missing = tmp_path / "gone.toml"
    registered(dataclasses.replace(get_spec("template"), name="lost_preset_fight", preset=str(missing)))
    with pytest.raises(ValueError, match="gone.toml, which does not exist"):
        load_config("lost_preset_fight")


def test_a_third_party_preset_is_read(registered, tmp_path):
    own = tmp_path / "mine.toml"
    own.write_text("[run]\ntotal_steps = 1234\n")
    registered(dataclasses.replace(get_spec("template"), name="own_preset_fight", preset=str(own)))
    assert load_config("own_preset_fight").run.total_steps == 1234
