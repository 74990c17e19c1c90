"""The Inferno, waves 1-66: the kernels behind the ``inferno`` spec (observe, mask, metrics: view.py).

Index (tick order; sources in README.md, tags from shared/reference/inferno.md):
  1. the player's clicks (core.player_input): a potion dose (brew or restore, core.consumables), the gear
     switch (one of the loadout's three sets; no tick of its own), then the overhead and the offensive prayer
     of the set now worn (Rigour, or Augury with the magic set);
  2. the player's hits due on monsters land (arrows loosed last tick or before; a Toxic Siphon hit heals
     the player half its damage, an accurate barrage freezes its monster 32 ticks); a monster at 0 dies and
     keeps its slot until the next wave (its resurrection is part 2); a blob splits into three bloblets;
  3. monsters, in slot order (the spawn order), before the player [combat.md 9; InfernoTrainer World.ts
     ticks every mob's movement, then every mob's attack, then the player]. Each one:
     a. counts its attack timer down, then waits out its stun (1 tick after spawning);
     b. nibblers aim at their wave's pillar (another standing one when it falls, the player when none
        stands); every other monster at the player;
     c. under the player it steps out in a random cardinal direction (core.movement rule 7); else, without
        line of sight (or melee reach), one chase step (``_chase``: InfernoTrainer Mob.movementStep: diagonal,
        else x, else y, other monsters and the pillars block, the player does not);
     d. with line of sight (melee: edge contact, no diagonal) and its timer at 0 it attacks: the roll,
        the max hit and the overhead are decided now, on the attack tick [combat.md 6: the prayer is read
        when the attack is made]; the hit lands after the style's delay (melee 0, ranged as a bow, magic as
        a spell, core.hit_delay; Jal-Xil 2 ticks later); rangers, magers and blobs melee an adjacent player
        half the time (InfernoTrainer Mob.attack); a bat's attack drains 3 % run energy (InfernoTrainer
        JalMejRah.ts); a blob scans the overhead first and fires the other style 3 ticks later, with or
        without sight (InfernoTrainer JalAk.ts): an attack without a clear line hits the pillar in the way;
     e. a nibbler next to its pillar chews it for 0..4 (InfernoTrainer JalNib.ts); a pillar at 0 collapses
        and stops blocking movement and sight;
  4. the player: hits due on it land; a move click stores its destination; an attack in reach is made and
     ends the walk; else it walks 1 or runs 2 tiles along the game's route to the stored destination (core
     pathfinding's BFS on the standing pillars' map, precomputed: cfg.route; monsters do not block it),
     then it attacks the monster it asked for with the set it wears when its timer, range and line of sight
     allow, which also ends the walk (core.attack rolls; the bow, the blowpipe and its special Toxic Siphon,
     or Ice Barrage on every monster in the 3x3 around the target,
     each rolled alone; core.hit_delay + 1 since NPCs go first);
  5. end of tick: action timers (core.player), prayer drain, run energy, special energy and hitpoint cycles;
     the wave clock: the last monster dead -> the next wave spawns 9 ticks later [M: InfernoTrainer
     InfernoRegion.ts], on the nine spawn tiles shuffled (Fisher-Yates) and assigned magers, rangers,
     meleers, blobs, bats in that order, nibblers on distinct tiles of the central block;
  6. the player at 0 ends the run (terminated, death); ``last_wave`` cleared ends it (terminated, success);
     ``max_ticks`` truncates it.
What the tick did goes into the state's event buffer (core.events, entity ids ``state.ENT_*``) and its reward
by term into ``reward_terms`` (summed in ``reward_sums``).
"""

import numpy as np
from numba import njit

from osrs_rl.core import player_input as PI
from osrs_rl.core import prayers as P
from osrs_rl.core import rng as R
from osrs_rl.core import styles as S
from osrs_rl.core.accuracy import npc_attack_roll, player_defence_roll, roll_accuracy
from osrs_rl.core.attack import rolls_vs_npc, sample_hits
from osrs_rl.core.collision import BLOCKED, can_step
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
from osrs_rl.core.line_of_sight import table_line_of_sight
from osrs_rl.core.movement import in_melee_reach, npc_unstack_step, overlaps
from osrs_rl.core.pathfinding import STEP_DX, STEP_DY
from osrs_rl.core.pending_hits import (
    FLAG_ACCURATE,
    FLAG_SPECIAL,
    HIT_FREE,
    HIT_PENDING,
    STYLE_MAGIC,
    STYLE_MELEE,
    STYLE_RANGED,
    STYLE_TYPELESS,
    clear_queue,
    pop_due_for,
)
from osrs_rl.core.player import heal_hitpoints, reset_player, tick_action_timers
from osrs_rl.core.player_input import protected_from
from osrs_rl.core.prayer_drain import drain_prayer
from osrs_rl.core.skills import HITPOINTS, PRAYER
from osrs_rl.core.specials import SP_COST, SP_HEAL_DEN, SP_HEAL_NUM

from . import arena as A
from . import state as ST

BAT_RUN_DRAIN = 300            # run energy units per bat attack (3 %) [M: InfernoTrainer JalMejRah.ts]
NIBBLER_PILLAR_MAX = 4         # a nibbler chews 0..4 off a pillar [M: InfernoTrainer JalNib.ts floor(rand * 5)]
MELEE_IF_CLOSE = (1, 2)        # an adjacent ranger/mager/blob melees with p = 1/2 [M: InfernoTrainer Mob.attack]
BLOB_SCAN_DELAY = 3            # a blob fires 3 ticks after its scan, and scans 3 ticks after firing
                               # [H: InfernoTrainer JalAk.ts attackSpeed 3 on both; RuneLite cycle 6]
BLOBLET_OFFSETS = (1, 0, 2)    # ranged, melee, magic bloblet: (+d, +d) from the blob's south-west tile
BLOBLET_COOLDOWN = 4           # [M: InfernoTrainer JalAk.ts cooldown 4]
# Jal-ImKot's dig [M: InfernoTrainer JalImKot.ts: freeze(6) / digSequenceTime 6 underground, then attackDelay 6
# and freeze(2) on surfacing; RuneLite inferno plugin: the burrow animation (7600) is followed by its next
# attack 12 ticks later = 6 + 6]. The trigger is a config choice (dig_rule, README "Open questions").
DIG_TICKS = 6
DIG_ATTACK_WAIT = 6
DIG_SURFACE_FREEZE = 2
DIG_WIKI_FIRST = 50            # dig_rule 1 [L: OSRS wiki via the reference's secondary compilation]: 50 ticks
DIG_WIKI_NEXT = (40, 60)       # into the wave, then every 40..60 ticks,
DIG_WIKI_HURT = 15             # not within 15 ticks of being attacked
# Jal-Zek's resurrection [M: InfernoTrainer JalZek.ts + InfernoMobDeathStore.ts; RuneLite inferno plugin]:
# bats, blobs, meleers, rangers and magers join the store of the dead (nibblers and bloblets never do), each
# at most once; revived at floor(max hp / 2) with its attack timer at its speed; the mager's next attack
# 8 ticks later (RuneLite: animation 7611 -> 8; InfernoTrainer sets attackDelay 8 and then overwrites it with
# its speed 4, read here as a slip). Placement: the first tile free of pillars and monsters scanning
# InfernoTrainer x 26..32 (outer), y 24..36 (inner), i.e. local x 16..22, y 20 down to 8; else IT (21, 22).
REVIVE_DELAY = 8
REVIVE_X = (16, 22)
REVIVE_Y = (20, 8)
REVIVE_FALLBACK = (11, 22)
RUN_WEIGHT_KG, AGILITY_LEVEL = 0, 99     # approximation: weight is not tracked (as in zulrah)
_OVERHEAD_PRAYER = (PI.NO_PRAYER, P.PROTECT_FROM_MAGIC, P.PROTECT_FROM_MISSILES, P.PROTECT_FROM_MELEE,
                    PI.NO_PRAYER)


