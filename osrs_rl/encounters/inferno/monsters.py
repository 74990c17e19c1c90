"""The monsters' turn (tick phase 3, mechanics.tick): in slot order (the spawn order), before the player
[OSRS wiki "Hit delay"; InfernoTrainer World.ts ticks every mob's movement, then every mob's attack, then the
player]. Each one:
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
     and stops blocking movement and sight.
Here: where a monster aims, what it sees, its chase, its attack on the player and the turn itself. Each kind's
own rules (the blob's scan and split, the nibbler's chew, the meleer's dig, the mager's resurrection) are in
kinds.py, the finale's monsters (the Jads and healers, Zuk, the glyph) in finale.py, pillars in pillars.py.
"""

import numpy as np
from numba import njit

from osrs_rl.core import player_input as PI
from osrs_rl.core import rng as R
from osrs_rl.core import styles as S
from osrs_rl.core.accuracy import npc_attack_roll, player_defence_roll, roll_accuracy
from osrs_rl.core.collision import can_step
from osrs_rl.core.damage import roll_npc_damage
from osrs_rl.core.events import EV_ATTACK, EVF_BLOCKED, record_event
from osrs_rl.core.formula import NO_TRACE
from osrs_rl.core.hit_delay import bow_delay, edge_distance, magic_delay
from osrs_rl.core.hit_events import queue_tracked_hit
from osrs_rl.core.movement import in_melee_reach, npc_unstack_step, overlaps
from osrs_rl.core.pending_hits import FLAG_ACCURATE, STYLE_MAGIC, STYLE_MELEE, STYLE_RANGED
from osrs_rl.core.player_input import protected_from

from . import arena as A
from . import finale as FIN
from . import kinds as KIN
from . import pillars as PIL
from . import state as ST
from . import waves as W

BAT_RUN_DRAIN = 300            # run energy units per bat attack (3 %) [M: InfernoTrainer JalMejRah.ts]
MELEE_IF_CLOSE = (1, 2)        # an adjacent ranger/mager/blob melees with p = 1/2 [M: InfernoTrainer Mob.attack]


# ---- where they aim, what they see, how they chase ---------------------------------------------------
@njit(cache=True)
def size_of(cfg, m):
    return np.int64(cfg.kind_size[m.kind])


@njit(cache=True)
def target_of(s, cfg, m):
    """(x, y, size) of the monster's target: the player, its pillar, the glyph, or a monster (a healer's)."""
    if m.target >= ST.TARGET_SHIELD:
        o = s.monsters[FIN.SHIELD_SLOT if m.target == ST.TARGET_SHIELD else m.target - ST.TARGET_SLOT]
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
        return PIL.sees(s, cfg, m.x, m.y, size, tx, ty, tsize, reach)
    return PIL.sees(s, cfg, tx, ty, tsize, m.x, m.y, size, reach)


@njit(cache=True)
def sees_player(s, cfg, k):
    m = s.monsters[k]
    return m.state == ST.SLOT_ALIVE and m.target == ST.TARGET_PLAYER and m.dig_left <= 0 and \
        monster_sees(s, cfg, m, s.p.x, s.p.y, 1)


@njit(cache=True)
def free_of_monsters(s, cfg, k, x, y, size):
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
    return can_step(flags, m.x, m.y, size, dx, dy) and free_of_monsters(s, cfg, k, m.x + dx, m.y + dy, size)


@njit(cache=True)
def _chase(s, cfg, k, tx, ty, tsize):
    """One step toward the target's south-west tile by the signs of the differences: the diagonal if the
    pillars, the walls and the other monsters allow it, else the x step, else the y step (InfernoTrainer
    Mob.movementStep / getNextMovementStep). A diagonal that would end on the target drops its y part (the
    corner safespot, core.movement rule 6)."""
    m = s.monsters[k]
    size = size_of(cfg, m)
    flags = PIL.arena_map(s, cfg)
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
def pick_pillar(s):
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


# ---- attacks on the player ---------------------------------------------------------------------------
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
        delay = max(delay - FIN.JAD_RELEASE, 0)
    blocked = EVF_BLOCKED if prayed else 0
    queue_tracked_hit(s, ST.ENT_MONSTER + k, blocked, s.tick + delay, damage, style, m.kind, ST.HT_PLAYER, flags,
                      0, 0)
    record_event(s, EV_ATTACK, ST.ENT_MONSTER + k, ST.ENT_PLAYER, style, 0, blocked, m.x, m.y)
    s.monster_attacks += 1
    m.activity = ST.ACT_ATTACK
    if m.kind == ST.K_BAT:
        p.run_energy = max(0, p.run_energy - BAT_RUN_DRAIN)
    if not released:
        m.attack_timer = FIN.attack_speed_of(s, cfg, m)
    if prayed:
        s.prayed_attacks += 1
        return 1
    return -1


