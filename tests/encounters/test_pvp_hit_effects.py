"""NH PvP: what a landed hit sets off, each pinned by a regression test: blood barrage heals that never lower the
caster's hitpoints and count the damage rolled, no Vengeance from a killing blow in either PID order, the amulet of
blood fury's melee heal, and no build wearing an item whose effect is not simulated."""

import json

import numpy as np
import pytest

import osrs_rl
from osrs_rl.core.pending_hits import STYLE_MAGIC, STYLE_MELEE, push_hit
from osrs_rl.core.skills import HITPOINTS
from osrs_rl.encounters.pvp import loadouts as L
from osrs_rl.encounters.pvp import mechanics as M
from osrs_rl.encounters.pvp import state as ST
from tests.encounters.test_pvp_rules import NOOP, act, commit, duel, player


def _hp(env, i):
    return int(player(env, i)["p"]["levels"][HITPOINTS])


def _set_hp(env, i, hp):
    player(env, i)["p"]["levels"][HITPOINTS] = hp


# ---- 10. healing never lowers hitpoints ---------------------------------------------------------------
def test_a_blood_barrage_keeps_a_boosted_casters_hitpoints():
    # OSRS wiki "Blood spells": the heal goes up to the base hitpoints; it removes no boost
    env = duel("max_main")
    s = env.states[0]
    _set_hp(env, 0, 110)                                   # brewed above the base of 99
    push_hit(s["hits"], 1, 20, STYLE_MAGIC, 0, 1, M.FLAG_ACCURATE, M.BLOOD_HEAL_PCT, 0)
    commit(env)
    env.step(NOOP)
    assert _hp(env, 1) == 79
    assert _hp(env, 0) == 110


def test_a_blood_barrage_heals_from_its_roll_past_the_targets_last_hitpoints():
    # OSRS wiki "Blood spells": the heal is based on the damage the spell would have done
    env = duel("max_main")
    s = env.states[0]
    _set_hp(env, 0, 50)
    _set_hp(env, 1, 4)
    push_hit(s["hits"], 1, 20, STYLE_MAGIC, 0, 1, M.FLAG_ACCURATE, M.BLOOD_HEAL_PCT, 0)
    commit(env)
    env.step(NOOP)
    assert _hp(env, 1) == 0 and _hp(env, 0) == 55          # 25 % of the 20 rolled, not of the 4 dealt


# ---- 11. Vengeance from a killing blow -------------------------------------------------------------
@pytest.mark.parametrize("first", [0, 1])
def test_a_killing_blow_reflects_nothing_whoever_has_pid(first):
    # RULES 9.6: Vengeance does not activate on the hit that kills its caster, so the fight ends
    # the same way in both PID orders: the attacker (player 1) wins
    env = duel("max_lunar", pid_shuffle=0)
    env.step(act(p0_vengeance=1))
    s = env.states[0]
    s["first"] = first
    _set_hp(env, 0, 10)
    _set_hp(env, 1, 5)                                     # any reflection would kill it
    push_hit(s["hits"], int(s["tick"]) + 1, 30, STYLE_MELEE, 1, 0, M.FLAG_ACCURATE, 0, 0)
    commit(env)
    _, _, term, _, _ = env.step(NOOP)
    assert term.all()
    assert int(env.states[0]["outcome"]) == ST.OUTCOME_LOSS            # player 0 died, player 1 did not
    assert _hp(env, 1) == 5 and player(env, 0)["vengeance_damage"] == 0


# ---- 12. what the builds wear: blood fury; no unmodelled items ----------------------------------------
def _melee_round(build, gear_set, envs=2048, seed=3):
    """Player 0 attacks once with ``gear_set`` from next to player 1 in every env; returns
    (damage dealt, hitpoints player 0 gained) per env once the hits have landed."""
    env = osrs_rl.make("pvp_selfplay", num_envs=envs, seed=seed, gear_variants=0, pid_shuffle=0,
                       build=L.build_names().index(build))
    env.reset()
    s = env.states
    p0, p1 = s["players"][:, 0]["p"], s["players"][:, 1]["p"]
    p0["x"], p0["y"] = p1["x"] - 1, p1["y"]
    p0["levels"][:, HITPOINTS] = 40
    env.set_states(np.arange(envs), s)
    a = np.zeros((envs, 2, len(ST.HEAD_SIZES)), dtype=np.int64)
    a[:, 0, ST.H_LOADOUT] = 1 + gear_set
    a[:, 0, ST.H_ATTACK] = ST.ATTACK_WEAPON
    env.step(a)
    for _ in range(2):                                     # every hit has landed 2 ticks later (RULES 3.4)
        env.step(np.zeros_like(a))
    after = env.states["players"]["p"]
    dealt = 99 - after["levels"][:, 1, HITPOINTS].astype(np.int64)
    return dealt, after["levels"][:, 0, HITPOINTS].astype(np.int64) - 40


def test_blood_fury_heals_30_percent_of_one_melee_hit_in_five():
    # OSRS wiki "Amulet of blood fury": with melee, a 20 % chance to heal 30 % of the damage dealt
    assert "Amulet of blood fury" == L.builds()["max_main"]["sets"]["melee"]["neck"]
    dealt, gained = _melee_round("max_main", ST.SET_MELEE)
    hit = dealt >= 4                                        # 30 % of less than 4 rounds down to 0
    fired = hit & (gained > 0)
    assert (gained[fired] == dealt[fired] * M.BLOOD_FURY_HEAL_PCT // 100).all()
    assert (gained[~fired] == 0).all()
    rate = fired.sum() / hit.sum()
    assert hit.sum() > 300 and 0.13 < rate < 0.27, (hit.sum(), rate)


def test_blood_fury_ignores_ranged_attacks():
    assert "Amulet of blood fury" == L.builds()["max_main"]["sets"]["ranged"]["neck"]
    dealt, gained = _melee_round("max_main", ST.SET_RANGED)
    assert (dealt > 0).sum() > 300 and (gained == 0).all()


def test_no_build_lists_an_item_whose_effect_is_not_simulated():
    # the granite maul's instant special and recoil are not simulated: no build may list them
    for bid, build in L.builds().items():
        assert not [n for n in L.listed_items(build) if n.startswith(L.UNMODELLED_ITEMS)], bid
    with open(L.BUILDS_PATH, encoding="utf-8") as f:
        raw = json.load(f)["builds"]
    raw["lms_med"]["spec_weapons"].append("Granite maul (Normal)")
    with pytest.raises(ValueError, match="Granite maul"):
        L.check_modelled("lms_med", raw["lms_med"])
    raw["max_main"]["sets"]["melee"]["ring"] = "Ring of recoil"
    with pytest.raises(ValueError, match="Ring of recoil"):
        L.check_modelled("max_main", raw["max_main"])
