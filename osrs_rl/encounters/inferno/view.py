"""What the player sees and may do in the Inferno: observation, action mask, end-of-run metrics.

Segments: ``self`` (own state, supplies, the gear set worn, special energy), ``monsters`` (one row per slot,
shared layout: alive, kind one-hot, position relative to the player, hitpoints, size, attack timer, stun,
whether it sees the player, whether the player can shoot it, a blob's scanned style), ``pillars`` (standing,
hitpoints, relative position), ``incoming`` (hits in flight on the player by style and the tick they land:
the projectiles one sees, never their damage), ``wave`` (wave number, the gap to the next, monsters left),
``scaffolding`` (derived knowledge, zero unless the ``scaffolding`` setting is on: per style, the ticks
until the next monster with sight of the player may attack with it) and ``zuk`` (zero before wave 69: the set
timer, Zuk's rage and Jad, the glyph's shelter, direction and pause, lava sparks about to land around the
player). Monsters also show a Jad's tell (its style in the scan features, the ticks to release), whether a
healer heals and whether a monster is on the glyph; ``incoming`` counts typeless hits (Zuk's) too.
"""

import numpy as np
from numba import njit

from osrs_rl.core import click_move as CM
from osrs_rl.core import jad as JAD
from osrs_rl.core import player_input as PI
from osrs_rl.core import prayers as P
from osrs_rl.core import wave_hits as WH
from osrs_rl.core.collision import BLOCKED
from osrs_rl.core.energy import RUN_MIN_TO_RUN
from osrs_rl.core.pending_hits import STYLE_MAGIC, STYLE_RANGED
from osrs_rl.core.player import SPEC_MAX
from osrs_rl.core.skills import DEFENCE, HITPOINTS, PRAYER, RANGED
from osrs_rl.runtime.action_layout import head_bounds
from osrs_rl.runtime.obs_layout import family_start, feature_index, segment_bounds
from osrs_rl.runtime.spec import MetricFamily, MetricRecord, ObsSegment

from . import arena as A
from . import finale as FIN
from . import monsters as MON
from . import pillars as PIL
from . import player as PLY
from . import spawns as SPN
from . import state as ST
from . import waves as W

MAX_LEVEL = 99.0
RUN_SCALE = 10000.0
TIMER_SCALE = 6.0
DOSE_SCALE = 32.0
REL_SCALE = 30.0             # the arena's side
DEST_SCALE = float(ST.ROUTE_RADIUS)   # the furthest a stored destination gets from the player
SIZE_SCALE = float(ST.MAX_KIND_SIZE)
INCOMING_TICKS = 4           # hits landing within the next 4 ticks
INCOMING_SCALE = 4.0
WAVE_TIME_SCALE = 1000.0
NO_ATTACK = 10.0             # scaffolding: "no monster with sight threatens this style"

