"""Worn equipment: slot order, set pieces, and the kernel that turns gear into a combatant.

``ITEM_DTYPE`` rows are built from ``osrs_rl/data/items.json`` by ``osrs_rl.data.tables``; kernels
only see item *indices* into that table (-1 = empty slot).
Set bonuses modelled: void knight (OSRS wiki "Void Knight equipment": top, robe, gloves and the
style's helm; elite top/robe give the elite bonuses) and crystal armour with a crystal bow
(OSRS wiki "Crystal armour"; dps-calc ``isWearingCrystalBow``). Single items: Dizana's quiver
(below) and Chaos gauntlets (+3 to bolt spells, ``spell_gear_bonus``).
"""

import numpy as np
from numba import njit

from osrs_rl.core import styles as S
from osrs_rl.core import weapons as W
from osrs_rl.core.styles import NUM_BONUSES

# ---- slots ---------------------------------------------------------------------------------
HEAD, CAPE, NECK, AMMO, WEAPON, BODY, SHIELD, LEGS, HANDS, FEET, RING = range(11)
NUM_SLOTS = 11
SLOT_NAMES = ("head", "cape", "neck", "ammo", "weapon", "body", "shield", "legs", "hands", "feet", "ring")

# ---- set pieces (ITEM_DTYPE.set_piece) -------------------------------------------------------
PIECE_NONE = 0
VOID_TOP, VOID_ROBE, VOID_GLOVES = 1, 2, 3
VOID_MELEE_HELM, VOID_RANGER_HELM, VOID_MAGE_HELM = 4, 5, 6
ELITE_VOID_TOP, ELITE_VOID_ROBE = 7, 8
CRYSTAL_HELM, CRYSTAL_LEGS, CRYSTAL_BODY = 9, 10, 11
DIZANAS_QUIVER = 12      # charged or blessed quiver, or the max cape: +10 ranged attack, +1 ranged strength

# ---- single items with a rule (by game item id, the project's convention) -------------------
CHAOS_GAUNTLETS_ID = 777
CHAOS_GAUNTLETS_BOLT_BONUS = 3   # OSRS wiki "Chaos gauntlets": all Bolt spells hit up to 3 more

# ---- ammunition kinds (ITEM_DTYPE.fires for weapons, .ammo_kind for ammo) ---------------------
AMMO_KIND_NAMES = ("none", "arrow", "bolt", "bolt_rack", "javelin", "dart")

SET_PIECE_BY_NAME = {
    "Void knight top": VOID_TOP, "Void knight robe": VOID_ROBE, "Void knight gloves": VOID_GLOVES,
    "Void melee helm": VOID_MELEE_HELM, "Void ranger helm": VOID_RANGER_HELM,
    "Void mage helm": VOID_MAGE_HELM, "Elite void top": ELITE_VOID_TOP,
    "Elite void robe": ELITE_VOID_ROBE, "Crystal helm": CRYSTAL_HELM, "Crystal legs": CRYSTAL_LEGS,
    "Crystal body": CRYSTAL_BODY,
    "Dizana's quiver (Charged)": DIZANAS_QUIVER, "Blessed dizana's quiver": DIZANAS_QUIVER,
    "Dizana's max cape": DIZANAS_QUIVER,
}
"""Set pieces by full name ("Name (Version)") first, then by base name."""

ITEM_DTYPE = np.dtype([
    ("id", np.int32),               # game item id
    ("slot", np.int8),
    ("two_handed", np.int8),
    ("bonuses", np.int32, (NUM_BONUSES,)),
    ("speed", np.int16),            # listed attack speed (weapons), 0 otherwise
    ("attack_range", np.int16),     # base range in tiles (weapons)
    ("category", np.int16),         # index into the weapon-category list
    ("ammo_class", np.int8),        # styles.AMMO_*
    ("effect", np.int16),           # weapons.* effect code
    ("bolt", np.int8),              # bolts code for enchanted bolts, 0 otherwise
    ("is_dragon_arrow", np.int8),
    ("set_piece", np.int8),
    ("fires", np.int8),             # weapons: the AMMO_KIND_NAMES index they take from the ammo slot
    ("ammo_kind", np.int8),         # ammo: its kind
    ("ammo_tier", np.int16),        # a weapon fires its kind of ammo up to its own tier
])


@njit(cache=True)
def _void_set(items, worn):
    """weapons.VOID_* for the worn items (needs top, robe, gloves and a helm; elite counts too)."""
    top = robe = gloves = False
    elite = True
    helm = 0
    for s in range(NUM_SLOTS):
        i = worn[s]
        if i < 0:
            continue
        piece = items[i].set_piece
        if piece == VOID_TOP or piece == ELITE_VOID_TOP:
            top = True
            elite = elite and piece == ELITE_VOID_TOP
        elif piece == VOID_ROBE or piece == ELITE_VOID_ROBE:
            robe = True
            elite = elite and piece == ELITE_VOID_ROBE
        elif piece == VOID_GLOVES:
            gloves = True
        elif piece == VOID_MELEE_HELM or piece == VOID_RANGER_HELM or piece == VOID_MAGE_HELM:
            helm = piece
    if not (top and robe and gloves and helm != 0):
        return W.VOID_NONE
    if helm == VOID_MELEE_HELM:
        return W.VOID_MELEE
    if helm == VOID_RANGER_HELM:
        return W.VOID_ELITE_RANGED if elite else W.VOID_RANGED
    return W.VOID_ELITE_MAGIC if elite else W.VOID_MAGIC


