"""Food, potions, their delays and the karambwan combo (osrs_rl.core.consumables).

Every formula case cites its source; see osrs_rl/data/consumables.json for the per-item sources.
"""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from osrs_rl.core.consumables import (
    COL_KIND,
    DATA_PATH,
    KIND_POTION,
    check_table,
    drink_potion,
    eat_food,
    heal_amount,
    load_consumables,
    parse_consumables,
)
from osrs_rl.core.player import (
    ATTACK_TIMER_FLOOR,
    PLAYER_DTYPE,
    check_player_array,
    new_player,
    tick_action_timers,
)
from osrs_rl.core.skills import ATTACK, DEFENCE, HITPOINTS, MAGIC, PRAYER, RANGED, STRENGTH

C = load_consumables()
T = C.table


def player(**levels):
    """Fixture builder: a 99s player with overrides of base levels (current = base)."""
    return new_player(levels)[0]


def set_level(p, skill, value):
    p["levels"][skill] = value


def eat(p, name):
    return bool(eat_food(p, C.id(name), T))


def drink(p, name):
    return bool(drink_potion(p, C.id(name), T))


def wait(p, ticks):
    for _ in range(ticks):
        tick_action_timers(p)


# ---- heals ----------------------------------------------------------------------------------

@pytest.mark.parametrize("food, heal", [
    ("Shark", 20),             # Naton1 simulation-rsps Food.java SHARK 20; OSRS wiki "Shark"
    ("Manta ray", 22),         # Food.java MANTA_RAY 22; OSRS wiki "Manta ray"
    ("Dark crab", 22),         # Food.java DARK_CRAB 22
    ("Cooked karambwan", 18),  # InfernoTrainer src/content/items/Karambwan.ts healAmount 18
])
def test_fixed_heals(food, heal):
    p = player()
    set_level(p, HITPOINTS, 10)
    assert eat(p, food)
    assert p["levels"][HITPOINTS] == 10 + heal


@pytest.mark.parametrize("base_hp, heal", [
    # OSRS wiki "Anglerfish": floor(hp/10) + c, c = 2 (10-24), 4 (25-49), 6 (50-74), 8 (75-92),
    # 13 (93-99); rsmod FoodHealing.kt anglerOverHeal gives the same numbers
    (10, 3), (24, 4), (25, 6), (49, 8), (50, 11), (74, 13), (75, 15), (92, 17), (93, 22), (99, 22),
])
def test_anglerfish_heal_formula(base_hp, heal):
    row = T[C.id("Anglerfish")]
    assert heal_amount(row, base_hp) == heal


def test_anglerfish_overheals_to_base_plus_heal_once():
    # OSRS wiki "Anglerfish": heals above the maximum by up to the heal; rsmod statBoost cap
    p = player()
    assert eat(p, "Anglerfish")
    assert p["levels"][HITPOINTS] == 99 + 22
    wait(p, 3)
    assert eat(p, "Anglerfish")
    assert p["levels"][HITPOINTS] == 121            # cap does not stack


def test_normal_food_does_not_overheal_and_never_lowers_overheal():
    p = player()
    set_level(p, HITPOINTS, 90)
    assert eat(p, "Shark")
    assert p["levels"][HITPOINTS] == 99
    set_level(p, HITPOINTS, 110)                    # overhealed by a brew
    wait(p, 3)
    assert eat(p, "Shark")
    assert p["levels"][HITPOINTS] == 110


# ---- potions --------------------------------------------------------------------------------

@pytest.mark.parametrize("hp_level, heal", [
    # OSRS wiki "Saradomin brew", "Hitpoints per dose" table: floor(15% hp) + 2
    (10, 3), (13, 3), (40, 8), (46, 8), (80, 14), (86, 14), (94, 16), (99, 16),
])
def test_brew_heal_table(hp_level, heal):
    p = player(hitpoints=hp_level)
    set_level(p, HITPOINTS, 1)
    assert drink(p, "Saradomin brew")
    assert p["levels"][HITPOINTS] == 1 + heal


@pytest.mark.parametrize("def_level, boost", [
    # OSRS wiki "Saradomin brew", "Defence boost by level" table: floor(20% def) + 2
    (1, 2), (4, 2), (5, 3), (70, 16), (74, 16), (90, 20), (94, 20), (99, 21),
])
def test_brew_defence_table(def_level, boost):
    p = player(defence=def_level)
    assert drink(p, "Saradomin brew")
    assert p["levels"][DEFENCE] == def_level + boost


