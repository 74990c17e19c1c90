"""Builds to tables: ``builds.json`` turned into the derived config fields the kernels read.

Each build has up to ``MAX_KITS`` kits (gear variants): kit 0 is the gear listed in ``sets``; the
others draw every ``variants`` entry (``<slot>_<set>``; ``ammo`` variants apply to every set, as
the ammo is never switched) and the spec weapon at random, once, from a generator seeded by the
build's name, so the tables are the same on every machine. At reset each player draws a kit
(``gear_variants`` config). Spec weapons without a special row are left out of the draw; an item
whose effect the engine does not simulate (``UNMODELLED_ITEMS``) may not be listed at all.

For every build, kit and gear set this precomputes, with the engine's own combatant builder
(``osrs_rl.data.combatants.build_combatant``, which the calculator uses too): the combat record
(levels and prayers are overwritten each attack from the live player state), the attack row
(normal, or the special for the spec set), the hit-delay class, the attack range, the set's prayer
bonus, the worn item indices and the client packets a switch between two sets takes. Supplies map
onto the six supply slots. Any name that does not resolve raises with the build and set named.
"""

from __future__ import annotations

import json
import zlib
from functools import cache
from pathlib import Path

import numpy as np

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
from osrs_rl.data.combatants import CombatantInputError, build_combatant, carried_items
from osrs_rl.runtime.attacks import Attack
from osrs_rl.runtime.inventory import INVENTORY_SLOTS, Kit

from . import state as ST

BUILDS_PATH = Path(__file__).resolve().parent / "builds.json"
SPELL_RANGE = 10                      # OSRS wiki "Attack range": spells reach 10 tiles
SUPPLY_OF_NAME = {                    # consumable name -> supply slot (any other food is SUP_FOOD)
    "Cooked karambwan": ST.SUP_KARAMBWAN, "Saradomin brew": ST.SUP_BREW, "Super restore": ST.SUP_RESTORE,
    "Super combat potion": ST.SUP_COMBAT, "Ranging potion": ST.SUP_RANGING, "Bastion potion": ST.SUP_RANGING,
}
POTION_SLOTS = (ST.SUP_BREW, ST.SUP_RESTORE, ST.SUP_COMBAT, ST.SUP_RANGING)
VENGEANCE_MAGIC, VENGEANCE_DEFENCE = 94, 40   # OSRS wiki "Vengeance" (RULES 9.1)


# Items whose effect the engine does not simulate; a build listing one would fight with it inert.
# Granite maul: its special is instant (RULES 3.7); rings of recoil and suffering: recoil (RULES 9.5).
UNMODELLED_ITEMS = ("Granite maul", "Ring of recoil", "Ring of suffering")


@cache
def builds() -> dict:
    with open(BUILDS_PATH, encoding="utf-8") as f:
        data = json.load(f)["builds"]
    if len(data) > ST.MAX_BUILDS:
        raise ValueError(f"builds.json has {len(data)} builds; the state holds at most {ST.MAX_BUILDS}")
    for bid, build in data.items():
        check_modelled(bid, build)
    return data


def listed_items(build: dict) -> list[str]:
    """Every item name a build lists: its sets, variants and spec weapons."""
    names = [n for gear in build["sets"].values() for n in gear.values() if n]
    names += [n for options in build.get("variants", {}).values() for n in options if n]
    return names + build["spec_weapons"] + build.get("ranged_spec_weapons", []) + build.get("magic_spec_weapons", [])


def check_modelled(bid: str, build: dict) -> None:
    """Raise when build ``bid`` lists an item of ``UNMODELLED_ITEMS``."""
    for name in listed_items(build):
        if name.startswith(UNMODELLED_ITEMS):
            raise ValueError(f"builds.json: build {bid!r} lists {name!r}, whose effect is not simulated "
                             f"(loadouts.UNMODELLED_ITEMS); take it off the build or model it")


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


def spec_gear(build: dict, sets: dict | None = None, weapon: str | None = None) -> tuple[dict, str]:
    """The spec set: ``weapon`` (default: the build's first spec weapon) in the set of its kind
    (ranged or melee) of ``sets`` (default: the build's listed sets), without a shield if it is
    two-handed; returns (gear, the kind of set it is based on)."""
    weapon = weapon or build["spec_weapons"][0]
    base = "ranged" if _is_ranged(weapon) else "melee"
    gear = dict((sets or build["sets"])[base])
    gear["weapon"] = weapon
    _drop_shield_for_two_handed(gear)
    return gear, base


def _drop_shield_for_two_handed(gear: dict) -> None:
    items = tables.items()
    weapon = gear.get("weapon")
    if weapon and items.records[items.find(weapon)]["two_handed"]:
        gear["shield"] = None


