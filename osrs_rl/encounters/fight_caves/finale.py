"""Wave 63: TzTok-Jad's tell, his four Yt-HurKot healers, their heal and their turn on the player; the heal the
Yt-MejKot share with them (``heal``). Sources beside each rule; what is shared with the Inferno's Jads is
core.jad's.
"""

import numpy as np
from numba import njit

from osrs_rl.core import jad as JAD
from osrs_rl.core import rng as R
from osrs_rl.core.events import ENTITY_NONE, EV_DEATH, EV_HEAL, record_event
from osrs_rl.core.pending_hits import STYLE_MELEE

from . import monsters as MON
from . import spawns as SPN
from . import state as ST
from . import waves as W


@njit(cache=True)
def jad_attack(s, cfg, k):
    """TzTok-Jad starts an attack: a stab when the player is in melee reach (half the time, at once), else ranged
    or magic 50/50, shown now by its tell (``scan``: the style, ``windup``) and released core.jad.TELL_TICKS later
    (monsters.monster_turn), when the overhead then decides [core.jad rule 1: the Inferno's JalTok-Jad timing;
    APPROXIMATION for TzTok-Jad, whose release tick is not published in OSRS-era code (README "Open questions"
    1); the tells: RuneLite fight cave plugin, animation 2652 ranged, 2656 magic]. Returns a melee's prayer
    score."""
    m = s.monsters[k]
    style = MON.distance_or_melee(s, cfg, m)
    if style == STYLE_MELEE:
        return MON.monster_attack(s, cfg, k, STYLE_MELEE)
    JAD.show_attack(m, style, cfg.kind_speed[m.kind])
    return 0


@njit(cache=True)
def heal(s, cfg, healer, j, amount):
    """Monster ``healer`` heals monster ``j`` by ``amount``, never past its hitpoints (core.jad rule 3); an EV_HEAL.
    TzTok-Jad healed back to full is re-armed: his healers come again when he next falls below half [H: VOID
    TzhaarFightCave.kt, Kronos FightCaves: a full heal re-arms them; npcs.json "TzTok-Jad" notes]."""
    o = s.monsters[j]
    top = cfg.kind_row[o.kind].hitpoints
    gained = JAD.heal(o, amount, top)
    s.healed += gained
    record_event(s, EV_HEAL, ST.ENT_MONSTER + healer, ST.ENT_MONSTER + j, -1, gained, 0, o.x, o.y)
    if o.kind == ST.K_JAD and o.hp >= top:
        o.procced = 0


@njit(cache=True)
def healer_heal(s, cfg, k):
    """A Yt-HurKot next to its Jad heals him by 1..healer_heal_max every 4 ticks (its attack speed) until the
    player's hit lands on it [H: Zenyte, Kronos, VOID: every 4 ticks while next to him; amount M: 1-10 Zenyte and
    Kronos, config healer_heal_max (README "Open questions" 5)]."""
    m = s.monsters[k]
    m.attack_timer = cfg.kind_speed[m.kind]
    if s.monsters[m.target].state == ST.SLOT_ALIVE:
        heal(s, cfg, k, np.int64(m.target), R.between(s.rng, 1, max(cfg.healer_heal_max, 1)))


@njit(cache=True)
def healers_alive(s, k):
    n = 0
    for j in range(ST.MONSTER_SLOTS):
        o = s.monsters[j]
        if o.state == ST.SLOT_ALIVE and o.kind == ST.K_HURKOT and o.parent == k:
            n += 1
    return n


@njit(cache=True)
def jad_hurt(s, cfg, k):
    """TzTok-Jad below half his hitpoints calls his Yt-HurKot, once until a full heal re-arms him (core.jad rule
    2): as many as bring the living ones to waves.HEALERS_PER_JAD [H: 4, OSRS wiki "TzTok-Jad"; M: Kronos
    replaces only the dead ones], each on the anchor of the spawn cycle's next area after Jad's [M: Kronos
    nextSpawnPosition, Zenyte spawnNPC walk the cycle on; VOID a random area; APPROXIMATION: the cycle index]. They
    walk to him (target: his slot)."""
    m = s.monsters[k]
    if not JAD.healers_due(m, cfg.kind_row[m.kind].hitpoints):
        return
    for i in range(W.HEALERS_PER_JAD - healers_alive(s, k)):
        slot = SPN.spare_slot(s)
        if slot < 0:
            return
        area = cfg.cycle[(s.wave + s.rotation + i) % W.NUM_ROTATIONS]
        SPN.place(s, cfg, slot, ST.K_HURKOT, cfg.spawn_xy[area, 0], cfg.spawn_xy[area, 1], k)
        s.monsters[slot].parent = k


@njit(cache=True)
def drawn_by_player(s, cfg, k):
    """The player's hit landed on monster ``k``: a healing Yt-HurKot stops healing and fights the player for the
    rest of its life (a tag) [H: Kronos (its heal loop ends when attacked), Zenyte (heals only out of combat),
    PR 689]."""
    m = s.monsters[k]
    if m.kind == ST.K_HURKOT and m.target >= 0:
        m.target = ST.TARGET_PLAYER
        s.healers_tagged += 1


@njit(cache=True)
def dies_with(s, k):
    """TzTok-Jad's healers die with him (not the player's kills) [H: VOID npcDespawn, Kronos handleDeath]."""
    for j in range(ST.MONSTER_SLOTS):
        o = s.monsters[j]
        if j != k and o.state == ST.SLOT_ALIVE and o.parent == k:
            o.state = ST.SLOT_FREE
            record_event(s, EV_DEATH, ST.ENT_MONSTER + j, ENTITY_NONE, -1, 0, 0, o.x, o.y)
