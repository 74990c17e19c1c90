"""Zulrah mechanics, one rule per test, on fights driven by hand (sources: the encounter's README.md, rotations.py)."""

import numpy as np
import pytest
from numba import njit

import osrs_rl
from osrs_rl.core import rng as R
from osrs_rl.core.attack import sample_hits
from osrs_rl.core.damage import CAP_ZULRAH
from osrs_rl.core.pending_hits import FLAG_ACCURATE, HIT_PENDING, STYLE_MAGIC, STYLE_RANGED, push_hit
from osrs_rl.core.skills import HITPOINTS, PRAYER
from osrs_rl.core.specials import build_normal_table
from osrs_rl.encounters.zulrah import mechanics as M
from osrs_rl.encounters.zulrah import rotations as RT
from osrs_rl.encounters.zulrah import state as ST

NOOP = np.zeros((1, len(ST.HEAD_SIZES)), dtype=np.int64)
BIG_HP = 5000        # a player who cannot die, to watch a rule run its course


def fight(num_envs=1, seed=11, hp=None, **config):
    """A fresh fight; ``hp`` overrides the player's hitpoints (BIG_HP: it cannot die)."""
    env = osrs_rl.make("zulrah", num_envs=num_envs, seed=seed, **config)
    env.reset()
    if hp is not None:
        env.states["p"]["levels"][:, HITPOINTS] = hp
        commit(env)
    return env


def act(n=1, **heads):
    a = np.zeros((n, len(ST.HEAD_SIZES)), dtype=np.int64)
    for head, value in heads.items():
        a[:, getattr(ST, "H_" + head.upper())] = value
    return a


def commit(env):
    """After editing ``env.states`` by hand: refresh the observation and mask the runtime keeps."""
    idx = list(range(env.num_envs))
    env.set_states(idx, env.get_states(idx))


def place(env, tile, hp=None):
    s = env.states
    s["p"]["x"], s["p"]["y"] = tile
    if hp is not None:
        s["p"]["levels"][:, HITPOINTS] = hp
    commit(env)


def run(env, ticks, action=None):
    """Step ``ticks`` times; per tick: (phase_tick before the step, last_action, last_style) of env 0."""
    out = []
    for _ in range(ticks):
        before = int(env.states[0]["phase_tick"])
        env.step(NOOP.repeat(env.num_envs, 0) if action is None else action)
        s = env.states[0]
        out.append((before, int(s["last_action"]), int(s["last_style"])))
    return out


def first_action(rotation, phase):
    """Phase tick of the first action (rotations.first_action_tick)."""
    return RT.first_action_tick(RT.TIMELINES[rotation][phase])


# ---- timing: spawn lock, cadence, dive ------------------------------------------------------------
def test_attack_cadence_and_style_of_a_serpentine_stand():
    env = fight(start_rotation=1, start_phase=6, hp=BIG_HP)           # rotation 2 phase 7: serpentine east, 5 ranged
    trace = run(env, 20)
    attacks = [(t, style) for t, a, style in trace if a == RT.ACT_RANGED]
    assert attacks == [(t, STYLE_RANGED) for t in (2, 5, 8, 11, 14)]


def test_tanzanite_shots_are_ranged_three_times_in_ten():
    env = fight(num_envs=2000, start_rotation=0, start_phase=2, hp=BIG_HP)   # rotation 1 phase 3: 4 magic
    styles = []
    for _ in range(15):
        env.step(act(env.num_envs))
        s = env.states
        fired = s["last_action"] == RT.ACT_TANZANITE
        styles.append(s["last_style"][fired])
    styles = np.concatenate(styles)
    assert len(styles) == 4 * 2000
    share = np.mean(styles == STYLE_RANGED)
    assert abs(share - 0.3) < 4 * np.sqrt(0.3 * 0.7 / len(styles))          # ZEN p = 3/10


@pytest.mark.parametrize("rotation,phase,first,shots", [(0, 8, STYLE_RANGED, 10), (2, 9, STYLE_MAGIC, 10),
                                                        (3, 10, STYLE_MAGIC, 8)])
