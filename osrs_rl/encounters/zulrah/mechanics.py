"""Zulrah: one player against the snake boss at its shrine; the kernels behind the ``zulrah`` spec.

Index (tick order; sources in README.md and rotations.py, tags as defined in docs/sources.md):
  1. the player's clicks (core.player_input): food -> potion (core.consumables), the gear switch,
     then overhead and offensive prayers (the offensive one of the set just worn);
  2. NPCs, before the player [OSRS wiki "Hit delay": NPCs are processed before players]:
     a. the player's hits due on Zulrah and on snakelings land (the hit cap, core.damage CAP_ZULRAH,
        was applied when they were rolled); those on Zulrah wait while it dives [OSRS wiki];
     b. snakelings: count down life and lock, step toward the player, attack when in reach
        (before Zulrah's action, so one spawned this tick starts its lock next tick);
     c. Zulrah does what its rotation's timeline says at this phase tick (rotations.py): a ranged or
        magic attack (the overhead is read now and blocks it fully [OSRS wiki "Protection prayers"]; a tanzanite shot is
        ranged with p = 3/10 [ZEN]), a volley of two venom clouds, a snakeling, or the magma stand's
        tile pick and slam (typeless, stun, no prayer) [ZEN MeleeSequence];
  3. the player: hits due on it land (an accurate one envenoms, prayed or not [OSRS wiki]), then it
     moves (walk 1 / run 2 tiles on the platform), then it attacks Zulrah or a snakeling when its
     timer, its reach and the target allow (core.attack rolls against the form's defence); with the
     spec head on, the attack is the worn weapon's special (core.specials rows, its energy spent only
     when the attack is made; the blowpipe's heals half the damage when it lands);
     venom clouds hurt a player within 1 tile of their centre, 1-4 a tick [ZEN];
  4. end of tick: the action timers (attack, food, potion) count down, venom and poison
     (core.status), prayer drain, stun, run energy, special energy, hitpoint and boost cycles, and Zulrah's clock
     (dive -> surfacing at the next spot as the next form);
  5. Zulrah at 0 hitpoints ends the fight as a kill, the player at 0 as a death (terminated);
     ``max_ticks`` truncates it.
What the tick did goes into the state as it happens: every hit landed (with the entity that threw it:
``hit_source`` keeps each queued hit's attacker, a snakeling by its slot), attacks started, spawns,
deaths, clouds and the slam's tile in the event buffer (core.events, entity ids ``state.ENT_*``), and
the reward by term (state.REWARD_TERMS) in ``reward_terms`` (the runtime sums them into the reward, and
over the episode into ``reward_sums``).

Approximations (README.md lists each with its reason): the knock-back follows ZEN alone; line of
sight is cast from the player's side both ways; a held attack holds the phase clock tick for tick;
hits over the dive land on Zulrah's first tick up; clouds hurt from the tick after the volley (no
projectile flight); Zulrah's projectiles land after the player formulas' delays (magic: spells,
ranged: bows) from its footprint; snakelings attack every 3 ticks (wiki speed; ZEN 4); a special
attack's hits land after the weapon's normal delay.
"""

import numpy as np
from numba import njit

from osrs_rl.core import player_input as PI
from osrs_rl.core import rng as R
from osrs_rl.core import styles as S
from osrs_rl.core.accuracy import npc_attack_roll, player_defence_roll, roll_accuracy
from osrs_rl.core.attack import rolls_vs_npc, sample_hits
from osrs_rl.core.collision import can_step
from osrs_rl.core.damage import CAP_NONE, roll_npc_damage
from osrs_rl.core.energy import (
    RUN_MIN_TO_RUN,
    tick_hitpoints,
    tick_run_energy,
    tick_spec_regen,
    tick_stat_restore,
    use_spec,
)
from osrs_rl.core.equipment import attack_speed
from osrs_rl.core.events import (
    ENTITY_NONE,
    EV_ATTACK,
    EV_DEATH,
    EV_HAZARD,
    EV_HIT,
    EV_SPAWN,
    EVF_BLOCKED,
    EVF_KILLED,
    EVF_SPECIAL,
    clear_events,
    record_event,
)
from osrs_rl.core.formula import NO_TRACE
from osrs_rl.core.hit_delay import bow_delay, edge_distance, hit_delay, magic_delay
from osrs_rl.core.hit_events import queue_tracked_hit, record_hit_landed
from osrs_rl.core.movement import chebyshev_distance, in_melee_reach, npc_chase_step, npc_unstack_step, overlaps
from osrs_rl.core.pending_hits import (
    FLAG_ACCURATE,
    FLAG_SPECIAL,
    FLAG_VENOM,
    HIT_FREE,
    HIT_PENDING,
    STYLE_MAGIC,
    STYLE_MELEE,
    STYLE_RANGED,
    STYLE_TYPELESS,
    count_pending_on,
    pop_due_for,
)
from osrs_rl.core.player import heal_hitpoints, reset_player, tick_action_timers
from osrs_rl.core.player_input import has_prayer as has_prayer  # view.py and the solver read M.has_prayer
from osrs_rl.core.player_input import protected_from
from osrs_rl.core.prayer_drain import drain_prayer
from osrs_rl.core.skills import HITPOINTS
from osrs_rl.core.specials import SP_COST, SP_HEAL_DEN, SP_HEAL_NUM
from osrs_rl.core.status import apply_venom, tick_status

