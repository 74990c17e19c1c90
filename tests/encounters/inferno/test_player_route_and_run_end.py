"""The Inferno player's route and the run's end, one rule per test: one route a tick (an attack in reach drops
the move; a target out of reach is walked to and shot only once in reach), no success while a hit is still flying
at the player, and a timeout never pays more than death by default. Sources beside each rule in player.py, spawns.py and
the README's rules table."""

from osrs_rl.core import click_move as CM
from osrs_rl.core.events import EV_ATTACK
from osrs_rl.core.pending_hits import HIT_PENDING, STYLE_MAGIC
from osrs_rl.encounters.inferno import player as PLY
from osrs_rl.encounters.inferno import state as ST

from .helpers import act, commit, empty_arena, events, inferno, keeper, put

MONSTER = ST.ENT_MONSTER
RUN_N, RUN_S = CM.move_option(0, 2, True), CM.move_option(0, -2, True)   # move head: clicks 2 tiles north / south


# ---- F2: one route a tick -----------------------------------------------------------------------------
def test_an_attack_in_reach_drops_the_move():
    env = inferno()
    empty_arena(env, player=(15, 15))
    keeper(env)
    put(env, 0, ST.K_RANGER, 15, 19, stun=100, hp=1000)
    env.step(act(move=RUN_S, attack=1))
    s = env.states[0]
    assert (int(s["p"]["x"]), int(s["p"]["y"])) == (15, 15)
    assert events(env, EV_ATTACK, ST.ENT_PLAYER)


def test_a_target_out_of_reach_is_walked_to_and_shot_only_once_in_reach():
    env = inferno()
    empty_arena(env, player=(15, 15))
    keeper(env)
    put(env, 0, ST.K_RANGER, 15, 27, stun=100, hp=1000)    # 12 tiles north: out of the bow's 10
    env.step(act(move=RUN_S, attack=1))
    assert int(env.states[0]["p"]["y"]) == 13 and not events(env, EV_ATTACK, ST.ENT_PLAYER)
    # walking into range (the runtime masks an attack out of reach, so only the kernel sees this case)
    s = env.states[0]
    s["p"]["y"] = 15
    assert PLY.move_or_attack(s, env.config[0], RUN_N, 1) == 2
    assert int(s["p"]["y"]) == 17 and int(s["p"]["attack_timer"]) > 0      # the run ends 10 tiles away: it shoots


# ---- F4: no success while a hit is still flying at the player -------------------------------------------
def test_last_wave_is_not_cleared_while_a_hit_is_in_flight():
    env = inferno(start_wave=1, last_wave=1)
    empty_arena(env, player=(15, 15), hp=10)
    put(env, 0, ST.K_MAGER, 15, 19, stun=1000, hp=1)
    s = env.states[0]
    due = int(s["tick"]) + 40
    h = s["hits"][0]
    h["state"], h["due_tick"], h["damage"], h["style"] = HIT_PENDING, due, 51, STYLE_MAGIC
    h["attacker"], h["target"] = ST.K_MAGER, ST.HT_PLAYER
    s["hit_source"][0] = MONSTER
    commit(env)
    killed = None
    for _ in range(60):
        _, _, term, trunc, _ = env.step(act(attack=1))
        tick = int(env.states[0]["tick"])
        if killed is None and int(env.states[0]["monsters"]["state"][0]) == ST.SLOT_DEAD:
            killed = tick
        if term[0] or trunc[0]:
            break
        assert tick < due
    assert killed is not None and killed < due
    assert term[0] and tick == due
    m = env.pop_metrics()
    assert m["died"][0] == 1 and m["cleared"][0] == 0 and m["waves_cleared"][0] == 1


# ---- F11: the default rewards ------------------------------------------------------------------------
def test_a_timeout_never_pays_more_than_death_by_default():
    env = inferno()
    assert float(env.config[0]["timeout_reward"]) <= float(env.config[0]["death_reward"])
