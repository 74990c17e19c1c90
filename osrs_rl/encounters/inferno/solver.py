"""A scripted Inferno player (waves 1-69): one Numba kernel that plays every env of a batch as a careful
player with the RuneLite inferno plugin's helpers would.

    env = osrs_rl.make("inferno", num_envs=64, seed=0)
    env.reset()
    actions = np.zeros((64, env.spec.num_heads), dtype=np.int64)
    solver_actions(env.states, env.config, actions)      # then env.step(actions), and again

What it reads: what a player in the arena sees (the monsters, their tiles, hitpoints and attack timers,
the blob's scan, a meleer's dig, the pillars, its own stats and supplies). It never reads the RNG, and a
blob's style only once its scan has read the overhead (RuneLite ``InfernoNPC.gameTick`` shows it then).

Each tick, per env:
  1. overhead (RuneLite inferno plugin, ``calculateUpcomingAttacks`` / ``calculateClosestAttack``: the
     upcoming attacks by tick, the closest one prayed): the style of the attack due soonest among the
     monsters that reach the player now (this tick's included: monsters act after the player's clicks and
     the overhead active on the attack tick decides, README "prayer rule"); several on the same tick: the
     style with the larger total max hit. A blob about to scan sees a protection overhead (magic if nothing
     else is due), so its shot has a known style (the plugin's "blob detection tick");
  2. tile (RuneLite inferno plugin ``calculateSafespots``: each tile around the player classed by the styles
     that can attack it, 0 = safe .. 7 = all three): the tile of least cost within ``SEARCH`` tiles: a
     second and third style that reach it cost a lot (one overhead blocks one style), an unprayable melee
     from an adjacent ranger, mager or blob (1/2 of their attacks there) and melee reach of a meleer or a
     resurfacing one cost more, every attacker that sees it a little; shooting the priority target from it
     earns a bonus. This is the pillar stack of the OSRS wiki's "Inferno/Strategies": monsters without sight
     walk around the pillar and arrive one at a time;
  3. attack: a target the bow reaches from where it stands (attacking drops the move, player
     ``move_or_attack``), by kill order: nibblers on a pillar (a fallen pillar is a lost safespot), blobs
     and magers, the magic then the ranged bloblet, a meleer within ``MELEER_NEAR`` tiles or about to dig,
     bats, rangers, other meleers, the melee bloblet; the lowest hitpoints first within a rank. It holds its
     fire only to reach a much safer tile (two styles or melee here) one run away. The weapon: Ice Barrage
     (the magic set goes on in the attack's tick) on the target whose 3x3 catches ``BARRAGE_MIN`` or more
     nibblers and bloblets, when that clump ranks at most one place below the kill order's pick; at
     ``SIPHON_AT`` hitpoints with the energy, the blowpipe goes on while the timer runs and the next shot is
     its Toxic Siphon; otherwise the bow;
  4. the worn set's offensive prayer (Rigour, Augury) on the tick it shoots, off otherwise;
  5. supplies: a brew at or below ``BREW_AT`` hitpoints, a restore below ``RESTORE_PRAYER`` prayer points
     or when ranged is ``RESTORE_RANGED`` below its base (brews drain it), a bastion dose when a wave is on
     and ranged is not boosted, a stamina below ``STAMINA_AT`` run energy.

The finale: a Jad's attack is prayed by its tell (the style its animation shows, released 3 ticks later:
``next_style``, ``ticks_to_attack``); the kill order tags each healing healer once, then kills the Jads (waves
67-68: the tile search above, with a Jad counted as a monster of either style); on the Zuk wave
(``decide_zuk``) it keeps to the glyph's shelter a tick or two ahead (the column nearest the middle that no spark
is about to hit) and shoots only when standing still keeps it sheltered for Zuk's next attack: healing healers
first, then Zuk's Jad, the set's mager and ranger, then Zuk.

Moves go through one function (``move_to``: a tile -> a move-head index), the one place that knows the move
head. Heads it does not know (one a later part appends) are left at 0 (keep).

What it does not do: flick overheads tick by tick, lure meleers into pillars, tank and skip nibblers,
plan the wave's spawn order. It trusts the encounter's approximations (README "Approximations").
"""

