"""Schema and pinned-fact checks for the fact tables in osrs_rl/data.

The tables are read with json + pathlib only (not through the loader), so these tests pin the
files themselves. Pinned numbers cite the snapshot the table records in its own "source" field.
"""

import json
import re
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "osrs_rl" / "data"

ITEM_KEYS = {"id", "name", "version", "slot", "two_handed", "bonuses", "speed", "category", "attack_range",
             "ammo_class", "source"}
AMMO_KEYS = {"fires", "ammo_kind", "ammo_tier"}   # only on weapons that take ammo / on ammo
AMMO_KINDS = {"arrow", "bolt", "bolt_rack", "javelin", "dart"}
BONUS_KEYS = {"stab", "slash", "crush", "magic", "ranged", "stab_def", "slash_def", "crush_def", "magic_def",
              "ranged_def", "melee_str", "ranged_str", "magic_dmg", "prayer"}
SLOTS = {"weapon", "head", "cape", "neck", "ammo", "body", "shield", "legs", "hands", "feet", "ring"}
STYLE_TYPES = {"stab", "slash", "crush", "ranged", "magic"}
STANCES = {"Accurate", "Aggressive", "Defensive", "Controlled", "Rapid", "Longrange", "Autocast",
           "Defensive Autocast", "Manual Cast"}
SPELL_KEYS = {"name", "spellbook", "max_hit", "element", "level", "freeze_ticks", "heal_percent", "multi_target",
              "source"}
SOURCE_RE = re.compile(r"^(weirdgloop/osrs-dps-calc@[0-9a-f]{7,40} \S+|OSRS wiki .+)")
# Citations must use the canonical forms only: no web or registry host names anywhere in the tables.
HOST_RE = re.compile(r"https?:|www\.|\.com\b|\.org\b|\.net\b|\.io\b|runescape\.wiki|github")


def load(name: str) -> dict:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def full_name(entry: dict) -> str:
    return f"{entry['name']} ({entry['version']})" if entry.get("version") else entry["name"]


@pytest.fixture(scope="module")
def items() -> list[dict]:
    return load("items.json")["items"]


@pytest.fixture(scope="module")
def by_name(items) -> dict[str, dict]:
    return {full_name(it): it for it in items}


@pytest.fixture(scope="module")
def categories() -> dict[str, list[dict]]:
    return load("weapon_categories.json")["categories"]


@pytest.fixture(scope="module")
def spells() -> dict[str, dict]:
    return {s["name"]: s for s in load("spells.json")["spells"]}


@pytest.fixture(scope="module")
def npcs() -> dict[str, dict]:
    return {full_name(n): n for n in load("npcs.json")["npcs"]}


# ---- every table ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["items.json", "weapon_categories.json", "spells.json", "npcs.json"])
def test_table_has_meta_and_no_host_names(name):
    text = (DATA / name).read_text(encoding="utf-8")
    assert "_meta" in json.loads(text)
    assert not HOST_RE.search(text), f"{name} names a web host: {HOST_RE.search(text).group(0)!r}"


# ---- items.json ----------------------------------------------------------------------------------
def test_items_meta():
    meta = load("items.json")["_meta"]
    assert meta["snapshot"].startswith("weirdgloop/osrs-dps-calc@")
    assert meta["snapshot"].endswith("cdn/json/equipment.json")
    assert set(meta["units"]) == {"magic_dmg", "speed", "attack_range", "fires", "ammo_tier"}


def test_item_schema(items):
    assert 150 <= len(items) <= 220
    for it in items:
        assert ITEM_KEYS <= set(it) <= ITEM_KEYS | AMMO_KEYS, it["name"]
        if "fires" in it:
            assert it["slot"] == "weapon" and it["fires"] in AMMO_KINDS and it["ammo_tier"] >= 1, it["name"]
        if "ammo_kind" in it:
            assert it["slot"] == "ammo" and it["ammo_kind"] in AMMO_KINDS and it["ammo_tier"] >= 1, it["name"]
        assert set(it["bonuses"]) == BONUS_KEYS, it["name"]
        assert all(type(v) is int for v in it["bonuses"].values()), it["name"]
        assert type(it["id"]) is int and it["id"] > 0, it["name"]
        assert it["slot"] in SLOTS, it["name"]
        assert it["version"] is None or (isinstance(it["version"], str) and it["version"]), it["name"]
        assert SOURCE_RE.match(it["source"]), it["source"]