def test_brew_overheals_and_drains_from_current_levels():
    # OSRS wiki "Saradomin brew": hitpoints may exceed the maximum by up to the heal; attack,
    # strength, magic and ranged lowered by 10% + 2 of their current levels
    p = player()
    set_level(p, ATTACK, 118)                       # super-combat boosted
    assert drink(p, "Saradomin brew")
    assert p["levels"][HITPOINTS] == 99 + 16
    assert p["levels"][ATTACK] == 118 - (2 + 11)
    assert p["levels"][STRENGTH] == 99 - (2 + 9)
    assert p["levels"][RANGED] == 88 and p["levels"][MAGIC] == 88
    wait(p, 3)
    assert drink(p, "Saradomin brew")
    assert p["levels"][HITPOINTS] == 115            # overheal cap base + 16 does not stack


@pytest.mark.parametrize("level, restore", [
    # OSRS wiki "Super restore", "Maximum restoration" table: floor(level/4) + 8
    (3, 8), (4, 9), (52, 21), (84, 29), (87, 29), (96, 32), (99, 32),
])
def test_super_restore_table(level, restore):
    p = player(attack=level, prayer=level)
    set_level(p, ATTACK, 0)
    set_level(p, PRAYER, 0)
    assert drink(p, "Super restore")
    assert p["levels"][ATTACK] == min(level, restore)
    assert p["levels"][PRAYER] == min(level, restore)


def test_super_restore_never_above_base_nor_touches_hitpoints_or_boosts():
    # OSRS wiki "Super restore": restores lowered stats incl. prayer, not hitpoints
    p = player()
    set_level(p, STRENGTH, 90)
    set_level(p, HITPOINTS, 50)
    set_level(p, RANGED, 112)
    assert drink(p, "Super restore")
    assert p["levels"][STRENGTH] == 99
    assert p["levels"][HITPOINTS] == 50
    assert p["levels"][RANGED] == 112


@pytest.mark.parametrize("prayer_level, restore", [
    # OSRS wiki "Prayer potion", "Maximum prayer restoration" table: floor(25% prayer) + 7
    (1, 7), (3, 7), (40, 17), (43, 17), (72, 25), (96, 31), (99, 31),
])
def test_prayer_potion_table(prayer_level, restore):
    p = player(prayer=prayer_level)
    set_level(p, PRAYER, 0)
    assert drink(p, "Prayer potion")
    assert p["levels"][PRAYER] == min(prayer_level, restore)


@pytest.mark.parametrize("potion, skill, base, expected", [
    ("Ranging potion", RANGED, 99, 112),           # dps-calc PotionMap: floor(4 + 99*0.1) = 13
    ("Ranging potion", RANGED, 70, 81),            # 4 + 7
    ("Super combat potion", ATTACK, 99, 118),      # dps-calc PotionMap: floor(5 + 99*0.15) = 19
    ("Super combat potion", STRENGTH, 75, 91),     # 5 + 11
    ("Super combat potion", DEFENCE, 99, 118),
    ("Bastion potion", RANGED, 99, 112),           # wiki "Bastion potion" as remembered [L]
    ("Bastion potion", DEFENCE, 99, 118),
])
def test_boost_potions(potion, skill, base, expected):
    from osrs_rl.core.skills import SKILL_NAMES

    p = player(**{SKILL_NAMES[skill]: base})
    assert drink(p, potion)
    assert p["levels"][skill] == expected


def test_boost_does_not_stack_and_counts_from_current_when_drained():
    # rsmod statBoost: min(base + b, current + b); Naton1 PotionConsumable.onBasicEffect
    p = player()
    assert drink(p, "Ranging potion")
    wait(p, 3)
    assert drink(p, "Ranging potion")
    assert p["levels"][RANGED] == 112
    set_level(p, RANGED, 90)
    wait(p, 3)
    assert drink(p, "Ranging potion")
    assert p["levels"][RANGED] == 103
    set_level(p, RANGED, 115)                      # above the potion's cap: left alone
    wait(p, 3)
    assert drink(p, "Ranging potion")
    assert p["levels"][RANGED] == 115


