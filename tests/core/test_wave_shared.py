"""The kernels the wave encounters share besides the chase and the NPC's attack (core.wave_hits, core.npc_slots,
core.player_tick, the overhead and supply clicks of core.player_input, core.click_move's route tables), run on a
small state record of this test's own: a shared kernel works for any encounter that implements its hooks."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from osrs_rl.core import click_move as CM
from osrs_rl.core import collision as C
from osrs_rl.core import npc_slots as SLOTS
from osrs_rl.core import player_input as PI
from osrs_rl.core import prayers as P
from osrs_rl.core import wave_hits as WH
from osrs_rl.core.consumables import load_consumables
from osrs_rl.core.events import EV_HIT, EV_SPAWN, event_fields
from osrs_rl.core.hit_events import queue_tracked_hit
from osrs_rl.core.hooks import implements
from osrs_rl.core.pending_hits import HIT_DTYPE, HIT_FREE, HIT_PENDING, STYLE_MAGIC, STYLE_MELEE, STYLE_RANGED
from osrs_rl.core.player import PLAYER_DTYPE, reset_player
from osrs_rl.core.player_tick import end_of_tick
from osrs_rl.core.skills import HITPOINTS, NUM_SKILLS, PRAYER

MONSTER = np.dtype([("state", np.uint8), ("kind", np.int8), ("x", np.int16), ("y", np.int16), ("hp", np.int16),
                    ("attack_timer", np.int16), ("stun", np.int16), ("target", np.int8), ("had_los", np.uint8),
                    ("frozen", np.int16), ("scan", np.int8), ("windup", np.int8), ("procced", np.uint8),
                    ("parent", np.int8), ("struck", np.int16)])
STATE = np.dtype([("tick", np.int32), ("rng", np.uint64, (1,)), ("p", PLAYER_DTYPE), ("monsters", MONSTER, (3,)),
                  ("hits", HIT_DTYPE, (6,)), ("hit_source", np.int16, (6,)), ("hit_flags", np.uint16, (6,)),
                  ("landing", np.int64, (6,)), ("damage_dealt", np.int32), ("damage_taken", np.int32, (4,)),
                  ("taken_style", np.int32, (4,)), ("killer", np.int8), ("supplies", np.int16, (2,)),
                  ("used", np.int16, (2,)), *event_fields(8)])
PLAYER_TARGET, FIRST_SLOT = 0, 1


@implements(WH.takes_hits, STATE)
def takes_hits(s, cfg, k):
    return s.monsters[k].state == SLOTS.SLOT_ALIVE


@implements(WH.struck, STATE)
def struck(s, cfg, k, i, damage):
    s.monsters[k].struck += 1


@njit
def _land_on_monsters(s):
    return WH.land_on_monsters(s, 0, PLAYER_TARGET, FIRST_SLOT)


def fresh():
    st = np.zeros(1, STATE)
    reset_player(st["p"][0], np.full(NUM_SKILLS, 99, dtype=np.int16), 5, 5)
    return st


def test_a_spawn_fills_the_shared_fields_and_records_it_and_free_slot_finds_the_next():
    st = fresh()
    s = st[0]
    SLOTS.spawn(s, 1, 3, 4, 6, 40, -1, 1, 2, -1, 40, 0)
    m = st["monsters"][0, 1]
    assert (m["state"], m["kind"], m["x"], m["y"], m["hp"], m["stun"], m["scan"], m["parent"]) == \
        (SLOTS.SLOT_ALIVE, 3, 4, 6, 40, 1, -1, -1)
    e = st["events"][0, 0]
    assert (e["kind"], e["source"], e["amount"], e["x"], e["y"]) == (EV_SPAWN, 2, 40, 4, 6)
    assert SLOTS.free_slot(s) == 0
    st["monsters"]["state"] = SLOTS.SLOT_ALIVE
    assert SLOTS.free_slot(s) == -1


def test_hits_land_on_living_slots_capped_and_on_the_player_tallied_by_attacker():
    st = fresh()
    s = st[0]
    SLOTS.spawn(s, 0, 0, 3, 3, 10, -1, 1, 1, -1, 10, 0)
    queue_tracked_hit(s, 0, 0, 0, 25, STYLE_RANGED, 0, FIRST_SLOT + 0, 0, 0, 0)     # due now, on slot 0
    queue_tracked_hit(s, 0, 0, 0, 5, STYLE_RANGED, 0, FIRST_SLOT + 2, 0, 0, 0)      # slot 2 is free: lost
    queue_tracked_hit(s, 0, 0, 2, 5, STYLE_RANGED, 0, FIRST_SLOT + 0, 0, 0, 0)      # not due yet
    assert _land_on_monsters(s) == 10 and st["damage_dealt"][0] == 10
    m = st["monsters"][0, 0]
    assert m["hp"] == 0 and m["struck"] == 1 and st["hits"]["state"][0].tolist()[:3] == [HIT_FREE, HIT_FREE,
                                                                                          HIT_PENDING]
    st["p"]["levels"][0, HITPOINTS] = 12
    queue_tracked_hit(s, 5, 0, 0, 8, STYLE_MAGIC, 2, PLAYER_TARGET, 0, 0, 0)
    queue_tracked_hit(s, 6, 0, 0, 9, STYLE_MELEE, 3, PLAYER_TARGET, 0, 0, 0)
    assert WH.land_on_player(s, PLAYER_TARGET) == 12
    assert st["damage_taken"][0].tolist() == [0, 0, 8, 4] and st["killer"][0] == 3
    assert st["taken_style"][0, STYLE_MELEE] == 4
    landed = st["events"][0][:int(st["event_count"][0])]
    assert sum(1 for e in landed if e["kind"] == EV_HIT) == 3       # the lost hit makes none


def test_incoming_counts_the_hits_in_flight_by_style_and_landing_tick():
    st = fresh()
    s = st[0]
    queue_tracked_hit(s, 1, 0, 1, 3, STYLE_MAGIC, 0, PLAYER_TARGET, 0, 0, 0)   # lands next tick
    queue_tracked_hit(s, 1, 0, 3, 3, STYLE_MELEE, 0, PLAYER_TARGET, 0, 0, 0)
    queue_tracked_hit(s, 0, 0, 1, 3, STYLE_RANGED, 0, FIRST_SLOT, 0, 0, 0)     # the player's: not incoming
    out = np.full(4 * 4, 9.0, dtype=np.float32)
    WH.incoming(st["hits"][0], 0, PLAYER_TARGET, out, 4, 4.0)
    assert out[STYLE_MAGIC * 4 + 0] == 0.25 and out[STYLE_MELEE * 4 + 2] == 0.25 and out.sum() == 0.5


def test_overhead_and_supply_clicks_from_head_options():
    st = fresh()
    p = st["p"][0]
    clicks = (PI.NO_PRAYER, P.PROTECT_FROM_MAGIC, PI.NO_PRAYER)          # keep, magic, off
    PI.click_overhead(p, 1, clicks)
    assert PI.has_prayer(p, P.PROTECT_FROM_MAGIC)
    row = np.zeros(5, dtype=np.bool_)
    PI.overhead_mask(p, row, 0, 1, 2, 3, 4)
    assert row.tolist() == [True, False, True, True, True]
    PI.click_overhead(p, 2, clicks)
    assert PI.overhead_style(p) == -1
    cons = load_consumables()
    ids = np.array([cons.id("Saradomin brew"), cons.id("Super restore")], dtype=np.int32)
    st["supplies"][0] = (4, 0)
    assert not PI.drink_option(p, st["supplies"][0], st["used"][0], 0, 1, ids, cons.table)      # none
    assert not PI.drink_option(p, st["supplies"][0], st["used"][0], 2, 1, ids, cons.table)      # no restore left
    assert PI.drink_option(p, st["supplies"][0], st["used"][0], 1, 1, ids, cons.table)
    assert st["supplies"][0].tolist() == [3, 0] and st["used"][0].tolist() == [1, 0]


def test_a_held_overhead_head_clicks_only_when_the_wanted_overhead_differs():
    """hold_overhead: the option is the overhead wanted this tick; none switches it off; a protection stays legal
    while on, and none is legal without points."""
    st = fresh()
    p = st["p"][0]
    held = (PI.NO_PRAYER, P.PROTECT_FROM_MAGIC, P.PROTECT_FROM_MISSILES, P.PROTECT_FROM_MELEE)   # none, ...
    PI.hold_overhead(p, 2, held)
    assert PI.overhead_style(p) == STYLE_RANGED
    row = np.zeros(4, dtype=np.bool_)
    PI.held_overhead_mask(p, row, 0, 1, 2, 3)
    assert row.all()
    PI.hold_overhead(p, 2, held)
    assert PI.overhead_style(p) == STYLE_RANGED                         # chosen again: still on, no toggle
    PI.hold_overhead(p, 1, held)
    assert PI.overhead_style(p) == STYLE_MAGIC
    PI.hold_overhead(p, 0, held)
    assert PI.overhead_style(p) == -1 and int(p["active_prayers"]) == 0
    p["levels"][PRAYER] = 0
    PI.held_overhead_mask(p, row, 0, 1, 2, 3)
    assert row.tolist() == [True, False, False, False]


def test_the_end_of_tick_counts_timers_down_and_drains_a_prayer_left_on():
    st = fresh()
    p = st["p"][0]
    p["attack_timer"] = 3
    PI.set_overhead(p, P.PROTECT_FROM_MELEE)
    for _ in range(8):
        end_of_tick(p, 0, False, 0, 99)
    assert p["attack_timer"] == -5 and p["levels"][PRAYER] < 99


def test_route_tables_refuse_a_radius_a_click_can_outrun():
    flags = C.make_arena(12, 12)
    C.add_block(flags, 3, 1, 1, 3, blocks_los=True)          # a wall a click across it walks around
    longest = CM.longest_click_route(flags[None], CM.route_tables(flags[None], 9))
    assert 3 < longest <= 9
    with pytest.raises(AssertionError, match=f"takes {longest} steps, more than the route radius {longest - 1}"):
        CM.route_tables(flags[None], longest - 1)
