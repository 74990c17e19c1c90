"""Hits landing (core.wave_hits). Tick phase 2 (mechanics.tick): the player's hits due on monsters land; a monster
at 0 dies and frees its slot (a Tz-Kek (Level 45) splits into two, TzTok-Jad takes his healers with him); a hit on
a Yt-HurKot draws it off its Jad; TzTok-Jad below half calls his healers (finale.py). Phase 4: hits due on the
player land. No recoil: a Tz-Kek's 1 recoil damage answers melee hits only [H: OSRS wiki "TzHaar Fight Cave"
"Recoil damage of 1"; npcs.json notes], and neither kit melees, so it is not modelled.
"""

from numba import njit

from osrs_rl.core import wave_hits as WH
from osrs_rl.core.events import ENTITY_NONE, EV_DEATH, EVF_KILLED, record_event
from osrs_rl.core.hooks import implements
from osrs_rl.core.pending_hits import HIT_FREE, HIT_PENDING

from . import finale as FIN
from . import spawns as SPN
from . import state as ST


@implements(WH.takes_hits, ST.STATE_DTYPE)
def takes_hits(s, cfg, k):
    return s.monsters[k].state == ST.SLOT_ALIVE


@implements(WH.struck, ST.STATE_DTYPE)
def struck(s, cfg, k, i, damage):
    """A healer is drawn, a monster at 0 dies, TzTok-Jad hurt below half calls his healers."""
    m = s.monsters[k]
    FIN.drawn_by_player(s, cfg, k)
    if m.hp <= 0:
        kill_monster(s, cfg, k)
    elif m.kind == ST.K_JAD:
        FIN.jad_hurt(s, cfg, k)


@njit(cache=True)
def kill_monster(s, cfg, k):
    """Monster ``k`` at 0 hitpoints dies and frees its slot; the player's hits still flying at it are lost (a new
    monster may take the slot); a Tz-Kek (Level 45) splits (spawns.split_kek); TzTok-Jad's healers die with him."""
    m = s.monsters[k]
    m.state = ST.SLOT_FREE
    m.windup = 0
    s.kills[m.kind] += 1
    record_event(s, EV_DEATH, ST.ENT_MONSTER + k, ENTITY_NONE, -1, 0, EVF_KILLED, m.x, m.y)
    for i in range(ST.HIT_CAPACITY):
        if s.hits[i].state == HIT_PENDING and s.hits[i].target == ST.HT_MONSTER + k:
            s.hits[i].state = HIT_FREE
    if m.kind == ST.K_KEK:
        SPN.split_kek(s, cfg, k, m.x, m.y)
    elif m.kind == ST.K_JAD:
        FIN.dies_with(s, k)


@njit(cache=True)
def land_monster_hits(s, cfg):
    """The player's hits due on monsters; returns the damage dealt."""
    return WH.land_on_monsters(s, cfg, ST.HT_PLAYER, ST.HT_MONSTER)


@njit(cache=True)
def land_player_hits(s):
    """Hits due on the player, tallied by the kind that threw them; returns the damage taken."""
    return WH.land_on_player(s, ST.HT_PLAYER)
