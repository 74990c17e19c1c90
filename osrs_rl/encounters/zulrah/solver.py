"""A scripted Zulrah solver: one Numba kernel that plays every env of a batch as a good player would.

    env = osrs_rl.make("zulrah", num_envs=64, seed=0)
    env.reset()
    actions = np.zeros((64, env.spec.num_heads), dtype=np.int64)
    solver_actions(env.states, env.config, actions)      # then env.step(actions), and again

What it reads: what a player at the shrine knows. Zulrah's form, spot, hitpoints and the time since it
surfaced; the clouds, snakelings and the magma stare it sees; its own stats, timers and supplies; and
the rotation table (``rotations.py``) the way a player knows the guides: the current phase's attacks
and volleys (identical in every rotation the phases seen so far allow, as the solver's test checks)
and the next phase only once the phases seen single the rotation out (``identify_phase``). It never
reads the RNG or a shot's style before the shot is made.

Each tick, per env:
  1. plan: the Zulrah to fight is the one surfaced now; while it dives, the next phase's (once the
     rotation is known; else the current one's, whose stand tile the guides keep in every case);
  2. gear: the set with the higher expected damage per tick on the planned form, from the encounter's
     own rolls (core.attack.expected_damage with the hit cap, over attack speed): magic on serpentine
     and magma, ranged on tanzanite, in every tier (in max gear the blowpipe's spec set on tanzanite
     once the ranging potion has boosted ranged: 5.86 against the twisted bow's 5.53 a tick);
  3. tile: the walkable tile of least cost. Costs: inside a cloud's 3x3 (heavy now, light where the
     rest of this phase's volleys will fall); within 1 tile of the magma stare while a slam is
     pending; out of the planned set's reach; off a melee safespot in a magma phase [M: ZEN]; near
     melee snakelings and this phase's snakeling spawn tiles; each tile from the phase's stand tile
     (RL-R ``RotationType`` stand locations: ``rotations.STAND_TILES``) and from the player.
     It walks or runs there along a shortest path, ending no move in a cloud or under a slam when
     another move avoids it;
  4. attack: first a snakeling that could strike before a kill started later lands (a melee one
     whose lock plus steps to the player is at most ``SNAKELING_NEAR``; a magic one within its 6
     tiles unless magic is prayed), else Zulrah when it is in reach with a clear line (a hit landing
     during the dive waits for Zulrah to rise), else, Zulrah being untargetable, any snakeling in reach;
  5. overhead: on the tick of Zulrah's attack its style, read from the phase's timeline: missiles for
     serpentine, magic for tanzanite (a tanzanite shot is ranged with p = 3/10 and shows no tell
     before it is made, so those are taken), the Jad phase's alternation shot by shot from the
     documented first style. Between its attacks magic while a magic snakeling is near, else the next
     attack's style; off when the phase has no attack left (dives, magma, cloud phases);
  6. offensive prayer flicked: on the tick it attacks, off otherwise;
  7. supplies: food at or below ``EAT_AT`` (an unprayed max hit and change; at or below
     ``CRITICAL_HP`` only when the bite would delay an attack on a snakeling about to strike), a free
     top-up when the bite delays nothing (Zulrah diving, or the attack idle), and in tanzanite phases
     up to ``TANZANITE_EAT_AT`` (two unprayable ranged shots); a prayer dose below ``PRAYER_URGENT``
     points, or when a whole dose fits and hitpoints are high or no attack is due; anti-venom when
     envenomed; a ranging (magic) potion when the ranged (magic) set is planned and its boost has faded;
  8. special attack: on every attack on Zulrah that the worn weapon's special allows (the magic
     shortbow (i) on a budget, the blowpipe in the middle tier, and in max gear the blowpipe while
     step 2 wears the spec set).

Measured with ``osrs-rl eval zulrah --policy solver`` (figures: docs/results/zulrah.md, "The scripted solver,
per gear tier").

What it does not do: switch to a spec weapon only to spend energy or to heal with the blowpipe,
tick-perfect overhead flicking (it keeps the overhead on through an attack phase), pre-drinking
anti-venom, luring or tanking snakelings; it
trusts the encounter's approximations (platform shape, no pillars, no line of sight, the melee
safespots, snakelings that share tiles).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from osrs_rl.core import prayers as P
from osrs_rl.core.attack import expected_damage, rolls_vs_npc
from osrs_rl.core.combatant import COMBATANT_DTYPE
from osrs_rl.core.consumables import COL_ATTACK_DELAY, COL_EFFECTS, heal_amount
from osrs_rl.core.equipment import attack_speed
from osrs_rl.core.formula import NO_TRACE
from osrs_rl.core.hit_delay import edge_distance
from osrs_rl.core.skills import HITPOINTS, MAGIC, NUM_SKILLS, PRAYER, RANGED

from . import mechanics as M
from . import rotations as RT
from . import state as ST
from .view import MASK_START
from .view import mask as legal_actions

# ---- stand tiles: RL-R RotationType's stand location of every phase (names of rotations.STAND_TILES)
_STANDS = (
    ("northeast_top", "northeast_top", "east_pillar_n", "west_pillar_n", "west_pillar_n", "west_pillar_s",
     "east_pillar", "east_pillar", "west_pillar_s", "northeast_top"),                             # ROT_A
    ("northeast_top", "northeast_top", "east_pillar_n", "west_pillar_s", "west_pillar_n", "west_pillar_n",
     "center", "west_pillar_s", "west_pillar_s", "northeast_top"),                                # ROT_B
    ("northeast_top", "northeast_top", "west", "west", "east_pillar_s", "east_pillar_s", "west_pillar_n",
     "west_pillar_n", "east_pillar_n", "east_pillar_n", "northeast_top"),                         # ROT_C
    ("northeast_top", "northeast_top", "west_pillar_n", "west_pillar_n", "east_pillar_n", "east_pillar",
     "east_pillar", "west_pillar_s", "east_pillar_n", "east_pillar_n", "east_pillar_n", "northeast_top"),  # ROT_D
)


def _stand_table() -> np.ndarray:
    """Per timeline (rotations.TIMELINES) and phase; a restarted rotation's bridge keeps the opening's tile."""
    out = np.zeros((RT.NUM_TIMELINES, RT.MAX_PHASES, 2), dtype=np.int16)
    for r, names in enumerate(_STANDS):
        if len(names) != len(RT.ROTATIONS[r]):
            raise ValueError(f"rotation {r + 1}: {len(names)} stand tiles for {len(RT.ROTATIONS[r])} phases")
        for p, name in enumerate(names):
            out[r, p] = out[RT.NUM_ROTATIONS + r, p] = RT.STAND_TILES[name]
    return out


STAND_XY = _stand_table()

# ---- thresholds (the solver's choices, not game facts) --------------------------------------------
EAT_AT = M.ZULRAH_MAX_HIT + 10        # one unprayed max hit plus a cloud tick and venom leaves it standing
TANZANITE_EAT_AT = 2 * M.ZULRAH_MAX_HIT   # tanzanite phases: two unprayable ranged shots in a row happen
CRITICAL_HP = 25                      # eat even if it cancels an attack on a snakeling about to strike
PRAYER_URGENT = 15                    # points: drink now, whatever else is due
DRINK_SAFE_HP = 0.7                   # a dose blocks food 3 ticks: drink non-urgent doses above this fraction
BOOST_AGAIN = 4                       # re-drink the ranging potion when its boost has faded below this
MAGIC_BOOST_AGAIN = 2                 # ... and the magic potion (+4) below this
SNAKELING_NEAR = 5                    # ticks: a melee snakeling this close (lock + steps) strikes before a
                                      # kill started later lands (attack timer + hit delay, about 4)

# tile costs (units: one tile walked costs TRAVEL)
COST_CLOUD = 1000.0                   # per cloud whose 3x3 covers the tile
COST_SLAM = 1000.0                    # within 1 tile of the stared tile while a slam is pending
COST_OUT_OF_REACH = 300.0
COST_SNAKELING = 2.0                  # per melee snakeling (or spawn tile) and tile inside SNAKELING_NEAR
COST_UPCOMING_CLOUD = 20.0            # where one of this phase's remaining volleys will fall
COST_OFF_SAFESPOT = 40.0              # a magma phase's slams never hit the melee safespots [M: ZEN]
STAND = 3.0                           # per tile away from the stand tile
TRAVEL = 2.0                          # per tile away from the player

_WALK_STOP = ST.MOVE_WALK + len(ST.WALK_LABELS)   # walk moves: MOVE_WALK.._WALK_STOP - 1 (state.py)
_UNREACHED = np.int16(10_000)


# ---- what the player knows -------------------------------------------------------------------------
@njit(cache=True)
def _diving(s, cfg):
    return M.diving(s, cfg)


@njit(cache=True)
def planned_phase(s, cfg):
    """(timeline, phase) of the Zulrah to prepare for: the surfaced one, or the next while it dives
    once the rotation is known (after the last phase a new rotation opens with the bridge, the same
    in every rotation)."""
    if not _diving(s, cfg):
        return s.rotation, s.phase
    if s.phase + 1 >= cfg.num_phases[s.rotation]:
        return RT.NUM_ROTATIONS + M.rotation_of(s), 0
    if s.phase >= cfg.identify_phase[M.rotation_of(s)]:
        return s.rotation, s.phase + 1
    return s.rotation, s.phase


@njit(cache=True)
def next_attack(s, cfg):
    """The timeline code of Zulrah's next ranged or magic attack in this phase (this tick's
    included: the overhead set now meets it), or ACT_NONE."""
    ticks = M.dive_tick(s, cfg)
    for t in range(s.phase_tick, ticks):
        code = cfg.timeline[s.rotation, s.phase, t]
        if code == RT.ACT_RANGED or code == RT.ACT_MAGIC or code == RT.ACT_TANZANITE:
            return code
    return RT.ACT_NONE


@njit(cache=True)
def _ticks_to_attack(s, cfg):
    ticks = M.dive_tick(s, cfg)
    for t in range(s.phase_tick, ticks):
        code = cfg.timeline[s.rotation, s.phase, t]
        if code == RT.ACT_RANGED or code == RT.ACT_MAGIC or code == RT.ACT_TANZANITE:
            return t - s.phase_tick
    return 1 << 20


# ---- gear: expected damage per tick ----------------------------------------------------------------
@njit(cache=True)
def set_damage_per_tick(s, cfg, set_index, form, scratch):
    """Mean damage per tick of set ``set_index`` (its offensive prayer on, current levels) on ``form``."""
    scratch[0] = cfg.set_combat[s.tier, set_index]
    c = scratch[0]
    for k in range(NUM_SKILLS):
        c.levels[k] = s.p.levels[k]
    c.prayers = cfg.set_offensive[s.tier, set_index]
    row = cfg.npc_rows[form]
    sp = cfg.set_row[s.tier, set_index]
    att, dfn, mn, mx = rolls_vs_npc(NO_TRACE, c, row, sp)
    return expected_damage(att, dfn, mn, mx, sp, cfg.bolt_ctx, row.hit_cap) / attack_speed(c)


@njit(cache=True)
def best_set(s, cfg, form, scratch):
    best, pick = -1.0, 0
    for k in range(ST.NUM_SETS):
        if cfg.set_present[s.tier, k] == 0:
            continue
        d = set_damage_per_tick(s, cfg, k, form, scratch)
        if d > best:
            best, pick = d, k
    return pick


# ---- tiles ------------------------------------------------------------------------------------------
@njit(cache=True)
def _walkable(cfg, x, y):
    # the move table's idle bit is set on every walkable tile (loadouts.platform)
    return 0 <= x < RT.GRID_W and 0 <= y < RT.GRID_H \
        and (cfg.move_ok[x, y] >> np.uint32(ST.MOVE_IDLE)) & np.uint32(1) != 0


@njit(cache=True)
def clouds_over(s, x, y):
    n = 0
    for k in range(ST.CLOUD_SLOTS):
        cl = s.clouds[k]
        if cl.active and abs(x - cl.x) <= 1 and abs(y - cl.y) <= 1:
            n += 1
    return n


@njit(cache=True)
def _upcoming_clouds_over(s, cfg, x, y):
    """Clouds of this phase's volleys still to come that will cover (x, y)."""
    if _diving(s, cfg):
        return 0
    n = 0
    for t in range(s.phase_tick, M.dive_tick(s, cfg)):
        if cfg.timeline[s.rotation, s.phase, t] == RT.ACT_CLOUDS:
            v = cfg.timeline_arg[s.rotation, s.phase, t]
            for c in range(2):
                cx = cfg.volley_tiles[s.rotation, s.phase, v, c, 0]
                cy = cfg.volley_tiles[s.rotation, s.phase, v, c, 1]
                if abs(x - cx) <= 1 and abs(y - cy) <= 1:
                    n += 1
    return n


