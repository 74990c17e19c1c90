"""The shared input phase (osrs_rl.core.player_input): prayer groups, gear switches, supplies, specials and
the combat refresh, on a bare core.player record with hand-made tables (no encounter)."""

import numpy as np
import pytest

from osrs_rl.core import player_input as PI
from osrs_rl.core import prayers as P
from osrs_rl.core.combatant import new_combatant
from osrs_rl.core.consumables import load_consumables
from osrs_rl.core.energy import use_spec
from osrs_rl.core.equipment import NUM_SLOTS, WEAPON
from osrs_rl.core.pending_hits import STYLE_MAGIC, STYLE_MELEE, STYLE_RANGED, STYLE_TYPELESS
from osrs_rl.core.player import EMPTY_SLOT, new_player
from osrs_rl.core.skills import ATTACK, HITPOINTS, NUM_SKILLS, PRAYER, RANGED
from osrs_rl.core.specials import SP_COST, identity_row

C = load_consumables()
T = C.table
OFFENSIVE = (1 << P.PIETY) | (1 << P.RIGOUR) | (1 << P.AUGURY)


def player(active=(), **levels):
    """A 99s player (base-level overrides by skill name) with prayers ``active`` (ids) on."""
    p = new_player(levels)[0]
    for prayer in active:
        p["active_prayers"] |= np.uint32(1 << prayer)
    return p


def on(p):
    """The ids of the prayers that are on."""
    return {k for k in range(P.NUM_PRAYERS) if PI.has_prayer(p, k)}


# ---- prayers ------------------------------------------------------------------------------------
@pytest.mark.parametrize("prayer", [P.PROTECT_FROM_MAGIC, P.PROTECT_FROM_MISSILES, P.PROTECT_FROM_MELEE,
                                    P.SMITE, P.REDEMPTION, P.RETRIBUTION])
def test_an_overhead_turns_the_other_overhead_off_and_keeps_other_prayers(prayer):
    # OSRS wiki "Prayer": one overhead at a time; an offensive prayer is not an overhead
    p = player(active=(P.PROTECT_FROM_MELEE if prayer != P.PROTECT_FROM_MELEE else P.SMITE, P.PIETY))
    PI.set_overhead(p, prayer)
    assert on(p) == {prayer, P.PIETY}


def test_overhead_off_and_no_points():
    p = player(active=(P.PROTECT_FROM_MAGIC, P.AUGURY))
    PI.set_overhead(p, PI.NO_PRAYER)
    assert on(p) == {P.AUGURY}
    p["levels"][PRAYER] = 0
    PI.set_overhead(p, P.PROTECT_FROM_MELEE)          # no points: the new overhead stays off
    assert on(p) == {P.AUGURY}


def test_offensive_prayers_are_one_group():
    p = player(active=(P.PIETY, P.PROTECT_FROM_MELEE))
    PI.set_offensive(p, OFFENSIVE, 1 << P.RIGOUR)
    assert on(p) == {P.RIGOUR, P.PROTECT_FROM_MELEE}
    PI.set_offensive(p, OFFENSIVE, 1 << P.AUGURY)
    assert on(p) == {P.AUGURY, P.PROTECT_FROM_MELEE}
    PI.clear_prayers(p, OFFENSIVE)
    assert on(p) == {P.PROTECT_FROM_MELEE}


def test_offensive_click_without_points_changes_nothing():
    p = player(active=(P.PIETY,))
    p["levels"][PRAYER] = 0
    PI.set_offensive(p, OFFENSIVE, 1 << P.AUGURY)
    assert on(p) == {P.PIETY}
    PI.clear_prayers(p, OFFENSIVE)                    # turning off needs no points
    assert on(p) == set()


@pytest.mark.parametrize("prayer, style", [(P.PROTECT_FROM_MELEE, STYLE_MELEE),
                                           (P.PROTECT_FROM_MISSILES, STYLE_RANGED),
                                           (P.PROTECT_FROM_MAGIC, STYLE_MAGIC)])
def test_overhead_queries(prayer, style):
    p = player(active=(prayer,))
    assert PI.overhead_style(p) == style
    assert [bool(PI.protected_from(p, k)) for k in range(3)] == [k == style for k in range(3)]
    assert not PI.protected_from(p, STYLE_TYPELESS)
    PI.set_overhead(p, P.SMITE)
    assert PI.overhead_style(p) == -1


