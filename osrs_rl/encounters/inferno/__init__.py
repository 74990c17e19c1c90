"""The Inferno (issue 17): see README.md beside this file; the wave table is ``waves.WAVES``."""

from .spec import SPEC
from .waves import WAVES

__all__ = ["SPEC", "WAVES"]
