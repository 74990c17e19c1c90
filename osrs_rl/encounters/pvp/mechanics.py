"""NH PvP: two players duel in an open arena; the kernels behind the ``pvp`` and ``pvp_selfplay`` specs.

Index (tick order; rules and sources in RULES.md beside this file, numbers in brackets):
  1. input of both players, before either turn [1.1, 1.5]: gear switch, overhead and offensive
     prayers (the build's own, RULES 4.5), then food -> potion -> karambwan (core.consumables);
  2. each player's turn in PID order (``first`` then the other) [1.1]:
     a. hits due on this player land: damage capped at its hitpoints, accurate ice barrages
        freeze it when it lands [5.3, 5.4], blood barrages heal the caster 25 % of the damage;
     b. movement (a frozen player cannot move) [5.1];
     c. an attack when the attack timer allows and the target is in reach [3.8, 3.9]: rolls from
        core.attack against the defender's live combat record; the defender's overhead at this
        moment removes 40 % of each hitsplat [4.1, 4.2]; hitsplats are queued with the published hit
        delays (core.hit_delay), +1 tick when the target's turn came first [3.4];
  3. end of tick: action timers, freeze and status, prayer drain (none under LMS rules [4.6]),
     special energy, stat restoration and boost decay;
  4. deaths end the fight (terminated; both dead is a draw); ``max_ticks`` truncates it.

Approximations (v0, see README.md): an open arena without obstacles, players walk one tile a tick
(no running), a step toward the opponent is a straight chase step, not the BFS route; PID is drawn at
reset and never swaps; no vengeance, smite or redemption yet.
"""

import numpy as np
from numba import njit

from osrs_rl.core import bolts as B
from osrs_rl.core import prayers as P
from osrs_rl.core import rng as R
from osrs_rl.core import styles as S
from osrs_rl.core.attack import rolls_vs_player, sample_hits
from osrs_rl.core.consumables import drink_potion, eat_food
from osrs_rl.core.damage import pvp_protected
from osrs_rl.core.energy import tick_spec_regen, tick_stat_restore, use_spec
from osrs_rl.core.equipment import attack_speed
from osrs_rl.core.formula import NO_TRACE
from osrs_rl.core.hit_delay import hit_delay
from osrs_rl.core.movement import chebyshev_distance, in_melee_reach, overlaps
from osrs_rl.core.pending_hits import (
    FLAG_ACCURATE,
    FLAG_SPECIAL,
    HIT_FREE,
    STYLE_MAGIC,
    STYLE_MELEE,
    STYLE_RANGED,
    clear_queue,
    pop_due_for,
    push_hit,
)
from osrs_rl.core.player import tick_action_timers
from osrs_rl.core.prayer_drain import drain_prayer
from osrs_rl.core.skills import HITPOINTS, NUM_SKILLS, PRAYER, RANGED
from osrs_rl.core.specials import SP_COST
from osrs_rl.core.status import ICE_BARRAGE_FREEZE, apply_freeze, can_move, tick_status
from osrs_rl.encounters.pvp import state as ST

BLOOD_HEAL_PCT = 25          # OSRS wiki "Blood Barrage": heals 25 % of the damage dealt
PVP_PROTECTED_FREEZE_HALVED = False  # RULES.md: the wiki names halving only for Tele Block [M]
_OVERHEAD_OF_STYLE = (P.PROTECT_FROM_MELEE, P.PROTECT_FROM_MISSILES, P.PROTECT_FROM_MAGIC)
FLAG_PROTECTED = 1 << 8      # encounter flag on a queued hit: the defender prayed against it when it was made
_SPAWN = (5, 9)               # starting x of the two players (same y): four tiles apart


# ---- small helpers ---------------------------------------------------------------------------
@njit(cache=True)
def hit_style(attack_type):
    if attack_type == S.MAGIC:
        return STYLE_MAGIC
    if attack_type == S.RANGED:
        return STYLE_RANGED
    return STYLE_MELEE


@njit(cache=True)
def overhead(p):
    """The pending-hit style the player's overhead protects against, or -1."""
    mask = np.uint32(p.active_prayers)
    for style in range(3):
        if (mask >> np.uint32(_OVERHEAD_OF_STYLE[style])) & np.uint32(1):
            return style
    return -1


