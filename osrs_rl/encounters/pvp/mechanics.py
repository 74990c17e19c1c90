"""NH PvP: two players duel in an open arena; the kernels behind the ``pvp`` and ``pvp_selfplay`` specs.

Index (tick order; rules and sources in RULES.md beside this file, numbers in brackets):
  0. each player's input budget: at most 10 client packets a tick; the inputs of its action row
     are taken whole, in the order below, while they fit, and the rest are dropped [1.1];
  1. input of both players, before either turn [1.1, 1.5]: food -> potion -> karambwan
     (core.consumables), the gear switch, overhead and offensive prayers (the build's own, RULES
     4.5; the offensive one for the style just switched to), then Vengeance [2.1, 9.1]; all but
     Vengeance through the shared input phase, core.player_input;
  2. each player's turn in PID order (``first`` then the other) [1.1]:
     a. hits due on this player land: damage capped at its hitpoints, accurate ice barrages
        freeze it when it lands [5.3, 5.4], blood barrages heal the caster 25 % of the damage and
        the amulet of blood fury 30 % of a melee hit's (one hit in five) [6.2, 9.5], never above
        the caster's base hitpoints nor below its boosted ones; then Vengeance reflects 75 % onto
        the attacker (landing in the attacker's next turn; not from a hit that kills the caster)
        [9.1, 9.2, 9.6], Smite drains a quarter of the damage from the target's prayer [9.3], and
        Redemption heals a player left below 10 % [9.4];
     b. movement: walk 1 or run 2 tiles (a frozen player cannot move) [5.1, 5.7];
     c. an attack when the attack timer allows and the target is in reach [3.8, 3.9]: rolls from
        core.attack against the defender's live combat record; the defender's overhead at this
        moment removes 40 % of each hitsplat [4.1, 4.2]; hitsplats are queued with the published hit
        delays (core.hit_delay), +1 tick when the target's turn came first [3.4];
  3. end of tick: action timers, freeze and status, prayer drain (none under LMS rules [4.6]),
     special energy, stat restoration and boost decay, run energy, the Vengeance cooldown, and the
     PID reshuffle every 100-150 ticks (never under PvP Arena rules) [1.2, 1.3];
  4. deaths end the fight (terminated; both dead is a draw); ``max_ticks`` truncates it.
What the tick did goes into the state as it happens: each hit landing, each attack started and each
death in the event buffer (core.events; entity ids are the player indices), each player's reward
terms (state.REWARD_TERMS) in ``reward_terms`` where ``reward_for`` forms them (the runtime adds them up).

Approximations (see README.md): an open arena without obstacles, so a greedy step toward or away
from the opponent is the route the game's pathfinder would take; run energy drains as for a player
carrying 0 kg with 99 Agility (weight is not tracked); inputs past the tick's budget are dropped,
where the game would handle them in the next tick.
"""

import numpy as np
from numba import njit

from osrs_rl.core import bolts as B
from osrs_rl.core import player_input as PI
from osrs_rl.core import prayers as P
from osrs_rl.core import rng as R
from osrs_rl.core import styles as S
from osrs_rl.core.attack import rolls_vs_player, sample_hits
from osrs_rl.core.damage import pvp_protected
from osrs_rl.core.energy import tick_run_energy, tick_spec_regen, tick_stat_restore, use_spec
from osrs_rl.core.equipment import SLOT_NAMES, attack_speed
from osrs_rl.core.events import (
    ENTITY_NONE,
    EV_ATTACK,
    EV_DEATH,
    EV_HIT,
    EVF_ACCURATE,
    EVF_BLOCKED,
    EVF_KILLED,
    EVF_REFLECTED,
    EVF_SPECIAL,
    clear_events,
    record_event,
)
from osrs_rl.core.formula import NO_TRACE
from osrs_rl.core.hit_delay import hit_delay
from osrs_rl.core.movement import RUN_TILES, chebyshev_distance, in_melee_reach, overlaps
from osrs_rl.core.pending_hits import (
    FLAG_ACCURATE,
    FLAG_SPECIAL,
    HIT_FREE,
    STYLE_MAGIC,
    STYLE_MELEE,
    STYLE_RANGED,
    STYLE_TYPELESS,
    pop_due_for,
    push_hit,
)
from osrs_rl.core.player import heal_hitpoints, reset_player, tick_action_timers
from osrs_rl.core.player_input import has_prayer
from osrs_rl.core.player_input import overhead_style as overhead  # scripted.py and tests read it as M.overhead
from osrs_rl.core.prayer_drain import drain_prayer
from osrs_rl.core.skills import HITPOINTS, PRAYER, RANGED
from osrs_rl.core.specials import SP_COST
from osrs_rl.core.status import ICE_BARRAGE_FREEZE, apply_freeze, can_move, tick_status

from . import state as ST

