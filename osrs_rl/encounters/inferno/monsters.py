"""The monsters' turn (tick phase 3, mechanics.tick): in slot order (the spawn order), before the player
[OSRS wiki "Hit delay"; InfernoTrainer World.ts ticks every mob's movement, then every mob's attack, then the
player]. Each one:
  a. counts its attack timer down, then waits out its stun (1 tick after spawning);
  b. nibblers aim at their wave's pillar (another standing one when it falls, the player when none
     stands); every other monster at the player;
  c. under the player it steps out in a random cardinal direction; else, without line of sight (or melee
     reach), one chase step (core.npc_crowd: InfernoTrainer Mob.movementStep:
     diagonal, else x, else y, other monsters and the pillars block, the player does not);
  d. with line of sight (melee: edge contact, no diagonal) and its timer at 0 it attacks: the roll, the max
     hit and the overhead are decided now, on the attack tick (core.npc_attack); the hit lands after the
     style's delay (melee 0, ranged as a bow, magic as a spell, core.hit_delay; Jal-Xil 2 ticks later);
     rangers, magers and blobs melee an adjacent player half the time (InfernoTrainer Mob.attack); a bat's
     attack drains 3 % run energy (InfernoTrainer JalMejRah.ts); a blob scans the overhead first and fires the
     other style 3 ticks later, with or without sight (InfernoTrainer JalAk.ts): an attack without a clear
     line hits the pillar in the way;
  e. a nibbler next to its pillar chews it for 0..4 (InfernoTrainer JalNib.ts); a pillar at 0 collapses
     and stops blocking movement and sight.
Here: where a monster aims, what it sees, its chase, its attack on the player and the turn itself. Each kind's
own rules (the blob's scan and split, the nibbler's chew, the meleer's dig, the mager's resurrection) are in
kinds.py, the finale's monsters (the Jads and healers, Zuk, the glyph) in finale.py, pillars in pillars.py.
"""

import numpy as np
from numba import njit

from osrs_rl.core import jad as JAD
from osrs_rl.core import npc_crowd as CROWD
from osrs_rl.core import player_input as PI
from osrs_rl.core import rng as R
from osrs_rl.core.damage import roll_npc_damage
from osrs_rl.core.events import EV_ATTACK, record_event
from osrs_rl.core.hooks import implements
from osrs_rl.core.movement import in_melee_reach
from osrs_rl.core.npc_attack import melees_close, npc_attack_player
from osrs_rl.core.pending_hits import STYLE_MELEE

from . import arena as A
from . import finale as FIN
from . import kinds as KIN
from . import pillars as PIL
from . import state as ST
from . import waves as W

BAT_RUN_DRAIN = 300            # run energy units per bat attack (3 %) [M: InfernoTrainer JalMejRah.ts]


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


@implements(CROWD.sees, ST.STATE_DTYPE)
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


@implements(CROWD.solid, ST.STATE_DTYPE)
def solid(s, cfg, j):
    """Monster slot ``j`` takes space on the floor (core.npc_crowd): alive and above ground; nibblers take none,
    so nothing is stopped by one (InfernoTrainer JalNib.ts ``consumesSpace`` null)."""
    o = s.monsters[j]
    return o.state == ST.SLOT_ALIVE and o.dig_left <= 0 and o.kind != ST.K_NIBBLER


@implements(CROWD.size, ST.STATE_DTYPE)
def crowd_size(s, cfg, m):
    return size_of(cfg, m)


@njit(cache=True)
def free_of_monsters(s, cfg, k, x, y, size):
    """No other solid monster's footprint overlaps (x, y, size) (core.npc_crowd rule 1)."""
    return CROWD.free_of_others(s, cfg, k, x, y, size)


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
def monster_attack(s, cfg, k, style, released=False):
    """Monster ``k`` attacks the player with ``style`` (core.npc_attack: the roll, the max hit and the overhead
    decided now, on the attack tick; the hit lands after the style's delay). ``released``: a Jad's attack
    released core.jad.TELL_TICKS after its animation (``jad_release``): its projectile is that much shorter and
    its attack timer already runs. Returns the prayer score (+1 met, -1 not)."""
    m = s.monsters[k]
    PI.refresh_combat(s.combat, s.p, cfg.set_combat[s.gear_set])     # the worn set's defence bonuses
    prayed = npc_attack_player(s, ST.ENT_MONSTER + k, m.kind, cfg.kind_row[m.kind], cfg.kind_max[m.kind, style],
                               style, m.x, m.y, size_of(cfg, m), cfg.kind_extra_delay[m.kind],
                               m.kind == ST.K_NIBBLER,   # always accurate (dps-calc ALWAYS_ACCURATE_MONSTERS)
                               cfg.projectile_rule == 1,  # osrs-sdk's landing tick (README "Open questions", F6)
                               JAD.TELL_TICKS if released else 0, ST.ENT_PLAYER, ST.HT_PLAYER)
    s.monster_attacks += 1
    m.activity = ST.ACT_ATTACK
    if m.kind == ST.K_BAT:
        s.p.run_energy = max(0, s.p.run_energy - BAT_RUN_DRAIN)
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
            and melees_close(s.rng):      # an adjacent ranger, mager or Jad: 1/2 (core.npc_attack rule 4)
        return STYLE_MELEE
    if m.kind == ST.K_JAD:       # ranged or magic 50/50 (core.jad rule 1)
        return JAD.distance_style(s.rng)
    return np.int64(cfg.kind_style[m.kind])


# ---- the turn ----------------------------------------------------------------------------------------
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
    style = JAD.released_style(m)     # a Jad's shown attack leaves core.jad.TELL_TICKS after its animation
    if style >= 0:
        released = FIN.jad_release(s, cfg, k, style)
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
    seen = CROWD.move_turn(s, cfg, k, PIL.arena_map(s, cfg), tx, ty, tsize)
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
