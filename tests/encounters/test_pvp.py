"""NH PvP v0: the rules RULES.md lists, checked on single duels driven by hand."""

import numpy as np
import pytest

import osrs_rl
from osrs_rl.core import prayers as P
from osrs_rl.core.pending_hits import HIT_PENDING, STYLE_MAGIC, push_hit
from osrs_rl.core.skills import HITPOINTS, PRAYER
from osrs_rl.core.status import ICE_BARRAGE_FREEZE
from osrs_rl.encounters.pvp import mechanics as M
from osrs_rl.encounters.pvp import state as ST
from osrs_rl.encounters.pvp.loadouts import build_names

NOOP = np.zeros((1, 2, len(ST.HEAD_SIZES)), dtype=np.int64)


def duel(build="max_main", **config):
    config.setdefault("gear_variants", 0)             # the listed gear, so numbers below are fixed
    env = osrs_rl.make("pvp_selfplay", num_envs=1, seed=1, build=build_names().index(build), **config)
    env.reset()
    return env


def act(**heads):
    a = NOOP.copy()
    for key, value in heads.items():
        player, head = key.split("_", 1)
        a[0, int(player[1]), getattr(ST, "H_" + head.upper())] = value
    return a


def commit(env):
    """After editing ``env.states`` by hand: refresh the observation and mask the runtime keeps."""
    env.set_states([0], env.get_states([0]))


def pending(env):
    return [h for h in env.states[0]["hits"] if h["state"] == HIT_PENDING]


def test_protection_is_read_when_the_attack_is_made():
    # RULES 4.1/4.2: the defender's overhead at the attack removes 40 %; it is stored on the hit
    env = duel()
    env.step(act(p1_overhead=ST.OVERHEAD_MAGIC, p0_attack=ST.ATTACK_ICE))
    hits = pending(env)
    assert len(hits) == 1 and hits[0]["flags"] & M.FLAG_PROTECTED
    env.step(act(p1_overhead=ST.OVERHEAD_OFF))             # switching off later changes nothing
    hits = pending(env)
    assert not hits or hits[0]["flags"] & M.FLAG_PROTECTED


def test_magic_hit_delay_from_distance_and_pid():
    # RULES 3.4: spells 1 + floor((1 + d) / 3); the players start 4 tiles apart -> 2 ticks, +1 when
    # the target's turn comes first
    env = duel()
    first = int(env.states[0]["first"])
    env.step(act(p0_attack=ST.ATTACK_ICE))
    due = pending(env)[0]["due_tick"]
    assert due == 1 + 2 + (1 if first == 1 else 0)


def test_ice_freezes_and_blood_heals_on_landing():
    env = duel()
    s = env.states[0]
    s["players"][0]["p"]["levels"][HITPOINTS] = 50
    push_hit(s["hits"], 1, 20, STYLE_MAGIC, 0, 1, M.FLAG_ACCURATE, M.BLOOD_HEAL_PCT, ICE_BARRAGE_FREEZE)
    commit(env)
    env.step(NOOP)
    assert s["players"][1]["p"]["levels"][HITPOINTS] == 79
    assert s["players"][0]["p"]["levels"][HITPOINTS] == 55          # 25 % of 20
    assert s["players"][1]["p"]["freeze_ticks"] == ICE_BARRAGE_FREEZE - 1   # one tick already counted down
    assert s["players"][0]["freezes_landed"] == 1


def test_combo_eat_in_one_tick():
    # RULES / core.consumables: food, then a potion dose, then a karambwan in the same tick
    env = duel("lms_med")
    s = env.states[0]
    s["players"][0]["p"]["levels"][HITPOINTS] = 40
    commit(env)
    before = s["players"][0]["supplies"].copy()
    env.step(act(p0_food=1, p0_potion=ST.POTION_BREW, p0_karambwan=1))
    after = s["players"][0]["supplies"]
    assert before[ST.SUP_FOOD] - after[ST.SUP_FOOD] == 1
    assert before[ST.SUP_KARAMBWAN] - after[ST.SUP_KARAMBWAN] == 1
    assert before[ST.SUP_BREW] - after[ST.SUP_BREW] == 1
    env.step(act(p0_food=1))                                          # food is on its 3-tick delay
    assert s["players"][0]["supplies"][ST.SUP_FOOD] == after[ST.SUP_FOOD]