@njit(cache=True)
def _set_prayer(p, prayer, on, group_mask):
    """Switch ``prayer`` on (turning off the others of its group) or off."""
    mask = np.uint32(p.active_prayers) & ~np.uint32(group_mask)
    if on and p.levels[PRAYER] > 0:
        mask |= np.uint32(1) << np.uint32(prayer)
    p.active_prayers = mask


@njit(cache=True)
def offensive_mask(cfg, build):
    """Every offensive prayer the build uses, as one mask."""
    return np.uint32(cfg.build_offensive[build, 0] | cfg.build_offensive[build, 1] | cfg.build_offensive[build, 2])


@njit(cache=True)
def refresh_combat(pl, cfg):
    """The player's live combat record: its set's, with current levels and prayers."""
    pl.combat[0] = cfg.set_combat[pl.build, pl.set]
    c = pl.combat[0]
    for k in range(NUM_SKILLS):
        c.levels[k] = pl.p.levels[k]
    c.prayers = pl.p.active_prayers


@njit(cache=True)
def distance(s):
    a, b = s.players[0].p, s.players[1].p
    return chebyshev_distance(a.x, a.y, 1, b.x, b.y, 1)


@njit(cache=True)
def attack_reach(s, cfg, me, set_index):
    a, b = s.players[me].p, s.players[1 - me].p
    if overlaps(a.x, a.y, 1, b.x, b.y, 1):
        return False
    reach = cfg.set_range[s.players[me].build, set_index]
    if reach <= 1:
        return in_melee_reach(a.x, a.y, 1, b.x, b.y, 1)
    return chebyshev_distance(a.x, a.y, 1, b.x, b.y, 1) <= reach


# ---- reset -------------------------------------------------------------------------------------
@njit(cache=True)
def _reset_player(pl, cfg, build, index):
    p = pl.p
    for k in range(NUM_SKILLS):
        p.base_levels[k] = cfg.build_levels[build, k]
        p.levels[k] = cfg.build_levels[build, k]
    p.active_prayers = 0
    p.prayer_drain_counter = 0
    p.spec_energy = 100
    p.spec_regen_timer = 0
    p.run_energy = 10000
    p.attack_timer = 0
    p.food_timer = 0
    p.potion_timer = 0
    p.karambwan_timer = 0
    p.freeze_ticks = 0
    p.freeze_immunity_ticks = 0
    p.poison_damage = 0
    p.venom = 0
    p.hp_regen_timer = 0
    p.stat_restore_timer = 0
    p.boost_decay_timer = 0
    p.x = _SPAWN[index]
    p.y = 7
    pl.build = build
    pl.set = ST.SET_MAGE if index == 0 else ST.SET_RANGED
    for k in range(ST.NUM_SUPPLIES):
        pl.supplies[k] = cfg.build_supplies[build, k]
    for k in range(11):
        p.equipment[k] = cfg.set_worn[build, pl.set, k]
    pl.last_attack_style = -1
    pl.last_attack_tick = -1
    pl.damage_dealt = 0
    pl.damage_taken = 0
    pl.off_prayer_hits_landed = 0
    pl.freezes_landed = 0
    pl.food_used = 0
    pl.brews_used = 0
    pl.specs_used = 0
    refresh_combat(pl, cfg)


@njit(cache=True)
def reset(s, cfg, seed):
    R.seed_rng(s.rng, seed, 0)
    s.tick = 0
    build = cfg.build if cfg.build >= 0 else R.below(s.rng, cfg.num_builds)
    for i in range(2):
        _reset_player(s.players[i], cfg, build, i)
    clear_queue(s.hits)
    s.first = R.below(s.rng, 2)
    s.opponent_tier = cfg.opponent_tier if cfg.opponent_tier >= 0 else R.below(s.rng, 10)
    s.outcome = ST.OUTCOME_NONE


