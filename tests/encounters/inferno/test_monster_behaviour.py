"""What Inferno monsters see and do, one rule per test: line of sight along the player's ray, a stuck meleer's
dig, a blob's style unknown until it fires, a mager stepping out attacking in the same tick, the bloblets' first
attack, nibblers taking no space, Zuk's typeless hit. Sources beside each rule in monsters.py, kinds.py and the
README's rules table."""

import numpy as np

from osrs_rl.core.events import EV_ATTACK, EV_DEATH
from osrs_rl.core.line_of_sight import has_line_of_sight
from osrs_rl.core.movement import in_melee_reach
from osrs_rl.core.pending_hits import STYLE_MAGIC, STYLE_TYPELESS
from osrs_rl.encounters.inferno import kinds as KIN
from osrs_rl.encounters.inferno import monsters as MON
from osrs_rl.encounters.inferno import player as PLY
from osrs_rl.encounters.inferno import state as ST
from osrs_rl.encounters.inferno import view as V

from .helpers import act, empty_arena, events, inferno, keeper, put

MONSTER = ST.ENT_MONSTER


def _sees(env, k=0):
    return bool(MON.sees_player(env.states[0], env.config[0], k))


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


# ---- F3: part 2's dig closes the meleer's safespots ---------------------------------------------------
def _meleer_reaches(env, ticks, player=(8, 8), meleer=(3, 15)):
    """Whether a meleer that the player can shoot, stuck north-west of the south pillar, gets into edge
    contact with the player (or attacks it) within ``ticks``."""
    empty_arena(env, player=player)
    keeper(env)
    put(env, 0, ST.K_MELEER, *meleer, hp=1000)
    assert PLY.can_attack(env.states[0], env.config[0], 0)
    for _ in range(ticks):
        env.step(act())
        m = env.states[0]["monsters"][0]
        if in_melee_reach(int(m["x"]), int(m["y"]), 4, player[0], player[1], 1) or events(env, EV_ATTACK, MONSTER):
            return True
    return False


def test_a_stuck_meleer_digs_to_the_player_within_the_window():
    assert not _meleer_reaches(inferno(dig_min=1000, dig_max=1000), 60)     # without the dig: stuck for good
    assert _meleer_reaches(inferno(), 50 + KIN.DIG_TICKS + 1)                 # dig by 50, resurface next to it


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
    assert first == died + KIN.BLOBLET_DELAY + KIN.BLOBLET_COOLDOWN


# ---- F12: nibblers take no space -----------------------------------------------------------------------
def test_a_nibbler_does_not_block_another_monsters_step():
    env = inferno()
    empty_arena(env, player=(15, 20))
    keeper(env)
    put(env, 0, ST.K_BAT, 15, 5)                 # due south, out of its range 4: chases north
    put(env, 1, ST.K_NIBBLER, 15, 7, stun=100)   # on the tile it steps onto
    env.step(act())
    assert int(env.states[0]["monsters"][0]["y"]) == 6


# ---- F10: the kind table ------------------------------------------------------------------------------
def test_zuk_is_typeless():
    env = inferno()
    assert int(env.config[0]["kind_style"][ST.K_ZUK]) == STYLE_TYPELESS
