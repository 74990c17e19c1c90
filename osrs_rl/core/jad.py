"""The Jads (TzTok-Jad of the Fight Caves, JalTok-Jad of the Inferno): the tell, the attack it releases, the
healers it calls and their heal. Both encounters' Jads follow these rules; what differs (how many healers, where
they appear, how much a heal gives) is passed in.

Duck-typed monster records (see core.npc_crowd): fields ``hp``, ``attack_timer``, ``scan`` (the style a shown
attack will use, -1 none), ``windup`` (ticks until it leaves, 0 none), ``procced`` (its healers have come),
``parent`` (a healer: its Jad's slot), ``state``.

Rules, with sources:

1. The tell: at distance a Jad draws magic or ranged 50/50 and shows it by its animation on the attack tick;
   the attack leaves ``TELL_TICKS`` = 3 ticks later and the player's overhead then decides; its projectile is
   that much shorter, and its attack timer runs from the animation [M: InfernoTrainer JalTokJad.ts
   JadMagicWeapon / JadRangeWeapon: DelayedAction(JAD_PROJECTILE_DELAY = 3) reads the overhead when it fires;
   RuneLite inferno plugin ticksAfterAnimation 3; the Fight Caves' TzTok-Jad shows the same two animations,
   2656 magic and 2652 ranged (RuneLite fight cave plugin), and the same rule is used for him: APPROXIMATION,
   his release tick is not published in OSRS-era code (encounters/fight_caves README "Open questions")].
2. Healers: below half its hitpoints a Jad calls its healers, once until the encounter re-arms it
   (``healers_due``) [InfernoTrainer JalTokJad.damageTaken; the Fight Caves' four Yt-HurKot: OSRS wiki
   "TzTok-Jad"].
3. A heal adds at most what the Jad lacks of its maximum (``heal``).
"""

import numpy as np
from numba import njit

from osrs_rl.core import rng as R
from osrs_rl.core.pending_hits import STYLE_MAGIC, STYLE_RANGED

TELL_TICKS = 3


@njit(cache=True)
def distance_style(rng):
    """Ranged or magic, 50/50 (rule 1) [InfernoTrainer JalTokJad.attackStyleForNewAttack]."""
    return STYLE_RANGED if R.chance(rng, 1, 2) else STYLE_MAGIC


@njit(cache=True)
def show_attack(m, style, speed):
    """The Jad ``m`` shows an attack of ``style``: it leaves TELL_TICKS ticks from now (``released_style``);
    its attack timer starts now."""
    m.scan = style
    m.windup = TELL_TICKS
    m.attack_timer = speed


@njit(cache=True)
def released_style(m):
    """Count the Jad's shown attack down; the style it releases this tick, else -1 (the shown style is then
    cleared)."""
    if m.windup <= 0:
        return np.int64(-1)
    m.windup -= 1
    if m.windup > 0:
        return np.int64(-1)
    style = np.int64(m.scan)
    m.scan = -1
    return style


@njit(cache=True)
def healers_due(m, max_hp):
    """A Jad below half its ``max_hp`` calls its healers now, once (rule 2): True the first time."""
    if m.procced or 2 * m.hp >= max_hp:
        return False
    m.procced = 1
    return True


@njit(cache=True)
def heal(o, amount, max_hp):
    """Heal monster ``o`` by ``amount``, never past ``max_hp`` (rule 3); returns the hitpoints it gained."""
    gained = min(np.int64(amount), np.int64(max_hp) - np.int64(o.hp))
    gained = max(gained, np.int64(0))
    o.hp += gained
    return gained
