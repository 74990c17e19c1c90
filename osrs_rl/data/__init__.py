"""Facts with sources: items, NPCs, spells, consumables, specials and bolts (JSON beside this file).

``osrs_rl.data.tables`` loads them into NumPy tables for the kernels and resolves names.
"""
