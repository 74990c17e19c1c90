"""The Inferno, waves 1-66: the kernels behind the ``inferno`` spec (observe, mask, metrics: view.py).

Index (tick order; sources in README.md, tags as defined in docs/sources.md):
  1. the player's clicks (core.player_input): a potion dose (brew or restore, core.consumables), the gear
     switch (one of the loadout's three sets; no tick of its own), then the overhead and the offensive prayer
     of the set now worn (Rigour, or Augury with the magic set);
  2. the player's hits due on monsters land (arrows loosed last tick or before; a Toxic Siphon hit heals
     the player half its damage, an accurate barrage freezes its monster 32 ticks); a monster at 0 dies and
     keeps its slot until the next wave (its resurrection is part 2); a blob splits into three bloblets;
  3. monsters, in slot order (the spawn order), before the player [OSRS wiki "Hit delay"; InfernoTrainer World.ts
     ticks every mob's movement, then every mob's attack, then the player]. Each one:
     a. counts its attack timer down, then waits out its stun (1 tick after spawning);
     b. nibblers aim at their wave's pillar (another standing one when it falls, the player when none
        stands); every other monster at the player;
     c. under the player it steps out in a random cardinal direction (core.movement rule 7); else, without
        line of sight (or melee reach), one chase step (``_chase``: InfernoTrainer Mob.movementStep: diagonal,
        else x, else y, other monsters and the pillars block, the player does not);
     d. with line of sight (melee: edge contact, no diagonal) and its timer at 0 it attacks: the roll,
        the max hit and the overhead are decided now, on the attack tick [osrs-sdk Weapon.attack: the prayer is
        read when the attack is made]; the hit lands after the style's delay (melee 0, ranged as a bow, magic as
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
    pop_due_for,
)
from osrs_rl.core.player import heal_hitpoints, reset_player, tick_action_timers
from osrs_rl.core.player_input import protected_from
from osrs_rl.core.prayer_drain import drain_prayer
from osrs_rl.core.skills import HITPOINTS, PRAYER
from osrs_rl.core.specials import SP_COST, SP_HEAL_DEN, SP_HEAL_NUM

from . import arena as A
from . import state as ST
from . import waves as W

BAT_RUN_DRAIN = 300            # run energy units per bat attack (3 %) [M: InfernoTrainer JalMejRah.ts]
NIBBLER_PILLAR_MAX = 4         # a nibbler chews 0..4 off a pillar [M: InfernoTrainer JalNib.ts floor(rand * 5)]
MELEE_IF_CLOSE = (1, 2)        # an adjacent ranger/mager/blob melees with p = 1/2 [M: InfernoTrainer Mob.attack]
BLOB_SCAN_DELAY = 3            # a blob fires 3 ticks after its scan, and scans 3 ticks after firing
                               # [H: InfernoTrainer JalAk.ts attackSpeed 3 on both; RuneLite cycle 6]
BLOBLET_OFFSETS = (1, 0, 2)    # ranged, melee, magic bloblet: (+d, +d) from the blob's south-west tile
BLOBLET_COOLDOWN = 4           # [M: InfernoTrainer JalAk.ts cooldown 4]
BLOBLET_DELAY = 3              # a dead blob splits 3 ticks after its death tick [M: osrs-sdk Unit.dead sets dying to
                               # deathAnimationLength 3 (JalAk does not override it), Unit.detectDeath counts it down
                               # once a tick and calls removedFromWorld at 0, where JalAk.ts adds the bloblets]
# Jal-ImKot's dig [M: InfernoTrainer JalImKot.ts: freeze(6) / digSequenceTime 6 underground, then attackDelay 6
# and freeze(2) on surfacing; RuneLite inferno plugin: the burrow animation (7600) is followed by its next
# attack 12 ticks later = 6 + 6]. The trigger is a config choice (dig_rule, README "Open questions").
DIG_TICKS = 6
DIG_ATTACK_WAIT = 6
DIG_SURFACE_FREEZE = 2
# dig_rule 1 [L: numbers an unpublished compilation attributes to the OSRS wiki; the wiki page was not read:
# APPROXIMATION, unconfirmed]:
DIG_WIKI_FIRST = 50            # 50 ticks
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
START_FINALE = (A.PLAYER_START_67, A.PLAYER_START_68, A.PLAYER_START_69)
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
def map_index(s):
    """The map the wave is fought on: cfg.maps, cfg.route and cfg.sight by standing pillars, or the Zuk
    wave's (state.ZUK_MAP: no pillars, sight open to the north where the glyph and Zuk stand)."""
    if s.wave >= W.ZUK_WAVE:
        return ST.ZUK_MAP
    return pillar_mask(s)


@njit(cache=True)
def arena_map(s, cfg):
    return cfg.maps[map_index(s)]


@njit(cache=True)
def sees(s, cfg, x0, y0, size0, x1, y1, size1, reach):
    """core.line_of_sight.has_line_of_sight over the standing pillars, read from the precomputed table of
    their map (cfg.sight: the same answers, core.line_of_sight.table_line_of_sight)."""
    return table_line_of_sight(cfg.sight[map_index(s)], A.GRID_W, A.GRID_H, x0, y0, size0, x1, y1, size1, reach)


@njit(cache=True)
def size_of(cfg, m):
    return np.int64(cfg.kind_size[m.kind])


# ---- monsters: where they aim, what they see ----------------------------------------------------------
@njit(cache=True)
def target_of(s, cfg, m):
    """(x, y, size) of the monster's target: the player, its pillar, the glyph, or a monster (a healer's)."""
    if m.target >= ST.TARGET_SHIELD:
        o = s.monsters[SHIELD_SLOT if m.target == ST.TARGET_SHIELD else m.target - ST.TARGET_SLOT]
        return np.int64(o.x), np.int64(o.y), size_of(cfg, o)
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
    if m.target == ST.TARGET_SHIELD:
        # the glyph stands off the floor, where no ray starts (core.line_of_sight rule 3): cast from the monster
        return sees(s, cfg, m.x, m.y, size, tx, ty, tsize, reach)
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
    next to it (within 1 tile of its 3x3) take ``collapse_rule``'s damage [L: text an unpublished compilation
    attributes to the OSRS wiki gives both "49" and "half current hitpoints" (the wiki page not read:
    APPROXIMATION, unconfirmed); InfernoTrainer only removes
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
def monster_attack(s, cfg, k, style, released=False):
    """Monster ``k`` attacks the player with ``style``: accuracy, damage and the overhead are decided now
    (the attack tick); the hit lands after the style's delay. ``released``: a Jad's attack released
    JAD_RELEASE ticks after its animation (``jad_release``): its projectile is that much shorter and its
    attack timer already runs. Returns the prayer score (+1 met, -1 not)."""
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
    if released:
        delay = max(delay - JAD_RELEASE, 0)
    blocked = EVF_BLOCKED if prayed else 0
    queue_tracked_hit(s, ST.ENT_MONSTER + k, blocked, s.tick + delay, damage, style, m.kind, ST.HT_PLAYER, flags,
                      0, 0)
    record_event(s, EV_ATTACK, ST.ENT_MONSTER + k, ST.ENT_PLAYER, style, 0, blocked, m.x, m.y)
    s.monster_attacks += 1
    m.activity = ST.ACT_ATTACK
    if m.kind == ST.K_BAT:
        p.run_energy = max(0, p.run_energy - BAT_RUN_DRAIN)
    if not released:
        m.attack_timer = attack_speed_of(s, cfg, m)
    if prayed:
        s.prayed_attacks += 1
        return 1
    return -1


