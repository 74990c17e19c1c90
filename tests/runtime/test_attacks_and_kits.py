"""The spec's attack and kit contracts (runtime.attacks, runtime.inventory), on made-up specs and on each
encounter's own data: an attack that cannot hurt and a kit past 28 slots are refused when the config is built."""

import copy
from types import SimpleNamespace

import pytest

from osrs_rl.data.combatants import carried_items
from osrs_rl.data.tables import npc_attack_styles
from osrs_rl.runtime.attacks import Attack, check_attacks
from osrs_rl.runtime.config import ConfigError, build_config
from osrs_rl.runtime.inventory import INVENTORY_SLOTS, Kit, check_kits, potion_slots
from osrs_rl.runtime.registry import get_spec


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


def test_npc_attack_styles_class_the_infobox_styles():
    assert npc_attack_styles("Jal-Ak") == ("ranged", "magic", "melee")        # Ranged, Magic, Crush
    assert npc_attack_styles("TzKal-Zuk") == ("typeless",)
    assert npc_attack_styles("Jal-Nib") == ("melee",)


def test_a_zulrah_tier_past_28_slots_is_refused(monkeypatch):
    from osrs_rl.encounters.zulrah import loadouts as L

    tiers = copy.deepcopy(L.tiers())
    food, count = tiers["max"]["supplies"]["food"]
    spare = INVENTORY_SLOTS - L.kit(build_config(get_spec("zulrah"))[0])[2].slots()       # the max tier's kit
    tiers["max"]["supplies"]["food"] = [food, count + spare + 1]
    monkeypatch.setattr(L, "tiers", lambda: tiers)
    with pytest.raises(ConfigError, match=r"gear tier 'max' \(gear.json\) takes 29 inventory slots"):
        build_config(get_spec("zulrah"))


def test_a_pvp_build_past_28_slots_is_refused(monkeypatch):
    from osrs_rl.encounters.pvp import loadouts as L

    builds = copy.deepcopy(L.builds())
    bid = next(iter(builds))
    # kit 0 is the listed gear; the variants drawn beside it are only those that fit (loadouts.kits)
    spare = INVENTORY_SLOTS - next(k.slots() for k in L.kit(build_config(get_spec("pvp"))[0])
                                   if k.label == f"build {bid!r}, kit 0")
    supplies = builds[bid]["supplies"]
    name = next(iter(supplies))
    supplies[name] += spare + 1
    monkeypatch.setattr(L, "builds", lambda: builds)
    with pytest.raises(ConfigError, match=rf"build '{bid}', kit 0 takes 29 inventory slots"):
        build_config(get_spec("pvp"))
