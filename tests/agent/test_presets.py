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


# ---- the GPU presets: settings over the preset for one GPU and many cores ------------------------------------------
GPU_ENCOUNTERS = [name for name in registry.names() if get_spec(name).gpu_preset is not None]


def test_the_builtin_encounters_with_a_cpu_preset_of_their_own_declare_a_gpu_preset():
    # pvp_selfplay's league plays its snapshots on the device too: not sized yet
    assert GPU_ENCOUNTERS == ["inferno", "pvp", "template", "zulrah"]


@pytest.mark.parametrize("name", GPU_ENCOUNTERS)
def test_a_gpu_preset_goes_over_the_preset_and_keeps_the_fight_as_it_is(name):
    import tomllib

    plain, gpu = load_config(name), load_config(name, preset="gpu")
    overlay = tomllib.loads(Path(get_spec(name).gpu_preset).read_text())
    assert "config" not in overlay.get("env", {})           # the fight's settings and reward stay in preset.toml
    assert gpu.env.config == plain.env.config and gpu.env.opponents == plain.env.opponents
    assert gpu.ppo.gamma == plain.ppo.gamma and gpu.optim.lr == plain.optim.lr
    for section, table in overlay.items():
        for key, value in table.items():
            assert getattr(getattr(gpu, section), key) == value, f"{section}.{key}"
    assert gpu.run.device == "cuda" and gpu.env.overlap and gpu.env.env_threads == 0


@pytest.mark.parametrize("name", GPU_ENCOUNTERS)
def test_every_value_of_a_gpu_preset_gives_its_reason(name):
    lines = Path(get_spec(name).gpu_preset).read_text().splitlines()
    for k, line in enumerate(lines):
        if "=" in line and not line.lstrip().startswith("#"):
            before = lines[k - 1].lstrip() if k else ""
            assert "#" in line or before.startswith("#"), f"{name}'s gpu preset: {line!r} says no reason"


def test_a_gpu_preset_given_as_the_config_file_is_refused_and_one_not_declared_is_named():
    with pytest.raises(ValueError, match="give --preset gpu instead of --config"):
        load_config("zulrah", get_spec("zulrah").gpu_preset)
    with pytest.raises(ValueError, match="'pvp_selfplay' declares no GPU preset"):
        load_config("pvp_selfplay", preset="gpu")
    with pytest.raises(ValueError, match="unknown preset 'tpu'"):
        load_config("zulrah", preset="tpu")


def test_a_gpu_preset_goes_over_a_config_file_too(tmp_path):
    own = tmp_path / "mine.toml"
    own.write_text("[env]\nnum_envs = 8\n[run]\ntotal_steps = 1234\n")
    cfg = load_config("zulrah", own, preset="gpu")
    assert cfg.env.num_envs == 4096 and cfg.model.hidden == 256     # the GPU preset's, over the file's
    assert cfg.env.config == {}                                     # the file replaced the preset


@pytest.mark.parametrize("name", registry.names())
def test_every_training_config_an_encounter_lists_loads(name, monkeypatch):
    from osrs_rl.cli import _presets

    monkeypatch.chdir(Path(osrs_rl.__file__).parent.parent)         # the listing's paths are relative to here
    for path, _ in _presets(get_spec(name)):
        assert load_config(name, path).env.encounter == name
