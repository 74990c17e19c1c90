"""Fixture builders: a combatant or NPC record in one line, overriding only what a test needs."""

import numpy as np

from osrs_rl.core import styles as S
from osrs_rl.core.combatant import NPC_DTYPE, new_combatant
from osrs_rl.core.skills import SKILL_NAMES


def combatant(attack_type=S.SLASH, stance=S.ACCURATE, prayers=0, effect=0, void=0, spell=-1, spell_max=0,
              ammo_class=-1, speed=4, **kw):
    """A 99-everything player with no gear; keyword args set levels (by skill name), bonuses
    (``b_`` + a styles.BONUS_KEYS name, e.g. ``b_magic=15``) or any other record field."""
    c = new_combatant(1)
    r = c[0]
    r["levels"][:] = 99
    r["attack_type"], r["stance"], r["prayers"] = attack_type, stance, prayers
    r["weapon_effect"], r["void"], r["spell"], r["spell_max"] = effect, void, spell, spell_max
    r["ammo_class"], r["weapon_speed"] = ammo_class, speed
    for k, v in kw.items():
        if k in SKILL_NAMES:
            r["levels"][SKILL_NAMES.index(k)] = v
        elif k.startswith("b_") and k[2:] in S.BONUS_KEYS:
            r["bonuses"][S.BONUS_KEYS.index(k[2:])] = v
        else:
            r[k] = v
    return c


def npc(**kw):
    """An NPC row: level 1 everything and zero bonuses unless overridden; defence bonuses by
    name (stab, slash, crush, magic_def, light, standard, heavy)."""
    n = np.zeros(1, dtype=NPC_DTYPE)
    r = n[0]
    for k in ("attack", "strength", "defence", "ranged", "magic"):
        r[k] = 1
    r["hitpoints"], r["size"] = 100, 1
    r["max_hit_melee"] = r["max_hit_ranged"] = r["max_hit_magic"] = -1
    names = ("stab", "slash", "crush", "magic_def", "light", "standard", "heavy")
    for k, v in kw.items():
        if k in names:
            r["defence_bonuses"][names.index(k)] = v
        else:
            r[k] = v
    return n