from __future__ import annotations

import numpy as np
from numba import njit

from osrs_rl.core import click_move as CM
from osrs_rl.core import prayers as P
from osrs_rl.core.collision import can_step
from osrs_rl.core.hit_delay import edge_distance
from osrs_rl.core.movement import in_melee_reach
from osrs_rl.core.pending_hits import STYLE_MAGIC, STYLE_MELEE, STYLE_TYPELESS
from osrs_rl.core.player_input import can_special, has_prayer
from osrs_rl.core.skills import HITPOINTS, PRAYER, RANGED
from osrs_rl.core.specials import SP_COST

from . import arena as A
from . import finale as FIN
from . import monsters as MON
from . import pillars as PIL
from . import player as PLY
from . import spawns as SPN
from . import state as ST
from . import waves as W
from .view import MASK_START
from .view import mask as legal_actions

# ---- thresholds and weights (the solver's choices, not game facts) --------------------------------------
BREW_AT = 60                   # hitpoints: a mager's 70 and a ranger's 46 unprayed leave it standing rarely
RESTORE_PRAYER = 30            # prayer points
PRAYER_CRITICAL = 12           # prayer points: a restore before a brew, unless hitpoints are critical
HP_CRITICAL = 30
RESTORE_RANGED = 8             # ranged levels under the base (brews drain 10 % + 2 of it)
STAMINA_AT = 3000              # run energy units (30 %)
RUN_ENERGY_MIN = 1500          # run only with 15 % energy left
SEARCH = 4                     # tiles searched around the player for the next tile (the plugin's check square)
NO_ATTACK = 1 << 20
MELEER_NEAR = 4                # tiles: a meleer this close is killed before the bats and rangers
SIPHON_AT = 80                 # hitpoints: the blowpipe's Toxic Siphon heals half its damage (a brew at BREW_AT)
BARRAGE_MIN = 2                # small monsters (nibblers, bloblets) a barrage must catch in its 3x3

COST_STYLE = 200.0             # per style beyond the first that can attack the tile
COST_UNPRAYABLE_MELEE = 120.0  # next to a ranger, mager or blob (it melees half the time)
COST_MELEE = 60.0              # in reach of a meleer or a melee bloblet (prayable, but a second style)
COST_SEEN = 4.0                # per attacker that sees the tile
BONUS_SHOOT = 30.0             # the priority target can be shot from the tile
TRAVEL = 1.5                   # per walk step away from the player
COST_UNDER = 1000.0            # under a monster (it steps out and attacks from beside)
HOLD_FIRE = 150.0              # move instead of shooting when the current tile costs this much more
HOLD_FIRE_STEPS = 2            # ... and the better tile is this few walk steps away (one run)
UNREACHED = 10_000

_OVERHEAD_FOR = (ST.OVERHEAD.melee, ST.OVERHEAD.missiles, ST.OVERHEAD.magic)   # by pending-hit STYLE_*
_PRAYER_FOR = (P.PROTECT_FROM_MELEE, P.PROTECT_FROM_MISSILES, P.PROTECT_FROM_MAGIC)
_STEP_X = np.array([0, 1, 1, 1, 0, -1, -1, -1], dtype=np.int64)   # the 8 walk steps of the distance search
_STEP_Y = np.array([1, 1, 0, -1, -1, -1, 0, 1], dtype=np.int64)


# ---- the monsters, as the player sees them -------------------------------------------------------------
@njit(cache=True)
def is_attacker(m):
    """A living monster that aims at the player and is above ground (nibblers aim at the pillars)."""
    return m.state == ST.SLOT_ALIVE and m.target == ST.TARGET_PLAYER and m.dig_left <= 0 \
        and m.kind != ST.K_NIBBLER


@njit(cache=True)
def ticks_to_attack(m):
    """Ticks until the monster may attack (0: this tick). Its turn counts the timer down first, then waits
    out the stun (monsters ``monster_turn``); a Jad's shown attack is released when its windup runs out."""
    if m.windup > 0:
        return m.windup - 1
    return max(m.attack_timer - 1, m.stun, 0)