# ---- phase 1: landing hits ---------------------------------------------------------------------
@njit(cache=True)
def land_hits(s, cfg, target_index):
    """Land the hits due on ``target_index`` (its turn's queue step, RULES 1.1)."""
    n = pop_due_for(s.hits, s.tick, target_index, s.landing)
    for k in range(n):
        h = s.hits[s.landing[k]]
        attacker, target = s.players[h.attacker], s.players[h.target]
        damage = min(np.int64(h.damage), np.int64(max(target.p.levels[HITPOINTS], 0)))
        if (h.flags & FLAG_ACCURATE) and not (h.flags & FLAG_PROTECTED) and damage > 0:
            attacker.off_prayer_hits_landed += 1
        target.p.levels[HITPOINTS] -= damage
        target.damage_taken += damage
        attacker.damage_dealt += damage
        if h.heal_pct > 0 and damage > 0:
            heal = (damage * h.heal_pct) // 100
            attacker.p.levels[HITPOINTS] = min(attacker.p.base_levels[HITPOINTS],
                                               attacker.p.levels[HITPOINTS] + heal)
        if h.freeze_ticks > 0 and (h.flags & FLAG_ACCURATE):
            protected = (h.flags & FLAG_PROTECTED) != 0
            if apply_freeze(target.p, h.freeze_ticks, protected and PVP_PROTECTED_FREEZE_HALVED):
                attacker.freezes_landed += 1
    for k in range(n):
        s.hits[s.landing[k]].state = HIT_FREE


# ---- phase 2: one player's inputs --------------------------------------------------------------
@njit(cache=True)
def _switch(s, cfg, me, loadout):
    pl = s.players[me]
    if loadout == ST.LOADOUT_KEEP:
        return
    new_set = loadout - 1
    pl.set = new_set
    for k in range(11):
        pl.p.equipment[k] = cfg.set_worn[pl.build, new_set, k]


@njit(cache=True)
def _prayers(s, cfg, me, over, offensive):
    p = s.players[me].p
    group = (1 << P.PROTECT_FROM_MAGIC) | (1 << P.PROTECT_FROM_MISSILES) | (1 << P.PROTECT_FROM_MELEE)
    if over == ST.OVERHEAD_MAGIC:
        _set_prayer(p, P.PROTECT_FROM_MAGIC, True, group)
    elif over == ST.OVERHEAD_MISSILES:
        _set_prayer(p, P.PROTECT_FROM_MISSILES, True, group)
    elif over == ST.OVERHEAD_MELEE:
        _set_prayer(p, P.PROTECT_FROM_MELEE, True, group)
    elif over == ST.OVERHEAD_OFF:
        _set_prayer(p, P.PROTECT_FROM_MELEE, False, group)
    build = s.players[me].build
    every = offensive_mask(cfg, build)
    if offensive == ST.OFFENSIVE_ON and p.levels[PRAYER] > 0:
        style = hit_style(cfg.set_combat[build, s.players[me].set].attack_type)
        wanted = np.uint32(cfg.build_offensive[build, style])
        p.active_prayers = (np.uint32(p.active_prayers) & ~every) | wanted
    elif offensive == ST.OFFENSIVE_OFF:
        p.active_prayers = np.uint32(p.active_prayers) & ~every


@njit(cache=True)
def _consume(s, cfg, me, food, karambwan, potion):
    """Food, then a potion dose, then a karambwan: the one same-tick combo (core.consumables)."""
    pl = s.players[me]
    if food and pl.supplies[ST.SUP_FOOD] > 0:
        if eat_food(pl.p, cfg.supply_consumable[pl.build, ST.SUP_FOOD], cfg.consumables):
            pl.supplies[ST.SUP_FOOD] -= 1
            pl.food_used += 1
    if potion != ST.POTION_NONE:
        slot = ST.SUP_BREW if potion == ST.POTION_BREW else (
            ST.SUP_RESTORE if potion == ST.POTION_RESTORE else _boost_slot(s, cfg, me))
        if pl.supplies[slot] > 0 and cfg.supply_consumable[pl.build, slot] >= 0:
            if drink_potion(pl.p, cfg.supply_consumable[pl.build, slot], cfg.consumables):
                pl.supplies[slot] -= 1
                if slot == ST.SUP_BREW:
                    pl.brews_used += 1
    if karambwan and pl.supplies[ST.SUP_KARAMBWAN] > 0:
        if eat_food(pl.p, cfg.supply_consumable[pl.build, ST.SUP_KARAMBWAN], cfg.consumables):
            pl.supplies[ST.SUP_KARAMBWAN] -= 1
            pl.food_used += 1