def test_item_ids_and_full_names_unique(items):
    ids = [it["id"] for it in items]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    names = [full_name(it) for it in items]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)


def test_weapon_fields(items, categories):
    for it in items:
        if it["slot"] == "weapon":
            assert type(it["speed"]) is int and 2 <= it["speed"] <= 9, it["name"]
            assert it["category"] in categories, (it["name"], it["category"])
            assert it["attack_range"] is None or 1 <= it["attack_range"] <= 10, it["name"]
            ranged = it["category"] in ("Bow", "Crossbow", "Thrown")
            assert (it["ammo_class"] is not None) == ranged, it["name"]
            assert it["ammo_class"] in (None, "light", "standard", "heavy"), it["name"]
        else:
            assert it["speed"] is None and it["category"] is None, it["name"]
            assert it["attack_range"] is None and it["ammo_class"] is None, it["name"]
            assert not it["two_handed"], f"{it['name']} is two-handed but not in the weapon slot"


def test_two_handed_weapons_are_in_weapon_slot(items):
    for it in items:
        if it["two_handed"]:
            assert it["slot"] == "weapon", it["name"]


def test_ammo_class_follows_category(items):
    expected = {"Thrown": "light", "Bow": "standard", "Crossbow": "heavy"}
    for it in items:
        if it["category"] in expected:
            assert it["ammo_class"] == expected[it["category"]], it["name"]


@pytest.mark.parametrize(
    ("name", "field", "value"),
    [
        # weirdgloop/osrs-dps-calc@a6599a08 cdn/json/equipment.json (unchanged since @787c43e1)
        ("Twisted bow", "ranged", 70),
        ("Twisted bow", "ranged_str", 20),
        ("Toxic blowpipe (Charged)", "ranged", 30),
        ("Toxic blowpipe (Charged)", "ranged_str", 20),
        ("Abyssal whip", "slash", 82),
        ("Abyssal whip", "melee_str", 82),
        ("Armadyl crossbow", "ranged", 100),
        ("Zaryte crossbow", "ranged", 110),
        ("Bow of faerdhinen (Charged)", "ranged_str", 106),
        ("Dizana's quiver (Charged)", "ranged", 18),
        ("Dizana's quiver (Charged)", "ranged_str", 3),
        ("Dragon dart (Unpoisoned)", "ranged_str", 35),
        ("Amethyst dart (Unpoisoned)", "ranged_str", 28),
        ("Dragon arrow (Unpoisoned)", "ranged_str", 60),
        ("Occult necklace", "magic_dmg", 50),
        ("Tormented bracelet", "magic_dmg", 50),
        ("Ancestral hat", "magic_dmg", 30),
        ("Ancestral robe top", "magic_dmg", 30),
        ("Ancestral robe bottom", "magic_dmg", 30),
        ("Imbued saradomin cape (Normal)", "magic_dmg", 20),
        ("Imbued guthix cape (Normal)", "magic_dmg", 20),
        ("Magus ring", "magic_dmg", 20),
        ("Elidinis' ward (f)", "magic_dmg", 50),
        ("Kodai wand", "magic_dmg", 150),
        ("Tumeken's shadow (Charged)", "magic", 35),
        ("Justiciar chestguard", "ranged_def", 142),
        ("Bandos chestplate", "ranged_def", 133),
        # same snapshot; Eternal boots +1 % magic damage (also OSRS wiki Eternal boots)
        ("Eternal boots", "magic_dmg", 10),
        ("Necklace of anguish", "ranged_str", 5),
    ],
)
def test_pinned_item_bonuses(by_name, name, field, value):
    assert by_name[name]["bonuses"][field] == value