@njit(cache=True)
def _pillar_takes(s, cfg, k, style, pillar):
    """Monster ``k``'s attack on the player, fired without a clear line, hits ``pillar`` instead: damage
    0..max, no accuracy roll, no prayer [M: an unpublished compilation's description of the pillars, "attacks
    aimed at a player but blocked by a pillar damage the pillar" (no public source found); APPROXIMATION: the
    pillar's defence is not rolled]."""
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
    if m.target == ST.TARGET_PLAYER and cfg.kind_melee[m.kind] \
            and in_melee_reach(m.x, m.y, size_of(cfg, m), s.p.x, s.p.y, 1) \
            and R.chance(s.rng, MELEE_IF_CLOSE[0], MELEE_IF_CLOSE[1]):
        return STYLE_MELEE
    if m.kind == ST.K_JAD:       # ranged or magic 50/50 [M: InfernoTrainer JalTokJad.attackStyleForNewAttack]
        return STYLE_RANGED if R.chance(s.rng, 1, 2) else STYLE_MAGIC
    return np.int64(cfg.kind_style[m.kind])


@njit(cache=True)
def _blob_turn(s, cfg, k, sees):
    """The blob's cycle (InfernoTrainer JalAk.ts): with sight, a new sight or a ready timer without a pending
    scan reads the player's overhead and sets the timer to 3; 3 ticks later it fires the style the overhead
    does not block (Missiles -> magic, Magic -> ranged, neither -> 50/50 drawn when it fires: InfernoTrainer
    JalAk.attackStyleForNewAttack; RuneLite InfernoNPC.gameTick marks it UNKNOWN at the scan). ``blob_shot_rule``
    0 (default): the scanned shot is fired at the player with or without sight and at any distance
    [M: InfernoTrainer JalAk.attackIfPossible "Blobs can hit through LoS if they got a scan": the attack after a
    scan checks only the timer]; 1: without sight a pillar in the way takes it and a player out of sight with
    nothing in the way is not shot at (the rule this simulator had; no public source gives it). Returns the
    prayer score of an attack."""
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
    if not sees and cfg.blob_shot_rule == 1:
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
    if m.kind == ST.K_SHIELD:
        glyph_turn(s, cfg, k)
        return 0
    if m.attack_timer > 0:
        m.attack_timer -= 1
    if m.attack_timer <= 0 and m.dig_left <= 0:
        m.activity = ST.ACT_NONE
    if m.dig_left > 0:
        _underground(s, cfg, k)
        return 0
    released = 0
    if m.windup > 0:             # a Jad's shown attack leaves JAD_RELEASE ticks after its animation
        m.windup -= 1
        if m.windup == 0:
            released = jad_release(s, cfg, k)
    frozen = m.frozen > 0
    if m.kind == ST.K_ZUK:
        zuk_set_clock(s, cfg)     # counts on while he is stunned too
    if m.stun > 0:
        m.stun -= 1
        return released
    if m.kind == ST.K_ZUK:
        zuk_turn(s, cfg, k)
        return 0
    if m.kind == ST.K_ZUK_HEALER:
        zuk_healer_turn(s, cfg, k)
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
        return released
    sees = seen == 1
    if m.kind == ST.K_MELEER and meleer_dig(s, cfg, k, sees):
        m.had_los = 0
        return released
    score = 0
    if m.kind == ST.K_BLOB:
        score = _blob_turn(s, cfg, k, sees)
    elif sees and m.attack_timer <= 0 and m.windup <= 0:
        if m.target >= ST.TARGET_SLOT:
            heal_turn(s, cfg, k)
        elif m.target == ST.TARGET_SHIELD:
            _attack_glyph(s, cfg, k)
        elif m.target >= 0:
            _nibbler_chew(s, cfg, k)
        elif m.kind == ST.K_JAD:
            score = jad_attack(s, cfg, k)
        elif not (m.kind == ST.K_MAGER and s.wave < W.ZUK_WAVE and mager_revive(s, cfg, k)):
            score = monster_attack(s, cfg, k, _distance_or_melee(s, cfg, m))
            if m.kind == ST.K_MELEER and cfg.dig_rule == 0:
                m.dig_timer = 0
    m.had_los = 1 if sees else 0
    return score + released


@njit(cache=True)
def split_due_blobs(s, cfg):
    """Dead blobs whose death animation ended this tick split (BLOBLET_DELAY), before the monsters' turns."""
    for k in range(ST.MONSTER_SLOTS):
        m = s.monsters[k]
        if m.state == ST.SLOT_DEAD and m.split_due > 0 and s.tick >= m.split_due:
            m.split_due = 0
            split_blob(s, cfg, m.x, m.y)


@njit(cache=True)
def monsters_turn(s, cfg):
    split_due_blobs(s, cfg)
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
        if m.hp < m.low_hp:          # the low watermarks (coef_jad_damage, coef_zuk_damage)
            if m.kind == ST.K_JAD:
                s.jad_low_dealt += m.low_hp - m.hp
            elif m.kind == ST.K_ZUK:
                s.zuk_low = m.hp
            m.low_hp = m.hp
        drawn_by_player(s, cfg, k)
        if m.hp <= 0:
            kill_monster(s, cfg, k)
        else:
            if h.freeze_ticks > 0 and (h.flags & FLAG_ACCURATE):
                freeze_monster(s, m, h.freeze_ticks)
            if m.kind == ST.K_JAD:
                jad_hurt(s, cfg, k)
            elif m.kind == ST.K_ZUK:
                zuk_hurt(s, cfg, k)
    s.damage_dealt += dealt
    return dealt


@njit(cache=True)
def freeze_monster(s, m, ticks):
    """An accurate Ice Barrage freezes its monster when it lands [OSRS wiki "Freeze": the target is frozen
    when the spell hits, a splash does not freeze; the same rule as core.status for players in the pvp
    encounter]; a longer freeze in place is not cut short [M: osrs-sdk Unit.freeze keeps the longer one].
    osrs-sdk freezes at the cast instead (IceBarrageSpell.attack). The 5-tick immunity after a freeze
    (core.status for players: Naton1's RSPS ``CombatFactory.freeze``) is not modelled for monsters."""
    if ticks > m.frozen:
        m.frozen = ticks
    s.freezes += 1


@njit(cache=True)
def kill_monster(s, cfg, k):
    """Monster ``k`` at 0 hitpoints dies and keeps its slot (a mager may revive it); a blob splits; a Jad's
    healers die with it, and everything dies with Zuk (``dies_with``)."""
    m = s.monsters[k]
    m.state = ST.SLOT_DEAD
    m.dig_left = 0
    m.windup = 0
    s.kills[m.kind] += 1
    record_event(s, EV_DEATH, ST.ENT_MONSTER + k, ENTITY_NONE, -1, 0, EVF_KILLED, m.x, m.y)
    if m.kind == ST.K_BLOB:
        m.split_due = s.tick + BLOBLET_DELAY     # its bloblets come after its death animation (split_due_blobs)
    elif m.kind == ST.K_JAD_HEALER or m.kind == ST.K_ZUK_HEALER:
        s.healers_killed += 1
    elif m.kind == ST.K_JAD or m.kind == ST.K_ZUK:
        dies_with(s, k)


