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
     due it chooses none (the heads hold, and a prayer chosen is kept up by the 1-tick flick: free either way);
  2. attack: the nearest monster the weapon reaches now (a healing Yt-HurKot first, to draw it off Jad), with
     Rigour on in the tick it shoots; with none in reach it walks to the nearest tile (by the cave's
     floor, around the rock: a breadth-first search) from which its weapon reaches one out of its melee reach;
  3. supplies: a brew at or below ``BREW_AT`` of its hitpoints, a restore below ``RESTORE_AT`` of its prayer or
     with ranged drained ``RESTORE_RANGED`` below base (brews drain it).
What it does not do: safespot, step out of melee reach, order kills by danger, flick offensive prayers ahead.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from osrs_rl.core import click_move as CM
from osrs_rl.core.collision import can_step
from osrs_rl.core.hit_delay import edge_distance
from osrs_rl.core.movement import in_melee_reach
from osrs_rl.core.pending_hits import STYLE_MELEE
from osrs_rl.core.skills import HITPOINTS, PRAYER, RANGED

from . import arena as A
from . import monsters as MON
from . import player as PLY
from . import state as ST

BREW_AT = (1, 2)             # hitpoints at or below half their base
RESTORE_AT = (1, 4)          # prayer below a quarter of its base
RESTORE_RANGED = 10
_OVERHEAD_OF = (ST.OVERHEAD.melee, ST.OVERHEAD.missiles, ST.OVERHEAD.magic)   # by pending-hit STYLE_*


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
def _shot_from(s, cfg, x, y):
    """From tile (x, y) the weapon reaches a living monster, out of its melee reach."""
    for k in range(ST.MONSTER_SLOTS):
        m = s.monsters[k]
        if m.state != ST.SLOT_ALIVE:
            continue
        size = MON.size_of(cfg, m)
        if not in_melee_reach(m.x, m.y, size, x, y, 1) and MON.sees_from(cfg, x, y, 1, m.x, m.y, size, cfg.gear_range):
            return True
    return False


@njit(cache=True)
def _distances(s, cfg, dist, queue):
    """``dist[x * GRID_H + y]``: walking steps from tile (x, y) to the nearest tile the weapon reaches a monster from
    (``_shot_from``; a breadth-first search over the cave's floor, core.collision steps), -1 where none is
    reachable."""
    h = A.GRID_H
    head, tail = 0, 0
    for x in range(A.GRID_W):
        for y in range(h):
            dist[x * h + y] = -1
            if CM.walkable(cfg.flags, x, y) and _shot_from(s, cfg, x, y):
                dist[x * h + y] = 0
                queue[tail] = x * h + y
                tail += 1
    while head < tail:
        i = queue[head]
        head += 1
        x, y = i // h, i % h
        for dx in range(-1, 2):
            for dy in range(-1, 2):
                if (dx != 0 or dy != 0) and can_step(cfg.flags, x, y, 1, dx, dy):
                    j = (x + dx) * h + y + dy
                    if dist[j] < 0:
                        dist[j] = dist[i] + 1
                        queue[tail] = j
                        tail += 1


@njit(cache=True)
def walk_toward(s, cfg, dist, queue):
    """A walk click on the tile within MOVE_RADIUS nearest (by walking) to one the weapon reaches a monster from, so
    rock between is walked around (``_distances``); MOVE_NONE when none is nearer than where the player stands."""
    _distances(s, cfg, dist, queue)
    px, py = np.int64(s.p.x), np.int64(s.p.y)
    best = dist[px * A.GRID_H + py]
    if best < 0:
        best = 1 << 30
    move = CM.MOVE_NONE
    for dx in range(-CM.MOVE_RADIUS, CM.MOVE_RADIUS + 1):
        for dy in range(-CM.MOVE_RADIUS, CM.MOVE_RADIUS + 1):
            x, y = px + dx, py + dy
            if CM.walkable(cfg.flags, x, y) and 0 <= dist[x * A.GRID_H + y] < best:
                best = dist[x * A.GRID_H + y]
                move = CM.move_option(dx, dy, False)
    return move


@njit(cache=True)
def decide(s, cfg, row, dist, queue):
    p = s.p
    for h in range(row.shape[0]):
        row[h] = 0
    # 1. overhead
    style = due_style(s, cfg)
    if style >= 0 and p.levels[PRAYER] > 0:
        row[ST.HEAD.overhead] = _OVERHEAD_OF[style]        # else none: the overhead goes off
    # 2. attack or walk, Rigour on the tick it shoots (off otherwise)
    k = pick_target(s, cfg)
    if k >= 0:
        row[ST.HEAD.attack] = ST.ATTACK_SLOT_0 + k
        if p.levels[PRAYER] > 0:
            row[ST.HEAD.offensive] = ST.OFFENSIVE.on
    else:
        if p.attack_timer <= 1 and s.dest_x < 0:
            row[ST.HEAD.move] = walk_toward(s, cfg, dist, queue)
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
    dist = np.empty(A.GRID_W * A.GRID_H, dtype=np.int32)
    queue = np.empty(A.GRID_W * A.GRID_H, dtype=np.int32)
    for i in range(states.shape[0]):
        decide(states[i], cfg, out[i], dist, queue)


def solver_actions(states, config, out) -> None:
    """Write every env's actions for this tick into ``out`` (int64 [num_envs, num_heads])."""
    _solve(states, config[0], out)

