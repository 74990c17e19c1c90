"""The Inferno, waves 1-69: the tick behind the ``inferno`` spec (``reset``, ``step``: the tick, the tallies the
metrics keep, then its reward terms from reward.py; observe, mask, metrics: view.py).

Index (tick order; sources in README.md and beside the code, tags as defined in docs/sources.md):
  1. the player's clicks: potions, the gear switch, the prayers (player.py ``inputs``);
  2. the player's hits due on monsters land; a monster at 0 dies (hits.py);
  3. monsters, in slot order, before the player (monsters.py; each kind's own rules: kinds.py; the Jads,
     Zuk, the glyph and the healers: finale.py; pillars: pillars.py);
  4. the player: hits due on it land (the lava sparks first: finale.py, then hits.py); its move and its
     attack (player.py ``move_or_attack``);
  5. end of tick: action timers (core.player), prayer drain, run energy, special energy and hitpoint cycles
     (``end_of_tick``); the wave clock (spawns.py; waves 67-69 spawn in finale.py);
  6. the player at 0 ends the run (terminated, death); ``last_wave`` cleared ends it (terminated, success);
     ``max_ticks`` truncates it.
What the tick did goes into the state's event buffer (core.events, entity ids ``state.ENT_*``) and its reward
by term into ``reward_terms`` (reward.py; the runtime sums them into the reward, and over the run into
``reward_sums``).
"""

import numpy as np
from numba import njit

from osrs_rl.core import click_move as CM
from osrs_rl.core import player_input as PI
from osrs_rl.core import rng as R
from osrs_rl.core.events import ENTITY_NONE, EV_DEATH, EVF_KILLED, clear_events, record_event
from osrs_rl.core.player import reset_player
from osrs_rl.core.player_tick import end_of_tick as player_end_of_tick
from osrs_rl.core.skills import HITPOINTS, PRAYER

from . import arena as A
from . import reward as RW
from . import state as ST
from . import waves as W

# the tick's callees by name: no module of the rules imports this one (no cycle), and reset and tick read as
# they did when the rules were one module
from .finale import land_sparks, sheltered, zuk_start
from .hits import land_monster_hits, land_player_hits
from .monsters import monsters_turn
from .player import can_attack, inputs, move_or_attack
from .spawns import monsters_alive, spawn_wave, wave_clock

RUN_WEIGHT_KG, AGILITY_LEVEL = 0, 99     # approximation: weight is not tracked (as in zulrah)
START_FINALE = (A.PLAYER_START_67, A.PLAYER_START_68, A.PLAYER_START_69)


@njit(cache=True)
def reset(s, cfg, seed):
    """The runtime hands reset a zeroed record (EncounterSpec.carried_fields): no monsters, hits or sparks, the
    Zuk wave's timers and flags down, no outcome, every tally 0; set what starts non-zero, then spawn the wave."""
    R.seed_rng(s.rng, seed, 0)
    reset_player(s.p, cfg.levels, cfg.start_xy[0], cfg.start_xy[1])
    s.gear_set = ST.SET_BOW
    CM.clear_destination(s)
    PI.wear(s.p, cfg.set_worn[ST.SET_BOW])
    s.supplies[ST.SUP_BREW] = cfg.brews
    s.supplies[ST.SUP_RESTORE] = cfg.restores
    s.supplies[ST.SUP_BASTION] = cfg.bastions
    s.supplies[ST.SUP_STAMINA] = cfg.staminas
    PI.refresh_combat(s.combat, s.p, cfg.set_combat[ST.SET_BOW])
    for p in range(A.NUM_PILLARS):
        s.pillar_hp[p] = A.PILLAR_HP
    s.zuk_low = cfg.kind_row[ST.K_ZUK].hitpoints
    s.killer = -1
    if cfg.start_hp > 0:
        s.p.levels[HITPOINTS] = min(cfg.start_hp, s.p.base_levels[HITPOINTS])
    if cfg.start_prayer > 0:
        s.p.levels[PRAYER] = min(cfg.start_prayer, s.p.base_levels[PRAYER])
    s.wave = draw_start_wave(s, cfg)
    s.start_wave_drawn = s.wave
    if s.wave >= W.JAD_WAVE:      # a start on wave 67-69: InfernoTrainer's start tile for that wave
        s.p.x, s.p.y = START_FINALE[s.wave - W.JAD_WAVE]
    spawn_wave(s, cfg)
    if s.wave == W.ZUK_WAVE:
        zuk_start(s, cfg)
    s.player_low = s.p.levels[HITPOINTS]


