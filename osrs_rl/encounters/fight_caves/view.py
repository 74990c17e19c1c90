"""What the player sees and may do in the Fight Cave: observation, action mask, end-of-run metrics, the archive's
cell of a state.

Segments: ``self`` (hitpoints, prayer, run energy, timers, prayers on, supplies left, the stored click, where in
the cave), ``monsters`` (one row per slot, shared layout: alive, kind one-hot, position relative to the player,
hitpoints, size, attack timer, stun, whether it sees the player, whether the player can shoot it, melee contact,
TzTok-Jad's shown style and the ticks to its release, a Yt-HurKot healing or fighting), ``incoming`` (hits in
flight on the player by style and the tick they land: the projectiles one sees, never their damage;
core.wave_hits), ``wave`` (wave / 63, the gap to the next, monsters left, ticks into the wave) and ``local`` (the
walkable tiles of the 7x7 around the player: the cave's rock and lava are irregular).
"""

import numpy as np
from numba import njit

from osrs_rl.core import click_move as CM
from osrs_rl.core import jad as JAD
from osrs_rl.core import player_input as PI
from osrs_rl.core import prayers as P
from osrs_rl.core import wave_hits as WH
from osrs_rl.core.energy import RUN_MIN_TO_RUN
from osrs_rl.core.pending_hits import STYLE_MAGIC, STYLE_RANGED
from osrs_rl.core.skills import DEFENCE, HITPOINTS, PRAYER, RANGED
from osrs_rl.runtime.action_layout import head_bounds
from osrs_rl.runtime.obs_layout import family_start, feature_index, segment_bounds
from osrs_rl.runtime.spec import MetricFamily, MetricRecord, ObsSegment

from . import arena as A
from . import monsters as MON
from . import player as PLY
from . import spawns as SPN
from . import state as ST
from . import waves as W

MAX_LEVEL = 99.0
RUN_SCALE = 10000.0
TIMER_SCALE = 8.0            # TzTok-Jad's attack speed, the longest timer a monster shows
DOSE_SCALE = 72.0            # the realistic kit's restores, the most doses of one supply a default kit carries
REL_SCALE = 30.0
DEST_SCALE = float(CM.MOVE_RADIUS)
SIZE_SCALE = float(ST.MAX_KIND_SIZE)
INCOMING_TICKS = 4           # hits landing within the next 4 ticks
INCOMING_SCALE = 4.0
WAVE_TIME_SCALE = 1000.0
LOCAL_RADIUS = 3             # the 7x7 around the player

_KINDS = tuple("is_" + n for n in ST.KIND_NAMES)
_STYLES = ("melee", "ranged", "magic", "typeless")                        # core.pending_hits STYLE_*
# tile (dx, dy) from the player: tile_w3_s3 .. tile_e0_n0 .. tile_e3_n3 (west/east, south/north)
_LOCAL = tuple(f"tile_{'w' if dx < 0 else 'e'}{abs(dx)}_{'s' if dy < 0 else 'n'}{abs(dy)}"
               for dx in range(-LOCAL_RADIUS, LOCAL_RADIUS + 1) for dy in range(-LOCAL_RADIUS, LOCAL_RADIUS + 1))
SELF_NAMES = ("hp_frac", "prayer", "run_energy", "running", "x", "y", "attack_timer", "potion_timer",
              "protect_melee", "protect_missiles", "protect_magic", "rigour", "ranged", "defence", "brews",
              "restores", "time", "dest_set", "dest_dx", "dest_dy", "dest_run")
MONSTER_NAMES = ("alive", *_KINDS, "dx", "dy", "hp_frac", "size", "attack_timer", "stunned", "sees_me",
                 "attackable", "in_contact", "scan_ranged", "scan_magic", "windup", "healing", "fighting")
INCOMING_NAMES = tuple(f"{st}_in_{t}" for st in _STYLES for t in range(INCOMING_TICKS))    # style-major
WAVE_NAMES = ("wave", "next_wave_in", "monsters_left", "wave_time")
LOCAL_NAMES = _LOCAL
OBS_SEGMENTS = (
    ObsSegment("self", len(SELF_NAMES), 1, SELF_NAMES),
    ObsSegment("monsters", len(MONSTER_NAMES), ST.MONSTER_SLOTS, MONSTER_NAMES),
    ObsSegment("incoming", len(INCOMING_NAMES), 1, INCOMING_NAMES),
    ObsSegment("wave", len(WAVE_NAMES), 1, WAVE_NAMES),
    ObsSegment("local", len(LOCAL_NAMES), 1, LOCAL_NAMES),
)
SELF = feature_index("SELF", SELF_NAMES)
MONSTER = feature_index("MONSTER", MONSTER_NAMES)
INCOMING = feature_index("INCOMING", INCOMING_NAMES)
WAVE = feature_index("WAVE", WAVE_NAMES)
LOCAL = feature_index("LOCAL", LOCAL_NAMES)
START, STOP = segment_bounds(OBS_SEGMENTS)
MONSTER_FEATURES = len(MONSTER_NAMES)
KIND_0 = family_start(MONSTER, _KINDS, ST.NUM_KINDS)
INCOMING_0 = family_start(INCOMING, INCOMING_NAMES, 4 * INCOMING_TICKS)   # [style * INCOMING_TICKS + tick]
LOCAL_0 = family_start(LOCAL, _LOCAL, (2 * LOCAL_RADIUS + 1) ** 2)      # [(dx + r) * side + dy + r]
MASK_START, MASK_STOP = head_bounds(ST.HEADS)