@njit(cache=True)
def split_blob(s, cfg, x, y):
    """A dead blob splits into three bloblets, ranged at (+1, +1), melee on its tile, magic at (+2, +2) from
    its south-west tile (InfernoTrainer JalAk.ts removedFromWorld: IT (+1, -1), (0, 0), (+2, -2), IT y
    south), each with its first attack 4 ticks later (``cooldown: 4``); called BLOBLET_DELAY ticks after the
    blob's death (``split_due_blobs``). A bloblet takes the first free slot, else the first slot of a dead
    monster that can never be revived (a nibbler or bloblet); with none (a revived blob dying on a full wave)
    it is not spawned (APPROXIMATION of the slot capacity)."""
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
    """A slot for a monster that appears mid-wave: a free one, else the slot of a dead monster that can never
    be revived (a nibbler, a bloblet, one revived already; on waves 67-69 any: nothing is revived there, IT
    JalZek revives only on the regular waves); -1 when none is left."""
    for slot in range(ST.MONSTER_SLOTS):
        if s.monsters[slot].state == ST.SLOT_FREE:
            return slot
    finale = s.wave >= W.JAD_WAVE
    for slot in range(ST.MONSTER_SLOTS):
        m = s.monsters[slot]
        never = m.kind == ST.K_NIBBLER or ST.K_BLOBLET_MAGIC <= m.kind <= ST.K_BLOBLET_MELEE
        if m.state == ST.SLOT_DEAD and m.split_due == 0 and (finale or m.revived or never):
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
        if p.levels[HITPOINTS] <= 0:
            s.killer = h.attacker
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
    code = cfg.route[map_index(s), p.x, p.y, (dx + ST.ROUTE_RADIUS) * ST.ROUTE_SIDE + dy + ST.ROUTE_RADIUS]
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
    range (a spell's 10) with a clear line over the standing pillars. The shield cannot be attacked (IT
    ZukShield.canBeAttacked is false)."""
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
    # a barrage's delay is measured to the target's south-west tile [OSRS wiki "Hit delay", wiki.illerai.com copy:
    # "barrage spells ... calculate distance from the player to an NPC's south-west tile"; osrs-sdk forceSWTile]
    size = 1 if style == STYLE_MAGIC else size_of(cfg, m)
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
    m.windup = 0
    m.parent = -1
    m.procced = 0
    m.low_hp = m.hp
    m.split_due = 0                   # a blob revived before it split never splits (osrs-sdk Unit.cancelDeath)
    record_event(s, EV_SPAWN, ST.ENT_MONSTER + slot, by, -1, 1, flags, x, y)


@njit(cache=True)
def spawn_wave(s, cfg):
    """Clear the slots and spawn wave ``s.wave``: the nine spawn tiles in a Fisher-Yates order, taken by
    magers, rangers, meleers, blobs, then bats; nibblers on distinct tiles of the central block, all after
    one standing pillar drawn for the wave. Waves 67-69: ``spawn_finale``."""
    for k in range(ST.MONSTER_SLOTS):
        s.monsters[k].state = ST.SLOT_FREE
    for i in range(ST.HIT_CAPACITY):            # arrows still flying at last wave's monsters are lost
        if s.hits[i].state == HIT_PENDING and s.hits[i].target != ST.HT_PLAYER:
            s.hits[i].state = HIT_FREE
    s.wave_tick = 0
    s.next_wave_in = 0
    if s.wave >= W.JAD_WAVE:
        spawn_finale(s, cfg)
        record_event(s, EV_SPAWN, ENTITY_NONE, ENTITY_NONE, -1, s.wave, ST.EVF_WAVE, s.p.x, s.p.y)
        return
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
def wave_left(s):
    """Monsters alive and dead blobs whose bloblets are still to come: the wave is not cleared while any is."""
    n = 0
    for k in range(ST.MONSTER_SLOTS):
        m = s.monsters[k]
        if m.state == ST.SLOT_ALIVE or (m.state == ST.SLOT_DEAD and m.split_due > 0):
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
    if wave_left(s) > 0:
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


# ---- the finale: waves 67-69 ----------------------------------------------------------------------------
# Sources [M unless tagged]: OldSchoolSDK/InfernoTrainer @ fdc5cb2 ("IT") InfernoRegion.ts (the wave setups),
# mobs/JalTokJad.ts, mobs/YtHurKot.ts, mobs/TzKalZuk.ts, ZukShield.ts, mobs/JalMejJak.ts,
# InfernoHealerSpark.ts; the RuneLite inferno plugin (runelite/runelite plugins/inferno) agrees on the set
# timer [H].
JAD_RELEASE = 3                # a Jad's attack leaves 3 ticks after its animation shows the style: the overhead
                               # then decides, and the projectile is 3 ticks shorter (IT JAD_PROJECTILE_DELAY,
                               # reduceDelay 3; RuneLite ticksAfterAnimation)
JAD_68_SPEED = 9               # the triple Jads attack every 9 ticks (IT wave 68 attackSpeed 9; 8 elsewhere)
JAD_HEALERS = (5, 3, 3)        # healers a Jad calls below half hitpoints on waves 67, 68, 69 (IT)
JAD_HEAL_MAX = 19              # a Yt-HurKot heals its Jad 0..19 a hit (IT HealWeapon floor(rand * 20); the
                               # wiki's 15-24 as an unpublished compilation quotes it [L])
HEALER_TRIES = 64              # random tiles tried for a healer before it takes its Jad's tile
ZUK_SLOT, SHIELD_SLOT = 1, 0   # the glyph moves before Zuk attacks (IT adds the shield first)
ZUK_STUN = 8                   # IT TzKalZuk.setStats stunned 8
ZUK_FIRST_ATTACK = 14          # IT attackDelay 14: his first attack 14 ticks after the wave starts
ZUK_SPEED, ZUK_ENRAGED_SPEED = 10, 7   # [H: RuneLite InfernoNPC (10, 7 in the final phase), IT attackSpeed]
ZUK_PROJECTILE = 4             # his hit lands 4 ticks after the attack (IT ZukWeapon setDelay 4)
SET_FIRST, SET_PERIOD = 72, 350        # [H: IT setTimer 72 then 350; RuneLite 3:30]
SET_PAUSE_HP, SET_RESUME_HP, SET_RESUME_EXTRA = 600, 480, 175   # [H: IT + RuneLite (RuneLite adds 105 s)]
HEALERS_HP = 240               # Zuk's four Jal-MejJak come below 240 and he enrages (IT; secondary agrees)
ZUK_JAD_STUN = 7               # IT spawnDelay 7
ZUK_HEALER_STUN = 3            # IT spawnDelay 2, then stunned 1
ZUK_HEAL_MAX = 24              # a Jal-MejJak heals Zuk 0..24 every 3 ticks (IT floor(rand * 25))
HEALER_DRAWN_WAIT = 2          # a Jal-MejJak drawn by the player waits 2 ticks (IT nulledTicks 2)
SPARKS_PER_THROW = 3
SPARK_DELAY = 2                # a spark lands 2 ticks after the throw (IT DelayedAction 2) on its 3x3
SPARK_DAMAGE = (5, 10)         # IT InfernoSparkWeapon 5 + floor(rand * 6): unprayable


@njit(cache=True)
def attack_speed_of(s, cfg, m):
    """Ticks between a monster's attacks: its kind's, but the triple Jads' 9 and an enraged Zuk's 7."""
    if m.kind == ST.K_JAD and s.wave == W.TRIPLE_JAD_WAVE:
        return np.int64(JAD_68_SPEED)
    if m.kind == ST.K_ZUK:
        return np.int64(ZUK_ENRAGED_SPEED if s.enraged else ZUK_SPEED)
    return np.int64(cfg.kind_speed[m.kind])


@njit(cache=True)
def _spawn(s, cfg, kind, x, y, target, stun, parent=-1):
    """``kind`` at (x, y) in a spare slot (``_spare_slot``), stunned ``stun`` ticks (its spawn delay); the slot
    or -1 when none is left (APPROXIMATION of the slot capacity: with 16 alive the monster is not spawned)."""
    slot = _spare_slot(s)
    if slot >= 0:
        _place(s, cfg, slot, kind, x, y, target)
        s.monsters[slot].stun = stun
        s.monsters[slot].parent = parent
    return slot


@njit(cache=True)
def shield_alive(s):
    g = s.monsters[SHIELD_SLOT]
    return s.wave >= W.ZUK_WAVE and g.kind == ST.K_SHIELD and g.state == ST.SLOT_ALIVE


@njit(cache=True)
def jad_attack(s, cfg, k):
    """A Jad starts an attack: a stab when the player is adjacent (half the time, at once), else ranged or
    magic 50/50, shown now by its animation (``scan``: the style, ``windup``) and released JAD_RELEASE ticks
    later by ``jad_release``, where the overhead then decides [M: IT JalTokJad.ts JadMagicWeapon /
    JadRangeWeapon: DelayedAction(JAD_PROJECTILE_DELAY = 3) reads the overhead when it fires; an unpublished
    compilation states the same: "the overhead must be up when the projectile is released"]. Returns a melee's
    prayer score."""
    m = s.monsters[k]
    style = _distance_or_melee(s, cfg, m)
    if style == STYLE_MELEE:
        return monster_attack(s, cfg, k, STYLE_MELEE)
    m.scan = style
    m.windup = JAD_RELEASE
    m.activity = ST.ACT_ATTACK
    m.attack_timer = attack_speed_of(s, cfg, m)
    return 0


@njit(cache=True)
def jad_release(s, cfg, k):
    """The attack a Jad showed JAD_RELEASE ticks ago leaves, at the player (the overhead now decides) or at
    the glyph. Returns the prayer score."""
    m = s.monsters[k]
    style = np.int64(m.scan)
    m.scan = -1
    if m.state != ST.SLOT_ALIVE or style < 0:
        return 0
    if m.target == ST.TARGET_SHIELD:
        if shield_alive(s):
            _glyph_takes(s, cfg, k, style)
        return 0
    return monster_attack(s, cfg, k, style, True)


@njit(cache=True)
def jad_hurt(s, cfg, k):
    """A Jad below half its hitpoints calls its healers, once (IT JalTokJad.damageTaken: 5 on wave 67, 3 on
    68 and 69), each on the first tile near it no other monster holds: IT tries the Jad's own south-west tile,
    then random offsets (waves 67-68: x -5..5, y -4..10; Zuk's wave: x 0..5, 5..8 north of its south-west tile:
    IT's offsets with y turned north); here a tile must also be on the floor (APPROXIMATION: IT does not
    check)."""
    m = s.monsters[k]
    if m.procced or 2 * m.hp >= cfg.kind_row[m.kind].hitpoints:
        return
    m.procced = 1
    n = JAD_HEALERS[min(max(s.wave - W.JAD_WAVE, 0), 2)]
    flags = arena_map(s, cfg)
    for _ in range(n):
        x, y = np.int64(m.x), np.int64(m.y)
        for t in range(HEALER_TRIES):
            if t > 0:
                if s.wave >= W.ZUK_WAVE:
                    x = m.x + R.below(s.rng, 6)
                    y = m.y + 5 + R.below(s.rng, 4)
                else:
                    x = m.x + R.below(s.rng, 11) - 5
                    y = m.y - 4 + R.below(s.rng, 15)
            if 0 <= x < A.GRID_W and 0 <= y < A.GRID_H and not (flags[x, y] & BLOCKED) and \
                    _free_of_monsters(s, cfg, k, x, y, 1):
                break
            x, y = np.int64(m.x), np.int64(m.y)
        _spawn(s, cfg, ST.K_JAD_HEALER, x, y, ST.TARGET_SLOT + k, 1, k)


@njit(cache=True)
def heal_turn(s, cfg, k):
    """A Yt-HurKot next to its Jad heals it 0..JAD_HEAL_MAX every 4 ticks until the player hits it (IT
    YtHurKot.ts: its "heal" weapon while its aggro is the Jad, range 1). APPROXIMATION: the heal lands now;
    IT sends it as a projectile landing 3 ticks later."""
    m = s.monsters[k]
    j = s.monsters[m.target - ST.TARGET_SLOT]
    m.attack_timer = attack_speed_of(s, cfg, m)
    m.activity = ST.ACT_ATTACK
    if j.state != ST.SLOT_ALIVE:
        return
    _heal(s, cfg, m.target - ST.TARGET_SLOT, R.inclusive(s.rng, JAD_HEAL_MAX))


@njit(cache=True)
def _heal(s, cfg, j, amount):
    o = s.monsters[j]
    gained = min(np.int64(amount), np.int64(cfg.kind_row[o.kind].hitpoints) - np.int64(o.hp))
    gained = max(gained, np.int64(0))
    o.hp += gained
    s.healed += gained
    s.healing_ticks += 1


@njit(cache=True)
def drawn_by_player(s, cfg, k):
    """A hit of the player's landed on monster ``k``: a set or Jad on the glyph turns on the player (IT
    Mob.shouldChangeAggro; a Jad that has called its healers keeps its target: IT autoRetaliate false); a
    healer that heals stops and fights the player: a tag (IT YtHurKot, JalMejJak: aggro to the attacker; a
    Jal-MejJak then waits 2 ticks, nulledTicks)."""
    m = s.monsters[k]
    if m.target == ST.TARGET_SHIELD and not (m.kind == ST.K_JAD and m.procced):
        m.target = ST.TARGET_PLAYER
    elif m.target >= ST.TARGET_SLOT:
        m.target = ST.TARGET_PLAYER
        s.healers_tagged += 1
        if m.kind == ST.K_ZUK_HEALER:
            m.attack_timer = max(m.attack_timer, HEALER_DRAWN_WAIT)


@njit(cache=True)
def dies_with(s, k):
    """A Jad's healers die with it; everything dies with Zuk (IT YtHurKot.attackStep, TzKalZuk.damageTaken),
    not counted as the player's kills."""
    zuk = s.monsters[k].kind == ST.K_ZUK
    for j in range(ST.MONSTER_SLOTS):
        o = s.monsters[j]
        if j == k or o.state != ST.SLOT_ALIVE or not (zuk or o.parent == k):
            continue
        o.state = ST.SLOT_DEAD
        o.windup = 0
        record_event(s, EV_DEATH, ST.ENT_MONSTER + j, ENTITY_NONE, -1, 0, 0, o.x, o.y)
    if zuk:
        for i in range(ST.SPARK_CAPACITY):
            s.sparks[i].due_tick = 0