BLOOD_HEAL_PCT = 25          # OSRS wiki "Blood spells": heals 25 % of the damage, up to the base hitpoints
BLOOD_FURY_CHANCE_NUM, BLOOD_FURY_CHANCE_DEN = 1, 5   # OSRS wiki "Amulet of blood fury": 20 % per melee hit
BLOOD_FURY_HEAL_PCT = 30     # ... heals 30 % of the damage dealt (RULES 9.5)
INPUTS_PER_TICK = 10         # user events the server handles per player and tick (RULES 1.1)
PVP_PROTECTED_FREEZE_HALVED = False  # RULES.md: the wiki names halving only for Tele Block [M]
_OVERHEAD_PRAYER = PI.overhead_clicks(ST.OVERHEAD)   # the prayer each overhead option clicks on; keep: none
FLAG_PROTECTED = 1 << 8      # encounter flag on a queued hit: the defender prayed against it when it was made
FLAG_REFLECTED = 1 << 9      # Vengeance damage: typeless, reflects nothing itself (RULES 9.1)
_SPAWN = (5, 9)               # starting x of the two players (same y): four tiles apart
VENGEANCE_COOLDOWN = 50      # ticks (30 s), RULES 9.1 (OSRS wiki "Vengeance")
VENGEANCE_REFLECT_PCT = 75
SMITE_DIVISOR = 4            # prayer drained = floor(damage / 4), RULES 9.3 (OSRS wiki "Smite")
REDEMPTION_BELOW_PCT = 10    # triggers below 10 % of max hitpoints, RULES 9.4 (OSRS wiki "Redemption")
REDEMPTION_HEAL_DIVISOR = 4  # heals floor(base Prayer / 4): 24 at 99
SPELL_RANGE = 10             # OSRS wiki "Attack range" (RULES 3.8)
PID_SHUFFLE_MIN, PID_SHUFFLE_SPREAD = 100, 51   # 100-150 ticks on normal worlds, RULES 1.2
RUN_WEIGHT_KG, AGILITY_LEVEL = 0, 99            # approximation: weight is not tracked
_NECK = SLOT_NAMES.index("neck")
# the inputs of an action row in the order a tick applies them and spends its input budget (RULES 1.1)
IN_FOOD, IN_POTION, IN_KARAMBWAN, IN_SWITCH, IN_OVERHEAD, IN_OFFENSIVE, IN_VENGEANCE, IN_MOVE, IN_ATTACK = range(9)
NUM_INPUTS = 9
_HEAD_OF_INPUT = (ST.H_FOOD, ST.H_POTION, ST.H_KARAMBWAN, ST.H_LOADOUT, ST.H_OVERHEAD, ST.H_OFFENSIVE,
                  ST.H_VENGEANCE, ST.H_MOVE, ST.H_ATTACK)


# ---- small helpers ---------------------------------------------------------------------------
@njit(cache=True)
def hit_style(attack_type):
    if attack_type == S.MAGIC:
        return STYLE_MAGIC
    if attack_type == S.RANGED:
        return STYLE_RANGED
    return STYLE_MELEE


@njit(cache=True)
def overhead_icon(p):
    """The overhead the opponent sees: 0 melee, 1 missiles, 2 magic (pending-hit styles), 3 smite,
    4 redemption, or -1."""
    style = overhead(p)
    if style >= 0:
        return style
    mask = np.uint32(p.active_prayers)
    if (mask >> np.uint32(P.SMITE)) & np.uint32(1):
        return 3
    if (mask >> np.uint32(P.REDEMPTION)) & np.uint32(1):
        return 4
    return -1


@njit(cache=True)
def set_attack_type(cfg, pl, set_index):
    """core.styles attack type of player record ``pl``'s gear set ``set_index`` (its own kit)."""
    return cfg.set_combat[pl.build, pl.kit, set_index].attack_type


@njit(cache=True)
def set_reach(cfg, pl, set_index):
    return cfg.set_range[pl.build, pl.kit, set_index]


@njit(cache=True)
def spec_cost(cfg, pl):
    return cfg.set_row[pl.build, pl.kit, ST.SET_SPEC, SP_COST]


@njit(cache=True)
def offensive_mask(cfg, build):
    """Every offensive prayer the build uses, as one mask."""
    return np.uint32(cfg.build_offensive[build, 0] | cfg.build_offensive[build, 1] | cfg.build_offensive[build, 2])


@njit(cache=True)
def refresh_combat(pl, cfg):
    """The player's live combat record (core.player_input) from the set it wears."""
    PI.refresh_combat(pl.combat, pl.p, cfg.set_combat[pl.build, pl.kit, pl.set])


@njit(cache=True)
def distance(s):
    a, b = s.players[0].p, s.players[1].p
    return chebyshev_distance(a.x, a.y, 1, b.x, b.y, 1)