def test_jad_phase_alternates_styles(rotation, phase, first, shots):
    env = fight(start_rotation=rotation, start_phase=phase, hp=BIG_HP)
    trace = run(env, 40)
    styles = [style for _, a, style in trace if a in (RT.ACT_RANGED, RT.ACT_MAGIC)]
    other = STYLE_MAGIC if first == STYLE_RANGED else STYLE_RANGED
    assert styles == [first if k % 2 == 0 else other for k in range(shots)]
    first = first_action(rotation, phase)
    assert [t for t, a, _ in trace if a in (RT.ACT_RANGED, RT.ACT_MAGIC)] == list(range(first, first + 3 * shots, 3))


def test_spawn_lock_and_untargetable_ticks():
    env = fight(start_rotation=0)
    zulrah = env.spec.mask_slices()["attack"].start + ST.ATTACK_ZULRAH
    legal = []
    for _ in range(12):
        legal.append(bool(env.action_mask()[0, zulrah]))
        env.step(NOOP)
    # ZEN ZulrahNPC (setCantInteract for 4 ticks at the spawn): not interactable for the first 4 ticks, then
    # in reach from the start tile
    assert legal[:4] == [False] * 4 and all(legal[4:])
    first = next(t for t, a, _ in run(fight(start_rotation=0), 20) if a != RT.ACT_NONE)
    assert first == first_action(0, 0) == 28 - RT.DIVE_TICKS - 4 * RT.ACTION_TICKS     # 13: the RL-R fit


def test_dive_surface_and_the_next_phase():
    # RL-R's 20 ticks run rise to rise: the dive is their last 3 (issue 14: it came after them before)
    env = fight(start_rotation=1, start_phase=6, hp=BIG_HP)           # 20 ticks, then tanzanite south
    zulrah = env.spec.mask_slices()["attack"].start + ST.ATTACK_ZULRAH
    s = env.states[0]
    seen = []
    for _ in range(20 + 4):
        seen.append((int(s["phase"]), int(s["phase_tick"]), bool(env.action_mask()[0, zulrah])))
        env.step(NOOP)
    assert seen[16] == (6, 16, True)
    assert [x[2] for x in seen[17:20]] == [False] * 3                       # diving: 3 ticks
    assert seen[20][:2] == (7, 0) and not any(x[2] for x in seen[20:23])   # surfacing: 3 ticks
    assert seen[23][2]
    assert s["form"] == RT.TANZANITE and s["spot"] == RT.SOUTH
    assert (s["zx"], s["zy"]) == RT.SPOT_TILES[RT.SOUTH]


def test_hits_on_zulrah_in_flight_at_the_dive_land_when_it_rises():
    # OSRS wiki "Zulrah": a hit struck just as it dives registers shortly after it resurfaces (issue 14:
    # they were dropped, following ZEN)
    env = fight(start_rotation=1, start_phase=6, hp=BIG_HP)           # 20 ticks: the dive is ticks 17..19
    s = env.states[0]
    for _ in range(16):
        env.step(NOOP)
    push_hit(s["hits"], int(s["tick"]) + 2, 40, STYLE_RANGED, ST.SRC_PLAYER, ST.TARGET_ZULRAH, 0, 0, 0)
    commit(env)
    for _ in range(4):                                                # due during the dive: it waits
        env.step(NOOP)
        assert s["z_hp"] == 500
    assert s["phase"] == 7 and s["phase_tick"] == 0 and s["z_hp"] == 500     # risen at the next spot
    env.step(NOOP)                                                    # its first tick up: the hit lands
    assert s["z_hp"] == 460
    assert not any(h["state"] == HIT_PENDING and h["target"] == ST.TARGET_ZULRAH for h in s["hits"])


def test_a_new_rotation_follows_the_last_phase():
    env = fight(num_envs=64, start_rotation=0, start_phase=9, hp=BIG_HP)  # the last phase: 21 ticks
    for _ in range(21):
        env.step(act(64))
    s = env.states
    assert (s["phase"] == 0).all() and (s["form"] == RT.SERPENTINE).all() and (s["spot"] == RT.CENTER).all()
    assert len(set(s["rotation"] % RT.NUM_ROTATIONS)) > 1 and (s["rotation"] >= RT.NUM_ROTATIONS).all()
    # the bridge: ranged attacks first, then the volleys (issue 14: the restart repeated the spawn's clouds)
    trace = run(env, 34)
    acts = [a for _, a, _ in trace if a != RT.ACT_NONE]
    assert acts == [RT.ACT_RANGED] * 5 + [RT.ACT_CLOUDS] * 4