def test_stamina_potion_restores_20_percent_and_starts_effect():
    # OSRS wiki "Energy": +20% run energy per dose, 70% less drain for two minutes
    p = player()
    p["run_energy"] = 5000
    assert drink(p, "Stamina potion")
    assert p["run_energy"] == 7000 and p["stamina_ticks"] == 200
    p["run_energy"] = 9500
    wait(p, 3)
    assert drink(p, "Stamina potion")
    assert p["run_energy"] == 10000


def test_anti_venom_plus_cures_and_grants_immunity():
    # OSRS wiki "Venom": anti-venom+ cures venom, 3 minutes of venom immunity
    p = player()
    p["venom"] = 1
    p["poison_damage"] = 12
    assert drink(p, "Anti-venom+")
    assert p["venom"] == 0 and p["poison_damage"] == 0
    assert p["venom_immunity_ticks"] == 300 and p["poison_immunity_ticks"] == 1500


# ---- delays and combo eating --------------------------------------------------------------------

def test_food_delay_is_three_ticks():
    # rsmod FoodConstants.kt FOOD_DELAY = 3; InfernoTrainer Eating.ts foodDelay = 3
    p = player()
    set_level(p, HITPOINTS, 1)
    assert eat(p, "Shark")
    for _ in range(2):
        wait(p, 1)
        assert not eat(p, "Shark")
    wait(p, 1)
    assert eat(p, "Shark")
    assert p["levels"][HITPOINTS] == 41


def test_potion_delay_is_three_ticks():
    p = player()
    assert drink(p, "Prayer potion")
    wait(p, 2)
    assert not drink(p, "Prayer potion")
    wait(p, 1)
    assert drink(p, "Prayer potion")


def test_combo_food_potion_karambwan_in_one_tick():
    # InfernoTrainer Eating.ts: "forces the behavior of food -> potion -> karambwan"
    p = player()
    set_level(p, HITPOINTS, 10)
    assert eat(p, "Shark")
    assert drink(p, "Saradomin brew")
    assert eat(p, "Cooked karambwan")
    assert p["levels"][HITPOINTS] == 10 + 20 + 16 + 18


@pytest.mark.parametrize("first, second, allowed", [
    # InfernoTrainer Eating.ts / Naton1 Food.java: food sets the food timer, a potion sets potion +
    # food, a karambwan sets all three
    (("eat", "Shark"), ("drink", "Saradomin brew"), True),
    (("eat", "Shark"), ("eat", "Cooked karambwan"), True),
    (("drink", "Saradomin brew"), ("eat", "Cooked karambwan"), True),
    (("drink", "Saradomin brew"), ("eat", "Shark"), False),
    (("eat", "Cooked karambwan"), ("eat", "Shark"), False),
    (("eat", "Cooked karambwan"), ("drink", "Saradomin brew"), False),
    (("eat", "Cooked karambwan"), ("eat", "Cooked karambwan"), False),
])
def test_same_tick_order(first, second, allowed):
    p = player()
    set_level(p, HITPOINTS, 10)
    act = {"eat": eat, "drink": drink}
    assert act[first[0]](p, first[1])
    assert act[second[0]](p, second[1]) is allowed


def test_blocked_consumable_changes_nothing():
    p = player()
    set_level(p, HITPOINTS, 10)
    assert eat(p, "Shark")
    before = p.copy()
    assert not eat(p, "Manta ray")
    assert p.tobytes() == before.tobytes()


def test_eating_delays_the_next_attack():
    # Naton1 Food.java: attack timer + 3 (karambwan + 2), kept only when positive
    p = player()
    p["attack_timer"] = 2
    assert eat(p, "Shark")
    assert p["attack_timer"] == 5
    wait(p, 3)
    p["attack_timer"] = 1
    assert eat(p, "Cooked karambwan")
    assert p["attack_timer"] == 3


def test_eating_while_idle_does_not_delay_attack():
    p = player()
    p["attack_timer"] = -10                         # ready for 10 ticks
    assert eat(p, "Shark")
    assert p["attack_timer"] == -10
    wait(p, 3)
    p["attack_timer"] = -2
    assert eat(p, "Shark")
    assert p["attack_timer"] == 1


def test_potions_do_not_delay_attacks():
    p = player()
    p["attack_timer"] = 2
    assert drink(p, "Super combat potion")
    assert p["attack_timer"] == 2


def test_attack_timer_counts_below_zero_to_floor():
    p = player()
    p["attack_timer"] = ATTACK_TIMER_FLOOR + 1
    wait(p, 5)
    assert p["attack_timer"] == ATTACK_TIMER_FLOOR


