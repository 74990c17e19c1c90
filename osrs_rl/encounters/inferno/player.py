"""The player's turn. Tick phase 1 (mechanics.tick), its clicks (core.player_input): a potion dose (brew or
restore, core.consumables), the gear switch (one of the loadout's three sets; no tick of its own), then the
overhead and the offensive prayer of the set now worn (Rigour, or Augury with the magic set). Phase 4, after
the monsters: a move click stores its destination; an attack in reach is made and ends the walk; else it walks
1 or runs 2 tiles along the game's route to the stored destination (core pathfinding's BFS on the standing
pillars' map, precomputed: cfg.route; core.click_move), then it attacks the monster it asked for with
the set it wears when its timer, range and line of sight allow, which also ends the walk (core.attack rolls;
the bow, the blowpipe and its special Toxic Siphon, or Ice Barrage on every monster in the 3x3 around the
target, each rolled alone; core.hit_delay + 1 since NPCs go first). Also the floor and routes core.click_move
walks on, and the attack checks the mask reads (``can_attack``, ``can_special``).
"""

import numpy as np
from numba import njit

from osrs_rl.core import click_move as CM
from osrs_rl.core import player_input as PI
from osrs_rl.core import wave_hits as WH
from osrs_rl.core.energy import use_spec
from osrs_rl.core.equipment import attack_speed
from osrs_rl.core.events import EV_ATTACK, EVF_SPECIAL, record_event
from osrs_rl.core.hit_delay import edge_distance, hit_delay
from osrs_rl.core.hooks import implements
from osrs_rl.core.movement import overlaps
from osrs_rl.core.pending_hits import FLAG_SPECIAL, STYLE_MAGIC
from osrs_rl.core.specials import SP_COST, SP_HEAL_DEN, SP_HEAL_NUM

from . import monsters as MON
from . import pillars as PIL
from . import state as ST

# the prayer each overhead option sets, by the option's name ("off" sets none: set_overhead clears them)
_OVERHEAD_PRAYER = PI.overhead_clicks(ST.OVERHEAD)   # the prayer each overhead option clicks on; keep: none


# ---- clicks: potions, gear, prayers ------------------------------------------------------------------
@njit(cache=True)
def inputs(s, cfg, a):
    p = s.p
    PI.drink_option(p, s.supplies, s.supplies_used, a[ST.HEAD.drink], ST.DRINK_SUPPLY_0, cfg.supply_consumable,
                    cfg.consumables)
    switch_gear(s, cfg, a[ST.HEAD.gear])
    PI.click_overhead(p, a[ST.HEAD.overhead], _OVERHEAD_PRAYER)
    if a[ST.HEAD.offensive] == ST.OFFENSIVE.on:
        PI.set_offensive(p, cfg.offensive, cfg.set_offensive[s.gear_set])
    elif a[ST.HEAD.offensive] == ST.OFFENSIVE.off:
        PI.clear_prayers(p, cfg.offensive)


@njit(cache=True)
def switch_gear(s, cfg, gear):
    """Put on set ``gear - GEAR_SET_0`` (GEAR.keep: none). Equipping takes no tick of its own, and an attack in the same
    tick is the new weapon's, with its speed and range [M: Henke's model of the tick (runescapeguides.com "A
    Guide For Tick Manipulation Mechanics"): every player's client input (the equip clicks) is processed
    before the NPCs' and players' turns, so the attack in the player's turn uses what is worn by then;
    runedocs "queue": "combat delay is that of the last weapon attacked with", so a switch does not reset the
    attack timer]. The offensive prayer stays as it was (the ``offensive`` head turns on the new set's)."""
    if gear == ST.GEAR.keep or gear < ST.GEAR_SET_0 or gear >= ST.GEAR_SET_0 + ST.NUM_SETS \
            or gear - ST.GEAR_SET_0 == s.gear_set:
        return
    s.gear_set = gear - ST.GEAR_SET_0
    PI.wear(s.p, cfg.set_worn[s.gear_set])


# ---- moves: click-to-move (core.click_move) on the standing pillars' map -------------------------------
@implements(CM.floor, ST.STATE_DTYPE)
def floor(s, cfg):
    return PIL.arena_map(s, cfg)


@implements(CM.routes, ST.STATE_DTYPE)
def routes(s, cfg):
    """The route table of the standing pillars' map (cfg.route: core.pathfinding.first_steps_table, rsmod
    RouteFinding.kt order)."""
    return cfg.route[PIL.map_index(s)]


# ---- attacks -----------------------------------------------------------------------------------------
@njit(cache=True)
def can_attack(s, cfg, k):
    """Monster slot ``k`` is alive and the player reaches it now: attack timer ready, within the worn set's
    range (a spell's 10) with a clear line over the standing pillars. The shield cannot be attacked (IT
    ZukShield.canBeAttacked is false)."""
    if k < 0 or k >= ST.MONSTER_SLOTS or s.p.attack_timer > 0:
        return False
    m = s.monsters[k]
    if m.state != ST.SLOT_ALIVE or m.kind == ST.K_SHIELD or m.dig_left > 0:
        return False
    return PIL.sees(s, cfg, s.p.x, s.p.y, 1, m.x, m.y, MON.size_of(cfg, m),
                             cfg.set_range[s.gear_set])


@njit(cache=True)
def special_cost(cfg, s):
    """Energy the worn weapon's special costs (the blowpipe's 50 %); 0 when it has none."""
    return cfg.set_special[s.gear_set, SP_COST]


@njit(cache=True)
def can_special(s, cfg):
    """The worn weapon has a special and the energy for it (the spec head's mask)."""
    return PI.can_special(s.p, special_cost(cfg, s))