SAFE_DIRS = ((0, 0), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
DIR_NAMES = ("here", "n", "ne", "e", "se", "s", "sw", "w", "nw")           # of SAFE_DIRS
SPARK_TICKS = 2
SET_TIMER_SCALE = 350.0

# The observation's segments and their features, in the order the flat vector holds them (spec.py declares
# OBS_SEGMENTS). The kernels write each feature by its name (o[SELF.prayer], a monster's o[b + MONSTER.dx]) into
# its segment's slice (o[START.self:STOP.self]); a family written in a loop (one per set, kind, activity, hit
# style and tick, direction) counts from its first name's position, checked consecutive below.
_WEARING = tuple("wearing_" + n for n in ST.SET_NAMES)                    # by gear set
_KINDS = tuple("is_" + n for n in ST.KIND_NAMES)                          # by monster kind
_ACTIVITIES = ST.ACTIVITY_NAMES[1:]                                       # by activity; ACT_NONE shows nothing
_STYLES = ("melee", "ranged", "magic")                                    # by hit style (core.pending_hits)
_NEXT = tuple("next_" + st for st in _STYLES)
_ATTACKS_IN = tuple(f"{st}_attacks_in_{t}" for st in _STYLES for t in range(INCOMING_TICKS))   # style-major
_SAFE = tuple("safe_" + d for d in DIR_NAMES)                             # by SAFE_DIRS
_SPARKS = tuple("spark_" + d for d in DIR_NAMES)
SELF_NAMES = ("hp_frac", "prayer", "run_energy", "running", "x", "y", "attack_timer", "potion_timer",
              "protect_melee", "protect_missiles", "protect_magic", "rigour", "ranged", "defence", "brews",
              "restores", "time", "bastions", "staminas", "stamina_active", "augury", "spec_energy", "can_spec",
              *_WEARING, "dest_set", "dest_dx", "dest_dy", "dest_run")
MONSTER_NAMES = ("alive", *_KINDS, "dx", "dy", "hp_frac", "size", "attack_timer",
                 "stunned", "sees_me", "attackable", "scan_ranged", "scan_magic",
                 *_ACTIVITIES, "frozen", "revived", "heals", "on_glyph", "windup")
PILLAR_NAMES = ("standing", "hp", "dx", "dy")
INCOMING_NAMES = tuple(f"{st}_in_{t}" for st in (*_STYLES, "typeless") for t in range(INCOMING_TICKS))  # style-major
WAVE_NAMES = ("wave", "next_wave_in", "monsters_left", "wave_time")
SCAFFOLDING_NAMES = ("enabled", *_NEXT, *_ATTACKS_IN, "seen_by", *_SAFE)
# the Zuk wave: the set timer, Zuk's rage, the glyph (where the player stands from its shelter, its
# direction and pause) and where lava sparks land in the next SPARK_TICKS ticks (the player's tile and the 8
# around it: the sparks are seen in the air)
ZUK_NAMES = ("zuk_wave", "set_timer", "set_paused", "enraged", "jad_called", "sheltered", "shelter_dx",
             "glyph_dir", "glyph_pause", *_SPARKS)
SELF_FEATURES, MONSTER_FEATURES, PILLAR_FEATURES = len(SELF_NAMES), len(MONSTER_NAMES), len(PILLAR_NAMES)
INCOMING_FEATURES, WAVE_FEATURES, SCAFFOLDING_FEATURES = len(INCOMING_NAMES), len(WAVE_NAMES), len(SCAFFOLDING_NAMES)
ZUK_FEATURES = len(ZUK_NAMES)
OBS_SEGMENTS = (
    ObsSegment("self", SELF_FEATURES, 1, SELF_NAMES),
    ObsSegment("monsters", MONSTER_FEATURES, ST.MONSTER_SLOTS, MONSTER_NAMES),
    ObsSegment("pillars", PILLAR_FEATURES, A.NUM_PILLARS, PILLAR_NAMES),
    ObsSegment("incoming", INCOMING_FEATURES, 1, INCOMING_NAMES),
    ObsSegment("wave", WAVE_FEATURES, 1, WAVE_NAMES),
    ObsSegment("scaffolding", SCAFFOLDING_FEATURES, 1, SCAFFOLDING_NAMES),   # derived knowledge, off by default
    ObsSegment("zuk", ZUK_FEATURES, 1, ZUK_NAMES),                           # the Zuk wave (zeros before it)
)
SELF = feature_index("SELF", SELF_NAMES)
MONSTER = feature_index("MONSTER", MONSTER_NAMES)
PILLAR = feature_index("PILLAR", PILLAR_NAMES)
INCOMING = feature_index("INCOMING", INCOMING_NAMES)
WAVE = feature_index("WAVE", WAVE_NAMES)
SCAFFOLDING = feature_index("SCAFFOLDING", SCAFFOLDING_NAMES)
ZUK = feature_index("ZUK", ZUK_NAMES)
START, STOP = segment_bounds(OBS_SEGMENTS)
WEARING_0 = family_start(SELF, _WEARING, ST.NUM_SETS)
KIND_0 = family_start(MONSTER, _KINDS, ST.NUM_KINDS)
ACTIVITY_1 = family_start(MONSTER, _ACTIVITIES, ST.NUM_ACTIVITIES - 1)     # activity 1's: ACT_NONE has none
INCOMING_0 = family_start(INCOMING, INCOMING_NAMES, 4 * INCOMING_TICKS)    # [style * INCOMING_TICKS + tick]
NEXT_0 = family_start(SCAFFOLDING, _NEXT, 3)
ATTACKS_IN_0 = family_start(SCAFFOLDING, _ATTACKS_IN, 3 * INCOMING_TICKS)  # [style * INCOMING_TICKS + tick]
SAFE_0 = family_start(SCAFFOLDING, _SAFE, len(SAFE_DIRS))
SPARK_0 = family_start(ZUK, _SPARKS, len(SAFE_DIRS))
# where each action head's options lie in the flat mask: `mask` writes an option at its head's start plus the
# option's number (the solver reads them there: MASK_START.drink + ST.DRINK.brew), both from state.HEADS
MASK_START, MASK_STOP = head_bounds(ST.HEADS)

# monster kinds the tallies name (every kind but the glyph)
TALLY_KINDS = (ST.K_NIBBLER, ST.K_BAT, ST.K_BLOB, ST.K_BLOBLET_MAGIC, ST.K_BLOBLET_RANGED, ST.K_BLOBLET_MELEE,
               ST.K_MELEER, ST.K_RANGER, ST.K_MAGER, ST.K_JAD, ST.K_JAD_HEALER, ST.K_ZUK, ST.K_ZUK_HEALER)
# the episode metrics, in the order logs list them; `metrics` writes each by name, a family's element k in a loop
# over the same constant its names come from (TALLY_KINDS, the pillars, the hit styles, the reward terms)
METRICS = MetricRecord(
    "cleared", "died", "timed_out", "ticks", "final_wave", "waves_cleared", "damage_dealt", "damage_taken",
    MetricFamily("taken_by_kind", tuple("taken_" + ST.KIND_NAMES[k] for k in TALLY_KINDS)), "monster_attacks",
    "correct_prayer_rate", "brews_used", "restores_used", "bastions_used", "staminas_used",
    MetricFamily("killed_by_kind", tuple("killed_" + ST.KIND_NAMES[k] for k in TALLY_KINDS)), "pillars_standing",
    "pillar_damage", MetricFamily("pillar_hp", tuple(f"pillar_hp_{n}" for n in A.PILLAR_NAMES)),
    MetricFamily("taken_by_style", ("taken_melee", "taken_ranged", "taken_magic", "taken_typeless")),
    "collapse_damage", "resurrections", "digs", "start_wave", "ticks_per_wave",
    "specs_used", "spec_healed", "freezes", "barrage_hits",
    MetricFamily("reward_sums", tuple("reward_" + t for t in ST.REWARD_TERMS)),
    # the finale: low watermarks (Zuk's lowest hitpoints, 0 on a kill, 1200 where he was never reached), the
    # deepest phase (state.PH_*), healers, the glyph, who dealt the killing blow (kind + 1, 0: none)
    "reached_zuk", "zuk_lowest_hp", "player_lowest_hp", "deepest_phase", "sets_spawned", "healers_tagged",
    "healers_killed", "healing_ticks", "healed", "glyph_hp", "sheltered_attacks", "zuk_attacks", "killer",
    "no_target_ticks", "no_prayer_ticks", "zuk_start_hp", "sheltered_ticks",
)
CATEGORY_METRICS = ("deepest_phase", "killer")
# the phase the run ended in (metrics per phase): finale.phase_of
PHASE_NAMES = ST.PHASE_NAMES


# ---- observation ---------------------------------------------------------------------------------
@njit(cache=True)
def _observe_self(s, cfg, o):
    p = s.p
    o[SELF.hp_frac] = p.levels[HITPOINTS] / max(p.base_levels[HITPOINTS], 1)
    o[SELF.prayer] = p.levels[PRAYER] / MAX_LEVEL
    o[SELF.run_energy] = p.run_energy / RUN_SCALE
    o[SELF.running] = 1.0 if p.run_energy >= RUN_MIN_TO_RUN else 0.0
    o[SELF.x] = p.x / REL_SCALE
    o[SELF.y] = p.y / REL_SCALE
    o[SELF.attack_timer] = max(p.attack_timer, 0) / TIMER_SCALE
    o[SELF.potion_timer] = max(p.potion_timer, 0) / TIMER_SCALE
    o[SELF.protect_melee] = 1.0 if PI.has_prayer(p, P.PROTECT_FROM_MELEE) else 0.0
    o[SELF.protect_missiles] = 1.0 if PI.has_prayer(p, P.PROTECT_FROM_MISSILES) else 0.0
    o[SELF.protect_magic] = 1.0 if PI.has_prayer(p, P.PROTECT_FROM_MAGIC) else 0.0
    o[SELF.rigour] = 1.0 if PI.has_prayer(p, P.RIGOUR) else 0.0
    o[SELF.ranged] = p.levels[RANGED] / MAX_LEVEL
    o[SELF.defence] = p.levels[DEFENCE] / MAX_LEVEL
    o[SELF.brews] = s.supplies[ST.SUP_BREW] / DOSE_SCALE
    o[SELF.restores] = s.supplies[ST.SUP_RESTORE] / DOSE_SCALE
    o[SELF.time] = s.tick / cfg.max_ticks
    o[SELF.bastions] = s.supplies[ST.SUP_BASTION] / DOSE_SCALE
    o[SELF.staminas] = s.supplies[ST.SUP_STAMINA] / DOSE_SCALE
    o[SELF.stamina_active] = 1.0 if p.stamina_ticks > 0 else 0.0
    o[SELF.augury] = 1.0 if PI.has_prayer(p, P.AUGURY) else 0.0
    o[SELF.spec_energy] = p.spec_energy / SPEC_MAX
    o[SELF.can_spec] = 1.0 if PLY.can_special(s, cfg) else 0.0
    for g in range(ST.NUM_SETS):
        o[WEARING_0 + g] = 1.0 if s.gear_set == g else 0.0
    # the stored click (the tile being walked to), relative to the player
    o[SELF.dest_set] = 1.0 if s.dest_x >= 0 else 0.0
    o[SELF.dest_dx] = (s.dest_x - p.x) / DEST_SCALE if s.dest_x >= 0 else 0.0
    o[SELF.dest_dy] = (s.dest_y - p.y) / DEST_SCALE if s.dest_x >= 0 else 0.0
    o[SELF.dest_run] = 1.0 if s.dest_x >= 0 and s.dest_run else 0.0


@njit(cache=True)
def _observe_monsters(s, cfg, o):
    p = s.p
    for k in range(ST.MONSTER_SLOTS):
        m = s.monsters[k]
        # the slot's row starts at b: written at b + a member, not through a slice of it per slot (a slice in
        # this loop made the whole observe twice as slow)
        b = k * MONSTER_FEATURES
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
        o[b + MONSTER.scan_ranged] = 1.0 if m.scan == STYLE_RANGED else 0.0
        o[b + MONSTER.scan_magic] = 1.0 if m.scan == STYLE_MAGIC else 0.0
        # what it visibly does: its last animation while its timer runs (attack, scan, resurrection), the dig
        if m.dig_left > 0:
            o[b + ACTIVITY_1 + ST.ACT_DIG - 1] = 1.0
        elif m.activity != ST.ACT_NONE:
            o[b + ACTIVITY_1 + m.activity - 1] = 1.0
        o[b + MONSTER.frozen] = 1.0 if m.frozen > 0 else 0.0
        o[b + MONSTER.revived] = 1.0 if m.revived else 0.0
        o[b + MONSTER.heals] = 1.0 if m.target >= ST.TARGET_SLOT else 0.0
        o[b + MONSTER.on_glyph] = 1.0 if m.target == ST.TARGET_SHIELD else 0.0
        o[b + MONSTER.windup] = m.windup / JAD.TELL_TICKS


@njit(cache=True)
def _observe_pillars(s, cfg, o):
    for k in range(A.NUM_PILLARS):
        b = k * PILLAR_FEATURES                 # the slot's row (offsets, not a slice: see _observe_monsters)
        o[b + PILLAR.standing] = 1.0 if s.pillar_hp[k] > 0 else 0.0
        o[b + PILLAR.hp] = s.pillar_hp[k] / A.PILLAR_HP
        o[b + PILLAR.dx] = (cfg.pillar_xy[k, 0] - s.p.x) / REL_SCALE
        o[b + PILLAR.dy] = (cfg.pillar_xy[k, 1] - s.p.y) / REL_SCALE


@njit(cache=True)
def _observe_incoming(s, o):
    WH.incoming(s.hits, s.tick, ST.HT_PLAYER, o[INCOMING_0:INCOMING_0 + 4 * INCOMING_TICKS], INCOMING_TICKS,
                INCOMING_SCALE)


@njit(cache=True)
def _observe_wave(s, o):
    o[WAVE.wave] = s.wave / W.NUM_WAVES
    o[WAVE.next_wave_in] = s.next_wave_in / ST.WAVE_GAP_TICKS
    o[WAVE.monsters_left] = SPN.monsters_alive(s) / ST.MONSTER_SLOTS
    o[WAVE.wave_time] = min(s.wave_tick / WAVE_TIME_SCALE, 1.0)


@njit(cache=True)
def _sees_tile(s, cfg, m, x, y):
    if m.state != ST.SLOT_ALIVE or m.target != ST.TARGET_PLAYER or m.dig_left > 0:
        return False
    return MON.monster_sees(s, cfg, m, x, y, 1)


@njit(cache=True)
def _observe_scaffolding(s, cfg, o):
    """Derived knowledge (off unless ``scaffolding``): per style the ticks to the next attack of a monster that
    sees the player, how many attacks of each style start in each of the next ticks, how many monsters see
    the player, and which of its tile and the 8 around it no monster that attacks sees (walkable ones)."""
    for j in range(SCAFFOLDING_FEATURES):
        o[j] = 0.0
    if not cfg.scaffolding:
        return
    o[SCAFFOLDING.enabled] = 1.0
    nxt = np.full(3, NO_ATTACK)
    seen = 0
    for k in range(ST.MONSTER_SLOTS):
        m = s.monsters[k]
        if not MON.sees_player(s, cfg, k):
            continue
        seen += 1
        style = m.scan if 0 <= m.scan < ST.SCAN_UNKNOWN else cfg.kind_style[m.kind]
        t = max(m.attack_timer, m.stun)
        if m.kind == ST.K_JAD:      # a Jad's style is known from its tell, its attack leaves when the windup ends
            if m.windup <= 0:
                continue
            t = m.windup
        if style > 2:               # Zuk, the sparks: typeless, no overhead to choose
            continue
        if t < nxt[style]:
            nxt[style] = t
        if t < INCOMING_TICKS:      # its timer counts down first next tick: t = 0 or 1 attack on the next tick
            o[ATTACKS_IN_0 + style * INCOMING_TICKS + max(t - 1, 0)] += 1.0 / INCOMING_SCALE
    for st in range(3):
        o[NEXT_0 + st] = nxt[st] / NO_ATTACK
    o[SCAFFOLDING.seen_by] = seen / ST.MONSTER_SLOTS
    flags = PIL.arena_map(s, cfg)
    for d in range(len(SAFE_DIRS)):
        x = s.p.x + SAFE_DIRS[d][0]
        y = s.p.y + SAFE_DIRS[d][1]
        if x < 0 or y < 0 or x >= A.GRID_W or y >= A.GRID_H or flags[x, y] & BLOCKED:
            continue
        safe = True
        for k in range(ST.MONSTER_SLOTS):
            if _sees_tile(s, cfg, s.monsters[k], x, y):
                safe = False
                break
        o[SAFE_0 + d] = 1.0 if safe else 0.0


@njit(cache=True)
def _observe_zuk(s, cfg, o):
    for j in range(ZUK_FEATURES):
        o[j] = 0.0
    if s.wave < W.ZUK_WAVE:
        return
    o[ZUK.zuk_wave] = 1.0
    o[ZUK.set_timer] = s.set_timer / SET_TIMER_SCALE
    o[ZUK.set_paused] = 1.0 if s.set_paused else 0.0
    o[ZUK.enraged] = 1.0 if s.enraged else 0.0
    o[ZUK.jad_called] = 1.0 if s.zuk_jad else 0.0
    o[ZUK.sheltered] = 1.0 if FIN.sheltered(s, cfg) else 0.0
    g = s.monsters[FIN.SHIELD_SLOT]
    if FIN.shield_alive(s):
        o[ZUK.shelter_dx] = (s.p.x - (g.x + 2)) / 5.0           # 0: the middle of its five columns
        o[ZUK.glyph_dir] = float(s.shield_dir)
        o[ZUK.glyph_pause] = g.frozen / A.SHIELD_PAUSE
    for d in range(len(SAFE_DIRS)):
        x = s.p.x + SAFE_DIRS[d][0]
        y = s.p.y + SAFE_DIRS[d][1]
        o[SPARK_0 + d] = 1.0 if FIN.spark_near(s, x, y, SPARK_TICKS) else 0.0


@njit(cache=True)
def observe(s, cfg, obs):
    o = obs[0]
    _observe_self(s, cfg, o[START.self:STOP.self])
    _observe_monsters(s, cfg, o[START.monsters:STOP.monsters])
    _observe_pillars(s, cfg, o[START.pillars:STOP.pillars])
    _observe_incoming(s, o[START.incoming:STOP.incoming])
    _observe_wave(s, o[START.wave:STOP.wave])
    _observe_scaffolding(s, cfg, o[START.scaffolding:STOP.scaffolding])
    _observe_zuk(s, cfg, o[START.zuk:STOP.zuk])


# ---- mask ----------------------------------------------------------------------------------------
@njit(cache=True)
def mask(s, cfg, m):
    row = m[0]                     # agent 0's row: each option at its head's start + its number in the head
    p = s.p
    # move: a click on a walkable tile of the standing pillars' map within MOVE_RADIUS; running needs energy
    CM.move_mask(s, cfg, row[MASK_START.move:MASK_STOP.move])
    # attack: a living monster in range and sight of the worn set, timer ready. A gear switch in the same tick
    # is applied first (player.switch_gear) and the attack is checked again with the new weapon's range
    # (out of it, the player walks as the move head asks); the mask reads the set worn now
    at = row[MASK_START.attack:MASK_STOP.attack]
    at[ST.ATTACK_NONE] = True
    for j in range(ST.MONSTER_SLOTS):
        at[ST.ATTACK_SLOT_0 + j] = PLY.can_attack(s, cfg, j)
    # overhead: a prayer needs points; off needs one on (core.player_input)
    PI.overhead_mask(p, row[MASK_START.overhead:MASK_STOP.overhead], ST.OVERHEAD.keep, ST.OVERHEAD.magic,
                     ST.OVERHEAD.missiles, ST.OVERHEAD.melee, ST.OVERHEAD.off)
    # offensive: "on" the worn set's prayer (Rigour; Augury with the magic set), "off" any of them
    PI.offensive_mask(p, row[MASK_START.offensive:MASK_STOP.offensive], ST.OFFENSIVE.keep, ST.OFFENSIVE.on,
                      ST.OFFENSIVE.off, cfg.offensive, cfg.set_offensive[s.gear_set])
    # drink: a dose left and the potion timer ready; a restore only with prayer or a stat to restore
    ready = p.potion_timer <= 0
    dr = row[MASK_START.drink:MASK_STOP.drink]
    dr[ST.DRINK.none] = True
    dr[ST.DRINK.brew] = ready and s.supplies[ST.SUP_BREW] > 0
    drained = p.levels[PRAYER] < p.base_levels[PRAYER] or p.levels[RANGED] < p.base_levels[RANGED]
    dr[ST.DRINK.restore] = ready and s.supplies[ST.SUP_RESTORE] > 0 and drained
    dr[ST.DRINK.bastion] = ready and s.supplies[ST.SUP_BASTION] > 0
    dr[ST.DRINK.stamina] = ready and s.supplies[ST.SUP_STAMINA] > 0
    # gear: any set but the one worn (equipping needs nothing else)
    ge = row[MASK_START.gear:MASK_STOP.gear]
    ge[ST.GEAR.keep] = True
    for g in range(ST.NUM_SETS):
        ge[ST.GEAR_SET_0 + g] = s.gear_set != g
    # spec: the worn weapon has a special and the energy pays for it (the blowpipe's 50 %); a switch to the
    # blowpipe and its special in one tick is masked: the mask reads the set worn now
    sp = row[MASK_START.spec:MASK_STOP.spec]
    sp[ST.SPEC.none] = True
    sp[ST.SPEC.use] = PLY.can_special(s, cfg)


# ---- metrics -------------------------------------------------------------------------------------
@njit(cache=True)
def metrics(s, cfg, out):
    out.cleared = 1.0 if s.outcome == ST.OUTCOME_CLEARED else 0.0
    out.died = 1.0 if s.outcome == ST.OUTCOME_DEATH else 0.0
    out.timed_out = 1.0 if s.outcome == ST.OUTCOME_TIMEOUT else 0.0
    out.ticks = s.tick
    out.final_wave = s.wave
    out.waves_cleared = s.waves_cleared
    out.damage_dealt = s.damage_dealt
    total = 0
    for k in range(ST.NUM_KINDS):
        total += s.damage_taken[k]
    out.damage_taken = total
    for j in range(len(TALLY_KINDS)):
        out.taken_by_kind[j] = s.damage_taken[TALLY_KINDS[j]]
        out.killed_by_kind[j] = s.kills[TALLY_KINDS[j]]
    out.monster_attacks = s.monster_attacks
    out.correct_prayer_rate = s.prayed_attacks / s.monster_attacks if s.monster_attacks > 0 else 0.0
    out.brews_used = s.supplies_used[ST.SUP_BREW]
    out.restores_used = s.supplies_used[ST.SUP_RESTORE]
    out.bastions_used = s.supplies_used[ST.SUP_BASTION]
    out.staminas_used = s.supplies_used[ST.SUP_STAMINA]
    standing = 0
    for k in range(A.NUM_PILLARS):
        if s.pillar_hp[k] > 0:
            standing += 1
        out.pillar_hp[k] = s.pillar_hp[k]
    out.pillars_standing = standing
    out.pillar_damage = s.pillar_damage
    for k in range(4):
        out.taken_by_style[k] = s.taken_style[k]
    out.collapse_damage = s.collapse_damage
    out.resurrections = s.resurrections
    out.digs = s.digs
    out.start_wave = s.start_wave_drawn
    out.ticks_per_wave = s.tick / s.waves_cleared if s.waves_cleared > 0 else float(s.tick)
    out.specs_used = s.specs_used
    out.spec_healed = s.spec_healed
    out.freezes = s.freezes
    out.barrage_hits = s.barrage_hits
    for r in range(ST.NUM_REWARD_TERMS):
        out.reward_sums[r] = s.reward_sums[0, r]
    out.reached_zuk = 1.0 if s.wave >= W.ZUK_WAVE else 0.0
    out.zuk_lowest_hp = max(s.zuk_low, 0)
    out.player_lowest_hp = s.player_low
    out.deepest_phase = FIN.phase_of(s, cfg)          # milestones never go back: the phase now is the deepest
    out.sets_spawned = s.sets_spawned
    out.healers_tagged = s.healers_tagged
    out.healers_killed = s.healers_killed
    out.healing_ticks = s.healing_ticks
    out.healed = s.healed
    g = s.monsters[FIN.SHIELD_SLOT]
    out.glyph_hp = max(g.hp, 0) if s.wave >= W.ZUK_WAVE and g.kind == ST.K_SHIELD else float(A.GLYPH_HP)
    out.sheltered_attacks = s.sheltered_attacks
    out.zuk_attacks = s.zuk_attacks
    out.killer = s.killer + 1
    out.no_target_ticks = s.no_target_ticks
    out.no_prayer_ticks = s.no_prayer_ticks
    out.zuk_start_hp = s.zuk_start
    out.sheltered_ticks = s.sheltered_ticks
    return FIN.phase_of(s, cfg)


ZUK_MAX_HP = 1200              # TzKal-Zuk's hitpoints [W: TzKal-Zuk]; his low-watermark starts there


@njit(cache=True)
def _fraction_left(now, full, buckets):
    """``now`` of ``full`` in ``buckets`` equal parts (0 .. buckets; full: buckets)."""
    return (buckets * max(now, 0)) // max(full, 1)


@njit(cache=True)
def cell_key(s, cfg):
    """Archive cell (``osrs_rl.explore``): coarse on purpose, a situation rather than a tick: the wave, the
    fight's phase, monsters alive, the player's hitpoints and prayer in quarters, brews and restores left in
    quarters of the start's, and on the Zuk wave his hitpoints in hundreds and the glyph's third of its track."""
    me = _fraction_left(s.p.levels[HITPOINTS], s.p.base_levels[HITPOINTS], 4)
    pray = _fraction_left(s.p.levels[PRAYER], s.p.base_levels[PRAYER], 4)
    doses = _fraction_left(s.supplies[ST.SUP_BREW] + s.supplies[ST.SUP_RESTORE], cfg.brews + cfg.restores, 4)
    zuk = np.int64(0)
    side = np.int64(0)
    if s.wave >= W.ZUK_WAVE:
        z = s.monsters[FIN.ZUK_SLOT]
        zuk = 1 + max(z.hp, 0) // 100 if z.kind == ST.K_ZUK else 0
        g = s.monsters[FIN.SHIELD_SLOT]
        if g.kind == ST.K_SHIELD and g.state == ST.SLOT_ALIVE:
            side = 1 + (3 * (g.x - A.SHIELD_X[0])) // (A.SHIELD_X[1] - A.SHIELD_X[0] + 1)
    key = np.int64(s.wave)
    key = key * ST.NUM_PHASES + FIN.phase_of(s, cfg)
    key = key * (ST.MONSTER_SLOTS + 1) + SPN.wave_left(s)      # a dying blob counts until its bloblets come
    key = (key * 5 + me) * 5 + pray
    key = key * 5 + doses
    key = (key * 14 + zuk) * 4 + side
    return key


@njit(cache=True)
def work_left(s):
    """The kills the wave still asks for: a living blob 4 (itself and its 3 bloblets), a dying one 3 (its
    bloblets to come, kinds.BLOBLET_DELAY), any other living monster 1. Killing a blob never raises it, so
    no state before a split looks further along than the state after it."""
    n = 0
    for k in range(ST.MONSTER_SLOTS):
        m = s.monsters[k]
        if m.state == ST.SLOT_ALIVE:
            n += 4 if m.kind == ST.K_BLOB else 1
        elif m.state == ST.SLOT_DEAD and m.split_due > 0:
            n += 3
    return n


MOST_WORK = 4 * ST.MONSTER_SLOTS        # every slot a living blob


@njit(cache=True)
def progress(s, cfg):
    """How far a run has got, for the archive's best state of a cell: the wave (plus 0.9 once it is cleared,
    else 0.5 x the share of MOST_WORK done, ``work_left``), on the Zuk wave 0.9 x the share of his hitpoints
    taken off his low-watermark; a win 70. Hitpoints and doses left break ties (at most 0.09)."""
    if s.outcome == ST.OUTCOME_CLEARED:
        return 70.0
    if s.wave >= W.ZUK_WAVE:
        base = W.ZUK_WAVE + 0.9 * (ZUK_MAX_HP - min(max(s.zuk_low, 0), ZUK_MAX_HP)) / ZUK_MAX_HP
    elif s.next_wave_in > 0:
        base = s.wave + 0.9
    else:
        base = s.wave + 0.5 * (MOST_WORK - work_left(s)) / MOST_WORK
    hp = max(s.p.levels[HITPOINTS], 0) / max(s.p.base_levels[HITPOINTS], 1)
    doses = (s.supplies[ST.SUP_BREW] + s.supplies[ST.SUP_RESTORE]) / max(cfg.brews + cfg.restores, 1)
    return base + 0.05 * min(hp, 1.0) + 0.04 * min(doses, 1.0)
