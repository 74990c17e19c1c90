"""Zulrah: the rotation table against its sources (RL-A..D, RL-R, ZEN: rotations.py), and the encounter's contract,
determinism and settings. Mechanics rules are in test_zulrah_rules.py."""


import numpy as np
import pytest

import osrs_rl
from osrs_rl.encounters.zulrah import rotations as RT
from osrs_rl.encounters.zulrah import state as ST
from osrs_rl.runtime import checks
from osrs_rl.runtime.checks import random_legal_actions, trace_hash
from osrs_rl.runtime.config import ConfigError

S_, M_, T_ = RT.SERPENTINE, RT.MAGMA, RT.TANZANITE
C_, So, E_, W_ = RT.CENTER, RT.SOUTH, RT.EAST, RT.WEST

# one row per phase, typed in from the sources (form and spot: RL-A..D and ZEN; phaseTicks: RL-R; attacks,
# snakelings and cloud volleys: ZEN's sequences): (form, spot, phaseTicks, attacks, snakelings, cloud volleys)
# attacks: ("ranged" | "magic" | "jad", count); None where the phase has no attacks
REFERENCE = {
    0: [(S_, C_, 28, None, 0, 4), (M_, C_, 21, "melee", 0, 0), (T_, C_, 18, ("magic", 4), 0, 0),
        (S_, So, 39, ("ranged", 5), 4, 2), (M_, C_, 22, "melee", 0, 0), (T_, W_, 20, ("magic", 5), 0, 0),
        (S_, So, 28, None, 4, 3), (T_, So, 36, ("magic", 5), 3, 2), (S_, W_, 48, ("jad", 10), 0, 4),
        (M_, C_, 21, "melee", 0, 0)],
    1: [(S_, C_, 28, None, 0, 4), (M_, C_, 21, "melee", 0, 0), (T_, C_, 18, ("magic", 4), 0, 0),
        (S_, W_, 28, None, 4, 3), (T_, So, 39, ("magic", 5), 4, 2), (M_, C_, 21, "melee", 0, 0),
        (S_, E_, 20, ("ranged", 5), 0, 0), (T_, So, 36, ("magic", 5), 3, 2), (S_, W_, 48, ("jad", 10), 0, 4),
        (M_, C_, 21, "melee", 0, 0)],
    2: [(S_, C_, 28, None, 0, 4), (S_, E_, 30, ("ranged", 5), 3, 0), (M_, C_, 40, "melee", 3, 3),
        (T_, W_, 20, ("magic", 5), 0, 0), (S_, So, 20, ("ranged", 5), 0, 0), (T_, E_, 20, ("magic", 5), 0, 0),
        (S_, C_, 25, None, 3, 3), (S_, W_, 20, ("ranged", 5), 0, 0), (T_, C_, 36, ("magic", 5), 3, 2),
        (S_, E_, 35, ("jad", 10), 0, 0), (T_, C_, 18, None, 4, 0)],
    # phase 2: 6 magic attacks [OSRS wiki "Zulrah/Strategies", PufferLib; ZEN has 5]
    3: [(S_, C_, 28, None, 0, 4), (T_, E_, 36, ("magic", 6), 4, 0), (S_, So, 24, ("ranged", 4), 0, 2),
        (T_, W_, 30, ("magic", 4), 4, 0), (M_, C_, 28, "melee", 0, 2), (S_, E_, 17, ("ranged", 4), 0, 0),
        (S_, So, 34, None, 6, 3), (T_, W_, 33, ("magic", 5), 4, 0), (S_, C_, 20, ("ranged", 5), 0, 0),
        (T_, C_, 27, ("magic", 4), 0, 3), (S_, E_, 29, ("jad", 8), 0, 0), (T_, C_, 18, None, 4, 0)],
}
JAD_FIRST = {0: "ranged", 1: "ranged", 2: "magic", 3: "magic"}      # RL-A..D; ZEN FlickingSequence


def make(num_envs=1, seed=3, **config):
    env = osrs_rl.make("zulrah", num_envs=num_envs, seed=seed, **config)
    env.reset()
    return env


# ---- the rotation table (step 1) ---------------------------------------------------------------
def test_table_shape():
    assert [len(r) for r in RT.ROTATIONS] == [10, 10, 11, 12]
    assert RT.MAX_PHASES == 12
    tables = RT.build_tables()
    # timelines 0..3 follow the spawn, 4..7 a restart (bridge first)
    assert tables["timeline"].shape == (8, 12, RT.MAX_PHASE_TICKS)
    assert list(tables["num_phases"]) == [10, 10, 11, 12] * 2