# ---- what the tick reports -------------------------------------------------------------------------
@njit(cache=True)
def start_tick(s):
    for k in range(ST.NUM_REWARD_TERMS):
        s.reward_terms[0, k] = 0.0
    clear_events(s)


# ---- the arena -------------------------------------------------------------------------------------
@njit(cache=True)
def pillar_mask(s):
    """Bit k: pillar k stands (its hitpoints above 0); indexes cfg.maps and cfg.route."""
    m = 0
    for k in range(A.NUM_PILLARS):
        if s.pillar_hp[k] > 0:
            m |= 1 << k
    return m


@njit(cache=True)
def arena_map(s, cfg):
    return cfg.maps[pillar_mask(s)]


@njit(cache=True)
def sees(s, cfg, x0, y0, size0, x1, y1, size1, reach):
    """core.line_of_sight.has_line_of_sight over the standing pillars, read from the precomputed table of
    their map (cfg.sight: the same answers, core.line_of_sight.table_line_of_sight)."""
    return table_line_of_sight(cfg.sight[pillar_mask(s)], A.GRID_W, A.GRID_H, x0, y0, size0, x1, y1, size1, reach)


@njit(cache=True)
def size_of(cfg, m):
    return np.int64(cfg.kind_size[m.kind])


# ---- monsters: where they aim, what they see ----------------------------------------------------------
@njit(cache=True)
def target_of(s, cfg, m):
    """(x, y, size) of the monster's target: its pillar, or the player."""
    if m.target >= 0:
        return np.int64(cfg.pillar_xy[m.target, 0]), np.int64(cfg.pillar_xy[m.target, 1]), np.int64(A.PILLAR_SIZE)
    return np.int64(s.p.x), np.int64(s.p.y), np.int64(1)


@njit(cache=True)
def monster_sees(s, cfg, m, tx, ty, tsize):
    """In reach of (tx, ty, tsize): melee kinds by edge contact (no diagonal, core.movement rule 2), the
    others with a clear line within their range (core.line_of_sight over the standing pillars), the ray cast
    from the target to the monster's closest tile [M: osrs-sdk LineOfSight.ts hasLineOfSight with isNPC
    casts from the player's tile to the NPC's; RuneLite inferno plugin InfernoNPC.canAttack casts from the
    player's WorldArea; the rsmod ray is not symmetric on slanted lines: README "Open questions"]."""
    size = size_of(cfg, m)
    reach = cfg.kind_range[m.kind]
    if reach <= 1:
        return in_melee_reach(m.x, m.y, size, tx, ty, tsize)
    return sees(s, cfg, tx, ty, tsize, m.x, m.y, size, reach)


@njit(cache=True)
def sees_player(s, cfg, k):
    m = s.monsters[k]
    return m.state == ST.SLOT_ALIVE and m.target == ST.TARGET_PLAYER and m.dig_left <= 0 and \
        monster_sees(s, cfg, m, s.p.x, s.p.y, 1)


@njit(cache=True)
def _free_of_monsters(s, cfg, k, x, y, size):
    """No other living monster's footprint overlaps (x, y, size) (InfernoTrainer Pathing.canTileBePathedTo
    with the mover excluded); nibblers take no space, so nothing is stopped by one (InfernoTrainer JalNib.ts
    ``consumesSpace`` null)."""
    for j in range(ST.MONSTER_SLOTS):
        o = s.monsters[j]
        if j == k or o.state != ST.SLOT_ALIVE or o.dig_left > 0 or o.kind == ST.K_NIBBLER:
            continue
        if overlaps(x, y, size, o.x, o.y, size_of(cfg, o)):
            return False
    return True


@njit(cache=True)
def _can_move(s, cfg, flags, k, dx, dy):
    m = s.monsters[k]
    size = size_of(cfg, m)
    return can_step(flags, m.x, m.y, size, dx, dy) and _free_of_monsters(s, cfg, k, m.x + dx, m.y + dy, size)


@njit(cache=True)
def _chase(s, cfg, k, tx, ty, tsize):
    """One step toward the target's south-west tile by the signs of the differences: the diagonal if the
    pillars, the walls and the other monsters allow it, else the x step, else the y step (InfernoTrainer
    Mob.movementStep / getNextMovementStep). A diagonal that would end on the target drops its y part (the
    corner safespot, core.movement rule 6)."""
    m = s.monsters[k]
    size = size_of(cfg, m)
    flags = arena_map(s, cfg)
    sx = np.int64(np.sign(tx - m.x))
    sy = np.int64(np.sign(ty - m.y))
    if sx != 0 and sy != 0 and overlaps(m.x + sx, m.y + sy, size, tx, ty, tsize):
        sy = np.int64(0)
    if sx != 0 and sy != 0 and _can_move(s, cfg, flags, k, sx, sy):
        m.x += sx
        m.y += sy
    elif sx != 0 and _can_move(s, cfg, flags, k, sx, 0) and not overlaps(m.x + sx, m.y, size, tx, ty, tsize):
        m.x += sx
    elif sy != 0 and _can_move(s, cfg, flags, k, 0, sy) and not overlaps(m.x, m.y + sy, size, tx, ty, tsize):
        m.y += sy


@njit(cache=True)
def _pick_pillar(s):
    """A standing pillar drawn uniformly, -1 (the player) when none stands."""
    n = 0
    for p in range(A.NUM_PILLARS):
        if s.pillar_hp[p] > 0:
            n += 1
    if n == 0:
        return ST.TARGET_PLAYER
    r = R.below(s.rng, n)
    for p in range(A.NUM_PILLARS):
        if s.pillar_hp[p] > 0:
            if r == 0:
                return p
            r -= 1
    return ST.TARGET_PLAYER


# ---- pillars ---------------------------------------------------------------------------------------
@njit(cache=True)
def damage_pillar(s, cfg, p, damage, source, style):
    """``damage`` on pillar ``p`` (capped at its hitpoints); at 0 it collapses (an EV_DEATH)."""
    if s.pillar_hp[p] <= 0:
        return
    dealt = min(np.int64(damage), np.int64(s.pillar_hp[p]))
    s.pillar_hp[p] -= dealt
    s.pillar_damage += dealt
    x, y = A.PILLARS[p]
    record_event(s, EV_HIT, source, ST.ENT_PILLAR + p, style, dealt, 0, x, y)
    if s.pillar_hp[p] <= 0:
        record_event(s, EV_DEATH, ST.ENT_PILLAR + p, ENTITY_NONE, -1, 0, EVF_KILLED, x, y)
        collapse(s, cfg, p)


@njit(cache=True)
def _collapse_hurt(cfg, hp):
    if cfg.collapse_rule == 1:
        return np.int64(cfg.collapse_damage)
    if cfg.collapse_rule == 2:
        return np.int64(hp) // 2
    return np.int64(0)