def kit_spec_weapons(build: dict) -> list[str]:
    """Spec weapons a kit may draw: melee and ranged ones with a special row."""
    items = tables.items()
    special = SP.build_special_table()
    out = []
    for name in build["spec_weapons"] + build.get("ranged_spec_weapons", []):
        if special[int(items.records[items.find(name)]["effect"])][SP.SP_COST] <= 0:
            continue
        out.append(name)
    return out


def kits(build_id: str, build: dict) -> list[dict]:
    """The build's kits: each a dict set name -> gear (spec included); kit 0 is the listed gear, the others drawn
    from its variants among those that fit an inventory with its supplies (``kit_of``, runtime.inventory)."""
    listed_spec, _ = spec_gear(build)
    first = {name: dict(build["sets"][name]) for name in ST.SET_NAMES if name != "spec"}
    first["spec"] = listed_spec
    out = [first]
    variants = build.get("variants", {})
    spec_pool = kit_spec_weapons(build) or [build["spec_weapons"][0]]
    rng = np.random.default_rng(zlib.crc32(build_id.encode()))
    seen = {json.dumps(first, sort_keys=True)}
    for _ in range(64 * ST.MAX_KITS):
        if len(out) == ST.MAX_KITS:
            break
        sets = {name: dict(build["sets"][name]) for name in ST.SET_NAMES if name != "spec"}
        for key, names in variants.items():
            slot, _, set_name = key.partition("_")
            pick = names[int(rng.integers(len(names)))]
            targets = sets.values() if slot == "ammo" else (sets[set_name],)
            for gear in targets:
                if slot != "ammo" or gear.get("ammo") == build["sets"][set_name].get("ammo"):
                    gear[slot] = pick
        for gear in sets.values():
            _drop_shield_for_two_handed(gear)
        sets["spec"], _ = spec_gear(build, sets, spec_pool[int(rng.integers(len(spec_pool)))])
        key = json.dumps(sets, sort_keys=True)
        if key not in seen and kit_of(build_id, len(out), build, sets).slots() <= INVENTORY_SLOTS:
            seen.add(key)
            out.append(sets)
    return out


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
    cfg["plain_row"][0] = normal[W.NONE]
    cfg["blood_fury_item"] = items.find("Amulet of blood fury")
    for b, (bid, build) in enumerate(all_builds.items()):
        levels = {k: int(v) for k, v in build["levels"].items()}
        cfg["build_levels"][b] = [levels.get(name, 99) for name in SKILL_NAMES]
        for style, key in enumerate(("melee", "ranged", "mage")):      # pending-hit style order
            cfg["build_offensive"][b, style] = P.prayer_mask(build["prayers"][key])
        rules = build.get("rules")
        cfg["build_unlimited_prayer"][b] = rules == "lms"               # RULES.md 4.6
        cfg["build_unlimited_run"][b] = rules == "lms"                  # RULES.md 5.7
        cfg["build_pid_shuffle"][b] = rules != "pvp_arena"              # RULES.md 1.2-1.4
        cfg["build_ancients"][b] = build.get("spellbook") == "ancient"              # RULES.md 6.3
        cfg["build_vengeance"][b] = build.get("spellbook") == "lunar" and levels.get("magic", 99) >= VENGEANCE_MAGIC \
            and levels.get("defence", 99) >= VENGEANCE_DEFENCE          # RULES.md 9.1
        prayer_level = levels.get("prayer", 99)
        allowed = rules == "wilderness"                                 # RULES.md 10 (LMS bans them; Arena [L])
        cfg["build_smite"][b] = allowed and prayer_level >= P.PRAYER_TABLE[P.SMITE, P.COL_LEVEL]
        cfg["build_redemption"][b] = allowed and prayer_level >= P.PRAYER_TABLE[P.REDEMPTION, P.COL_LEVEL]
        build_kits = kits(bid, build)
        cfg["num_kits"][b] = len(build_kits)
        for k, kit in enumerate(build_kits):
            for s, set_name in enumerate(ST.SET_NAMES):
                _fill_set(cfg, b, k, s, bid, set_name, kit[set_name], levels, items, normal, special)
            cfg["set_switch_clicks"][b, k] = switch_clicks(cfg["set_worn"][b, k], items)
        cfg["supply_consumable"][b] = -1
        for name, count in build["supplies"].items():
            slot = SUPPLY_OF_NAME.get(name, ST.SUP_FOOD)
            cfg["supply_consumable"][b, slot] = cons.id(name)
            cfg["build_supplies"][b, slot] = count * (ST.DOSES_PER_POTION if slot in POTION_SLOTS else 1)