@njit(cache=True)
def _snakeling_pressure(s, cfg, x, y):
    """Melee snakelings (alive, or still to spawn this phase) within reach of (x, y) in a few steps."""
    n = 0.0
    for k in range(ST.SNAKELING_SLOTS):
        sn = s.snakelings[k]
        if sn.active and sn.kind == 0:
            n += max(0, SNAKELING_NEAR - max(abs(x - sn.x), abs(y - sn.y)))
    if not _diving(s, cfg):
        for t in range(s.phase_tick, M.dive_tick(s, cfg)):
            if cfg.timeline[s.rotation, s.phase, t] == RT.ACT_SNAKELING:
                v = cfg.timeline_arg[s.rotation, s.phase, t]
                sx, sy = cfg.spawn_tiles[s.rotation, s.phase, v, 0], cfg.spawn_tiles[s.rotation, s.phase, v, 1]
                n += max(0, SNAKELING_NEAR - max(abs(x - sx), abs(y - sy)))
    return n


@njit(cache=True)
def slam_danger(s, cfg, x, y):
    """A pending slam would hit (x, y) [ZEN MeleeSequence: within 1 tile of the stared tile, not a safespot]."""
    return s.magma_on != 0 and max(abs(x - s.magma_x), abs(y - s.magma_y)) <= 1 and cfg.safespot[x, y] == 0


