"""Hits in a fight of one player against slots of monsters (the wave encounters): the player's attack rolled on
a monster's combat row and queued, the player's hits due on monster slots landing, and the monsters' hits due
on the player landing.

Duck-typed state (as core.hit_events): ``s.hits`` (a core.pending_hits queue) with ``s.hit_source`` and
``s.hit_flags`` beside it (core.hit_events), ``s.splats`` (MAX_HITSPLATS scratch) and ``s.landing`` (scratch of
the queue's capacity), ``s.p`` (core.player), ``s.monsters`` (records with ``hp``, ``x``, ``y``), ``s.rng``,
``s.tick``, the tallies ``s.damage_dealt``, ``s.damage_taken[attacker]`` (by the ``attacker`` index the monsters
queue their hits with), ``s.taken_style[4]`` (by pending-hit STYLE_*) and ``s.killer``, and the event buffer.

What differs between encounters are two hooks (core.hooks): ``takes_hits`` (a monster slot a landing hit can
hurt) and ``struck`` (what a landed hit does besides the hitpoints: a kill, a healer drawn off, a freeze).

Rules, with sources:

1. The player's attack on a monster rolls against that monster's own defence (core.attack: the calculator's
   rolls, weirdgloop/osrs-dps-calc), every hitsplat queued to land ``due``; an accurate hit deals at least 1
   (core.damage), so a hitsplat above 0 marks it accurate.
2. A hit lands on the tick it is due (core.pending_hits), capped at the hitpoints left; a hit due on a slot that
   cannot take it (its monster died) is lost [osrs-sdk Unit.processIncomingAttacks drops it with its target].
3. Hits on the player land in queue order, capped at its hitpoints; once it is at 0 the rest do not land, and
   the hit that took it to 0 names the killer.
"""

import numpy as np
from numba import njit

from osrs_rl.core.attack import rolls_vs_npc, sample_hits
from osrs_rl.core.damage import CAP_NONE
from osrs_rl.core.formula import NO_TRACE
from osrs_rl.core.hit_events import queue_tracked_hit, record_hit_landed
from osrs_rl.core.hooks import hook
from osrs_rl.core.pending_hits import FLAG_ACCURATE, HIT_FREE, HIT_PENDING, pop_due_for
from osrs_rl.core.skills import HITPOINTS


@hook
def takes_hits(s, cfg, k):
    """Monster slot ``k`` is there to take a hit that lands now (alive, above ground)."""


@hook
def struck(s, cfg, k, i, damage):
    """The hit in queue slot ``i`` landed on monster slot ``k`` for ``damage`` (its hitpoints already lowered):
    the encounter's rules that follow (a death, a healer drawn off, a freeze, a heal for the player)."""


@njit(cache=True)
def roll_on_npc(s, c, row, sp, bolt_ctx, due, style, player_entity, target, flags, heal_pct, freeze):
    """Combatant ``c``'s attack (row ``sp``) on an NPC of combat ``row`` (rule 1): its hitsplats queued from
    ``player_entity`` at hit target ``target``, landing on tick ``due``; returns how many."""
    att, dfn, mn, mx = rolls_vs_npc(NO_TRACE, c, row, sp)
    n = sample_hits(s.rng, att, dfn, mn, mx, sp, bolt_ctx, CAP_NONE, s.splats)
    for j in range(n):
        hit = flags | (FLAG_ACCURATE if s.splats[j] > 0 else 0)
        queue_tracked_hit(s, player_entity, 0, due, s.splats[j], style, 0, target, hit, heal_pct, freeze)
    return n


@njit(cache=True)
def land_on_monsters(s, cfg, player_target, first_slot):
    """The player's hits due now on monster slots (hit target ``first_slot + k``; every target but
    ``player_target``) land (rule 2); returns the damage dealt, also added to ``s.damage_dealt``."""
    dealt = 0
    for i in range(s.hits.shape[0]):
        h = s.hits[i]
        if h.state != HIT_PENDING or h.due_tick > s.tick or h.target == player_target:
            continue
        h.state = HIT_FREE
        k = h.target - first_slot
        if k < 0 or k >= s.monsters.shape[0] or not takes_hits(s, cfg, k):
            continue
        m = s.monsters[k]
        damage = min(np.int64(h.damage), np.int64(m.hp))
        m.hp -= damage
        dealt += damage
        record_hit_landed(s, i, damage, m.x, m.y)
        struck(s, cfg, k, i, damage)
    s.damage_dealt += dealt
    return dealt


@njit(cache=True)
def land_on_player(s, player_target):
    """Hits due now on the player (hit target ``player_target``) land (rule 3), tallied by their attacker
    index and style; returns the damage taken."""
    p = s.p
    n = pop_due_for(s.hits, s.tick, player_target, s.landing)
    taken = 0
    for j in range(n):
        h = s.hits[s.landing[j]]
        if p.levels[HITPOINTS] <= 0:
            break
        damage = min(np.int64(h.damage), np.int64(p.levels[HITPOINTS]))
        p.levels[HITPOINTS] -= damage
        s.damage_taken[h.attacker] += damage
        s.taken_style[h.style] += damage
        taken += damage
        record_hit_landed(s, s.landing[j], damage, p.x, p.y)
        if p.levels[HITPOINTS] <= 0:
            s.killer = h.attacker
    return taken


@njit(cache=True)
def incoming(hits, tick, target, out, ticks, scale):
    """The hits in flight at ``target`` by style and tick (an observation: the projectiles one sees, never their
    damage): ``out[style * ticks + t] = (hits of that style landing t + 1 ticks from now) / scale`` for t below
    ``ticks``; ``out`` holds the four pending-hit styles' rows."""
    for j in range(out.shape[0]):
        out[j] = 0.0
    for i in range(hits.shape[0]):
        h = hits[i]
        if h.state != HIT_PENDING or h.target != target:
            continue
        t = h.due_tick - tick - 1          # 0: lands next tick
        if 0 <= t < ticks:
            out[h.style * ticks + t] += 1.0 / scale