@njit(cache=True)
def next_style(s, cfg, m):
    """The style of the monster's next attack as the player can tell it; -1 when it cannot be told (a blob
    before its scan)."""
    if m.kind == ST.K_BLOB:
        return np.int64(m.scan) if 0 <= m.scan < ST.SCAN_UNKNOWN else np.int64(-1)
    if m.kind == ST.K_JAD and m.windup > 0:
        return np.int64(m.scan)          # the tell: its animation shows the style 3 ticks before release
    if m.kind == ST.K_JAD or cfg.kind_style[m.kind] == STYLE_TYPELESS:
        return np.int64(-1)              # a Jad before its animation; Zuk and sparks: no overhead helps
    if cfg.kind_melee[m.kind] and in_melee_reach(m.x, m.y, MON.size_of(cfg, m), s.p.x, s.p.y, 1):
        return np.int64(-1)          # half melee, half its distance style: no tell
    return np.int64(cfg.kind_style[m.kind])


@njit(cache=True)
def reaches(s, cfg, m, x, y):
    """The monster could attack a player on (x, y) now or after one chase step (melee kinds: edge or
    diagonal contact)."""
    size = MON.size_of(cfg, m)
    if cfg.kind_range[m.kind] <= 1:
        return edge_distance(m.x, m.y, size, x, y, 1) <= 1 and not in_footprint(m, size, x, y)
    return MON.monster_sees(s, cfg, m, x, y, 1)


@njit(cache=True)
def in_footprint(m, size, x, y):
    return m.x <= x < m.x + size and m.y <= y < m.y + size


@njit(cache=True)
def blob_scans_now(s, cfg, m):
    """A blob that will read the overhead this tick (kinds ``blob_turn``)."""
    if m.kind != ST.K_BLOB or m.stun > 0 or not MON.monster_sees(s, cfg, m, s.p.x, s.p.y, 1):
        return False
    return m.had_los == 0 or (m.scan < 0 and m.attack_timer <= 1)


# ---- 1. the overhead ----------------------------------------------------------------------------------------
@njit(cache=True)
def wanted_style(s, cfg):
    """The style to protect from now: the attack due soonest among the monsters that reach the player
    (the larger total max hit when several are due together); -1 when none is known."""
    best_t = NO_ATTACK
    weight = np.zeros(3)
    blob_scan = False
    for k in range(ST.MONSTER_SLOTS):
        m = s.monsters[k]
        if not is_attacker(m):
            continue
        if blob_scans_now(s, cfg, m):
            blob_scan = True
            continue
        share = 1.0
        if not reaches(s, cfg, m, s.p.x, s.p.y):
            # a melee kind two tiles off steps into contact and strikes in the same tick (monsters
            # ``_move_turn``): maybe, so half its weight
            if not (cfg.kind_range[m.kind] <= 1 and edge_distance(m.x, m.y, MON.size_of(cfg, m), s.p.x, s.p.y, 1) == 2):
                continue
            share = 0.5
        style = next_style(s, cfg, m)
        if style < 0:
            continue
        t = ticks_to_attack(m)
        if t < best_t:
            best_t = t
            weight[:] = 0.0
        if t == best_t:
            weight[style] += share * max(cfg.kind_max[m.kind, style], 1)
    if best_t == NO_ATTACK:
        # a scanning blob must see a protection overhead, so its shot has a style it can be told by
        return np.int64(STYLE_MAGIC) if blob_scan else np.int64(-1)
    pick = np.int64(0)
    for st in range(3):
        if weight[st] > weight[pick]:
            pick = np.int64(st)
    if blob_scan and pick == STYLE_MELEE and best_t > 0:
        return np.int64(STYLE_MAGIC)
    return pick


@njit(cache=True)
def choose_overhead(s, cfg, legal):
    style = wanted_style(s, cfg)
    if style < 0:
        return ST.OVERHEAD.keep          # keep what is on: nothing due that it can tell
    if has_prayer(s.p, _PRAYER_FOR[style]):
        return ST.OVERHEAD.keep
    want = _OVERHEAD_FOR[style]
    return want if legal[MASK_START.overhead + want] else ST.OVERHEAD.keep


