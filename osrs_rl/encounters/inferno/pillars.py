"""The Inferno's floor as the kernels read it: the map in force (the standing pillars' or the Zuk wave's:
cfg.maps, cfg.route and cfg.sight are indexed by it), sight over it, and the pillars: the damage they take
(a nibbler's chew, a blocked attack) and their collapse at 0, after which a pillar stops blocking movement and
sight. Their tiles and hitpoints are arena.py's; sources beside each rule (README.md, tags as defined in
docs/sources.md).
"""

import numpy as np
from numba import njit

from osrs_rl.core.events import ENTITY_NONE, EV_DEATH, EV_HIT, EVF_KILLED, record_event
from osrs_rl.core.hit_delay import edge_distance
from osrs_rl.core.line_of_sight import table_line_of_sight
from osrs_rl.core.movement import overlaps
from osrs_rl.core.pending_hits import STYLE_TYPELESS
from osrs_rl.core.skills import HITPOINTS

from . import arena as A
from . import hits as HIT
from . import monsters as MON
from . import state as ST
from . import waves as W


# ---- the map in force and sight over it --------------------------------------------------------------
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


# ---- pillars -----------------------------------------------------------------------------------------
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
        if m.state != ST.SLOT_ALIVE or m.dig_left > 0 or not overlaps(m.x, m.y, MON.size_of(cfg, m), x, y, side):
            continue
        damage = min(_collapse_hurt(cfg, m.hp), np.int64(m.hp))
        m.hp -= damage
        record_event(s, EV_HIT, src, ST.ENT_MONSTER + k, STYLE_TYPELESS, damage, 0, m.x, m.y)
        if m.hp <= 0:
            HIT.kill_monster(s, cfg, k)
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
    size = MON.size_of(cfg, m)
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