@njit(cache=True)
def _hazard(s, cfg, x, y):
    return COST_CLOUD * clouds_over(s, x, y) + (COST_SLAM if slam_danger(s, cfg, x, y) else 0.0)


@njit(cache=True)
def _tile_cost(s, cfg, x, y, spot, reach, magma, sx, sy):
    cost = _hazard(s, cfg, x, y) + COST_UPCOMING_CLOUD * _upcoming_clouds_over(s, cfg, x, y)
    cost += COST_SNAKELING * _snakeling_pressure(s, cfg, x, y)
    if not M.spot_sees(cfg, spot, x, y, reach):
        cost += COST_OUT_OF_REACH
    if magma and cfg.safespot[x, y] == 0:
        cost += COST_OFF_SAFESPOT
    cost += STAND * max(abs(x - sx), abs(y - sy))
    cost += TRAVEL * max(abs(x - s.p.x), abs(y - s.p.y))
    return cost


@njit(cache=True)
def choose_tile(s, cfg, rot, ph, set_index):
    """The walkable tile of least cost for fighting phase ``ph`` of rotation ``rot`` in ``set_index``."""
    spot = cfg.phase_spot[rot, ph]
    reach = cfg.set_range[s.tier, set_index]
    magma = cfg.phase_form[rot, ph] == RT.MAGMA
    sx, sy = STAND_XY[rot, ph, 0], STAND_XY[rot, ph, 1]
    best, bx, by = 1e18, s.p.x, s.p.y
    for x in range(RT.GRID_W):
        for y in range(RT.GRID_H):
            if _walkable(cfg, x, y):
                c = _tile_cost(s, cfg, x, y, spot, reach, magma, sx, sy)
                if c < best:
                    best, bx, by = c, x, y
    return bx, by


