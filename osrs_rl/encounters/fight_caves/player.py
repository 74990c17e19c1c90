"""The player's turn. Tick phase 1 (mechanics.tick), its clicks (core.player_input): a potion dose (a brew or a
super restore, core.consumables), the overhead, the offensive prayer (Rigour). Phase 4, after the monsters: a move
click stores its destination (core.click_move); an attack in reach is made and ends the walk; else the player walks
1 or runs 2 tiles along the game's route (cfg.route) and attacks if that brought the target into reach. An attack:
the kit's weapon on a monster in its range with a clear line over the cave's rock (lava lets sight pass: arena.py),
its rolls against that monster's row (core.wave_hits), landing after the weapon's hit delay + 1 tick since NPCs go
first [OSRS wiki "Hit delay"]. Also the floor and routes core.click_move walks on and the check the mask reads
(``can_attack``).
"""

import numpy as np
from numba import njit

from osrs_rl.core import click_move as CM
from osrs_rl.core import player_input as PI
from osrs_rl.core import wave_hits as WH
from osrs_rl.core.equipment import attack_speed
from osrs_rl.core.events import EV_ATTACK, record_event
from osrs_rl.core.hit_delay import edge_distance, hit_delay
from osrs_rl.core.hooks import implements
from osrs_rl.core.pending_hits import STYLE_RANGED

from . import monsters as MON
from . import state as ST

_OVERHEAD_PRAYER = PI.overhead_clicks(ST.OVERHEAD, keep="none")   # the overhead each option holds on


@njit(cache=True)
def inputs(s, cfg, a):
    """The tick's clicks: a dose, the overhead and the offensive prayer wanted this tick (the heads hold: an
    option is the prayer wanted, none turns it off), kept up by the 1-tick flick (core.prayer_drain: a prayer
    clicked off and on within a tick drains nothing)."""
    p = s.p
    PI.drink_option(p, s.supplies, s.supplies_used, a[ST.HEAD.drink], ST.DRINK_SUPPLY_0, cfg.supply_consumable,
                    cfg.consumables)
    PI.hold_overhead(p, a[ST.HEAD.overhead], _OVERHEAD_PRAYER)
    if a[ST.HEAD.offensive] == ST.OFFENSIVE.on:
        PI.set_offensive(p, cfg.offensive, cfg.offensive)
    else:
        PI.clear_prayers(p, cfg.offensive)
    PI.one_tick_flick(p)       # the prayers chosen are kept up by clicking them off and on within the tick: free


@implements(CM.floor, ST.STATE_DTYPE)
def floor(s, cfg):
    return cfg.flags


@implements(CM.routes, ST.STATE_DTYPE)
def routes(s, cfg):
    return cfg.route


@njit(cache=True)
def can_attack(s, cfg, k):
    """Monster slot ``k`` is alive and the player reaches it now: attack timer ready, within the weapon's range with
    a clear line (cfg.sight)."""
    if k < 0 or k >= ST.MONSTER_SLOTS or s.p.attack_timer > 0:
        return False
    m = s.monsters[k]
    if m.state != ST.SLOT_ALIVE:
        return False
    return MON.sees_from(cfg, s.p.x, s.p.y, 1, m.x, m.y, MON.size_of(cfg, m), cfg.gear_range)


@njit(cache=True)
def attack(s, cfg, target):
    """The player's attack on monster slot target - ATTACK_SLOT_0, if possible now; returns whether it attacked."""
    k = target - ST.ATTACK_SLOT_0
    if target == ST.ATTACK_NONE or not can_attack(s, cfg, k):
        return False
    m = s.monsters[k]
    PI.refresh_combat(s.combat, s.p, cfg.gear_combat)
    c = s.combat[0]
    d = edge_distance(s.p.x, s.p.y, 1, m.x, m.y, MON.size_of(cfg, m))
    delay = hit_delay(cfg.gear_proj, d, True)      # NPCs go first: +1 [OSRS wiki "Hit delay"]
    n = WH.roll_on_npc(s, c, cfg.kind_row[m.kind], cfg.gear_row, cfg.bolt_ctx, s.tick + delay, np.int64(STYLE_RANGED),
                       ST.ENT_PLAYER, ST.HT_MONSTER + k, 0, 0, 0)
    record_event(s, EV_ATTACK, ST.ENT_PLAYER, ST.ENT_MONSTER + k, STYLE_RANGED, n, 0, m.x, m.y)
    s.p.attack_timer = attack_speed(c)
    return True


@njit(cache=True)
def move_or_attack(s, cfg, mv, target):
    """One route a tick (the Inferno's rule, core.click_move): the click is stored first; a target in reach from
    where the player stands is shot and the walk dropped; otherwise the player follows its route and shoots if the
    step brought the target into reach, which also ends the walk. Returns the tiles moved [M-H: 2004Scape wiki
    "World Processing Cycle": pathfinding, then movement, then interactions]."""
    CM.click(s, cfg, mv)
    if target != ST.ATTACK_NONE and can_attack(s, cfg, target - ST.ATTACK_SLOT_0):
        attack(s, cfg, target)
        CM.clear_destination(s)
        return 0
    moved = CM.follow_route(s, cfg)
    if attack(s, cfg, target):
        CM.clear_destination(s)
    return moved