@pytest.mark.parametrize("rotation", range(4))
def test_every_phase_matches_the_reference(rotation):
    for p, (phase, want) in enumerate(zip(RT.ROTATIONS[rotation], REFERENCE[rotation], strict=True)):
        form, spot, ticks, attacks, snakelings, volleys = want
        where = f"rotation {rotation + 1} phase {p + 1}"
        assert (phase.form, phase.spot, phase.ticks) == (form, spot, ticks), where
        assert RT.count(phase, "snakeling") == snakelings, where
        assert RT.count(phase, "clouds") == volleys, where
        if attacks is None:
            assert sum(RT.count(phase, k) for k in ("ranged", "magic", "jad", "melee")) == 0, where
        elif attacks == "melee":
            assert RT.count(phase, "melee") == 1, where
        else:
            assert RT.count(phase, attacks[0]) == attacks[1], where
        assert RT.is_jad(phase) == (attacks is not None and attacks[0] == "jad"), where
        if RT.is_jad(phase):
            assert phase.jad_first == JAD_FIRST[rotation], where


def test_every_rotation_opens_with_serpentine_at_center_and_the_same_volleys():
    for rot in RT.ROTATIONS:
        assert rot[0] == RT.ROTATIONS[0][0]
    # the opening volleys (ZEN ZulrahNPC: the same four in every rotation)
    tiles = [(a[1], a[2]) for a in RT.ROTATIONS[0][0].actions]
    want = [((2269, 3069), (2272, 3070)), ((2266, 3069), (2263, 3070)), ((2273, 3072), (2273, 3075)),
            ((2263, 3073), (2263, 3076))]
    assert tiles == [(RT.local(*a), RT.local(*b)) for a, b in want]


def test_spots_and_stand_tiles_in_the_local_frame():
    # RuneLite ZulrahLocation offsets from the CENTER south-west tile (2266, 3073) [ZEN]
    center = RT.local(2266, 3073)
    offsets = [(x - center[0], y - center[1]) for x, y in RT.SPOT_TILES]
    assert offsets == [(0, 0), (0, -11), (10, -2), (-10, -2)]
    assert RT.STAND_TILES["northeast_top"] == RT.local(2274, 3077)
    assert RT.STAND_TILES["east_pillar_n"] == RT.MELEE_SAFESPOTS[0]
    assert RT.STAND_TILES["west_pillar_n"] == RT.MELEE_SAFESPOTS[2]
    assert RT.PLAYER_START == RT.local(2268, 3068)


@pytest.mark.parametrize("rotation", range(4))
def test_timelines_fit_and_keep_the_3_tick_cadence(rotation):
    for p, phase in enumerate(RT.ROTATIONS[rotation]):
        codes, _ = RT.phase_timeline(phase, p)
        ticks = [t for t, c in enumerate(codes) if c in (RT.ACT_RANGED, RT.ACT_MAGIC, RT.ACT_TANZANITE,
                                                            RT.ACT_CLOUDS, RT.ACT_SNAKELING, RT.ACT_MAGMA_PICK)]
        if ticks:
            assert ticks[0] == RT.first_action_tick(phase)
        attack_ticks = [t for t, c in enumerate(codes) if c in (RT.ACT_RANGED, RT.ACT_MAGIC, RT.ACT_TANZANITE)]
        assert all(b - a == RT.ACTION_TICKS for a, b in zip(attack_ticks, attack_ticks[1:], strict=False))


@pytest.mark.parametrize("rotation,first", [(0, RT.ACT_RANGED), (1, RT.ACT_RANGED), (2, RT.ACT_MAGIC),
                                            (3, RT.ACT_MAGIC)])
def test_jad_alternates_from_its_first_style(rotation, first):
    p = next(k for k, ph in enumerate(RT.ROTATIONS[rotation]) if RT.is_jad(ph))
    codes, _ = RT.phase_timeline(RT.ROTATIONS[rotation][p], p)
    shots = [c for c in codes if c in (RT.ACT_RANGED, RT.ACT_MAGIC)]
    other = RT.ACT_MAGIC if first == RT.ACT_RANGED else RT.ACT_RANGED
    assert shots == [first if k % 2 == 0 else other for k in range(RT.JAD_SHOTS[rotation])]


def test_rotation_identified_from_the_phases_seen():
    # rotations 3 and 4 differ from the others at phase 2; 1 and 2 only at phase 4
    assert [RT.identify_phase(r) for r in range(4)] == [3, 3, 1, 1]