@njit(cache=True)
def collapse(s, cfg, p):
    """Pillar ``p`` falls: the player and every living monster whose footprint touches the pillar's or lies
    next to it (within 1 tile of its 3x3) take ``collapse_rule``'s damage [L: OSRS wiki via the reference's
    secondary compilation, whose text gives both "49" and "half current hitpoints"; InfernoTrainer only removes
    the pillar ("TODO: needs to AOE the nibblers around it"): README "Open questions"]."""
    if cfg.collapse_rule == 0:
        return
    x, y = np.int64(cfg.pillar_xy[p, 0]) - 1, np.int64(cfg.pillar_xy[p, 1]) - 1
    side = np.int64(A.PILLAR_SIZE + 2)
    src = ST.ENT_PILLAR + p
    for k in range(ST.MONSTER_SLOTS):
        m = s.monsters[k]
        if m.state != ST.SLOT_ALIVE or m.dig_left > 0 or not overlaps(m.x, m.y, size_of(cfg, m), x, y, side):
            continue
        damage = min(_collapse_hurt(cfg, m.hp), np.int64(m.hp))
        m.hp -= damage
        record_event(s, EV_HIT, src, ST.ENT_MONSTER + k, STYLE_TYPELESS, damage, 0, m.x, m.y)
        if m.hp <= 0:
            kill_monster(s, cfg, k)
    pl = s.p
    if pl.levels[HITPOINTS] > 0 and overlaps(pl.x, pl.y, 1, x, y, side):
        damage = min(_collapse_hurt(cfg, pl.levels[HITPOINTS]), np.int64(pl.levels[HITPOINTS]))
        pl.levels[HITPOINTS] -= damage
        s.collapse_damage += damage
        s.taken_style[STYLE_TYPELESS] += damage
        record_event(s, EV_HIT, src, ST.ENT_PLAYER, STYLE_TYPELESS, damage, 0, pl.x, pl.y)


@njit(cache=True)
def blocking_pillar(s, cfg, k):
    """The standing pillar that stops monster ``k``'s line to the player, the nearest to the monster when
    two do; -1 when none does. Each pillar is tested alone on the map where only it stands, the ray cast
    from the player as in ``monster_sees``."""
    m = s.monsters[k]
    size = size_of(cfg, m)
    best, best_d = -1, 1 << 30
    for p in range(A.NUM_PILLARS):
        if s.pillar_hp[p] <= 0:
            continue
        if table_line_of_sight(cfg.sight[1 << p], A.GRID_W, A.GRID_H, s.p.x, s.p.y, 1, m.x, m.y, size, 1 << 14):
            continue
        d = edge_distance(m.x, m.y, size, cfg.pillar_xy[p, 0], cfg.pillar_xy[p, 1], A.PILLAR_SIZE)
        if d < best_d:
            best, best_d = p, d
    return best


# ---- monsters: attacks -------------------------------------------------------------------------------
@njit(cache=True)
def _attack_type(style):
    if style == STYLE_RANGED:
        return S.RANGED
    if style == STYLE_MAGIC:
        return S.MAGIC
    return S.CRUSH


@njit(cache=True)
def monster_attack(s, cfg, k, style):
    """Monster ``k`` attacks the player with ``style``: accuracy, damage and the overhead are decided now
    (the attack tick); the hit lands after the style's delay. Returns the prayer score (+1 met, -1 not)."""
    m = s.monsters[k]
    p = s.p
    row = cfg.kind_row[m.kind]
    size = size_of(cfg, m)
    attack_type = _attack_type(style)
    PI.refresh_combat(s.combat, p, cfg.set_combat[s.gear_set])     # the worn set's defence bonuses
    damage = 0
    flags = 0
    prayed = protected_from(p, style)
    accurate = m.kind == ST.K_NIBBLER       # always accurate on players (dps-calc ALWAYS_ACCURATE_MONSTERS)
    if not accurate:
        accurate = roll_accuracy(s.rng, npc_attack_roll(NO_TRACE, row, attack_type),
                                 player_defence_roll(NO_TRACE, s.combat[0], attack_type))
    if accurate:
        flags = FLAG_ACCURATE
        if not prayed:
            damage = roll_npc_damage(s.rng, cfg.kind_max[m.kind, style])
    d = edge_distance(m.x, m.y, size, p.x, p.y, 1)
    delay = 0
    if style == STYLE_RANGED:
        delay = bow_delay(d) + cfg.kind_extra_delay[m.kind]
    elif style == STYLE_MAGIC:
        delay = magic_delay(d)
    if cfg.projectile_rule == 1 and delay > 0:
        delay -= 1        # osrs-sdk's landing tick (README "Open questions", audit F6)
    blocked = EVF_BLOCKED if prayed else 0
    queue_tracked_hit(s, ST.ENT_MONSTER + k, blocked, s.tick + delay, damage, style, m.kind, ST.HT_PLAYER, flags,
                      0, 0)
    record_event(s, EV_ATTACK, ST.ENT_MONSTER + k, ST.ENT_PLAYER, style, 0, blocked, m.x, m.y)
    s.monster_attacks += 1
    m.activity = ST.ACT_ATTACK
    if m.kind == ST.K_BAT:
        p.run_energy = max(0, p.run_energy - BAT_RUN_DRAIN)
    m.attack_timer = cfg.kind_speed[m.kind]
    if prayed:
        s.prayed_attacks += 1
        return 1
    return -1


@njit(cache=True)
def _pillar_takes(s, cfg, k, style, pillar):
    """Monster ``k``'s attack on the player, fired without a clear line, hits ``pillar`` instead: damage
    0..max, no accuracy roll, no prayer [M: reference section 2 "attacks aimed at a player but blocked by a
    pillar damage the pillar"; APPROXIMATION: the pillar's defence is not rolled]."""
    m = s.monsters[k]
    damage = roll_npc_damage(s.rng, cfg.kind_max[m.kind, style])
    record_event(s, EV_ATTACK, ST.ENT_MONSTER + k, ST.ENT_PILLAR + pillar, style, 0, ST.EVF_PILLAR_HIT, m.x, m.y)
    damage_pillar(s, cfg, pillar, damage, ST.ENT_MONSTER + k, style)
    m.attack_timer = cfg.kind_speed[m.kind]
    m.activity = ST.ACT_ATTACK


@njit(cache=True)
def _distance_or_melee(s, cfg, m):
    """The style of a ranger's, mager's or Jad's next attack: melee half the time when the player stands in
    melee reach, else its distance style."""
    if cfg.kind_melee[m.kind] and in_melee_reach(m.x, m.y, size_of(cfg, m), s.p.x, s.p.y, 1) \
            and R.chance(s.rng, MELEE_IF_CLOSE[0], MELEE_IF_CLOSE[1]):
        return STYLE_MELEE
    return np.int64(cfg.kind_style[m.kind])


@njit(cache=True)
def _blob_turn(s, cfg, k, sees):
    """The blob's cycle (InfernoTrainer JalAk.ts): with sight, a new sight or a ready timer without a pending
    scan reads the player's overhead and sets the timer to 3; 3 ticks later it fires the style the overhead
    does not block (Missiles -> magic, Magic -> ranged, neither -> 50/50 drawn when it fires: InfernoTrainer
    JalAk.attackStyleForNewAttack; RuneLite InfernoNPC.gameTick marks it UNKNOWN at the scan), even without
    sight, where a pillar in the way takes it. A player who left its range with no pillar in the way is not
    shot at: the shot is dropped and the blob scans again when it next sees the player [M: an NPC attacks only
    a target within its attack range, RuneLite InfernoNPC.Type range 15; APPROXIMATION: InfernoTrainer fires
    it anyway, and no source says whether the game keeps the scan]. Returns the prayer score of an attack."""
    m = s.monsters[k]
    if sees and (m.had_los == 0 or (m.scan < 0 and m.attack_timer <= 0)):
        over = PI.overhead_style(s.p)
        if over == STYLE_MAGIC:
            m.scan = STYLE_RANGED
        elif over == STYLE_RANGED:
            m.scan = STYLE_MAGIC
        else:
            m.scan = ST.SCAN_UNKNOWN      # the coin is flipped when it fires, not now
        m.attack_timer = BLOB_SCAN_DELAY
        m.activity = ST.ACT_SCAN
        return 0
    if m.scan < 0 or m.attack_timer > 0:
        return 0
    style = np.int64(m.scan)
    if style == ST.SCAN_UNKNOWN:
        style = STYLE_RANGED if R.chance(s.rng, 1, 2) else STYLE_MAGIC
    m.scan = -1
    if in_melee_reach(m.x, m.y, size_of(cfg, m), s.p.x, s.p.y, 1) and R.chance(s.rng, MELEE_IF_CLOSE[0],
                                                                                  MELEE_IF_CLOSE[1]):
        style = STYLE_MELEE
    if not sees:
        pillar = blocking_pillar(s, cfg, k)
        if pillar >= 0:
            _pillar_takes(s, cfg, k, style, pillar)
            m.attack_timer = BLOB_SCAN_DELAY
            return 0
        if style != STYLE_MELEE:
            return 0                      # out of its range, nothing in the way: no shot, a new scan on sight
    score = monster_attack(s, cfg, k, style)
    m.attack_timer = BLOB_SCAN_DELAY
    return score


