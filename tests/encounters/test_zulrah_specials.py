"""Zulrah: special attacks per gear tier, the optional spec set, special energy, and the two boosts."""

import numpy as np
import pytest

from osrs_rl.core import specials as SP
from osrs_rl.core import weapons as W
from osrs_rl.core.energy import SPEC_REGEN_TICKS
from osrs_rl.core.hit_delay import edge_distance
from osrs_rl.core.pending_hits import FLAG_SPECIAL, HIT_PENDING, STYLE_RANGED, push_hit
from osrs_rl.core.skills import HITPOINTS, MAGIC, RANGED
from osrs_rl.encounters.zulrah import mechanics as M
from osrs_rl.encounters.zulrah import rotations as RT
from osrs_rl.encounters.zulrah import state as ST
from tests.encounters.test_zulrah_rules import BIG_HP, NOOP, act, commit, fight, place

SERPENTINE_EAST = dict(start_rotation=2, start_phase=1)    # targetable from tick 4, ranged attacks only


def _in_reach_tile(env):
    """A walkable tile from which the worn weapon reaches Zulrah."""
    cfg, s = env.config[0], env.states[0]
    reach = int(cfg["set_range"][int(s["tier"]), int(s["set"])])
    for x, y in np.argwhere(cfg["collision"] == 0):
        if 0 < edge_distance(int(x), int(y), 1, int(s["zx"]), int(s["zy"]), RT.ZULRAH_SIZE) <= reach:
            return int(x), int(y)
    raise AssertionError("no tile in reach")


def _ready(tier, num_envs=1, **config):
    """A fight in ``tier`` gear, Zulrah targetable and in reach of the ranged weapon."""
    env = fight(num_envs=num_envs, gear_tier=tier, hp=BIG_HP, **SERPENTINE_EAST, **config)
    for _ in range(4):
        env.step(act(num_envs))
    place(env, _in_reach_tile(env))
    return env


def _spec_legal(env):
    return bool(env.action_mask()[0, env.spec.mask_slices()["spec"].start + ST.SPEC_USE])


def _player_hits(s):
    h = s["hits"]
    return h[(h["state"] == HIT_PENDING) & (h["target"] == ST.TARGET_ZULRAH)]


def test_each_tier_has_the_special_its_weapons_give():
    env = fight()
    cfg = env.config[0]
    table = SP.build_special_table()
    blowpipe, msb = table[W.TOXIC_BLOWPIPE], table[W.MAGIC_SHORTBOW_I]
    ranged, spec = ST.SET_RANGED, ST.SET_SPEC
    assert np.array_equal(cfg["set_special"][ST.TIER_BUDGET, ranged], msb)
    assert np.array_equal(cfg["set_special"][ST.TIER_MID, ranged], blowpipe)
    assert cfg["set_special"][ST.TIER_MAX, ranged, SP.SP_COST] == 0                 # the twisted bow has none
    assert np.array_equal(cfg["set_special"][ST.TIER_MAX, spec], blowpipe)
    for tier in range(ST.NUM_TIERS):
        assert cfg["set_special"][tier, ST.SET_MAGIC, SP.SP_COST] == 0              # no staff special
    assert cfg["set_present"][:, spec].tolist() == [0, 0, 1]
    assert (cfg["set_present"][:, :spec] == 1).all()


def test_the_spec_set_is_masked_where_the_tier_has_none():
    gear = None
    for tier, present in ((ST.TIER_BUDGET, False), (ST.TIER_MID, False), (ST.TIER_MAX, True)):
        env = fight(gear_tier=tier)
        gear = env.spec.mask_slices()["gear"].start
        assert bool(env.action_mask()[0, gear + 1 + ST.SET_SPEC]) == present
        env.step(act(gear=1 + ST.SET_SPEC))
        assert env.states[0]["set"] == (ST.SET_SPEC if present else ST.SET_RANGED)
    s, cfg = env.states[0], env.config[0]
    assert M.set_range(cfg, s) == 5                                   # the blowpipe's reach on rapid
    assert (s["p"]["equipment"] == cfg["set_worn"][ST.TIER_MAX, ST.SET_SPEC]).all()


@pytest.mark.parametrize("tier,hits", [(ST.TIER_BUDGET, 2), (ST.TIER_MID, 1)])
def test_a_special_spends_its_energy_and_makes_its_hits(tier, hits):
    env = _ready(tier)
    s = env.states[0]
    assert _spec_legal(env) and s["p"]["spec_energy"] == 100
    env.step(act(attack=ST.ATTACK_ZULRAH, spec=ST.SPEC_USE))
    flying = _player_hits(s)
    assert len(flying) == hits                                        # Snapshot fires two arrows
    assert (flying["flags"] & FLAG_SPECIAL).all()
    assert (flying["heal_pct"] == (50 if tier == ST.TIER_MID else 0)).all()   # only the blowpipe heals
    assert s["p"]["spec_energy"] == 50 and s["specs_used"] == 1