@njit(cache=True)
def walk_distances(cfg, gx, gy, dist, queue):
    """Walk steps from every tile to (gx, gy) on the platform (breadth first over the walk moves,
    which are symmetric on this map); unreached tiles keep ``_UNREACHED``."""
    dist[:, :] = _UNREACHED
    dist[gx, gy] = 0
    queue[0] = gx * RT.GRID_H + gy
    head, tail = 0, 1
    while head < tail:
        x, y = queue[head] // RT.GRID_H, queue[head] % RT.GRID_H
        head += 1
        for m in range(ST.MOVE_WALK, _WALK_STOP):
            if (cfg.move_ok[x, y] >> np.uint32(m)) & np.uint32(1):
                nx, ny = x + cfg.move_dx[m, 0], y + cfg.move_dy[m, 0]
                if dist[nx, ny] == _UNREACHED:
                    dist[nx, ny] = dist[x, y] + 1
                    queue[tail] = nx * RT.GRID_H + ny
                    tail += 1


@njit(cache=True)
def choose_move(s, cfg, legal, gx, gy, dist, queue):
    """The legal move that ends nearest the goal, avoiding hazards at the end of the move."""
    p = s.p
    if p.x == gx and p.y == gy and _hazard(s, cfg, p.x, p.y) == 0.0:
        return ST.MOVE_IDLE
    walk_distances(cfg, gx, gy, dist, queue)
    best, pick = 1e18, ST.MOVE_IDLE
    for m in range(ST.NUM_MOVES):
        if not legal[MASK_START.move + m]:
            continue
        x = p.x + cfg.move_dx[m, 0] + cfg.move_dx[m, 1]
        y = p.y + cfg.move_dy[m, 0] + cfg.move_dy[m, 1]
        score = _hazard(s, cfg, x, y) + 10.0 * dist[x, y] + (1.0 if m >= ST.MOVE_RUN else 0.0)
        if score < best:
            best, pick = score, m
    return pick


