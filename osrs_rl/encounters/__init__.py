"""Encounters: one folder each (state.py, mechanics.py, spec.py, README.md); see docs/writing-an-encounter.md."""
