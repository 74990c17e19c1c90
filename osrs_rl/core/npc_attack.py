"""A monster's attack on a player record: the overhead, the accuracy and damage rolls on the attack tick, and the
hit queued to land after the style's delay. The Inferno's and the Fight Caves' monsters attack this way.

Duck-typed state (as core.hit_events): ``s.p`` the player (core.player.PLAYER_DTYPE), ``s.combat[0]`` the
player's live combat record (the caller refreshes it from the worn gear first: core.player_input.refresh_combat),
``s.rng``, ``s.tick``, the tracked hit queue (``hits``, ``hit_source``, ``hit_flags``) and the event buffer.

Rules, with sources:

1. The overhead is read when the attack is made [osrs-sdk Weapon.attack: the prayer is read on the attack tick]:
   a matching protection prayer blocks the whole hit (PvM protection prayers block 100 % of an NPC's damage of
   their style: OSRS wiki "Protect from Melee"), but the roll still decides the hitsplat's accuracy flag.
2. Accuracy: the standard NPC attack roll against the player's defence roll of the attack's type
   (core.accuracy); ``always_accurate`` skips it (dps-calc ALWAYS_ACCURATE_MONSTERS); an accurate unblocked hit
   deals 0..max_hit (core.damage).
3. Delay: melee lands at once (0); ranged as a bow at the edge distance (core.hit_delay.bow_delay) plus the
   kind's ``extra_delay``; magic as a spell (magic_delay). ``early`` (0 or 1) takes a tick off a delayed hit
   (osrs-sdk's landing tick: the Inferno's ``projectile_rule``), and ``released`` ticks off for an attack
   released that long after its animation showed (a Jad's tell: core.jad), never below 0.
4. In melee reach, a monster with a distance attack that can also melee melees half the time (``melees_close``)
   [M: InfernoTrainer Mob.attack, canMeleeIfClose; the Zenyte OSRS server's TokXil.java and KetZek.java,
   ``random(1) == 0``; the Kronos OSRS server rolls 1/3: APPROXIMATION, no game source].
"""

from numba import njit

from osrs_rl.core import rng as R
from osrs_rl.core import styles as S
from osrs_rl.core.accuracy import npc_attack_roll, player_defence_roll, roll_accuracy
from osrs_rl.core.damage import roll_npc_damage
from osrs_rl.core.events import EV_ATTACK, EVF_BLOCKED, record_event
from osrs_rl.core.formula import NO_TRACE
from osrs_rl.core.hit_delay import bow_delay, edge_distance, magic_delay
from osrs_rl.core.hit_events import queue_tracked_hit
from osrs_rl.core.pending_hits import FLAG_ACCURATE, STYLE_MAGIC, STYLE_RANGED
from osrs_rl.core.player_input import protected_from

MELEE_IF_CLOSE = (1, 2)        # rule 4: p = 1/2


@njit(cache=True)
def melees_close(rng):
    """A monster in melee reach of the player that can also melee does so this attack (rule 4; one draw)."""
    return R.chance(rng, MELEE_IF_CLOSE[0], MELEE_IF_CLOSE[1])


@njit(cache=True)
def attack_type_of(style):
    """The defence a pending-hit ``style`` rolls against: ranged, magic, else crush (an NPC's melee)."""
    if style == STYLE_RANGED:
        return S.RANGED
    if style == STYLE_MAGIC:
        return S.MAGIC
    return S.CRUSH


@njit(cache=True)
def npc_attack_player(s, entity, kind, row, max_hit, style, x, y, size, extra_delay, always_accurate, early,
                      released, player_entity, player_target):
    """The monster ``entity`` (its tally ``kind``, combat ``row``, footprint (x, y, size)) attacks the player
    with pending-hit ``style`` (rules 1-3); the hit goes on ``s.hits`` aimed at ``player_target`` and an
    EV_ATTACK from ``entity`` to ``player_entity`` is recorded. Returns whether the overhead blocked it."""
    p = s.p
    attack_type = attack_type_of(style)
    damage = 0
    flags = 0
    prayed = protected_from(p, style)
    accurate = always_accurate
    if not accurate:
        accurate = roll_accuracy(s.rng, npc_attack_roll(NO_TRACE, row, attack_type),
                                 player_defence_roll(NO_TRACE, s.combat[0], attack_type))
    if accurate:
        flags = FLAG_ACCURATE
        if not prayed:
            damage = roll_npc_damage(s.rng, max_hit)
    d = edge_distance(x, y, size, p.x, p.y, 1)
    delay = 0
    if style == STYLE_RANGED:
        delay = bow_delay(d) + extra_delay
    elif style == STYLE_MAGIC:
        delay = magic_delay(d)
    if early and delay > 0:
        delay -= 1
    if released > 0:
        delay = max(delay - released, 0)
    blocked = EVF_BLOCKED if prayed else 0
    queue_tracked_hit(s, entity, blocked, s.tick + delay, damage, style, kind, player_target, flags, 0, 0)
    record_event(s, EV_ATTACK, entity, player_entity, style, 0, blocked, x, y)
    return prayed