@njit(cache=True)
def pillar_takes(s, cfg, k, style, pillar):
    """Monster ``k``'s attack on the player, fired without a clear line, hits ``pillar`` instead: damage
    0..max, no accuracy roll, no prayer [M: an unpublished compilation's description of the pillars, "attacks
    aimed at a player but blocked by a pillar damage the pillar" (no public source found); APPROXIMATION: the
    pillar's defence is not rolled]."""
    m = s.monsters[k]
    damage = roll_npc_damage(s.rng, cfg.kind_max[m.kind, style])
    record_event(s, EV_ATTACK, ST.ENT_MONSTER + k, ST.ENT_PILLAR + pillar, style, 0, ST.EVF_PILLAR_HIT, m.x, m.y)
    PIL.damage_pillar(s, cfg, pillar, damage, ST.ENT_MONSTER + k, style)
    m.attack_timer = cfg.kind_speed[m.kind]
    m.activity = ST.ACT_ATTACK


@njit(cache=True)
def distance_or_melee(s, cfg, m):
    """The style of a ranger's, mager's or Jad's next attack: melee half the time when the player stands in
    melee reach, else its distance style."""
    if m.target == ST.TARGET_PLAYER and cfg.kind_melee[m.kind] \
            and in_melee_reach(m.x, m.y, size_of(cfg, m), s.p.x, s.p.y, 1) \
            and R.chance(s.rng, MELEE_IF_CLOSE[0], MELEE_IF_CLOSE[1]):
        return STYLE_MELEE
    if m.kind == ST.K_JAD:       # ranged or magic 50/50 [M: InfernoTrainer JalTokJad.attackStyleForNewAttack]
        return STYLE_RANGED if R.chance(s.rng, 1, 2) else STYLE_MAGIC
    return np.int64(cfg.kind_style[m.kind])


# ---- the turn ----------------------------------------------------------------------------------------
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
            nx, ny = npc_unstack_step(PIL.arena_map(s, cfg), m.x, m.y, size, R.below(s.rng, 4))
            if free_of_monsters(s, cfg, k, nx, ny, size):
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
def monster_turn(s, cfg, k):  # noqa: C901 - each monster kind's turn in the game's order
    """One monster's turn (index 3 a-e); returns the prayer score of its attack."""
    m = s.monsters[k]
    if m.kind == ST.K_SHIELD:
        FIN.glyph_turn(s, cfg, k)
        return 0
    if m.attack_timer > 0:
        m.attack_timer -= 1
    if m.attack_timer <= 0 and m.dig_left <= 0:
        m.activity = ST.ACT_NONE
    if m.dig_left > 0:
        KIN.underground(s, cfg, k)
        return 0
    released = 0
    if m.windup > 0:             # a Jad's shown attack leaves JAD_RELEASE ticks after its animation
        m.windup -= 1
        if m.windup == 0:
            released = FIN.jad_release(s, cfg, k)
    frozen = m.frozen > 0
    if m.kind == ST.K_ZUK:
        FIN.zuk_set_clock(s, cfg)     # counts on while he is stunned too
    if m.stun > 0:
        m.stun -= 1
        return released
    if m.kind == ST.K_ZUK:
        FIN.zuk_turn(s, cfg, k)
        return 0
    if m.kind == ST.K_ZUK_HEALER:
        FIN.zuk_healer_turn(s, cfg, k)
        return 0
    if m.kind == ST.K_NIBBLER and m.target >= 0 and s.pillar_hp[m.target] <= 0:
        m.target = pick_pillar(s)
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
    if m.kind == ST.K_MELEER and KIN.meleer_dig(s, cfg, k, sees):
        m.had_los = 0
        return released
    score = 0
    if m.kind == ST.K_BLOB:
        score = KIN.blob_turn(s, cfg, k, sees)
    elif sees and m.attack_timer <= 0 and m.windup <= 0:
        if m.target >= ST.TARGET_SLOT:
            FIN.heal_turn(s, cfg, k)
        elif m.target == ST.TARGET_SHIELD:
            FIN.attack_glyph(s, cfg, k)
        elif m.target >= 0:
            KIN.nibbler_chew(s, cfg, k)
        elif m.kind == ST.K_JAD:
            score = FIN.jad_attack(s, cfg, k)
        elif not (m.kind == ST.K_MAGER and s.wave < W.ZUK_WAVE and KIN.mager_revive(s, cfg, k)):
            score = monster_attack(s, cfg, k, distance_or_melee(s, cfg, m))
            if m.kind == ST.K_MELEER and cfg.dig_rule == 0:
                m.dig_timer = 0
    m.had_los = 1 if sees else 0
    return score + released


@njit(cache=True)
def monsters_turn(s, cfg):
    KIN.split_due_blobs(s, cfg)
    score = 0
    for k in range(ST.MONSTER_SLOTS):
        if s.monsters[k].state == ST.SLOT_ALIVE:
            score += monster_turn(s, cfg, k)
    return score