@pytest.mark.parametrize(
    ("name", "speed", "category", "two_handed", "attack_range"),
    [
        ("Twisted bow", 6, "Bow", True, 10),
        ("Toxic blowpipe (Charged)", 3, "Thrown", True, 5),
        ("Armadyl crossbow", 6, "Crossbow", False, 8),
        ("Heavy ballista", 7, "Crossbow", True, 9),
        ("Dragon claws", 4, "Claw", True, 1),
        ("Armadyl godsword", 6, "2h Sword", True, 1),
        ("Abyssal whip", 4, "Whip", False, 1),
        ("Dragon halberd", 7, "Polearm", True, 2),
        ("Osmumten's fang", 5, "Stab Sword", False, 1),
        ("Scythe of vitur (Charged)", 5, "Scythe", True, 1),
        ("Trident of the swamp (Charged)", 4, "Powered Staff", False, 7),
        ("Tumeken's shadow (Charged)", 5, "Powered Staff", True, 8),
        ("Dark bow (Regular)", 9, "Bow", True, 10),
        ("Elder maul", 6, "Blunt", True, 1),
    ],
)
def test_pinned_weapons(by_name, name, speed, category, two_handed, attack_range):
    it = by_name[name]
    assert (it["speed"], it["category"], it["two_handed"], it["attack_range"]) == (
        speed, category, two_handed, attack_range)


def test_blowpipe_darts_are_ammo(by_name):
    for dart in ("Dragon dart", "Amethyst dart", "Rune dart", "Adamant dart"):
        it = by_name[f"{dart} (Unpoisoned)"]
        assert it["slot"] == "ammo" and it["category"] is None


def test_required_items_present(by_name):
    names = {n.split(" (")[0] for n in by_name} | set(by_name)
    for name in ("Abyssal tentacle", "Voidwaker", "Granite maul", "Ghrazi rapier", "Magic shortbow (i)",
                 "Ancient staff", "Volatile nightmare staff", "Sanguinesti staff", "Masori body (f)",
                 "Crystal helm", "Avernic defender", "Ava's assembler", "Rada's blessing 4", "Holy blessing",
                 "Diamond dragon bolts (e)", "Ruby bolts (e)", "Onyx bolts (e)", "Dragon javelin",
                 "Elite void top", "Void knight top", "Torva platebody", "Serpentine helm", "Venator bow"):
        assert name in names, name


# ---- weapon_categories.json ----------------------------------------------------------------------
def test_weapon_categories(categories):
    assert "Unarmed" in categories
    for cat, styles in categories.items():
        assert styles, cat
        for s in styles:
            assert set(s) == {"name", "type", "stance"}, cat
            assert s["type"] in STYLE_TYPES, (cat, s)
            assert s["stance"] in STANCES, (cat, s)
        assert styles[-1] == {"name": "Spell", "type": "magic", "stance": "Manual Cast"}, cat


def test_pinned_categories(categories):
    # weirdgloop/osrs-dps-calc@00907db8 src/utils.ts getCombatStylesForCategory
    assert [s["stance"] for s in categories["Whip"][:3]] == ["Accurate", "Controlled", "Defensive"]
    assert {s["stance"] for s in categories["Bow"]} == {"Rapid", "Accurate", "Longrange", "Manual Cast"}
    assert categories["Scythe"][2] == {"name": "Jab", "type": "crush", "stance": "Aggressive"}
    assert categories["Staff"][4] == {"name": "Spell", "type": "magic", "stance": "Autocast"}


# ---- spells.json ---------------------------------------------------------------------------------
def test_spell_schema(spells):
    for s in spells.values():
        assert set(s) == SPELL_KEYS, s["name"]
        assert s["spellbook"] in ("standard", "ancient", "lunar", "arceuus"), s["name"]
        assert s["element"] in (None, "air", "water", "earth", "fire"), s["name"]
        assert type(s["max_hit"]) is int and type(s["level"]) is int and 1 <= s["level"] <= 99, s["name"]
        assert s["freeze_ticks"] % 8 == 0 and s["heal_percent"] in (0, 25), s["name"]
        assert SOURCE_RE.match(s["source"]), s["source"]


def test_all_ancient_combat_spells(spells):
    for element in ("Smoke", "Shadow", "Blood", "Ice"):
        for tier in ("Rush", "Burst", "Blitz", "Barrage"):
            s = spells[f"{element} {tier}"]
            assert s["spellbook"] == "ancient"
            assert s["multi_target"] == (tier in ("Burst", "Barrage"))
            assert (s["heal_percent"] > 0) == (element == "Blood")
            assert (s["freeze_ticks"] > 0) == (element == "Ice")