# ---- 3. the target ------------------------------------------------------------------------------------------
@njit(cache=True)
def chewing(s, cfg, m):
    return m.kind == ST.K_NIBBLER and m.target >= 0 and in_melee_reach(
        m.x, m.y, 1, cfg.pillar_xy[m.target, 0], cfg.pillar_xy[m.target, 1], 3)


@njit(cache=True)
def priority(s, cfg, m):
    """Kill order, lower first (module docstring, step 3)."""
    kind = m.kind
    if kind == ST.K_NIBBLER and 0 <= m.target < ST.TARGET_SHIELD:
        return 0
    if kind == ST.K_JAD_HEALER or kind == ST.K_ZUK_HEALER:
        return 0 if m.target >= ST.TARGET_SLOT else 9     # tag a healing healer once; a drawn one waits
    if kind == ST.K_JAD:
        return 1
    if kind == ST.K_ZUK:
        return 8
    if kind == ST.K_BLOB or kind == ST.K_MAGER:
        return 1
    if kind == ST.K_BLOBLET_MAGIC:
        return 2
    if kind == ST.K_BLOBLET_RANGED:
        return 3
    if kind == ST.K_MELEER and (edge_distance(m.x, m.y, MON.size_of(cfg, m), s.p.x, s.p.y, 1) <= MELEER_NEAR
                                or m.dig_timer >= cfg.dig_min - 6):
        return 3
    if kind == ST.K_BAT:
        return 4
    if kind == ST.K_RANGER:
        return 5
    if kind == ST.K_MELEER:
        return 6
    if kind == ST.K_BLOBLET_MELEE:
        return 7
    return 8


@njit(cache=True)
def shootable_from(s, cfg, k, x, y, gear_set):
    """Set ``gear_set``'s weapon reaches monster ``k`` from (x, y) over the standing pillars (timer aside):
    the worn set's for the tile search, another's for a switch before the attack."""
    m = s.monsters[k]
    if m.state != ST.SLOT_ALIVE or m.dig_left > 0:
        return False
    return PIL.sees(s, cfg, x, y, 1, m.x, m.y, MON.size_of(cfg, m), cfg.set_range[gear_set])


@njit(cache=True)
def any_shootable_from_here(s, cfg, gear_set):
    """Some monster the player could attack (not the shield) is in set ``gear_set``'s reach from its tile."""
    for k in range(ST.MONSTER_SLOTS):
        if s.monsters[k].kind != ST.K_SHIELD and shootable_from(s, cfg, k, s.p.x, s.p.y, gear_set):
            return True
    return False


@njit(cache=True)
def best_target(s, cfg, legal_only, legal):
    """The slot to shoot, -1 for none: with ``legal_only`` among the legal attack options, else the top
    monster of the kill order anywhere (the one to walk into reach of)."""
    best, pick = 1 << 30, -1
    for k in range(ST.MONSTER_SLOTS):
        m = s.monsters[k]
        if m.state != ST.SLOT_ALIVE or m.dig_left > 0:
            continue
        if legal_only and not legal[MASK_START.attack + ST.ATTACK_SLOT_0 + k]:
            continue
        score = priority(s, cfg, m) * 1000 + m.hp
        if score < best:
            best, pick = score, k
    return pick


@njit(cache=True)
def is_small(m):
    """A monster one Ice Barrage kills or nearly kills: a nibbler (10 hitpoints) or a bloblet."""
    return m.kind == ST.K_NIBBLER or m.kind == ST.K_BLOBLET_MAGIC or m.kind == ST.K_BLOBLET_RANGED \
        or m.kind == ST.K_BLOBLET_MELEE


@njit(cache=True)
def barrage_catch(s, cfg, k):
    """How many small monsters a barrage on slot ``k`` hits: those whose footprint overlaps the 3x3 centred
    on its south-west tile (player ``_barrage_splash``), the target included."""
    n = 0
    for j in range(ST.MONSTER_SLOTS):
        if is_small(s.monsters[j]) and PLY.in_barrage_area(s, cfg, k, j):
            n += 1
    return n


@njit(cache=True)
def wants_siphon(s, cfg):
    """Hitpoints at ``SIPHON_AT`` or below and the energy for the blowpipe's Toxic Siphon (50 %)."""
    return s.p.levels[HITPOINTS] <= SIPHON_AT and can_special(s.p, cfg.set_special[ST.SET_BLOWPIPE, SP_COST])


