"""Builds to tables: ``builds.json`` turned into the derived config fields the kernels read.

For every build and gear set this precomputes, with the engine's own calculator code
(``osrs_rl.calc.build_combatant``): the combat record (levels and prayers are overwritten each
attack from the live player state), the attack row (normal, or the special for the spec set), the
hit-delay class, the attack range, the set's prayer bonus and the worn item indices. Supplies map
onto the six supply slots. Any name that does not resolve raises with the build and set named.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np

from osrs_rl import calc
from osrs_rl.core import bolts as B
from osrs_rl.core import equipment as E
from osrs_rl.core import hit_delay as HD
from osrs_rl.core import prayers as P
from osrs_rl.core import specials as SP
from osrs_rl.core import styles as S
from osrs_rl.core import weapons as W
from osrs_rl.core.consumables import load_consumables
from osrs_rl.core.skills import SKILL_NAMES
from osrs_rl.data import tables
from osrs_rl.encounters.pvp import state as ST

BUILDS_PATH = Path(__file__).resolve().parent / "builds.json"
SPELL_RANGE = 10                      # OSRS wiki "Attack range": spells reach 10 tiles
SUPPLY_OF_NAME = {                    # consumable name -> supply slot (any other food is SUP_FOOD)
    "Cooked karambwan": ST.SUP_KARAMBWAN, "Saradomin brew": ST.SUP_BREW, "Super restore": ST.SUP_RESTORE,
    "Super combat potion": ST.SUP_COMBAT, "Ranging potion": ST.SUP_RANGING, "Bastion potion": ST.SUP_RANGING,
}
POTION_SLOTS = (ST.SUP_BREW, ST.SUP_RESTORE, ST.SUP_COMBAT, ST.SUP_RANGING)


@cache
def builds() -> dict:
    with open(BUILDS_PATH, encoding="utf-8") as f:
        data = json.load(f)["builds"]
    if len(data) > ST.MAX_BUILDS:
        raise ValueError(f"builds.json has {len(data)} builds; the state holds at most {ST.MAX_BUILDS}")
    return data


def build_names() -> list[str]:
    return list(builds())


def _melee_style(weapon: str | None) -> str:
    items = tables.items()
    options = items.styles(items.find(weapon) if weapon else -1)
    melee = [o for o in options if o["type"] in ("stab", "slash", "crush")]
    for stance in ("Aggressive", "Controlled", "Accurate"):
        for o in melee:
            if o["stance"] == stance:
                return f"{o['name']} ({o['stance']})"
    raise ValueError(f"{weapon!r} has no melee style")


def _set_style(set_name: str, gear: dict) -> tuple[str | None, str | None]:
    """(style, spell) the set attacks with."""
    weapon = gear.get("weapon")
    items = tables.items()
    if set_name == "ranged" or (set_name == "tank" and weapon and _is_ranged(weapon)):
        return "Rapid", None
    if set_name in ("mage", "tank"):
        options = items.styles(items.find(weapon) if weapon else -1)
        for o in options:
            if o["stance"] == "Autocast":
                return f"{o['name']} ({o['stance']})", "Ice Barrage"
        if set_name == "mage":
            return "Spell (Manual Cast)", "Ice Barrage"
    return _melee_style(weapon), None


def _projectile(set_name: str, rec) -> int:
    if rec["attack_type"] == S.MAGIC:
        return HD.PROJ_MAGIC
    if rec["attack_type"] != S.RANGED:
        return HD.PROJ_MELEE
    if int(rec["weapon_effect"]) == W.HEAVY_BALLISTA:
        return HD.PROJ_BALLISTA
    return HD.PROJ_BOW if int(rec["ammo_class"]) != S.AMMO_LIGHT else HD.PROJ_THROWN


def _is_ranged(weapon: str) -> bool:
    items = tables.items()
    return any(o["type"] == "ranged" for o in items.styles(items.find(weapon)))


def spec_gear(build: dict) -> tuple[dict, str]:
    """The spec set: the first spec weapon in the set of its kind (ranged or melee), without a
    shield if it is two-handed; returns (gear, the kind of set it is based on)."""
    weapon = build["spec_weapons"][0]
    base = "ranged" if _is_ranged(weapon) else "melee"
    gear = dict(build["sets"][base])
    gear["weapon"] = weapon
    items = tables.items()
    if items.records[items.find(weapon)]["two_handed"]:
        gear["shield"] = None
    return gear, base


def fill_config(cfg) -> None:
    """The spec's config hook: fill every derived field of config record ``cfg``."""
    items = tables.items()
    cons = load_consumables()
    spells = tables.spells()
    normal, special = SP.build_normal_table(), SP.build_special_table()
    cfg["consumables"][:] = cons.table
    cfg["ice_spell"], cfg["blood_spell"] = spells.find("Ice Barrage"), spells.find("Blood Barrage")
    cfg["ice_max"] = spells.max_hits[cfg["ice_spell"]]
    cfg["blood_max"] = spells.max_hits[cfg["blood_spell"]]
    all_builds = builds()
    cfg["num_builds"] = len(all_builds)
    for b, (bid, build) in enumerate(all_builds.items()):
        levels = {k: int(v) for k, v in build["levels"].items()}
        cfg["build_levels"][b] = [levels.get(name, 99) for name in SKILL_NAMES]
        for style, key in enumerate(("melee", "ranged", "mage")):      # pending-hit style order
            cfg["build_offensive"][b, style] = P.prayer_mask(build["prayers"][key])
        cfg["build_unlimited_prayer"][b] = build.get("rules") == "lms"   # RULES.md 4.6
        for s, set_name in enumerate(ST.SET_NAMES):
            kind = set_name
            if set_name == "spec":
                gear, kind = spec_gear(build)
            else:
                gear = build["sets"][set_name]
            gear = {k: v for k, v in gear.items() if v}
            style, spell = _set_style(kind, gear)
            try:
                c = calc.build_combatant(levels=levels, style=style, gear=gear, spell=spell)
            except calc.CalcInputError as e:
                raise ValueError(f"builds.json: build {bid!r}, set {set_name!r}: {e}") from None
            rec = c[0]
            cfg["set_combat"][b, s] = rec
            effect = int(rec["weapon_effect"])
            cfg["set_row"][b, s] = special[effect] if set_name == "spec" else normal[effect]
            cfg["set_proj"][b, s] = _projectile(set_name, rec)
            weapon = gear.get("weapon")
            reach = int(items.records[items.find(weapon)]["attack_range"]) if weapon else 1
            cfg["set_range"][b, s] = SPELL_RANGE if rec["attack_type"] == S.MAGIC else max(1, reach)
            cfg["set_prayer_bonus"][b, s] = rec["bonuses"][S.B_PRAYER]
            worn = np.full(E.NUM_SLOTS, -1, dtype=np.int16)
            for slot, name in gear.items():
                worn[E.SLOT_NAMES.index(slot)] = items.find(name)
            cfg["set_worn"][b, s] = worn
            bolt = int(rec["bolt"]) if rec["attack_type"] == S.RANGED else B.NONE
            cfg["set_bolt_ctx"][b, s] = B.bolt_context(bolt, ranged_level=levels.get("ranged", 99), pvp=True,
                                                      zaryte=effect == W.ZARYTE_CROSSBOW)
        cfg["supply_consumable"][b] = -1
        for name, count in build["supplies"].items():
            slot = SUPPLY_OF_NAME.get(name, ST.SUP_FOOD)
            cfg["supply_consumable"][b, slot] = cons.id(name)
            cfg["build_supplies"][b, slot] = count * (ST.DOSES_PER_POTION if slot in POTION_SLOTS else 1)