# ---- the Zuk wave: the glyph, Zuk, his sets, Jad and healers -----------------------------------------------
@njit(cache=True)
def glyph_turn(s, cfg, k):
    """The Ancestral Glyph walks 1 tile a tick along its track; at either end (IT x 10 and 36) it turns and is
    on its end tile SHIELD_PAUSE ticks, its arrival's included: IT ZukShield.movementStep freezes it 5 on the step
    that arrives and reverses its direction, and osrs-sdk Mob.attackStep counts ``frozen`` down in that same tick,
    so it stands 4 more ticks and moves on the 5th."""
    m = s.monsters[k]
    if m.frozen > 0:
        m.frozen -= 1
        return
    m.x += s.shield_dir
    if m.x <= A.SHIELD_X[0] or m.x >= A.SHIELD_X[1]:
        m.frozen = A.SHIELD_PAUSE - 1
        s.shield_dir = -s.shield_dir


@njit(cache=True)
def sheltered(s, cfg):
    """The player stands where the glyph takes Zuk's attack: ``shelter_rule`` 0 (InfernoTrainer
    TzKalZuk.attack: x within the glyph's 5 columns, at most 3 rows south of it: IT y <= 16) or 1 (RuneLite
    inferno plugin: x from one west of its south-west tile to 3 east, 2 to 4 rows south of it)."""
    if not shield_alive(s):
        return False
    g = s.monsters[SHIELD_SLOT]
    x0, x1, y0, y1 = shelter_box(cfg, np.int64(g.x), np.int64(g.y))
    return x0 <= s.p.x <= x1 and y0 <= s.p.y <= y1


