"""Schema checks for the NH PvP builds in osrs_rl/encounters/pvp/builds.json.

The file is read with json + pathlib (not through any encounter code), so these tests pin the data
itself: every item and supply name must resolve with the project's loaders, every item must sit in
its own slot, and a set never wears a two-handed weapon together with a shield.
"""

import json
import re
from pathlib import Path

import pytest

from osrs_rl.core import prayers
from osrs_rl.core.consumables import load_consumables
from osrs_rl.data import tables

BUILDS_PATH = Path(__file__).resolve().parents[2] / "osrs_rl" / "encounters" / "pvp" / "builds.json"

SLOTS = ("head", "cape", "neck", "ammo", "weapon", "body", "shield", "legs", "hands", "feet", "ring")
SETS = ("mage", "ranged", "melee", "tank")
LEVELS = ("attack", "strength", "defence", "ranged", "magic", "hitpoints", "prayer")
RULES = {"lms", "pvp_arena", "wilderness"}
SPELLBOOKS = {"ancient", "lunar"}
SPEC_LISTS = ("spec_weapons", "ranged_spec_weapons", "magic_spec_weapons")
REQUIRED_BUILDS = {"lms_pure", "lms_zerker", "lms_med", "max_main", "max_lunar"}
LMS_FOOD_CAP = {"Shark": 11, "Cooked karambwan": 2}   # OSRS wiki Last Man Standing
HOST_RE = re.compile(r"https?:|www\.|\.com\b|\.org\b|\.net\b|\.io\b|runescape\.wiki|github")