from . import rotations as RT
from . import state as ST

ZULRAH_MAX_HIT = 41            # ranged and magic, every form [H: npcs.json max_hit_listed (wiki infobox); ZEN 41]
TANZANITE_RANGED = (3, 10)     # a tanzanite shot is ranged with p = 3/10 [M: ZEN]
STUN_TICKS = 5                 # magma slam [M: ZEN; PufferLib]
SLAM_MIN_HIT = 20              # magma slam 20..30 [M: OSRS wiki "Zulrah"]
KNOCK_BACK_REACH = RT.ZULRAH_SIZE + 4    # the slam's push aims this far from Zulrah's centre [M: ZEN]
ZULRAH_SIGHT = 32              # range of Zulrah's own attacks: the whole shrine (only the pillars stop them)
CLOUD_LIFE = 30                # ticks a cloud hurts [M: ZEN addCloud]
CLOUD_DAMAGE = (1, 4)          # per tick, unaffected by prayer [M: ZEN]
SNAKELING_LOCK = 3             # ticks after spawning [M: ZEN]
SNAKELING_LIFE = 67            # ticks before it self-destructs [M: ZEN]
SNAKELING_MAGIC = (1, 4)       # 1/4 magic variant (2046), else melee (2045) [M: ZEN]
SNAKELING_SPEED = 3            # attack speed [M: wiki export via npcs.json; ZEN uses 4]
SNAKELING_MAGIC_RANGE = 6      # [M: ZEN attack distance]
RUN_WEIGHT_KG, AGILITY_LEVEL = 0, 99     # approximation: weight is not tracked (as in pvp)
_SOURCE_OF_FORM = (ST.SRC_SERPENTINE, ST.SRC_MAGMA, ST.SRC_TANZANITE)


# ---- small helpers ---------------------------------------------------------------------------
@njit(cache=True)
def phase_ticks(s, cfg):
    """The whole cycle of this phase, rise to the next rise (rotations.py)."""
    return cfg.phase_ticks[s.rotation, s.phase]


@njit(cache=True)
def dive_tick(s, cfg):
    """The phase tick the dive starts: its last ``DIVE_TICKS`` (rotations.py)."""
    return cfg.phase_ticks[s.rotation, s.phase] - RT.DIVE_TICKS


@njit(cache=True)
def diving(s, cfg):
    return s.phase_tick >= dive_tick(s, cfg)


@njit(cache=True)
def rotation_of(s):
    """The rotation (0..3) of the timeline Zulrah follows (rotations.TIMELINES)."""
    return s.rotation % RT.NUM_ROTATIONS


@njit(cache=True)
def targetable_from(s):
    spawn = s.rotation < RT.NUM_ROTATIONS and s.phase == 0
    return RT.SPAWN_TARGETABLE_TICK if spawn else RT.TARGETABLE_TICK


@njit(cache=True)
def zulrah_targetable(s, cfg):
    """Risen for long enough and not diving [M: ZEN ZulrahNPC, DiveSequence; rotations.py timing]."""
    return s.z_hp > 0 and targetable_from(s) <= s.phase_tick < dive_tick(s, cfg)


@njit(cache=True)
def zulrah_distance(s):
    return edge_distance(s.p.x, s.p.y, 1, s.zx, s.zy, RT.ZULRAH_SIZE)


@njit(cache=True)
def set_range(cfg, s):
    return cfg.set_range[s.tier, s.set]


@njit(cache=True)
def sees_zulrah(s, cfg, reach):
    """Zulrah's footprint within ``reach`` of the player with a clear line (the pillars block it;
    water does not) [core.line_of_sight; shrine_map.json], read from the precomputed table."""
    return spot_sees(cfg, s.spot, s.p.x, s.p.y, reach)


@njit(cache=True)
def spot_sees(cfg, spot, x, y, reach):
    """A player on (x, y) reaches Zulrah's footprint at ``spot`` within ``reach`` with a clear line."""
    zx, zy = cfg.spot_tiles[spot, 0], cfg.spot_tiles[spot, 1]
    d = chebyshev_distance(x, y, 1, zx, zy, RT.ZULRAH_SIZE)
    return 0 < d <= reach and cfg.zulrah_sight[spot, x, y] != 0


@njit(cache=True)
def tile_sees(cfg, x0, y0, x1, y1, reach):
    """A clear line from walkable tile (x0, y0) to (x1, y1) within ``reach`` (core.line_of_sight's
    rule for two 1x1 entities, from the precomputed table)."""
    d = max(abs(x1 - x0), abs(y1 - y0))
    if d == 0 or d > reach:
        return False
    i, j = cfg.tile_index[x0, y0], cfg.tile_index[x1, y1]
    return i >= 0 and j >= 0 and cfg.tile_sight[i, j] != 0


@njit(cache=True)
def can_attack_zulrah(s, cfg):
    return s.p.attack_timer <= 0 and s.stun == 0 and zulrah_targetable(s, cfg) \
        and sees_zulrah(s, cfg, set_range(cfg, s))