# ---- attack ----------------------------------------------------------------------------------------
@njit(cache=True)
def _threatens(sn, x, y, magic_prayed):
    """A snakeling that could hit the player on (x, y) before a kill started now lands: a melee one
    walks a tile a tick once unlocked and strikes the tick it arrives; a magic one strikes from 6
    tiles unless the magic overhead is on (it then hits nothing)."""
    d = edge_distance(sn.x, sn.y, 1, x, y, 1)
    if sn.kind == 1:
        return not magic_prayed and d <= M.SNAKELING_MAGIC_RANGE
    return sn.lock + d - 1 <= SNAKELING_NEAR


@njit(cache=True)
def choose_target(s, cfg, legal, x, y, set_index, magic_prayed):
    """Attack option for this tick when the player ends its move on (x, y) wearing ``set_index``."""
    reach = cfg.set_range[s.tier, set_index]
    off = MASK_START.attack
    best_threat, threat = 1 << 20, -1
    spare = -1
    for k in range(ST.SNAKELING_SLOTS):
        sn = s.snakelings[k]
        if not legal[off + ST.ATTACK_SNAKELING + k]:
            continue
        if not M.tile_sees(cfg, x, y, sn.x, sn.y, reach):
            continue
        d = edge_distance(x, y, 1, sn.x, sn.y, 1)
        if _threatens(sn, x, y, magic_prayed) and d < best_threat:
            best_threat, threat = d, k
        elif spare < 0:
            spare = k
    if threat >= 0:
        return ST.ATTACK_SNAKELING + threat
    # a hit that lands while Zulrah dives waits for it to rise (mechanics.land_npc_hits): no loss
    sees = M.spot_sees(cfg, s.spot, x, y, reach)
    if legal[off + ST.ATTACK_ZULRAH] and sees:
        return ST.ATTACK_ZULRAH
    if spare >= 0 and not M.zulrah_targetable(s, cfg):
        return ST.ATTACK_SNAKELING + spare
    return ST.ATTACK_NONE


