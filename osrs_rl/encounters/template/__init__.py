"""REQUIRED. The template encounter (see README.md beside this file): ``SPEC`` is what its entry point names."""

from .spec import SPEC

__all__ = ["SPEC"]