@njit(cache=True)
def ammo_fits(items, weapon, ammo):
    """True when the weapon takes its ammunition from the ammo slot and this ammo fits it
    (dps-calc ``ammoApplicability``: kind and tier)."""
    if weapon < 0 or ammo < 0 or items[weapon].fires == 0:
        return False
    return items[ammo].ammo_kind == items[weapon].fires and items[ammo].ammo_tier <= items[weapon].ammo_tier


@njit(cache=True)
def spell_gear_bonus(items, worn, bolt_spell):
    """Flat bonus that worn gear adds to a spell's base max hit.

    Chaos gauntlets: +3 for the four Bolt spells (OSRS wiki "Chaos gauntlets"). weirdgloop/osrs-dps-calc
    ``PlayerVsNPCCalc.getPlayerMaxMagicHit`` adds it right after the spell's base max hit and before
    the magic damage bonus, so the percentage applies to base + 3 (its GeneratedTests case 'Fire bolt
    with chaos gauntlets': 20, where adding after the percentage would give 19).
    """
    hands = worn[HANDS]
    if bolt_spell and hands >= 0 and items[hands].id == CHAOS_GAUNTLETS_ID:
        return CHAOS_GAUNTLETS_BOLT_BONUS
    return 0


@njit(cache=True)
def fill_combatant(c, items, worn, attack_type, stance, spell, spell_max, bolt_spell):
    """Write gear-derived fields of combatant ``c`` from worn item indices ``worn[NUM_SLOTS]``.

    Levels and prayers are the caller's. The ammo slot's ranged accuracy and strength count only
    when the weapon fires that ammo (dps-calc ``calculateEquipmentBonusesFromGear``); a weapon
    that needs ammo and has none that fits cannot attack (``ammo_ok`` false: rolls and max hit 0).
    ``spell_max`` is the spell's listed base max hit; ``bolt_spell`` says it is a Bolt spell. The
    record's ``spell_max`` adds the gear's flat bonus to it (``spell_gear_bonus``).
    """
    weapon = worn[WEAPON]
    ammo = worn[AMMO]
    fits = ammo_fits(items, weapon, ammo)
    for b in range(NUM_BONUSES):
        c.bonuses[b] = 0
    for s in range(NUM_SLOTS):
        i = worn[s]
        if i < 0:
            continue
        for b in range(NUM_BONUSES):
            if s == AMMO and (b == S.B_RANGED_STR or b == S.B_RANGED) and not fits:
                continue
            c.bonuses[b] += items[i].bonuses[b]
    if fits and worn[CAPE] >= 0 and items[worn[CAPE]].set_piece == DIZANAS_QUIVER:
        c.bonuses[S.B_RANGED] += 10     # dps-calc: charged quiver with ammo the weapon uses
        c.bonuses[S.B_RANGED_STR] += 1
    c.attack_type = attack_type
    c.stance = stance
    c.spell = spell
    c.spell_max = spell_max + spell_gear_bonus(items, worn, bolt_spell)
    if weapon >= 0:
        c.weapon_effect = items[weapon].effect
        c.weapon_speed = items[weapon].speed
        c.ammo_class = items[weapon].ammo_class
        c.ammo_ok = items[weapon].fires == 0 or fits
    else:
        c.weapon_effect = W.NONE
        c.weapon_speed = 4          # unarmed: 4 ticks (OSRS wiki "Unarmed")
        c.ammo_class = S.AMMO_NONE
        c.ammo_ok = True
    c.ammo_ranged_str = items[ammo].bonuses[S.B_RANGED_STR] if fits else 0
    c.ammo_is_dragon_arrow = items[ammo].is_dragon_arrow if fits else 0
    c.bolt = items[ammo].bolt if fits else 0
    pieces = 0
    for s in range(NUM_SLOTS):
        i = worn[s]
        if i >= 0:
            p = items[i].set_piece
            if p == CRYSTAL_HELM:
                pieces += 1
            elif p == CRYSTAL_LEGS:
                pieces += 2
            elif p == CRYSTAL_BODY:
                pieces += 3
    c.crystal_pieces = pieces
    c.void = _void_set(items, worn)


@njit(cache=True)
def attack_speed(c):
    """Ticks between attacks: the listed speed, one less on Rapid; 5 for spells (OSRS wiki
    "Attack speed"; dps-calc ``calculateAttackSpeed``)."""
    if c.spell >= 0:
        return 5
    if c.attack_type == S.RANGED and c.stance == S.RAPID:
        return c.weapon_speed - 1
    return c.weapon_speed
