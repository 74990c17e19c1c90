"""A scripted Fight Cave player (waves 1-63): one Numba kernel that plays every env of a batch as a plain baseline.

    env = osrs_rl.make("fight_caves", num_envs=64, seed=0)
    env.reset()
    actions = np.zeros((64, env.spec.num_heads), dtype=np.int64)
    solver_actions(env.states, env.config, actions)      # then env.step(actions), and again

What it reads: what a player in the cave sees (the monsters, their tiles, hitpoints and attack timers, Jad's tell,
its own stats and supplies); never the RNG. Each tick, per env:
  1. overhead: the style of the attack about to be made this tick (monsters act after the player's clicks and
     the overhead on at the attack decides: core.npc_attack rule 1): a monster that sees the player with its
     timer at 1 or below (it counts down at the start of its turn) and no stun, TzTok-Jad by his tell (its style,
     released when the windup reaches 0: core.jad); several: the style of the largest max hit. An adjacent
     Tok-Xil, Ket-Zek or Jad may melee instead (half the time): it is prayed for its distance style. With nothing
     due it switches the overhead off: a prayer on for a tick after none costs nothing (core.prayer_drain), so
     these flicks cost no points;
  2. attack: the nearest monster the weapon reaches now (a healing Yt-HurKot first, to draw it off Jad), with
     Rigour on in the tick it shoots and off after; with none in reach it walks toward the nearest monster;
  3. supplies: a brew at or below ``BREW_AT`` of its hitpoints, a restore below ``RESTORE_AT`` of its prayer or
     with ranged drained ``RESTORE_RANGED`` below base (brews drain it).
What it does not do: safespot, step out of melee reach, order kills by danger, flick offensive prayers ahead.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from osrs_rl.core import click_move as CM
from osrs_rl.core import player_input as PI
from osrs_rl.core import prayers as P
from osrs_rl.core.hit_delay import edge_distance
from osrs_rl.core.pending_hits import STYLE_MELEE
from osrs_rl.core.skills import HITPOINTS, PRAYER, RANGED

from . import monsters as MON
from . import player as PLY
from . import state as ST

BREW_AT = (1, 2)             # hitpoints at or below half their base
RESTORE_AT = (1, 4)          # prayer below a quarter of its base
RESTORE_RANGED = 10
_OVERHEAD_OF = (ST.OVERHEAD.melee, ST.OVERHEAD.missiles, ST.OVERHEAD.magic)   # by pending-hit STYLE_*
_PRAYER_OF = (P.PROTECT_FROM_MELEE, P.PROTECT_FROM_MISSILES, P.PROTECT_FROM_MAGIC)


@njit(cache=True)
def due_style(s, cfg):
    """The style of the hardest attack a monster makes this tick (module docstring, 1), -1 when none."""
    best, best_max = -1, -1
    for k in range(ST.MONSTER_SLOTS):
        m = s.monsters[k]
        if m.state != ST.SLOT_ALIVE or m.target != ST.TARGET_PLAYER:
            continue
        style = -1
        if m.windup == 1:
            style = np.int64(m.scan)
        elif m.windup <= 0 and m.stun <= 0 and m.attack_timer <= 1 and MON.sees_player(s, cfg, k) \
                and m.kind != ST.K_JAD:
            style = np.int64(cfg.kind_style[m.kind])
        elif m.kind == ST.K_JAD and m.windup <= 0 and m.stun <= 0 and m.attack_timer <= 1 \
                and MON.in_contact(s, cfg, k):
            style = STYLE_MELEE           # in reach he may melee at once; his distance attacks show a tell first
        if style < 0:
            continue
        most = cfg.kind_max[m.kind, style]
        if most > best_max:
            best, best_max = style, most
    return best


@njit(cache=True)
def pick_target(s, cfg):
    """The monster slot to shoot now: a healing Yt-HurKot in reach, else the nearest in reach; -1: none."""
    best, best_d = -1, 1 << 30
    for k in range(ST.MONSTER_SLOTS):
        if not PLY.can_attack(s, cfg, k):
            continue
        m = s.monsters[k]
        d = edge_distance(s.p.x, s.p.y, 1, m.x, m.y, MON.size_of(cfg, m))
        if m.kind == ST.K_HURKOT and m.target >= 0:
            d -= 1000
        if d < best_d:
            best, best_d = k, d
    return best


@njit(cache=True)
def walk_toward(s, cfg):
    """A walk click toward the nearest living monster (the furthest tile along the line within MOVE_RADIUS that is
    walkable), MOVE_NONE when none."""
    best, best_d = -1, 1 << 30
    for k in range(ST.MONSTER_SLOTS):
        m = s.monsters[k]
        if m.state != ST.SLOT_ALIVE:
            continue
        d = edge_distance(s.p.x, s.p.y, 1, m.x, m.y, MON.size_of(cfg, m))
        if d < best_d:
            best, best_d = k, d
    if best < 0:
        return CM.MOVE_NONE
    m = s.monsters[best]
    dx = np.int64(m.x) - s.p.x
    dy = np.int64(m.y) - s.p.y
    for r in range(CM.MOVE_RADIUS, 0, -1):
        sx = max(-r, min(r, dx))
        sy = max(-r, min(r, dy))
        if (sx != 0 or sy != 0) and CM.walkable(cfg.flags, s.p.x + sx, s.p.y + sy):
            return CM.move_option(sx, sy, False)
    return CM.MOVE_NONE


@njit(cache=True)
def decide(s, cfg, row):
    p = s.p
    for h in range(row.shape[0]):
        row[h] = 0
    # 1. overhead
    style = due_style(s, cfg)
    if style >= 0:
        if not PI.has_prayer(p, _PRAYER_OF[style]) and p.levels[PRAYER] > 0:
            row[ST.HEAD.overhead] = _OVERHEAD_OF[style]
    elif PI.overhead_style(p) >= 0:
        row[ST.HEAD.overhead] = ST.OVERHEAD.off
    # 2. attack or walk, Rigour on the tick it shoots
    rigour = (np.uint32(p.active_prayers) & np.uint32(cfg.offensive)) != 0
    k = pick_target(s, cfg)
    if k >= 0:
        row[ST.HEAD.attack] = ST.ATTACK_SLOT_0 + k
        if not rigour and p.levels[PRAYER] > 0:
            row[ST.HEAD.offensive] = ST.OFFENSIVE.on
    else:
        if rigour:
            row[ST.HEAD.offensive] = ST.OFFENSIVE.off
        if p.attack_timer <= 1 and s.dest_x < 0:
            row[ST.HEAD.move] = walk_toward(s, cfg)
    # 3. supplies
    if p.potion_timer <= 0:
        if s.supplies[ST.SUP_BREW] > 0 and p.levels[HITPOINTS] * BREW_AT[1] <= p.base_levels[HITPOINTS] * BREW_AT[0]:
            row[ST.HEAD.drink] = ST.DRINK_SUPPLY_0 + ST.SUP_BREW
        elif s.supplies[ST.SUP_RESTORE] > 0 and (
                p.levels[PRAYER] * RESTORE_AT[1] < p.base_levels[PRAYER] * RESTORE_AT[0]
                or p.levels[RANGED] <= p.base_levels[RANGED] - RESTORE_RANGED):
            row[ST.HEAD.drink] = ST.DRINK_SUPPLY_0 + ST.SUP_RESTORE


@njit(cache=True)
def _solve(states, cfg, out):
    for i in range(states.shape[0]):
        decide(states[i], cfg, out[i])


def solver_actions(states, config, out) -> None:
    """Write every env's actions for this tick into ``out`` (int64 [num_envs, num_heads])."""
    _solve(states, config[0], out)

