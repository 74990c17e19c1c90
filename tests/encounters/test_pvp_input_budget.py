"""NH PvP defects found by an adversarial review, one regression test (or more) each: PID kept out of
the actor's view, heals that never lower hitpoints, Vengeance on a killing blow, the amulet of blood
fury and the items no build may list, and the game's 10 client packets per tick (RULES 1.1)."""

import json

import numpy as np
import pytest
from numba import njit

import osrs_rl
from osrs_rl.core.pending_hits import STYLE_MAGIC, STYLE_MELEE, push_hit
from osrs_rl.core.skills import HITPOINTS
from osrs_rl.data import tables
from osrs_rl.encounters.pvp import loadouts as L
from osrs_rl.encounters.pvp import mechanics as M
from osrs_rl.encounters.pvp import spec as PS
from osrs_rl.encounters.pvp import state as ST
from osrs_rl.encounters.pvp import view as V
from osrs_rl.encounters.pvp.scripted import scripted_actions
from osrs_rl.runtime.checks import random_legal_actions
from tests.encounters.test_pvp_rules import NOOP, act, commit, duel, player


def _observe(env, me):
    o = np.zeros(V.OBS_SIZE, dtype=np.float32)
    V.observe_player(env.states[0], env.config[0], me, o)
    return o


def _hp(env, i):
    return int(player(env, i)["p"]["levels"][HITPOINTS])


def _set_hp(env, i, hp):
    player(env, i)["p"]["levels"][HITPOINTS] = hp


# ---- 9. PID is hidden from the actor ---------------------------------------------------------------
def test_pid_is_only_in_the_privileged_segment():
    env = duel("max_main")
    privileged = slice(V.OBS_SIZE - V.PRIVILEGED_FEATURES, V.OBS_SIZE)
    for me in range(2):
        views = []
        for first in range(2):
            env.states[0]["first"] = first
            views.append(_observe(env, me))
        # what a player sees does not change with PID; the critic's segment does
        assert (views[0][:privileged.start] == views[1][:privileged.start]).all()
        pid = V.PRIVILEGED_NAMES.index("pid")
        assert views[0][privileged][pid] != views[1][privileged][pid]
    names = [seg.name for seg in PS.SPEC.obs_segments]
    assert names[-1] == "privileged" and "pid" in PS.SPEC.obs_segments[-1].feature_names
    assert sum(seg.size for seg in PS.SPEC.obs_segments) == V.OBS_SIZE


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


# ---- 13. at most 10 client packets a tick -------------------------------------------------------------
def test_switch_clicks_count_items_put_on_and_slots_emptied():
    items = tables.items()
    one = lambda name: items.find(name)                    # noqa: E731
    w = np.full((3, 11), -1, dtype=np.int16)
    weapon, shield, head = (L.E.SLOT_NAMES.index(n) for n in ("weapon", "shield", "head"))
    w[0, weapon], w[0, shield], w[0, head] = one("Abyssal whip"), one("Dragon defender"), one("Helm of neitiznot")
    w[1, weapon], w[1, head] = one("Armadyl godsword"), one("Helm of neitiznot")    # two-handed
    w[2, weapon] = one("Abyssal whip")
    clicks = L.switch_clicks(w, items)
    assert clicks[0, 1] == 1           # the godsword takes the defender off by itself
    assert clicks[1, 0] == 2           # whip and defender back on
    assert clicks[0, 2] == 2           # defender and helm taken off by hand
    assert (np.diag(clicks) == 0).all()


def _big_switch(env):
    """Dress player 0 in the kit and set of its build with the largest switch; returns (to, clicks)."""
    cfg, pl = env.config[0], env.states[0]["players"][0]
    table = cfg["set_switch_clicks"][pl["build"]]
    k, i, j = np.unravel_index(np.argmax(table), table.shape)
    pl["kit"], pl["set"] = k, i
    pl["p"]["equipment"][:] = cfg["set_worn"][pl["build"], k, i]
    _set_hp(env, 0, 40)
    commit(env)
    return int(j), int(table[k, i, j])


def test_inputs_past_ten_packets_are_dropped_in_order():
    env = duel("lms_zerker")
    j, clicks = _big_switch(env)
    # a 7-way switch: the largest a kit that fits 28 inventory slots has (runtime.inventory; lms_med's 8-way
    # switches came from kits of 30-33 slots)
    assert clicks == M.INPUTS_PER_TICK - 3
    # food, a brew and a karambwan (3 packets) leave 7: the switch fits exactly, the overhead after it is
    # dropped; the three consumables and the switch happen
    row = act(p0_food=1, p0_potion=ST.POTION_BREW, p0_karambwan=1, p0_loadout=1 + j,
              p0_overhead=ST.OVERHEAD_MELEE)
    assert M.accepted_inputs(env.states[0], env.config[0], 0, row[0, 0]) == M.IN_OVERHEAD
    before = player(env, 0)["supplies"].copy()
    env.step(row)
    p = player(env, 0)
    assert p["set"] == j and M.overhead(p["p"]) != STYLE_MELEE
    assert (before - p["supplies"])[[ST.SUP_FOOD, ST.SUP_KARAMBWAN, ST.SUP_BREW]].tolist() == [1, 1, 1]