@njit(cache=True)
def shelter_box(cfg, gx, gy):
    """(x0, x1, y0, y1), inclusive: the tiles a glyph with south-west tile (gx, gy) shelters (``sheltered``):
    ``shelter_rule`` 0 its 5 columns, the 3 rows south of it; 1 one column further west, rows 2-4 south."""
    if cfg.shelter_rule == 1:
        return gx - 1, gx + 3, gy - 4, gy - 2
    return gx, gx + 4, gy - 3, gy - 1


@njit(cache=True)
def spark_near(s, x, y, within):
    """A lava spark lands on the 3x3 around (x, y) within ``within`` ticks (what the player sees in the air)."""
    for i in range(ST.SPARK_CAPACITY):
        sp = s.sparks[i]
        if sp.due_tick > 0 and sp.due_tick - s.tick <= within and abs(x - sp.x) <= 1 and abs(y - sp.y) <= 1:
            return True
    return False


@njit(cache=True)
def zuk_set_clock(s, cfg):
    """Zuk's set timer counts down each of his turns while it runs, stunned or not (a ranger-mager set at 0, then
    every SET_PERIOD) [M: InfernoTrainer TzKalZuk.attackIfPossible counts it; osrs-sdk Mob.attackStep calls
    attackIfPossible on every tick, the stun stops only the attack (Unit.canAttack): the first set at tick 72]."""
    if not s.set_paused:
        s.set_timer -= 1
        if s.set_timer <= 0:
            s.set_timer = SET_PERIOD
            spawn_set(s, cfg)


@njit(cache=True)
def zuk_turn(s, cfg, k):
    """TzKal-Zuk never moves; with his attack timer at 0 he attacks (``zuk_attack``); his set timer runs in
    ``zuk_set_clock``."""
    m = s.monsters[k]
    if m.attack_timer <= 0:
        zuk_attack(s, cfg, k)


@njit(cache=True)
def zuk_attack(s, cfg, k):
    """One typeless attack, landing ZUK_PROJECTILE ticks later: on the glyph (no damage: IT's magic base
    damage 0 on the shield) when the player stands sheltered now, else on the player, whatever the overhead
    (IT ZukWeapon.isBlockable false), with the standard NPC accuracy on his magic row and 0..zuk_max_hit."""
    m = s.monsters[k]
    m.attack_timer = attack_speed_of(s, cfg, m)
    m.activity = ST.ACT_ATTACK
    if sheltered(s, cfg):
        s.sheltered_attacks += 1
        record_event(s, EV_ATTACK, ST.ENT_MONSTER + k, ST.ENT_MONSTER + SHIELD_SLOT, STYLE_TYPELESS, 0,
                     EVF_BLOCKED, m.x, m.y)
        return
    p = s.p
    PI.refresh_combat(s.combat, p, cfg.set_combat[s.gear_set])
    damage = 0
    flags = 0
    if roll_accuracy(s.rng, npc_attack_roll(NO_TRACE, cfg.kind_row[m.kind], S.MAGIC),
                     player_defence_roll(NO_TRACE, s.combat[0], S.MAGIC)):
        flags = FLAG_ACCURATE
        damage = roll_npc_damage(s.rng, cfg.zuk_max_hit)
    queue_tracked_hit(s, ST.ENT_MONSTER + k, 0, s.tick + ZUK_PROJECTILE, damage, STYLE_TYPELESS, m.kind,
                      ST.HT_PLAYER, flags, 0, 0)
    record_event(s, EV_ATTACK, ST.ENT_MONSTER + k, ST.ENT_PLAYER, STYLE_TYPELESS, 0, 0, m.x, m.y)
    s.zuk_attacks += 1


@njit(cache=True)
def spawn_set(s, cfg):
    """A Jal-Zek and a Jal-Xil at IT (20, 21) and (29, 21), acting 7 and 9 ticks later, on the glyph while
    it stands (IT TzKalZuk.attackIfPossible)."""
    target = ST.TARGET_SHIELD if shield_alive(s) else ST.TARGET_PLAYER
    _spawn(s, cfg, ST.K_MAGER, A.SET_MAGER[0], A.SET_MAGER[1], target, A.SET_DELAYS[0])
    _spawn(s, cfg, ST.K_RANGER, A.SET_RANGER[0], A.SET_RANGER[1], target, A.SET_DELAYS[1])
    s.sets_spawned += 1


@njit(cache=True)
def zuk_hurt(s, cfg, k):
    """Zuk's thresholds (IT TzKalZuk.damageTaken): below 600 the set timer pauses, once; while paused, a hit
    that leaves him below 480 resumes it with SET_RESUME_EXTRA more ticks and brings JalTok-Jad (on the glyph,
    3 healers); below 240 his four healers come and he enrages."""
    m = s.monsters[k]
    if not s.set_paused:
        if m.hp < SET_PAUSE_HP and not s.set_has_paused:
            s.set_paused = 1
            s.set_has_paused = 1
    elif m.hp < SET_RESUME_HP:
        s.set_paused = 0
        s.set_timer += SET_RESUME_EXTRA
        spawn_zuk_jad(s, cfg, ZUK_JAD_STUN)
    if m.hp < HEALERS_HP and not s.enraged:
        s.enraged = 1
        spawn_zuk_healers(s, cfg, ZUK_HEALER_STUN)


