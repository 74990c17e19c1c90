"""Prayers: ids, bit masks, combat multipliers and drain rates.

Active prayers are a uint32 bit mask (bit ``p`` set means prayer ``p`` is on), so a whole prayer
book fits in one record field. Multipliers are percentages applied as ``floor(level * pct / 100)``.

Sources: weirdgloop/osrs-dps-calc ``src/enums/Prayer.ts`` (multipliers and drain rates, live game
after the 2024-25 prayer rework: Deadeye, Mystic Vigour, Augury +4% magic damage). Protection
prayers are not in that file: their drain effect (12) is from the OSRS wiki "Protection prayers"
table [M].
"""

import numpy as np

# ---- ids (bit positions) ---------------------------------------------------------------
THICK_SKIN = 0
BURST_OF_STRENGTH = 1
CLARITY_OF_THOUGHT = 2
SHARP_EYE = 3
MYSTIC_WILL = 4
ROCK_SKIN = 5
SUPERHUMAN_STRENGTH = 6
IMPROVED_REFLEXES = 7
HAWK_EYE = 8
MYSTIC_LORE = 9
STEEL_SKIN = 10
ULTIMATE_STRENGTH = 11
INCREDIBLE_REFLEXES = 12
EAGLE_EYE = 13
MYSTIC_MIGHT = 14
PROTECT_FROM_MAGIC = 15
PROTECT_FROM_MISSILES = 16
PROTECT_FROM_MELEE = 17
RETRIBUTION = 18
REDEMPTION = 19
SMITE = 20
CHIVALRY = 21
PIETY = 22
RIGOUR = 23
AUGURY = 24
DEADEYE = 25
MYSTIC_VIGOUR = 26
PRESERVE = 27
NUM_PRAYERS = 28

PRAYER_NAMES = (
    "Thick Skin", "Burst of Strength", "Clarity of Thought", "Sharp Eye", "Mystic Will",
    "Rock Skin", "Superhuman Strength", "Improved Reflexes", "Hawk Eye", "Mystic Lore",
    "Steel Skin", "Ultimate Strength", "Incredible Reflexes", "Eagle Eye", "Mystic Might",
    "Protect from Magic", "Protect from Missiles", "Protect from Melee", "Retribution",
    "Redemption", "Smite", "Chivalry", "Piety", "Rigour", "Augury", "Deadeye", "Mystic Vigour",
    "Preserve",
)

OVERHEADS_MASK = (
    (1 << PROTECT_FROM_MAGIC) | (1 << PROTECT_FROM_MISSILES) | (1 << PROTECT_FROM_MELEE)
    | (1 << RETRIBUTION) | (1 << REDEMPTION) | (1 << SMITE)
)

# ---- per-prayer table -----------------------------------------------------------------
# Columns of PRAYER_TABLE (int32): percentages are 100 when the prayer does not touch that value.
COL_MELEE_ACC = 0     # melee accuracy %
COL_MELEE_STR = 1     # melee strength %
COL_RANGED_ACC = 2    # ranged accuracy %
COL_RANGED_STR = 3    # ranged strength %
COL_MAGIC_ACC = 4     # magic accuracy %
COL_MAGIC_DMG = 5     # magic damage bonus in tenths of a percent (added to gear's)
COL_DEFENCE = 6       # defence % (these add together across prayers before multiplying)
COL_MAGIC_DEF = 7     # magic-level % used for the player's magic defence
COL_DRAIN = 8         # drain rate (points of drain per tick, see core.prayer_drain)
COL_LEVEL = 9         # prayer level needed
NUM_COLS = 10