@njit(cache=True)
def _nibbler_chew(s, cfg, k):
    m = s.monsters[k]
    damage = R.inclusive(s.rng, NIBBLER_PILLAR_MAX)
    record_event(s, EV_ATTACK, ST.ENT_MONSTER + k, ST.ENT_PILLAR + m.target, STYLE_MELEE, 0, 0, m.x, m.y)
    damage_pillar(s, cfg, m.target, damage, ST.ENT_MONSTER + k, STYLE_MELEE)
    m.attack_timer = cfg.kind_speed[m.kind]


@njit(cache=True)
def _open_for(s, cfg, x, y, size):
    """A ``size`` footprint at (x, y) lies on the arena floor, clear of the standing pillars."""
    flags = arena_map(s, cfg)
    if x < 0 or y < 0 or x + size > A.GRID_W or y + size > A.GRID_H:
        return False
    for i in range(size):
        for j in range(size):
            if flags[x + i, y + j] & BLOCKED:
                return False
    return True


@njit(cache=True)
def _dig_tile(s, cfg, size):
    """Where a meleer digging now resurfaces (InfernoTrainer JalImKot.ts startDig, IT y south, converted):
    with the player on its footprint's north-east corner, else the south-west, south-east, north-west
    corner, the first whose footprint is clear of the pillars and the edge; else one tile south-west of
    the player's (clamped to the floor: APPROXIMATION, IT does not check that one)."""
    px, py = np.int64(s.p.x), np.int64(s.p.y)
    d = size - 1
    xs = (px - d, px, px - d, px)
    ys = (py - d, py, py, py - d)
    for i in range(4):
        if _open_for(s, cfg, xs[i], ys[i], size):
            return xs[i], ys[i]
    x = min(max(px - 1, np.int64(A.ARENA_X[0])), np.int64(A.ARENA_X[1]) - d)
    y = min(max(py - 1, np.int64(A.ARENA_Y[0])), np.int64(A.ARENA_Y[1]) - d)
    return x, y


@njit(cache=True)
def meleer_dig(s, cfg, k, sees):
    """Jal-ImKot without reach: it may dig (rules: ``dig_rule``, module constants). Returns True if it did."""
    m = s.monsters[k]
    if sees:
        return False
    if cfg.dig_rule == 0:
        # InfernoTrainer JalImKot.movementStep: attackDelay <= -38 with 10 % a tick, or <= -50
        go = m.dig_timer >= cfg.dig_max or (m.dig_timer >= cfg.dig_min and R.chance(s.rng, cfg.dig_chance_pct, 100))
    else:
        go = m.dig_timer >= m.dig_due and s.tick - m.hurt_tick > DIG_WIKI_HURT
    if not go:
        return False
    m.dig_x, m.dig_y = _dig_tile(s, cfg, size_of(cfg, m))
    m.dig_left = DIG_TICKS
    m.dig_timer = 0
    m.dig_due = R.between(s.rng, DIG_WIKI_NEXT[0], DIG_WIKI_NEXT[1])
    m.activity = ST.ACT_DIG
    m.scan = -1
    s.digs += 1
    record_event(s, EV_DEATH, ST.ENT_MONSTER + k, ENTITY_NONE, -1, 0, ST.EVF_DIG, m.x, m.y)
    return True


@njit(cache=True)
def _underground(s, cfg, k):
    """A tick underground; at the end of the 6th it resurfaces on its dig tile, frozen 2 ticks, its next
    attack 6 ticks away (InfernoTrainer JalImKot.endDig)."""
    m = s.monsters[k]
    m.dig_left -= 1
    if m.dig_left > 0:
        return
    m.x = m.dig_x
    m.y = m.dig_y
    m.attack_timer = DIG_ATTACK_WAIT
    m.frozen = DIG_SURFACE_FREEZE
    m.had_los = 0
    record_event(s, EV_SPAWN, ST.ENT_MONSTER + k, ENTITY_NONE, -1, 0, ST.EVF_DIG, m.x, m.y)


@njit(cache=True)
def revivable(s, k):
    m = s.monsters[k]
    return m.state == ST.SLOT_DEAD and m.revived == 0 and (
        m.kind == ST.K_BAT or m.kind == ST.K_BLOB or m.kind == ST.K_MELEER or m.kind == ST.K_RANGER
        or m.kind == ST.K_MAGER)


@njit(cache=True)
def _revive_tile(s, cfg, k, size):
    for x in range(REVIVE_X[0], REVIVE_X[1] + 1):
        for y in range(REVIVE_Y[0], REVIVE_Y[1] - 1, -1):
            if _open_for(s, cfg, x, y, size) and _free_of_monsters(s, cfg, k, x, y, size):
                return np.int64(x), np.int64(y)
    return np.int64(REVIVE_FALLBACK[0]), np.int64(REVIVE_FALLBACK[1])


@njit(cache=True)
def mager_revive(s, cfg, k):
    """Jal-Zek about to attack: with ``revive_pct`` % it revives a dead monster drawn uniformly among those
    that may be (``revivable``) instead, if there is one. Returns True if it did."""
    if not R.chance(s.rng, cfg.revive_pct, 100):
        return False
    n = 0
    for j in range(ST.MONSTER_SLOTS):
        if revivable(s, j):
            n += 1
    if n == 0:
        return False
    r = R.below(s.rng, n)
    for j in range(ST.MONSTER_SLOTS):
        if revivable(s, j):
            if r == 0:
                break
            r -= 1
    d = s.monsters[j]
    x, y = _revive_tile(s, cfg, j, size_of(cfg, d))
    _place(s, cfg, j, d.kind, x, y, ST.TARGET_PLAYER, ST.ENT_MONSTER + k, ST.EVF_REVIVED)
    d.hp = cfg.kind_row[d.kind].hitpoints // 2
    d.stun = 0
    d.attack_timer = cfg.kind_speed[d.kind]
    d.revived = 1
    m = s.monsters[k]
    m.attack_timer = REVIVE_DELAY
    m.activity = ST.ACT_REVIVE
    s.resurrections += 1
    return True