# ---- Zulrah's attacks, prayer, venom ----------------------------------------------------------------
def test_the_matching_overhead_blocks_every_attack():
    env = fight(start_rotation=1, start_phase=6)
    env.step(act(overhead=ST.OVERHEAD_MISSILES))
    for _ in range(18):
        env.step(NOOP)
        env.states[0]["p"]["levels"][PRAYER] = 99                             # no drain in this test
    s = env.states[0]
    assert s["zulrah_attacks"] == 5 and s["prayed_attacks"] == 5
    assert s["damage_taken"][ST.SRC_SERPENTINE] == 0


def test_an_accurate_attack_envenoms_even_through_the_overhead():
    # OSRS wiki "Zulrah": ranged and magic attacks envenom unless they miss, even if a protection prayer
    # blocks them (issue 14: only unprotected damaging hits envenomed, so praying made venom rare)
    for overhead in (ST.OVERHEAD_KEEP, ST.OVERHEAD_MISSILES):
        env = fight(num_envs=256, start_rotation=1, start_phase=6, hp=BIG_HP)
        env.step(act(256, overhead=overhead))
        for _ in range(8):
            env.step(act(256))
            env.states["p"]["levels"][:, PRAYER] = 99
        s = env.states
        venomed = s["p"]["venom"] == 1
        assert 0.5 < venomed.mean() < 1.0, overhead                   # some attacks miss: accuracy decides
        if overhead == ST.OVERHEAD_MISSILES:
            assert (s["damage_taken"][:, ST.SRC_SERPENTINE] == 0).all()
        else:
            hit = s["damage_taken"][:, ST.SRC_SERPENTINE] > 0
            assert venomed[hit].all()
    # anti-venom: cures and keeps new venom off
    env = fight(num_envs=256, start_rotation=1, start_phase=6, hp=BIG_HP)
    env.step(act(256, drink=ST.DRINK_ANTIVENOM))
    for _ in range(12):
        env.step(act(256))
    s = env.states
    assert (s["damage_taken"][:, ST.SRC_SERPENTINE] > 0).any() and (s["p"]["venom"] == 0).all()
    assert (s["supplies_used"][:, ST.SUP_ANTIVENOM] == 1).all()


def test_venom_escalates_by_two_every_30_ticks():
    env = fight(start_rotation=0)
    s = env.states[0]
    p = s["p"]
    p["venom"], p["poison_damage"], p["poison_timer"] = 1, 6, 30
    place(env, RT.local(2271, 3077), hp=BIG_HP)                              # away from the opening clouds
    for _ in range(90):
        env.step(NOOP)
    assert s["damage_taken"][ST.SRC_VENOM] == 6 + 8 + 10                      # core.status, OSRS wiki "Venom"
    assert p["poison_damage"] == 12


# ---- magma: stare and slam -------------------------------------------------------------------------
def test_slam_hits_a_player_who_stays_and_stuns_five_ticks():
    env = fight(num_envs=64, start_rotation=0, start_phase=1)               # rotation 1 phase 2: magma
    trace = run(env, 8, act(64))
    assert [t for t, a, _ in trace if a == RT.ACT_MAGMA_PICK] == [2]
    assert [t for t, a, _ in trace if a == RT.ACT_MAGMA_SLAM] == [7]
    s = env.states
    assert (s["stun"] == M.STUN_TICKS - 1).all()                            # counted down once already
    dmg = s["damage_taken"][:, ST.SRC_MAGMA]
    # OSRS wiki "Zulrah": 20-30, and the slam does not envenom (issue 14: 0-30, envenoming)
    assert dmg.min() >= 20 and dmg.max() <= 30 and len(set(dmg)) > 5
    assert (s["p"]["venom"] == 0).all()
    # stunned: walking and attacking are masked for the stun's ticks
    mask = env.action_mask()
    assert not mask[:, 1:ST.NUM_MOVES].any()


