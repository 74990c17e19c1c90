"""The Fight Cave's rules, each driven by hand on a cave whose slots are placed by the test: the slots every wave
and rotation needs, a Tz-Kek's split, the Tz-Kih's drain, Yt-MejKot's heal, TzTok-Jad's tell, his healers (their
call, heal, tag, re-arming and death with him), the end of the cave; the golden trace."""

import pytest

import osrs_rl
from osrs_rl.core import prayer_drain as PD
from osrs_rl.core import prayers as P
from osrs_rl.core.events import EV_ATTACK, EV_HEAL, EV_SPAWN
from osrs_rl.core.pending_hits import STYLE_MAGIC, STYLE_MELEE, STYLE_RANGED
from osrs_rl.core.skills import HITPOINTS, PRAYER
from osrs_rl.encounters.fight_caves import finale as FIN
from osrs_rl.encounters.fight_caves import hits as HIT
from osrs_rl.encounters.fight_caves import spawns as SPN
from osrs_rl.encounters.fight_caves import state as ST
from osrs_rl.encounters.fight_caves import waves as W
from osrs_rl.runtime.checks import trace_hash

from .helpers import BIG_HP, OPEN, act, cave, commit, empty_cave, events, keeper, put

MONSTER = ST.ENT_MONSTER


def _alive(s, kind=None):
    m = s["monsters"]
    return int(((m["state"] == ST.SLOT_ALIVE) & ((m["kind"] == kind) if kind is not None else True)).sum())


def test_eight_slots_hold_every_wave_of_every_rotation_with_its_splits_and_healers():
    """Each wave spawned under each rotation, every Tz-Kek (Level 45) killed in turn: both splits of each find a
    slot; on wave 63 Jad's four healers come, and again (as many as died) once he is healed to full."""
    env = cave()
    cfg = env.config[0]
    most = 0
    for rotation in range(W.NUM_ROTATIONS):
        for wave in range(1, W.NUM_WAVES + 1):
            s = env.states[0]
            s["wave"], s["rotation"] = wave, rotation
            SPN.spawn_wave(s, cfg)
            assert _alive(s) == W.WAVE_SIZE[wave]
            keks = [k for k in range(ST.MONSTER_SLOTS) if s["monsters"][k]["state"] == ST.SLOT_ALIVE
                    and s["monsters"][k]["kind"] == ST.K_KEK]
            for k in keks:
                HIT.kill_monster(s, cfg, k)
                most = max(most, _alive(s))
            assert _alive(s, ST.K_KEK_SPLIT) == 2 * W.COUNTS[wave, W.KEK], (wave, rotation)
            assert _alive(s) == W.WAVE_SIZE[wave] + len(keks)
        jad = 0
        s["monsters"][jad]["hp"] = 100
        FIN.jad_hurt(s, cfg, jad)
        assert _alive(s, ST.K_HURKOT) == W.HEALERS_PER_JAD
        HIT.kill_monster(s, cfg, 1)                                  # one healer dies, Jad is healed to full
        FIN.heal(s, cfg, 2, jad, 250)
        s["monsters"][jad]["hp"] = 100
        FIN.jad_hurt(s, cfg, jad)
        assert _alive(s, ST.K_HURKOT) == W.HEALERS_PER_JAD and _alive(s) == 1 + W.HEALERS_PER_JAD
    assert most == 7                                                 # waves 58 and 59 (state.py)


def test_a_tz_kek_splits_into_two_level_22_beside_each_other():
    env = cave()
    empty_cave(env)
    keeper(env)
    put(env, 0, ST.K_KEK, 20, 20)
    s = env.states[0]
    HIT.kill_monster(s, env.config[0], 0)
    m = s["monsters"]
    assert m[0]["kind"] == ST.K_KEK_SPLIT and (m[0]["x"], m[0]["y"]) == (20, 20)
    assert m[1]["kind"] == ST.K_KEK_SPLIT and (m[1]["x"], m[1]["y"]) == (21, 20)     # the first free of E, W, S, N
    assert m[0]["hp"] == m[1]["hp"] == 10 and m[0]["stun"] == 1


