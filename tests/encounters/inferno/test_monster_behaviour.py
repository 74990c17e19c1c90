"""Regressions for the Inferno audit's findings (F1-F11), one rule per test; sources beside each rule in
mechanics.py and the README's rules table."""

import numpy as np

from osrs_rl.core.events import EV_ATTACK, EV_DEATH
from osrs_rl.core.line_of_sight import has_line_of_sight
from osrs_rl.core.movement import in_melee_reach
from osrs_rl.core.pending_hits import HIT_PENDING, STYLE_MAGIC, STYLE_TYPELESS
from osrs_rl.encounters.inferno import mechanics as M
from osrs_rl.encounters.inferno import state as ST
from osrs_rl.encounters.inferno import view as V

from .helpers import act, commit, empty_arena, events, inferno, keeper, put

MONSTER = ST.ENT_MONSTER
RUN_N, RUN_S = M.move_option(0, 2, True), M.move_option(0, -2, True)   # move head: clicks 2 tiles north / south


def _sees(env, k=0):
    return bool(M.sees_player(env.states[0], env.config[0], k))


# ---- F1: a monster's line of sight is the player's ray to it ------------------------------------------
def test_ranger_sight_is_cast_from_the_player():
    env = inferno()
    empty_arena(env, player=(11, 10))
    put(env, 0, ST.K_RANGER, 1, 1, stun=100)
    assert _sees(env)                       # the player-to-ranger ray is clear (monster-to-player grazes a pillar)
    empty_arena(env, player=(11, 6))
    put(env, 0, ST.K_RANGER, 1, 14, stun=100)
    assert not _sees(env)                   # and here it is blocked (monster-to-player is clear)


def test_ranged_kinds_see_exactly_along_the_player_to_monster_ray():
    env = inferno()
    cfg = env.config[0]
    flags = cfg["maps"][7]
    rng = np.random.default_rng(3)
    checked = 0
    for kind in (ST.K_RANGER, ST.K_MAGER, ST.K_BAT):
        size, reach = int(cfg["kind_size"][kind]), int(cfg["kind_range"][kind])
        for _ in range(60):
            px, py = (int(v) for v in rng.integers(1, 30, 2))
            mx, my = (int(v) for v in rng.integers(1, 31 - size, 2))
            if flags[px, py] & 1 or (flags[mx:mx + size, my:my + size] & 1).any():
                continue
            if mx <= px < mx + size and my <= py < my + size:
                continue
            empty_arena(env, player=(px, py))
            put(env, 0, kind, mx, my, stun=100)
            assert _sees(env) == bool(has_line_of_sight(flags, px, py, 1, mx, my, size, reach)), (kind, px, py, mx, my)
            checked += 1
    assert checked > 100


# ---- F2: one route a tick -----------------------------------------------------------------------------
def test_an_attack_in_reach_drops_the_move():
    env = inferno()
    empty_arena(env, player=(15, 15))
    keeper(env)
    put(env, 0, ST.K_RANGER, 15, 19, stun=100, hp=1000)
    env.step(act(move=RUN_S, attack=1))
    s = env.states[0]
    assert (int(s["p"]["x"]), int(s["p"]["y"])) == (15, 15)
    assert events(env, EV_ATTACK, ST.ENT_PLAYER)


def test_a_target_out_of_reach_is_walked_to_and_shot_only_once_in_reach():
    env = inferno()
    empty_arena(env, player=(15, 15))
    keeper(env)
    put(env, 0, ST.K_RANGER, 15, 27, stun=100, hp=1000)    # 12 tiles north: out of the bow's 10
    env.step(act(move=RUN_S, attack=1))
    assert int(env.states[0]["p"]["y"]) == 13 and not events(env, EV_ATTACK, ST.ENT_PLAYER)
    # walking into range (the runtime masks an attack out of reach, so only the kernel sees this case)
    s = env.states[0]
    s["p"]["y"] = 15
    assert M.move_or_attack(s, env.config[0], RUN_N, 1) == 2
    assert int(s["p"]["y"]) == 17 and int(s["p"]["attack_timer"]) > 0      # the run ends 10 tiles away: it shoots


# ---- F3: part 2's dig closes the meleer's safespots ---------------------------------------------------
def _meleer_reaches(env, ticks, player=(8, 8), meleer=(3, 15)):
    """Whether a meleer that the player can shoot, stuck north-west of the south pillar, gets into edge
    contact with the player (or attacks it) within ``ticks``."""
    empty_arena(env, player=player)
    keeper(env)
    put(env, 0, ST.K_MELEER, *meleer, hp=1000)
    assert M.can_attack(env.states[0], env.config[0], 0)
    for _ in range(ticks):
        env.step(act())
        m = env.states[0]["monsters"][0]
        if in_melee_reach(int(m["x"]), int(m["y"]), 4, player[0], player[1], 1) or events(env, EV_ATTACK, MONSTER):
            return True
    return False


def test_a_stuck_meleer_digs_to_the_player_within_the_window():
    assert not _meleer_reaches(inferno(dig_min=1000, dig_max=1000), 60)     # without the dig: stuck for good
    assert _meleer_reaches(inferno(), 50 + M.DIG_TICKS + 1)                 # dig by 50, resurface next to it