def test_a_switch_past_the_tenth_packet_is_dropped_whole_and_the_consumables_before_it_happen():
    """Three consumables and an 8-click switch are 11 packets: the switch (IN_SWITCH) is the first input that does
    not fit, so it and everything after it are dropped; the consumables before it happen. No kit that fits 28
    slots has an 8-way switch (runtime.inventory), so the config's click count is set by hand: the rule under
    test is the packet budget, not the kit."""
    env = duel("lms_zerker")
    j, clicks = _big_switch(env)
    pl = env.states[0]["players"][0]
    env.config["set_switch_clicks"][0, int(pl["build"]), int(pl["kit"]), int(pl["set"]), j] = M.INPUTS_PER_TICK - 2
    commit(env)
    row = act(p0_food=1, p0_potion=ST.POTION_BREW, p0_karambwan=1, p0_loadout=1 + j,
              p0_overhead=ST.OVERHEAD_MELEE)
    assert M.accepted_inputs(env.states[0], env.config[0], 0, row[0, 0]) == M.IN_SWITCH
    before_set = int(pl["set"])
    before = player(env, 0)["supplies"].copy()
    env.step(row)
    p = player(env, 0)
    assert p["set"] == before_set and M.overhead(p["p"]) != STYLE_MELEE
    assert (before - p["supplies"])[[ST.SUP_FOOD, ST.SUP_KARAMBWAN, ST.SUP_BREW]].tolist() == [1, 1, 1]


def test_a_ten_packet_tick_goes_through_whole():
    env = duel("lms_med")
    j, clicks = _big_switch(env)
    # the switch, then food and a karambwan until the row is exactly 10 packets
    extra = {"p0_food": 1, "p0_karambwan": 1, "p0_overhead": ST.OVERHEAD_MAGIC}
    keys = list(extra)[:M.INPUTS_PER_TICK - clicks]
    row = act(p0_loadout=1 + j, **{k: extra[k] for k in keys})
    total = sum(M.input_clicks(env.states[0], env.config[0], 0, row[0, 0], w) for w in range(M.NUM_INPUTS))
    assert total == min(M.INPUTS_PER_TICK, clicks + len(extra))
    assert M.accepted_inputs(env.states[0], env.config[0], 0, row[0, 0]) == M.NUM_INPUTS
    env.step(row)
    assert player(env, 0)["set"] == j


def test_a_special_costs_a_click_on_the_special_attack_bar():
    env = duel("max_main")
    s, cfg = env.states[0], env.config[0]
    weapon = act(p0_attack=ST.ATTACK_WEAPON)[0, 0]
    spec = act(p0_loadout=1 + ST.SET_SPEC, p0_attack=ST.ATTACK_WEAPON)[0, 0]
    ice = act(p0_loadout=1 + ST.SET_SPEC, p0_attack=ST.ATTACK_ICE)[0, 0]
    assert M.input_clicks(s, cfg, 0, weapon, M.IN_ATTACK) == 1
    assert M.input_clicks(s, cfg, 0, spec, M.IN_ATTACK) == 2
    assert M.input_clicks(s, cfg, 0, ice, M.IN_ATTACK) == 1             # a manual cast is no special


def test_offensive_prayers_cost_one_click_each():
    # the LMS pure turns on two prayers for magic (Mystic Might and Steel Skin, builds.json)
    env = duel("lms_pure")
    s, cfg = env.states[0], env.config[0]
    pl = s["players"][0]
    wanted = int(cfg["build_offensive"][pl["build"], STYLE_MAGIC])
    on = act(p0_loadout=1 + ST.SET_MAGE, p0_offensive=ST.OFFENSIVE_ON)[0, 0]
    assert M.input_clicks(s, cfg, 0, on, M.IN_OFFENSIVE) == bin(wanted).count("1") == 2
    env.step(act(p0_loadout=1 + ST.SET_MAGE, p0_offensive=ST.OFFENSIVE_ON))
    assert M.input_clicks(env.states[0], cfg, 0, on, M.IN_OFFENSIVE) == 0         # both are on already
    off = act(p0_offensive=ST.OFFENSIVE_OFF)[0, 0]
    assert M.input_clicks(env.states[0], cfg, 0, off, M.IN_OFFENSIVE) == 2


@njit(cache=True)
def _scripted_accepted(states, config, tier, intent, out):
    """Inputs of the scripted tier's row for player 1 that fit the budget, on copies of the states."""
    mask = np.zeros(ST.MASK_SIZE, dtype=np.uint8)
    row = np.zeros(len(ST.HEAD_SIZES), dtype=np.int64)
    for e in range(states.shape[0]):
        scripted_actions(states[e], config[0], 1, tier, intent[e], mask, row)
        out[e] = M.accepted_inputs(states[e], config[0], 1, row)


@pytest.mark.parametrize("tier", [8, 9])
def test_scripted_rows_fit_the_budget(tier):
    # the tiers that never slip put inputs off rather than overrun the tick (scripted.py step 9)
    env = osrs_rl.make("pvp", num_envs=128, seed=5, opponent_tier=tier, build=L.build_names().index("lms_med"))
    env.reset()
    rng = np.random.default_rng(5)
    out = np.zeros(128, dtype=np.int64)
    short = 0
    for _ in range(400):
        a = random_legal_actions(env, rng)
        _scripted_accepted(env.states.copy(), env.config, tier, a.reshape(128, -1), out)
        short += int((out < M.NUM_INPUTS).sum())
        env.step(a)
    assert short <= (0 if tier == 9 else 128 * 400 // 100)     # elite slips on 0.5 % of ticks