def test_a_tz_kih_drains_a_prayer_point_through_protect_from_melee():
    env = cave()
    empty_cave(env)
    keeper(env)
    put(env, 0, ST.K_KIH, OPEN[0] + 1, OPEN[1])
    before = int(env.states[0]["p"]["levels"][PRAYER])
    env.step(act(overhead=ST.OVERHEAD.melee))
    s = env.states[0]
    assert len(events(env, EV_ATTACK, MONSTER + 0)) == 1
    assert int(s["prayer_drained"]) == 1 and int(s["prayed_attacks"]) == 1
    assert int(s["p"]["levels"][PRAYER]) == before - 1          # the overhead itself drains nothing on its first tick


def test_a_yt_mejkot_below_half_heals_itself_instead_of_attacking():
    env = cave()
    empty_cave(env)
    keeper(env)
    put(env, 0, ST.K_MEJKOT, OPEN[0] + 1, OPEN[1], hp=30)
    env.step(act())
    s = env.states[0]
    heals = events(env, EV_HEAL, MONSTER + 0)
    assert len(heals) == 1 and int(heals[0]["target"]) == MONSTER + 0
    assert 31 <= int(s["monsters"][0]["hp"]) <= 40 and not events(env, EV_ATTACK, MONSTER + 0)
    assert int(s["monsters"][0]["attack_timer"]) == 4


def test_jads_tell_shows_the_style_released_three_ticks_later_against_the_overhead_then():
    env = cave(seed=5)
    empty_cave(env, player=(30, 15))
    keeper(env)
    put(env, 0, ST.K_JAD, 28, 22)                                 # 5 x 5, 3 tiles north: at distance
    env.step(act())
    m = env.states[0]["monsters"][0]
    style, windup = int(m["scan"]), int(m["windup"])
    assert style in (STYLE_RANGED, STYLE_MAGIC) and windup == 3 and not events(env, EV_ATTACK, MONSTER + 0)
    wanted = ST.OVERHEAD.missiles if style == STYLE_RANGED else ST.OVERHEAD.magic
    env.step(act())
    env.step(act())
    env.step(act(overhead=wanted))        # a flick: the overhead on for the release tick alone
    attack = events(env, EV_ATTACK, MONSTER + 0)
    assert len(attack) == 1 and int(attack[0]["style"]) == style and int(env.states[0]["prayed_attacks"]) == 1
    assert int(env.states[0]["monsters"][0]["scan"]) == -1


def test_jads_healers_walk_to_him_heal_him_and_turn_on_the_player_when_hit():
    env = cave(seed=3, start_wave=63)
    s = env.states[0]
    s["p"]["levels"][HITPOINTS] = 5000
    jad = next(k for k in range(ST.MONSTER_SLOTS) if s["monsters"][k]["kind"] == ST.K_JAD)
    s["monsters"][jad]["hp"] = 120
    FIN.jad_hurt(s, env.config[0], jad)
    commit(env)
    healers = [k for k in range(ST.MONSTER_SLOTS) if s["monsters"][k]["kind"] == ST.K_HURKOT
               and s["monsters"][k]["state"] == ST.SLOT_ALIVE]
    assert len(healers) == 4 and all(int(s["monsters"][k]["target"]) == jad for k in healers)
    healed = 0
    for _ in range(150):
        env.step(act())
        healed += sum(int(e["amount"]) for e in events(env, EV_HEAL))
        if healed:
            break
    assert healed > 0 and int(env.states[0]["monsters"][jad]["hp"]) > 120
    s = env.states[0]
    k = healers[0]
    FIN.drawn_by_player(s, env.config[0], k)                        # the player's hit lands on it (hits.struck)
    assert int(s["monsters"][k]["target"]) == ST.TARGET_PLAYER and int(s["healers_tagged"]) == 1


