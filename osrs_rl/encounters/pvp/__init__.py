"""NH PvP (work in progress: see README.md for what v0 models and what is missing)."""

from osrs_rl.encounters.pvp.spec import SELFPLAY_SPEC, SPEC

__all__ = ["SELFPLAY_SPEC", "SPEC"]
