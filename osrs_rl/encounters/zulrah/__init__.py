"""Zulrah (issue 7): see README.md beside this file; the rotation table is ``rotations.ROTATIONS``."""

from osrs_rl.encounters.zulrah.rotations import ROTATIONS
from osrs_rl.encounters.zulrah.spec import SPEC

__all__ = ["ROTATIONS", "SPEC"]
