"""Zulrah's and PvP's kits under the inventory rule (runtime.inventory): a gear tier or a build whose listed kit
needs more than 28 slots is refused when the config is built, naming the count."""

import copy

import pytest

from osrs_rl.runtime.config import ConfigError, build_config
from osrs_rl.runtime.inventory import INVENTORY_SLOTS
from osrs_rl.runtime.registry import get_spec


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