@njit(cache=True)
def _boost_slot(s, cfg, me):
    """The boosting potion that fits the current set: ranging for ranged, combat otherwise."""
    pl = s.players[me]
    return ST.SUP_RANGING if cfg.set_combat[pl.build, pl.set].attack_type == S.RANGED else ST.SUP_COMBAT


@njit(cache=True)
def _move(s, me, move):
    me_p, other = s.players[me].p, s.players[1 - me].p
    if move == ST.MOVE_STAY or not can_move(me_p):
        return
    if move == ST.MOVE_TOWARD:
        if in_melee_reach(me_p.x, me_p.y, 1, other.x, other.y, 1):
            return
        dx = np.sign(other.x - me_p.x)
        dy = np.sign(other.y - me_p.y)
        # a diagonal neighbour cannot be hit in melee: close the larger gap first
        if abs(other.x - me_p.x) >= abs(other.y - me_p.y):
            nx, ny = me_p.x + dx, me_p.y + (dy if abs(other.x - me_p.x) > 1 else 0)
        else:
            nx, ny = me_p.x + (dx if abs(other.y - me_p.y) > 1 else 0), me_p.y + dy
        if nx == other.x and ny == other.y:
            return
        me_p.x, me_p.y = nx, ny
    elif move == ST.MOVE_UNDER:
        # only a frozen opponent can be stepped under, from next to it (RULES.md)
        if other.freeze_ticks > 0 and chebyshev_distance(me_p.x, me_p.y, 1, other.x, other.y, 1) <= 1:
            me_p.x, me_p.y = other.x, other.y
    else:
        dx = np.sign(me_p.x - other.x) if me_p.x != other.x else 1
        dy = np.sign(me_p.y - other.y)
        me_p.x = min(ST.ARENA, max(1, me_p.x + dx))
        me_p.y = min(ST.ARENA, max(1, me_p.y + dy))


@njit(cache=True)
def can_attack(s, cfg, me, kind):
    """Is attack ``kind`` (ST.ATTACK_*) possible for player ``me`` now?"""
    pl = s.players[me]
    if kind == ST.ATTACK_NONE:
        return True
    if pl.p.attack_timer > 0 or not attack_reach(s, cfg, me, pl.set):
        return False
    magic_set = cfg.set_combat[pl.build, pl.set].attack_type == S.MAGIC
    if kind == ST.ATTACK_ICE or kind == ST.ATTACK_BLOOD:
        return magic_set
    if pl.set == ST.SET_SPEC:
        return pl.p.spec_energy >= cfg.set_row[pl.build, ST.SET_SPEC, SP_COST]
    return True


@njit(cache=True)
def _attack(s, cfg, me, kind, target_first, out):
    if kind == ST.ATTACK_NONE or not can_attack(s, cfg, me, kind):
        return
    pl, foe = s.players[me], s.players[1 - me]
    refresh_combat(pl, cfg)
    refresh_combat(foe, cfg)
    c = pl.combat[0]
    magic_set = c.attack_type == S.MAGIC
    freeze = 0
    heal = 0
    if magic_set:
        blood = kind == ST.ATTACK_BLOOD
        c.spell = cfg.blood_spell if blood else cfg.ice_spell
        c.spell_max = cfg.blood_max if blood else cfg.ice_max
        freeze = 0 if blood else ICE_BARRAGE_FREEZE
        heal = BLOOD_HEAL_PCT if blood else 0
    row = cfg.set_row[pl.build, pl.set]
    flags = 0
    if pl.set == ST.SET_SPEC:
        use_spec(pl.p, row[SP_COST])
        pl.specs_used += 1
        flags |= FLAG_SPECIAL
    att, dfn, mn, mx = rolls_vs_player(NO_TRACE, c, foe.combat[0], row)
    for k in range(B.CTX_LEN):
        pl.bolt_ctx[k] = cfg.set_bolt_ctx[pl.build, pl.set, k]
    pl.bolt_ctx[B.CTX_RANGED] = pl.p.levels[RANGED]
    B.set_bolt_hp(pl.bolt_ctx, foe.p.levels[HITPOINTS], pl.p.levels[HITPOINTS])
    n = sample_hits(s.rng, att, dfn, mn, mx, row, pl.bolt_ctx, 0, out)
    style = hit_style(c.attack_type)
    protected = overhead(foe.p) == style          # read when the attack is made (RULES 4.2)
    if protected:
        flags |= FLAG_PROTECTED
    delay = hit_delay(cfg.set_proj[pl.build, pl.set], distance(s), target_first)
    for k in range(n):
        # an accurate hit deals at least 1 (core.damage), so damage > 0 marks the accurate ones
        damage = pvp_protected(NO_TRACE, out[k]) if protected else out[k]
        push_hit(s.hits, s.tick + delay, damage, style, me, 1 - me,
                 flags | (FLAG_ACCURATE if out[k] > 0 else 0), heal, freeze)
    pl.p.attack_timer = attack_speed(c)
    pl.last_attack_style = style
    pl.last_attack_tick = s.tick