def test_killing_jad_kills_his_healers_and_ends_the_cave_as_a_success():
    env = cave(seed=3, start_wave=63)
    s = env.states[0]
    jad = next(k for k in range(ST.MONSTER_SLOTS) if s["monsters"][k]["kind"] == ST.K_JAD)
    s["monsters"][jad]["hp"] = 100
    FIN.jad_hurt(s, env.config[0], jad)
    s["monsters"][jad]["hp"] = 0
    HIT.kill_monster(s, env.config[0], jad)
    commit(env)
    assert _alive(env.states[0]) == 0
    _, reward, terminated, truncated, _ = env.step(act())
    assert terminated[0] and not truncated[0] and reward[0] == 1.0
    m = env.pop_metrics()
    assert m["jad_killed"][0] == 1.0 and m["died"][0] == 0.0 and m["final_wave"][0] == 63


def test_a_cleared_wave_brings_the_next_after_the_gap_on_its_rotations_areas():
    env = cave(seed=4, start_wave=1)
    s = env.states[0]
    rotation = int(s["rotation"])
    s["monsters"]["state"] = ST.SLOT_FREE
    commit(env)
    env.step(act())
    assert int(env.states[0]["waves_cleared"]) == 1 and int(env.states[0]["next_wave_in"]) == W.WAVE_GAP_TICKS
    for _ in range(W.WAVE_GAP_TICKS):
        env.step(act())
    s = env.states[0]
    assert int(s["wave"]) == 2 and _alive(s) == W.WAVE_SIZE[2]
    spawns = [e for e in events(env, EV_SPAWN) if int(e["source"]) >= MONSTER]
    want = [tuple(int(v) for v in env.config["spawn_xy"][0][W.spawn_area(2, rotation, k)]) for k in range(2)]
    assert [(int(e["x"]), int(e["y"])) for e in spawns] == want


def test_the_peer_kit_has_no_drink_and_the_realistic_kit_fills_28_slots():
    env = cave(kit=0)
    start = sum(env.spec.head_sizes[:ST.HEAD.drink])
    assert env.action_mask()[0][start] and not env.action_mask()[0][start + 1:start + 1 + ST.NUM_SUPPLIES].any()
    env = osrs_rl.make("fight_caves", num_envs=1, kit=1)
    assert list(env.config["supply_start"][0]) == [40, 72]
    with pytest.raises(Exception, match="28"):
        osrs_rl.make("fight_caves", num_envs=1, kit=1, brews=44)


def test_rigour_and_the_overhead_need_prayer_points():
    env = cave()
    env.states[0]["p"]["levels"][PRAYER] = 0
    commit(env)
    mask = env.action_mask()[0]
    start = sum(env.spec.head_sizes[:ST.HEAD.overhead])
    assert mask[start] and not mask[start + ST.OVERHEAD.magic] and not mask[start + ST.OVERHEAD.melee]
    env.step(act(overhead=ST.OVERHEAD.melee))
    assert not (int(env.states[0]["p"]["active_prayers"]) >> P.PROTECT_FROM_MELEE) & 1


def test_an_overhead_is_on_only_while_chosen_and_kept_up_by_the_one_tick_flick_for_free():
    """The prayer heads hold (core.player_input hold_overhead): an option is the prayer wanted this tick, and the
    player keeps it up by clicking it off and on within the tick (one_tick_flick; core.prayer_drain: the drain
    timer queued anew never runs). Protect from Missiles and Rigour chosen for 100 ticks drain nothing and stay
    legal; left at none they go off. The same prayers on without the flick drain (the rule it undoes)."""
    env = cave()
    empty_cave(env)
    keeper(env)
    p = env.states[0]["p"]
    full = int(p["levels"][PRAYER])
    start = sum(env.spec.head_sizes[:ST.HEAD.overhead])
    for _ in range(100):
        env.step(act(overhead=ST.OVERHEAD.missiles, offensive=ST.OFFENSIVE.on))
        assert env.action_mask()[0][start + ST.OVERHEAD.missiles]
    rigour = int(env.config[0]["offensive"])
    assert (int(p["active_prayers"]) >> P.PROTECT_FROM_MISSILES) & 1 and int(p["active_prayers"]) & rigour
    assert int(p["levels"][PRAYER]) == full
    env.step(act())
    assert int(p["active_prayers"]) == 0
    p["active_prayers"] = (1 << P.PROTECT_FROM_MISSILES) | rigour      # the same prayers, no clicks: they drain
    p["prayer_was_on"] = 1
    for _ in range(20):
        PD.drain_prayer(p, 0)
    assert int(p["levels"][PRAYER]) < full