def test_energy_is_spent_only_when_the_attack_is_made_and_masks_follow_it():
    env = _ready(ST.TIER_MID)
    s = env.states[0]
    env.step(act(spec=ST.SPEC_USE))                                   # no attack: nothing spent
    assert s["p"]["spec_energy"] == 100 and s["specs_used"] == 0
    specs = 0
    for _ in range(12):
        if env.action_mask()[0, env.spec.mask_slices()["attack"].start + ST.ATTACK_ZULRAH]:
            specs += 1 if _spec_legal(env) else 0
            env.step(act(attack=ST.ATTACK_ZULRAH, spec=ST.SPEC_USE))
        else:
            env.step(NOOP)
    assert specs == 2 and s["specs_used"] == 2                        # 50 % each: two from a full bar
    assert s["p"]["spec_energy"] == 0 and not _spec_legal(env)


def test_the_twisted_bow_cannot_spec_and_the_spec_head_is_ignored_then():
    env = _ready(ST.TIER_MAX)
    s = env.states[0]
    assert not _spec_legal(env)
    env.step(act(attack=ST.ATTACK_ZULRAH, spec=ST.SPEC_USE))          # an illegal option does nothing more
    assert s["p"]["spec_energy"] == 100 and s["specs_used"] == 0
    assert not (_player_hits(s)["flags"] & FLAG_SPECIAL).any()


def test_special_energy_regenerates_ten_percent_every_fifty_ticks():
    env = fight(hp=BIG_HP, **SERPENTINE_EAST)
    s = env.states[0]
    s["p"]["spec_energy"] = 20
    commit(env)
    seen = []
    for _ in range(2 * SPEC_REGEN_TICKS):
        env.step(NOOP)
        seen.append(int(s["p"]["spec_energy"]))
    assert seen[SPEC_REGEN_TICKS - 2] == 20 and seen[SPEC_REGEN_TICKS - 1] == 30     # core.energy
    assert seen[-1] == 40


def test_the_blowpipe_special_heals_half_the_damage_it_deals():
    env = fight(gear_tier=ST.TIER_MID, **SERPENTINE_EAST)
    s = env.states[0]
    for _ in range(4):
        env.step(NOOP)
    s["p"]["levels"][HITPOINTS] = 40
    tick = int(s["tick"])
    push_hit(s["hits"], tick + 1, 31, STYLE_RANGED, ST.SRC_PLAYER, ST.TARGET_ZULRAH, FLAG_SPECIAL, 50, 0)
    push_hit(s["hits"], tick + 1, 7, STYLE_RANGED, ST.SRC_PLAYER, ST.TARGET_ZULRAH, 0, 0, 0)   # a normal hit
    commit(env)
    taken_before = int(s["damage_taken"].sum())
    env.step(NOOP)
    assert s["z_hp"] == 500 - 38
    healed = int(s["p"]["levels"][HITPOINTS]) - 40 + int(s["damage_taken"].sum()) - taken_before
    assert s["spec_healed"] == 15 and healed in (15, 16)              # floor(31 / 2), none from the 7 (+1: regen)
    # the heal stops at the base level
    s["p"]["levels"][HITPOINTS] = int(s["p"]["base_levels"][HITPOINTS]) - 3
    push_hit(s["hits"], int(s["tick"]) + 1, 40, STYLE_RANGED, ST.SRC_PLAYER, ST.TARGET_ZULRAH, FLAG_SPECIAL, 50, 0)
    commit(env)
    env.step(NOOP)
    assert s["p"]["levels"][HITPOINTS] <= s["p"]["base_levels"][HITPOINTS] and s["spec_healed"] == 15 + 3


def test_specials_hit_harder_on_average():
    """Mid tier, 2000 fights: a blowpipe special (x2 accuracy, x3/2 damage) out-damages a normal dart."""
    means = []
    for spec in (ST.SPEC_NONE, ST.SPEC_USE):
        env = _ready(ST.TIER_MID, num_envs=2000, seed=3)
        env.step(act(2000, attack=ST.ATTACK_ZULRAH, spec=spec))
        means.append(_player_hits(env.states)["damage"].mean())
    assert means[1] > 1.4 * means[0]


@pytest.mark.parametrize("drink,skill,gain", [(ST.DRINK_RANGED_BOOST, RANGED, 4 + 99 // 10),
                                              (ST.DRINK_MAGIC_BOOST, MAGIC, 4)])
def test_the_two_boosts(drink, skill, gain):
    env = fight(gear_tier=ST.TIER_MAX)
    s = env.states[0]
    legal = env.spec.mask_slices()["drink"].start + drink
    assert env.action_mask()[0, legal]
    env.step(act(drink=drink))
    assert s["p"]["levels"][skill] == 99 + gain                     # ranging potion 4 + 10 %, magic potion +4
    assert s["supplies"][drink] == 3 and s["supplies_used"][drink] == 1
    s["supplies"][drink] = 0
    commit(env)
    for _ in range(3):
        env.step(NOOP)
    assert not env.action_mask()[0, legal]                          # none left