@njit(cache=True)
def spawn_zuk_jad(s, cfg, stun):
    s.zuk_jad = 1
    target = ST.TARGET_SHIELD if shield_alive(s) else ST.TARGET_PLAYER
    _spawn(s, cfg, ST.K_JAD, A.ZUK_JAD[0], A.ZUK_JAD[1], target, stun)


@njit(cache=True)
def spawn_zuk_healers(s, cfg, stun):
    for i in range(len(A.ZUK_HEALERS)):
        _spawn(s, cfg, ST.K_ZUK_HEALER, A.ZUK_HEALERS[i][0], A.ZUK_HEALERS[i][1], ST.TARGET_SLOT + ZUK_SLOT, stun,
               ZUK_SLOT)


@njit(cache=True)
def zuk_healer_turn(s, cfg, k):
    """A Jal-MejJak never moves: every 3 ticks it heals Zuk 0..ZUK_HEAL_MAX until the player hits it, then
    throws SPARKS_PER_THROW lava sparks (IT JalMejJak.ts: "heal" while its aggro is Zuk, else "aoe").
    APPROXIMATION: the heal lands now (IT: 3 ticks later)."""
    m = s.monsters[k]
    if m.attack_timer > 0:
        return
    m.attack_timer = attack_speed_of(s, cfg, m)
    m.activity = ST.ACT_ATTACK
    if m.target >= ST.TARGET_SLOT:
        if s.monsters[m.target - ST.TARGET_SLOT].state == ST.SLOT_ALIVE:
            _heal(s, cfg, m.target - ST.TARGET_SLOT, R.inclusive(s.rng, ZUK_HEAL_MAX))
        return
    throw_sparks(s, cfg, k)


@njit(cache=True)
def throw_sparks(s, cfg, k):
    """Three sparks on tiles of the rows south of Zuk (IT y 14..17) within 5 columns of the healer (IT
    AoeWeapon: x in [x - 5, x + 5)); the first on the player's tile when the player stands there. Each lands
    SPARK_DELAY ticks later on the 3x3 around its tile (IT InfernoHealerSpark)."""
    m = s.monsters[k]
    x0, x1 = np.int64(m.x) - A.SPARK_HALF, np.int64(m.x) + A.SPARK_HALF
    y0, y1 = np.int64(A.SPARK_ROWS[0]), np.int64(A.SPARK_ROWS[1])
    px, py = np.int64(s.p.x), np.int64(s.p.y)
    for j in range(SPARKS_PER_THROW):
        if j == 0 and x0 <= px < x1 and y0 <= py <= y1:
            x, y = px, py
        else:
            x = x0 + R.below(s.rng, x1 - x0)
            y = y0 + R.below(s.rng, y1 - y0 + 1)
        for i in range(ST.SPARK_CAPACITY):
            sp = s.sparks[i]
            if sp.due_tick == 0:
                sp.due_tick = s.tick + SPARK_DELAY
                sp.x = min(max(x, np.int64(0)), np.int64(A.GRID_W - 1))
                sp.y = y
                sp.damage = R.between(s.rng, SPARK_DAMAGE[0], SPARK_DAMAGE[1])
                sp.source = k
                break
    record_event(s, EV_ATTACK, ST.ENT_MONSTER + k, ENTITY_NONE, STYLE_TYPELESS, SPARKS_PER_THROW, 0, m.x, m.y)


@njit(cache=True)
def land_sparks(s):
    """Sparks due now hit the player if it stands on the 3x3 around their tile; returns the damage."""
    p = s.p
    taken = 0
    for i in range(ST.SPARK_CAPACITY):
        sp = s.sparks[i]
        if sp.due_tick == 0 or sp.due_tick > s.tick:
            continue
        sp.due_tick = 0
        if p.levels[HITPOINTS] <= 0 or abs(np.int64(p.x) - sp.x) > 1 or abs(np.int64(p.y) - sp.y) > 1:
            continue
        damage = min(np.int64(sp.damage), np.int64(p.levels[HITPOINTS]))
        p.levels[HITPOINTS] -= damage
        s.damage_taken[ST.K_ZUK_HEALER] += damage
        s.taken_style[STYLE_TYPELESS] += damage
        taken += damage
        record_event(s, EV_HIT, ST.ENT_MONSTER + sp.source, ST.ENT_PLAYER, STYLE_TYPELESS, damage, 0, p.x, p.y)
        if p.levels[HITPOINTS] <= 0:
            s.killer = ST.K_ZUK_HEALER
    return taken


@njit(cache=True)
def _attack_glyph(s, cfg, k):
    """A set monster or Jad on the glyph attacks it (a Jad shows its style first: ``jad_attack``)."""
    m = s.monsters[k]
    if not shield_alive(s):
        m.target = ST.TARGET_PLAYER
        return
    if m.kind == ST.K_JAD:
        jad_attack(s, cfg, k)
        return
    _glyph_takes(s, cfg, k, np.int64(cfg.kind_style[m.kind]))
    m.attack_timer = attack_speed_of(s, cfg, m)
    m.activity = ST.ACT_ATTACK


@njit(cache=True)
def _glyph_takes(s, cfg, k, style):
    """Monster ``k``'s attack hits the glyph for 0..max. APPROXIMATION: no accuracy roll; its defence is 0
    (IT ZukShield stats), so a roll would almost never miss. At 0 the glyph falls (``glyph_destroyed``)."""
    m = s.monsters[k]
    g = s.monsters[SHIELD_SLOT]
    damage = min(roll_npc_damage(s.rng, cfg.kind_max[m.kind, style]), np.int64(g.hp))
    record_event(s, EV_ATTACK, ST.ENT_MONSTER + k, ST.ENT_MONSTER + SHIELD_SLOT, style, 0, 0, m.x, m.y)
    g.hp -= damage
    record_event(s, EV_HIT, ST.ENT_MONSTER + k, ST.ENT_MONSTER + SHIELD_SLOT, style, damage, 0, g.x, g.y)
    if g.hp <= 0:
        g.state = ST.SLOT_DEAD
        record_event(s, EV_DEATH, ST.ENT_MONSTER + SHIELD_SLOT, ENTITY_NONE, -1, 0, EVF_KILLED, g.x, g.y)
        glyph_destroyed(s)


@njit(cache=True)
def glyph_destroyed(s):
    """With the glyph gone its attackers turn on the player. APPROXIMATION: at once (IT: 2 ticks later)."""
    for j in range(ST.MONSTER_SLOTS):
        o = s.monsters[j]
        if o.state == ST.SLOT_ALIVE and o.target == ST.TARGET_SHIELD:
            o.target = ST.TARGET_PLAYER


