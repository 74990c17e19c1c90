"""The batched runtime: encounter specs, the registry, VecEnv, snapshots, recording, adapters."""

from osrs_rl.runtime.registry import get_spec, make, names, register
from osrs_rl.runtime.spec import ActionHead, ConfigField, EncounterSpec, ObsSegment
from osrs_rl.runtime.vec_env import VecEnv

__all__ = ["ActionHead", "ConfigField", "EncounterSpec", "ObsSegment", "VecEnv", "get_spec", "make", "names",
           "register"]
