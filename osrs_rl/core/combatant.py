"""The combat view of a player or an NPC: plain records the roll and max-hit kernels read.

A player's ``COMBATANT_DTYPE`` record is derived from its levels, prayers, style and worn items
(see ``osrs_rl.core.equipment.fill_combatant``); encounters rebuild it when gear or prayers change
and keep it in their state record. An NPC's ``NPC_DTYPE`` row comes from ``osrs_rl/data/npcs.json``.
"""

import numpy as np

from osrs_rl.core.skills import NUM_SKILLS
from osrs_rl.core.styles import NUM_BONUSES

COMBATANT_DTYPE = np.dtype([
    # who: visible levels (base + boosts - drains), active prayers as a bit mask
    ("levels", np.int32, (NUM_SKILLS,)),
    ("prayers", np.uint32),
    # how: attack type (styles.STAB..RANGED) and stance (styles.ACCURATE..MANUAL_CAST)
    ("attack_type", np.int8),
    ("stance", np.int8),
    # with what: summed equipment bonuses (styles.B_*), weapon facts
    ("bonuses", np.int32, (NUM_BONUSES,)),
    ("weapon_effect", np.int16),     # weapons.* effect code
    ("weapon_speed", np.int16),      # listed attack speed in ticks
    ("ammo_class", np.int8),         # styles.AMMO_* for ranged weapons
    ("ammo_ok", np.int8),            # 0: a weapon that needs ammo has none that fits (it cannot attack)
    ("ammo_ranged_str", np.int16),   # ranged strength of the ammo alone (MSB special uses only this)
    ("ammo_is_dragon_arrow", np.int8),
    ("bolt", np.int8),               # bolts.* enchanted-bolt code of the loaded ammo, 0 when none
    ("crystal_pieces", np.int8),     # crystal helm 1 + legs 2 + body 3 (bow of faerdhinen set bonus)
    ("void", np.int8),               # weapons.VOID_*
    ("spell", np.int16),             # index into the spell table, -1 when not casting a spell
    ("spell_max", np.int16),         # that spell's base max hit, with gear's flat bonus (Chaos gauntlets)
])

NPC_DTYPE = np.dtype([
    ("npc_id", np.int32),
    ("hitpoints", np.int32),
    # levels
    ("attack", np.int32), ("strength", np.int32), ("defence", np.int32),
    ("ranged", np.int32), ("magic", np.int32),
    # offensive bonuses
    ("melee_attack", np.int32), ("melee_strength", np.int32),
    ("ranged_attack", np.int32), ("ranged_strength", np.int32),
    ("magic_attack", np.int32), ("magic_strength", np.int32),
    # defensive bonuses: stab, slash, crush, magic, ranged light, standard, heavy
    ("defence_bonuses", np.int32, (7,)),
    ("size", np.int32),
    ("attack_speed", np.int32),
    # listed max hits per style (-1 when the NPC has no attack of that style)
    ("max_hit_melee", np.int32), ("max_hit_ranged", np.int32), ("max_hit_magic", np.int32),
    ("magic_uses_defence", np.int8),  # a few NPCs defend magic with their defence level
    ("xerician", np.int8),            # twisted bow cap 350 instead of 250 (Chambers of Xeric)
    ("hit_cap", np.int8),             # npc_damage.CAP_* transform applied to damage it takes
])

# NPC defence-bonus columns
NPC_DEF_STAB, NPC_DEF_SLASH, NPC_DEF_CRUSH, NPC_DEF_MAGIC = 0, 1, 2, 3
NPC_DEF_RANGED_LIGHT = 4   # + styles.AMMO_LIGHT / AMMO_STANDARD / AMMO_HEAVY


def new_combatant(n: int = 1) -> np.ndarray:
    """Zeroed combatant records with no spell and levels of 1."""
    c = np.zeros(n, dtype=COMBATANT_DTYPE)
    c["levels"] = 1
    c["spell"] = -1
    c["ammo_class"] = -1
    c["ammo_ok"] = 1
    return c
