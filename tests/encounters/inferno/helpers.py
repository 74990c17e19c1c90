"""Runs of the Inferno driven by hand: fixtures that place the player and monsters and step chosen actions."""

import numpy as np

import osrs_rl
from osrs_rl.core.events import live_events
from osrs_rl.core.skills import HITPOINTS
from osrs_rl.encounters.inferno import state as ST

BIG_HP = 5000        # a player who cannot die, to watch a rule run its course


def inferno(seed=11, hp=None, **config):
    env = osrs_rl.make("inferno", num_envs=1, seed=seed, **config)
    env.reset()
    if hp is not None:
        env.states["p"]["levels"][:, HITPOINTS] = hp
        commit(env)
    return env


def commit(env):
    """After editing ``env.states`` by hand: the runtime refreshes its observation and mask."""
    env.set_states([0], env.get_states([0]))


def act(**heads):
    a = np.zeros((1, len(ST.HEAD_SIZES)), dtype=np.int64)
    for head, value in heads.items():
        a[0, getattr(ST, "H_" + head.upper())] = value
    return a


def empty_arena(env, player=(15, 15), hp=BIG_HP):
    """Every slot freed and no hit in flight, the player on ``player`` with ``hp``. With no monster left the
    wave clears at the end of the next tick: ``keeper`` keeps it open."""
    s = env.states[0]
    s["monsters"]["state"] = ST.SLOT_FREE
    s["p"]["x"], s["p"]["y"] = player
    s["p"]["levels"][HITPOINTS] = hp
    s["hits"]["state"] = 0
    commit(env)


def put(env, slot, kind, x, y, **fields):
    s = env.states[0]
    m = s["monsters"][slot]
    m["state"] = ST.SLOT_ALIVE
    m["kind"] = kind
    m["x"], m["y"] = x, y
    m["hp"] = int(env.config["kind_row"][0][kind]["hitpoints"])
    m["attack_timer"] = 0
    m["stun"] = 0
    m["target"] = ST.TARGET_PLAYER
    m["scan"] = -1
    m["had_los"] = 0
    m["revived"] = 0
    m["dig_timer"], m["dig_due"], m["dig_left"] = 0, 50, 0
    m["frozen"], m["activity"], m["hurt_tick"] = 0, ST.ACT_NONE, ST.NO_HURT
    m["windup"], m["parent"], m["procced"], m["low_hp"] = 0, -1, 0, m["hp"]
    for k, v in fields.items():
        m[k] = v
    commit(env)


def keeper(env, slot=15):
    """A nibbler stuck on a pillar's far side keeps the wave open (a test that is not about waves)."""
    put(env, slot, ST.K_NIBBLER, 1, 1, target=2, stun=10_000)


def dead(env, slot, kind, **fields):
    """A monster of ``kind`` in ``slot`` that has died (a body a Jal-Zek may revive)."""
    put(env, slot, kind, 3, 3, **fields)
    env.states[0]["monsters"][slot]["state"] = ST.SLOT_DEAD
    commit(env)


def events(env, kind=None, source=None):
    out = []
    for e in live_events(env.states[0]):
        if (kind is None or int(e["kind"]) == kind) and (source is None or int(e["source"]) == source):
            out.append(e.copy())
    return out


def run(env, ticks, action=None):
    """Step ``ticks`` times; the events of each tick."""
    a = act() if action is None else action
    out = []
    for _ in range(ticks):
        env.step(a)
        out.append(events(env))
    return out
