"""Registry entry for the two-policy NH duel (``pvp_selfplay``)."""

from .spec import SELFPLAY_SPEC as SPEC

__all__ = ["SPEC"]
