"""Waves and spawns: a monster appearing in a slot (``place``; mid-wave ones take a free slot), a wave's spawn, a
Tz-Kek's split and the wave clock (end of tick, mechanics.tick phase 5).

- A wave's monsters (waves.WAVE_KINDS, highest level first) spawn on the anchors of the areas the rotation gives
  them (waves.py: the k-th in ``SPAWN_CYCLE[(wave - 1 + r + k) % 15]``; arena.SPAWN_TILES), each stunned 1 tick
  [M: the Inferno's rule (InfernoTrainer mobs setStats stunned = 1); no Fight Cave source gives one:
  APPROXIMATION]. Monsters of one area share its tile (arena.py: "more than one unit may spawn on the same
  spot"); the first chase steps spread them (core.npc_crowd).
- The wave is cleared when no monster of it is left (a Tz-Kek's splits included: they spawn as it dies; Jad's
  healers do not count: waves.py); the next wave spawns waves.WAVE_GAP_TICKS later [L: Zenyte, APPROXIMATION].
- TzTok-Jad's death ends the cave (mechanics.tick).
"""

import numpy as np
from numba import njit

from osrs_rl.core import npc_crowd as CROWD
from osrs_rl.core import npc_slots as SLOTS
from osrs_rl.core.collision import BLOCKED
from osrs_rl.core.events import ENTITY_NONE, EV_SPAWN, record_event
from osrs_rl.core.pending_hits import HIT_FREE, HIT_PENDING

from . import arena as A
from . import state as ST
from . import waves as W

# where a Tz-Kek (Level 45)'s second split appears: one tile east of its south-west tile, else west, south, north,
# the first free one [M: Zenyte TzKek.java; Kronos a random tile of its 2x2, VOID both on its tile: README "Open
# questions" 11]; the first takes its south-west tile
SPLIT_STEPS = ((1, 0), (-1, 0), (0, -1), (0, 1))


@njit(cache=True)
def place(s, cfg, slot, kind, x, y, target):
    """Monster ``kind`` appears in ``slot`` at (x, y), aiming at ``target``, stunned 1 tick; an EV_SPAWN."""
    hp = cfg.kind_row[kind].hitpoints
    SLOTS.spawn(s, slot, kind, x, y, hp, target, 1, ST.ENT_MONSTER + slot, ENTITY_NONE, hp, 0)


@njit(cache=True)
def spare_slot(s):
    """A free slot for a monster that appears mid-wave; -1 when none is left (never, by state.MONSTER_SLOTS)."""
    return SLOTS.free_slot(s)


@njit(cache=True)
def spawn_wave(s, cfg):
    """Wave ``s.wave``'s monsters in slots 0.. on their areas' anchors; the player's arrows still flying at the last
    wave's monsters are lost."""
    for k in range(ST.MONSTER_SLOTS):
        s.monsters[k].state = ST.SLOT_FREE
    for i in range(ST.HIT_CAPACITY):
        if s.hits[i].state == HIT_PENDING and s.hits[i].target != ST.HT_PLAYER:
            s.hits[i].state = HIT_FREE
    w = s.wave
    for k in range(cfg.wave_size[w]):
        area = cfg.cycle[(w - 1 + s.rotation + k) % W.NUM_ROTATIONS]
        place(s, cfg, k, cfg.wave_kinds[w, k], cfg.spawn_xy[area, 0], cfg.spawn_xy[area, 1], ST.TARGET_PLAYER)
    s.wave_tick = 0
    s.next_wave_in = 0
    record_event(s, EV_SPAWN, ENTITY_NONE, ENTITY_NONE, -1, w, ST.EVF_WAVE, s.p.x, s.p.y)


@njit(cache=True)
def _split_tile(s, cfg, x, y):
    """The second split's tile (SPLIT_STEPS): on the floor and clear of every living monster; else (x, y)."""
    for i in range(len(SPLIT_STEPS)):
        nx, ny = x + SPLIT_STEPS[i][0], y + SPLIT_STEPS[i][1]
        if 0 <= nx < A.GRID_W and 0 <= ny < A.GRID_H and not (cfg.flags[nx, ny] & BLOCKED) \
                and CROWD.free_of_others(s, cfg, -1, nx, ny, 1):
            return np.int64(nx), np.int64(ny)
    return np.int64(x), np.int64(y)


@njit(cache=True)
def split_kek(s, cfg, k, x, y):
    """A Tz-Kek (Level 45) that died at (x, y) in slot ``k`` splits into two Tz-Kek (Level 22): the first in its slot
    on its south-west tile, the second in a free slot on ``_split_tile`` [H: OSRS wiki "TzHaar Fight Cave"; tiles M:
    Zenyte (SPLIT_STEPS)]."""
    place(s, cfg, k, ST.K_KEK_SPLIT, x, y, ST.TARGET_PLAYER)
    slot = spare_slot(s)
    if slot >= 0:
        sx, sy = _split_tile(s, cfg, x, y)
        place(s, cfg, slot, ST.K_KEK_SPLIT, sx, sy, ST.TARGET_PLAYER)


@njit(cache=True)
def wave_left(s):
    """The monsters the wave still needs killed: every living one but Jad's healers."""
    n = 0
    for k in range(ST.MONSTER_SLOTS):
        m = s.monsters[k]
        if m.state == ST.SLOT_ALIVE and m.kind != ST.K_HURKOT:
            n += 1
    return n


@njit(cache=True)
def wave_clock(s, cfg):
    """The wave's clock, at the end of the tick; returns 1 when this tick cleared a wave (the next comes
    WAVE_GAP_TICKS later; the last wave ends with Jad's death instead: mechanics.tick)."""
    if s.next_wave_in > 0:
        s.next_wave_in -= 1
        if s.next_wave_in == 0:
            s.wave += 1
            spawn_wave(s, cfg)
        return 0
    s.wave_tick += 1
    if wave_left(s) > 0 or s.wave >= W.NUM_WAVES:
        return 0
    s.waves_cleared += 1
    s.next_wave_in = W.WAVE_GAP_TICKS
    return 1