def golden_hash(ticks=300):
    """Fixed seed, fixed action stream (random legal actions from a fixed generator): hash of the states."""
    env = osrs_rl.make("fight_caves", num_envs=4, seed=2026, start_wave=45)
    env.reset()
    return trace_hash(env, ticks)


# Changing this hash changes the simulation: explain why in the commit that updates it.
GOLDEN = "ade8004f75a3d770"   # the prayer heads hold, kept up by the 1-tick flick (no drain): the play differs


def test_golden_trace():
    assert golden_hash() == GOLDEN


def test_melee_styles_roll_against_crush_defence_and_listed_max_hits():
    """The max hits the kernels roll are npcs.json's listed ones (the data README's choices)."""
    cfg = osrs_rl.make("fight_caves", num_envs=1).config[0]
    assert cfg["kind_max"][ST.K_XIL, STYLE_RANGED] == 14 and cfg["kind_max"][ST.K_XIL, STYLE_MELEE] == 13
    assert cfg["kind_max"][ST.K_ZEK, STYLE_MAGIC] == 52 and cfg["kind_max"][ST.K_ZEK, STYLE_MELEE] == 54
    assert list(cfg["kind_max"][ST.K_JAD]) == [97, 97, 97]
    assert cfg["kind_max"][ST.K_KIH, STYLE_RANGED] == -1


def test_the_hitpoints_shaping_sums_to_minus_the_first_hitpoints_whatever_the_run_does():
    """Potential-based (coef_hitpoints): undiscounted, a run's hitpoints terms add up to -first hp / 99, however
    it ends; each hit costs on the tick it lands."""
    env = cave(seed=5, start_wave=63, coef_hitpoints=1.0, hitpoints_gamma=1.0, death_reward=0.0)
    first = int(env.states[0]["p"]["levels"][HITPOINTS])
    total, hurt_ticks = 0.0, 0
    for _ in range(3000):
        before = int(env.states[0]["p"]["levels"][HITPOINTS])
        _, reward, terminated, truncated, _ = env.step(act())
        after = int(env.states[0]["p"]["levels"][HITPOINTS])
        if after < before and not terminated[0]:
            assert reward[0] == pytest.approx((after - before) / 99.0, abs=1e-6)
            hurt_ticks += 1
        total += float(reward[0])
        if terminated[0] or truncated[0]:
            break
    assert terminated[0] and env.pop_metrics()["died"][0] == 1.0
    assert hurt_ticks > 0 and total == pytest.approx(-first / 99.0, abs=1e-5)


