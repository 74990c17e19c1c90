"""Scripted opponents and baseline policies (Numba, batched inside the encounters' steps)."""