# ---- F4: no success while a hit is still flying at the player -------------------------------------------
def test_last_wave_is_not_cleared_while_a_hit_is_in_flight():
    env = inferno(start_wave=1, last_wave=1)
    empty_arena(env, player=(15, 15), hp=10)
    put(env, 0, ST.K_MAGER, 15, 19, stun=1000, hp=1)
    s = env.states[0]
    due = int(s["tick"]) + 40
    h = s["hits"][0]
    h["state"], h["due_tick"], h["damage"], h["style"] = HIT_PENDING, due, 51, STYLE_MAGIC
    h["attacker"], h["target"] = ST.K_MAGER, ST.HT_PLAYER
    s["hit_source"][0] = MONSTER
    commit(env)
    killed = None
    for _ in range(60):
        _, _, term, trunc, _ = env.step(act(attack=1))
        tick = int(env.states[0]["tick"])
        if killed is None and int(env.states[0]["monsters"]["state"][0]) == ST.SLOT_DEAD:
            killed = tick
        if term[0] or trunc[0]:
            break
        assert tick < due
    assert killed is not None and killed < due
    assert term[0] and tick == due
    m = env.pop_metrics()
    assert m["died"][0] == 1 and m["cleared"][0] == 0 and m["waves_cleared"][0] == 1


# ---- F5: the blob's 50/50 is unknown until it fires --------------------------------------------------------
def _monster_row(env, slot=0):
    start = 0
    for seg in env.spec.obs_segments:
        if seg.name == "monsters":
            return env._obs[0, 0, start + slot * seg.features:start + (slot + 1) * seg.features]
        start += seg.features * seg.slots
    raise AssertionError("no monsters segment")


def test_a_blob_scanning_no_protection_shows_no_style_until_it_fires():
    env = inferno()
    empty_arena(env, player=(15, 15))
    keeper(env)
    put(env, 0, ST.K_BLOB, 5, 14)
    ranged, magic = V.MONSTER_NAMES.index("scan_ranged"), V.MONSTER_NAMES.index("scan_magic")
    env.step(act())                                              # the scan, with no overhead
    assert int(env.states[0]["monsters"]["scan"][0]) == ST.SCAN_UNKNOWN
    for _ in range(3):
        row = _monster_row(env)
        assert row[ranged] == 0.0 and row[magic] == 0.0
        assert not events(env, EV_ATTACK, MONSTER)
        env.step(act())
    assert events(env, EV_ATTACK, MONSTER)                       # fires 3 ticks after the scan


def test_a_blob_scanning_missiles_shows_magic_and_fires_magic():
    env = inferno()
    empty_arena(env, player=(15, 15))
    keeper(env)
    put(env, 0, ST.K_BLOB, 5, 14)
    env.step(act(overhead=2))
    assert _monster_row(env)[V.MONSTER_NAMES.index("scan_magic")] == 1.0
    for _ in range(3):
        env.step(act())
    got = events(env, EV_ATTACK, MONSTER)
    assert got and int(got[0]["style"]) == STYLE_MAGIC


# ---- F7: stepping out from under the player does not cost the attack ---------------------------------------
def test_a_mager_stepping_out_attacks_in_the_same_tick():
    env = inferno(revive_pct=0)
    stepped_out = 0
    for _ in range(12):
        empty_arena(env, player=(20, 10))
        keeper(env)
        put(env, 0, ST.K_MAGER, 20, 10, hp=1000)                 # the player on its south-west tile
        env.step(act())
        m = env.states[0]["monsters"][0]
        if int(m["x"]) <= 20 < int(m["x"]) + 4 and int(m["y"]) <= 10 < int(m["y"]) + 4:
            continue                                             # still under the player (a blocked step)
        stepped_out += 1
        assert events(env, EV_ATTACK, MONSTER), (int(m["x"]), int(m["y"]))
    assert stepped_out > 0


# ---- F9: the bloblets' first attack ------------------------------------------------------------------
def test_bloblets_appear_three_ticks_after_the_blob_dies_and_attack_four_ticks_later():
    env = inferno()
    empty_arena(env, player=(5, 14))
    put(env, 0, ST.K_BLOB, 5, 5, hp=1, stun=100)
    died = None
    for _ in range(40):
        env.step(act(attack=1))
        if events(env, EV_DEATH, MONSTER):
            died = int(env.states[0]["tick"])
            break
    assert died is not None
    first = None
    for _ in range(8):
        env.step(act())
        got = [e for e in events(env, EV_ATTACK) if MONSTER + 1 <= int(e["source"]) <= MONSTER + 3]
        if got:
            first = int(env.states[0]["tick"])
            break
    assert first == died + M.BLOBLET_DELAY + M.BLOBLET_COOLDOWN


# ---- F12: nibblers take no space -----------------------------------------------------------------------
def test_a_nibbler_does_not_block_another_monsters_step():
    env = inferno()
    empty_arena(env, player=(15, 20))
    keeper(env)
    put(env, 0, ST.K_BAT, 15, 5)                 # due south, out of its range 4: chases north
    put(env, 1, ST.K_NIBBLER, 15, 7, stun=100)   # on the tile it steps onto
    env.step(act())
    assert int(env.states[0]["monsters"][0]["y"]) == 6


# ---- F10, F11: the kind table and the default rewards ----------------------------------------------------
def test_zuk_is_typeless():
    env = inferno()
    assert int(env.config[0]["kind_style"][ST.K_ZUK]) == STYLE_TYPELESS


def test_a_timeout_never_pays_more_than_death_by_default():
    env = inferno()
    assert float(env.config[0]["timeout_reward"]) <= float(env.config[0]["death_reward"])

