"""Monsters that share a floor with a player: each one steps out from under its target or chases it one tile,
and other monsters block it. The rule of InfernoTrainer and osrs-sdk, which the Inferno and the Fight Caves
both use (the game's NPCs take the same "dumb" step: a diagonal toward the target, else along x, else along y,
never a searched path; OSRS wiki "Pathfinding", section NPCs).

The kernels duck-type the encounter's state, as core.hit_events does: ``s.monsters`` is a record array whose
records hold at least ``x``, ``y`` (the south-west tile), ``frozen`` (ticks it cannot move) and ``had_los``, and
``s.rng`` the env's stream. What differs between encounters are three hooks (core.hooks) each encounter
implements for its state record: ``size`` (a monster's footprint side), ``solid`` (a slot that takes space on
the floor) and ``sees`` (a monster reaches its target from where it stands).

Rules, in order, with sources:

1. Others block: a step is allowed when the walls allow it (core.collision.can_step) and the new footprint
   overlaps no other solid monster's (InfernoTrainer Pathing.canTileBePathedTo with the mover excluded). The
   player never blocks a monster.
2. Chase (``chase``): one step toward the target's south-west tile by the signs of the differences: the
   diagonal if allowed, else the x step, else the y step (InfernoTrainer Mob.movementStep /
   getNextMovementStep); a diagonal that would end on the target drops its y part (the corner safespot,
   core.movement rule 6), and a straight step onto the target is not taken.
3. Under the target (``move_turn``): a monster whose footprint overlaps its target's steps out in a random
   cardinal direction (core.movement rule 7, the direction drawn from ``s.rng``) if the tile is free of other
   monsters, and then may attack in the same tick without a chase step [osrs-sdk Mob.movementStep steps out,
   then attackStep -> attackIfPossible recomputes sight the same tick]; frozen monsters stay.
4. Otherwise without sight it chases (rule 2) unless frozen, and sight is read again after the step.
"""

import numpy as np
from numba import njit

from osrs_rl.core import rng as R
from osrs_rl.core.collision import can_step
from osrs_rl.core.hooks import hook
from osrs_rl.core.movement import npc_unstack_step, overlaps


@hook
def size(s, cfg, m):
    """The side of monster record ``m``'s square footprint, in tiles."""


@hook
def solid(s, cfg, j):
    """Monster slot ``j`` stands on the floor and takes space (alive, above ground, of a kind that takes space)."""


@hook
def sees(s, cfg, m, tx, ty, tsize):
    """Monster record ``m`` reaches the target (tx, ty, tsize) from where it stands: melee contact, or a clear
    line within its range."""


@njit(cache=True)
def free_of_others(s, cfg, k, x, y, side):
    """No solid monster but ``k`` overlaps the footprint (x, y, side) (rule 1)."""
    for j in range(s.monsters.shape[0]):
        if j == k or not solid(s, cfg, j):
            continue
        o = s.monsters[j]
        if overlaps(x, y, side, o.x, o.y, size(s, cfg, o)):
            return False
    return True


@njit(cache=True)
def can_move(s, cfg, flags, k, dx, dy):
    """Monster ``k`` may take the step (dx, dy): the walls on ``flags`` and the other monsters allow it."""
    m = s.monsters[k]
    side = size(s, cfg, m)
    return can_step(flags, m.x, m.y, side, dx, dy) and free_of_others(s, cfg, k, m.x + dx, m.y + dy, side)


@njit(cache=True)
def chase(s, cfg, k, flags, tx, ty, tsize):
    """Monster ``k`` takes one chase step toward the target (tx, ty, tsize) (rule 2), or none when blocked."""
    m = s.monsters[k]
    side = size(s, cfg, m)
    sx = np.int64(np.sign(tx - m.x))
    sy = np.int64(np.sign(ty - m.y))
    if sx != 0 and sy != 0 and overlaps(m.x + sx, m.y + sy, side, tx, ty, tsize):
        sy = np.int64(0)
    if sx != 0 and sy != 0 and can_move(s, cfg, flags, k, sx, sy):
        m.x += sx
        m.y += sy
    elif sx != 0 and can_move(s, cfg, flags, k, sx, 0) and not overlaps(m.x + sx, m.y, side, tx, ty, tsize):
        m.x += sx
    elif sy != 0 and can_move(s, cfg, flags, k, 0, sy) and not overlaps(m.x, m.y + sy, side, tx, ty, tsize):
        m.y += sy


@njit(cache=True)
def move_turn(s, cfg, k, flags, tx, ty, tsize):
    """Monster ``k``'s move on the map ``flags``: step out from under its target (rule 3) or chase it without
    sight (rule 4). Returns 1 when it sees the target after moving, 0 when not, -1 when it is still under it
    (no attack this tick; ``had_los`` is then cleared)."""
    m = s.monsters[k]
    side = size(s, cfg, m)
    if overlaps(m.x, m.y, side, tx, ty, tsize):
        if m.frozen <= 0:
            nx, ny = npc_unstack_step(flags, m.x, m.y, side, R.below(s.rng, 4))
            if free_of_others(s, cfg, k, nx, ny, side):
                m.x = nx
                m.y = ny
        if overlaps(m.x, m.y, side, tx, ty, tsize):
            m.had_los = 0
            return -1
        return 1 if sees(s, cfg, m, tx, ty, tsize) else 0
    seen = sees(s, cfg, m, tx, ty, tsize)
    if not seen and m.frozen <= 0:
        chase(s, cfg, k, flags, tx, ty, tsize)
        seen = sees(s, cfg, m, tx, ty, tsize)
    return 1 if seen else 0