@pytest.fixture(scope="module")
def doc():
    return json.loads(BUILDS_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def items():
    return tables.items()


def build_ids():
    return sorted(json.loads(BUILDS_PATH.read_text(encoding="utf-8"))["builds"])


def item_record(items, name):
    return items.raw[items.find(name)]


def test_meta_and_required_builds(doc):
    assert set(doc) == {"_meta", "builds"}
    assert doc["_meta"]["sources"] and doc["_meta"]["notes"]
    missing = REQUIRED_BUILDS - set(doc["builds"])
    assert not missing, f"builds.json lacks {sorted(missing)}"


def test_no_host_names():
    text = BUILDS_PATH.read_text(encoding="utf-8")
    match = HOST_RE.search(text)
    assert not match, f"builds.json names a web host: {match.group(0)!r}"


@pytest.mark.parametrize("build_id", build_ids())
def test_header_fields(doc, build_id):
    b = doc["builds"][build_id]
    assert b["description"].strip()
    assert b["rules"] in RULES, f"{build_id}: rules {b['rules']!r}"
    assert b["spellbook"] in SPELLBOOKS, f"{build_id}: spellbook {b['spellbook']!r}"
    assert set(b["levels"]) == set(LEVELS), f"{build_id}: level keys {sorted(b['levels'])}"
    for skill, level in b["levels"].items():
        assert isinstance(level, int) and 1 <= level <= 99, f"{build_id}: {skill} = {level!r}"


@pytest.mark.parametrize("build_id", build_ids())
def test_sets_have_all_slots(doc, build_id):
    sets = doc["builds"][build_id]["sets"]
    assert set(sets) == set(SETS), f"{build_id}: sets {sorted(sets)}"
    for set_name, gear in sets.items():
        assert set(gear) == set(SLOTS), f"{build_id}.{set_name}: slots {sorted(gear)}"
        assert gear["weapon"] is not None, f"{build_id}.{set_name} has no weapon"


@pytest.mark.parametrize("build_id", build_ids())
def test_items_resolve_in_their_slot(doc, items, build_id):
    for set_name, gear in doc["builds"][build_id]["sets"].items():
        for slot, name in gear.items():
            if name is None:
                continue
            rec = item_record(items, name)   # raises UnknownNameError with close matches
            assert rec["slot"] == slot, f"{build_id}.{set_name}.{slot}: {name!r} is a {rec['slot']} item"


@pytest.mark.parametrize("build_id", build_ids())
def test_no_two_handed_weapon_with_shield(doc, items, build_id):
    for set_name, gear in doc["builds"][build_id]["sets"].items():
        if item_record(items, gear["weapon"])["two_handed"]:
            assert gear["shield"] is None, (
                f"{build_id}.{set_name}: two-handed {gear['weapon']!r} worn with {gear['shield']!r}")


@pytest.mark.parametrize("build_id", build_ids())
def test_tank_is_ranged_set_with_at_most_the_weapon_changed(doc, build_id):
    # DynamicNhLoadout.getTankGear: ranged gear, optionally with the mage set's staff as weapon.
    sets = doc["builds"][build_id]["sets"]
    tank, ranged = sets["tank"], sets["ranged"]
    assert {s: tank[s] for s in SLOTS if s != "weapon"} == {s: ranged[s] for s in SLOTS if s != "weapon"}
    assert tank["weapon"] in (ranged["weapon"], sets["mage"]["weapon"])


@pytest.mark.parametrize("build_id", build_ids())
def test_special_weapons_are_weapons(doc, items, build_id):
    b = doc["builds"][build_id]
    assert b["spec_weapons"], f"{build_id} has no melee special weapon"
    for key in SPEC_LISTS:
        for name in b.get(key, []):
            rec = item_record(items, name)
            assert rec["slot"] == "weapon", f"{build_id}.{key}: {name!r} is a {rec['slot']} item"


@pytest.mark.parametrize("build_id", build_ids())
def test_supplies_resolve(doc, build_id):
    table = load_consumables()
    supplies = doc["builds"][build_id]["supplies"]
    assert supplies, f"{build_id} has no supplies"
    for name, count in supplies.items():
        table.id(name)   # raises KeyError listing the known names
        assert isinstance(count, int) and count > 0, f"{build_id}: {name} x {count!r}"


@pytest.mark.parametrize("build_id", build_ids())
def test_lms_food_cap(doc, build_id):
    b = doc["builds"][build_id]
    if b["rules"] != "lms":
        return
    for name, cap in LMS_FOOD_CAP.items():
        assert b["supplies"].get(name, 0) <= cap, f"{build_id}: more than {cap} {name} in LMS"


@pytest.mark.parametrize("build_id", build_ids())
def test_variants(doc, items, build_id):
    b = doc["builds"][build_id]
    for key, names in b.get("variants", {}).items():
        slot, _, set_name = key.partition("_")
        assert slot in SLOTS and set_name in SETS, f"{build_id}: variant key {key!r} is not <slot>_<set>"
        assert names, f"{build_id}.{key} is empty"
        assert names[0] == b["sets"][set_name][slot], f"{build_id}.{key}: the default item must come first"
        for name in names:
            rec = item_record(items, name)
            assert rec["slot"] == slot, f"{build_id}.{key}: {name!r} is a {rec['slot']} item"
        if slot == "shield":
            weapon = b["sets"][set_name]["weapon"]
            assert not item_record(items, weapon)["two_handed"], (
                f"{build_id}.{key}: shield alternatives for a set whose weapon {weapon!r} is two-handed")


@pytest.mark.parametrize("build_id", build_ids())
def test_prayers_resolve(doc, build_id):
    b = doc["builds"][build_id]
    for style, names in b.get("prayers", {}).items():
        assert style in ("mage", "ranged", "melee"), f"{build_id}: prayer style {style!r}"
        for name in names:
            pid = prayers.prayer_id(name)
            need = int(prayers.PRAYER_TABLE[pid, prayers.COL_LEVEL])
            assert b["levels"]["prayer"] >= need, f"{build_id}: {name} needs prayer {need}"


@pytest.mark.parametrize("build_id", build_ids())
def test_lunar_builds_can_cast_vengeance(doc, build_id):
    # OSRS wiki Vengeance: 94 Magic and 40 Defence.
    b = doc["builds"][build_id]
    if b["spellbook"] == "lunar":
        assert b["levels"]["magic"] >= 94 and b["levels"]["defence"] >= 40, f"{build_id} cannot cast Vengeance"