def test_all_standard_elemental_spells(spells):
    for element in ("Wind", "Water", "Earth", "Fire"):
        for tier in ("Strike", "Bolt", "Blast", "Wave", "Surge"):
            assert spells[f"{element} {tier}"]["element"] == {"Wind": "air"}.get(element, element.lower())


@pytest.mark.parametrize(
    ("name", "max_hit", "level", "freeze"),
    [
        ("Ice Barrage", 30, 94, 32),
        ("Blood Barrage", 29, 92, 0),
        ("Ice Blitz", 26, 82, 24),
        ("Ice Burst", 22, 70, 16),
        ("Ice Rush", 16, 58, 8),
        ("Fire Surge", 24, 95, 0),
        ("Wind Strike", 2, 1, 0),
        ("Saradomin Strike", 20, 60, 0),
        ("Iban Blast", 25, 50, 0),
        ("Crumble Undead", 15, 39, 0),
        ("Entangle", 5, 79, 24),
    ],
)
def test_pinned_spells(spells, name, max_hit, level, freeze):
    s = spells[name]
    assert (s["max_hit"], s["level"], s["freeze_ticks"]) == (max_hit, level, freeze)


# ---- npcs.json -----------------------------------------------------------------------------------
ENCOUNTER_NPCS = ["Zulrah (Serpentine)", "Zulrah (Magma)", "Zulrah (Tanzanite)", "Snakeling (Melee)",
                  "Snakeling (Magic)", "Jal-Nib", "Jal-MejRah", "Jal-Ak", "Jal-AkRek-Mej", "Jal-AkRek-Xil",
                  "Jal-AkRek-Ket", "Jal-ImKot", "Jal-Xil", "Jal-Zek", "JalTok-Jad", "Yt-HurKot (Level 141)",
                  "TzKal-Zuk (Normal)", "Jal-MejJak"]


def test_npc_names_unique_and_complete(npcs):
    raw = load("npcs.json")["npcs"]
    assert len(raw) == len(npcs)
    for name in ENCOUNTER_NPCS + ["Ancestral Glyph", "Rocky support"]:
        assert name in npcs, name


@pytest.mark.parametrize("name", ENCOUNTER_NPCS)
def test_combat_npc_fields(npcs, name):
    n = npcs[name]
    assert set(n["levels"]) == {"attack", "strength", "defence", "ranged", "magic"}
    assert set(n["defence_bonuses"]) == {"stab", "slash", "crush", "magic", "ranged_light", "ranged_standard",
                                         "ranged_heavy"}
    assert n["hitpoints"] > 0 and n["size"] >= 1 and n["attack_speed_ticks"] >= 3
    assert n["max_hit_by_style"] and n["attack_range"] is not None
    assert SOURCE_RE.match(n["source"]), n["source"]


def test_npc_protection(npcs):
    for name, n in npcs.items():
        assert set(n["protection"]) == {"melee", "ranged", "magic"}, name
        assert set(n["protection"].values()) <= {"blocks", "none"}, name
        assert isinstance(n["protection_notes"], str) and n["protection_notes"], name
    assert set(npcs["TzKal-Zuk (Normal)"]["protection"].values()) == {"none"}
    assert set(npcs["Jal-MejJak"]["protection"].values()) == {"none"}
    assert npcs["Zulrah (Magma)"]["protection"]["melee"] == "none"
    assert npcs["Zulrah (Serpentine)"]["protection"]["ranged"] == "blocks"
    assert npcs["JalTok-Jad"]["protection"] == {"melee": "blocks", "ranged": "blocks", "magic": "blocks"}
    assert "3 ticks" in npcs["JalTok-Jad"]["protection_notes"]


def test_npc_disagreements_recorded():
    assert len(load("npcs.json")["_meta"]["disagreements"]) >= 5