# the episode metrics, in the order logs list them; `metrics` writes each by name, a family's element k in a loop
# over the constant its names come from
METRICS = MetricRecord(
    "jad_killed", "died", "timed_out", "ticks", "final_wave", "waves_cleared", "start_wave", "damage_dealt",
    "damage_taken", MetricFamily("taken_by_kind", tuple("taken_" + n for n in ST.KIND_NAMES)),
    MetricFamily("taken_by_style", tuple("taken_" + n for n in _STYLES)),
    "monster_attacks", "prayed_attacks", "correct_prayer_rate", "prayer_drained",
    MetricFamily("supplies_used", tuple(n + "s_used" for n in ST.SUPPLY_NAMES)),
    MetricFamily("killed_by_kind", tuple("killed_" + n for n in ST.KIND_NAMES)),
    "healers_tagged", "healed", "killer", "ticks_per_wave",
    MetricFamily("reward_sums", tuple("reward_" + t for t in ST.REWARD_TERMS)),
)
CATEGORY_METRICS = ("killer",)
PHASE_NAMES = ST.PHASE_NAMES


# ---- observation ---------------------------------------------------------------------------------
@njit(cache=True)
def _observe_self(s, cfg, o):
    p = s.p
    o[SELF.hp_frac] = p.levels[HITPOINTS] / max(p.base_levels[HITPOINTS], 1)
    o[SELF.prayer] = p.levels[PRAYER] / MAX_LEVEL
    o[SELF.run_energy] = p.run_energy / RUN_SCALE
    o[SELF.running] = 1.0 if p.run_energy >= RUN_MIN_TO_RUN else 0.0
    o[SELF.x] = p.x / A.GRID_W
    o[SELF.y] = p.y / A.GRID_H
    o[SELF.attack_timer] = max(p.attack_timer, 0) / TIMER_SCALE
    o[SELF.potion_timer] = max(p.potion_timer, 0) / TIMER_SCALE
    o[SELF.protect_melee] = 1.0 if PI.has_prayer(p, P.PROTECT_FROM_MELEE) else 0.0
    o[SELF.protect_missiles] = 1.0 if PI.has_prayer(p, P.PROTECT_FROM_MISSILES) else 0.0
    o[SELF.protect_magic] = 1.0 if PI.has_prayer(p, P.PROTECT_FROM_MAGIC) else 0.0
    o[SELF.rigour] = 1.0 if (np.uint32(p.active_prayers) & np.uint32(cfg.offensive)) != 0 else 0.0
    o[SELF.ranged] = p.levels[RANGED] / MAX_LEVEL
    o[SELF.defence] = p.levels[DEFENCE] / MAX_LEVEL
    o[SELF.brews] = s.supplies[ST.SUP_BREW] / DOSE_SCALE
    o[SELF.restores] = s.supplies[ST.SUP_RESTORE] / DOSE_SCALE
    o[SELF.time] = s.tick / cfg.max_ticks
    o[SELF.dest_set] = 1.0 if s.dest_x >= 0 else 0.0
    o[SELF.dest_dx] = (s.dest_x - p.x) / DEST_SCALE if s.dest_x >= 0 else 0.0
    o[SELF.dest_dy] = (s.dest_y - p.y) / DEST_SCALE if s.dest_x >= 0 else 0.0
    o[SELF.dest_run] = 1.0 if s.dest_x >= 0 and s.dest_run else 0.0