@njit(cache=True)
def inputs(s, cfg, me, a):
    """Phase 1 for player ``me``: what its clicks change before anyone's turn."""
    _switch(s, cfg, me, a[ST.H_LOADOUT])
    _prayers(s, cfg, me, a[ST.H_OVERHEAD], a[ST.H_OFFENSIVE])
    _consume(s, cfg, me, a[ST.H_FOOD], a[ST.H_KARAMBWAN], a[ST.H_POTION])


@njit(cache=True)
def turn(s, cfg, me, a, target_first, out):
    """Phase 2 for player ``me``: its hits land, it moves, it attacks."""
    land_hits(s, cfg, me)
    if s.players[me].p.levels[HITPOINTS] <= 0:
        return
    _move(s, me, a[ST.H_MOVE])
    _attack(s, cfg, me, a[ST.H_ATTACK], target_first, out)


# ---- phase 3 and 4 ---------------------------------------------------------------------------
@njit(cache=True)
def end_of_tick(s, cfg):
    for i in range(2):
        pl = s.players[i]
        tick_action_timers(pl.p)
        tick_status(pl.p)
        if not cfg.build_unlimited_prayer[pl.build]:
            drain_prayer(pl.p, cfg.set_prayer_bonus[pl.build, pl.set])
        tick_spec_regen(pl.p, False)
        tick_stat_restore(pl.p, False)


@njit(cache=True)
def outcome(s):
    dead0 = s.players[0].p.levels[HITPOINTS] <= 0
    dead1 = s.players[1].p.levels[HITPOINTS] <= 0
    if dead0 and dead1:
        return ST.OUTCOME_DRAW
    if dead1:
        return ST.OUTCOME_WIN
    if dead0:
        return ST.OUTCOME_LOSS
    return ST.OUTCOME_NONE


@njit(cache=True)
def tick(s, cfg, a0, a1):
    """One game tick with both players' action rows; returns (terminated, truncated)."""
    s.tick += 1
    out = s.splats
    inputs(s, cfg, 0, a0)
    inputs(s, cfg, 1, a1)
    # PID: the first player's turn comes first; the second's hits on it land a tick later
    if s.first == 0:
        turn(s, cfg, 0, a0, False, out)
        turn(s, cfg, 1, a1, True, out)
    else:
        turn(s, cfg, 1, a1, False, out)
        turn(s, cfg, 0, a0, True, out)
    end_of_tick(s, cfg)
    s.outcome = outcome(s)
    terminated = s.outcome != ST.OUTCOME_NONE
    return terminated, (not terminated) and s.tick >= cfg.max_ticks


@njit(cache=True)
def reward_for(s, cfg, me, dealt_before, taken_before):
    pl = s.players[me]
    r = cfg.damage_reward * ((pl.damage_dealt - dealt_before) - (pl.damage_taken - taken_before)) / 99.0
    o = s.outcome
    if o == ST.OUTCOME_DRAW:
        return r + cfg.draw_reward
    won = (o == ST.OUTCOME_WIN) == (me == 0)
    if o != ST.OUTCOME_NONE:
        r += cfg.win_reward if won else cfg.loss_reward
    return r

