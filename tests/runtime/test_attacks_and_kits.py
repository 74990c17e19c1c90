"""The spec's attack and kit contracts (runtime.attacks, runtime.inventory) on made-up specs: an attack that cannot
hurt and a kit past 28 slots are refused, naming them. Each encounter's own kits and attacks are tested in its
folder (tests/encounters)."""

from types import SimpleNamespace

import pytest

from osrs_rl.data.combatants import carried_items
from osrs_rl.runtime.attacks import Attack, check_attacks
from osrs_rl.runtime.config import ConfigError
from osrs_rl.runtime.inventory import INVENTORY_SLOTS, Kit, check_kits, potion_slots


def _spec(attacks=None, kit=None):
    return SimpleNamespace(name="made-up", attacks=attacks, kit=kit)


def test_an_attack_below_one_an_unknown_style_or_a_pair_listed_twice_is_refused():
    assert check_attacks(_spec(lambda cfg: [Attack("npc", "magic", 1)]), None)[0].pair == "npc/magic"
    with pytest.raises(ConfigError, match="npc's ranged attack has max hit 0"):
        check_attacks(_spec(lambda cfg: [Attack("npc", "magic", 5), Attack("npc", "ranged", 0)]), None)
    with pytest.raises(ConfigError, match="style 'fire'"):
        check_attacks(_spec(lambda cfg: [Attack("npc", "fire", 5)]), None)
    with pytest.raises(ConfigError, match="twice"):
        check_attacks(_spec(lambda cfg: [Attack("npc", "melee", 5), Attack("npc", "melee", 6)]), None)
    with pytest.raises(ConfigError, match="must return"):
        check_attacks(_spec(lambda cfg: [("npc", "melee", 5)]), None)


def test_a_kit_counts_switch_items_over_the_worn_set_and_a_slot_per_potion():
    kit = Kit("k", (("bow", "hat", "ring"), ("staff", "hat", "ring", "robe"), ("bow", "hat")),
              (("brew", potion_slots(30)), ("food", 3)))
    # worn: the bow set leaves staff and robe; the staff set leaves bow; the third leaves staff, ring, robe
    assert kit.switch_items() == 3
    assert potion_slots(30) == 8 and potion_slots(32) == 8 and potion_slots(0) == 0 and potion_slots(5, 1) == 5
    assert kit.slots() == 3 + 8 + 3 and "3 switch items, 8 brew, 3 food" == kit.describe()
    fits = Kit("fits", (("a",), ("b",)), (("food", INVENTORY_SLOTS - 1),))
    assert check_kits(_spec(kit=lambda cfg: fits), None) == (fits,)
    over = Kit("too much", (("a",), ("b",)), (("food", INVENTORY_SLOTS),))
    with pytest.raises(ConfigError, match=r"too much takes 29 inventory slots \(1 switch items, 28 food\)"):
        check_kits(_spec(kit=lambda cfg: [fits, over]), None)


def test_carried_items_leave_out_darts_loaded_in_a_blowpipe_and_keep_the_kit_ammo():
    pipe = {"weapon": "Toxic blowpipe (Charged)", "ammo": "Dragon dart (Unpoisoned)", "head": "Masori mask (f)",
            "shield": None}
    assert carried_items(pipe) == ("Toxic blowpipe (Charged)", "Masori mask (f)")
    assert carried_items(pipe, "Dragon arrow (Unpoisoned)") == ("Toxic blowpipe (Charged)",
                                                                "Dragon arrow (Unpoisoned)", "Masori mask (f)")
    bow = {"weapon": "Twisted bow", "ammo": "Dragon arrow (Unpoisoned)"}
    assert carried_items(bow, "Other arrows") == ("Twisted bow", "Dragon arrow (Unpoisoned)")
