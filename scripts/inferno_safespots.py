"""Adversarial safespot scan of the Inferno simulator (osrs_rl/encounters/inferno).

For each monster kind, each set of standing pillars (bit k: pillar k of arena.PILLARS stands; 8 sets) and
each floor tile P the player may stand on, it finds the tiles F where that monster, chasing the player
with the simulator's own kernels, comes to rest for good without reaching the player, while the player can
still shoot it from P. That is a safespot: the monster never attacks, the player keeps hitting it.

How (all with the simulator's kernels, on an env built by ``osrs_rl.make("inferno")``):

* The monster's turn without the attack is deterministic away from the player's tile: it sees the player
  (``monsters.monster_sees``: the ray from the player's tile to the monster's closest tile within its range,
  melee kinds edge contact) and stays, or it takes one ``monsters._chase`` step. So the chase from every start
  tile M is a path in a functional graph ``next(M)``; it ends where the monster sees the player (it attacks:
  no safespot) or on a fixed point F (``next(F) == F`` without sight: the chase is stuck for good, since the
  player stands still and every step is monotone, there are no longer cycles; the scan checks that).
* For every fixed point F the scan asks whether the player reaches the monster from P (``pillars.sees``
  from the player's tile, the ray ``player.can_attack`` casts) with the loadout's longest weapon, and
  records the Chebyshev distance (the blowpipe reaches 5, the bow and spells 10, loadout 1's crossbow 8).
* ``basin``: how many start tiles chase into F (F included); ``spawns``: which of the nine wave spawn tiles
  (arena.SPAWNS; Jad: its wave-67/68 tiles) do.
* Starts under the player (random step-out, ``npc_unstack_step``) are left out of the graph.
* ``--validate N`` replays N findings per (kind, pillar set) in the real env (``env.step`` with no action, the
  player still, 60 ticks; the monster placed on the finding's start tile) and counts the monster's attacks,
  the meleer's digs and the ticks the attack mask would let the player shoot it.
* The same scan under two reference chase rules re-derived here (RuneLite ``WorldArea.calculateNextTravellingPoint``,
  which the RuneLite inferno plugin's safespot overlay uses; osrs-sdk ``Mob.movementStep``, InfernoTrainer's engine),
  compared pair by pair with the simulator's.
* ``--reverse-npc-ray``: a what-if for the README's open question on the direction of a monster's ray (the rsmod
  ray cast from the monster's closest tile to the player instead of the simulator's player-to-monster ray).
* Also reported: the pairs where the two directions of the ray disagree (per footprint size and pillar set,
  within the player's 10 tiles; README "Open questions", audit F1), and sanity checks: spawn tiles a kind's
  footprint does not fit, meleer dig tiles (``kinds._dig_tile``) in a pillar or off the floor, footprints
  under the player that no sequence of step-outs frees.

Kinds (``--kinds``, comma separated): bat, blob, bloblet_magic, bloblet_ranged, bloblet_melee, meleer, ranger,
mager, jad, hurkot (Yt-HurKot, aggroed on the player). Nibblers are left out (they chew pillars). Jad and its
healers fight only with every pillar down in the simulator (pillars fall when wave 67 begins); their other
pillar sets are scanned as a what-if and marked so.

Usage:
    NUMBA_NUM_THREADS=1 python scripts/inferno_safespots.py --out /tmp/safespots.md [--kinds meleer,bat]
        [--masks 0,7] [--loadout 0] [--validate 2]
Runs single-threaded; everything takes well under a minute after numba's first compile (about 30 s).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402
from numba import njit  # noqa: E402

import osrs_rl  # noqa: E402
from osrs_rl.core.collision import BLOCKED, can_occupy, can_step  # noqa: E402
from osrs_rl.core.events import EV_ATTACK, EV_DEATH, live_events  # noqa: E402
from osrs_rl.core.line_of_sight import table_line_of_sight  # noqa: E402
from osrs_rl.core.movement import axis_gap, chebyshev_distance, overlaps  # noqa: E402
from osrs_rl.core.skills import HITPOINTS  # noqa: E402
from osrs_rl.encounters.inferno import arena as A  # noqa: E402
from osrs_rl.encounters.inferno import kinds as KIN  # noqa: E402
from osrs_rl.encounters.inferno import monsters as MON  # noqa: E402
from osrs_rl.encounters.inferno import state as ST  # noqa: E402
from osrs_rl.runtime.action_layout import option_position

KINDS = {
    "bat": ST.K_BAT, "blob": ST.K_BLOB, "bloblet_magic": ST.K_BLOBLET_MAGIC,
    "bloblet_ranged": ST.K_BLOBLET_RANGED, "bloblet_melee": ST.K_BLOBLET_MELEE, "meleer": ST.K_MELEER,
    "ranger": ST.K_RANGER, "mager": ST.K_MAGER, "jad": ST.K_JAD, "hurkot": ST.K_JAD_HEALER,
}
FINALE_ONLY = {ST.K_JAD, ST.K_JAD_HEALER}     # fought with no pillar standing (they fall on wave 67)
MASK_NAMES = {m: "+".join(A.PILLAR_NAMES[k] for k in range(3) if m >> k & 1) or "none" for m in range(8)}
ROW = 9          # px, py, fx, fy, basin, spawns bitmask, distance, a start tile x, y (not F when basin > 1)


def spawn_tiles(kind):
    """South-west tiles the kind enters the arena on (its chase starts there)."""
    if kind in (ST.K_BAT, ST.K_BLOB, ST.K_MELEER, ST.K_RANGER, ST.K_MAGER):
        return np.array(A.SPAWNS, dtype=np.int64)
    if kind == ST.K_JAD:
        return np.array((A.JAD_67,) + A.JADS_68, dtype=np.int64)
    return np.zeros((0, 2), dtype=np.int64)


@njit(cache=False)
def _setup(states, cfgs, kind, mask):
    """The env's state 0 made into the scan's arena: the pillars of ``mask`` standing (255 hp, else 0), wave 1,
    every slot free but slot 0, which holds ``kind`` aimed at the player, unfrozen, above ground."""
    s = states[0]
    s.wave = 1
    for k in range(A.NUM_PILLARS):
        s.pillar_hp[k] = A.PILLAR_HP if (mask >> k) & 1 else 0
    for j in range(ST.MONSTER_SLOTS):
        s.monsters[j].state = ST.SLOT_FREE
    m = s.monsters[0]
    m.state = ST.SLOT_ALIVE
    m.kind = kind
    m.target = ST.TARGET_PLAYER
    m.frozen = 0
    m.dig_left = 0
    m.stun = 0


@njit(cache=False)
def _free(flags, x, y):
    return not (flags[x, y] & BLOCKED) if 0 <= x < flags.shape[0] and 0 <= y < flags.shape[1] else False


@njit(cache=False)
def _sdk_diagonal_ok(flags, x, y, size, sx, sy):
    """osrs-sdk Mob.movementStep's diagonal test, re-derived: the column entered (x + size or x - 1) over the
    rows of the footprint before AND after the step, and the row entered over the columns before AND after, all
    free (getXMovementTiles / getYMovementTiles with the extra tile): no corner cutting at any size."""
    cx = x + size if sx > 0 else x - 1
    cy = y + size if sy > 0 else y - 1
    ylo = min(y, y + sy)
    xlo = min(x, x + sx)
    for j in range(size + 1):
        if not _free(flags, cx, ylo + j) or not _free(flags, xlo + j, cy):
            return False
    return True


@njit(cache=False)
def other_rule_step(flags, x, y, size, px, py, rule):
    """One chase step of a ``size`` footprint at (x, y) toward the player's tile (px, py), written from the two
    references' descriptions, not from the simulator: rule 1 RuneLite ``WorldArea.calculateNextTravellingPoint``
    (stop at melee distance; diagonally adjacent: the x step only; else diagonal, else x, else y when the target's
    south-west tile is more than 1 away; big footprints may cut corners: rsmod's step check, ``can_step``);
    rule 2 osrs-sdk ``Mob.getNextMovementStep`` + ``movementStep`` (a diagonal onto the target drops its y part;
    else diagonal with ``_sdk_diagonal_ok``, else x, else y)."""
    dx = px - x
    dy = py - y
    sx = (dx > 0) - (dx < 0)
    sy = (dy > 0) - (dy < 0)
    if rule == 1:
        gx = axis_gap(x, size, px, 1)
        gy = axis_gap(y, size, py, 1)
        if gx + gy == 1:
            return x, y
        if gx == 1 and gy == 1:
            if sx != 0 and can_step(flags, x, y, size, sx, 0):
                return x + sx, y
            return x, y
        if can_step(flags, x, y, size, sx, sy):
            return x + sx, y + sy
        if sx != 0 and can_step(flags, x, y, size, sx, 0):
            return x + sx, y
        if sy != 0 and max(abs(dx), abs(dy)) > 1 and can_step(flags, x, y, size, 0, sy):
            return x, y + sy
        return x, y
    if sx != 0 and sy != 0 and overlaps(x + sx, y + sy, size, px, py, 1):
        sy = 0
    if sx != 0 and sy != 0:
        if _sdk_diagonal_ok(flags, x, y, size, sx, sy):
            return x + sx, y + sy
    elif sx != 0 or sy != 0:
        if can_step(flags, x, y, size, sx, sy):
            return x + sx, y + sy
        return x, y
    if sx != 0 and can_step(flags, x, y, size, sx, 0):
        return x + sx, y
    if sy != 0 and can_step(flags, x, y, size, 0, sy):
        return x, y + sy
    return x, y


@njit(cache=False)
def scan_pillar_set(states, cfgs, kind, mask, hit_range, spawns, out, reverse, rule=0):  # noqa: C901 - a research script's scan, one case per pillar set
    """Every (player tile, stuck tile) pair of ``kind`` on pillar set ``mask`` into ``out`` (rows of ROW);
    returns (rows written, player tiles scanned, longest chase, fixed points the player cannot shoot, anomalies).
    ``reverse``: a what-if for the README's open question: the monster's sight is the rsmod ray cast from its
    own closest tile to the player (the player's shot keeps the simulator's ray). ``rule``: 0 the simulator's
    ``monsters._chase``; 1, 2 ``other_rule_step`` (RuneLite's, osrs-sdk's chase) for the comparison."""
    _setup(states, cfgs, kind, mask)
    s = states[0]
    cfg = cfgs[0]
    m = s.monsters[0]
    flags = cfg.maps[mask]
    size = np.int64(cfg.kind_size[kind])
    reach = np.int64(cfg.kind_range[kind])
    W, H = flags.shape
    idx = -np.ones((W, H), dtype=np.int64)
    xs = np.empty(W * H, dtype=np.int64)
    ys = np.empty(W * H, dtype=np.int64)
    n = 0
    for x in range(W):
        for y in range(H):
            if can_occupy(flags, x, y, size):
                idx[x, y] = n
                xs[n] = x
                ys[n] = y
                n += 1
    nxt = np.empty(n, dtype=np.int64)
    res = np.empty(n, dtype=np.int64)
    stack = np.empty(n + 1, dtype=np.int64)
    rows = 0
    players = 0
    longest = 0
    unreached = 0
    anomalies = 0                                     # a chase off the floor, or a cycle: never expected
    for px in range(W):
        for py in range(H):
            if flags[px, py] & BLOCKED:
                continue
            players += 1
            s.p.x = px
            s.p.y = py
            # one step of the graph: -1 attacks (sees the player), -2 under the player, else the next tile
            for i in range(n):
                if overlaps(xs[i], ys[i], size, px, py, 1):
                    nxt[i] = -2
                    continue
                m.x = xs[i]
                m.y = ys[i]
                if reverse and reach > 1:
                    seen = table_line_of_sight(cfg.sight[mask], W, H, xs[i], ys[i], size, px, py, 1, reach)
                else:
                    seen = MON.monster_sees(s, cfg, m, np.int64(px), np.int64(py), np.int64(1))
                if seen:
                    nxt[i] = -1
                    continue
                if rule == 0:
                    MON._chase(s, cfg, 0, np.int64(px), np.int64(py), np.int64(1))
                    j = idx[m.x, m.y]
                else:
                    nx, ny = other_rule_step(flags, xs[i], ys[i], size, px, py, rule)
                    j = idx[nx, ny] if 0 <= nx < W and 0 <= ny < H else -1
                nxt[i] = j if j >= 0 else -3          # -3: the chase left the floor (a bug if ever seen)
                if j < 0:
                    anomalies += 1
            for i in range(n):
                res[i] = -9                           # unresolved
            for i in range(n):
                if res[i] != -9:
                    continue
                depth = 0
                c = i
                while True:
                    if res[c] != -9:
                        r = res[c]
                        break
                    v = nxt[c]
                    if v < 0:
                        r = v
                        res[c] = v
                        break
                    if v == c:
                        r = c
                        res[c] = c
                        break
                    stack[depth] = c
                    depth += 1
                    if depth > n:
                        r = -4                        # a cycle longer than one tile (never expected)
                        anomalies += 1
                        break
                    c = v
                for t in range(depth):
                    res[stack[t]] = r
                longest = max(longest, depth)
            for f in range(n):
                if nxt[f] != f:
                    continue
                fx, fy = xs[f], ys[f]
                if not table_line_of_sight(cfg.sight[mask], W, H, px, py, 1, fx, fy, size, hit_range):
                    unreached += 1
                    continue
                basin = 0
                sx, sy = fx, fy
                for i in range(n):
                    if res[i] == f:
                        basin += 1
                        if i != f:
                            sx, sy = xs[i], ys[i]
                bits = 0
                for k in range(spawns.shape[0]):
                    j = idx[spawns[k, 0], spawns[k, 1]] if can_occupy(flags, spawns[k, 0], spawns[k, 1], size) else -1
                    if j >= 0 and res[j] == f:
                        bits |= 1 << k
                if rows < out.shape[0]:
                    o = out[rows]
                    o[0], o[1], o[2], o[3] = px, py, fx, fy
                    o[4], o[5] = basin, bits
                    o[6] = chebyshev_distance(px, py, 1, fx, fy, size)
                    o[7], o[8] = sx, sy
                rows += 1
    return rows, players, longest, unreached, anomalies


@njit(cache=False)
def ray_asymmetry(cfgs, mask, size, reach):
    """Pairs (player tile, monster footprint) within ``reach`` where the player's ray to the monster's closest
    tile (what the simulator casts for both sides) and the rsmod ray cast the other way (from the monster's
    closest tile to the player) disagree: (player's clear, reverse blocked), (player's blocked, reverse clear)."""
    cfg = cfgs[0]
    flags = cfg.maps[mask]
    table = cfg.sight[mask]
    W, H = flags.shape
    a = 0
    b = 0
    for px in range(W):
        for py in range(H):
            if flags[px, py] & BLOCKED:
                continue
            for x in range(W):
                for y in range(H):
                    if not can_occupy(flags, x, y, size) or overlaps(x, y, size, px, py, 1):
                        continue
                    fwd = table_line_of_sight(table, W, H, px, py, 1, x, y, size, reach)
                    rev = table_line_of_sight(table, W, H, x, y, size, px, py, 1, reach)
                    if fwd and not rev:
                        a += 1
                    elif rev and not fwd:
                        b += 1
    return a, b


@njit(cache=False)
def open_edges(cfgs, mask, size):
    """Tiles a ``size`` footprint fits on where it cannot step in any cardinal direction (wedged)."""
    flags = cfgs[0].maps[mask]
    W, H = flags.shape
    wedged = 0
    for x in range(W):
        for y in range(H):
            if not can_occupy(flags, x, y, size):
                continue
            if not (can_step(flags, x, y, size, 1, 0) or can_step(flags, x, y, size, -1, 0)
                    or can_step(flags, x, y, size, 0, 1) or can_step(flags, x, y, size, 0, -1)):
                wedged += 1
    return wedged


@njit(cache=False)
def dig_tile_problems(states, cfgs, mask, out):
    """Player tiles where the meleer's dig tile (``kinds._dig_tile``) is not a footprint the floor holds
    (in a pillar or off the floor): written to ``out`` as (px, py, x, y); returns how many."""
    _setup(states, cfgs, ST.K_MELEER, mask)
    s = states[0]
    cfg = cfgs[0]
    flags = cfg.maps[mask]
    size = np.int64(cfg.kind_size[ST.K_MELEER])
    W, H = flags.shape
    n = 0
    for px in range(W):
        for py in range(H):
            if flags[px, py] & BLOCKED:
                continue
            s.p.x = px
            s.p.y = py
            x, y = KIN._dig_tile(s, cfg, size)
            if not can_occupy(flags, x, y, size):
                if n < out.shape[0]:
                    out[n, 0], out[n, 1], out[n, 2], out[n, 3] = px, py, x, y
                n += 1
    return n


@njit(cache=False)
def trapped_under(cfgs, mask, size):
    """(player tile, footprint overlapping it) pairs from which no sequence of cardinal steps (the step-out rule,
    ``npc_unstack_step``) brings the footprint off the player: a monster there stays under the player for good."""
    flags = cfgs[0].maps[mask]
    W, H = flags.shape
    seen = np.zeros((W, H), dtype=np.int64)
    qx = np.empty(W * H, dtype=np.int64)
    qy = np.empty(W * H, dtype=np.int64)
    stamp = 0
    trapped = 0
    for px in range(W):
        for py in range(H):
            if flags[px, py] & BLOCKED:
                continue
            for x0 in range(px - size + 1, px + 1):
                for y0 in range(py - size + 1, py + 1):
                    if not can_occupy(flags, x0, y0, size):
                        continue
                    stamp += 1
                    head = 0
                    tail = 1
                    qx[0], qy[0] = x0, y0
                    seen[x0, y0] = stamp
                    free = False
                    while head < tail and not free:
                        x, y = qx[head], qy[head]
                        head += 1
                        for d in range(4):
                            dx = (-1, 1, 0, 0)[d]
                            dy = (0, 0, 1, -1)[d]
                            if not can_step(flags, x, y, size, dx, dy):
                                continue
                            nx, ny = x + dx, y + dy
                            if not overlaps(nx, ny, size, px, py, 1):
                                free = True
                                break
                            if seen[nx, ny] != stamp:
                                seen[nx, ny] = stamp
                                qx[tail], qy[tail] = nx, ny
                                tail += 1
                    if not free:
                        trapped += 1
    return trapped


# ---- replays in the real env ------------------------------------------------------------------------------
def _commit(env):
    env.set_states([0], env.get_states([0]))


def replay(env, kind, mask, player, start, ticks=60):
    """The env's own tick loop: the player on ``player`` (5,000 hp, no action), ``kind`` placed on ``start``
    with its attack ready, the pillars of ``mask``. Returns (monster attacks, digs, ticks the player's attack mask
    allowed it, the monster's last tile, the tick of its first attack or -1)."""
    env.reset()
    s = env.states[0]
    s["monsters"]["state"] = ST.SLOT_FREE
    s["hits"]["state"] = 0
    s["pillar_hp"][:] = [A.PILLAR_HP if mask >> k & 1 else 0 for k in range(3)]
    s["p"]["x"], s["p"]["y"] = player
    s["p"]["levels"][HITPOINTS] = 5000
    s["dest_x"], s["dest_y"], s["dest_run"] = -1, -1, 0
    m = s["monsters"][0]
    m["state"], m["kind"] = ST.SLOT_ALIVE, kind
    m["x"], m["y"] = start
    m["hp"] = int(env.config["kind_row"][0][kind]["hitpoints"])
    m["attack_timer"], m["stun"], m["target"], m["scan"], m["had_los"] = 0, 0, ST.TARGET_PLAYER, -1, 0
    m["revived"], m["dig_timer"], m["dig_due"], m["dig_left"] = 0, 0, 50, 0
    m["frozen"], m["activity"], m["hurt_tick"] = 0, ST.ACT_NONE, ST.NO_HURT
    m["windup"], m["parent"], m["procced"], m["low_hp"] = 0, -1, 0, m["hp"]
    _commit(env)
    a = np.zeros((1, len(ST.HEAD_SIZES)), dtype=np.int64)
    attack_bit = option_position(env.spec, "attack", "slot_0")     # in the flat mask
    attacks = digs = shootable = 0
    first = -1
    for t in range(ticks):
        env.step(a)
        for e in live_events(env.states[0]):
            if int(e["source"]) == ST.ENT_MONSTER and int(e["kind"]) == EV_ATTACK:
                attacks += 1
                first = t if first < 0 else first
            if int(e["source"]) == ST.ENT_MONSTER and int(e["kind"]) == EV_DEATH and int(e["flags"]) & ST.EVF_DIG:
                digs += 1
        if env.action_mask()[0, attack_bit]:
            shootable += 1
    mm = env.states[0]["monsters"][0]
    return attacks, digs, shootable, (int(mm["x"]), int(mm["y"])), first


# ---- report -----------------------------------------------------------------------------------------------
def _tiles(rows, cols):
    return ", ".join(f"({r[cols[0]]},{r[cols[1]]})" for r in rows)


def main(argv=None):  # noqa: C901 - a research script's main
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="markdown report to write")
    ap.add_argument("--kinds", default=",".join(KINDS), help="comma separated: " + ", ".join(KINDS))
    ap.add_argument("--masks", default="0,1,2,3,4,5,6,7", help="pillar sets (bit 0 west, 1 north, 2 south)")
    ap.add_argument("--loadout", type=int, default=0, help="0: bow 10 / blowpipe 5 / spells 10; 1: crossbow 8")
    ap.add_argument("--validate", type=int, default=2, help="findings replayed in the env per kind and set")
    ap.add_argument("--no-rays", action="store_true", help="skip the ray-direction census")
    ap.add_argument("--reverse-npc-ray", action="store_true",
                    help="what-if: monsters see along the rsmod ray cast from themselves (README open question)")
    args = ap.parse_args(argv)
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    for k in kinds:
        if k not in KINDS:
            ap.error(f"unknown kind {k!r}; one of {', '.join(KINDS)}")
    masks = [int(x) for x in args.masks.split(",")]

    t0 = time.time()
    print("building the env (numba compiles on first use) ...", flush=True)
    env = osrs_rl.make("inferno", num_envs=1, seed=0, loadout=args.loadout)
    env.reset()
    cfgs = env.config
    set_ranges = [int(r) for r in cfgs[0]["set_range"]]
    hit_range = max(set_ranges)
    states = env.states.copy()        # the scan's scratch state: the env's own is left alone
    out = np.zeros((1 << 20, ROW), dtype=np.int64)
    lines = []
    summary = []
    findings = {}
    for kname in kinds:
        kind = KINDS[kname]
        size = int(cfgs[0]["kind_size"][kind])
        reach = int(cfgs[0]["kind_range"][kind])
        spawns = spawn_tiles(kind)
        for mask in masks:
            t = time.time()
            rows, players, longest, unreached, anomalies = scan_pillar_set(
                states, cfgs, kind, mask, hit_range, spawns, out, args.reverse_npc_ray)
            if rows > out.shape[0]:
                raise SystemExit(f"{kname} mask {mask}: {rows} rows, buffer {out.shape[0]}")
            got = out[:rows].copy()
            findings[(kname, mask)] = got
            ptiles = len({(int(r[0]), int(r[1])) for r in got})
            from_spawn = int((got[:, 5] != 0).sum()) if rows else 0
            moved = int((got[:, 4] > 1).sum()) if rows else 0
            what_if = " (what-if: pillars never stand in its waves)" if kind in FINALE_ONLY and mask else ""
            summary.append((kname, size, reach, mask, rows, ptiles, moved, from_spawn, unreached, longest, what_if,
                            anomalies))
            print(f"  {kname:15s} size {size} range {reach:2d} pillars {MASK_NAMES[mask]:17s}: "
                  f"{rows:6d} stuck-and-shootable pairs on {ptiles:4d} player tiles ({moved} reached by a chase, "
                  f"{from_spawn} from a spawn tile); longest chase {longest}; anomalies {anomalies}; "
                  f"{time.time() - t:.1f}s",
                  flush=True)

    lines.append("# Inferno safespot scan\n")
    lines.append(f"Command: `python scripts/inferno_safespots.py --out {args.out} --kinds {','.join(kinds)} "
                 f"--masks {','.join(map(str, masks))} --loadout {args.loadout} --validate {args.validate}"
                 + (" --reverse-npc-ray" if args.reverse_npc_ray else "") + "`  ")
    if args.reverse_npc_ray:
        lines.append("**What-if run**: monsters see along the ray cast from their own closest tile to the player, "
                     "not the simulator's. The replays below still run the simulator's rule.\n")
    lines.append(f"Player's weapon ranges (sets bow, blowpipe, magic): {set_ranges}; a finding needs line of sight "
                 f"within {hit_range}. Pillar set names: the pillars standing.\n")
    lines.append("## Summary\n")
    lines.append("| kind | size | range | pillars | pairs (P, F) | player tiles | F reached by a chase | "
                 "F reached from a spawn | stuck but not shootable | longest chase | anomalies |")
    lines.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for kname, size, reach, mask, rows, ptiles, moved, from_spawn, unreached, longest, what_if, anom in summary:
        lines.append(f"| {kname} | {size} | {reach} | {MASK_NAMES[mask]}{what_if} | {rows} | {ptiles} | {moved} | "
                     f"{from_spawn} | {unreached} | {longest} | {anom} |")
    lines.append("\n`stuck but not shootable`: (P, F) pairs where the chase stops without reach and the player has no "
                 "shot either (behind the pillar both ways). `anomalies`: a chase step off the floor or a cycle "
                 "(none expected).")

    if args.validate > 0:
        print("replaying findings in the env ...", flush=True)
        lines.append("\n## Replays in the env (60 ticks, player still, no action)\n")
        lines.append("| kind | pillars | player P | start | settle F | basin | dist | monster attacks | digs | "
                     "ticks the player could shoot | monster's last tile |")
        lines.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for (kname, mask), got in findings.items():
            if not len(got):
                continue
            # the findings with the largest basins first (the likeliest in play), then one from a spawn tile
            order = np.lexsort((-got[:, 6], -got[:, 4]))
            pick = list(order[:args.validate])
            spawned = [i for i in order if got[i, 5]]
            if spawned and spawned[0] not in pick:
                pick.append(spawned[0])
            touching = [i for i in order if got[i, 6] == 1]        # diagonal to the player (melee kinds)
            if touching and touching[0] not in pick:
                pick.append(touching[0])
            for i in pick:
                r = got[i]
                res = replay(env, KINDS[kname], mask, (int(r[0]), int(r[1])), (int(r[7]), int(r[8])))
                lines.append(f"| {kname} | {MASK_NAMES[mask]} | ({r[0]},{r[1]}) | ({r[7]},{r[8]}) | ({r[2]},{r[3]}) | "
                             f"{r[4]} | {r[6]} | {res[0]} | {res[1]} | {res[2]} | {res[3]} |")
                print(f"  {kname} {MASK_NAMES[mask]} P({r[0]},{r[1]}) start({r[7]},{r[8]}) F({r[2]},{r[3]}): "
                      f"attacks {res[0]} (first at {res[4]}), digs {res[1]}, shootable {res[2]}/60, ends {res[3]}",
                      flush=True)

    if not args.no_rays:
        print("ray-direction census ...", flush=True)
        lines.append("\n## Ray direction (README open question, audit F1)\n")
        lines.append("Pairs (player tile, monster footprint) within 10 tiles where the simulator's ray (player -> "
                     "monster's closest tile, used for both sides) and the rsmod ray cast the other way disagree.\n")
        lines.append("| size | pillars | player's clear, reverse blocked | player's blocked, reverse clear | "
                     "footprints wedged (no cardinal step) |")
        lines.append("| --- | --- | --- | --- | --- |")
        sizes = sorted({int(cfgs[0]["kind_size"][KINDS[k]]) for k in kinds})
        for size in sizes:
            for mask in masks:
                a, b = ray_asymmetry(cfgs, mask, size, hit_range)
                w = open_edges(cfgs, mask, size)
                lines.append(f"| {size} | {MASK_NAMES[mask]} | {a} | {b} | {w} |")
                print(f"  size {size} pillars {MASK_NAMES[mask]}: {a} / {b}; wedged {w}", flush=True)

    print("chase-rule comparison ...", flush=True)
    lines.append("\n## The same scan under the references' chase rules\n")
    lines.append("Each kind and pillar set scanned again with the chase step re-derived from RuneLite's "
                 "`WorldArea.calculateNextTravellingPoint` (the inferno plugin's safespot overlay) and from osrs-sdk's "
                 "`Mob.movementStep` (InfernoTrainer's engine), sight and reach unchanged. `same` pairs (P, F) in both "
                 "sets, `sim only` / `ref only` in one.\n")
    lines.append("| kind | pillars | simulator | RuneLite: same / sim only / ref only | "
                 "osrs-sdk: same / sim only / ref only |")
    lines.append("| --- | --- | --- | --- | --- |")
    for kname in kinds:
        kind = KINDS[kname]
        spawns = spawn_tiles(kind)
        for mask in masks:
            ours = {tuple(int(v) for v in r[:4]) for r in findings[(kname, mask)]}
            cells = []
            for rule in (1, 2):
                rows = scan_pillar_set(states, cfgs, kind, mask, hit_range, spawns, out, args.reverse_npc_ray, rule)[0]
                theirs = {tuple(int(v) for v in r[:4]) for r in out[:rows]}
                cells.append(f"{len(ours & theirs)} / {len(ours - theirs)} / {len(theirs - ours)}")
                if theirs != ours:
                    diff = sorted(theirs ^ ours)[:6]
                    print(f"  {kname} {MASK_NAMES[mask]} rule {rule}: differs, e.g. {diff}", flush=True)
            if ours or cells[0] != "0 / 0 / 0" or cells[1] != "0 / 0 / 0":
                lines.append(f"| {kname} | {MASK_NAMES[mask]} | {len(ours)} | {cells[0]} | {cells[1]} |")

    print("sanity checks ...", flush=True)
    lines.append("\n## Sanity checks\n")
    buf = np.zeros((64, 4), dtype=np.int64)
    for kname in kinds:
        kind = KINDS[kname]
        size = int(cfgs[0]["kind_size"][kind])
        for mask in masks:
            bad = [tuple(int(v) for v in t) for t in spawn_tiles(kind)
                   if not can_occupy(cfgs[0]["maps"][mask], int(t[0]), int(t[1]), size)]
            if bad:
                what_if = " (what-if: no pillar stands on its waves)" if kind in FINALE_ONLY else ""
                lines.append(f"- {kname}, pillars {MASK_NAMES[mask]}{what_if}: spawn tiles its footprint does not "
                             f"fit: {bad}")
    for mask in masks:
        n = dig_tile_problems(states, cfgs, mask, buf)
        ex = ", ".join(f"P({r[0]},{r[1]})->({r[2]},{r[3]})" for r in buf[:min(n, 8)])
        lines.append(f"- meleer dig tiles off the floor or in a pillar, pillars {MASK_NAMES[mask]}: {n}"
                     + (f" (e.g. {ex})" if n else ""))
    sizes = sorted({int(cfgs[0]["kind_size"][KINDS[k]]) for k in kinds})
    for size in sizes:
        counts = [trapped_under(cfgs, mask, size) for mask in masks]
        lines.append(f"- size {size}: footprints under the player that no step-out sequence frees, by pillar set "
                     f"{', '.join(MASK_NAMES[m] + ' ' + str(c) for m, c in zip(masks, counts, strict=True))}")
    print("\n".join(lines[-(len(masks) + len(sizes) + 1):]), flush=True)

    lines.append("\n## Every finding\n")
    lines.append("One line per (kind, pillar set, player tile P): the tiles F the monster settles on, stuck, while "
                 "the player shoots it from P; `F*n` when n start tiles chase into F (F itself included), "
                 "`[s...]` the spawn tiles (1-9, Jad: 67, 68a-c) among them, `dN` the distance.\n")
    spawn_names = {ST.K_JAD: ["67", "68a", "68b", "68c"]}
    for (kname, mask), got in findings.items():
        if not len(got):
            continue
        lines.append(f"\n### {kname}, pillars {MASK_NAMES[mask]} ({len(got)} pairs)\n")
        names = spawn_names.get(KINDS[kname], [str(i + 1) for i in range(9)])
        by_p = {}
        for r in got:
            by_p.setdefault((int(r[0]), int(r[1])), []).append(r)
        lines.append("```")
        for p in sorted(by_p):
            parts = []
            for r in by_p[p]:
                sp = [names[k] for k in range(len(names)) if r[5] >> k & 1]
                parts.append(f"({r[2]},{r[3]})*{r[4]}d{r[6]}" + (f"[{' '.join(sp)}]" if sp else ""))
            lines.append(f"P{p}: " + " ".join(parts))
        lines.append("```")
    with open(args.out, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    print(f"wrote {args.out} in {time.time() - t0:.0f}s", flush=True)


if __name__ == "__main__":
    sys.exit(main())