@pytest.mark.parametrize(
    ("name", "field", "value"),
    [
        # weirdgloop/osrs-dps-calc@a6599a08 cdn/json/monsters.json (copied into osrs_rl/data/npcs.json)
        ("Zulrah (Serpentine)", ("defence_bonuses", "magic"), -45),
        ("Zulrah (Serpentine)", ("defence_bonuses", "ranged_heavy"), 50),
        ("Zulrah (Tanzanite)", ("defence_bonuses", "magic"), 300),
        ("Zulrah (Magma)", ("defence_bonuses", "ranged_standard"), 300),
        ("Zulrah (Serpentine)", ("levels", "magic"), 300),
        ("TzKal-Zuk (Normal)", ("offensive_bonuses", "magic_attack"), 550),
        ("JalTok-Jad", ("levels", "defence"), 480),
        ("Jal-Zek", ("max_hit_by_style", "magic"), 70),
        ("JalTok-Jad", ("max_hit_by_style", "ranged"), 113),
        ("Jal-Nib", ("max_hit_by_style", "melee"), 4),
        ("Snakeling (Melee)", ("max_hit_by_style", "melee"), 15),
    ],
)
def test_pinned_npc_facts(npcs, name, field, value):
    group, key = field
    assert npcs[name][group][key] == value


@pytest.mark.parametrize(("name", "hitpoints", "size", "speed"), [
    ("Zulrah (Serpentine)", 500, 5, 3),
    ("TzKal-Zuk (Normal)", 1200, 7, 10),
    ("JalTok-Jad", 350, 5, 8),
    ("Jal-Ak", 40, 3, 6),
    ("Jal-MejRah", 25, 2, 3),
])
def test_pinned_npc_sizes(npcs, name, hitpoints, size, speed):
    n = npcs[name]
    assert (n["hitpoints"], n["size"], n["attack_speed_ticks"]) == (hitpoints, size, speed)


def test_derived_defence_rolls_follow_formula(npcs):
    # (level + 9) * (bonus + 64), with the magic level for magic defence (npcs.json _meta units)
    for name, n in npcs.items():
        rolls = n.get("derived_defence_rolls")
        if not rolls:
            continue
        lv, de = n["levels"], n["defence_bonuses"]
        for key, roll in rolls.items():
            level = lv["magic"] if key == "magic" else lv["defence"]
            assert roll == (level + 9) * (de[key] + 64), (name, key)


# ---- calculator targets (dps-calc unit-test monsters and items) ----------------------------------
CALC_TARGET_NPCS = ["Abyssal demon (Standard)", "Vorkath (Post-quest)", "Revenant knight", "Scurrius (Solo)",
                    "Scurrius (Group)", "Vanstrom Klause (Sins of the Father)", "Giant crypt rat"]


@pytest.mark.parametrize("name", CALC_TARGET_NPCS)
def test_calculator_target_npc_fields(npcs, name):
    n = npcs[name]
    assert n["encounter"] is None
    assert isinstance(n["attributes"], list)
    assert set(n["levels"]) == {"attack", "strength", "defence", "ranged", "magic"}
    assert set(n["defence_bonuses"]) == {"stab", "slash", "crush", "magic", "ranged_light", "ranged_standard",
                                         "ranged_heavy"}
    assert n["hitpoints"] > 0 and n["size"] >= 1 and n["attack_speed_ticks"] >= 4
    assert n["max_hit_by_style"]
    assert n["source"].startswith("weirdgloop/osrs-dps-calc@468cee4a")
    assert SOURCE_RE.match(n["source"]), n["source"]


def test_abyssal_demon_matches_dps_calc_tests(npcs):
    # weirdgloop/osrs-dps-calc src/tests/calc/DefenceRolls.test.ts and DamageTaken.test.ts
    n = npcs["Abyssal demon (Standard)"]
    lv, off, de = n["levels"], n["offensive_bonuses"], n["defence_bonuses"]
    assert (lv["defence"] + 9) * (de["crush"] + 64) == 12096
    assert n["derived_defence_rolls"]["crush"] == 12096
    assert (lv["attack"] + 9) * (off["melee_attack"] + 64) == 6784
    assert n["max_hit_by_style"]["melee"] == 8
    assert n["npc_id"] == 415 and n["attributes"] == ["demon"]