# ---- prayers and supplies ---------------------------------------------------------------------------
@njit(cache=True)
def _magic_snakeling_near(s):
    """A magic snakeling that may cast at the player this tick or the next."""
    for k in range(ST.SNAKELING_SLOTS):
        sn = s.snakelings[k]
        if sn.active and sn.kind == 1 and sn.lock <= 1 \
                and edge_distance(sn.x, sn.y, 1, s.p.x, s.p.y, 1) <= M.SNAKELING_MAGIC_RANGE + 1:
            return True
    return False


@njit(cache=True)
def choose_overhead(s, cfg, legal):
    """Zulrah's style on the tick of its attack; between its attacks magic while a magic snakeling
    is near, else the style of Zulrah's next attack; off when the phase has no attack left."""
    code = RT.ACT_NONE if _diving(s, cfg) else next_attack(s, cfg)
    want = ST.OVERHEAD.off
    if code == RT.ACT_RANGED:
        want = ST.OVERHEAD.missiles
    elif code == RT.ACT_MAGIC or code == RT.ACT_TANZANITE:
        want = ST.OVERHEAD.magic            # tanzanite's ranged shots give no tell: pray magic
    if _ticks_to_attack(s, cfg) > 0 and _magic_snakeling_near(s):
        want = ST.OVERHEAD.magic
    p = s.p
    on_magic = M.has_prayer(p, P.PROTECT_FROM_MAGIC)
    on_missiles = M.has_prayer(p, P.PROTECT_FROM_MISSILES)
    if (want == ST.OVERHEAD.magic and on_magic) or (want == ST.OVERHEAD.missiles and on_missiles) \
            or (want == ST.OVERHEAD.off and not (on_magic or on_missiles)):
        return ST.OVERHEAD.keep
    return want if legal[MASK_START.overhead + want] else ST.OVERHEAD.keep


@njit(cache=True)
def _restore_amount(cfg, s, supply):
    """Points one dose restores (prayer potion: first effect's constant + percent of the base level)."""
    row = cfg.consumables[cfg.supply_consumable[s.tier, supply]]
    return row[COL_EFFECTS + 2] + s.p.base_levels[PRAYER] * row[COL_EFFECTS + 3] // 100


@njit(cache=True)
def choose_supplies(s, cfg, legal, want_set, threatened, ready):
    """(eat, drink) options for this tick; ``threatened``: a snakeling is about to strike; ``ready``:
    the player attacks this tick."""
    p = s.p
    hp, base = p.levels[HITPOINTS], p.base_levels[HITPOINTS]
    food = cfg.consumables[cfg.supply_consumable[s.tier, ST.SUP_FOOD]]
    fits = hp + heal_amount(food, base) <= base
    free = p.attack_timer + food[COL_ATTACK_DELAY] <= 0 or not M.zulrah_targetable(s, cfg)   # no attack lost
    # eating delays the attack 3 ticks (core.consumables): with a snakeling closing in and the attack
    # ready, a bite that is not critical would let it strike again, so the attack goes first
    urgent = hp <= CRITICAL_HP or (hp <= EAT_AT and not (ready and threatened))
    # tanzanite's ranged shots cannot be prayed: top up for them when no snakeling needs the attack
    tanzanite = next_attack(s, cfg) == RT.ACT_TANZANITE and hp <= TANZANITE_EAT_AT and not threatened
    want = urgent or (fits and (free or tanzanite))
    eat = ST.EAT.eat if want and legal[MASK_START.eat + ST.EAT.eat] else ST.EAT.no
    off = MASK_START.drink
    healthy = hp >= DRINK_SAFE_HP * base and eat == ST.EAT.no
    quiet = _ticks_to_attack(s, cfg) > 3
    prayer = p.levels[PRAYER]
    if prayer < PRAYER_URGENT and legal[off + ST.DRINK.prayer]:
        return eat, ST.DRINK.prayer
    if not (healthy or quiet):
        return eat, ST.DRINK.none
    if p.venom != 0 and legal[off + ST.DRINK.antivenom]:
        return eat, ST.DRINK.antivenom
    if prayer <= p.base_levels[PRAYER] - _restore_amount(cfg, s, ST.SUP_PRAYER) and legal[off + ST.DRINK.prayer]:
        return eat, ST.DRINK.prayer
    ranged_planned = want_set == ST.SET_RANGED or want_set == ST.SET_SPEC
    if ranged_planned and p.levels[RANGED] - p.base_levels[RANGED] < BOOST_AGAIN \
            and legal[off + ST.DRINK.ranged_boost]:
        return eat, ST.DRINK.ranged_boost
    if want_set == ST.SET_MAGIC and p.levels[MAGIC] - p.base_levels[MAGIC] < MAGIC_BOOST_AGAIN \
            and legal[off + ST.DRINK.magic_boost]:
        return eat, ST.DRINK.magic_boost
    return eat, ST.DRINK.none


