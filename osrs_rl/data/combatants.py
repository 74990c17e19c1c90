"""Combatant records from calculator-style inputs, validated: what the loadouts and the calculator build on.

>>> c = build_combatant(gear={"weapon": "Abyssal whip"}, style="Lash")
>>> int(c["attack_type"][0]) == S.ATTACK_TYPE_NAMES.index("slash"), int(c["levels"][0][HITPOINTS])
(True, 99)

Inputs are the OSRS wiki's names (items with their version, spells, skills, the weapon's combat
styles); levels default to 99. Bad input raises :class:`CombatantInputError` with a message naming
the problem and the valid choices (an unknown skill or slot, an item worn in the wrong slot, a
two-handed weapon with a shield, a style the weapon lacks, a spell without a casting style, ammo the
weapon cannot fire). The encounters' loadouts (``encounters/*/loadouts.py``) fill their combat
tables from it, and ``osrs_rl.calc`` (the user-facing calculator) builds its attacker and defender
with it, so both read one set of rules.
"""

from __future__ import annotations

import numpy as np

from osrs_rl.core import equipment as E
from osrs_rl.core import prayers as P
from osrs_rl.core import styles as S
from osrs_rl.core.combatant import new_combatant
from osrs_rl.core.skills import HITPOINTS, MAX_LEVEL, NUM_SKILLS, SKILL_NAMES
from osrs_rl.data import tables

MAX_BOOST = 30    # the largest potion boosts (overloads, smelling salts) stay below this at level 99


class CombatantInputError(ValueError):
    """Bad combatant input; the message names the problem and the valid choices."""


# ---- input validation ------------------------------------------------------------------------
def _levels(levels: dict | None, boosts: dict | None) -> np.ndarray:
    out = np.full(NUM_SKILLS, MAX_LEVEL, dtype=np.int32)
    for src, name in ((levels, "levels"), (boosts, "boosts")):
        for skill, value in (src or {}).items():
            key = str(skill).lower()
            if key not in SKILL_NAMES:
                raise CombatantInputError(f"Unknown skill {skill!r} in {name}; valid skills: {', '.join(SKILL_NAMES)}")
            if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
                raise CombatantInputError(f"{name}[{skill!r}] must be an integer, got {value!r}")
            k = SKILL_NAMES.index(key)
            if name == "levels":
                low = 10 if k == HITPOINTS else 1
                if not low <= value <= MAX_LEVEL:
                    raise CombatantInputError(
                        f"levels[{skill!r}] = {value} is impossible: it must be {low}..{MAX_LEVEL}")
                out[k] = value
            else:
                if value > MAX_BOOST:
                    raise CombatantInputError(
                        f"boosts[{skill!r}] = {value} is impossible: no boost exceeds +{MAX_BOOST}")
                out[k] += value
                if out[k] < 0:
                    raise CombatantInputError(f"boosts[{skill!r}] = {value} takes the level below 0")
    return out


def _prayer_mask(prayers) -> int:
    if isinstance(prayers, str):
        prayers = [prayers]
    try:
        return P.prayer_mask(prayers or [])
    except ValueError as e:
        raise CombatantInputError(str(e)) from None


def _worn(gear: dict | None) -> np.ndarray:
    items = tables.items()
    worn = np.full(E.NUM_SLOTS, -1, dtype=np.int64)
    for slot, name in (gear or {}).items():
        if slot not in E.SLOT_NAMES:
            raise CombatantInputError(f"Unknown slot {slot!r}; valid slots: {', '.join(E.SLOT_NAMES)}")
        if name is None:
            continue
        try:
            i = items.find(name)
        except tables.UnknownNameError as e:
            raise CombatantInputError(str(e)) from None
        item_slot = E.SLOT_NAMES[items.records[i]["slot"]]
        if item_slot != slot:
            raise CombatantInputError(f"{items.name(i)!r} is worn in the {item_slot} slot, not {slot}")
        worn[E.SLOT_NAMES.index(slot)] = i
    weapon = worn[E.WEAPON]
    if weapon >= 0 and items.records[weapon]["two_handed"] and worn[E.SHIELD] >= 0:
        raise CombatantInputError(
            f"{items.name(weapon)!r} is two-handed and cannot be worn with {items.name(worn[E.SHIELD])!r}")
    return worn


CAST_STANCES = ("Autocast", "Defensive Autocast", "Manual Cast")
MANUAL_CAST = {"name": "Spell", "type": "magic", "stance": "Manual Cast"}