def test_moving_away_or_to_a_safespot_avoids_the_slam():
    env = fight(start_rotation=0, start_phase=1)
    run(env, 3)                                                              # picked at stand tick 0
    env.step(act(move=13))                                                   # run two tiles (9 + 4: east)
    run(env, 5)
    assert env.states[0]["damage_taken"][ST.SRC_MAGMA] == 0 and env.states[0]["stun"] == 0
    env = fight(start_rotation=0, start_phase=1)
    place(env, RT.MELEE_SAFESPOTS[0])
    run(env, 20)
    assert env.states[0]["stun"] == 0
    assert env.states[0]["damage_taken"][ST.SRC_MAGMA] == 0


def test_first_slam_misses_the_northeast_tile_in_rotations_1_and_2():
    env = fight(start_rotation=1, start_phase=1)
    place(env, RT.FIRST_SLAM_SAFE_TILE)
    run(env, 8)
    assert env.states[0]["stun"] == 0
    run(env, 10)                                                             # the second slam hits
    assert env.states[0]["stun"] > 0


# ---- clouds and snakelings ---------------------------------------------------------------------------
def test_a_cloud_hurts_1_to_4_a_tick_for_30_ticks():
    env = fight(start_rotation=0)
    place(env, RT.local(2269, 3069), hp=BIG_HP)        # the first volley's first cloud centre (ZEN)
    s = env.states[0]
    per_tick = []
    for _ in range(50):
        before = int(s["damage_taken"][ST.SRC_CLOUDS])
        env.step(NOOP)
        per_tick.append(int(s["damage_taken"][ST.SRC_CLOUDS]) - before)
    hurt = [k for k, d in enumerate(per_tick) if d]
    assert len(hurt) == M.CLOUD_LIFE and hurt == list(range(hurt[0], hurt[0] + 30))
    assert hurt[0] == first_action(0, 0) + 1                                   # the tick after the volley
    assert min(per_tick[k] for k in hurt) >= 1 and max(per_tick) <= 4


def test_snakelings_lock_live_67_ticks_and_come_in_two_variants():
    env = fight(num_envs=400, start_rotation=0, start_phase=3, hp=BIG_HP)   # rotation 1 phase 4: 4 snakelings
    spawn = first_action(0, 3) + 5 * RT.ACTION_TICKS            # after its 5 ranged attacks
    for _ in range(spawn + 1):
        env.step(act(400))
    sn = env.states["snakelings"]
    assert (sn["active"].sum(axis=1) == 1).all()
    spawned = sn[:, 0].copy()
    assert (spawned["lock"] == M.SNAKELING_LOCK).all() and (spawned["life"] == M.SNAKELING_LIFE).all()
    share = spawned["kind"].mean()
    assert abs(share - 0.25) < 4 * np.sqrt(0.25 * 0.75 / 400)            # ZEN: 1/4 magic
    for _ in range(M.SNAKELING_LOCK):
        env.step(act(400))
    now = env.states["snakelings"][:, 0]
    assert (now["x"] == spawned["x"]).all() and (now["y"] == spawned["y"]).all()       # locked 3 ticks
    assert (now["attack_timer"] == 0).all()
    for _ in range(M.SNAKELING_LIFE - M.SNAKELING_LOCK - 1):
        env.step(act(400))
    assert env.states["snakelings"]["active"][:, 0].all()         # alive for 66 ticks after the spawn tick
    env.step(act(400))
    assert not env.states["snakelings"]["active"][:, 0].any()


def test_snakelings_die_with_zulrah():
    env = fight(start_rotation=0, start_phase=3)
    for _ in range(20):
        env.step(NOOP)
    s = env.states[0]
    assert s["snakelings"]["active"].any()
    s["z_hp"] = 10
    push_hit(s["hits"], int(s["tick"]) + 1, 45, STYLE_MAGIC, ST.SRC_PLAYER, ST.TARGET_ZULRAH, 0, 0, 0)
    commit(env)
    _, reward, terminated, _, _ = env.step(NOOP)
    assert terminated[0] and reward[0] == 1.0
    assert not s["snakelings"]["active"].any()
    m = env.pop_metrics()
    assert m["killed"][0] == 1.0 and m["phase"][0] == 3


