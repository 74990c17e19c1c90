"""Kits under the inventory rule (runtime.inventory): a Zulrah gear tier or a PvP build whose listed kit needs more
than 28 slots is refused when the config is built, naming the count; a restored state of any encounter carries no
more supplies than its kit."""

import copy

import numpy as np
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


@pytest.mark.parametrize(("name", "path"), [("inferno", ("supplies",)), ("zulrah", ("supplies",)),
                                            ("pvp", ("players", "supplies"))])
def test_a_restored_state_carries_no_more_than_its_kit(name, path):
    """A state handed to the runtime (an archive cell, a curriculum start, a file) may hold the kit's supplies and
    no more: one more of the first supply than the reset gave is refused, naming the field."""
    import osrs_rl
    from osrs_rl.runtime.bounds import InvalidStateError

    env = osrs_rl.make(name, num_envs=1, seed=0)
    env.reset()
    states = env.get_states([0])
    field = states[path[0]] if len(path) == 1 else states[path[0]][path[1]]
    env.set_states([0], states)                       # as the reset left it: accepted
    flat = field.reshape(-1)
    k = int(np.flatnonzero(flat > 0)[0])
    flat[k] += 1
    field[...] = flat.reshape(field.shape)
    with pytest.raises(InvalidStateError, match="supplies"):
        env.set_states([0], states)