@njit(cache=True)
def draw_start_wave(s, cfg):
    """``start_wave``, or with band weights a band drawn by them (bands past ``last_wave`` skipped by
    redrawing) and a wave uniform in it, capped at ``last_wave``."""
    if cfg.band_cumulative[ST.NUM_BANDS - 1] <= 0.0:
        return np.int64(cfg.start_wave)
    while True:
        u = R.uniform(s.rng)
        b = 0
        while b < ST.NUM_BANDS - 1 and u >= cfg.band_cumulative[b]:
            b += 1
        lo, hi = ST.BANDS[b]
        if lo <= cfg.last_wave:
            return R.between(s.rng, lo, min(hi, cfg.last_wave))


@njit(cache=True)
def end_of_tick(s, cfg, ran):
    player_end_of_tick(s.p, cfg.set_prayer_bonus[s.gear_set], ran, RUN_WEIGHT_KG, AGILITY_LEVEL)
    return wave_clock(s, cfg)


@njit(cache=True)
def tick(s, cfg, a):
    """One game tick; returns (terminated, truncated, dealt, taken, waves cleared)."""
    s.tick += 1
    clear_events(s)                # the tick's events start empty (the runtime zeroes its reward terms)
    # 1. the player's clicks
    inputs(s, cfg, a)
    # 2. the player's hits on monsters, 3. the monsters
    dealt = land_monster_hits(s, cfg)
    if s.next_wave_in == 0:
        monsters_turn(s, cfg)
    # 4. the player: hits land (sparks first), it moves, it shoots
    taken = land_sparks(s) + land_player_hits(s)
    moved = 0
    if s.p.levels[HITPOINTS] > 0:
        moved = move_or_attack(s, cfg, a[ST.HEAD.move], a[ST.HEAD.attack], a[ST.HEAD.spec] == ST.SPEC.use)
    # 5. end of tick and the wave clock
    cleared = 0
    if s.p.levels[HITPOINTS] > 0:
        cleared = end_of_tick(s, cfg, moved >= 2)
    # 6. outcome
    if s.p.levels[HITPOINTS] <= 0:
        s.outcome = ST.OUTCOME_DEATH
        record_event(s, EV_DEATH, ST.ENT_PLAYER, ENTITY_NONE, -1, 0, EVF_KILLED, s.p.x, s.p.y)
        return True, False, dealt, taken, cleared
    if s.outcome == ST.OUTCOME_CLEARED:
        return True, False, dealt, taken, cleared
    if s.tick >= cfg.max_ticks:
        s.outcome = ST.OUTCOME_TIMEOUT
        if cfg.timeout_terminal:
            return True, False, dealt, taken, cleared
        return False, True, dealt, taken, cleared
    return False, False, dealt, taken, cleared


@njit(cache=True)
def _count_empty_heads(s, cfg):
    """The heads left with only their no-op while it matters (monsters alive): the attack head with the
    attack timer ready and no monster in reach, the overhead head at 0 prayer (metrics no_target_ticks,
    no_prayer_ticks)."""
    if s.outcome != ST.OUTCOME_NONE or s.next_wave_in > 0 or monsters_alive(s) == 0:
        return                # nothing alive (a dying blob's bloblets not yet out): an idle head costs nothing
    if s.p.levels[PRAYER] <= 0:
        s.no_prayer_ticks += 1
    if s.p.attack_timer > 0:
        return
    for k in range(ST.MONSTER_SLOTS):
        if can_attack(s, cfg, k):
            return
    s.no_target_ticks += 1


@njit(cache=True)
def step(s, cfg, actions):
    """One tick (``tick``), the tallies the metrics keep (the player's low, ticks with an empty attack or
    overhead head, ticks sheltered by the glyph), then the tick's reward terms (reward.py)."""
    was = RW.before(s)
    terminated, truncated, dealt, taken, cleared = tick(s, cfg, actions[0])
    if s.p.levels[HITPOINTS] < s.player_low:
        s.player_low = max(s.p.levels[HITPOINTS], 0)
    _count_empty_heads(s, cfg)
    if s.wave >= W.ZUK_WAVE and s.outcome == ST.OUTCOME_NONE and sheltered(s, cfg):
        s.sheltered_ticks += 1
    RW.add_terms(s, cfg, was, terminated, dealt, taken, cleared)
    return terminated, truncated
