"""Waves and spawns: a monster appearing in a slot (``place``; mid-wave ones take a spare slot), a wave's
spawn and the wave clock (end of tick, mechanics.tick phase 5): the last monster dead -> the next wave spawns
9 ticks later [M: InfernoTrainer InfernoRegion.ts], on the nine spawn tiles shuffled (Fisher-Yates) and
assigned magers, rangers, meleers, blobs, bats in that order, nibblers on distinct tiles of the central block;
``last_wave`` cleared ends the run (success). Waves 67-69 spawn in finale.spawn_finale.
"""

import numpy as np
from numba import njit

from osrs_rl.core import npc_slots as SLOTS
from osrs_rl.core import rng as R
from osrs_rl.core.events import ENTITY_NONE, EV_SPAWN, record_event
from osrs_rl.core.pending_hits import HIT_FREE, HIT_PENDING

from . import arena as A
from . import finale as FIN
from . import kinds as KIN
from . import monsters as MON
from . import state as ST
from . import waves as W


@njit(cache=True)
def place(s, cfg, slot, kind, x, y, target, by=ENTITY_NONE, flags=0):
    """Monster ``kind`` appears in ``slot`` at (x, y), aiming at ``target``; an EV_SPAWN (``by``, ``flags``:
    the mager and EVF_REVIVED of a resurrection)."""
    # stunned 1 tick: InfernoTrainer mobs/*.ts setStats: stunned = 1 (core.npc_slots)
    SLOTS.spawn(s, slot, kind, x, y, cfg.kind_row[kind].hitpoints, target, 1, ST.ENT_MONSTER + slot, by, 1, flags)
    m = s.monsters[slot]
    m.revived = 0
    m.dig_timer = 0
    m.dig_due = KIN.DIG_WIKI_FIRST
    m.dig_left = 0
    m.dig_x = 0
    m.dig_y = 0
    m.hurt_tick = ST.NO_HURT
    m.activity = ST.ACT_NONE
    m.low_hp = m.hp
    m.split_due = 0                   # a blob revived before it split never splits (osrs-sdk Unit.cancelDeath)


@njit(cache=True)
def spare_slot(s):
    """A slot for a monster that appears mid-wave: a free one, else the slot of a dead monster that can never
    be revived (a nibbler, a bloblet, one revived already; on waves 67-69 any: nothing is revived there, IT
    JalZek revives only on the regular waves); -1 when none is left."""
    slot = SLOTS.free_slot(s)
    if slot >= 0:
        return slot
    finale = s.wave >= W.JAD_WAVE
    for slot in range(ST.MONSTER_SLOTS):
        m = s.monsters[slot]
        never = m.kind == ST.K_NIBBLER or ST.K_BLOBLET_MAGIC <= m.kind <= ST.K_BLOBLET_MELEE
        if m.state == ST.SLOT_DEAD and m.split_due == 0 and (finale or m.revived or never):
            return slot
    return -1


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
        FIN.spawn_finale(s, cfg)
        record_event(s, EV_SPAWN, ENTITY_NONE, ENTITY_NONE, -1, s.wave, ST.EVF_WAVE, s.p.x, s.p.y)
        return
    order = np.arange(A.NUM_SPAWNS)
    R.shuffle(s.rng, order)
    slot = 0
    tile = 0
    counts = cfg.wave_counts[s.wave]
    for c in ST.SPAWN_ORDER:
        for _ in range(counts[c]):
            t = order[tile]
            place(s, cfg, slot, ST.WAVE_KIND[c], cfg.spawn_xy[t, 0], cfg.spawn_xy[t, 1], ST.TARGET_PLAYER)
            slot += 1
            tile += 1
    nib = np.arange(9)
    R.shuffle(s.rng, nib)
    pillar = MON.pick_pillar(s)
    for i in range(counts[0]):
        t = nib[i]
        place(s, cfg, slot, ST.K_NIBBLER, cfg.nibbler_xy[t, 0], cfg.nibbler_xy[t, 1], pillar)
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
