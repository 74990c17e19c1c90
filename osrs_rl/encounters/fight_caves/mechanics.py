"""The TzHaar Fight Cave, waves 1-63: the tick behind the ``fight_caves`` spec (``reset``, ``step``: the tick, then
its reward terms from reward.py; observe, mask, metrics: view.py).

Index (tick order, the Inferno's; sources in README.md and beside the code, tags as defined in docs/sources.md):
  1. the player's clicks: a potion dose, the overhead, the offensive prayer (player.py ``inputs``);
  2. the player's hits due on monsters land; a monster at 0 dies (a Tz-Kek splits; hits.py);
  3. monsters, in slot order, before the player (monsters.py; TzTok-Jad and his healers: finale.py);
  4. the player: hits due on it land (hits.py); its move and its attack (player.py ``move_or_attack``);
  5. end of tick: action timers, prayer drain, run energy, hitpoint and stat cycles (core.player_tick); the wave
     clock (spawns.py);
  6. the player at 0 ends the run (terminated, death); TzTok-Jad's death ends it (terminated, success: the cave
     is done); ``max_ticks`` truncates it.
What the tick did goes into the state's event buffer (core.events, entity ids ``state.ENT_*``) and its reward by
term into ``reward_terms`` (reward.py).
"""

import numpy as np
from numba import njit

from osrs_rl.core import click_move as CM
from osrs_rl.core import player_input as PI
from osrs_rl.core import rng as R
from osrs_rl.core.events import ENTITY_NONE, EV_DEATH, EVF_KILLED, clear_events, record_event
from osrs_rl.core.player import reset_player
from osrs_rl.core.player_tick import end_of_tick
from osrs_rl.core.skills import HITPOINTS, PRAYER

from . import reward as RW
from . import state as ST
from . import waves as W
from .hits import land_monster_hits, land_player_hits
from .monsters import monsters_turn
from .player import inputs, move_or_attack
from .spawns import spawn_wave, wave_clock

RUN_WEIGHT_KG, AGILITY_LEVEL = 0, 99     # APPROXIMATION: weight is not tracked (as the Inferno and Zulrah)


@njit(cache=True)
def reset(s, cfg, seed):
    """The runtime hands reset a zeroed record (EncounterSpec.carried_fields): no monsters or hits, every tally 0;
    set what starts non-zero, draw the rotation and the start wave, spawn it."""
    R.seed_rng(s.rng, seed, 0)
    reset_player(s.p, cfg.levels, cfg.start_xy[0], cfg.start_xy[1])
    PI.wear(s.p, cfg.gear_worn)
    PI.refresh_combat(s.combat, s.p, cfg.gear_combat)
    CM.clear_destination(s)
    for k in range(ST.NUM_SUPPLIES):
        s.supplies[k] = cfg.supply_start[k]
    s.killer = -1
    # r uniform in 0..14 at the start of the cave [H: waves.py; VOID rotation 1..15, Kronos Random.get(14)]
    s.rotation = R.below(s.rng, W.NUM_ROTATIONS)
    s.wave = draw_start_wave(s, cfg)
    s.start_wave_drawn = s.wave
    spawn_wave(s, cfg)


@njit(cache=True)
def draw_start_wave(s, cfg):
    """``start_wave``, or with band weights a band drawn by them and a wave uniform in it."""
    if cfg.band_cumulative[ST.NUM_BANDS - 1] <= 0.0:
        return np.int64(cfg.start_wave)
    u = R.uniform(s.rng)
    b = 0
    while b < ST.NUM_BANDS - 1 and u >= cfg.band_cumulative[b]:
        b += 1
    lo, hi = ST.BANDS[b]
    return R.between(s.rng, lo, hi)


@njit(cache=True)
def jad_dead(s):
    """The last wave is on and TzTok-Jad is gone (his death frees his slot)."""
    if s.wave < W.NUM_WAVES or s.next_wave_in > 0:
        return False
    for k in range(ST.MONSTER_SLOTS):
        if s.monsters[k].state == ST.SLOT_ALIVE and s.monsters[k].kind == ST.K_JAD:
            return False
    return True


@njit(cache=True)
def tick(s, cfg, a):
    """One game tick; returns (terminated, truncated, dealt, taken, waves cleared, prayer score)."""
    s.tick += 1
    clear_events(s)
    # 1. the player's clicks
    inputs(s, cfg, a)
    # 2. the player's hits on monsters, 3. the monsters
    dealt = land_monster_hits(s, cfg)
    score = 0
    if s.next_wave_in == 0:
        score = monsters_turn(s, cfg)
    # 4. the player: hits land, it moves, it shoots
    taken = land_player_hits(s)
    moved = 0
    if s.p.levels[HITPOINTS] > 0:
        moved = move_or_attack(s, cfg, a[ST.HEAD.move], a[ST.HEAD.attack])
    # 5. end of tick and the wave clock
    cleared = 0
    if s.p.levels[HITPOINTS] > 0:
        end_of_tick(s.p, cfg.gear_prayer_bonus, moved >= 2, RUN_WEIGHT_KG, AGILITY_LEVEL)
        cleared = wave_clock(s, cfg)
    # 6. outcome
    if s.p.levels[HITPOINTS] <= 0:
        s.outcome = ST.OUTCOME_DEATH
        record_event(s, EV_DEATH, ST.ENT_PLAYER, ENTITY_NONE, -1, 0, EVF_KILLED, s.p.x, s.p.y)
        return True, False, dealt, taken, cleared, score
    if jad_dead(s):
        s.outcome = ST.OUTCOME_CLEARED
        s.waves_cleared += 1
        return True, False, dealt, taken, cleared, score
    if cfg.wave_tick_limit > 0 and s.wave_tick >= cfg.wave_tick_limit:
        s.outcome = ST.OUTCOME_TIMEOUT         # a stalled wave: the run ends with timeout_reward (training only)
        return True, False, dealt, taken, cleared, score
    if s.tick >= cfg.max_ticks:
        s.outcome = ST.OUTCOME_TIMEOUT
        return False, True, dealt, taken, cleared, score
    return False, False, dealt, taken, cleared, score


@njit(cache=True)
def step(s, cfg, actions):
    hp0 = max(s.p.levels[HITPOINTS], 0)
    pp0 = max(s.p.levels[PRAYER], 0)
    unmet0 = s.monster_attacks - s.prayed_attacks
    terminated, truncated, dealt, taken, cleared, score = tick(s, cfg, actions[0])
    RW.add_terms(s, cfg, dealt, taken, cleared, score, s.monster_attacks - s.prayed_attacks - unmet0, hp0,
                 pp0, terminated)
    return terminated, truncated
