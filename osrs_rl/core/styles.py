"""Attack types, stances and equipment-bonus indices shared by every combat kernel.

An attack type doubles as the index of its attack bonus, and ``DEF_OFFSET + type`` is the index of
the matching defence bonus, so kernels never branch on strings.
"""

# ---- attack types (== index of the attack bonus in a bonus vector) ----------------------
STAB = 0
SLASH = 1
CRUSH = 2
MAGIC = 3
RANGED = 4
ATTACK_TYPE_NAMES = ("stab", "slash", "crush", "magic", "ranged")

# ---- equipment bonus vector (order of items.json "bonuses") -----------------------------
B_STAB, B_SLASH, B_CRUSH, B_MAGIC, B_RANGED = 0, 1, 2, 3, 4
B_STAB_DEF, B_SLASH_DEF, B_CRUSH_DEF, B_MAGIC_DEF, B_RANGED_DEF = 5, 6, 7, 8, 9
B_MELEE_STR = 10
B_RANGED_STR = 11
B_MAGIC_DMG = 12        # tenths of a percent: Occult necklace = 50 (+5 %)
B_PRAYER = 13
NUM_BONUSES = 14
DEF_OFFSET = 5
BONUS_KEYS = (
    "stab", "slash", "crush", "magic", "ranged",
    "stab_def", "slash_def", "crush_def", "magic_def", "ranged_def",
    "melee_str", "ranged_str", "magic_dmg", "prayer",
)

# ---- stances (the second half of a combat style) ----------------------------------------
ACCURATE = 0
AGGRESSIVE = 1
DEFENSIVE = 2
CONTROLLED = 3
RAPID = 4
LONGRANGE = 5
AUTOCAST = 6
DEFENSIVE_AUTOCAST = 7
MANUAL_CAST = 8
STANCE_NAMES = (
    "Accurate", "Aggressive", "Defensive", "Controlled", "Rapid", "Longrange",
    "Autocast", "Defensive Autocast", "Manual Cast",
)

# ---- ranged ammo classes: which of an NPC's three ranged defence bonuses applies -----------
AMMO_NONE = -1
AMMO_LIGHT = 0      # thrown weapons, darts, knives, toxic blowpipe
AMMO_STANDARD = 1   # bows
AMMO_HEAVY = 2      # crossbows, ballistae, chinchompas
AMMO_CLASS_NAMES = ("light", "standard", "heavy")


def is_melee(attack_type: int) -> bool:
    return attack_type <= CRUSH
