"""Runs of the Fight Cave driven by hand: fixtures that place the player and monsters and step chosen actions."""

import numpy as np

import osrs_rl
from osrs_rl.core.events import live_events
from osrs_rl.core.skills import HITPOINTS
from osrs_rl.encounters.fight_caves import state as ST

BIG_HP = 5000        # a player who cannot die, to watch a rule run its course
OPEN = (30, 20)      # a tile of the open southern floor, 5 tiles from any rock


def cave(seed=11, **config):
    env = osrs_rl.make("fight_caves", num_envs=1, seed=seed, **config)
    env.reset()
    return env


def commit(env):
    """After editing ``env.states`` by hand: the runtime refreshes its observation and mask."""
    env.set_states([0], env.get_states([0]))


def act(**heads):
    a = np.zeros((1, len(ST.HEADS)), dtype=np.int64)
    for head, value in heads.items():
        a[0, getattr(ST.HEAD, head)] = value
    return a


def empty_cave(env, player=OPEN, hp=BIG_HP):
    """Every slot freed and no hit in flight, the player on ``player`` with ``hp``; the wave is kept open by
    ``keeper``."""
    s = env.states[0]
    s["monsters"]["state"] = ST.SLOT_FREE
    s["p"]["x"], s["p"]["y"] = player
    s["p"]["levels"][HITPOINTS] = hp
    s["hits"]["state"] = 0
    commit(env)


def put(env, slot, kind, x, y, **fields):
    s = env.states[0]
    m = s["monsters"][slot]
    m["state"], m["kind"], m["x"], m["y"] = ST.SLOT_ALIVE, kind, x, y
    m["hp"] = int(env.config["kind_row"][0][kind]["hitpoints"])
    m["attack_timer"], m["stun"], m["target"], m["had_los"], m["frozen"] = 0, 0, ST.TARGET_PLAYER, 0, 0
    m["scan"], m["windup"], m["procced"], m["parent"] = -1, 0, 0, -1
    for k, v in fields.items():
        m[k] = v
    commit(env)


def keeper(env, slot=7):
    """A Tz-Kih walled in far away keeps the wave open (a test that is not about waves): stunned for ever."""
    put(env, slot, ST.K_KIH, 5, 59, stun=30_000)


def events(env, kind=None, source=None):
    out = []
    for e in live_events(env.states[0]):
        if (kind is None or int(e["kind"]) == kind) and (source is None or int(e["source"]) == source):
            out.append(e)
    return out