def test_masks_follow_reach_and_freezes():
    env = duel()
    m = env.head_masks()
    assert m["attack"][0, 0].tolist()[ST.ATTACK_ICE]            # mage set, 4 tiles: barrage reaches
    env.step(act(p0_loadout=1 + ST.SET_MELEE))
    m = env.head_masks()
    assert not m["attack"][0, 0, ST.ATTACK_WEAPON]               # melee out of reach
    assert not m["move"][0, 0, ST.MOVE_UNDER]                    # the opponent is not frozen
    assert m["move"][0, 0, ST.MOVE_TOWARD]


def test_lms_rules_do_not_drain_prayer():
    env = duel("lms_med")
    env.step(act(p0_overhead=ST.OVERHEAD_MAGIC, p0_offensive=ST.OFFENSIVE_ON))
    s = env.states[0]
    assert s["players"][0]["p"]["active_prayers"] & (1 << P.AUGURY)
    for _ in range(60):
        env.step(NOOP)
    assert s["players"][0]["p"]["levels"][PRAYER] == s["players"][0]["p"]["base_levels"][PRAYER]


def test_wilderness_rules_drain_prayer():
    env = duel("max_main")
    env.step(act(p0_overhead=ST.OVERHEAD_MAGIC, p0_offensive=ST.OFFENSIVE_ON))
    for _ in range(60):
        env.step(NOOP)
    s = env.states[0]
    assert s["players"][0]["p"]["levels"][PRAYER] < s["players"][0]["p"]["base_levels"][PRAYER]


@pytest.mark.parametrize("build", build_names())
def test_every_build_loads_and_fights(build):
    env = osrs_rl.make("pvp", num_envs=4, seed=2, build=build_names().index(build), opponent_tier=5)
    env.reset()
    rng = np.random.default_rng(0)
    from osrs_rl.runtime.checks import random_legal_actions

    for _ in range(50):
        env.step(random_legal_actions(env, rng))


def test_nightmare_beats_a_random_agent():
    from osrs_rl.runtime.checks import random_legal_actions

    env = osrs_rl.make("pvp", num_envs=32, seed=3, opponent_tier=9)
    env.reset()
    rng = np.random.default_rng(1)
    for _ in range(300):
        env.step(random_legal_actions(env, rng))
    m = env.pop_metrics()
    assert len(m["won"]) >= 20
    assert m["won"].mean() == 0.0 and m["lost"].mean() > 0.8


def test_ladder_plays_scripted_pairs():
    from osrs_rl.encounters.pvp.ladder import play, wilson

    wins, losses, n = play(9, 0, fights=16, seed=4)
    assert n == 16 and wins + losses <= n
    assert wins >= 12 and losses == 0      # nightmare against random buttons
    # either seat: a high tier beats a much lower one (nightmare reads intent from seat 1 too)
    wins, losses, n = play(1, 9, fights=16, seed=5)
    assert losses >= 10 and wins == 0
    wins, losses, n = play(7, 2, fights=16, seed=6)
    assert wins >= 9 and wins > 2 * losses
    lo, hi = wilson(wins, n)
    assert lo <= wins / n <= hi
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.slow
def test_the_ladder_is_honest():
    """Issue 4's targets at the ladder's own tick limit, with a statistical margin: over 256 fights
    per seat each tier beats the one below in more than 55 % of fights (the measured shares are
    0.65-0.79: `osrs-rl eval pvp --tool ladder --opt fights=512`), and nightmare beats the middle tiers in
    more than 90 %."""
    from osrs_rl.encounters.pvp.ladder import LADDER_MAX_TICKS, MIDDLE_TIERS, play
    from osrs_rl.encounters.pvp.scripted import NUM_TIERS

    def share(a, b, fights=256):
        w0, _, n0 = play(a, b, fights, seed=31 * a + b, max_ticks=LADDER_MAX_TICKS)
        _, l1, n1 = play(b, a, fights, seed=31 * b + a + 7, max_ticks=LADDER_MAX_TICKS)
        return (w0 + l1) / (n0 + n1)

    shares = {t: share(t, t - 1) for t in range(1, NUM_TIERS)}
    assert all(v > 0.55 for v in shares.values()), shares
    assert all(share(NUM_TIERS - 1, m) > 0.9 for m in MIDDLE_TIERS)