@njit(cache=True)
def barrage_target(s, cfg, legal):
    """The legal attack slot where a barrage catches the most small monsters, at least ``BARRAGE_MIN`` of
    them (a nibbler clump on its pillar, a blob's three bloblets: OSRS wiki "Inferno/Strategies" barrages
    both); -1 for none, or when no barrage is at hand. The attack mask reads the worn set's range, so a clump
    legal to the bow is in the spell's reach only where the spell reaches as far (10 tiles)."""
    if cfg.set_targets[ST.SET_MAGIC] <= 1 or cfg.set_range[ST.SET_MAGIC] < cfg.set_range[s.gear_set]:
        return -1
    best, pick = -1, -1
    for k in range(ST.MONSTER_SLOTS):
        m = s.monsters[k]
        if not legal[MASK_START.attack + ST.ATTACK_SLOT_0 + k] or not is_small(m):
            continue
        n = barrage_catch(s, cfg, k)
        score = 100 * n - priority(s, cfg, m)      # the most caught, then the most urgent target
        if n >= BARRAGE_MIN and score > best:
            best, pick = score, k
    return pick


# ---- 2. the tile ----------------------------------------------------------------------------------------------
@njit(cache=True)
def tile_cost(s, cfg, x, y, focus, steps):
    """What standing on (x, y) costs (module docstring, step 2); ``focus``: the slot it wants to shoot,
    ``steps``: walk steps to get there."""
    styles = np.zeros(4, dtype=np.bool_)     # melee, ranged, magic, and a blob (either, by its scan)
    cost = 0.0
    for k in range(ST.MONSTER_SLOTS):
        m = s.monsters[k]
        if m.state != ST.SLOT_ALIVE or m.target != ST.TARGET_PLAYER or m.kind == ST.K_NIBBLER \
                or cfg.kind_style[m.kind] == STYLE_TYPELESS:
            continue                         # Zuk and the sparks: decide_zuk keeps the player sheltered
        size = MON.size_of(cfg, m)
        if m.dig_left > 0:       # it resurfaces on its dig tile: keep out of reach of that footprint
            if edge_distance(m.dig_x, m.dig_y, size, x, y, 1) <= 1:
                cost += COST_MELEE
            continue
        if in_footprint(m, size, x, y):
            cost += COST_UNDER
            continue
        if not reaches(s, cfg, m, x, y):
            continue
        cost += COST_SEEN
        if cfg.kind_range[m.kind] <= 1:
            styles[STYLE_MELEE] = True
            cost += COST_MELEE
        elif m.kind == ST.K_BLOB or m.kind == ST.K_JAD:
            styles[3] = True                 # one style alone (its scan, its tell), a second beside any other
        else:
            styles[cfg.kind_style[m.kind]] = True
        if cfg.kind_melee[m.kind] and in_melee_reach(m.x, m.y, size, x, y, 1):
            cost += COST_UNPRAYABLE_MELEE
    n = 0
    for st in range(4):
        if styles[st]:
            n += 1
    if n > 1:
        cost += COST_STYLE * (n - 1)
    if focus >= 0 and shootable_from(s, cfg, focus, x, y, s.gear_set):
        cost -= BONUS_SHOOT
    cost += TRAVEL * steps
    return cost


@njit(cache=True)
def walk_distances(s, cfg, gx, gy, dist, queue):
    """Walk steps from (gx, gy) to every tile over the standing pillars' map (breadth first over the 8 walks,
    the move table's own legality, which is symmetric on this map); unreached tiles keep ``UNREACHED``."""
    flags = PIL.arena_map(s, cfg)
    dist[:, :] = UNREACHED
    dist[gx, gy] = 0
    queue[0] = gx * dist.shape[1] + gy
    head, tail = 0, 1
    while head < tail:
        x, y = queue[head] // dist.shape[1], queue[head] % dist.shape[1]
        head += 1
        for d in range(8):
            if can_step(flags, x, y, 1, _STEP_X[d], _STEP_Y[d]):
                nx, ny = x + _STEP_X[d], y + _STEP_Y[d]
                if dist[nx, ny] == UNREACHED:
                    dist[nx, ny] = dist[x, y] + 1
                    queue[tail] = nx * dist.shape[1] + ny
                    tail += 1


