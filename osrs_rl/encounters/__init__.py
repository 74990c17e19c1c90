"""Encounters: one folder each (modules state, mechanics, view, spec; README.md); see docs/writing-an-encounter.md."""
