"""Baseline solvers that play an encounter from outside it (evaluation), batched in Numba.

Scripted policies that run inside an encounter's step (the PvP opponent tiers) live in that encounter's
folder (``osrs_rl/encounters/pvp/scripted.py``); nothing in ``encounters/`` imports this package.
"""
