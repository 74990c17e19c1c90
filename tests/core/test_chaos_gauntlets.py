"""Chaos gauntlets: +3 to the max hit of the Bolt spells, before the magic damage bonus.

Sources: OSRS wiki "Chaos gauntlets" ("increase the maximum damage done by all Bolt spells by 3");
weirdgloop/osrs-dps-calc@a6599a08 src/lib/PlayerVsNPCCalc.ts ``getPlayerMaxMagicHit`` (the +3 follows
the spell's base max hit and precedes the magic damage bonus). Spell base max hits: spells.json.
"""

import pytest

from osrs_rl import calc
from osrs_rl.data import tables

STAFF = {"weapon": "Ancient staff"}          # a staff with no magic damage bonus of its own
TARGET = "Abyssal demon (Standard)"


def spell_max(spell, **gear):
    r = calc.player_vs_npc(gear={**STAFF, **gear}, spell=spell, target=TARGET)
    return r.max_hit, r.steps


@pytest.mark.parametrize(("spell", "base"), [
    # spell base max hits (spells.json, dps-calc cdn/json/spells.json): Wind 9, Water 10, Earth 11, Fire 12
    ("Wind Bolt", 9), ("Water Bolt", 10), ("Earth Bolt", 11), ("Fire Bolt", 12),
])
def test_bolt_spells_hit_three_more(spell, base):
    assert spell_max(spell)[0] == base
    assert spell_max(spell, hands="Chaos gauntlets")[0] == base + 3


@pytest.mark.parametrize(("spell", "base"), [
    ("Fire Strike", 8), ("Fire Blast", 16), ("Ice Barrage", 30), ("Iban Blast", 25),
])
def test_other_spells_are_unchanged(spell, base):
    assert spell_max(spell, hands="Chaos gauntlets")[0] == spell_max(spell)[0] == base


def test_other_gloves_add_nothing():
    assert spell_max("Fire Bolt", hands="Barrows gloves")[0] == 12


def test_powered_staff_is_not_a_bolt_spell():
    # trident of the swamp at 99 magic: 99/3 - 2 = 31 (dps-calc getPlayerMaxMagicHit), gauntlets or not
    r = calc.player_vs_npc(gear={"weapon": "Trident of the swamp (Charged)", "hands": "Chaos gauntlets"},
                           target=TARGET)
    assert r.max_hit == 31


def test_the_bonus_comes_before_the_magic_damage_bonus():
    # 24 % magic damage (Occult 5, Ancestral 3 x 3, Imbued saradomin cape 2, Magus ring 2,
    # Eternal boots 1, Elidinis' ward (f) 5): (12 + 3) + floor(15 * 240 / 1000) = 18;
    # adding the 3 after the percentage would give 12 + floor(12 * 240 / 1000) + 3 = 17
    gear = {"neck": "Occult necklace", "head": "Ancestral hat", "body": "Ancestral robe top",
            "legs": "Ancestral robe bottom", "cape": "Imbued saradomin cape (Normal)", "ring": "Magus ring",
            "feet": "Eternal boots", "shield": "Elidinis' ward (f)", "hands": "Chaos gauntlets"}
    max_hit, steps = spell_max("Fire Bolt", **gear)
    assert max_hit == 18
    assert "spell_base: 15" in steps and "magic_damage_bonus: 15 + 3 = 18" in steps, steps


def test_bolt_spells_in_the_table():
    sp = tables.spells()
    assert sorted(s["name"] for s, bolt in zip(sp.raw, sp.bolt, strict=True) if bolt) == [
        "Earth Bolt", "Fire Bolt", "Water Bolt", "Wind Bolt"]
