"""Zulrah (issue 7): see README.md beside this file; the rotation table is ``rotations.ROTATIONS``."""

from .rotations import ROTATIONS
from .spec import SPEC

__all__ = ["ROTATIONS", "SPEC"]