def test_the_phase_label_counts_on_past_the_end_of_a_rotation():
    # the rotation's phase index starts again at 0 when a rotation ends; the label (the archive's depth in the
    # fight, docs/writing-an-encounter.md) must not
    last = len(RT.ROTATIONS[0]) - 1
    env = fight(hp=BIG_HP, max_ticks=2000, start_rotation=0, start_phase=last)
    s = env.states[0]
    while s["phases_done"] < 2:
        env.step(NOOP)
    assert s["rotation"] >= RT.NUM_ROTATIONS and s["phase"] == 1        # a new rotation, its second phase
    s["z_hp"] = 10
    push_hit(s["hits"], int(s["tick"]) + 1, 45, STYLE_MAGIC, ST.SRC_PLAYER, ST.TARGET_ZULRAH, 0, 0, 0)
    commit(env)
    env.step(NOOP)
    m = env.pop_metrics()
    assert m["killed"][0] == 1.0 and m["phase"][0] == last + 2 and m["phase_name"][0] == f"phase_{last + 3}"


def test_a_player_kills_a_snakeling_in_reach():
    env = fight(start_rotation=0, start_phase=3)
    for _ in range(21):
        env.step(NOOP)
    attack = env.spec.mask_slices()["attack"].start
    mask = env.action_mask()[0]
    slot = next(k for k in range(ST.SNAKELING_SLOTS) if mask[attack + 2 + k])
    env.step(act(attack=2 + slot))
    for _ in range(4):
        env.step(NOOP)
    assert env.states[0]["snakelings_killed"] == 1             # 1 hitpoint, defence -40: a near-certain hit