@njit(cache=True)
def spawn_finale(s, cfg):
    """Waves 67-69 (IT InfernoRegion.ts): the pillars still standing fall at the start of wave 67
    [L: attributed to the OSRS wiki by an unpublished compilation, the wiki page not read; IT keeps no pillars
    from 67; APPROXIMATION: no collapse damage]; wave 67 one Jad (attack every 8, stunned 1); wave 68 three
    Jads every 9 ticks, their first attacks delayed 1, 4 and 7 ticks in a shuffled order; wave 69 the glyph
    (its direction drawn 50/50 or set by glyph_start_dir, standing its first tick: freeze(1)) and TzKal-Zuk
    (stunned 8, first attack at 14, the set timer at 72)."""
    for p in range(A.NUM_PILLARS):
        if s.pillar_hp[p] > 0:
            s.pillar_hp[p] = 0
            x, y = A.PILLARS[p]
            record_event(s, EV_DEATH, ST.ENT_PILLAR + p, ENTITY_NONE, -1, 0, EVF_KILLED, x, y)
    if s.wave == W.JAD_WAVE:
        _spawn(s, cfg, ST.K_JAD, A.JAD_67[0], A.JAD_67[1], ST.TARGET_PLAYER, 1)
    elif s.wave == W.TRIPLE_JAD_WAVE:
        stuns = np.array(A.JAD_68_STUNS)
        for i in range(2, 0, -1):
            j = R.below(s.rng, i + 1)
            stuns[i], stuns[j] = stuns[j], stuns[i]
        for i in range(3):
            _spawn(s, cfg, ST.K_JAD, A.JADS_68[i][0], A.JADS_68[i][1], ST.TARGET_PLAYER, stuns[i])
    else:
        # the cutscene after wave 68 puts the player south of the glyph, whatever tile it cleared 68 on [M: the OSRS
        # wiki "TzKal-Zuk": a cutscene plays before the fight; InfernoTrainer InfernoRegion.ts places the player on
        # wave 69 at IT (25, 15)]; a walk it had clicked is forgotten [APPROXIMATION: no source says what becomes
        # of a click across the cutscene; a teleport ends a walk in the game, and walking on to the old tile
        # would carry the player out of the start]
        s.p.x, s.p.y = A.PLAYER_START_69
        clear_destination(s)
        # the glyph aims at nothing: its target is itself, so nothing that reads "aims at the player" counts it
        _place(s, cfg, SHIELD_SLOT, ST.K_SHIELD, A.SHIELD[0], A.SHIELD[1], ST.TARGET_SHIELD)
        g = s.monsters[SHIELD_SLOT]
        g.stun = 0
        g.frozen = 1
        if cfg.glyph_start_x >= 0:
            g.x = cfg.glyph_start_x
        if cfg.glyph_start_dir == 1:
            s.shield_dir = -1
        elif cfg.glyph_start_dir == 2:
            s.shield_dir = 1
        else:
            s.shield_dir = 1 if R.chance(s.rng, 1, 2) else -1
        _place(s, cfg, ZUK_SLOT, ST.K_ZUK, A.ZUK[0], A.ZUK[1], ST.TARGET_PLAYER)
        z = s.monsters[ZUK_SLOT]
        s.zuk_start = z.hp
        z.stun = ZUK_STUN
        z.attack_timer = ZUK_FIRST_ATTACK
        s.set_timer = SET_FIRST
        s.set_paused = 0
        s.set_has_paused = 0
        s.zuk_jad = 0
        s.enraged = 0


@njit(cache=True)
def zuk_start(s, cfg):
    """A wave-69 start from the curriculum settings: Zuk at ``zuk_start_hp`` with what his thresholds above
    it bring (the set timer paused below 600, resumed with SET_RESUME_EXTRA and the Jad below 480, the
    healers and his rage below 240), ``zuk_start_sets`` sets alive, the set timer at ``set_timer_start``;
    with ``zuk_mid_pct`` that share of starts draws his hitpoints from ``zuk_mid_hp``..1199 instead."""
    z = s.monsters[ZUK_SLOT]
    if cfg.set_timer_start >= 0:
        s.set_timer = cfg.set_timer_start
    hp = np.int64(cfg.zuk_start_hp)
    if cfg.zuk_mid_pct > 0 and R.chance(s.rng, cfg.zuk_mid_pct, 100):
        hp = R.between(s.rng, cfg.zuk_mid_hp, cfg.kind_row[ST.K_ZUK].hitpoints - 1)
    if hp > 0:
        z.hp = min(hp, cfg.kind_row[ST.K_ZUK].hitpoints)
        z.low_hp = z.hp
        s.zuk_low = z.hp
    s.zuk_start = z.hp
    if z.hp < SET_PAUSE_HP:
        s.set_paused = 1
        s.set_has_paused = 1
    if z.hp < SET_RESUME_HP:
        s.set_paused = 0
        s.set_timer += SET_RESUME_EXTRA
        s.zuk_jad = 1
        if cfg.zuk_start_jad:
            spawn_zuk_jad(s, cfg, 1)
    if z.hp < HEALERS_HP:
        s.enraged = 1
        if cfg.zuk_start_healers:
            spawn_zuk_healers(s, cfg, 1)
    for _ in range(cfg.zuk_start_sets):
        spawn_set(s, cfg)


@njit(cache=True)
def zuk_healers_alive(s):
    n = 0
    for k in range(ST.MONSTER_SLOTS):
        if s.monsters[k].state == ST.SLOT_ALIVE and s.monsters[k].kind == ST.K_ZUK_HEALER:
            n += 1
    return n


@njit(cache=True)
def phase_of(s, cfg):
    """The fight's phase (state.PH_*): the band of waves 1-66, wave 67, wave 68, then on the Zuk wave the
    furthest milestone: before the first set, sets, Zuk's Jad, his healers, all healers dead, Zuk below
    ``low_hp_phase``. Milestones never go back, so the phase a run ends in is the deepest it reached."""
    w = s.wave
    if w < W.JAD_WAVE:
        b = 0
        for i in range(4):
            if w >= ST.BANDS[i][0]:
                b = i
        return np.int64(ST.PH_WAVES_1 + b)
    if w == W.JAD_WAVE:
        return np.int64(ST.PH_WAVE_67)
    if w == W.TRIPLE_JAD_WAVE:
        return np.int64(ST.PH_WAVE_68)
    if s.zuk_low < cfg.low_hp_phase:
        return np.int64(ST.PH_ZUK_LOW_HP)
    if s.enraged:
        return np.int64(ST.PH_ZUK_HEALERS if zuk_healers_alive(s) > 0 else ST.PH_ZUK_AFTER_HEALERS)
    if s.zuk_jad:
        return np.int64(ST.PH_ZUK_JAD)
    if s.sets_spawned > 0:
        return np.int64(ST.PH_ZUK_SETS)
    return np.int64(ST.PH_ZUK_BEFORE_SETS)