@njit(cache=True)
def _observe_monsters(s, cfg, o):
    p = s.p
    for k in range(ST.MONSTER_SLOTS):
        m = s.monsters[k]
        b = k * MONSTER_FEATURES       # the slot's row, written at offsets (a slice per slot is slower)
        for j in range(MONSTER_FEATURES):
            o[b + j] = 0.0
        if m.state != ST.SLOT_ALIVE:
            continue
        o[b + MONSTER.alive] = 1.0
        o[b + KIND_0 + m.kind] = 1.0
        o[b + MONSTER.dx] = (m.x - p.x) / REL_SCALE
        o[b + MONSTER.dy] = (m.y - p.y) / REL_SCALE
        o[b + MONSTER.hp_frac] = m.hp / max(cfg.kind_row[m.kind].hitpoints, 1)
        o[b + MONSTER.size] = cfg.kind_size[m.kind] / SIZE_SCALE
        o[b + MONSTER.attack_timer] = max(m.attack_timer, 0) / TIMER_SCALE
        o[b + MONSTER.stunned] = 1.0 if m.stun > 0 else 0.0
        o[b + MONSTER.sees_me] = 1.0 if MON.sees_player(s, cfg, k) else 0.0
        o[b + MONSTER.attackable] = 1.0 if PLY.can_attack(s, cfg, k) else 0.0
        o[b + MONSTER.in_contact] = 1.0 if MON.in_contact(s, cfg, k) else 0.0
        o[b + MONSTER.scan_ranged] = 1.0 if m.scan == STYLE_RANGED else 0.0
        o[b + MONSTER.scan_magic] = 1.0 if m.scan == STYLE_MAGIC else 0.0
        o[b + MONSTER.windup] = m.windup / JAD.TELL_TICKS
        o[b + MONSTER.healing] = 1.0 if m.target >= 0 else 0.0
        o[b + MONSTER.fighting] = 1.0 if m.kind == ST.K_HURKOT and m.target < 0 else 0.0


@njit(cache=True)
def _observe_wave(s, o):
    o[WAVE.wave] = s.wave / W.NUM_WAVES
    o[WAVE.next_wave_in] = s.next_wave_in / W.WAVE_GAP_TICKS
    o[WAVE.monsters_left] = SPN.wave_left(s) / ST.MONSTER_SLOTS
    o[WAVE.wave_time] = min(s.wave_tick / WAVE_TIME_SCALE, 1.0)


@njit(cache=True)
def _observe_local(s, cfg, o):
    side = 2 * LOCAL_RADIUS + 1
    for i in range(side):
        for j in range(side):
            o[LOCAL_0 + i * side + j] = 1.0 if CM.walkable(cfg.flags, s.p.x + i - LOCAL_RADIUS,
                                                          s.p.y + j - LOCAL_RADIUS) else 0.0


@njit(cache=True)
def observe(s, cfg, obs):
    o = obs[0]
    _observe_self(s, cfg, o[START.self:STOP.self])
    _observe_monsters(s, cfg, o[START.monsters:STOP.monsters])
    WH.incoming(s.hits, s.tick, ST.HT_PLAYER, o[START.incoming + INCOMING_0:START.incoming + INCOMING_0
                                                 + 4 * INCOMING_TICKS], INCOMING_TICKS, INCOMING_SCALE)
    _observe_wave(s, o[START.wave:STOP.wave])
    _observe_local(s, cfg, o[START.local:STOP.local])


# ---- mask ----------------------------------------------------------------------------------------
@njit(cache=True)
def mask(s, cfg, m):
    row = m[0]
    p = s.p
    # move: a click on a walkable tile within MOVE_RADIUS; running needs energy (core.click_move)
    CM.move_mask(s, cfg, row[MASK_START.move:MASK_STOP.move])
    # attack: a living monster in range and sight of the weapon, timer ready
    at = row[MASK_START.attack:MASK_STOP.attack]
    at[ST.ATTACK_NONE] = True
    for j in range(ST.MONSTER_SLOTS):
        at[ST.ATTACK_SLOT_0 + j] = PLY.can_attack(s, cfg, j)
    # the prayers held this tick: none always, a prayer with points (core.player_input hold_overhead)
    PI.held_overhead_mask(p, row[MASK_START.overhead:MASK_STOP.overhead], ST.OVERHEAD.none, ST.OVERHEAD.magic,
                          ST.OVERHEAD.missiles, ST.OVERHEAD.melee)
    row[MASK_START.offensive + ST.OFFENSIVE.off] = True
    row[MASK_START.offensive + ST.OFFENSIVE.on] = p.levels[PRAYER] > 0
    # drink: a dose left and the potion timer ready; a restore only with prayer or a stat to restore
    ready = p.potion_timer <= 0
    dr = row[MASK_START.drink:MASK_STOP.drink]
    dr[ST.DRINK.none] = True
    dr[ST.DRINK.brew] = ready and s.supplies[ST.SUP_BREW] > 0
    drained = p.levels[PRAYER] < p.base_levels[PRAYER] or p.levels[RANGED] < p.base_levels[RANGED]
    dr[ST.DRINK.restore] = ready and s.supplies[ST.SUP_RESTORE] > 0 and drained