@pytest.mark.parametrize(
    ("name", "npc_id", "field", "value"),
    [
        # weirdgloop/osrs-dps-calc@468cee4a cdn/json/monsters.json
        ("Vorkath (Post-quest)", 8059, ("levels", "defence"), 214),
        ("Vorkath (Post-quest)", 8059, ("defence_bonuses", "magic"), 240),
        ("Vorkath (Post-quest)", 8059, ("max_hit_by_style", "magic"), 30),
        ("Revenant knight", 7939, ("defence_bonuses", "ranged_heavy"), 150),
        ("Revenant knight", 7939, ("defence_bonuses", "ranged_light"), 190),
        ("Scurrius (Solo)", 7222, ("levels", "defence"), 60),
        ("Scurrius (Group)", 7221, ("levels", "defence"), 100),
        ("Vanstrom Klause (Sins of the Father)", 9567, ("defence_bonuses", "magic"), 34),
        ("Giant crypt rat", 1680, ("levels", "attack"), 80),
    ],
)
def test_pinned_calculator_target_facts(npcs, name, npc_id, field, value):
    n = npcs[name]
    group, key = field
    assert n["npc_id"] == npc_id
    assert n[group][key] == value


def test_calculator_target_attributes(npcs):
    assert {"dragon", "undead"} <= set(npcs["Vorkath (Post-quest)"]["attributes"])
    assert npcs["Vanstrom Klause (Sins of the Father)"]["attributes"] == ["vampyre3"]
    assert npcs["Giant crypt rat"]["attributes"] == ["rat"]
    assert npcs["Scurrius (Solo)"]["attributes"] == ["rat"]
    assert "undead" in npcs["Revenant knight"]["attributes"]


def test_dps_calc_test_items_present(items):
    # item ids equipped in weirdgloop/osrs-dps-calc src/tests/calc/GeneratedTests.test.ts
    ids = {it["id"] for it in items}
    for item_id in (12018, 11865, 22557, 777, 6523, 21298, 21301, 21304, 20714, 22545, 28796, 24699, 21780,
                    21285, 26219, 27679, 27665):
        assert item_id in ids, item_id


@pytest.mark.parametrize(
    ("name", "field", "value"),
    [
        # weirdgloop/osrs-dps-calc@a6599a08 cdn/json/equipment.json (unchanged since @787c43e1)
        ("Salve amulet(ei)", "prayer", 3),
        ("Slayer helmet (i)", "magic", 3),
        ("Slayer helmet (i)", "ranged", 3),
        ("Imbued zamorak max cape (Normal)", "magic_dmg", 20),
        ("Imbued guthix max cape (Normal)", "magic_def", 15),
        ("Infernal max cape (Normal)", "melee_str", 8),
        ("Amulet of avarice", "melee_str", 6),
        ("Chaos gauntlets", "slash_def", 9),
        ("Toktz-xil-ak", "stab", 47),
        ("Toktz-xil-ak", "melee_str", 49),
        ("Obsidian platebody", "slash_def", 78),
        ("Tome of fire (Charged)", "magic", 8),
        ("Viggora's chainmace (Charged)", "crush", 67),
        ("Bone staff", "magic", 14),
        ("Blisterwood flail", "crush", 68),
        ("Accursed sceptre (a) (Charged)", "magic", 22),
    ],
)
def test_pinned_calculator_target_items(by_name, name, field, value):
    assert by_name[name]["bonuses"][field] == value


@pytest.mark.parametrize(("name", "speed", "category"), [
    ("Accursed sceptre (a) (Charged)", 5, "Staff"),
    ("Accursed sceptre (Charged)", 4, "Powered Staff"),
    ("Bone staff", 4, "Powered Staff"),
    ("Blisterwood flail", 5, "Staff"),
    ("Viggora's chainmace (Charged)", 4, "Spiked"),
    ("Toktz-xil-ak", 4, "Stab Sword"),
])
def test_pinned_calculator_target_weapons(by_name, name, speed, category):
    it = by_name[name]
    assert (it["speed"], it["category"], it["two_handed"]) == (speed, category, False)


def test_npc_attack_styles_class_the_infobox_styles():
    from osrs_rl.data.tables import npc_attack_styles

    assert npc_attack_styles("Jal-Ak") == ("ranged", "magic", "melee")        # Ranged, Magic, Crush
    assert npc_attack_styles("TzKal-Zuk") == ("typeless",)
    assert npc_attack_styles("Jal-Nib") == ("melee",)
    assert npc_attack_styles("Jal-MejJak") == ("typeless",)           # "Area of effect": sparks on tiles