@njit(cache=True)
def choose_tile(s, cfg, focus, dist, queue):
    """(x, y, cost) of the cheapest tile within ``SEARCH`` walk steps of the player (``dist`` is left holding
    the walk steps from the player)."""
    walk_distances(s, cfg, s.p.x, s.p.y, dist, queue)
    bx, by = np.int64(s.p.x), np.int64(s.p.y)
    best = tile_cost(s, cfg, bx, by, focus, 0)
    for dx in range(-SEARCH, SEARCH + 1):
        for dy in range(-SEARCH, SEARCH + 1):
            x, y = s.p.x + dx, s.p.y + dy
            if (dx == 0 and dy == 0) or x < 0 or y < 0 or x >= dist.shape[0] or y >= dist.shape[1]:
                continue
            if dist[x, y] > SEARCH:
                continue
            c = tile_cost(s, cfg, x, y, focus, dist[x, y])
            if c < best:
                best, bx, by = c, np.int64(x), np.int64(y)
    return bx, by, best


@njit(cache=True)
def move_to(s, cfg, legal, gx, gy, dist, queue):
    """The move-head index of the click that takes the player toward (gx, gy): the goal itself when it lies
    in the click square (the game's router walks it around the pillars), else the legal click in the square
    with the fewest walk steps left to the goal. It runs when the goal is 2+ steps away with
    ``RUN_ENERGY_MIN`` energy. On the goal: no click while nothing else is stored, else a click on its own
    tile stops the walk. The one place that knows the move head's layout (core.click_move.move_option)."""
    p = s.p
    off = MASK_START.move
    if p.x == gx and p.y == gy:
        if s.dest_x < 0 or (s.dest_x == gx and s.dest_y == gy):
            return ST.MOVE_NONE
        stop = CM.move_option(0, 0, False)
        return stop if legal[off + stop] else ST.MOVE_NONE
    walk_distances(s, cfg, gx, gy, dist, queue)
    run = dist[p.x, p.y] >= 2 and p.run_energy >= RUN_ENERGY_MIN
    r = ST.MOVE_RADIUS
    best, pick = 1e18, ST.MOVE_NONE
    for dx in range(-r, r + 1):
        for dy in range(-r, r + 1):
            mv = CM.move_option(dx, dy, run)
            if (dx == 0 and dy == 0) or not legal[off + mv]:
                continue
            x, y = p.x + dx, p.y + dy
            ex, ey = abs(x - gx), abs(y - gy)
            score = 10.0 * dist[x, y] + 0.1 * (ex * ex + ey * ey)
            if score < best:
                best, pick = score, mv
    if pick != ST.MOVE_NONE and s.dest_x >= 0:
        dx, dy, _ = CM.move_click(pick)
        if s.dest_x == p.x + dx and s.dest_y == p.y + dy:
            return ST.MOVE_NONE          # already walking there: no new click
    return pick


# ---- 5. supplies ----------------------------------------------------------------------------------------------
@njit(cache=True)
def choose_drink(s, cfg, legal):
    p = s.p
    off = MASK_START.drink
    brew, restore = off + ST.DRINK.brew, off + ST.DRINK.restore
    bastion, stamina = off + ST.DRINK.bastion, off + ST.DRINK.stamina
    if p.levels[PRAYER] < PRAYER_CRITICAL and p.levels[HITPOINTS] > HP_CRITICAL and legal[restore]:
        return ST.DRINK.restore
    if p.levels[HITPOINTS] <= BREW_AT and legal[brew]:
        return ST.DRINK.brew
    if (p.levels[PRAYER] < RESTORE_PRAYER or p.levels[RANGED] <= p.base_levels[RANGED] - RESTORE_RANGED) \
            and legal[restore]:
        return ST.DRINK.restore
    fighting = s.next_wave_in == 0 and SPN.wave_left(s) > 0     # a dying blob's bloblets are still to come
    if fighting and p.levels[RANGED] <= p.base_levels[RANGED] and legal[bastion]:
        return ST.DRINK.bastion
    if p.run_energy < STAMINA_AT and p.stamina_ticks <= 0 and legal[stamina]:
        return ST.DRINK.stamina
    return ST.DRINK.none


