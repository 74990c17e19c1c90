"""Weapon effect codes: what makes a weapon's formula differ from the plain one.

Items are identified by game item id (a project convention); this module maps the ids of weapons with
special formulas to a small effect code that the kernels switch on. Ids are the OSRS item ids
used by weirdgloop/osrs-dps-calc cdn/json/equipment.json; ``tests/core/test_weapons.py`` checks
that each one exists in ``osrs_rl/data/items.json`` under the expected name.
"""

# ---- effect codes ------------------------------------------------------------------------
NONE = 0
TWISTED_BOW = 1
TRIDENT_OF_THE_SEAS = 2
TRIDENT_OF_THE_SWAMP = 3
SANGUINESTI_STAFF = 4
TUMEKENS_SHADOW = 5
TOXIC_BLOWPIPE = 6
DRAGON_CLAWS = 7
ARMADYL_GODSWORD = 8
DRAGON_DAGGER = 9
VOIDWAKER = 10
VESTAS_LONGSWORD = 11
GRANITE_MAUL = 12
ZARYTE_CROSSBOW = 13
HEAVY_BALLISTA = 14
DARK_BOW = 15
VOLATILE_NIGHTMARE_STAFF = 16
STATIUS_WARHAMMER = 17
MAGIC_SHORTBOW_I = 18
ARMADYL_CROSSBOW = 19
ELDRITCH_NIGHTMARE_STAFF = 20
ACCURSED_SCEPTRE = 21
OTHER_GODSWORD = 22      # Bandos/Saradomin/Zamorak: the godsword x1.1 without the AGS x1.25
DRAGON_WARHAMMER = 23
CRYSTAL_BOW = 24         # bow of faerdhinen / crystal bow: crystal armour set bonus
ABYSSAL_WHIP = 25
NUM_EFFECTS = 26

EFFECT_NAMES = {v: k.lower() for k, v in dict(globals()).items() if k.isupper() and isinstance(v, int)
                and k not in ("NUM_EFFECTS",)}

# Effect by item *name*; resolved to ids against items.json by the loader (osrs_rl.data.tables)
# so that every variant id of a weapon (charged, ornamented, LMS) gets the same effect.
EFFECT_BY_NAME = {
    "Twisted bow": TWISTED_BOW,
    "Trident of the seas": TRIDENT_OF_THE_SEAS,
    "Trident of the seas (e)": TRIDENT_OF_THE_SEAS,
    "Trident of the swamp": TRIDENT_OF_THE_SWAMP,
    "Trident of the swamp (e)": TRIDENT_OF_THE_SWAMP,
    "Sanguinesti staff": SANGUINESTI_STAFF,
    "Holy sanguinesti staff": SANGUINESTI_STAFF,
    "Tumeken's shadow": TUMEKENS_SHADOW,
    "Toxic blowpipe": TOXIC_BLOWPIPE,
    "Dragon claws": DRAGON_CLAWS,
    "Armadyl godsword": ARMADYL_GODSWORD,
    "Bandos godsword": OTHER_GODSWORD,
    "Saradomin godsword": OTHER_GODSWORD,
    "Zamorak godsword": OTHER_GODSWORD,
    "Dragon dagger": DRAGON_DAGGER,
    "Dragon dagger(p)": DRAGON_DAGGER,
    "Dragon dagger(p+)": DRAGON_DAGGER,
    "Dragon dagger(p++)": DRAGON_DAGGER,
    "Voidwaker": VOIDWAKER,
    "Vesta's longsword": VESTAS_LONGSWORD,
    "Granite maul": GRANITE_MAUL,
    "Zaryte crossbow": ZARYTE_CROSSBOW,
    "Heavy ballista": HEAVY_BALLISTA,
    "Dark bow": DARK_BOW,
    "Volatile nightmare staff": VOLATILE_NIGHTMARE_STAFF,
    "Eldritch nightmare staff": ELDRITCH_NIGHTMARE_STAFF,
    "Statius's warhammer": STATIUS_WARHAMMER,
    "Magic shortbow (i)": MAGIC_SHORTBOW_I,
    "Armadyl crossbow": ARMADYL_CROSSBOW,
    "Accursed sceptre": ACCURSED_SCEPTRE,
    "Accursed sceptre (a)": ACCURSED_SCEPTRE,
    "Dragon warhammer": DRAGON_WARHAMMER,
    "Abyssal whip": ABYSSAL_WHIP,
    "Bow of faerdhinen": CRYSTAL_BOW,
    "Crystal bow": CRYSTAL_BOW,
}

POWERED_STAVES = (TRIDENT_OF_THE_SEAS, TRIDENT_OF_THE_SWAMP, SANGUINESTI_STAFF, TUMEKENS_SHADOW,
                  ACCURSED_SCEPTRE)

# ---- armour sets that change formulas ------------------------------------------------------
VOID_NONE = 0
VOID_MELEE = 1
VOID_RANGED = 2
VOID_MAGIC = 3
VOID_ELITE_RANGED = 4
VOID_ELITE_MAGIC = 5
VOID_NAMES = ("none", "melee", "ranged", "magic", "elite ranged", "elite magic")
