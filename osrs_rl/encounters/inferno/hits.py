"""Hits landing. Tick phase 2 (mechanics.tick): the player's hits due on monsters land (arrows loosed last
tick or before; a Toxic Siphon hit heals the player half its damage, an accurate barrage freezes its monster 32
ticks); a monster at 0 dies and keeps its slot until the next wave (its resurrection: kinds.mager_revive); a
blob splits into three bloblets after its death animation (kinds.split_blob). Phase 4: hits due on the player
land (the finale's lava sparks before them: finale.land_sparks).
"""

from numba import njit

from osrs_rl.core import wave_hits as WH
from osrs_rl.core.events import ENTITY_NONE, EV_DEATH, EVF_KILLED, record_event
from osrs_rl.core.hooks import implements
from osrs_rl.core.pending_hits import FLAG_ACCURATE
from osrs_rl.core.player import heal_hitpoints

from . import finale as FIN
from . import kinds as KIN
from . import state as ST


@njit(cache=True)
def land_monster_hits(s, cfg):
    """The player's hits due on monsters (core.wave_hits); returns the damage dealt. A hit on a monster already
    dead is lost."""
    return WH.land_on_monsters(s, cfg, ST.HT_PLAYER, ST.HT_MONSTER)


@implements(WH.takes_hits, ST.STATE_DTYPE)
def takes_hits(s, cfg, k):
    return s.monsters[k].state == ST.SLOT_ALIVE


@implements(WH.struck, ST.STATE_DTYPE)
def struck(s, cfg, k, i, damage):
    """What the player's hit in queue slot ``i`` does to monster ``k`` once its damage is off: a Toxic Siphon
    heals the player, the low watermarks move, a healer or a set is drawn, a kill, an accurate barrage's freeze,
    a Jad's healers or Zuk's thresholds."""
    m = s.monsters[k]
    h = s.hits[i]
    m.hurt_tick = s.tick
    if h.heal_pct > 0 and damage > 0:
        s.spec_healed += heal_hitpoints(s.p, damage * h.heal_pct // 100)
    if m.hp < m.low_hp:          # the low watermarks (coef_jad_damage, coef_zuk_damage)
        if m.kind == ST.K_JAD:
            s.jad_low_dealt += m.low_hp - m.hp
        elif m.kind == ST.K_ZUK:
            s.zuk_low = m.hp
        m.low_hp = m.hp
    FIN.drawn_by_player(s, cfg, k)
    if m.hp <= 0:
        kill_monster(s, cfg, k)
    else:
        if h.freeze_ticks > 0 and (h.flags & FLAG_ACCURATE):
            freeze_monster(s, m, h.freeze_ticks)
        if m.kind == ST.K_JAD:
            FIN.jad_hurt(s, cfg, k)
        elif m.kind == ST.K_ZUK:
            FIN.zuk_hurt(s, cfg, k)


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
        m.split_due = s.tick + KIN.BLOBLET_DELAY     # its bloblets come after its death animation (split_due_blobs)
    elif m.kind == ST.K_JAD_HEALER or m.kind == ST.K_ZUK_HEALER:
        s.healers_killed += 1
    elif m.kind == ST.K_JAD or m.kind == ST.K_ZUK:
        FIN.dies_with(s, k)


@njit(cache=True)
def land_player_hits(s):
    """Hits due on the player, capped at its hitpoints, tallied by the kind that threw them (core.wave_hits)."""
    return WH.land_on_player(s, ST.HT_PLAYER)
