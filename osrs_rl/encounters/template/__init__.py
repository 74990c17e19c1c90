"""The template encounter (see README.md beside this file)."""

from osrs_rl.encounters.template.spec import SPEC

__all__ = ["SPEC"]