@njit(cache=True)
def can_attack_snakeling(s, cfg, k):
    sn = s.snakelings[k]
    if sn.active == 0 or s.p.attack_timer > 0 or s.stun > 0:
        return False
    return tile_sees(cfg, s.p.x, s.p.y, sn.x, sn.y, set_range(cfg, s))


@njit(cache=True)
def special_cost(cfg, s):
    """Energy the worn weapon's special costs; 0 when it has none."""
    return cfg.set_special[s.tier, s.set, SP_COST]


@njit(cache=True)
def can_special(s, cfg):
    """The worn weapon has a special and the energy for it (the spec head's mask)."""
    return PI.can_special(s.p, special_cost(cfg, s))


@njit(cache=True)
def refresh_combat(s, cfg):
    """The player's live combat record (core.player_input) from the set it wears."""
    PI.refresh_combat(s.combat, s.p, cfg.set_combat[s.tier, s.set])


@njit(cache=True)
def _set_position(s, cfg):
    s.form = cfg.phase_form[s.rotation, s.phase]
    s.spot = cfg.phase_spot[s.rotation, s.phase]
    s.zx = cfg.spot_tiles[s.spot, 0]
    s.zy = cfg.spot_tiles[s.spot, 1]
    s.magma_on = 0


# ---- reset -------------------------------------------------------------------------------------
@njit(cache=True)
def _draw_tier(s, cfg):
    if cfg.gear_tier >= 0:
        return cfg.gear_tier
    if cfg.gear_tier == ST.TIER_UNIFORM:
        return R.below(s.rng, ST.NUM_TIERS)
    u = R.uniform(s.rng)
    for t in range(ST.NUM_TIERS - 1):
        if u < cfg.tier_cumulative[t]:
            return t
    return ST.NUM_TIERS - 1


@njit(cache=True)
def _reset_player(s, cfg):
    t = s.tier
    reset_player(s.p, cfg.tier_levels[t], RT.PLAYER_START[0], RT.PLAYER_START[1])
    s.set = ST.SET_RANGED
    PI.wear(s.p, cfg.set_worn[t, s.set])
    for k in range(ST.NUM_SUPPLIES):
        s.supplies[k] = cfg.tier_supplies[t, k]
    refresh_combat(s, cfg)


@njit(cache=True)
def reset(s, cfg, seed):
    """The runtime hands reset a zeroed record (EncounterSpec.carried_fields): no clouds, snakelings or hits in
    flight, no outcome, every tally 0; set what starts non-zero."""
    R.seed_rng(s.rng, seed, 0)
    s.tier = _draw_tier(s, cfg)
    _reset_player(s, cfg)
    s.rotation = cfg.start_rotation if cfg.start_rotation >= 0 else R.below(s.rng, RT.NUM_ROTATIONS)
    s.phase = cfg.start_phase
    s.z_hp = cfg.start_hp
    _set_position(s, cfg)
    s.last_style = -1


# ---- phase 1: the player's clicks ----------------------------------------------------------------
@njit(cache=True)
def _consume(s, cfg, eat, drink):
    """Food, then a potion dose (core.consumables: the only same-tick order)."""
    ids = cfg.supply_consumable
    if eat == ST.EAT.eat and PI.use_supply(s.p, s.supplies, ST.SUP_FOOD, ids[s.tier, ST.SUP_FOOD], cfg.consumables):
        s.supplies_used[ST.SUP_FOOD] += 1
    if drink != ST.DRINK.none:
        slot = drink                # a drink option's number is its dose's supply (checked at import: state.py)
        if PI.use_supply(s.p, s.supplies, slot, ids[s.tier, slot], cfg.consumables):
            s.supplies_used[slot] += 1


@njit(cache=True)
def _switch(s, cfg, gear):
    if gear == ST.GEAR.keep or gear - ST.GEAR_SET == s.set or cfg.set_present[s.tier, gear - ST.GEAR_SET] == 0:
        return
    s.set = gear - ST.GEAR_SET
    PI.wear(s.p, cfg.set_worn[s.tier, s.set])


_OVERHEAD_PRAYER = PI.overhead_clicks(ST.OVERHEAD)   # the prayer each overhead option clicks on; keep: none


@njit(cache=True)
def _prayers(s, cfg, over, offensive):
    if ST.OVERHEAD.keep < over < len(_OVERHEAD_PRAYER):          # keep is not a click
        PI.set_overhead(s.p, _OVERHEAD_PRAYER[over])
    if offensive == ST.OFFENSIVE.on:
        PI.set_offensive(s.p, cfg.set_offensive_all[s.tier], cfg.set_offensive[s.tier, s.set])
    elif offensive == ST.OFFENSIVE.off:
        PI.clear_prayers(s.p, cfg.set_offensive_all[s.tier])


@njit(cache=True)
def inputs(s, cfg, a):
    _consume(s, cfg, a[ST.HEAD.eat], a[ST.HEAD.drink])
    _switch(s, cfg, a[ST.HEAD.gear])
    _prayers(s, cfg, a[ST.HEAD.overhead], a[ST.HEAD.offensive])