def _style(worn: np.ndarray, style: str | None, spell: str | None) -> dict:
    """The chosen combat style of the worn weapon: by name ("Lash"), stance ("Rapid") or
    "Name (Stance)" ("Spell (Autocast)"); with a spell and no style, the first casting style."""
    items = tables.items()
    weapon = int(worn[E.WEAPON])
    options = items.styles(weapon)
    label = [f"{o['name']} ({o['stance']})" for o in options]
    if style is None:
        if spell is None:
            return options[0]
        casts = [o for o in options if o["stance"] in CAST_STANCES[:2]]
        return casts[0] if casts else MANUAL_CAST
    key = style.strip().lower()
    matches = [o for o, lab in zip(options, label, strict=True) if lab.lower() == key]
    if not matches:
        matches = [o for o in options if o["name"].lower() == key] or \
                  [o for o in options if o["stance"].lower() == key]
    distinct = {(o["name"], o["type"], o["stance"]) for o in matches}
    weapon_name = items.name(weapon) if weapon >= 0 else "Unarmed"
    valid = ", ".join(f"{o['name']} ({o['type']}, {o['stance']})" for o in options)
    if not matches:
        raise CombatantInputError(f"Style {style!r} is not a style of {weapon_name}; valid styles: {valid}")
    if len(distinct) > 1:
        raise CombatantInputError(f"Style {style!r} of {weapon_name} is ambiguous; name one of: "
                             + ", ".join(sorted({f"{n} ({st})" for n, _, st in distinct})))
    return matches[0]


def _check_cast(chosen: dict, spell: str | None, worn: np.ndarray) -> None:
    items = tables.items()
    weapon = int(worn[E.WEAPON])
    weapon_name = items.name(weapon) if weapon >= 0 else "Unarmed"
    if spell is not None and chosen["stance"] not in CAST_STANCES:
        raise CombatantInputError(f"Style {chosen['name']!r} ({chosen['stance']}) of {weapon_name} does not cast "
                             f"spells; pick a casting style ({', '.join(CAST_STANCES)}) or no style")
    if spell is None and chosen["stance"] in CAST_STANCES:
        raise CombatantInputError(f"Style {chosen['name']!r} ({chosen['stance']}) casts a spell: name one with spell=")


def _check_ammo(c: np.ndarray, worn: np.ndarray) -> None:
    rec = c[0]
    if rec["attack_type"] == S.RANGED and not rec["ammo_ok"]:
        items = tables.items()
        weapon = int(worn[E.WEAPON])
        kind = E.AMMO_KIND_NAMES[items.records[weapon]["fires"]]
        ammo = items.name(int(worn[E.AMMO])) if worn[E.AMMO] >= 0 else "nothing"
        raise CombatantInputError(f"{items.name(weapon)} fires {kind}s up to its tier; the ammo slot holds {ammo}")


def build_combatant(levels=None, boosts=None, prayers=(), style=None, gear=None, spell=None):
    """A one-element COMBATANT_DTYPE array from calculator-style inputs (validated)."""
    worn = _worn(gear)
    chosen = _style(worn, style, spell)
    _check_cast(chosen, spell, worn)
    attack_type = S.ATTACK_TYPE_NAMES.index(chosen["type"])
    stance = S.STANCE_NAMES.index(chosen["stance"])
    spell_index, spell_max, bolt_spell = -1, 0, False
    if spell is not None:
        sp_table = tables.spells()
        try:
            spell_index = sp_table.find(spell)
        except tables.UnknownNameError as e:
            raise CombatantInputError(str(e)) from None
        spell_max = int(sp_table.max_hits[spell_index])
        bolt_spell = bool(sp_table.bolt[spell_index])
    c = new_combatant(1)
    c["levels"][0] = _levels(levels, boosts)
    c["prayers"][0] = _prayer_mask(prayers)
    E.fill_combatant(c[0], tables.items().records, worn, attack_type, stance, spell_index, spell_max, bolt_spell)
    _check_ammo(c, worn)
    return c


def carried_items(gear: dict, ammo: str | None = None) -> tuple[str, ...]:
    """The items of gear set ``gear`` as objects a player holds, for counting a kit's inventory slots
    (``osrs_rl.runtime.inventory``). Darts in the ammo slot are a blowpipe's load (the calculator lists the loaded
    dart there; OSRS wiki "Toxic blowpipe": darts are loaded into it), not an item: that slot keeps ``ammo`` (the
    kit's arrows or bolts, worn the whole time) or nothing."""
    out = []
    for slot, item in gear.items():
        if item and slot == "ammo" and " dart" in item.lower():
            item = ammo
        if item:
            out.append(item)
    return tuple(out)
