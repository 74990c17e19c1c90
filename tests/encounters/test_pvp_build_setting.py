"""The `build` setting of PvP: every value of its declared range makes a fight, and a value outside it is a
config error (issue 15, item 8: `make("pvp", build=7)` raised ZeroDivisionError, the range then said -1..7
for the 7 builds of builds.json, the capacity of the tables rather than their count)."""

import json
from pathlib import Path

import numpy as np
import pytest

import osrs_rl
from osrs_rl.runtime.config import ConfigError
from osrs_rl.runtime.registry import get_spec

BUILDS_PATH = Path(__file__).resolve().parents[2] / "osrs_rl" / "encounters" / "pvp" / "builds.json"


def _build_field():
    return next(f for f in get_spec("pvp").config_fields if f.name == "build")


def test_the_declared_range_is_the_builds_in_the_file():
    count = len(json.loads(BUILDS_PATH.read_text(encoding="utf-8"))["builds"])
    field = _build_field()
    assert (field.low, field.high) == (-1, count - 1)


@pytest.mark.parametrize("encounter", ["pvp", "pvp_selfplay"])
@pytest.mark.parametrize("build", range(_build_field().low, _build_field().high + 1))
def test_every_declared_build_fights(encounter, build):
    env = osrs_rl.make(encounter, num_envs=2, seed=5, build=build)
    env.reset()
    states = env.states
    if build >= 0:
        assert (states["players"]["build"] == build).all()
    assert (states["players"]["p"]["base_levels"] > 0).all()          # the build's levels were applied
    shape = (2, env.spec.num_heads) if env.single_agent else (2, env.spec.num_agents, env.spec.num_heads)
    env.step(np.zeros(shape, dtype=np.int64))
    assert env.tick == 1


@pytest.mark.parametrize("bad", [_build_field().low - 1, _build_field().high + 1, 127])
def test_a_build_outside_the_range_is_a_config_error(bad):
    with pytest.raises(ConfigError, match=rf"'build' = {bad} .*out of range \[-1, {_build_field().high}\]"):
        osrs_rl.make("pvp", build=bad)