# ---- the decision ---------------------------------------------------------------------------------------------
@njit(cache=True)
def fire(legal, shot, rigour, out):
    """Attack slot ``shot`` with the worn set's offensive prayer on (Rigour, Augury) if it is not yet."""
    out[ST.HEAD.attack] = ST.ATTACK_SLOT_0 + shot
    if not rigour and legal[MASK_START.offensive + ST.OFFENSIVE.on]:
        out[ST.HEAD.offensive] = ST.OFFENSIVE.on


@njit(cache=True)
def decide(s, cfg, legal_rows, dist, queue, out):
    """Write the solver's action row for state ``s`` into ``out`` (every option legal under the mask; heads
    it does not know stay 0)."""
    out[:] = 0
    legal_actions(s, cfg, legal_rows)
    legal = legal_rows[0]
    out[ST.HEAD.overhead] = choose_overhead(s, cfg, legal)
    out[ST.HEAD.drink] = choose_drink(s, cfg, legal)
    rigour = (np.uint32(s.p.active_prayers) & np.uint32(cfg.offensive)) != 0
    focus = best_target(s, cfg, False, legal)
    shot = best_target(s, cfg, True, legal)
    if s.wave >= W.ZUK_WAVE:
        decide_zuk(s, cfg, legal, shot, rigour, dist, queue, out)
        return
    gx, gy, best = choose_tile(s, cfg, focus, dist, queue)
    here = tile_cost(s, cfg, s.p.x, s.p.y, focus, 0)
    siphon = wants_siphon(s, cfg)
    if shot >= 0 and (here - best < HOLD_FIRE or dist[gx, gy] > HOLD_FIRE_STEPS):
        clump = barrage_target(s, cfg, legal)
        if siphon and s.gear_set == ST.SET_BLOWPIPE and legal[MASK_START.spec + ST.SPEC.use]:
            out[ST.HEAD.spec] = ST.SPEC.use             # the shot is the special (the pipe's reach: the mask)
        elif clump >= 0 and priority(s, cfg, s.monsters[shot]) >= priority(s, cfg, s.monsters[clump]) - 1:
            # the clump is as urgent as the kill order's pick (or one rank below): the switch comes first in
            # the tick and the attack is the spell's (player ``inputs``)
            shot = clump
            if s.gear_set != ST.SET_MAGIC:
                out[ST.HEAD.gear] = ST.GEAR.magic
        elif s.gear_set != ST.SET_BOW and shootable_from(s, cfg, shot, s.p.x, s.p.y, ST.SET_BOW):
            out[ST.HEAD.gear] = ST.GEAR.bow
        fire(legal, shot, rigour, out)
        return
    if siphon and s.p.attack_timer > 0 and any_shootable_from_here(s, cfg, ST.SET_BLOWPIPE):
        if s.gear_set != ST.SET_BLOWPIPE:         # the special is masked until the pipe is worn: on now,
            out[ST.HEAD.gear] = ST.GEAR.blowpipe  # the special when the timer is ready
    elif s.gear_set != ST.SET_BOW:
        out[ST.HEAD.gear] = ST.GEAR.bow           # back to the bow while nothing is shot
    if rigour and s.p.attack_timer > 1:
        out[ST.HEAD.offensive] = ST.OFFENSIVE.off
    if SPN.wave_left(s) == 0 or s.next_wave_in > 0:
        return                                # between waves: stay
    if focus >= 0 and not shootable_from(s, cfg, focus, gx, gy, s.gear_set) and best > -BONUS_SHOOT + COST_SEEN:
        # nothing to shoot from any tile near: walk toward the monster first in the kill order
        m = s.monsters[focus]
        gx, gy = np.int64(m.x), np.int64(m.y)
    out[ST.HEAD.move] = move_to(s, cfg, legal, gx, gy, dist, queue)