@njit(cache=True)
def spell_reach(s, me):
    a, b = s.players[me].p, s.players[1 - me].p
    if overlaps(a.x, a.y, 1, b.x, b.y, 1):
        return False
    return chebyshev_distance(a.x, a.y, 1, b.x, b.y, 1) <= SPELL_RANGE


@njit(cache=True)
def attack_reach(s, cfg, me, set_index):
    a, b = s.players[me].p, s.players[1 - me].p
    if overlaps(a.x, a.y, 1, b.x, b.y, 1):
        return False
    reach = set_reach(cfg, s.players[me], set_index)
    if reach <= 1:
        return in_melee_reach(a.x, a.y, 1, b.x, b.y, 1)
    return chebyshev_distance(a.x, a.y, 1, b.x, b.y, 1) <= reach


# ---- reset -------------------------------------------------------------------------------------
@njit(cache=True)
def _reset_player(pl, cfg, build, kit, index):
    p = pl.p
    reset_player(p, cfg.build_levels[build], _SPAWN[index], 7)     # NH players run (RULES 5.7)
    pl.build = build
    pl.kit = kit
    pl.set = ST.SET_MAGE if index == 0 else ST.SET_RANGED
    for k in range(ST.NUM_SUPPLIES):
        pl.supplies[k] = cfg.build_supplies[build, k]
    PI.wear(p, cfg.set_worn[build, kit, pl.set])
    pl.last_attack_style = -1
    pl.last_attack_tick = -1
    pl.last_vengeance_tick = -1
    refresh_combat(pl, cfg)


@njit(cache=True)
def reset(s, cfg, seed):
    """The runtime hands reset a zeroed record but the carried ``next_opponent_*`` (set_opponents' choice): no
    hits in flight, no vengeance, no outcome, every tally 0; set what starts non-zero."""
    R.seed_rng(s.rng, seed, 0)
    build = cfg.build if cfg.build >= 0 else R.below(s.rng, cfg.num_builds)
    for i in range(2):
        kit = R.below(s.rng, cfg.num_kits[build]) if cfg.gear_variants else 0
        _reset_player(s.players[i], cfg, build, kit, i)
    s.first = R.below(s.rng, 2)
    shuffle = cfg.build_pid_shuffle[build] if cfg.pid_shuffle < 0 else cfg.pid_shuffle
    s.pid_timer = PID_SHUFFLE_MIN + R.below(s.rng, PID_SHUFFLE_SPREAD) if shuffle else -1
    _choose_opponent(s, cfg)


@njit(cache=True)
def _choose_opponent(s, cfg):
    """Who drives player 1 this episode: ``set_opponents``' choice, else the config's tier."""
    kind, index = s.next_opponent_kind - 1, s.next_opponent_index
    if s.next_opponent_kind == ST.NEXT_FROM_CONFIG:
        if cfg.opponent_tier == -2:
            kind, index = ST.OPPONENT_POLICY, 0
        else:
            kind = ST.OPPONENT_SCRIPTED
            index = cfg.opponent_tier if cfg.opponent_tier >= 0 else R.below(s.rng, ST.NUM_TIERS)
    s.opponent_kind = kind
    s.opponent_tier = index if kind == ST.OPPONENT_SCRIPTED else -1
    s.opponent_slot = index if kind == ST.OPPONENT_POLICY else -1


