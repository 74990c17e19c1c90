"""The monsters' turn (tick phase 3, mechanics.tick): in slot order (the spawn order), before the player [OSRS
wiki "Hit delay": NPCs act before players in a tick; InfernoTrainer World.ts, the same order the Inferno uses].
Each one:
  a. counts its attack timer down; TzTok-Jad releases the attack its tell showed core.jad.TELL_TICKS ago (the
     overhead decides now); then it waits out its stun (1 tick after spawning);
  b. aims at the player; a Yt-HurKot at its Jad until the player's hit lands on it (finale.py);
  c. under its target it steps out in a random cardinal direction; else, without sight (melee: edge contact, no
     diagonal; the others a clear line within 15 tiles over the cave's rock, lava letting sight pass), one chase
     step (core.npc_crowd: diagonal, else x, else y; other monsters block, the player does not) [OSRS wiki
     "Pathfinding": NPCs step toward their target and do not path around obstacles];
  d. with its timer at 0: a Yt-MejKot below half hitpoints (or near one) heals instead (``mejkot_heal``); a
     healing Yt-HurKot next to its Jad heals it (finale.py); else, seeing the player, it attacks (core.npc_attack:
     the roll, the max hit and the overhead decided on the attack tick, the hit landing after the style's delay):
     Tok-Xil and Ket-Zek melee an adjacent player half the time (core.npc_attack rule 4), TzTok-Jad shows its tell
     first (finale.jad_attack); each Tz-Kih attack drains a prayer point, prayed or not.
Sources beside each rule; the approximations are listed in README.md.
"""

import numpy as np
from numba import njit

from osrs_rl.core import jad as JAD
from osrs_rl.core import npc_crowd as CROWD
from osrs_rl.core import player_input as PI
from osrs_rl.core import rng as R
from osrs_rl.core.hit_delay import edge_distance
from osrs_rl.core.hooks import implements
from osrs_rl.core.line_of_sight import table_line_of_sight
from osrs_rl.core.movement import in_melee_reach
from osrs_rl.core.npc_attack import melees_close, npc_attack_player
from osrs_rl.core.pending_hits import STYLE_MELEE
from osrs_rl.core.skills import PRAYER

from . import arena as A
from . import finale as FIN
from . import state as ST

KIH_DRAIN = 1                  # prayer points a Tz-Kih's attack drains, blocked or not [M: Zenyte TzKih.java, Kronos
                               # TzKih.java; the data README's choice over VOID's 1 + damage: "Open questions" 3]
MEJKOT_HEAL_RANGE = 8          # a Yt-MejKot heals a monster below half within 8 tiles [L: PR 689's rule as the research
                               # notes read it; APPROXIMATION: Zenyte heals those touching it, Kronos any in the cave]


# ---- sizes, sight, targets (the hooks core.npc_crowd calls) -------------------------------------------
@njit(cache=True)
def size_of(cfg, m):
    return np.int64(cfg.kind_size[m.kind])


@implements(CROWD.size, ST.STATE_DTYPE)
def crowd_size(s, cfg, m):
    return size_of(cfg, m)


@implements(CROWD.solid, ST.STATE_DTYPE)
def solid(s, cfg, j):
    """Every living monster takes space on the floor."""
    return s.monsters[j].state == ST.SLOT_ALIVE


@njit(cache=True)
def sees_from(cfg, x0, y0, size0, x1, y1, size1, reach):
    """core.line_of_sight over the cave's map, read from its precomputed table (cfg.sight)."""
    return table_line_of_sight(cfg.sight, A.GRID_W, A.GRID_H, x0, y0, size0, x1, y1, size1, reach)


@implements(CROWD.sees, ST.STATE_DTYPE)
def monster_sees(s, cfg, m, tx, ty, tsize):
    """In reach of (tx, ty, tsize): melee kinds by edge contact (no diagonal, core.movement rule 2), the others a
    clear line within their range, the ray cast from the target to the monster as the Inferno casts it [M:
    osrs-sdk LineOfSight.ts; README "Approximations"]."""
    size = size_of(cfg, m)
    reach = cfg.kind_range[m.kind]
    if reach <= 1:
        return in_melee_reach(m.x, m.y, size, tx, ty, tsize)
    return sees_from(cfg, tx, ty, tsize, m.x, m.y, size, reach)


@njit(cache=True)
def target_of(s, cfg, m):
    """(x, y, size) of the monster's target: the player, or a healing Yt-HurKot's Jad."""
    if m.target >= 0:
        o = s.monsters[m.target]
        return np.int64(o.x), np.int64(o.y), size_of(cfg, o)
    return np.int64(s.p.x), np.int64(s.p.y), np.int64(1)


@njit(cache=True)
def sees_player(s, cfg, k):
    m = s.monsters[k]
    return m.state == ST.SLOT_ALIVE and m.target == ST.TARGET_PLAYER and monster_sees(s, cfg, m, s.p.x, s.p.y, 1)


@njit(cache=True)
def in_contact(s, cfg, k):
    """Monster ``k``'s footprint touches the player's tile by an edge (melee reach)."""
    m = s.monsters[k]
    return m.state == ST.SLOT_ALIVE and in_melee_reach(m.x, m.y, size_of(cfg, m), s.p.x, s.p.y, 1)