# ---- the Zuk wave ----------------------------------------------------------------------------------------------
@njit(cache=True)
def shelter_span(s, cfg, gx):
    """(first, last) x of the tiles the glyph at south-west x ``gx`` shelters, and the row in their middle
    (finale.sheltered)."""
    x0, x1, y0, y1 = FIN.shelter_box(cfg, np.int64(gx), np.int64(s.monsters[FIN.SHIELD_SLOT].y))
    return x0, x1, (y0 + y1) // 2


@njit(cache=True)
def zuk_goal(s, cfg, ahead):
    """The shelter tile to stand on: the one of the glyph's columns ``ahead`` ticks from now nearest the player
    that no spark is about to hit (the middle row); the player's own tile without a glyph."""
    if not FIN.shield_alive(s):
        return np.int64(s.p.x), np.int64(s.p.y)
    g = s.monsters[FIN.SHIELD_SLOT]
    gx = np.int64(g.x)
    if g.frozen < ahead:
        gx += s.shield_dir * (ahead - max(np.int64(g.frozen), 0))
    gx = min(max(gx, np.int64(A.SHIELD_X[0])), np.int64(A.SHIELD_X[1]))
    lo, hi, row = shelter_span(s, cfg, gx)
    lo = max(lo, np.int64(A.ARENA_X[0]))
    hi = min(hi, np.int64(A.ARENA_X[1]))
    best, bx = 1 << 30, (lo + hi) // 2
    for x in range(lo, hi + 1):
        d = abs(x - (lo + hi) // 2) + (100 if FIN.spark_near(s, x, row, 2) else 0)
        if d < best:
            best, bx = d, np.int64(x)
    return bx, row


@njit(cache=True)
def safe_to_stand(s, cfg):
    """Standing still this tick keeps the player sheltered when Zuk next attacks (his attack comes in the
    monster phase, after the glyph's step and before the player's) and no spark is about to land here."""
    z = s.monsters[FIN.ZUK_SLOT]
    if FIN.spark_near(s, s.p.x, s.p.y, 2):
        return False
    if z.state != ST.SLOT_ALIVE or not FIN.shield_alive(s):
        return True
    t = max(z.attack_timer - 1, z.stun, 0)       # ticks until his attack (0: the next tick's monster phase)
    if t > 2:
        return True
    g = s.monsters[FIN.SHIELD_SLOT]
    gx = np.int64(g.x)
    for _ in range(t + 1):                       # where the glyph stands when he attacks
        if g.frozen <= 0:
            gx += s.shield_dir
    lo, hi, row = shelter_span(s, cfg, gx)
    return lo <= s.p.x <= hi and abs(s.p.y - row) <= 1


@njit(cache=True)
def decide_zuk(s, cfg, legal, shot, rigour, dist, queue, out):
    """The Zuk wave: keep to the glyph's shelter (its columns a tick ahead, clear of sparks) and shoot from it
    when standing still keeps the player sheltered for Zuk's next attack; the kill order (``priority``) tags
    healing healers first, then the Jad, the set's mager and ranger, then Zuk; the overhead and supplies as in
    the waves."""
    if shot >= 0 and safe_to_stand(s, cfg):
        if s.gear_set != ST.SET_BOW and shootable_from(s, cfg, shot, s.p.x, s.p.y, ST.SET_BOW):
            out[ST.HEAD.gear] = ST.GEAR.bow
        fire(legal, shot, rigour, out)
        return
    if rigour and s.p.attack_timer > 1:
        out[ST.HEAD.offensive] = ST.OFFENSIVE.off
    gx, gy = zuk_goal(s, cfg, 2)
    out[ST.HEAD.move] = move_to(s, cfg, legal, gx, gy, dist, queue)


@njit(cache=True)
def solver_actions(states, configs, out):
    """The solver's actions for every env: ``out`` is int64 [envs, heads] (``env.step``'s shape)."""
    cfg = configs[0]
    legal_rows = np.zeros((1, ST.MASK_SIZE), dtype=np.bool_)
    dist = np.zeros((cfg.maps.shape[1], cfg.maps.shape[2]), dtype=np.int32)
    queue = np.zeros(dist.size, dtype=np.int64)
    for i in range(states.shape[0]):
        decide(states[i], cfg, legal_rows, dist, queue, out[i])
