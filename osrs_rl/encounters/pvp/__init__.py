"""NH PvP: ``pvp`` (one agent against a scripted tier) and ``pvp_selfplay`` (two agents); see README.md."""

from .opponents import clear_opponents, opponents, set_opponents
from .spec import SELFPLAY_SPEC, SPEC

__all__ = ["SELFPLAY_SPEC", "SPEC", "clear_opponents", "opponents", "set_opponents"]