# ---- issue 14: the dive is inside RL-R's phase length, and the restart opens with the bridge ------
@pytest.mark.parametrize("timeline", range(RT.NUM_TIMELINES))
def test_the_dive_follows_the_last_action_by_one_slot_in_every_phase(timeline):
    # RL-R phaseTicks run rise to rise, dive included; ZEN dives 3 ticks after the last action. Before the
    # fix the dive came after phase_ticks, leaving Zulrah targetable and idle 1-7 ticks after its last action.
    for p, phase in enumerate(RT.TIMELINES[timeline]):
        codes, _ = RT.phase_timeline(phase, p)
        acted = [t for t, c in enumerate(codes) if c != RT.ACT_NONE]
        last = acted[-1]
        # the magma stand's last event is its second slam, one tick before the stand's end
        slot = 1 if codes[last] == RT.ACT_MAGMA_SLAM else RT.ACTION_TICKS
        assert last + slot == RT.dive_tick(phase) == phase.ticks - RT.DIVE_TICKS, (timeline, p)
        if not RT.is_spawn(timeline, p):
            lo, hi = RT.FIRST_ACTION_RANGE
            assert lo <= RT.first_action_tick(phase) <= hi, (timeline, p, RT.first_action_tick(phase))


def test_a_restart_opens_with_five_ranged_attacks_then_the_volleys():
    # OSRS wiki "Zulrah": after the last phase Zulrah returns to the centre in green, attacks with ranged
    # several times, then fills the area with clouds; the spawn itself never attacks
    for r in range(RT.NUM_ROTATIONS):
        restart = RT.TIMELINES[RT.NUM_ROTATIONS + r]
        assert restart[0] is RT.BRIDGE and restart[1:] == RT.ROTATIONS[r][1:]
    codes, _ = RT.phase_timeline(RT.BRIDGE, 0)
    acts = [c for c in codes if c != RT.ACT_NONE]
    assert acts == [RT.ACT_RANGED] * 5 + [RT.ACT_CLOUDS] * 4
    assert RT.count(RT.ROTATIONS[0][0], "ranged") == 0


def test_the_zulrah_map_is_the_games():
    # shrine_map.json (the Shortest Path plugin's dump of the game cache): 69 walkable tiles in a U, and two
    # pillars. The old rectangle (x 2262..2274, y 3068..3078 less the bay) had 113.
    from osrs_rl.encounters.zulrah import loadouts as L
    w, pil = L.walkable(), L.pillars()
    assert w.sum() == 69 and pil.sum() == 2
    assert {RT.local(2265, 3071), RT.local(2271, 3071)} == {tuple(t) for t in np.argwhere(pil)}
    rows = {3078: [2264, 2272], 3077: [2263, 2264, 2272, 2273, 2274], 3070: list(range(2262, 2274)),
            3069: list(range(2264, 2273)), 3068: list(range(2266, 2271))}
    rows |= {y: [2262, 2263, 2264, 2272, 2273, 2274] for y in range(3071, 3077)}
    want = {RT.local(x, y) for y, xs in rows.items() for x in xs}
    assert {tuple(t) for t in np.argwhere(w)} == want
    # tiles a policy camped on in the old map are water now
    for tile in ((2262, 3078), (2263, 3078), (2262, 3068), (2274, 3069), (2268, 3072)):
        assert not w[RT.local(*tile)], tile
    # every documented player tile stands on the platform
    documented = list(RT.STAND_TILES.values()) + list(RT.MELEE_SAFESPOTS) + [RT.PLAYER_START, RT.FIRST_SLAM_SAFE_TILE]
    assert all(w[t] for t in documented)
    # every snakeling spawns on the platform; every cloud covers some of it
    for timeline in RT.TIMELINES:
        for phase in timeline:
            for a in phase.actions:
                if a[0] == "snakeling":
                    assert w[a[1]], a
                if a[0] == "clouds":
                    for cx, cy in a[1:]:
                        assert w[cx - 1:cx + 2, cy - 1:cy + 2].any(), a


def test_the_sight_tables_are_core_line_of_sight():
    # the kernels read precomputed tables; they must agree with core.line_of_sight ray for ray
    from osrs_rl.core.line_of_sight import has_line_of_sight
    from osrs_rl.encounters.zulrah import mechanics as M
    env = make()
    cfg = env.config[0]
    tiles = [tuple(int(v) for v in t) for t in np.argwhere(cfg["collision"] == 0)]
    for spot, (zx, zy) in enumerate(RT.SPOT_TILES):
        for x, y in tiles:
            want = has_line_of_sight(cfg["collision"], x, y, 1, zx, zy, RT.ZULRAH_SIZE, 64)
            assert bool(cfg["zulrah_sight"][spot, x, y]) == want, (spot, x, y)
    for reach in (1, 6, 10):
        for a in tiles:
            for b in tiles:
                want = has_line_of_sight(cfg["collision"], a[0], a[1], 1, b[0], b[1], 1, reach)
                assert M.tile_sees(env.config[0], a[0], a[1], b[0], b[1], reach) == want, (a, b, reach)
    # a pillar hides the base's south-west corner from Zulrah at center (RL-R's stall tiles)
    center = cfg["zulrah_sight"][RT.CENTER]
    assert not center[RT.local(2264, 3070)] and center[RT.local(2268, 3069)]


