"""Skill indices: every per-skill array in the engine (levels, boosts, drains) is ordered like this."""

ATTACK = 0
STRENGTH = 1
DEFENCE = 2
RANGED = 3
MAGIC = 4
HITPOINTS = 5
PRAYER = 6
NUM_SKILLS = 7

SKILL_NAMES = ("attack", "strength", "defence", "ranged", "magic", "hitpoints", "prayer")
MAX_LEVEL = 99
