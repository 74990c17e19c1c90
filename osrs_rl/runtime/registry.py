"""The encounter registry: names to specs, so ``osrs_rl.make(name)`` needs no wiring per encounter.

Built-in encounters are imported lazily by module path; anyone can ``register`` another spec.
"""

from __future__ import annotations

import importlib

from osrs_rl.runtime.spec import EncounterSpec

# name -> module whose SPEC attribute is the EncounterSpec (imported on first use)
BUILTIN = {
    "template": "osrs_rl.encounters.template",
    "pvp": "osrs_rl.encounters.pvp",
    "pvp_selfplay": "osrs_rl.encounters.pvp.selfplay",
    "zulrah": "osrs_rl.encounters.zulrah",
}
_REGISTRY: dict[str, EncounterSpec] = {}


def register(spec: EncounterSpec, *, replace: bool = False) -> EncounterSpec:
    """Add ``spec`` under its name (refused if the name is taken, unless ``replace``)."""
    if not isinstance(spec, EncounterSpec):
        raise TypeError(f"register() takes an EncounterSpec, got {type(spec).__name__}")
    if not replace and (spec.name in _REGISTRY or spec.name in BUILTIN):
        raise ValueError(f"an encounter named {spec.name!r} is already registered")
    _REGISTRY[spec.name] = spec
    return spec


def names() -> list[str]:
    return sorted(set(BUILTIN) | set(_REGISTRY))


def get_spec(name: str) -> EncounterSpec:
    if name in _REGISTRY:
        return _REGISTRY[name]
    if name in BUILTIN:
        spec = importlib.import_module(BUILTIN[name]).SPEC
        _REGISTRY[name] = spec
        return spec
    raise KeyError(f"Unknown encounter {name!r}; known encounters: {', '.join(names())}")


def make(name: str, num_envs: int = 1, seed: int = 0, threads: int = 1, **config):
    """A VecEnv of ``num_envs`` copies of encounter ``name``; ``config`` overrides its settings."""
    from osrs_rl.runtime.vec_env import VecEnv

    return VecEnv(get_spec(name), num_envs=num_envs, seed=seed, threads=threads, **config)