def test_the_player_never_leaves_the_platform():
    # random legal play for 3000 ticks over 16 fights: the player and every snakeling stand on walkable tiles
    from osrs_rl.encounters.zulrah import loadouts as L
    w = L.walkable()
    env = make(num_envs=16, seed=9, max_ticks=3000)
    rng = np.random.default_rng(0)
    for _ in range(600):
        env.step(random_legal_actions(env, rng))
        s = env.states
        assert w[s["p"]["x"], s["p"]["y"]].all()
        act = s["snakelings"]["active"] == 1
        assert w[s["snakelings"]["x"][act], s["snakelings"]["y"][act]].all()


# ---- the encounter (step 2) ----------------------------------------------------------------------
def test_contract():
    checks.check_encounter("zulrah", ticks=150)


def test_contract_with_options():
    checks.check_encounter("zulrah", ticks=60, gear_tier=-1, scaffolding=False, start_phase=5, start_hp=100,
                           coef_damage_dealt=1.0, coef_damage_taken=1.0, coef_prayer=0.1)


def test_observation_layout():
    env = make()
    spec = env.spec
    assert [s.name for s in spec.obs_segments] == ["self", "zulrah", "clouds", "snakelings", "scaffolding"]
    assert spec.obs_size == env.reset()[0].shape[1]
    assert list(spec.head_sizes) == [25, 10, 4, 3, 4, 2, 5, 2]


def test_scaffolding_switch_zeroes_its_segment():
    env = make(scaffolding=False, start_rotation=2, start_phase=3)
    obs, _ = env.reset()
    assert not obs[0, env.spec.obs_slices()["scaffolding"]].any()
    env = make(start_rotation=2, start_phase=3)
    obs, _ = env.reset()
    scaffold = obs[0, env.spec.obs_slices()["scaffolding"]]
    assert scaffold[0] == 1.0 and scaffold[1] == 1.0 and scaffold[2 + 2] == 1.0     # rotation 3 known


@pytest.mark.parametrize("bad,match", [
    ({"start_phase": 11}, "start_phase"),
    ({"start_rotation": 0, "start_phase": 10}, "rotation 0 has 10 phases"),
    ({"gear_tier": -2, "tier_weight_budget": 0.0, "tier_weight_mid": 0.0, "tier_weight_max": 0.0}, "weight"),
    ({"gear_tier": 3}, "out of range"),
    ({"start_hp": 0}, "out of range"),
    ({"start_hpp": 10}, "did you mean 'start_hp'"),
    ({"scaffolding": 2}, "true or false"),
])
def test_bad_config_is_named(bad, match):
    with pytest.raises(ConfigError, match=match):
        osrs_rl.make("zulrah", **bad)


def test_curriculum_settings():
    env = make(num_envs=8, start_rotation=3, start_phase=11, start_hp=123, gear_tier=0)
    s = env.states
    assert (s["rotation"] == 3).all() and (s["phase"] == 11).all() and (s["z_hp"] == 123).all()
    assert (s["tier"] == ST.TIER_BUDGET).all() and (s["form"] == RT.TANZANITE).all()
    env = make(num_envs=64, gear_tier=-2, tier_weight_budget=0.0, tier_weight_mid=1.0, tier_weight_max=0.0)
    assert (env.states["tier"] == ST.TIER_MID).all()
    env = make(num_envs=64, gear_tier=-1)
    assert set(env.states["tier"]) == {0, 1, 2}


def test_snapshot_restore_reproduces_the_run():
    env = make(num_envs=4)
    rng = np.random.default_rng(5)
    for _ in range(40):
        env.step(random_legal_actions(env, rng))
    blob = env.snapshot_batch(range(4))
    acts = [random_legal_actions(env, rng) for _ in range(150)]
    first = [env.step(a)[0].copy() for a in acts]
    env.restore_batch(range(4), blob)
    second = [env.step(a)[0].copy() for a in acts]
    assert all(np.array_equal(a, b) for a, b in zip(first, second, strict=True))


def golden_hash(ticks=400):
    """Fixed seed, fixed action stream (random legal actions from a fixed generator): hash of the states."""
    return trace_hash(make(num_envs=4, seed=2024), ticks)


# Changing this hash changes the simulation: explain why in the commit that updates it.
# issue 46: the runtime zeroes a record before each reset, so an episode after an autoreset no longer starts with
# the last episode's bytes in its free cloud, snakeling and hit slots, event entries past event_count and scratch
# (landing, splats, hit_source/hit_flags of free slots): only there do the records differ from the old trace
# (compared tick by tick), and the behaviour hashes (obs, rewards, dones, masks, metrics) are unchanged
GOLDEN = "4ffc1f0e27dcfd6a"   # was be8615d7eec9765c (issue 41: prayer_was_on, food cut to fit 28 slots)


def test_golden_trace():
    assert golden_hash() == GOLDEN