def kit_of(build_id: str, k: int, build: dict, sets: dict) -> Kit:
    """Kit ``k`` of a build as the inventory counts it: its five sets (spec weapon included), the build's supplies
    (builds.json counts pieces and potions) and a rune pouch for the spellbook's runes (OSRS wiki "Rune pouch")."""
    gears = [sets[name] for name in ST.SET_NAMES]
    ammo = next((g["ammo"] for g in gears if g.get("ammo") and " dart" not in g["ammo"].lower()), None)
    supplies = tuple((name, int(n)) for name, n in build["supplies"].items()) + (("rune pouch", 1),)
    return Kit(f"build {build_id!r}, kit {k}", tuple(carried_items(g, ammo) for g in gears), supplies)


def kit(cfg) -> list[Kit]:
    """Every kit of every build (the spec's ``kit``, runtime.inventory), refused past 28 slots: ``kits`` draws only
    variants that fit, so this refuses a build whose listed kit does not."""
    return [kit_of(bid, k, build, sets) for bid, build in builds().items() for k, sets in enumerate(kits(bid, build))]


def attacks(cfg) -> list[Attack]:
    """What the opponent can hurt the player with (the spec's ``attacks``, runtime.attacks): each style at the least
    max hit any build's kit has in it (the set's weapon and gear, core.max_hit; magic: the weaker barrage), so a
    set that could land and never hurt is refused."""
    from osrs_rl.core.formula import NO_TRACE
    from osrs_rl.core.max_hit import player_max_hit

    least = {"melee": 1 << 30, "ranged": 1 << 30}
    for b in range(int(cfg["num_builds"])):
        for k in range(int(cfg["num_kits"][b])):
            for style in least:
                s = ST.SET_NAMES.index(style)
                rec = cfg["set_combat"][b, k, s:s + 1]
                _, most = player_max_hit(NO_TRACE, rec[0], 0, cfg["set_row"][b, k, s])
                least[style] = min(least[style], int(most))
    return [Attack("opponent", "melee", least["melee"], "builds.json melee sets"),
            Attack("opponent", "ranged", least["ranged"], "builds.json ranged sets"),
            Attack("opponent", "magic", int(min(cfg["ice_max"], cfg["blood_max"])), "spells.json barrages")]


_WEAPON, _SHIELD = E.SLOT_NAMES.index("weapon"), E.SLOT_NAMES.index("shield")


def switch_clicks(worn: np.ndarray, items) -> np.ndarray:
    """Client packets of a switch between worn sets ``worn[from]`` and ``worn[to]`` (item indices, -1
    empty): one click per item put on and per slot emptied, except the shield that a newly wielded
    two-handed weapon takes off by itself (RULES 1.6, 3.3)."""
    n = worn.shape[0]
    out = np.zeros((n, n), dtype=np.int8)
    for i in range(n):
        for j in range(n):
            a, b = worn[i], worn[j]
            clicks = int(np.sum((a != b) & (b >= 0)))
            emptied = (a != b) & (b < 0)
            weapon = int(b[_WEAPON])
            if emptied[_SHIELD] and weapon >= 0 and weapon != a[_WEAPON] and items.records[weapon]["two_handed"]:
                emptied[_SHIELD] = False
            out[i, j] = clicks + int(np.sum(emptied))
    return out


def _fill_set(cfg, b, k, s, bid, set_name, gear, levels, items, normal, special) -> None:
    """Tables of build ``b``, kit ``k``, set ``s`` (worn ``gear``)."""
    kind = set_name
    if set_name == "spec":
        kind = "ranged" if _is_ranged(gear["weapon"]) else "melee"
    gear = {slot: name for slot, name in gear.items() if name}
    style, spell = _set_style(kind, gear)
    try:
        c = build_combatant(levels=levels, style=style, gear=gear, spell=spell)
    except CombatantInputError as e:
        raise ValueError(f"builds.json: build {bid!r}, kit {k}, set {set_name!r}: {e}") from None
    rec = c[0]
    cfg["set_combat"][b, k, s] = rec
    effect = int(rec["weapon_effect"])
    cfg["set_row"][b, k, s] = special[effect] if set_name == "spec" else normal[effect]
    cfg["set_proj"][b, k, s] = _projectile(set_name, rec)
    weapon = gear.get("weapon")
    reach = int(items.records[items.find(weapon)]["attack_range"]) if weapon else 1
    cfg["set_range"][b, k, s] = SPELL_RANGE if rec["attack_type"] == S.MAGIC else max(1, reach)
    cfg["set_prayer_bonus"][b, k, s] = rec["bonuses"][S.B_PRAYER]
    worn = np.full(E.NUM_SLOTS, -1, dtype=np.int16)
    for slot, name in gear.items():
        worn[E.SLOT_NAMES.index(slot)] = items.find(name)
    cfg["set_worn"][b, k, s] = worn
    bolt = int(rec["bolt"]) if rec["attack_type"] == S.RANGED else B.NONE
    cfg["set_bolt_ctx"][b, k, s] = B.bolt_context(bolt, ranged_level=levels.get("ranged", 99), pvp=True,
                                                 zaryte=effect == W.ZARYTE_CROSSBOW)