# ---- the player's attacks: reach, delay, cap -----------------------------------------------------------
def test_player_hits_land_after_the_bow_delay_and_respect_the_cap():
    env = fight(num_envs=200, start_rotation=2, start_phase=1, seed=5)   # serpentine east
    for _ in range(3):
        env.step(act(200))
    s = env.states
    d = M.zulrah_distance(s[0])
    env.step(act(200, attack=ST.ATTACK_ZULRAH))
    hits = s["hits"][(s["hits"]["state"] == HIT_PENDING) & (s["hits"]["target"] == ST.TARGET_ZULRAH)]
    assert len(hits) == 200
    assert (hits["due_tick"] == s["tick"][0] + 1 + (3 + d) // 6 + 1).all()   # bows, +1: NPCs first
    assert hits["damage"].max() <= 50


def test_out_of_reach_attacks_are_masked():
    env = fight(start_rotation=0, start_phase=5, hp=BIG_HP)   # tanzanite west
    place(env, RT.STAND_TILES["northeast_top"])               # 14 tiles east of it
    run(env, 4)
    attack = env.spec.mask_slices()["attack"].start + ST.ATTACK_ZULRAH
    assert M.zulrah_distance(env.states[0]) == 14 and not env.action_mask()[0, attack]
    place(env, RT.STAND_TILES["west"])
    assert env.action_mask()[0, attack]


@njit(cache=True)
def _draw(seed, att, dfn, mx, sp, ctx, n):
    rng = np.zeros(1, dtype=np.uint64)
    R.seed_rng(rng, seed, 0)
    out = np.zeros(4, dtype=np.int64)
    counts = np.zeros(mx + 1, dtype=np.int64)
    for _ in range(n):
        sample_hits(rng, att, dfn, 0, mx, sp, ctx, CAP_ZULRAH, out)
        counts[out[0]] += 1
    return counts


def test_hit_cap_distribution():
    # dps-calc's model (accurate 0s raised to 1, cappedRerollTransformer(50, 5, 45)) worked out by hand:
    # P(0) = 1-p, P(1) = 2p/(M+1), P(2..44) = p/(M+1),
    # P(45..50) = p/(M+1) + p(M-50)/(6(M+1)), nothing above 50
    att, dfn, mx, n = 30000, 10000, 70, 400_000
    p = 1 - (dfn + 2) / (2 * (att + 1))
    sp = build_normal_table()[0]
    counts = _draw(3, att, dfn, mx, sp, np.zeros(15, dtype=np.int64), n)
    want = np.zeros(mx + 1)
    want[0] = 1 - p
    want[1] = 2 * p / (mx + 1)
    want[2:45] = p / (mx + 1)
    want[45:51] = p / (mx + 1) + p * (mx - 50) / (6 * (mx + 1))
    assert counts[51:].sum() == 0
    freq = counts / n
    sigma = np.sqrt(want * (1 - want) / n)
    assert (np.abs(freq[:51] - want[:51]) < 5 * sigma[:51] + 1e-12).all()


# ---- supplies and prayer ---------------------------------------------------------------------------------
def test_eating_drinking_and_prayer_drain():
    env = fight(start_rotation=1, start_phase=6)
    s = env.states[0]
    s["p"]["levels"][HITPOINTS] = 50
    s["p"]["levels"][PRAYER] = 40
    commit(env)
    env.step(act(eat=1, drink=ST.DRINK_PRAYER, overhead=ST.OVERHEAD_MISSILES, offensive=ST.OFFENSIVE_ON))
    assert s["supplies_used"][ST.SUP_FOOD] == 1 and s["supplies_used"][ST.SUP_PRAYER] == 1
    assert s["p"]["levels"][PRAYER] > 40
    before = int(s["p"]["levels"][PRAYER])
    for _ in range(20):
        env.step(NOOP)
    assert s["p"]["levels"][PRAYER] < before                    # missiles + rigour drain (core.prayer_drain)


def test_gear_switch_changes_the_weapon_and_its_reach():
    env = fight(start_rotation=0)
    cfg = env.config[0]
    s = env.states[0]
    assert M.set_range(cfg, s) == 10                             # twisted bow
    env.step(act(gear=1 + ST.SET_MAGIC))
    assert s["set"] == ST.SET_MAGIC and M.set_range(cfg, s) == 7  # sanguinesti staff


def test_the_mask_allows_an_attack_and_a_bite_as_soon_as_their_timers_do():
    # the twisted bow on rapid attacks every 5 ticks and food blocks food for 3 (core.consumables);
    # a policy that clicks whenever the mask allows must reach that cadence, not one tick slower
    for head, option, period in (("attack", ST.ATTACK_ZULRAH, 5), ("eat", 1, 3)):
        env = fight(start_rotation=2, start_phase=1, hp=BIG_HP)     # serpentine east, in reach of the bow
        legal = env.spec.mask_slices()[head].start + option
        clicks = []
        for _ in range(30):
            if head == "eat":
                place(env, RT.PLAYER_START, hp=50)                  # hurt, so food stays useful
            if env.action_mask()[0, legal]:
                clicks.append(int(env.states[0]["tick"]))
                env.step(act(**{head: option}))
            else:
                env.step(NOOP)
        assert len(clicks) >= 5 and set(np.diff(clicks)) == {period}, head


def test_a_snakeling_under_the_player_steps_out_and_attacks():
    """An NPC under its target steps out in a random cardinal direction (core.movement rule 7), so a
    snakeling the player walked onto still attacks: an idle player on its tile is bitten."""
    env = fight(num_envs=64, start_rotation=0, start_phase=3, hp=BIG_HP)
    for _ in range(first_action(0, 3) + 5 * RT.ACTION_TICKS + 1 + M.SNAKELING_LOCK):   # it spawns, its lock ends
        env.step(act(64))
    s = env.states
    assert s["snakelings"]["active"][:, 0].all()
    s["p"]["x"], s["p"]["y"] = s["snakelings"]["x"][:, 0], s["snakelings"]["y"][:, 0]
    s["snakelings"]["kind"][:, 0] = 0                      # the melee variant: it must leave the tile to bite
    commit(env)
    env.step(act(64))
    moved = (s["snakelings"]["x"][:, 0] != s["p"]["x"]) | (s["snakelings"]["y"][:, 0] != s["p"]["y"])
    assert moved.mean() > 0.5                              # a step blocked by the platform edge stays
    before = s["damage_taken"][:, ST.SRC_SNAKELINGS].copy()
    for _ in range(20):
        env.step(act(64))
    assert (s["damage_taken"][:, ST.SRC_SNAKELINGS] > before).mean() > 0.5


# ---- issue 14: line of sight, knock-back, venom from snakelings, attacks after the kill -----------------
def test_a_pillar_blocks_the_line_both_ways_and_zulrah_holds_its_attack():
    # the pillars (2265, 3071) and (2271, 3071) block projectiles (shrine_map.json); before issue 14 the
    # player shot through them and Zulrah attacked from anywhere
    env = fight(start_rotation=0, start_phase=2, hp=BIG_HP)        # rotation 1 phase 3: tanzanite at center
    zulrah = env.spec.mask_slices()["attack"].start + ST.ATTACK_ZULRAH
    place(env, RT.local(2264, 3070))                               # south-west of the west pillar
    s = env.states[0]
    for _ in range(12):
        assert not env.action_mask()[0, zulrah]
        env.step(NOOP)
    assert s["zulrah_attacks"] == 0 and s["stalled"] == 1
    held = int(s["phase_tick"])
    assert held == first_action(0, 2)                               # the clock waits at the attack
    place(env, RT.local(2268, 3069))                                # in the open
    env.step(NOOP)
    assert s["zulrah_attacks"] == 1 and s["phase_tick"] == held + 1
    assert env.action_mask()[0, zulrah]


def test_without_pillar_stall_zulrah_fires_through_the_pillar():
    env = fight(start_rotation=0, start_phase=2, hp=BIG_HP, pillar_stall=False)
    place(env, RT.local(2264, 3070))
    run(env, first_action(0, 2) + 3 * RT.ACTION_TICKS + 1)        # its 4 magic attacks
    s = env.states[0]
    assert s["zulrah_attacks"] == 4 and s["stalled"] == 0


def test_the_slam_knocks_the_player_back_until_the_platform_stops_it():
    # ZEN's slam pushes the player away from Zulrah's centre [M]; from the base's middle it is straight south
    env = fight(start_rotation=0, start_phase=1, hp=BIG_HP)         # magma at center
    place(env, RT.local(2268, 3069))
    run(env, first_action(0, 1) + RT.MAGMA_SLAM_TICKS[0] + 1)
    s = env.states[0]
    assert s["damage_taken"][ST.SRC_MAGMA] >= 20
    assert (int(s["p"]["x"]), int(s["p"]["y"])) == RT.local(2268, 3068)     # one tile, then water


def test_snakeling_hits_envenom():
    # OSRS wiki "Snakeling", "Venom": snakelings envenom (before issue 14 they never did)
    env = fight(num_envs=64, start_rotation=0, start_phase=3, hp=BIG_HP)
    for _ in range(first_action(0, 3) + 5 * RT.ACTION_TICKS + 1 + M.SNAKELING_LOCK):
        env.step(act(64, overhead=ST.OVERHEAD_MISSILES))            # serpentine's shots: blocked
        env.states["p"]["levels"][:, PRAYER] = 99
    s = env.states
    s["p"]["venom"] = 0
    s["p"]["x"], s["p"]["y"] = s["snakelings"]["x"][:, 0] + 1, s["snakelings"]["y"][:, 0]
    s["snakelings"]["kind"][:, 0] = 0
    commit(env)
    for _ in range(6):
        env.step(act(64))
    bitten = s["damage_taken"][:, ST.SRC_SNAKELINGS] > 0
    assert bitten.any() and (s["p"]["venom"][bitten] == 1).all()


def test_zulrahs_attacks_in_flight_land_after_its_death():
    # OSRS wiki "Zulrah": its existing attacks still damage the player after it is killed
    env = fight(start_rotation=1, start_phase=6, hp=30)
    s = env.states[0]
    s["z_hp"] = 10
    push_hit(s["hits"], int(s["tick"]) + 1, 45, STYLE_MAGIC, ST.SRC_PLAYER, ST.TARGET_ZULRAH, 0, 0, 0)
    push_hit(s["hits"], int(s["tick"]) + 3, 35, STYLE_RANGED, ST.SRC_SERPENTINE, ST.TARGET_PLAYER,
             FLAG_ACCURATE, 0, 0)
    commit(env)
    _, _, terminated, _, _ = env.step(NOOP)                         # Zulrah falls; its shot still flies
    assert s["z_hp"] <= 0 and s["kill_tick"] == s["tick"] and not terminated[0]
    env.step(NOOP)
    _, reward, terminated, _, _ = env.step(NOOP)                    # it lands: 35 on 30 hitpoints
    assert terminated[0] and reward[0] == -1.0
    assert env.pop_metrics()["died"][0] == 1.0