# ---- metrics, phases, cells ------------------------------------------------------------------------
@njit(cache=True)
def phase_of(s):
    """The band of the wave the run is on (state.PHASE_NAMES), deepest last; the waves only go up."""
    b = 0
    for i in range(ST.NUM_BANDS):
        if s.wave >= ST.BANDS[i][0]:
            b = i
    return np.int64(b)


@njit(cache=True)
def metrics(s, cfg, out):
    out.jad_killed = 1.0 if s.outcome == ST.OUTCOME_CLEARED else 0.0
    out.died = 1.0 if s.outcome == ST.OUTCOME_DEATH else 0.0
    out.timed_out = 1.0 if s.outcome == ST.OUTCOME_TIMEOUT else 0.0
    out.ticks = s.tick
    out.final_wave = s.wave
    out.waves_cleared = s.waves_cleared
    out.start_wave = s.start_wave_drawn
    out.damage_dealt = s.damage_dealt
    total = 0
    for k in range(ST.NUM_KINDS):
        total += s.damage_taken[k]
        out.taken_by_kind[k] = s.damage_taken[k]
        out.killed_by_kind[k] = s.kills[k]
    out.damage_taken = total
    for k in range(4):
        out.taken_by_style[k] = s.taken_style[k]
    out.monster_attacks = s.monster_attacks
    out.prayed_attacks = s.prayed_attacks
    out.correct_prayer_rate = s.prayed_attacks / s.monster_attacks if s.monster_attacks > 0 else 0.0
    out.prayer_drained = s.prayer_drained
    for k in range(ST.NUM_SUPPLIES):
        out.supplies_used[k] = s.supplies_used[k]
    out.healers_tagged = s.healers_tagged
    out.healed = s.healed
    out.killer = s.killer + 1
    out.ticks_per_wave = s.tick / s.waves_cleared if s.waves_cleared > 0 else float(s.tick)
    for r in range(ST.NUM_REWARD_TERMS):
        out.reward_sums[r] = s.reward_sums[0, r]
    return phase_of(s)


@njit(cache=True)
def _quarter(now, full):
    return (4 * max(now, 0)) // max(full, 1)


@njit(cache=True)
def cell_key(s, cfg):
    """Archive cell (``osrs_rl.explore``): a situation, not a tick: the wave, monsters left, the player's
    hitpoints and prayer in quarters, the potion doses left in quarters of the start's."""
    p = s.p
    doses = _quarter(s.supplies[ST.SUP_BREW] + s.supplies[ST.SUP_RESTORE],
                     cfg.supply_start[ST.SUP_BREW] + cfg.supply_start[ST.SUP_RESTORE])
    key = np.int64(s.wave)
    key = key * (ST.MONSTER_SLOTS + 1) + SPN.wave_left(s)
    key = key * 5 + _quarter(p.levels[HITPOINTS], p.base_levels[HITPOINTS])
    key = key * 5 + _quarter(p.levels[PRAYER], p.base_levels[PRAYER])
    return key * 5 + doses


@njit(cache=True)
def progress(s, cfg):
    """How far a run has got: the wave (+0.9 once cleared, else 0.5 x the share of its monsters dead; Jad's share
    of his hitpoints taken on the last wave), 64 for the cave done; hitpoints, prayer and doses left break ties."""
    if s.outcome == ST.OUTCOME_CLEARED:
        return 64.0
    if s.next_wave_in > 0:
        base = s.wave + 0.9
    elif s.wave >= W.NUM_WAVES:
        jad = 0.0
        for k in range(ST.MONSTER_SLOTS):
            m = s.monsters[k]
            if m.state == ST.SLOT_ALIVE and m.kind == ST.K_JAD:
                jad = 1.0 - m.hp / cfg.kind_row[ST.K_JAD].hitpoints
        base = s.wave + 0.9 * jad
    else:
        size = max(cfg.wave_size[s.wave], 1)
        base = s.wave + 0.5 * max(size - SPN.wave_left(s), 0) / size
    p = s.p
    hp = max(p.levels[HITPOINTS], 0) / max(p.base_levels[HITPOINTS], 1)
    pray = max(p.levels[PRAYER], 0) / max(p.base_levels[PRAYER], 1)
    start = cfg.supply_start[ST.SUP_BREW] + cfg.supply_start[ST.SUP_RESTORE]
    doses = (s.supplies[ST.SUP_BREW] + s.supplies[ST.SUP_RESTORE]) / start if start > 0 else 1.0
    return base + 0.04 * min(hp, 1.0) + 0.03 * min(pray, 1.0) + 0.02 * min(doses, 1.0)