@njit(cache=True)
def _move_turn(s, cfg, k, tx, ty, tsize):
    """Step out from under the target, or chase it without sight; frozen monsters stay. Returns whether it
    sees the target after moving, -1 when it is still under it (no attack this tick). A monster that steps
    out goes on to its sight and attack checks in the same tick, without a chase step [M: osrs-sdk
    Mob.movementStep steps out, then attackStep -> attackIfPossible recomputes sight the same tick]."""
    m = s.monsters[k]
    size = size_of(cfg, m)
    if overlaps(m.x, m.y, size, tx, ty, tsize):
        if m.frozen <= 0:
            nx, ny = npc_unstack_step(arena_map(s, cfg), m.x, m.y, size, R.below(s.rng, 4))
            if _free_of_monsters(s, cfg, k, nx, ny, size):
                m.x = nx
                m.y = ny
        if overlaps(m.x, m.y, size, tx, ty, tsize):
            m.had_los = 0
            return -1
        return 1 if monster_sees(s, cfg, m, tx, ty, tsize) else 0
    sees = monster_sees(s, cfg, m, tx, ty, tsize)
    if not sees and m.frozen <= 0:
        _chase(s, cfg, k, tx, ty, tsize)
        sees = monster_sees(s, cfg, m, tx, ty, tsize)
    return 1 if sees else 0


@njit(cache=True)
def monster_turn(s, cfg, k):
    """One monster's turn (index 3 a-e); returns the prayer score of its attack."""
    m = s.monsters[k]
    if m.attack_timer > 0:
        m.attack_timer -= 1
    if m.attack_timer <= 0 and m.dig_left <= 0:
        m.activity = ST.ACT_NONE
    if m.dig_left > 0:
        _underground(s, cfg, k)
        return 0
    frozen = m.frozen > 0
    if m.stun > 0:
        m.stun -= 1
        return 0
    if m.kind == ST.K_NIBBLER and m.target >= 0 and s.pillar_hp[m.target] <= 0:
        m.target = _pick_pillar(s)
    if m.kind == ST.K_MELEER:
        # dig_rule 0: ticks its attack has been ready (InfernoTrainer's attackDelay below 0); 1: all ticks
        if cfg.dig_rule == 1 or m.attack_timer <= 0:
            m.dig_timer = min(m.dig_timer + 1, 30_000)
    tx, ty, tsize = target_of(s, cfg, m)
    seen = _move_turn(s, cfg, k, tx, ty, tsize)
    if frozen:
        m.frozen -= 1
    if seen < 0:
        return 0
    sees = seen == 1
    if m.kind == ST.K_MELEER and meleer_dig(s, cfg, k, sees):
        m.had_los = 0
        return 0
    score = 0
    if m.kind == ST.K_BLOB:
        score = _blob_turn(s, cfg, k, sees)
    elif sees and m.attack_timer <= 0:
        if m.target >= 0:
            _nibbler_chew(s, cfg, k)
        elif not (m.kind == ST.K_MAGER and mager_revive(s, cfg, k)):
            score = monster_attack(s, cfg, k, _distance_or_melee(s, cfg, m))
            if m.kind == ST.K_MELEER and cfg.dig_rule == 0:
                m.dig_timer = 0
    m.had_los = 1 if sees else 0
    return score


@njit(cache=True)
def monsters_turn(s, cfg):
    score = 0
    for k in range(ST.MONSTER_SLOTS):
        if s.monsters[k].state == ST.SLOT_ALIVE:
            score += monster_turn(s, cfg, k)
    return score