# ---- attacks on the player ---------------------------------------------------------------------------
@njit(cache=True)
def monster_attack(s, cfg, k, style, released=False):
    """Monster ``k`` attacks the player with ``style`` (core.npc_attack: the roll, the max hit and the overhead on
    the attack tick, the hit landing after the style's delay; ``released``: TzTok-Jad's attack leaving its tell,
    its timer already running). A Tz-Kih's attack drains KIH_DRAIN prayer points, prayed or not. Returns the
    prayer score (+1 met, -1 not)."""
    m = s.monsters[k]
    p = s.p
    PI.refresh_combat(s.combat, p, cfg.gear_combat)      # the kit's defence bonuses, levels as they are now
    prayed = npc_attack_player(s, ST.ENT_MONSTER + k, m.kind, cfg.kind_row[m.kind], cfg.kind_max[m.kind, style],
                               style, m.x, m.y, size_of(cfg, m), 0, False, False,
                               JAD.TELL_TICKS if released else 0, ST.ENT_PLAYER, ST.HT_PLAYER)
    s.monster_attacks += 1
    if not released:
        m.attack_timer = cfg.kind_speed[m.kind]
    if m.kind == ST.K_KIH:
        drained = min(np.int64(KIH_DRAIN), np.int64(p.levels[PRAYER]))
        p.levels[PRAYER] -= drained
        s.prayer_drained += drained         # not a hit: no event (its attack's EV_ATTACK and EV_HIT are)
    if prayed:
        s.prayed_attacks += 1
        return 1
    return -1


@njit(cache=True)
def distance_or_melee(s, cfg, m):
    """The style of a Tok-Xil's, Ket-Zek's or Jad's next attack: melee half the time when the player stands in
    melee reach, else its distance style (Jad's drawn 50/50: core.jad rule 1)."""
    if cfg.kind_melee[m.kind] and in_melee_reach(m.x, m.y, size_of(cfg, m), s.p.x, s.p.y, 1) \
            and melees_close(s.rng):
        # an adjacent Tok-Xil, Ket-Zek or Jad: 1/2 (core.npc_attack rule 4) [M: Zenyte TokXil.java, KetZek.java;
        # APPROXIMATION: Kronos rolls 1/3, and its Jad always melees: README "Open questions" 2, 7]
        return STYLE_MELEE
    if m.kind == ST.K_JAD:
        return JAD.distance_style(s.rng)
    return np.int64(cfg.kind_style[m.kind])


# ---- Yt-MejKot's heal ------------------------------------------------------------------------------------
@njit(cache=True)
def _below_half(cfg, o):
    return o.state == ST.SLOT_ALIVE and 2 * o.hp < cfg.kind_row[o.kind].hitpoints


@njit(cache=True)
def mejkot_heal(s, cfg, k):
    """A Yt-MejKot with its timer ready heals instead of attacking: itself when below half its hitpoints, else
    the first monster (slot order) below half within MEJKOT_HEAL_RANGE tiles, by 1..mejkot_heal_max [H: OSRS wiki
    "TzHaar Fight Cave": "can heal itself and other monsters that are below half their health"; the amount and
    the cadence are not published (README "Open questions" 6): APPROXIMATION, the heal takes its attack turn
    (VOID, PR 689, Kronos), 1-10 (Zenyte, Kronos)]. Returns True when it healed."""
    m = s.monsters[k]
    j = -1
    if _below_half(cfg, m):
        j = k
    else:
        size = size_of(cfg, m)
        for i in range(ST.MONSTER_SLOTS):
            o = s.monsters[i]
            if i != k and _below_half(cfg, o) and \
                    edge_distance(m.x, m.y, size, o.x, o.y, size_of(cfg, o)) <= MEJKOT_HEAL_RANGE:
                j = i
                break
    if j < 0:
        return False
    m.attack_timer = cfg.kind_speed[m.kind]
    FIN.heal(s, cfg, k, j, R.between(s.rng, 1, max(cfg.mejkot_heal_max, 1)))
    return True


# ---- the turn ----------------------------------------------------------------------------------------
@njit(cache=True)
def monster_turn(s, cfg, k):
    """One monster's turn (index a-d); returns the prayer score of its attacks."""
    m = s.monsters[k]
    if m.attack_timer > 0:
        m.attack_timer -= 1
    score = 0
    style = JAD.released_style(m)     # TzTok-Jad's shown attack leaves core.jad.TELL_TICKS after its tell
    if style >= 0:
        score += monster_attack(s, cfg, k, style, True)
    if m.stun > 0:
        m.stun -= 1
        return score
    tx, ty, tsize = target_of(s, cfg, m)
    seen = CROWD.move_turn(s, cfg, k, cfg.flags, tx, ty, tsize)
    if m.frozen > 0:
        m.frozen -= 1
    if seen < 0:
        return score
    sees = seen == 1
    if m.attack_timer <= 0 and m.windup <= 0:
        if m.kind == ST.K_MEJKOT and mejkot_heal(s, cfg, k):
            pass
        elif sees and m.target >= 0:
            FIN.healer_heal(s, cfg, k)
        elif sees and m.kind == ST.K_JAD:
            score += FIN.jad_attack(s, cfg, k)
        elif sees:
            score += monster_attack(s, cfg, k, distance_or_melee(s, cfg, m))
    m.had_los = 1 if sees else 0
    return score


@njit(cache=True)
def monsters_turn(s, cfg):
    score = 0
    for k in range(ST.MONSTER_SLOTS):
        if s.monsters[k].state == ST.SLOT_ALIVE:
            score += monster_turn(s, cfg, k)
    return score