# ---- property tests -------------------------------------------------------------------------

ACTIONS = st.lists(st.tuples(st.integers(0, len(C.names) - 1), st.integers(0, 3)), max_size=40)
LEVEL = st.integers(1, 99)


@settings(max_examples=200, deadline=None)
@given(actions=ACTIONS, hp=LEVEL, att=LEVEL, dfn=LEVEL, rng=LEVEL, pray=LEVEL,
       start_hp=st.integers(0, 99))
def test_levels_stay_in_bounds(actions, hp, att, dfn, rng, pray, start_hp):
    p = player(hitpoints=hp, attack=att, defence=dfn, ranged=rng, prayer=pray)
    set_level(p, HITPOINTS, min(start_hp, hp))
    angler = int(heal_amount(T[C.id("Anglerfish")], hp))
    brew_hp = 2 + hp * 15 // 100
    for item, ticks in actions:
        if T[item][COL_KIND] == KIND_POTION:
            drink_potion(p, item, T)
        else:
            eat_food(p, item, T)
        wait(p, ticks)
        lv = p["levels"].astype(int)
        base = p["base_levels"].astype(int)
        assert (lv >= 0).all()
        assert lv[HITPOINTS] <= base[HITPOINTS] + max(angler, brew_hp)
        # no potion boosts a stat by more than max(5 + 15%, 2 + 20%) (super combat, brew defence)
        others = np.arange(len(lv)) != HITPOINTS
        cap = base + np.maximum(5 + base * 15 // 100, 2 + base * 20 // 100)
        assert (lv[others] <= cap[others]).all()
        assert lv[PRAYER] <= base[PRAYER]
        assert 0 <= p["run_energy"] <= 10000


# ---- bad input ------------------------------------------------------------------------------

def test_unknown_consumable_lists_close_matches():
    with pytest.raises(KeyError, match="Did you mean: Shark"):
        C.id("Sharkk")


def test_lookup_is_case_insensitive():
    assert C.id("saradomin BREW") == C.names.index("Saradomin brew")


def test_wrong_kernel_for_kind_raises():
    p = player()
    with pytest.raises(ValueError, match="drink_potion"):
        eat_food(p, C.id("Saradomin brew"), T)
    with pytest.raises(ValueError, match="eat_food"):
        drink_potion(p, C.id("Shark"), T)
    with pytest.raises(IndexError):
        eat_food(p, len(C.names), T)


def _doc():
    with open(DATA_PATH, encoding="utf-8") as fh:
        return json.load(fh)


def test_json_unknown_skill_is_named():
    doc = _doc()
    doc["potions"][0]["effects"][0]["skills"] = ["hitpoint"]
    with pytest.raises(ValueError, match="unknown skill 'hitpoint'.*hitpoints"):
        parse_consumables(doc)


def test_json_unknown_key_and_op_are_named():
    doc = _doc()
    doc["foods"][0]["heals"] = 5
    with pytest.raises(ValueError, match="'Shark': unknown key.*heals"):
        parse_consumables(doc)
    doc = _doc()
    doc["potions"][0]["effects"][0]["op"] = "buff"
    with pytest.raises(ValueError, match="op must be one of"):
        parse_consumables(doc)


def test_json_duplicate_name_rejected():
    doc = _doc()
    doc["foods"].append(dict(doc["foods"][0]))
    with pytest.raises(ValueError, match="duplicate name 'Shark'"):
        parse_consumables(doc)


def test_check_table_names_expected_shape():
    check_table(T)
    with pytest.raises(TypeError, match="int32"):
        check_table(T.astype(np.int64))


def test_new_player_defaults_and_bad_skill():
    p = new_player()[0]
    assert (p["levels"] == 99).all() and p["spec_energy"] == 100 and p["run_energy"] == 10000
    assert (p["equipment"] == -1).all()
    with pytest.raises(ValueError, match="Did you mean: hitpoints"):
        new_player({"hitpoint": 90})
    with pytest.raises(ValueError, match="1..99"):
        new_player({"attack": 120})


def test_check_player_array_names_dtype():
    check_player_array(new_player())
    with pytest.raises(TypeError, match="expected PLAYER_DTYPE"):
        check_player_array(np.zeros(1, dtype=np.int16))
    assert PLAYER_DTYPE.names[0] == "base_levels"