def test_the_prayer_points_shaping_charges_each_point_drained_and_sums_to_minus_the_first_points():
    """Potential-based (coef_prayer_points): with two Tz-Kih draining a point an attack and a Ket-Zek to end the
    run, each tick a point drains costs 1 / 99 on that tick (undiscounted), a tick with none drained costs nothing,
    and the run's terms add up to -first points / 99 however it ends; the other terms are off."""
    env = cave(seed=5, coef_prayer_points=1.0, hitpoints_gamma=1.0, death_reward=0.0, cleared_reward=0.0)
    empty_cave(env, hp=99)
    keeper(env)
    put(env, 0, ST.K_KIH, OPEN[0] + 1, OPEN[1])
    put(env, 1, ST.K_KIH, OPEN[0] - 1, OPEN[1])
    put(env, 2, ST.K_ZEK, OPEN[0] - 1, OPEN[1] + 5)
    first = int(env.states[0]["p"]["levels"][PRAYER])
    total, drained_ticks, quiet_ticks = 0.0, 0, 0
    for _ in range(3000):
        before = int(env.states[0]["p"]["levels"][PRAYER])
        _, reward, terminated, truncated, _ = env.step(act(overhead=ST.OVERHEAD.missiles,
                                                           offensive=ST.OFFENSIVE.on))
        after = int(env.states[0]["p"]["levels"][PRAYER])
        if not terminated[0]:
            assert reward[0] == pytest.approx((after - before) / 99.0, abs=1e-6)
            drained_ticks += after < before
            quiet_ticks += after == before
        total += float(reward[0])
        if terminated[0] or truncated[0]:
            break
    assert terminated[0] and drained_ticks > 10 and quiet_ticks > 0
    assert total == pytest.approx(-first / 99.0, abs=1e-5)


def test_a_wave_open_past_the_training_limit_ends_the_run_as_a_terminated_timeout():
    """wave_tick_limit (training, not a rule): a wave held open ends the run with timeout_reward, terminated; off
    (0, the default) the same stall runs on."""
    for limit, ends in ((40, True), (0, False)):
        env = cave(seed=6, start_wave=1, wave_tick_limit=limit, timeout_reward=-1.0)
        empty_cave(env)
        keeper(env)
        s = env.states[0]
        s["wave_tick"] = 0
        commit(env)
        ticks = 0
        while ticks < 60:
            _, reward, terminated, truncated, _ = env.step(act())
            ticks += 1
            if terminated[0]:
                break
        assert bool(terminated[0]) == ends and not truncated[0]
        if ends:
            assert ticks == limit and reward[0] == -1.0 and env.pop_metrics()["timed_out"][0] == 1.0


def test_the_missed_prayer_penalty_charges_each_attack_the_overhead_did_not_meet_and_pays_nothing():
    """coef_prayer_missed: -1 per attack not met, nothing for one met; over a run the term is minus the unmet count."""
    env = cave(seed=8, start_wave=63, coef_prayer_missed=1.0)
    env.states[0]["p"]["levels"][HITPOINTS] = BIG_HP        # Jad's hits cannot end the run
    commit(env)
    total = 0.0
    for _ in range(300):
        # the overhead for Jad's ranged style, held: his ranged attacks are met, the magic ones are not
        _, reward, terminated, truncated, _ = env.step(act(overhead=ST.OVERHEAD.missiles))
        assert reward[0] <= 0.0 and not terminated[0]
        total += float(reward[0])
    s = env.states[0]
    attacks, prayed = int(s["monster_attacks"]), int(s["prayed_attacks"])
    assert 0 < prayed < attacks and total == pytest.approx(-(attacks - prayed))


@pytest.mark.parametrize("kind", [ST.K_KIH, ST.K_KEK, ST.K_MEJKOT])
def test_protect_from_melee_blocks_every_melee_monsters_hits_and_none_without_it(kind):
    """The audit of the first trained policy found Yt-MejKot's melee met by the overhead in 1 of 298 hits: the
    overhead works against it (the policy had not learned it), as against the other melee kinds."""
    for prayed in (True, False):
        env = cave(seed=12)
        empty_cave(env)
        keeper(env)
        put(env, 0, kind, OPEN[0] + 1, OPEN[1])
        attacks, lost = 0, 0
        for _ in range(60):
            before = int(env.states[0]["p"]["levels"][HITPOINTS])
            env.step(act(overhead=ST.OVERHEAD.melee) if prayed else act())
            attacks += len(events(env, EV_ATTACK, MONSTER + 0))
            lost += before - int(env.states[0]["p"]["levels"][HITPOINTS])
        assert attacks >= 10
        assert (lost == 0) if prayed else (lost > 0)