# ---- hits --------------------------------------------------------------------------------------------
@njit(cache=True)
def land_monster_hits(s, cfg):
    """The player's hits due on monsters; returns the damage dealt. A hit on a monster already dead is lost."""
    dealt = 0
    for i in range(ST.HIT_CAPACITY):
        h = s.hits[i]
        if h.state != HIT_PENDING or h.due_tick > s.tick or h.target == ST.HT_PLAYER:
            continue
        h.state = HIT_FREE
        k = h.target - ST.HT_MONSTER
        if k < 0 or k >= ST.MONSTER_SLOTS:
            continue
        m = s.monsters[k]
        if m.state != ST.SLOT_ALIVE:
            continue
        damage = min(np.int64(h.damage), np.int64(m.hp))
        m.hp -= damage
        m.hurt_tick = s.tick
        dealt += damage
        record_hit_landed(s, i, damage, m.x, m.y)
        if h.heal_pct > 0 and damage > 0:
            s.spec_healed += heal_hitpoints(s.p, damage * h.heal_pct // 100)
        if m.hp <= 0:
            kill_monster(s, cfg, k)
        elif h.freeze_ticks > 0 and (h.flags & FLAG_ACCURATE):
            freeze_monster(s, m, h.freeze_ticks)
    s.damage_dealt += dealt
    return dealt


@njit(cache=True)
def freeze_monster(s, m, ticks):
    """An accurate Ice Barrage freezes its monster when it lands [OSRS wiki "Freeze": the target is frozen
    when the spell hits, a splash does not freeze; the same rule as core.status for players in the pvp
    encounter]; a longer freeze in place is not cut short [M: osrs-sdk Unit.freeze keeps the longer one].
    osrs-sdk freezes at the cast instead (IceBarrageSpell.attack). The 5-tick immunity after a freeze
    (combat.md 4, an RSPS source, for players) is not modelled for monsters."""
    if ticks > m.frozen:
        m.frozen = ticks
    s.freezes += 1


@njit(cache=True)
def kill_monster(s, cfg, k):
    """Monster ``k`` at 0 hitpoints dies and keeps its slot (a mager may revive it); a blob splits."""
    m = s.monsters[k]
    m.state = ST.SLOT_DEAD
    m.dig_left = 0
    s.kills[m.kind] += 1
    record_event(s, EV_DEATH, ST.ENT_MONSTER + k, ENTITY_NONE, -1, 0, EVF_KILLED, m.x, m.y)
    if m.kind == ST.K_BLOB:
        split_blob(s, cfg, m.x, m.y)


@njit(cache=True)
def split_blob(s, cfg, x, y):
    """A dead blob splits into three bloblets, ranged at (+1, +1), melee on its tile, magic at (+2, +2) from
    its south-west tile (InfernoTrainer JalAk.ts removedFromWorld: IT (+1, -1), (0, 0), (+2, -2), IT y
    south), its first attack 4 ticks after the blob's death (``cooldown: 4``). APPROXIMATION: they appear on
    the tick the blob dies; InfernoTrainer adds them when the dead blob is removed, after its death
    animation, a delay no source gives in ticks. A bloblet takes the first free slot, else the first slot of
    a dead monster that can never be revived (a nibbler or bloblet); with none (a revived blob dying on a full
    wave) it is not spawned (APPROXIMATION of the slot capacity)."""
    kinds = (ST.K_BLOBLET_RANGED, ST.K_BLOBLET_MELEE, ST.K_BLOBLET_MAGIC)
    for j in range(3):
        slot = _spare_slot(s)
        if slot >= 0:
            off = BLOBLET_OFFSETS[j]
            _place(s, cfg, slot, kinds[j], x + off, y + off, ST.TARGET_PLAYER)
            # +1: a bloblet takes its first turn in this tick's monster phase, which counts the timer down
            s.monsters[slot].attack_timer = BLOBLET_COOLDOWN + 1


@njit(cache=True)
def _spare_slot(s):
    for slot in range(ST.MONSTER_SLOTS):
        if s.monsters[slot].state == ST.SLOT_FREE:
            return slot
    for slot in range(ST.MONSTER_SLOTS):
        m = s.monsters[slot]
        never = m.kind == ST.K_NIBBLER or ST.K_BLOBLET_MAGIC <= m.kind <= ST.K_BLOBLET_MELEE
        if m.state == ST.SLOT_DEAD and (m.revived or never):
            return slot
    return -1


@njit(cache=True)
def land_player_hits(s):
    """Hits due on the player, capped at its hitpoints, tallied by the kind that threw them."""
    p = s.p
    n = pop_due_for(s.hits, s.tick, ST.HT_PLAYER, s.landing)
    taken = 0
    for j in range(n):
        h = s.hits[s.landing[j]]
        if p.levels[HITPOINTS] <= 0:
            break
        damage = min(np.int64(h.damage), np.int64(p.levels[HITPOINTS]))
        p.levels[HITPOINTS] -= damage
        s.damage_taken[h.attacker] += damage
        s.taken_style[h.style] += damage
        taken += damage
        record_hit_landed(s, s.landing[j], damage, p.x, p.y)
    return taken


# ---- the player ------------------------------------------------------------------------------------
@njit(cache=True)
def inputs(s, cfg, a):
    p = s.p
    drink = a[ST.H_DRINK]
    if drink != ST.DRINK_NONE:
        slot = drink - 1
        if PI.use_supply(p, s.supplies, slot, cfg.supply_consumable[slot], cfg.consumables):
            s.supplies_used[slot] += 1
    switch_gear(s, cfg, a[ST.H_GEAR])
    over = a[ST.H_OVERHEAD]
    if ST.OVERHEAD_KEEP < over < len(_OVERHEAD_PRAYER):
        PI.set_overhead(p, _OVERHEAD_PRAYER[over])
    if a[ST.H_OFFENSIVE] == ST.OFFENSIVE_ON:
        PI.set_offensive(p, cfg.offensive, cfg.set_offensive[s.gear_set])
    elif a[ST.H_OFFENSIVE] == ST.OFFENSIVE_OFF:
        PI.clear_prayers(p, cfg.offensive)


@njit(cache=True)
def switch_gear(s, cfg, gear):
    """Put on set ``gear - 1`` (GEAR_KEEP: none). Equipping takes no tick of its own, and an attack in the same
    tick is the new weapon's, with its speed and range [M: Henke's model of the tick (runescapeguides.com "A
    Guide For Tick Manipulation Mechanics"): every player's client input (the equip clicks) is processed
    before the NPCs' and players' turns, so the attack in the player's turn uses what is worn by then;
    runedocs "queue": "combat delay is that of the last weapon attacked with", so a switch does not reset the
    attack timer]. The offensive prayer stays as it was (the ``offensive`` head turns on the new set's)."""
    if gear == ST.GEAR_KEEP or gear < 0 or gear > ST.NUM_SETS or gear - 1 == s.gear_set:
        return
    s.gear_set = gear - 1
    PI.wear(s.p, cfg.set_worn[s.gear_set])


CLICK_DX = np.array([d[0] for d in ST.MOVE_OFFSETS], dtype=np.int64)   # offset of click o (options 1 + o and
CLICK_DY = np.array([d[1] for d in ST.MOVE_OFFSETS], dtype=np.int64)   # 1 + NUM_CLICKS + o)


@njit(cache=True)
def move_option(dx, dy, run):
    """The move head's option for a click on offset (dx, dy) from the player (within MOVE_RADIUS; (0, 0): its
    own tile, a stop), walking or running; -1 for an offset no option clicks."""
    r = ST.MOVE_RADIUS
    if dx < -r or dx > r or dy < -r or dy > r:
        return -1
    return 1 + (dx + r) * (2 * r + 1) + dy + r + (ST.NUM_CLICKS if run else 0)


@njit(cache=True)
def move_click(mv):
    """(dx, dy, run) of move option ``mv`` (the inverse of ``move_option``); (0, 0, False) for MOVE_NONE."""
    if mv <= ST.MOVE_NONE or mv >= ST.NUM_MOVES:
        return 0, 0, False
    run = mv > ST.NUM_CLICKS
    i = (mv - 1) % ST.NUM_CLICKS
    side = 2 * ST.MOVE_RADIUS + 1
    return i // side - ST.MOVE_RADIUS, i % side - ST.MOVE_RADIUS, run


@njit(cache=True)
def move_legal(s, cfg, mv):
    """A click on a tile of the grid that is walkable on the map of the standing pillars; a run needs energy.
    The game lets one click any tile (a pillar's walks to its closest approach); those clicks are masked as a
    redundancy cut: the closest approach is a walkable tile that a legal click reaches by the same route."""
    if mv == ST.MOVE_NONE:
        return True
    if mv < 0 or mv >= ST.NUM_MOVES:
        return False
    dx, dy, run = move_click(mv)
    x, y = s.p.x + dx, s.p.y + dy
    if x < 0 or y < 0 or x >= A.GRID_W or y >= A.GRID_H or arena_map(s, cfg)[x, y] & BLOCKED:
        return False
    return not run or s.p.run_energy >= RUN_MIN_TO_RUN


@njit(cache=True)
def clear_destination(s):
    s.dest_x = -1
    s.dest_y = -1
    s.dest_run = 0


@njit(cache=True)
def click(s, cfg, mv):
    """A legal click replaces the stored destination (the game keeps one walk target; a new click re-routes)."""
    if mv == ST.MOVE_NONE or not move_legal(s, cfg, mv):
        return
    dx, dy, run = move_click(mv)
    s.dest_x = s.p.x + dx
    s.dest_y = s.p.y + dy
    s.dest_run = 1 if run else 0


@njit(cache=True)
def follow_route(s, cfg):
    """Walk 1 or run 2 tiles along the game's route to the stored destination; returns the tiles moved.
    The route is the router's from where the player stands, on the map of the standing pillars now
    (cfg.route: core.pathfinding.first_steps_table, rsmod RouteFinding.kt order), so a pillar that collapsed
    opens the next tick's route [osrs-sdk Player.movementStep: the player's path to its destination is
    rebuilt by Pathing.path every tick]. Other monsters do not block it [osrs-sdk Pathing.canTileBePathedTo:
    "Player can walk under mobs", the player's route is searched without mobs]. Standing on the destination
    clears it. A run with the energy gone walks, and the run is off from then on, as the game's run toggle
    turns off at 0 energy [OSRS wiki "Energy"]. APPROXIMATION: the game routes once per click and walks the
    stored waypoints; re-routing from each tile may take another of several equally short routes (never a
    longer one: each tile of a shortest route is one step nearer)."""
    p = s.p
    if s.dest_x < 0:
        return 0
    if s.dest_run and p.run_energy < RUN_MIN_TO_RUN:
        s.dest_run = 0
    dx = s.dest_x - p.x
    dy = s.dest_y - p.y
    if abs(dx) > ST.ROUTE_RADIUS or abs(dy) > ST.ROUTE_RADIUS:   # only a hand-edited state gets here
        clear_destination(s)
        return 0
    code = cfg.route[pillar_mask(s), p.x, p.y, (dx + ST.ROUTE_RADIUS) * ST.ROUTE_SIDE + dy + ST.ROUTE_RADIUS]
    moved = 0
    for j in range(2 if s.dest_run else 1):
        c = (code >> (4 * j)) & 15
        if c == 0:
            break
        p.x += STEP_DX[c]
        p.y += STEP_DY[c]
        moved += 1
    if moved == 0 or (p.x == s.dest_x and p.y == s.dest_y):
        clear_destination(s)           # arrived, or no route (the closest approach reached)
    return moved


@njit(cache=True)
def can_attack(s, cfg, k):
    """Monster slot ``k`` is alive and the player reaches it now: attack timer ready, within the worn set's
    range (a spell's 10) with a clear line over the standing pillars. The shield cannot be attacked (reference
    section 6)."""
    if k < 0 or k >= ST.MONSTER_SLOTS or s.p.attack_timer > 0:
        return False
    m = s.monsters[k]
    if m.state != ST.SLOT_ALIVE or m.kind == ST.K_SHIELD or m.dig_left > 0:
        return False
    return sees(s, cfg, s.p.x, s.p.y, 1, m.x, m.y, size_of(cfg, m),
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
    """One attack's rolls on monster slot ``k`` against its own defence, queued to land after ``delay``;
    returns its hitsplats. An accurate hit deals at least 1 (core.damage), so damage > 0 marks it accurate."""
    m = s.monsters[k]
    att, dfn, mn, mx = rolls_vs_npc(NO_TRACE, c, cfg.kind_row[m.kind], sp)
    n = sample_hits(s.rng, att, dfn, mn, mx, sp, cfg.bolt_ctx, CAP_NONE, s.splats)
    for j in range(n):
        hit = flags | (FLAG_ACCURATE if s.splats[j] > 0 else 0)
        queue_tracked_hit(s, ST.ENT_PLAYER, 0, s.tick + delay, s.splats[j], style, 0, ST.HT_MONSTER + k, hit,
                          heal_pct, freeze)
    return n


@njit(cache=True)
def in_barrage_area(s, cfg, k, j):
    """Monster ``j`` is one a barrage on slot ``k`` can hit: living, above ground, not the shield, its
    footprint overlapping the 3x3 centred on ``k``'s south-west tile (``_barrage_splash``)."""
    m, o = s.monsters[k], s.monsters[j]
    if o.state != ST.SLOT_ALIVE or o.dig_left > 0 or o.kind == ST.K_SHIELD:
        return False
    return overlaps(o.x, o.y, size_of(cfg, o), m.x - 1, m.y - 1, 3)


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
    """The player's attack on monster slot target - 1 with the worn set, if possible now; ``special``: the
    worn weapon's special when it has one and the energy allows (the blowpipe's Toxic Siphon: its special
    row's rolls, 50 % energy, heals half the damage dealt when it lands [core.specials: specials.json "Toxic
    blowpipe", OSRS wiki "Toxic blowpipe"; osrs-sdk Blowpipe.specialAttack heals floor(damage / 2)]).
    Returns whether it attacked."""
    k = target - 1
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
    # a barrage's delay is measured to the target's south-west tile [combat.md 9; wiki.illerai.com "Hit delay":
    # "barrage spells ... calculate distance from the player to an NPC's south-west tile"; osrs-sdk forceSWTile]
    size = 1 if style == STYLE_MAGIC else size_of(cfg, m)
    d = edge_distance(s.p.x, s.p.y, 1, m.x, m.y, size)
    delay = hit_delay(cfg.set_proj[g], d, True)      # NPCs go first: +1 [combat.md 9]
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
    click(s, cfg, mv)
    if target != ST.ATTACK_NONE and can_attack(s, cfg, target - 1):
        attack(s, cfg, target, special)
        clear_destination(s)
        return 0
    moved = follow_route(s, cfg)
    if attack(s, cfg, target, special):
        clear_destination(s)
    return moved


# ---- waves -------------------------------------------------------------------------------------------
@njit(cache=True)
def _place(s, cfg, slot, kind, x, y, target, by=ENTITY_NONE, flags=0):
    """Monster ``kind`` appears in ``slot`` at (x, y), aiming at ``target``; an EV_SPAWN (``by``, ``flags``:
    the mager and EVF_REVIVED of a resurrection)."""
    m = s.monsters[slot]
    m.state = ST.SLOT_ALIVE
    m.kind = kind
    m.x = x
    m.y = y
    m.hp = cfg.kind_row[kind].hitpoints
    m.attack_timer = 0
    m.stun = 1                        # InfernoTrainer mobs/*.ts setStats: stunned = 1
    m.target = target
    m.scan = -1
    m.had_los = 0
    m.revived = 0
    m.dig_timer = 0
    m.dig_due = DIG_WIKI_FIRST
    m.dig_left = 0
    m.dig_x = 0
    m.dig_y = 0
    m.hurt_tick = ST.NO_HURT
    m.frozen = 0
    m.activity = ST.ACT_NONE
    record_event(s, EV_SPAWN, ST.ENT_MONSTER + slot, by, -1, 1, flags, x, y)


@njit(cache=True)
def spawn_wave(s, cfg):
    """Clear the slots and spawn wave ``s.wave``: the nine spawn tiles in a Fisher-Yates order, taken by
    magers, rangers, meleers, blobs, then bats; nibblers on distinct tiles of the central block, all after
    one standing pillar drawn for the wave."""
    for k in range(ST.MONSTER_SLOTS):
        s.monsters[k].state = ST.SLOT_FREE
    for i in range(ST.HIT_CAPACITY):            # arrows still flying at last wave's monsters are lost
        if s.hits[i].state == HIT_PENDING and s.hits[i].target != ST.HT_PLAYER:
            s.hits[i].state = HIT_FREE
    order = np.arange(A.NUM_SPAWNS)
    for i in range(A.NUM_SPAWNS - 1, 0, -1):
        j = R.below(s.rng, i + 1)
        order[i], order[j] = order[j], order[i]
    slot = 0
    tile = 0
    counts = cfg.wave_counts[s.wave]
    for c in ST.SPAWN_ORDER:
        for _ in range(counts[c]):
            t = order[tile]
            _place(s, cfg, slot, ST.WAVE_KIND[c], cfg.spawn_xy[t, 0], cfg.spawn_xy[t, 1], ST.TARGET_PLAYER)
            slot += 1
            tile += 1
    nib = np.arange(9)
    for i in range(8, 0, -1):
        j = R.below(s.rng, i + 1)
        nib[i], nib[j] = nib[j], nib[i]
    pillar = _pick_pillar(s)
    for i in range(counts[0]):
        t = nib[i]
        _place(s, cfg, slot, ST.K_NIBBLER, cfg.nibbler_xy[t, 0], cfg.nibbler_xy[t, 1], pillar)
        slot += 1
    s.wave_tick = 0
    s.next_wave_in = 0
    record_event(s, EV_SPAWN, ENTITY_NONE, ENTITY_NONE, -1, s.wave, ST.EVF_WAVE, s.p.x, s.p.y)


@njit(cache=True)
def monsters_alive(s):
    n = 0
    for k in range(ST.MONSTER_SLOTS):
        if s.monsters[k].state == ST.SLOT_ALIVE:
            n += 1
    return n


@njit(cache=True)
def wave_clock(s, cfg):
    """The wave's clock, at the end of the tick; returns 1 when this tick cleared a wave before the last."""
    if s.next_wave_in > 0:
        s.next_wave_in -= 1
        if s.next_wave_in == 0:
            s.wave += 1
            spawn_wave(s, cfg)
        return 0
    s.wave_tick += 1
    if monsters_alive(s) > 0:
        return 0
    if s.wave >= cfg.last_wave:
        # the last wave: counted once; success only when no hit is still flying at the player (a hit lands
        # after its thrower dies [M: osrs-sdk Unit.processIncomingAttacks drops a projectile only with
        # cancelOnDeath, which no Inferno monster sets]); until then the player's ticks go on and it may die
        if s.waves_cleared <= s.wave - s.start_wave_drawn:
            s.waves_cleared += 1
        if not hits_on_player(s):
            s.outcome = ST.OUTCOME_CLEARED
        return 0
    s.waves_cleared += 1
    s.next_wave_in = ST.WAVE_GAP_TICKS
    return 1


@njit(cache=True)
def hits_on_player(s):
    for i in range(ST.HIT_CAPACITY):
        if s.hits[i].state == HIT_PENDING and s.hits[i].target == ST.HT_PLAYER:
            return True
    return False


# ---- reset and the tick ------------------------------------------------------------------------------
@njit(cache=True)
def reset(s, cfg, seed):
    R.seed_rng(s.rng, seed, 0)
    s.tick = 0
    start_tick(s)
    reset_player(s.p, cfg.levels, cfg.start_xy[0], cfg.start_xy[1])
    s.gear_set = ST.SET_BOW
    clear_destination(s)
    PI.wear(s.p, cfg.set_worn[ST.SET_BOW])
    s.supplies[ST.SUP_BREW] = cfg.brews
    s.supplies[ST.SUP_RESTORE] = cfg.restores
    s.supplies[ST.SUP_BASTION] = cfg.bastions
    s.supplies[ST.SUP_STAMINA] = cfg.staminas
    PI.refresh_combat(s.combat, s.p, cfg.set_combat[ST.SET_BOW])
    for p in range(A.NUM_PILLARS):
        s.pillar_hp[p] = A.PILLAR_HP
    clear_queue(s.hits)
    s.outcome = ST.OUTCOME_NONE
    s.waves_cleared = 0
    s.damage_dealt = 0
    s.monster_attacks = 0
    s.prayed_attacks = 0
    s.pillar_damage = 0
    s.collapse_damage = 0
    s.resurrections = 0
    s.digs = 0
    s.specs_used = 0
    s.spec_healed = 0
    s.freezes = 0
    s.barrage_hits = 0
    for k in range(ST.NUM_KINDS):
        s.damage_taken[k] = 0
        s.kills[k] = 0
    for k in range(ST.NUM_SUPPLIES):
        s.supplies_used[k] = 0
    for k in range(ST.NUM_REWARD_TERMS):
        s.reward_sums[k] = 0.0
    if cfg.start_hp > 0:
        s.p.levels[HITPOINTS] = min(cfg.start_hp, s.p.base_levels[HITPOINTS])
    if cfg.start_prayer > 0:
        s.p.levels[PRAYER] = min(cfg.start_prayer, s.p.base_levels[PRAYER])
    for k in range(4):
        s.taken_style[k] = 0
    s.wave = draw_start_wave(s, cfg)
    s.start_wave_drawn = s.wave
    spawn_wave(s, cfg)


@njit(cache=True)
def draw_start_wave(s, cfg):
    """``start_wave``, or with band weights a band drawn by them (bands past ``last_wave`` skipped by
    redrawing) and a wave uniform in it, capped at ``last_wave``."""
    if cfg.band_cumulative[ST.NUM_BANDS - 1] <= 0.0:
        return np.int64(cfg.start_wave)
    while True:
        u = R.uniform(s.rng)
        b = 0
        while b < ST.NUM_BANDS - 1 and u >= cfg.band_cumulative[b]:
            b += 1
        lo, hi = ST.BANDS[b]
        if lo <= cfg.last_wave:
            return R.between(s.rng, lo, min(hi, cfg.last_wave))


@njit(cache=True)
def end_of_tick(s, cfg, ran):
    p = s.p
    tick_action_timers(p)
    drain_prayer(p, cfg.set_prayer_bonus[s.gear_set])
    tick_run_energy(p, ran, RUN_WEIGHT_KG, AGILITY_LEVEL)
    tick_spec_regen(p, False)
    tick_hitpoints(p, False, False)
    tick_stat_restore(p, False)
    return wave_clock(s, cfg)


@njit(cache=True)
def tick(s, cfg, a):
    """One game tick; returns (terminated, truncated, dealt, taken, waves cleared)."""
    s.tick += 1
    start_tick(s)
    # 1. the player's clicks
    inputs(s, cfg, a)
    # 2. the player's hits on monsters, 3. the monsters
    dealt = land_monster_hits(s, cfg)
    if s.next_wave_in == 0:
        monsters_turn(s, cfg)
    # 4. the player: hits land, it moves, it shoots
    taken = land_player_hits(s)
    moved = 0
    if s.p.levels[HITPOINTS] > 0:
        moved = move_or_attack(s, cfg, a[ST.H_MOVE], a[ST.H_ATTACK], a[ST.H_SPEC] == ST.SPEC_USE)
    # 5. end of tick and the wave clock
    cleared = 0
    if s.p.levels[HITPOINTS] > 0:
        cleared = end_of_tick(s, cfg, moved >= 2)
    # 6. outcome
    if s.p.levels[HITPOINTS] <= 0:
        s.outcome = ST.OUTCOME_DEATH
        record_event(s, EV_DEATH, ST.ENT_PLAYER, ENTITY_NONE, -1, 0, EVF_KILLED, s.p.x, s.p.y)
        return True, False, dealt, taken, cleared
    if s.outcome == ST.OUTCOME_CLEARED:
        return True, False, dealt, taken, cleared
    if s.tick >= cfg.max_ticks:
        s.outcome = ST.OUTCOME_TIMEOUT
        return False, True, dealt, taken, cleared
    return False, False, dealt, taken, cleared


@njit(cache=True)
def _tallies(s):
    """(prayed, unprayed, kills, doses, pillar damage) so far: the step's shaping terms are their changes."""
    kills = 0
    for k in range(ST.NUM_KINDS):
        kills += s.kills[k]
    doses = 0
    for k in range(ST.NUM_SUPPLIES):
        doses += s.supplies_used[k]
    return s.prayed_attacks, s.monster_attacks - s.prayed_attacks, kills, doses, s.pillar_damage


@njit(cache=True)
def _add_term(s, k, value):
    s.reward_terms[0, k] += value
    s.reward_sums[k] += value
    return value


@njit(cache=True)
def step(s, cfg, actions, rewards):
    """The tick, then its reward: the outcome, the waves cleared (``coef_wave``, 0.1 by default) and every
    shaping term (the other ``coef_*``, all 0 by default), each recorded by name in ``reward_terms`` and summed
    in ``reward_sums``."""
    prayed0, missed0, kills0, doses0, pillar0 = _tallies(s)
    hp0 = s.p.levels[HITPOINTS]
    terminated, truncated, dealt, taken, cleared = tick(s, cfg, actions[0])
    prayed1, missed1, kills1, doses1, pillar1 = _tallies(s)
    r_outcome = 0.0
    if s.outcome == ST.OUTCOME_CLEARED:
        r_outcome = cfg.cleared_reward
    elif s.outcome == ST.OUTCOME_DEATH:
        r_outcome = cfg.death_reward
    elif s.outcome == ST.OUTCOME_TIMEOUT:
        r_outcome = cfg.timeout_reward
    total = _add_term(s, ST.R_OUTCOME, r_outcome)
    total += _add_term(s, ST.R_WAVE, cfg.coef_wave * cleared)
    total += _add_term(s, ST.R_DEALT, cfg.coef_damage_dealt * dealt / 100.0)
    total += _add_term(s, ST.R_TAKEN, -cfg.coef_damage_taken * taken / 99.0)
    total += _add_term(s, ST.R_PRAYER, cfg.coef_prayer * ((prayed1 - prayed0) - (missed1 - missed0)))
    total += _add_term(s, ST.R_KILL, cfg.coef_kill * (kills1 - kills0))
    total += _add_term(s, ST.R_SUPPLIES, -cfg.coef_supplies * (doses1 - doses0))
    total += _add_term(s, ST.R_PILLAR, -cfg.coef_pillar * (pillar1 - pillar0) / 255.0)
    # potential-based (Ng, Harada and Russell 1999), the potential hp / 99 and 0 after a death or the clear:
    # discounted by hitpoints_gamma a run's sum is -first hp / 99 whatever it does, so it pays no loop, no
    # stall and no early death; what it changes is when a hit's cost is felt (the tick it lands)
    hp1 = 0.0 if terminated else float(max(s.p.levels[HITPOINTS], 0))
    total += _add_term(s, ST.R_HITPOINTS, cfg.coef_hitpoints * (cfg.hitpoints_gamma * hp1 - hp0) / 99.0)
    rewards[0] = total
    return terminated, truncated