# ---- phase 2a: hits on NPCs ---------------------------------------------------------------------
@njit(cache=True)
def land_npc_hits(s, cfg):
    """The player's hits due on Zulrah and snakelings; returns the damage dealt to Zulrah. A hit due
    on Zulrah while it dives waits and lands when it rises again [OSRS wiki "Zulrah": "If struck with
    a hit just as it dives, the hit will register on Zulrah shortly after it resurfaces"; APPROXIMATION:
    on the tick it rises, "shortly after" is not given in ticks]."""
    dealt = 0
    under = diving(s, cfg)
    for i in range(ST.HIT_CAPACITY):
        h = s.hits[i]
        if h.state != HIT_PENDING or h.due_tick > s.tick or h.target == ST.TARGET_PLAYER:
            continue
        if h.target == ST.TARGET_ZULRAH and under:
            continue
        h.state = HIT_FREE
        damage = 0
        if h.target == ST.TARGET_ZULRAH:
            damage = min(np.int64(h.damage), np.int64(max(s.z_hp, 0)))
            s.z_hp -= damage
            dealt += damage
            record_hit_landed(s, i, damage, s.zx, s.zy)
        else:
            k = h.target - 2
            sn = s.snakelings[k]
            if sn.active:
                if h.damage > 0:                # 1 hitpoint: any damage kills it
                    sn.active = 0
                    s.snakelings_killed += 1
                    damage = 1
                record_hit_landed(s, i, damage, sn.x, sn.y)
                if damage > 0:
                    record_event(s, EV_DEATH, ST.ENT_SNAKELING + k, ENTITY_NONE, snakeling_style(sn), 0, EVF_KILLED,
                                 sn.x, sn.y)
        if h.heal_pct > 0 and damage > 0:
            s.spec_healed += heal_hitpoints(s.p, damage * h.heal_pct // 100)
    s.damage_dealt += dealt
    return dealt


# ---- phase 2c: Zulrah ------------------------------------------------------------------------
@njit(cache=True)
def _zulrah_attack(s, cfg, code):
    """One ranged or magic attack; returns +1 if the overhead met it, -1 if not."""
    style = STYLE_RANGED if code == RT.ACT_RANGED else STYLE_MAGIC
    if code == RT.ACT_TANZANITE:
        style = STYLE_RANGED if R.chance(s.rng, TANZANITE_RANGED[0], TANZANITE_RANGED[1]) else STYLE_MAGIC
    s.last_style = style
    s.zulrah_attacks += 1
    source = ST.SRC_JAD if cfg.phase_jad[s.rotation, s.phase] else _SOURCE_OF_FORM[s.form]
    d = zulrah_distance(s)
    delay = bow_delay(d) if style == STYLE_RANGED else magic_delay(d)
    prayed = protected_from(s.p, style)        # read when the attack is made [M: osrs-sdk Weapon.attack]
    attack_type = S.RANGED if style == STYLE_RANGED else S.MAGIC
    refresh_combat(s, cfg)
    att = npc_attack_roll(NO_TRACE, cfg.npc_rows[s.form], attack_type)
    dfn = player_defence_roll(NO_TRACE, s.combat[0], attack_type)
    damage = 0
    # the attack envenoms unless it misses, even when the overhead blocks its damage [OSRS wiki
    # "Zulrah": "will envenom the player unless they miss, even if blocked by a protection prayer"]
    flags = FLAG_VENOM
    if roll_accuracy(s.rng, att, dfn):
        flags |= FLAG_ACCURATE
        if not prayed:
            damage = roll_npc_damage(s.rng, ZULRAH_MAX_HIT)
    blocked = EVF_BLOCKED if prayed else 0
    queue_tracked_hit(s, ST.ENT_ZULRAH, blocked, s.tick + delay, damage, style, source, ST.TARGET_PLAYER, flags, 0, 0)
    record_event(s, EV_ATTACK, ST.ENT_ZULRAH, ST.ENT_PLAYER, style, 0, blocked, s.p.x, s.p.y)
    if prayed:
        s.prayed_attacks += 1
        return 1
    return -1


@njit(cache=True)
def _magma(s, cfg, code, k):
    """The magma stand: pick the player's tile (k-th pick), or slam it (k-th slam) [M: ZEN MeleeSequence]."""
    p = s.p
    if code == RT.ACT_MAGMA_PICK:
        s.magma_on = 1
        s.magma_x = p.x
        s.magma_y = p.y
        record_event(s, EV_HAZARD, ST.ENT_ZULRAH, ST.ENT_PLAYER, STYLE_TYPELESS, 0, 0, p.x, p.y)
        return
    if s.magma_on == 0:
        return
    s.magma_on = 0
    record_event(s, EV_ATTACK, ST.ENT_ZULRAH, ST.ENT_PLAYER, STYLE_TYPELESS, 0, 0, s.magma_x, s.magma_y)
    if max(abs(p.x - s.magma_x), abs(p.y - s.magma_y)) > 1 or slam_spares(s, cfg, k, p.x, p.y):
        return
    # 20-30, typeless, no venom [OSRS wiki "Zulrah": "dealt 20-30 damage and be stunned"; the wiki's
    # envenoming sentence names the ranged and magic attacks only; max 30 also in npcs.json]
    damage = R.between(s.rng, SLAM_MIN_HIT, cfg.npc_rows[ST.NPC_MAGMA].max_hit_melee)
    s.stun = STUN_TICKS
    _knock_back(s, cfg)
    queue_tracked_hit(s, ST.ENT_ZULRAH, 0, s.tick, damage, STYLE_TYPELESS, ST.SRC_MAGMA, ST.TARGET_PLAYER,
                      FLAG_ACCURATE, 0, 0)


@njit(cache=True)
def slam_spares(s, cfg, k, x, y):
    """The ``k``-th slam of the phase spares tile (x, y) of its 3x3: a melee safespot, or the first slam's
    safe tile in the magma rotations [M: ZEN MeleeSequence]."""
    if cfg.safespot[x, y]:
        return True
    return k == 0 and rotation_of(s) <= 1 and x == RT.FIRST_SLAM_SAFE_TILE[0] and y == RT.FIRST_SLAM_SAFE_TILE[1]


@njit(cache=True)
def _knock_back(s, cfg):
    """The slam pushes the player away from Zulrah, tile by tile toward a point ``KNOCK_BACK_REACH``
    tiles from Zulrah's centre on the line through the player, until the next step is blocked
    [M: ZEN's slam; no other source describes it]. The centre is the footprint's middle shifted one tile
    north, as ZEN takes it."""
    p = s.p
    cx, cy = s.zx + RT.ZULRAH_SIZE // 2, s.zy + RT.ZULRAH_SIZE // 2 + 1
    dx, dy = p.x - cx, p.y - cy
    if dx == 0 and dy == 0:
        return
    norm = np.sqrt(dx * dx + dy * dy)
    tx = cx + np.int64(np.round(KNOCK_BACK_REACH * dx / norm))
    ty = cy + np.int64(np.round(KNOCK_BACK_REACH * dy / norm))
    for _ in range(KNOCK_BACK_REACH):
        sx = np.int64(np.sign(tx - p.x))
        sy = np.int64(np.sign(ty - p.y))
        if (sx == 0 and sy == 0) or not can_step(cfg.collision, p.x, p.y, 1, sx, sy):
            return
        p.x += sx
        p.y += sy


@njit(cache=True)
def _throw_clouds(s, cfg, k):
    for c in range(2):
        slot = 0
        for i in range(ST.CLOUD_SLOTS):            # a free slot, else the oldest cloud
            if s.clouds[i].active == 0:
                slot = i
                break
            if s.clouds[i].life < s.clouds[slot].life:
                slot = i
        cl = s.clouds[slot]
        cl.active = 1
        cl.fresh = 1
        cl.x = cfg.volley_tiles[s.rotation, s.phase, k, c, 0]
        cl.y = cfg.volley_tiles[s.rotation, s.phase, k, c, 1]
        cl.life = CLOUD_LIFE
        record_event(s, EV_HAZARD, ST.ENT_CLOUD + slot, ENTITY_NONE, STYLE_TYPELESS, 0, 0, cl.x, cl.y)


@njit(cache=True)
def _spawn_snakeling(s, cfg, k):
    for i in range(ST.SNAKELING_SLOTS):
        sn = s.snakelings[i]
        if sn.active == 0:
            sn.active = 1
            sn.kind = 1 if R.chance(s.rng, SNAKELING_MAGIC[0], SNAKELING_MAGIC[1]) else 0
            sn.x = cfg.spawn_tiles[s.rotation, s.phase, k, 0]
            sn.y = cfg.spawn_tiles[s.rotation, s.phase, k, 1]
            sn.lock = SNAKELING_LOCK
            sn.life = SNAKELING_LIFE
            sn.attack_timer = 0
            record_event(s, EV_SPAWN, ST.ENT_SNAKELING + i, ENTITY_NONE, snakeling_style(sn), 1, 0, sn.x, sn.y)
            for h in range(ST.HIT_CAPACITY):     # a hit still flying at the slot's previous snakeling misses
                if s.hits[h].state == HIT_PENDING and s.hits[h].target == 2 + i:
                    s.hits[h].state = HIT_FREE
            return


@njit(cache=True)
def zulrah_turn(s, cfg):
    """Zulrah's action at this phase tick; returns the prayer score of its attack (+1, -1 or 0)."""
    s.last_action = RT.ACT_NONE
    s.stalled = 0
    t = s.phase_tick
    if t >= dive_tick(s, cfg):
        return 0
    code = cfg.timeline[s.rotation, s.phase, t]
    arg = cfg.timeline_arg[s.rotation, s.phase, t]
    if code == RT.ACT_RANGED or code == RT.ACT_MAGIC or code == RT.ACT_TANZANITE:
        if cfg.pillar_stall and not sees_zulrah(s, cfg, ZULRAH_SIGHT):
            # behind a pillar: Zulrah holds its attack and its phase waits ("pillar stalling") [M: the
            # community technique, RL-R's stall tiles; APPROXIMATION: the wait is tick for tick, and the
            # line is cast from the player's side both ways, so neither can hit the other unseen]
            s.stalled = 1
            return 0
        s.last_action = code
        return _zulrah_attack(s, cfg, code)
    s.last_action = code
    if code == RT.ACT_CLOUDS:
        _throw_clouds(s, cfg, arg)
    elif code == RT.ACT_SNAKELING:
        _spawn_snakeling(s, cfg, arg)
    elif code == RT.ACT_MAGMA_PICK or code == RT.ACT_MAGMA_SLAM:
        _magma(s, cfg, code, arg)
    return 0


# ---- phase 2b: snakelings ------------------------------------------------------------------------
@njit(cache=True)
def snakeling_style(sn):
    """The pending-hit style of a snakeling's attacks: its variant (kind 1 magic, 0 melee)."""
    return STYLE_MAGIC if sn.kind == 1 else STYLE_MELEE


@njit(cache=True)
def _snakeling_in_reach(cfg, sn, p):
    if sn.kind == 0:
        return in_melee_reach(sn.x, sn.y, 1, p.x, p.y, 1)
    return tile_sees(cfg, sn.x, sn.y, p.x, p.y, SNAKELING_MAGIC_RANGE)


@njit(cache=True)
def _snakeling_attack(s, cfg, k):
    sn = s.snakelings[k]
    magic = sn.kind == 1
    style = STYLE_MAGIC if magic else STYLE_MELEE
    row = cfg.npc_rows[ST.NPC_SNAKELING_MAGIC if magic else ST.NPC_SNAKELING_MELEE]
    damage = 0
    flags = 0
    # snakelings envenom [OSRS wiki "Snakeling", "Venom"]; the overhead blocks their attacks, and with
    # them the venom (APPROXIMATION: the wiki does not say whether a blocked snakeling hit envenoms)
    if not protected_from(s.p, style):
        attack_type = S.MAGIC if magic else S.STAB
        refresh_combat(s, cfg)
        att = npc_attack_roll(NO_TRACE, row, attack_type)
        dfn = player_defence_roll(NO_TRACE, s.combat[0], attack_type)
        if roll_accuracy(s.rng, att, dfn):
            damage = roll_npc_damage(s.rng, row.max_hit_magic if magic else row.max_hit_melee)
            flags = FLAG_VENOM | FLAG_ACCURATE
    delay = magic_delay(edge_distance(sn.x, sn.y, 1, s.p.x, s.p.y, 1)) if magic else 0
    blocked = EVF_BLOCKED if protected_from(s.p, style) else 0
    queue_tracked_hit(s, ST.ENT_SNAKELING + k, blocked, s.tick + delay, damage, style, ST.SRC_SNAKELINGS,
                      ST.TARGET_PLAYER, flags, 0, 0)
    record_event(s, EV_ATTACK, ST.ENT_SNAKELING + k, ST.ENT_PLAYER, style, 0, blocked, sn.x, sn.y)
    sn.attack_timer = SNAKELING_SPEED


@njit(cache=True)
def snakelings_turn(s, cfg):
    p = s.p
    for k in range(ST.SNAKELING_SLOTS):
        sn = s.snakelings[k]
        if sn.active == 0:
            continue
        sn.life -= 1
        if sn.life <= 0:
            sn.active = 0
            record_event(s, EV_DEATH, ST.ENT_SNAKELING + k, ENTITY_NONE, snakeling_style(sn), 0, ST.EVF_EXPIRED,
                         sn.x, sn.y)
            continue
        if sn.attack_timer > 0:
            sn.attack_timer -= 1
        if sn.lock > 0:
            sn.lock -= 1
            continue
        if overlaps(sn.x, sn.y, 1, p.x, p.y, 1):
            # under the player: a random cardinal step out first (core.movement rule 7), as any NPC;
            # without it a snakeling the player walked onto would never attack
            nx, ny = npc_unstack_step(cfg.collision, sn.x, sn.y, 1, R.below(s.rng, 4))
            sn.x = nx
            sn.y = ny
        elif not _snakeling_in_reach(cfg, sn, p):
            nx, ny = npc_chase_step(cfg.collision, sn.x, sn.y, 1, p.x, p.y, 1)
            sn.x = nx
            sn.y = ny
        if sn.attack_timer == 0 and _snakeling_in_reach(cfg, sn, p):
            _snakeling_attack(s, cfg, k)


# ---- phase 3: the player -------------------------------------------------------------------------
@njit(cache=True)
def land_player_hits(s):
    """Hits due on the player: damage capped at its hitpoints; an accurate venomous hit envenoms, even
    one the overhead blocked (``_zulrah_attack``)."""
    p = s.p
    n = pop_due_for(s.hits, s.tick, ST.TARGET_PLAYER, s.landing)
    taken = 0
    for k in range(n):
        h = s.hits[s.landing[k]]
        if p.levels[HITPOINTS] <= 0:
            break
        damage = min(np.int64(h.damage), np.int64(p.levels[HITPOINTS]))
        p.levels[HITPOINTS] -= damage
        s.damage_taken[h.attacker] += damage
        taken += damage
        record_hit_landed(s, s.landing[k], damage, p.x, p.y)
        if (h.flags & FLAG_VENOM) and (h.flags & FLAG_ACCURATE):
            apply_venom(p)         # refused while anti-venom immunity lasts (core.status)
    return taken


@njit(cache=True)
def move(s, cfg, m):
    """Walk one or run two tiles as move ``m`` asks; returns the tiles moved."""
    p = s.p
    if m == ST.MOVE_IDLE or s.stun > 0 or not (cfg.move_ok[p.x, p.y] >> np.uint32(m)) & np.uint32(1):
        return 0
    if m >= ST.MOVE_RUN and p.run_energy < RUN_MIN_TO_RUN:
        return 0
    moved = 0
    for k in range(2):
        dx, dy = cfg.move_dx[m, k], cfg.move_dy[m, k]
        if dx == 0 and dy == 0:
            continue
        p.x += dx
        p.y += dy
        moved += 1
    return moved


@njit(cache=True)
def attack(s, cfg, target, special):
    """The player's attack (an attack option: Zulrah or a snakeling slot), if possible now; ``special``:
    make it the worn weapon's special attack when it has one and the energy allows."""
    if target == ST.ATTACK_NONE:
        return
    if target == ST.ATTACK_ZULRAH:
        if not can_attack_zulrah(s, cfg):
            return
        row = cfg.npc_rows[s.form]          # the Jad phase uses the serpentine model [M: ZEN]
        tx, ty, size, hit_target = s.zx, s.zy, RT.ZULRAH_SIZE, ST.TARGET_ZULRAH
    else:
        k = target - ST.ATTACK_SNAKELING
        if not can_attack_snakeling(s, cfg, k):
            return
        sn = s.snakelings[k]
        row = cfg.npc_rows[ST.NPC_SNAKELING_MAGIC if sn.kind == 1 else ST.NPC_SNAKELING_MELEE]
        tx, ty, size, hit_target = sn.x, sn.y, 1, 2 + k          # a hit's target: 2 + k is snakeling slot k
    refresh_combat(s, cfg)
    c = s.combat[0]
    sp = cfg.set_row[s.tier, s.set]
    flags = 0
    heal_pct = 0
    if special and can_special(s, cfg):
        sp = cfg.set_special[s.tier, s.set]
        use_spec(s.p, sp[SP_COST])
        s.specs_used += 1
        flags = FLAG_SPECIAL
        heal_pct = sp[SP_HEAL_NUM] * 100 // sp[SP_HEAL_DEN]
    att, dfn, mn, mx = rolls_vs_npc(NO_TRACE, c, row, sp)
    cap = row.hit_cap if hit_target == ST.TARGET_ZULRAH else CAP_NONE
    n = sample_hits(s.rng, att, dfn, mn, mx, sp, cfg.bolt_ctx, cap, s.splats)
    d = edge_distance(s.p.x, s.p.y, 1, tx, ty, size)
    delay = hit_delay(cfg.set_proj[s.tier, s.set], d, True)       # NPCs go first: +1 [OSRS wiki "Hit delay"]
    style = STYLE_MAGIC if c.attack_type == S.MAGIC else STYLE_RANGED
    for k in range(n):
        queue_tracked_hit(s, ST.ENT_PLAYER, 0, s.tick + delay, s.splats[k], style, ST.SRC_PLAYER, hit_target, flags,
                          heal_pct, 0)
    special = EVF_SPECIAL if flags & FLAG_SPECIAL else 0
    record_event(s, EV_ATTACK, ST.ENT_PLAYER, hit_target, style, n, special, tx, ty)
    s.p.attack_timer = attack_speed(c)


@njit(cache=True)
def clouds_turn(s):
    """Each cloud hurts a player within 1 tile of its centre 1-4 a tick, for 30 ticks [ZEN]."""
    p = s.p
    taken = 0
    for k in range(ST.CLOUD_SLOTS):
        cl = s.clouds[k]
        if cl.active == 0:
            continue
        if cl.fresh:
            cl.fresh = 0
            continue
        if p.levels[HITPOINTS] > 0 and abs(p.x - cl.x) <= 1 and abs(p.y - cl.y) <= 1:
            damage = min(R.between(s.rng, CLOUD_DAMAGE[0], CLOUD_DAMAGE[1]), np.int64(p.levels[HITPOINTS]))
            p.levels[HITPOINTS] -= damage
            s.damage_taken[ST.SRC_CLOUDS] += damage
            taken += damage
            record_event(s, EV_HIT, ST.ENT_CLOUD + k, ST.ENT_PLAYER, STYLE_TYPELESS, damage, 0, p.x, p.y)
        cl.life -= 1
        if cl.life <= 0:
            cl.active = 0
    return taken


# ---- phase 4: end of tick --------------------------------------------------------------------------
@njit(cache=True)
def _advance_zulrah_clock(s, cfg):
    """Rise at the next spot as the next form once the phase's ticks (dive included) are done; after the
    last phase a new rotation, opened by the bridge (rotations.TIMELINES 4..7) [ZEN; OSRS wiki]. A stalled
    attack holds the clock."""
    if s.stalled or s.z_hp <= 0:
        return
    s.phase_tick += 1
    if s.phase_tick < phase_ticks(s, cfg):
        return
    s.phase_tick = 0
    s.phases_done += 1
    if s.phase + 1 >= cfg.num_phases[s.rotation]:
        s.phase = 0
        s.rotation = RT.NUM_ROTATIONS + R.below(s.rng, RT.NUM_ROTATIONS)
    else:
        s.phase += 1
    _set_position(s, cfg)


@njit(cache=True)
def end_of_tick(s, cfg, ran):
    p = s.p
    # the action timers count down here, not at the start of the next tick, so that the mask the
    # policy reads between ticks already allows what the next tick allows (as in pvp)
    tick_action_timers(p)
    venom = tick_status(p)
    s.damage_taken[ST.SRC_VENOM] += venom
    if venom > 0:
        record_event(s, EV_HIT, ENTITY_NONE, ST.ENT_PLAYER, STYLE_TYPELESS, venom, 0, p.x, p.y)
    drain_prayer(p, cfg.set_prayer_bonus[s.tier, s.set])
    if s.stun > 0:
        s.stun -= 1
    tick_run_energy(p, ran, RUN_WEIGHT_KG, AGILITY_LEVEL)
    tick_spec_regen(p, False)
    tick_hitpoints(p, False, False)
    tick_stat_restore(p, False)
    _advance_zulrah_clock(s, cfg)
    return venom


# ---- the tick ------------------------------------------------------------------------------------
@njit(cache=True)
def tick(s, cfg, a):
    """One game tick; returns (terminated, truncated, dealt, taken, prayer score)."""
    s.tick += 1
    clear_events(s)                # the tick's events start empty (the runtime zeroes its reward terms)
    # 1. the player's clicks
    inputs(s, cfg, a)
    # 2. NPCs: hits on NPCs (deferred while Zulrah dives), snakelings, Zulrah's action
    dealt = land_npc_hits(s, cfg)
    score = 0
    if s.z_hp <= 0 and s.kill_tick == 0:
        s.kill_tick = s.tick
        record_event(s, EV_DEATH, ST.ENT_ZULRAH, ENTITY_NONE, -1, 0, EVF_KILLED, s.zx, s.zy)
        for k in range(ST.SNAKELING_SLOTS):       # snakelings die with Zulrah [ZEN]
            sn = s.snakelings[k]
            if sn.active:
                record_event(s, EV_DEATH, ST.ENT_SNAKELING + k, ENTITY_NONE, snakeling_style(sn), 0, ST.EVF_WITH_ZULRAH,
                             sn.x, sn.y)
            sn.active = 0
    if s.kill_tick == 0:
        snakelings_turn(s, cfg)        # before Zulrah's action: a snakeling spawned now first acts next tick
        score = zulrah_turn(s, cfg)
    # 3. the player: hits land, move, attack, clouds
    taken = land_player_hits(s)
    moved = 0
    if s.p.levels[HITPOINTS] > 0:
        moved = move(s, cfg, a[ST.HEAD.move])
        attack(s, cfg, a[ST.HEAD.attack], a[ST.HEAD.spec] == ST.SPEC.special)
    taken += clouds_turn(s)
    # 4. end of tick
    taken += end_of_tick(s, cfg, moved >= 2)
    # 5. outcome. Zulrah's attacks still in flight land after its death [OSRS wiki "Zulrah": "Zulrah's
    # existing attacks will cause damage even after it is killed"]: the kill counts once they have
    # landed and the player still stands
    if s.p.levels[HITPOINTS] <= 0:
        s.outcome = ST.OUTCOME_DEATH
        record_event(s, EV_DEATH, ST.ENT_PLAYER, ENTITY_NONE, -1, 0, EVF_KILLED, s.p.x, s.p.y)
        return True, False, dealt, taken, score
    if s.kill_tick > 0 and count_pending_on(s.hits, ST.TARGET_PLAYER) == 0:
        s.outcome = ST.OUTCOME_KILL
        return True, False, dealt, taken, score
    if s.tick >= cfg.max_ticks:
        s.outcome = ST.OUTCOME_TIMEOUT
        return False, True, dealt, taken, score
    return False, False, dealt, taken, score


@njit(cache=True)
def step(s, cfg, actions):
    """The tick, then its reward by term into ``reward_terms`` (the runtime adds them up into the reward)."""
    terminated, truncated, dealt, taken, score = tick(s, cfg, actions[0])
    terms = s.reward_terms
    r_dealt = cfg.coef_damage_dealt * dealt / 500.0
    r_taken = -cfg.coef_damage_taken * taken / 99.0
    r_prayer = cfg.coef_prayer * score
    r_outcome = 0.0
    if s.outcome == ST.OUTCOME_KILL:
        r_outcome = cfg.kill_reward
    elif s.outcome == ST.OUTCOME_DEATH:
        r_outcome = cfg.death_reward
    elif s.outcome == ST.OUTCOME_TIMEOUT:
        r_outcome = cfg.timeout_reward
    terms[0, ST.R_OUTCOME] += r_outcome
    terms[0, ST.R_DEALT] += r_dealt
    terms[0, ST.R_TAKEN] += r_taken
    terms[0, ST.R_PRAYER] += r_prayer
    return terminated, truncated