# ---- phase 1: landing hits ---------------------------------------------------------------------
@njit(cache=True)
def land_hits(s, cfg, target_index):
    """Land the hits due on ``target_index`` (its turn's queue step, RULES 1.1)."""
    n = pop_due_for(s.hits, s.tick, target_index, s.landing)
    for k in range(n):
        h = s.hits[s.landing[k]]
        attacker, target = s.players[h.attacker], s.players[h.target]
        if target.p.levels[HITPOINTS] <= 0:
            continue                        # already dead this tick: death is queued (RULES 2.3)
        damage = min(np.int64(h.damage), np.int64(max(target.p.levels[HITPOINTS], 0)))
        reflected = (h.flags & FLAG_REFLECTED) != 0
        if (h.flags & FLAG_ACCURATE) and not (h.flags & FLAG_PROTECTED) and damage > 0 and not reflected:
            attacker.off_prayer_hits_landed += 1
        target.p.levels[HITPOINTS] -= damage
        target.damage_taken += damage
        attacker.damage_dealt += damage
        _record_hit(s, h, damage)
        if reflected:
            attacker.vengeance_damage += damage
            continue
        _on_hit_effects(s, h, attacker, target, damage)
        if h.heal_pct > 0:
            # blood spells heal from the damage the spell rolled, even past the target's last
            # hitpoints (OSRS wiki "Blood spells"); blood fury from the damage dealt
            healed_from = h.damage if h.style == STYLE_MAGIC else damage
            heal_hitpoints(attacker.p, healed_from * h.heal_pct // 100)
        if h.freeze_ticks > 0 and (h.flags & FLAG_ACCURATE):
            protected = (h.flags & FLAG_PROTECTED) != 0
            if apply_freeze(target.p, h.freeze_ticks, protected and PVP_PROTECTED_FREEZE_HALVED):
                attacker.freezes_landed += 1
    for k in range(n):
        s.hits[s.landing[k]].state = HIT_FREE


@njit(cache=True)
def _record_hit(s, h, damage):
    """The landed hit ``h`` as an event: its attacker, target, style, the damage dealt and its flags."""
    flags = 0
    if h.flags & FLAG_ACCURATE:
        flags |= EVF_ACCURATE
    if h.flags & FLAG_PROTECTED:
        flags |= EVF_BLOCKED
    if h.flags & FLAG_SPECIAL:
        flags |= EVF_SPECIAL
    if h.flags & FLAG_REFLECTED:
        flags |= EVF_REFLECTED
    p = s.players[h.target].p
    record_event(s, EV_HIT, h.attacker, h.target, h.style, damage, flags, p.x, p.y)


@njit(cache=True)
def _on_hit_effects(s, h, attacker, target, damage):
    """Vengeance, Smite and Redemption after a hit from a player landed (RULES 9.1-9.4)."""
    # Vengeance: the next hit that deals damage reflects 75 %, at least 1, and uses it up; the
    # reflection is queued on the attacker now and lands in its next turn (later this tick if its
    # turn is still to come). A hit that kills the caster reflects nothing, whoever has PID (RULES 9.6)
    reflect = max(1, damage * VENGEANCE_REFLECT_PCT // 100)
    if target.vengeance and damage > 0 and target.p.levels[HITPOINTS] > 0:
        target.vengeance = 0
        push_hit(s.hits, s.tick, reflect, STYLE_TYPELESS, h.target, h.attacker,
                 FLAG_ACCURATE | FLAG_REFLECTED, 0, 0)
    if damage > 0 and has_prayer(attacker.p, P.SMITE):
        target.p.levels[PRAYER] = max(0, target.p.levels[PRAYER] - damage // SMITE_DIVISOR)
        if target.p.levels[PRAYER] == 0:
            target.p.active_prayers = 0
    hp, most = target.p.levels[HITPOINTS], target.p.base_levels[HITPOINTS]
    if hp > 0 and hp * 100 < most * REDEMPTION_BELOW_PCT and has_prayer(target.p, P.REDEMPTION):
        target.p.levels[HITPOINTS] = hp + target.p.base_levels[PRAYER] // REDEMPTION_HEAL_DIVISOR
        target.p.levels[PRAYER] = 0
        target.p.active_prayers = 0


# ---- phase 2: one player's inputs --------------------------------------------------------------
@njit(cache=True)
def _switch(s, cfg, me, loadout):
    pl = s.players[me]
    if loadout == ST.LOADOUT_KEEP:
        return
    pl.set = loadout - ST.LOADOUT_SET_0
    PI.wear(pl.p, cfg.set_worn[pl.build, pl.kit, pl.set])


@njit(cache=True)
def _prayers(s, cfg, me, over, offensive):
    pl = s.players[me]
    if ST.OVERHEAD_KEEP < over < len(_OVERHEAD_PRAYER):
        PI.set_overhead(pl.p, _OVERHEAD_PRAYER[over])
    if offensive == ST.OFFENSIVE_ON:
        style = hit_style(set_attack_type(cfg, pl, pl.set))
        PI.set_offensive(pl.p, offensive_mask(cfg, pl.build), cfg.build_offensive[pl.build, style])
    elif offensive == ST.OFFENSIVE_OFF:
        PI.clear_prayers(pl.p, offensive_mask(cfg, pl.build))


@njit(cache=True)
def _consume(s, cfg, me, food, karambwan, potion):
    """Food, then a potion dose, then a karambwan: the one same-tick combo (core.consumables)."""
    pl = s.players[me]
    ids = cfg.supply_consumable
    if food != ST.FOOD.no and PI.use_supply(pl.p, pl.supplies, ST.SUP_FOOD, ids[pl.build, ST.SUP_FOOD],
                                            cfg.consumables):
        pl.food_used += 1
    if potion != ST.POTION_NONE:
        slot = ST.SUP_BREW if potion == ST.POTION_BREW else (
            ST.SUP_RESTORE if potion == ST.POTION_RESTORE else _boost_slot(s, cfg, me))
        if PI.use_supply(pl.p, pl.supplies, slot, ids[pl.build, slot], cfg.consumables) and slot == ST.SUP_BREW:
            pl.brews_used += 1
    if karambwan != ST.KARAMBWAN.no and PI.use_supply(pl.p, pl.supplies, ST.SUP_KARAMBWAN,
                                                      ids[pl.build, ST.SUP_KARAMBWAN], cfg.consumables):
        pl.food_used += 1


@njit(cache=True)
def _boost_slot(s, cfg, me):
    """The boosting potion that fits the current set: ranging for ranged, combat otherwise."""
    pl = s.players[me]
    return ST.SUP_RANGING if set_attack_type(cfg, pl, pl.set) == S.RANGED else ST.SUP_COMBAT


@njit(cache=True)
def _inside(v):
    return min(ST.ARENA, max(1, v))


@njit(cache=True)
def _toward_step(x, y, ox, oy):
    """One step from (x, y) toward melee reach of (ox, oy): close the larger gap first, as a
    diagonal neighbour cannot be hit in melee (RULES 5.8). Returns the new tile."""
    dx, dy = np.sign(ox - x), np.sign(oy - y)
    if x == ox and y == oy:                 # under the opponent: step out, west first
        return (x - 1, y) if x > 1 else (x + 1, y)
    if abs(ox - x) >= abs(oy - y):
        return x + dx, y + (dy if abs(ox - x) > 1 else 0)
    return x + (dx if abs(oy - y) > 1 else 0), y + dy


@njit(cache=True)
def _away_step(x, y, ox, oy):
    dx = np.sign(x - ox) if x != ox else (1 if x < ST.ARENA else -1)
    dy = np.sign(y - oy)
    nx, ny = _inside(x + dx), _inside(y + dy)
    if nx == x and ny == y:                 # cornered on both axes: slide along the wall
        ny = _inside(y + (1 if y < ST.ARENA else -1))
    return nx, ny


@njit(cache=True)
def _diagonal_step(x, y, ox, oy):
    """One step toward the tile diagonal to (ox, oy) on the mover's side (never onto the opponent)."""
    tx = ox + (1 if x > ox else -1)
    ty = oy + (1 if y > oy else -1)
    if tx < 1 or tx > ST.ARENA:
        tx = 2 * ox - tx
    if ty < 1 or ty > ST.ARENA:
        ty = 2 * oy - ty
    nx, ny = x + np.sign(tx - x), y + np.sign(ty - y)
    if nx == ox and ny == oy:               # the straight line crosses the opponent: go round it
        nx = x
    return nx, ny


@njit(cache=True)
def _move(s, cfg, me, move):
    """Walk or run (2 tiles with run on and energy, RULES 5.7) as ``move`` asks; returns the tiles moved."""
    pl = s.players[me]
    me_p, other = pl.p, s.players[1 - me].p
    if move == ST.MOVE_STAY or not can_move(me_p):
        return 0
    if move == ST.MOVE_UNDER:
        # only a frozen opponent can be stepped under, from next to it (RULES 5.9)
        if other.freeze_ticks > 0 and chebyshev_distance(me_p.x, me_p.y, 1, other.x, other.y, 1) <= 1:
            me_p.x, me_p.y = other.x, other.y
            return 1
        return 0
    tiles = RUN_TILES if me_p.running else 1
    moved = 0
    reach = set_reach(cfg, pl, pl.set)
    for _ in range(tiles):
        x, y, ox, oy = me_p.x, me_p.y, other.x, other.y
        d = chebyshev_distance(x, y, 1, ox, oy, 1)
        if move == ST.MOVE_TOWARD:
            if in_melee_reach(x, y, 1, ox, oy, 1):
                break
            nx, ny = _toward_step(x, y, ox, oy)
        elif move == ST.MOVE_AWAY:
            nx, ny = _away_step(x, y, ox, oy)
        elif move == ST.MOVE_DIAGONAL:
            if abs(x - ox) == 1 and abs(y - oy) == 1:
                break
            nx, ny = _diagonal_step(x, y, ox, oy)
        else:                               # farcast: out of melee reach, inside the weapon's range
            if d >= 2 and d <= reach:
                break
            if d < 2:
                nx, ny = _away_step(x, y, ox, oy)
            else:
                nx, ny = _toward_step(x, y, ox, oy)
        nx, ny = _inside(nx), _inside(ny)
        if (nx == ox and ny == oy) or (nx == x and ny == y):
            break
        me_p.x, me_p.y = nx, ny
        moved += 1
    return moved


@njit(cache=True)
def can_attack(s, cfg, me, kind):
    """Is attack ``kind`` (ST.ATTACK_*) possible for player ``me`` now?"""
    pl = s.players[me]
    if kind == ST.ATTACK_NONE:
        return True
    if pl.p.attack_timer > 0:
        return False
    if kind == ST.ATTACK_ICE or kind == ST.ATTACK_BLOOD:
        # a manual cast needs the spellbook, not a staff: any gear casts (RULES 6.3, 6.7)
        return cfg.build_ancients[pl.build] != 0 and spell_reach(s, me)
    if not attack_reach(s, cfg, me, pl.set):
        return False
    if pl.set == ST.SET_SPEC:
        return PI.can_special(pl.p, spec_cost(cfg, pl))
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
    spell = kind == ST.ATTACK_ICE or kind == ST.ATTACK_BLOOD or (kind == ST.ATTACK_WEAPON and magic_set)
    gear_set = pl.set           # whose attack row, projectile and bolt context apply
    freeze = 0
    heal_pct = 0
    if spell:
        # a staff set autocasts ice on "weapon"; any other set casts by hand with its own bonuses
        blood = kind == ST.ATTACK_BLOOD
        c.spell = cfg.blood_spell if blood else cfg.ice_spell
        c.spell_max = cfg.blood_max if blood else cfg.ice_max
        freeze = 0 if blood else ICE_BARRAGE_FREEZE
        heal_pct = BLOOD_HEAL_PCT if blood else 0
        if not magic_set:
            c.attack_type = S.MAGIC
            c.stance = S.MANUAL_CAST
            gear_set = ST.SET_MAGE
    row = cfg.set_row[pl.build, pl.kit, pl.set] if gear_set == pl.set else cfg.plain_row[0]
    flags = 0
    if pl.set == ST.SET_SPEC and not spell:
        use_spec(pl.p, row[SP_COST])
        pl.specs_used += 1
        flags |= FLAG_SPECIAL
    att, dfn, mn, mx = rolls_vs_player(NO_TRACE, c, foe.combat[0], row)
    for k in range(B.CTX_LEN):
        pl.bolt_ctx[k] = cfg.set_bolt_ctx[pl.build, pl.kit, gear_set, k]
    pl.bolt_ctx[B.CTX_RANGED] = pl.p.levels[RANGED]
    B.set_bolt_hp(pl.bolt_ctx, foe.p.levels[HITPOINTS], pl.p.levels[HITPOINTS])
    n = sample_hits(s.rng, att, dfn, mn, mx, row, pl.bolt_ctx, 0, out)
    style = hit_style(c.attack_type)
    protected = overhead(foe.p) == style          # read when the attack is made (RULES 4.2)
    if protected:
        flags |= FLAG_PROTECTED
    delay = hit_delay(cfg.set_proj[pl.build, pl.kit, gear_set], distance(s), target_first)
    fury = style == STYLE_MELEE and pl.p.equipment[_NECK] == cfg.blood_fury_item
    for k in range(n):
        # an accurate hit deals at least 1 (core.damage), so damage > 0 marks the accurate ones
        damage = pvp_protected(NO_TRACE, out[k]) if protected else out[k]
        pct = heal_pct
        if fury and damage > 0 and R.chance(s.rng, BLOOD_FURY_CHANCE_NUM, BLOOD_FURY_CHANCE_DEN):
            pct = BLOOD_FURY_HEAL_PCT           # rolled with the hit, healed when it lands
        push_hit(s.hits, s.tick + delay, damage, style, me, 1 - me,
                 flags | (FLAG_ACCURATE if out[k] > 0 else 0), pct, freeze)
    pl.p.attack_timer = attack_speed(c)
    pl.last_attack_style = style
    pl.last_attack_tick = s.tick
    special = EVF_SPECIAL if flags & FLAG_SPECIAL else 0
    record_event(s, EV_ATTACK, me, 1 - me, style, n, special, pl.p.x, pl.p.y)   # amount: its hitsplats


@njit(cache=True)
def _bits(mask):
    n = 0
    m = np.uint32(mask)
    while m:
        m &= m - np.uint32(1)
        n += 1
    return n


# The helpers take options, not the action row: passing the row array to them measured slower.
@njit(cache=True)
def _new_set(pl, loadout):
    return pl.set if loadout == ST.LOADOUT_KEEP else loadout - ST.LOADOUT_SET_0


@njit(cache=True)
def _offensive_clicks(cfg, pl, offensive, new_set):
    if offensive == ST.OFFENSIVE_KEEP:
        return 0
    active = np.uint32(pl.p.active_prayers) & offensive_mask(cfg, pl.build)
    if offensive == ST.OFFENSIVE_ON:
        style = hit_style(set_attack_type(cfg, pl, new_set))
        return _bits(np.uint32(cfg.build_offensive[pl.build, style]) & ~active)
    return _bits(active)


@njit(cache=True)
def _attack_clicks(attack, new_set):
    if attack == ST.ATTACK_NONE:
        return 0
    return 2 if attack == ST.ATTACK_WEAPON and new_set == ST.SET_SPEC else 1


@njit(cache=True)
def _cost(which, option, switch, offensive, attack):
    """Packets of input ``which`` given its head's option and the three costs that need the state."""
    if which == IN_SWITCH:
        return switch
    if which == IN_OFFENSIVE:
        return offensive
    if which == IN_ATTACK:
        return attack
    return 1 if option != 0 else 0          # food, a dose, a karambwan, a prayer, Vengeance, a walk


@njit(cache=True)
def input_clicks(s, cfg, me, a, which):
    """Client packets (user events) input ``which`` (IN_*) of player ``me``'s row ``a`` sends.

    One per item equipped or taken off (a two-handed weapon takes the shield off itself), per
    prayer toggled (one that clashes goes off by itself), per food, dose, walk or Vengeance click;
    an attack is a click on the opponent, a special one more on the special attack bar.
    """
    pl = s.players[me]
    new_set = _new_set(pl, a[ST.H_LOADOUT])
    return _cost(which, a[_HEAD_OF_INPUT[which]], cfg.set_switch_clicks[pl.build, pl.kit, pl.set, new_set],
                 _offensive_clicks(cfg, pl, a[ST.H_OFFENSIVE], new_set), _attack_clicks(a[ST.H_ATTACK], new_set))


@njit(cache=True)
def accepted_inputs(s, cfg, me, a):
    """How many of the row's inputs, in IN_* order, fit into this tick's INPUTS_PER_TICK packets.

    The server handles at most 10 user events per player and tick and leaves the rest for later
    ticks (RULES 1.1). Here an input is whole or not at all (a half-done gear switch would be a
    set the tables do not hold): the first one that does not fit and every later one are dropped.
    """
    pl = s.players[me]
    new_set = _new_set(pl, a[ST.H_LOADOUT])
    switch = cfg.set_switch_clicks[pl.build, pl.kit, pl.set, new_set]
    offensive = _offensive_clicks(cfg, pl, a[ST.H_OFFENSIVE], new_set)
    attack = _attack_clicks(a[ST.H_ATTACK], new_set)
    total = 0                              # most rows fit: sum first, walk in order only if not
    for which in range(NUM_INPUTS):
        total += _cost(which, a[_HEAD_OF_INPUT[which]], switch, offensive, attack)
    if total <= INPUTS_PER_TICK:
        return NUM_INPUTS
    left = INPUTS_PER_TICK
    for which in range(NUM_INPUTS):
        n = _cost(which, a[_HEAD_OF_INPUT[which]], switch, offensive, attack)
        if n > left:
            return which
        left -= n
    return NUM_INPUTS


@njit(cache=True)
def inputs(s, cfg, me, a, accepted):
    """Phase 1 for player ``me``: what its clicks change before anyone's turn (the first
    ``accepted`` inputs of its row, in IN_* order)."""
    # RULES 2.1: supplies before the gear switch (so ``boost`` drinks for the set the player saw);
    # prayers after it, so ``offensive on`` picks the prayer of the style about to attack
    _consume(s, cfg, me, a[ST.H_FOOD] if accepted > IN_FOOD else ST.FOOD.no,
             a[ST.H_KARAMBWAN] if accepted > IN_KARAMBWAN else ST.KARAMBWAN.no,
             a[ST.H_POTION] if accepted > IN_POTION else ST.POTION_NONE)
    if accepted > IN_SWITCH:
        _switch(s, cfg, me, a[ST.H_LOADOUT])
    _prayers(s, cfg, me, a[ST.H_OVERHEAD] if accepted > IN_OVERHEAD else ST.OVERHEAD_KEEP,
             a[ST.H_OFFENSIVE] if accepted > IN_OFFENSIVE else ST.OFFENSIVE_KEEP)
    if accepted > IN_VENGEANCE and a[ST.H_VENGEANCE] != ST.VENGEANCE.no and can_cast_vengeance(s, cfg, me):
        pl = s.players[me]
        pl.vengeance = 1
        pl.vengeance_cooldown = VENGEANCE_COOLDOWN
        pl.last_vengeance_tick = s.tick


@njit(cache=True)
def can_cast_vengeance(s, cfg, me):
    pl = s.players[me]
    return cfg.build_vengeance[pl.build] != 0 and pl.vengeance == 0 and pl.vengeance_cooldown <= 0


@njit(cache=True)
def turn(s, cfg, me, a, accepted, target_first, out):
    """Phase 2 for player ``me``: its hits land, it moves, it attacks (as far as ``accepted``
    inputs of its row go)."""
    land_hits(s, cfg, me)
    if s.players[me].p.levels[HITPOINTS] <= 0:
        return
    moved = _move(s, cfg, me, a[ST.H_MOVE] if accepted > IN_MOVE else ST.MOVE_STAY)
    if not cfg.build_unlimited_run[s.players[me].build]:
        tick_run_energy(s.players[me].p, moved >= RUN_TILES, RUN_WEIGHT_KG, AGILITY_LEVEL)
    _attack(s, cfg, me, a[ST.H_ATTACK] if accepted > IN_ATTACK else ST.ATTACK_NONE, target_first, out)


# ---- phase 3 and 4 ---------------------------------------------------------------------------
@njit(cache=True)
def end_of_tick(s, cfg):
    for i in range(2):
        pl = s.players[i]
        tick_action_timers(pl.p)
        tick_status(pl.p)
        if not cfg.build_unlimited_prayer[pl.build]:
            drain_prayer(pl.p, cfg.set_prayer_bonus[pl.build, pl.kit, pl.set])
        tick_spec_regen(pl.p, False)
        tick_stat_restore(pl.p, False)
        if pl.vengeance_cooldown > 0:
            pl.vengeance_cooldown -= 1
    if s.pid_timer > 0:
        s.pid_timer -= 1
        if s.pid_timer == 0:                # PID reshuffle (RULES 1.2)
            s.first = R.below(s.rng, 2)
            s.pid_timer = PID_SHUFFLE_MIN + R.below(s.rng, PID_SHUFFLE_SPREAD)


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
    clear_events(s)                # the tick's events start empty (the runtime zeroes the reward terms)
    out = s.splats
    # both budgets from the state before anyone's input: a switch's cost depends on the set worn
    n0 = accepted_inputs(s, cfg, 0, a0)
    n1 = accepted_inputs(s, cfg, 1, a1)
    inputs(s, cfg, 0, a0, n0)
    inputs(s, cfg, 1, a1, n1)
    # PID: the first player's turn comes first; the second's hits on it land a tick later
    if s.first == 0:
        turn(s, cfg, 0, a0, n0, False, out)
        turn(s, cfg, 1, a1, n1, True, out)
    else:
        turn(s, cfg, 1, a1, n1, False, out)
        turn(s, cfg, 0, a0, n0, True, out)
    end_of_tick(s, cfg)
    s.outcome = outcome(s)
    for i in range(2):
        p = s.players[i].p
        if p.levels[HITPOINTS] <= 0:
            record_event(s, EV_DEATH, i, ENTITY_NONE, -1, 0, EVF_KILLED, p.x, p.y)
    terminated = s.outcome != ST.OUTCOME_NONE
    return terminated, (not terminated) and s.tick >= cfg.max_ticks


@njit(cache=True)
def reward_for(s, cfg, me, dealt_before, taken_before):
    """Player ``me``'s reward of the tick, each term added to ``reward_terms[me]`` (the runtime sums them)."""
    pl = s.players[me]
    s.reward_terms[me, ST.R_DAMAGE] += \
        cfg.damage_reward * ((pl.damage_dealt - dealt_before) - (pl.damage_taken - taken_before)) / 99.0
    o = s.outcome
    if o == ST.OUTCOME_DRAW:
        s.reward_terms[me, ST.R_OUTCOME] += cfg.draw_reward
    elif o != ST.OUTCOME_NONE:
        won = (o == ST.OUTCOME_WIN) == (me == 0)
        s.reward_terms[me, ST.R_OUTCOME] += cfg.win_reward if won else cfg.loss_reward


# the ``pvp`` spec's step: player 1 is the episode's scripted tier
@njit(cache=True)
def step_vs_scripted(s, cfg, actions):
    a0 = actions[0]
    dealt, taken = s.players[0].damage_dealt, s.players[0].damage_taken
    SC.scripted_actions(s, cfg, 1, s.opponent_tier, a0, s.opponent_mask, s.opponent_actions)
    terminated, truncated = tick(s, cfg, a0, s.opponent_actions)
    reward_for(s, cfg, 0, dealt, taken)
    return terminated, truncated


# the ``pvp_selfplay`` spec's step: player 1 is a second policy, or a scripted tier where set_opponents chose one
@njit(cache=True)
def step_selfplay(s, cfg, actions):
    d0, t0 = s.players[0].damage_dealt, s.players[0].damage_taken
    d1, t1 = s.players[1].damage_dealt, s.players[1].damage_taken
    if s.opponent_kind == ST.OPPONENT_SCRIPTED:     # this env's player 1 is a scripted tier
        SC.scripted_actions(s, cfg, 1, s.opponent_tier, actions[0], s.opponent_mask, s.opponent_actions)
        terminated, truncated = tick(s, cfg, actions[0], s.opponent_actions)
    else:
        terminated, truncated = tick(s, cfg, actions[0], actions[1])
    reward_for(s, cfg, 0, d0, t0)
    reward_for(s, cfg, 1, d1, t1)
    return terminated, truncated


# The scripted opponent plays by this module's rules and reads the view's mask (which reads this module),
# so it is imported last, as a module: whichever of the two is imported first, the other finds it complete
# enough, and the step kernels above look ``SC.scripted_actions`` up only when Numba compiles them.
from . import scripted as SC  # noqa: E402