# ---- reset and the tick ------------------------------------------------------------------------------
@njit(cache=True)
def reset(s, cfg, seed):
    """The runtime hands reset a zeroed record (EncounterSpec.carried_fields): no monsters, hits or sparks, the
    Zuk wave's timers and flags down, no outcome, every tally 0; set what starts non-zero, then spawn the wave."""
    R.seed_rng(s.rng, seed, 0)
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
    s.zuk_low = cfg.kind_row[ST.K_ZUK].hitpoints
    s.killer = -1
    for k in range(ST.NUM_REWARD_TERMS):
        s.reward_sums[k] = 0.0
    if cfg.start_hp > 0:
        s.p.levels[HITPOINTS] = min(cfg.start_hp, s.p.base_levels[HITPOINTS])
    if cfg.start_prayer > 0:
        s.p.levels[PRAYER] = min(cfg.start_prayer, s.p.base_levels[PRAYER])
    s.wave = draw_start_wave(s, cfg)
    s.start_wave_drawn = s.wave
    if s.wave >= W.JAD_WAVE:      # a start on wave 67-69: InfernoTrainer's start tile for that wave
        s.p.x, s.p.y = START_FINALE[s.wave - W.JAD_WAVE]
    spawn_wave(s, cfg)
    if s.wave == W.ZUK_WAVE:
        zuk_start(s, cfg)
    s.player_low = s.p.levels[HITPOINTS]


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
    # 4. the player: hits land (sparks first), it moves, it shoots
    taken = land_sparks(s) + land_player_hits(s)
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
        if cfg.timeout_terminal:
            return True, False, dealt, taken, cleared
        return False, True, dealt, taken, cleared
    return False, False, dealt, taken, cleared


@njit(cache=True)
def _tallies(s):
    """(prayed, unprayed, kills, doses, pillar damage, Jad low-watermark damage, Zuk's low, healer tags) so
    far: the step's shaping terms are their changes."""
    kills = 0
    for k in range(ST.NUM_KINDS):
        kills += s.kills[k]
    doses = 0
    for k in range(ST.NUM_SUPPLIES):
        doses += s.supplies_used[k]
    return (s.prayed_attacks, s.monster_attacks - s.prayed_attacks, kills, doses, s.pillar_damage,
            s.jad_low_dealt, s.zuk_low, s.healers_tagged)


@njit(cache=True)
def _glyph_left(s):
    """The Ancestral Glyph's hitpoints while it stands (``shield_alive``), else 0 (the glyph shaping's potential)."""
    return float(max(s.monsters[SHIELD_SLOT].hp, 0)) if shield_alive(s) else 0.0


@njit(cache=True)
def _count_empty_heads(s, cfg):
    """The heads left with only their no-op while it matters (monsters alive): the attack head with the
    attack timer ready and no monster in reach, the overhead head at 0 prayer (metrics no_target_ticks,
    no_prayer_ticks)."""
    if s.outcome != ST.OUTCOME_NONE or s.next_wave_in > 0 or monsters_alive(s) == 0:
        return                # nothing alive (a dying blob's bloblets not yet out): an idle head costs nothing
    if s.p.levels[PRAYER] <= 0:
        s.no_prayer_ticks += 1
    if s.p.attack_timer > 0:
        return
    for k in range(ST.MONSTER_SLOTS):
        if can_attack(s, cfg, k):
            return
    s.no_target_ticks += 1


@njit(cache=True)
def _cap_penalties(s, cfg, terms):
    """Scale this tick's negative parts of the penalty terms (state.PENALTY_TERMS) so that a run never loses
    more than ``penalty_cap`` to them in all (0: no cap)."""
    if cfg.penalty_cap <= 0.0:
        return
    owed = 0.0
    for k in ST.PENALTY_TERMS:
        if terms[k] < 0.0:
            owed -= terms[k]
    if owed <= 0.0:
        return
    left = max(cfg.penalty_cap - s.penalty_paid, 0.0)
    scale = min(left / owed, 1.0)
    for k in ST.PENALTY_TERMS:
        if terms[k] < 0.0:
            terms[k] *= scale
    s.penalty_paid += owed * scale


@njit(cache=True)
def step(s, cfg, actions, rewards):
    """The tick, then its reward: the outcome, the waves cleared (``coef_wave``, 0.1 by default) and every
    shaping term (the other ``coef_*``, all 0 by default), each recorded by name in ``reward_terms`` and summed
    in ``reward_sums``; the penalties capped by ``penalty_cap``. Boss damage pays only on a new low of each
    Jad's and Zuk's hitpoints (what healers give back pays nothing twice); a healer tag only on the hit that
    draws a healing healer (once a healer)."""
    prayed0, missed0, kills0, doses0, pillar0, jad0, zuk0, tags0 = _tallies(s)
    hp0 = s.p.levels[HITPOINTS]
    glyph0 = _glyph_left(s)
    terminated, truncated, dealt, taken, cleared = tick(s, cfg, actions[0])
    prayed1, missed1, kills1, doses1, pillar1, jad1, zuk1, tags1 = _tallies(s)
    if s.p.levels[HITPOINTS] < s.player_low:
        s.player_low = max(s.p.levels[HITPOINTS], 0)
    _count_empty_heads(s, cfg)
    if s.wave >= W.ZUK_WAVE and s.outcome == ST.OUTCOME_NONE and sheltered(s, cfg):
        s.sheltered_ticks += 1
    r_outcome = 0.0
    if s.outcome == ST.OUTCOME_CLEARED:
        r_outcome = cfg.cleared_reward
    elif s.outcome == ST.OUTCOME_DEATH:
        r_outcome = cfg.death_reward
    elif s.outcome == ST.OUTCOME_TIMEOUT:
        r_outcome = cfg.timeout_reward
    terms = s.reward_terms[0]          # zeroed by start_tick
    terms[ST.R_OUTCOME] = r_outcome
    terms[ST.R_WAVE] = cfg.coef_wave * cleared
    terms[ST.R_DEALT] = cfg.coef_damage_dealt * dealt / 100.0
    terms[ST.R_TAKEN] = -cfg.coef_damage_taken * taken / 99.0
    terms[ST.R_PRAYER] = cfg.coef_prayer * ((prayed1 - prayed0) - (missed1 - missed0))
    terms[ST.R_KILL] = cfg.coef_kill * (kills1 - kills0)
    terms[ST.R_SUPPLIES] = -cfg.coef_supplies * (doses1 - doses0)
    terms[ST.R_PILLAR] = -cfg.coef_pillar * (pillar1 - pillar0) / 255.0
    # potential-based (Ng, Harada and Russell 1999), the potential hp / 99 and 0 after a death or the clear:
    # discounted by hitpoints_gamma a run's sum is -first hp / 99 whatever it does, so it pays no loop, no
    # stall and no early death; what it changes is when a hit's cost is felt (the tick it lands)
    hp1 = 0.0 if terminated else float(max(s.p.levels[HITPOINTS], 0))
    terms[ST.R_HITPOINTS] = cfg.coef_hitpoints * (cfg.hitpoints_gamma * hp1 - hp0) / 99.0
    glyph1 = 0.0 if terminated else _glyph_left(s)      # the same potential on the glyph's hitpoints
    terms[ST.R_GLYPH] = cfg.coef_glyph * (cfg.hitpoints_gamma * glyph1 - glyph0) / A.GLYPH_HP
    terms[ST.R_ZUK] = cfg.coef_zuk_damage * (zuk0 - zuk1) / cfg.kind_row[ST.K_ZUK].hitpoints
    terms[ST.R_JAD] = cfg.coef_jad_damage * (jad1 - jad0) / cfg.kind_row[ST.K_JAD].hitpoints
    terms[ST.R_HEALER_TAG] = cfg.coef_healer_tag * (tags1 - tags0)
    _cap_penalties(s, cfg, terms)
    total = 0.0
    for k in range(ST.NUM_REWARD_TERMS):
        s.reward_sums[k] += terms[k]
        total += terms[k]
    rewards[0] = total
    return terminated, truncated
