"""Each wave monster kind's own rules, called from the monsters' turn (monsters.py): the blob's scan and its
split into three bloblets, the nibbler's chew on its pillar, Jal-ImKot's dig, Jal-Zek's resurrection; their
constants with their sources (README.md, tags as defined in docs/sources.md).
"""

import numpy as np
from numba import njit

from osrs_rl.core import player_input as PI
from osrs_rl.core import rng as R
from osrs_rl.core.collision import BLOCKED
from osrs_rl.core.events import ENTITY_NONE, EV_ATTACK, EV_DEATH, EV_SPAWN, record_event
from osrs_rl.core.movement import in_melee_reach
from osrs_rl.core.npc_attack import melees_close
from osrs_rl.core.pending_hits import STYLE_MAGIC, STYLE_MELEE, STYLE_RANGED

from . import arena as A
from . import monsters as MON
from . import pillars as PIL
from . import spawns as SPN
from . import state as ST

NIBBLER_PILLAR_MAX = 4         # a nibbler chews 0..4 off a pillar [M: InfernoTrainer JalNib.ts floor(rand * 5)]
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


# ---- the blob (Jal-Ak): its scan and its split -------------------------------------------------------
@njit(cache=True)
def blob_turn(s, cfg, k, sees):
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
    if in_melee_reach(m.x, m.y, MON.size_of(cfg, m), s.p.x, s.p.y, 1) and melees_close(s.rng):
        style = STYLE_MELEE
    if not sees and cfg.blob_shot_rule == 1:
        pillar = PIL.blocking_pillar(s, cfg, k)
        if pillar >= 0:
            MON.pillar_takes(s, cfg, k, style, pillar)
            m.attack_timer = BLOB_SCAN_DELAY
            return 0
        if style != STYLE_MELEE:
            return 0                      # out of its range, nothing in the way: no shot, a new scan on sight
    score = MON.monster_attack(s, cfg, k, style)
    m.attack_timer = BLOB_SCAN_DELAY
    return score


@njit(cache=True)
def split_due_blobs(s, cfg):
    """Dead blobs whose death animation ended this tick split (BLOBLET_DELAY), before the monsters' turns."""
    for k in range(ST.MONSTER_SLOTS):
        m = s.monsters[k]
        if m.state == ST.SLOT_DEAD and m.split_due > 0 and s.tick >= m.split_due:
            m.split_due = 0
            split_blob(s, cfg, m.x, m.y)


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
        slot = SPN.spare_slot(s)
        if slot >= 0:
            off = BLOBLET_OFFSETS[j]
            SPN.place(s, cfg, slot, kinds[j], x + off, y + off, ST.TARGET_PLAYER)
            # +1: a bloblet takes its first turn in this tick's monster phase, which counts the timer down
            s.monsters[slot].attack_timer = BLOBLET_COOLDOWN + 1


# ---- the nibbler (Jal-Nib) ---------------------------------------------------------------------------
@njit(cache=True)
def nibbler_chew(s, cfg, k):
    m = s.monsters[k]
    damage = R.inclusive(s.rng, NIBBLER_PILLAR_MAX)
    record_event(s, EV_ATTACK, ST.ENT_MONSTER + k, ST.ENT_PILLAR + m.target, STYLE_MELEE, 0, 0, m.x, m.y)
    PIL.damage_pillar(s, cfg, m.target, damage, ST.ENT_MONSTER + k, STYLE_MELEE)
    m.attack_timer = cfg.kind_speed[m.kind]


# ---- the meleer (Jal-ImKot): its dig -----------------------------------------------------------------
@njit(cache=True)
def _open_for(s, cfg, x, y, size):
    """A ``size`` footprint at (x, y) lies on the arena floor, clear of the standing pillars."""
    flags = PIL.arena_map(s, cfg)
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
    m.dig_x, m.dig_y = _dig_tile(s, cfg, MON.size_of(cfg, m))
    m.dig_left = DIG_TICKS
    m.dig_timer = 0
    m.dig_due = R.between(s.rng, DIG_WIKI_NEXT[0], DIG_WIKI_NEXT[1])
    m.activity = ST.ACT_DIG
    m.scan = -1
    s.digs += 1
    record_event(s, EV_DEATH, ST.ENT_MONSTER + k, ENTITY_NONE, -1, 0, ST.EVF_DIG, m.x, m.y)
    return True


@njit(cache=True)
def underground(s, cfg, k):
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


# ---- the mager (Jal-Zek): its resurrection -----------------------------------------------------------
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
            if _open_for(s, cfg, x, y, size) and MON.free_of_monsters(s, cfg, k, x, y, size):
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
    x, y = _revive_tile(s, cfg, j, MON.size_of(cfg, d))
    SPN.place(s, cfg, j, d.kind, x, y, ST.TARGET_PLAYER, ST.ENT_MONSTER + k, ST.EVF_REVIVED)
    d.hp = cfg.kind_row[d.kind].hitpoints // 2
    d.stun = 0
    d.attack_timer = cfg.kind_speed[d.kind]
    d.revived = 1
    m = s.monsters[k]
    m.attack_timer = REVIVE_DELAY
    m.activity = ST.ACT_REVIVE
    s.resurrections += 1
    return True
