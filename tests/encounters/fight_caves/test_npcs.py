"""The Fight Cave's monsters in osrs_rl/data/npcs.json, read through the loader (osrs_rl/data/tables.py)."""

import pytest

from osrs_rl.data.tables import npc_attack_styles, npcs
from osrs_rl.encounters.fight_caves import arena as A
from osrs_rl.encounters.fight_caves import waves as W

FIGHT_CAVE_NPCS = (*W.TIER_NAMES, W.SPLIT_NAME, W.HEALER_NAME)


def raw(name: str) -> dict:
    table = npcs()
    return table.raw[table.find(name)]


def record(name: str):
    table = npcs()
    return table.records[table.find(name)]


@pytest.mark.parametrize("name", FIGHT_CAVE_NPCS)
def test_each_monster_is_found_by_name(name):
    n = raw(name)
    assert n["encounter"] == "fight_caves"
    assert n["source"].startswith("weirdgloop/osrs-dps-calc@a6599a08 cdn/json/monsters.json")
    assert n["protection"] == {"melee": "blocks", "ranged": "blocks", "magic": "blocks"}
    assert n["notes"] and n["extra_sources"]


# (name, npc id, combat level, hitpoints, size, attack speed, attack, strength, defence, ranged, magic):
# weirdgloop/osrs-dps-calc@a6599a08 cdn/json/monsters.json; hitpoints also the OSRS wiki "TzHaar Fight Cave" table
# (10, 20, 10, 40, 80); ids as runelite/runelite's fight cave plugin watches them (FightCavePlugin.java)
STATS = [
    ("Tz-Kih", 3116, 22, 10, 1, 4, 20, 30, 15, 30, 15),
    ("Tz-Kek (Level 45)", 3118, 45, 20, 2, 4, 40, 60, 30, 60, 30),
    ("Tz-Kek (Level 22)", 3120, 22, 10, 1, 4, 20, 30, 15, 30, 15),
    ("Tok-Xil (Standard)", 3121, 90, 40, 3, 4, 80, 120, 60, 120, 60),
    ("Yt-MejKot (Standard)", 3123, 180, 80, 4, 4, 160, 240, 120, 240, 120),
    ("Ket-Zek (Standard)", 3125, 360, 160, 5, 4, 320, 480, 240, 480, 240),
    ("TzTok-Jad", 3127, 702, 250, 5, 8, 640, 960, 480, 960, 480),
    ("Yt-HurKot (Level 108)", 3128, 108, 60, 1, 4, 140, 100, 60, 120, 120),
]


@pytest.mark.parametrize("row", STATS, ids=lambda r: r[0])
def test_levels_and_sizes(row):
    name, npc_id, level, hp, size, speed, att, st, de, rng, mag = row
    n, r = raw(name), record(name)
    assert (n["npc_id"], n["combat_level"], n["hitpoints"], n["size"], n["attack_speed_ticks"]) == (
        npc_id, level, hp, size, speed)
    assert (r["npc_id"], r["hitpoints"], r["size"], r["attack_speed"]) == (npc_id, hp, size, speed)
    assert (r["attack"], r["strength"], r["defence"], r["ranged"], r["magic"]) == (att, st, de, rng, mag)


# max hits by style: dps-calc @a6599a08's listed max and the OSRS wiki "TzHaar Fight Cave" table (Tz-Kih 4, Tz-Kek 7
# and 4, Tok-Xil 13, Yt-MejKot 25); the styles dps-calc does not list from the sources the entry names (Tok-Xil ranged
# 14: Zenyte, VOID; Ket-Zek melee 54: dps-calc before 1483ec13, VOID; Jad 97 each: Zenyte)
MAX_HITS = [
    ("Tz-Kih", 4, -1, -1),
    ("Tz-Kek (Level 45)", 7, -1, -1),
    ("Tz-Kek (Level 22)", 4, -1, -1),
    ("Tok-Xil (Standard)", 13, 14, -1),
    ("Yt-MejKot (Standard)", 25, -1, -1),
    ("Ket-Zek (Standard)", 54, -1, 52),
    ("TzTok-Jad", 97, 97, 97),
    ("Yt-HurKot (Level 108)", 14, -1, -1),
]


@pytest.mark.parametrize("row", MAX_HITS, ids=lambda r: r[0])
def test_max_hits(row):
    name, melee, ranged, magic = row
    r = record(name)
    assert (r["max_hit_melee"], r["max_hit_ranged"], r["max_hit_magic"]) == (melee, ranged, magic)


@pytest.mark.parametrize("name", FIGHT_CAVE_NPCS)
def test_every_attack_style_has_a_max_hit(name):
    r = record(name)
    for style in npc_attack_styles(name):
        assert r[f"max_hit_{style}"] >= 1, (name, style)


def test_the_largest_monster_sets_the_spawn_footprint():
    assert max(int(record(n)["size"]) for n in FIGHT_CAVE_NPCS) == A.LARGEST_SIZE == 5
    assert [raw(n)["combat_level"] for n in W.TIER_NAMES] == list(W.TIER_LEVELS)


def test_both_yt_hurkot_versions_are_kept_apart():
    assert raw("Yt-HurKot (Level 108)")["encounter"] == "fight_caves"
    assert raw("Yt-HurKot (Level 141)")["encounter"] == "inferno"
    with pytest.raises(KeyError, match="several versions"):
        npcs().find("Yt-HurKot")


def test_conflicts_are_recorded():
    assert "1 + damage" in " ".join(raw("Tz-Kih")["discrepancies"])
    assert "3 ticks" in raw("TzTok-Jad")["protection_notes"]
    assert any("2 ticks" in d for d in raw("TzTok-Jad")["discrepancies"])