@njit(cache=True)
def _roll_on(s, cfg, c, sp, k, delay, flags, heal_pct, freeze, style):
    """One attack's rolls on monster slot ``k`` against its own defence, queued to land after ``delay``
    (core.wave_hits); returns its hitsplats."""
    return WH.roll_on_npc(s, c, cfg.kind_row[s.monsters[k].kind], sp, cfg.bolt_ctx, s.tick + delay, style,
                          ST.ENT_PLAYER, ST.HT_MONSTER + k, flags, heal_pct, freeze)


@njit(cache=True)
def in_barrage_area(s, cfg, k, j):
    """Monster ``j`` is one a barrage on slot ``k`` can hit: living, above ground, not the shield, its
    footprint overlapping the 3x3 centred on ``k``'s south-west tile (``_barrage_splash``)."""
    m, o = s.monsters[k], s.monsters[j]
    if o.state != ST.SLOT_ALIVE or o.dig_left > 0 or o.kind == ST.K_SHIELD:
        return False
    return overlaps(o.x, o.y, MON.size_of(cfg, o), m.x - 1, m.y - 1, 3)


@njit(cache=True)
def _barrage_splash(s, cfg, c, sp, k, delay, freeze):
    """Ice Barrage's area: every other living monster (not underground, not the shield) whose footprint
    overlaps the 3x3 centred on the target's south-west tile, in slot order, up to 9 monsters with the
    target; each rolls its own accuracy against its own defence, with the spell's max hit, and lands with the
    target's hit [spells.json: "Burst and Barrage spells hit up to 9 targets in a 3x3 area"; osrs-sdk
    BarrageSpell.cast: the 3x3 of offsets around the target's south-west tile (forceSWTile), up to 9;
    osrs-sdk matches only monsters whose south-west tile is in it, the brief's footprint overlap is used
    (APPROXIMATION: no source says which for monsters larger than one tile)]."""
    hit = 1
    for j in range(ST.MONSTER_SLOTS):
        if hit >= cfg.set_targets[s.gear_set]:
            break
        if j == k or not in_barrage_area(s, cfg, k, j):
            continue
        _roll_on(s, cfg, c, sp, j, delay, 0, 0, freeze, STYLE_MAGIC)
        s.barrage_hits += 1
        hit += 1


@njit(cache=True)
def attack(s, cfg, target, special=False):
    """The player's attack on monster slot target - ATTACK_SLOT_0 with the worn set, if possible now; ``special``: the
    worn weapon's special when it has one and the energy allows (the blowpipe's Toxic Siphon: its special
    row's rolls, 50 % energy, heals half the damage dealt when it lands [core.specials: specials.json "Toxic
    blowpipe", OSRS wiki "Toxic blowpipe"; osrs-sdk Blowpipe.specialAttack heals floor(damage / 2)]).
    Returns whether it attacked."""
    k = target - ST.ATTACK_SLOT_0
    if target == ST.ATTACK_NONE or not can_attack(s, cfg, k):
        return False
    m = s.monsters[k]
    g = s.gear_set
    PI.refresh_combat(s.combat, s.p, cfg.set_combat[g])
    c = s.combat[0]
    sp = cfg.set_row[g]
    flags = 0
    heal_pct = 0
    if special and can_special(s, cfg):
        sp = cfg.set_special[g]
        use_spec(s.p, sp[SP_COST])
        s.specs_used += 1
        flags = FLAG_SPECIAL
        heal_pct = sp[SP_HEAL_NUM] * 100 // sp[SP_HEAL_DEN]
    style = np.int64(cfg.set_style[g])
    freeze = np.int64(cfg.set_freeze[g])
    # a barrage's delay is measured to the target's south-west tile [OSRS wiki "Hit delay", wiki.illerai.com copy:
    # "barrage spells ... calculate distance from the player to an NPC's south-west tile"; osrs-sdk forceSWTile]
    size = 1 if style == STYLE_MAGIC else MON.size_of(cfg, m)
    d = edge_distance(s.p.x, s.p.y, 1, m.x, m.y, size)
    delay = hit_delay(cfg.set_proj[g], d, True)      # NPCs go first: +1 [OSRS wiki "Hit delay"]
    n = _roll_on(s, cfg, c, sp, k, delay, flags, heal_pct, freeze, style)
    if cfg.set_targets[g] > 1:
        _barrage_splash(s, cfg, c, sp, k, delay, freeze)
    record_event(s, EV_ATTACK, ST.ENT_PLAYER, ST.ENT_MONSTER + k, style, n,
                 EVF_SPECIAL if flags & FLAG_SPECIAL else 0, m.x, m.y)
    s.p.attack_timer = attack_speed(c)
    return True


@njit(cache=True)
def move_or_attack(s, cfg, mv, target, special=False):
    """One route a tick: the move head's click (if any) is stored first; then a target the player can shoot
    from where it stands is shot and the walk dropped (clicking a monster replaces the walk; with the target
    in range the player stops and fires); otherwise the player follows its route, and shoots if the step
    brought the target into reach (walking into range). An attack made ends the walk: the stored destination
    is cleared, since in the game a click on a monster replaces the walk click (one target at a time) and a
    later walk click replaces the attack (the model's heads click once each a tick). Returns the tiles moved
    [M-H: 2004Scape wiki "World Processing Cycle": one pathfinding request per tick, then movement, then
    interactions; osrs-sdk Player.movementStep/attackStep: the destination is the target]."""
    CM.click(s, cfg, mv)
    if target != ST.ATTACK_NONE and can_attack(s, cfg, target - ST.ATTACK_SLOT_0):
        attack(s, cfg, target, special)
        CM.clear_destination(s)
        return 0
    moved = CM.follow_route(s, cfg)
    if attack(s, cfg, target, special):
        CM.clear_destination(s)
    return moved