# ---- gear ----------------------------------------------------------------------------------------
def test_wear_puts_on_every_slot_of_the_loadout():
    p = player()
    loadouts = np.full((2, NUM_SLOTS), EMPTY_SLOT, dtype=np.int16)
    loadouts[0] = np.arange(NUM_SLOTS) + 10
    loadouts[1, WEAPON] = 99                          # a loadout of one weapon: every other slot empties
    PI.wear(p, loadouts[0])
    assert list(p["equipment"]) == list(range(10, 10 + NUM_SLOTS))
    PI.wear(p, loadouts[1])
    assert list(p["equipment"]) == [99 if k == WEAPON else EMPTY_SLOT for k in range(NUM_SLOTS)]


# ---- supplies ------------------------------------------------------------------------------------
def test_eating_heals_counts_off_and_delays():
    p = player()
    p["levels"][HITPOINTS] = 50
    p["attack_timer"] = 0
    supplies = np.array([2], dtype=np.int16)
    shark = C.id("Shark")
    assert PI.use_supply(p, supplies, 0, shark, T)
    # Shark heals 20 (OSRS wiki "Shark"); food blocks food 3 ticks and delays the attack 3 (core.consumables)
    assert p["levels"][HITPOINTS] == 70 and supplies[0] == 1
    assert p["food_timer"] == 3 and p["attack_timer"] == 3
    assert not PI.use_supply(p, supplies, 0, shark, T)      # the food timer blocks a second shark
    assert p["levels"][HITPOINTS] == 70 and supplies[0] == 1


def test_drinking_goes_through_the_potion_table_and_the_combo_order_holds():
    p = player()
    p["levels"][HITPOINTS] = 40
    p["levels"][PRAYER] = 10
    supplies = np.array([1, 1, 1], dtype=np.int16)
    ids = (C.id("Shark"), C.id("Prayer potion"), C.id("Cooked karambwan"))
    for slot in range(3):                                   # food -> potion -> karambwan in one tick
        assert PI.use_supply(p, supplies, slot, ids[slot], T)
    # prayer potion: 7 + floor(99 / 4) = 31 (OSRS wiki "Prayer potion"); karambwan heals 18
    assert p["levels"][PRAYER] == 41
    assert p["levels"][HITPOINTS] == 40 + 20 + 18
    assert list(supplies) == [0, 0, 0]


def test_no_supply_left_or_none_carried():
    p = player()
    p["levels"][HITPOINTS] = 50
    assert not PI.use_supply(p, np.array([0], dtype=np.int16), 0, C.id("Shark"), T)
    assert not PI.use_supply(p, np.array([3], dtype=np.int16), 0, -1, T)
    assert p["levels"][HITPOINTS] == 50 and p["food_timer"] == 0


# ---- special attacks -----------------------------------------------------------------------------
def test_special_needs_a_special_and_its_energy():
    p = player()
    spec = identity_row()
    spec[SP_COST] = 50                                      # e.g. the dragon claws' 50 % (core.specials)
    assert not PI.can_special(p, identity_row()[SP_COST])   # cost 0: a normal attack has no special
    p["spec_energy"] = 49
    assert not PI.can_special(p, spec[SP_COST])
    for energy, left in ((100, 50), (50, 0)):
        p["spec_energy"] = energy
        assert PI.can_special(p, spec[SP_COST])
        assert use_spec(p, spec[SP_COST]) and p["spec_energy"] == left
    assert not PI.can_special(p, spec[SP_COST])


# ---- combat refresh ------------------------------------------------------------------------------
def test_refresh_combat_takes_the_loadout_with_live_levels_and_prayers():
    p = player(active=(P.RIGOUR, P.PROTECT_FROM_MAGIC))
    p["levels"][RANGED] = 112                               # boosted
    p["levels"][ATTACK] = 80                                # drained
    gear = new_combatant(2)
    gear[1]["bonuses"][:] = 7
    gear[1]["weapon_speed"] = 3
    gear[1]["levels"][:] = 1                                # the table's levels are not the player's
    live = new_combatant(1)
    PI.refresh_combat(live, p, gear[1])
    c = live[0]
    assert list(c["levels"]) == list(p["levels"][:NUM_SKILLS])
    assert c["prayers"] == p["active_prayers"]
    assert list(c["bonuses"]) == [7] * len(c["bonuses"]) and c["weapon_speed"] == 3
    assert gear[1]["levels"][RANGED] == 1                   # the loadout table is left as it was