# ---- the decision ------------------------------------------------------------------------------------
@njit(cache=True)
def decide(s, cfg, legal_rows, scratch, dist, queue, out):
    """Write the solver's action row for state ``s`` into ``out`` (every option legal under the mask)."""
    out[:] = 0
    legal_actions(s, cfg, legal_rows)
    legal = legal_rows[0]
    rot, ph = planned_phase(s, cfg)
    form = cfg.phase_form[rot, ph]
    want_set = best_set(s, cfg, form, scratch)
    if want_set != s.set:
        out[ST.HEAD.gear] = ST.GEAR_SET + want_set
    gx, gy = choose_tile(s, cfg, rot, ph, want_set)
    move = choose_move(s, cfg, legal, gx, gy, dist, queue)
    out[ST.HEAD.move] = move
    x = s.p.x + cfg.move_dx[move, 0] + cfg.move_dx[move, 1]
    y = s.p.y + cfg.move_dy[move, 0] + cfg.move_dy[move, 1]
    over = choose_overhead(s, cfg, legal)
    out[ST.HEAD.overhead] = over
    magic_prayed = over == ST.OVERHEAD.magic or (over == ST.OVERHEAD.keep and M.has_prayer(s.p, P.PROTECT_FROM_MAGIC))
    target = choose_target(s, cfg, legal, x, y, want_set, magic_prayed)
    out[ST.HEAD.attack] = target
    every = np.uint32(cfg.set_offensive_all[s.tier])
    on = (np.uint32(s.p.active_prayers) & every) != 0
    if target != ST.ATTACK_NONE and legal[MASK_START.offensive + ST.OFFENSIVE.on]:
        out[ST.HEAD.offensive] = ST.OFFENSIVE.on
    elif target == ST.ATTACK_NONE and on:
        out[ST.HEAD.offensive] = ST.OFFENSIVE.off
    threatened = False
    for k in range(ST.SNAKELING_SLOTS):
        threatened |= s.snakelings[k].active != 0 and _threatens(s.snakelings[k], x, y, magic_prayed)
    eat, drink = choose_supplies(s, cfg, legal, want_set, threatened, target != ST.ATTACK_NONE)
    out[ST.HEAD.eat] = eat
    out[ST.HEAD.drink] = drink
    if target == ST.ATTACK_ZULRAH and want_set == s.set and legal[MASK_START.spec + ST.SPEC.special]:
        out[ST.HEAD.spec] = ST.SPEC.special


@njit(cache=True)
def solver_actions(states, configs, out):
    """The solver's actions for every env: ``out`` is int64 [envs, heads] (``env.step``'s shape)."""
    cfg = configs[0]
    legal_rows = np.zeros((1, ST.MASK_SIZE), dtype=np.bool_)
    scratch = np.zeros(1, dtype=COMBATANT_DTYPE)
    dist = np.zeros((RT.GRID_W, RT.GRID_H), dtype=np.int16)
    queue = np.zeros(RT.GRID_W * RT.GRID_H, dtype=np.int64)
    for i in range(states.shape[0]):
        decide(states[i], cfg, legal_rows, scratch, dist, queue, out[i])