_ROWS = {
    # name:                (m_acc, m_str, r_acc, r_str, g_acc, g_dmg, def, g_def, drain, level)
    THICK_SKIN:            (100, 100, 100, 100, 100, 0, 105, 100, 1, 1),
    BURST_OF_STRENGTH:     (100, 105, 100, 100, 100, 0, 100, 100, 1, 4),
    CLARITY_OF_THOUGHT:    (105, 100, 100, 100, 100, 0, 100, 100, 1, 7),
    SHARP_EYE:             (100, 100, 105, 105, 100, 0, 100, 100, 1, 8),
    MYSTIC_WILL:           (100, 100, 100, 100, 105, 0, 100, 105, 1, 9),
    ROCK_SKIN:             (100, 100, 100, 100, 100, 0, 110, 100, 6, 10),
    SUPERHUMAN_STRENGTH:   (100, 110, 100, 100, 100, 0, 100, 100, 6, 13),
    IMPROVED_REFLEXES:     (110, 100, 100, 100, 100, 0, 100, 100, 6, 16),
    HAWK_EYE:              (100, 100, 110, 110, 100, 0, 100, 100, 6, 26),
    MYSTIC_LORE:           (100, 100, 100, 100, 110, 10, 100, 110, 6, 27),
    STEEL_SKIN:            (100, 100, 100, 100, 100, 0, 115, 100, 12, 28),
    ULTIMATE_STRENGTH:     (100, 115, 100, 100, 100, 0, 100, 100, 12, 31),
    INCREDIBLE_REFLEXES:   (115, 100, 100, 100, 100, 0, 100, 100, 12, 34),
    EAGLE_EYE:             (100, 100, 115, 115, 100, 0, 100, 100, 12, 44),
    MYSTIC_MIGHT:          (100, 100, 100, 100, 115, 20, 100, 115, 12, 45),
    PROTECT_FROM_MAGIC:    (100, 100, 100, 100, 100, 0, 100, 100, 12, 37),
    PROTECT_FROM_MISSILES: (100, 100, 100, 100, 100, 0, 100, 100, 12, 40),
    PROTECT_FROM_MELEE:    (100, 100, 100, 100, 100, 0, 100, 100, 12, 43),
    RETRIBUTION:           (100, 100, 100, 100, 100, 0, 100, 100, 3, 46),
    REDEMPTION:            (100, 100, 100, 100, 100, 0, 100, 100, 6, 49),
    SMITE:                 (100, 100, 100, 100, 100, 0, 100, 100, 18, 52),
    CHIVALRY:              (115, 118, 100, 100, 100, 0, 120, 100, 24, 60),
    PIETY:                 (120, 123, 100, 100, 100, 0, 125, 100, 24, 70),
    RIGOUR:                (100, 100, 120, 123, 100, 0, 125, 100, 24, 74),
    AUGURY:                (100, 100, 100, 100, 125, 40, 125, 125, 24, 77),
    DEADEYE:               (100, 100, 118, 118, 100, 0, 105, 100, 12, 62),
    MYSTIC_VIGOUR:         (100, 100, 100, 100, 118, 30, 105, 118, 12, 63),
    PRESERVE:              (100, 100, 100, 100, 100, 0, 100, 100, 2, 55),
}
# TODO(verify): drain rates of Retribution (3), Redemption (6), Smite (18) and Preserve (2) are
# from the OSRS wiki prayer table as remembered, not yet checked against a second source [L].

PRAYER_TABLE = np.full((NUM_PRAYERS, NUM_COLS), 100, dtype=np.int32)
for _pid, _row in _ROWS.items():
    PRAYER_TABLE[_pid] = _row
PRAYER_TABLE.setflags(write=False)


def prayer_id(name: str) -> int:
    """Prayer id from its in-game name (case-insensitive); unknown names list the close matches."""
    from difflib import get_close_matches

    key = name.strip().lower()
    for pid, pname in enumerate(PRAYER_NAMES):
        if pname.lower() == key:
            return pid
    close = get_close_matches(name, PRAYER_NAMES, n=4, cutoff=0.5)
    hint = f" Did you mean: {', '.join(close)}?" if close else ""
    raise ValueError(f"Unknown prayer {name!r}.{hint} Known prayers: {', '.join(PRAYER_NAMES)}")


def prayer_mask(names) -> int:
    """Bit mask for a list of prayer names."""
    mask = 0
    for n in names:
        mask |= 1 << prayer_id(n)
    return mask
