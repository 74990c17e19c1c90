"""The finale, waves 67-69 (issue 18): the Jads and their healers, TzKal-Zuk, the Ancestral Glyph, his sets,
Jad and healers, the sparks; the reward terms that cannot be farmed, the terminal modes, the phases and the
wave-69 start states. One rule per test; sources in finale.py and the README."""

import tomllib
from pathlib import Path

import numpy as np

from osrs_rl.core.events import EV_ATTACK, EVF_BLOCKED
from osrs_rl.core.jad import TELL_TICKS
from osrs_rl.core.pending_hits import FLAG_ACCURATE, HIT_PENDING, STYLE_MAGIC, STYLE_RANGED, STYLE_TYPELESS
from osrs_rl.core.skills import HITPOINTS
from osrs_rl.encounters.inferno import arena as A
from osrs_rl.encounters.inferno import finale as FIN
from osrs_rl.encounters.inferno import state as ST
from osrs_rl.encounters.inferno import view as V

from .helpers import BIG_HP, act, commit, inferno, run

MONSTER = ST.ENT_MONSTER
ZUK_PRESET = Path(FIN.__file__).with_name("zuk.toml")
_OVER = {STYLE_MAGIC: ST.OVERHEAD_MAGIC, STYLE_RANGED: ST.OVERHEAD_MISSILES}


def zuk(seed=3, hp=BIG_HP, **config):
    """A wave-69 start (the glyph in slot 0, Zuk in slot 1)."""
    return inferno(seed=seed, hp=hp, **{"start_wave": 69, "last_wave": 69, **config})


def hold_glyph(env):
    env.states[0]["monsters"][FIN.SHIELD_SLOT]["frozen"] = 10_000
    commit(env)


def shelter(env):
    """The player on the middle tile of the glyph's shelter (InfernoTrainer's rule, the default)."""
    g = env.states[0]["monsters"][FIN.SHIELD_SLOT]
    env.states[0]["p"]["x"], env.states[0]["p"]["y"] = int(g["x"]) + 2, int(g["y"]) - 2
    commit(env)


def land(env, slot, damage):
    """One of the player's hits on monster ``slot`` for ``damage``, landing next tick (no roll)."""
    s = env.states[0]
    i = int(np.flatnonzero(s["hits"]["state"] == 0)[0])
    h = s["hits"][i]
    h["state"], h["due_tick"], h["damage"], h["style"] = HIT_PENDING, int(s["tick"]) + 1, damage, STYLE_RANGED
    h["attacker"], h["target"], h["flags"], h["heal_pct"], h["freeze_ticks"] = 0, ST.HT_MONSTER + slot, \
        FLAG_ACCURATE, 0, 0
    s["hit_source"][i] = ST.ENT_PLAYER
    s["hit_flags"][i] = 0
    commit(env)


def alive(env, kind):
    m = env.states[0]["monsters"]
    return [k for k in range(ST.MONSTER_SLOTS) if m[k]["state"] == ST.SLOT_ALIVE and m[k]["kind"] == kind]


def phase(env):
    out = V.METRICS.zeros(1)
    return int(V.metrics(env.states[0], env.config[0], out[0]))


# ---- waves 67 and 68 ---------------------------------------------------------------------------------------
def _jad_release_blocked(pray_at, off_at=None):
    """Wave 67: the Jad shows a style; the overhead for it is clicked ``pray_at`` ticks after the tell (and
    turned off ``off_at`` ticks after it); whether the released attack met it."""
    env = inferno(seed=5, hp=BIG_HP, start_wave=67, last_wave=67)
    for _ in range(20):
        run(env, 1)
        if int(env.states[0]["monsters"][0]["windup"]) == TELL_TICKS:
            break
    style = int(env.states[0]["monsters"][0]["scan"])
    assert style in (STYLE_MAGIC, STYLE_RANGED)
    for t in range(1, TELL_TICKS + 1):
        a = act(overhead=_OVER[style]) if t == pray_at else act(overhead=ST.OVERHEAD_OFF) if t == off_at else act()
        ticks = run(env, 1, a)
    attacks = [e for e in ticks[0] if int(e["kind"]) == EV_ATTACK and int(e["source"]) == MONSTER]
    assert len(attacks) == 1 and int(attacks[0]["style"]) == style
    return bool(int(attacks[0]["flags"]) & EVF_BLOCKED)


def test_jad_overhead_is_read_when_the_attack_leaves_three_ticks_after_its_tell():
    """The style shows on the animation; the attack leaves core.jad.TELL_TICKS = 3 ticks later and the overhead active
    then decides (InfernoTrainer JalTokJad.ts DelayedAction 3): a prayer clicked on the release tick blocks
    it, one up at the tell and off on the release tick does not."""
    assert _jad_release_blocked(pray_at=3)
    assert not _jad_release_blocked(pray_at=None)


def test_jad_tell_then_switching_off_on_the_release_tick_is_not_protected():
    env_blocked = _jad_release_blocked(pray_at=1, off_at=3)
    assert not env_blocked


def test_triple_jads_attack_three_ticks_apart_every_nine_ticks():
    env = inferno(seed=2, hp=BIG_HP, start_wave=68, last_wave=68)
    assert len(alive(env, ST.K_JAD)) == 3
    tells = {k: [] for k in alive(env, ST.K_JAD)}
    for _ in range(40):
        run(env, 1)
        for k in tells:
            if int(env.states[0]["monsters"][k]["windup"]) == TELL_TICKS:
                tells[k].append(int(env.states[0]["tick"]))
    firsts = sorted(t[0] for t in tells.values())
    assert np.diff(firsts).tolist() == [3, 3]
    for t in tells.values():
        assert set(np.diff(t).tolist()) == {FIN.JAD_68_SPEED}


def test_jad_calls_healers_below_half_who_heal_until_drawn_and_die_with_it():
    env = inferno(seed=4, hp=BIG_HP, start_wave=67, last_wave=67)
    s = env.states[0]
    s["monsters"][0]["hp"] = 180
    commit(env)
    land(env, 0, 10)
    run(env, 1)
    healers = alive(env, ST.K_JAD_HEALER)
    assert len(healers) == FIN.JAD_HEALERS[0]
    m = env.states[0]["monsters"]
    assert all(int(m[k]["parent"]) == 0 and int(m[k]["target"]) == ST.TARGET_SLOT for k in healers)
    run(env, 30)
    assert int(env.states[0]["healed"]) > 0 and int(env.states[0]["healing_ticks"]) > 0
    land(env, healers[0], 1)
    run(env, 1)
    assert int(env.states[0]["monsters"][healers[0]]["target"]) == ST.TARGET_PLAYER
    assert int(env.states[0]["healers_tagged"]) == 1
    land(env, 0, 400)
    run(env, 1)
    assert alive(env, ST.K_JAD_HEALER) == [] and alive(env, ST.K_JAD) == []
    assert int(env.states[0]["kills"][ST.K_JAD_HEALER]) == 0      # they died with it: not the player's kills


def test_remaining_pillars_fall_when_wave_67_begins():
    env = inferno(seed=1, hp=BIG_HP, start_wave=66, last_wave=69)
    assert (env.states[0]["pillar_hp"] > 0).all()
    env.states[0]["monsters"]["state"] = ST.SLOT_DEAD
    commit(env)
    run(env, 1 + ST.WAVE_GAP_TICKS)
    s = env.states[0]
    assert int(s["wave"]) == 67 and (s["pillar_hp"] == 0).all() and len(alive(env, ST.K_JAD)) == 1


# ---- the Zuk wave ------------------------------------------------------------------------------------------
def test_zuk_hits_the_glyph_when_sheltered_and_the_player_otherwise_whatever_the_overhead():
    """First attack 14 ticks into the wave, then every 10; sheltered: the glyph takes it (no damage); outside
    the shelter a typeless hit lands 4 ticks later whatever overhead is up."""
    env = zuk()
    hold_glyph(env)
    shelter(env)
    ticks = run(env, 14, act(overhead=ST.OVERHEAD_MAGIC))
    zuk_attacks = [int(e["tick"]) for t in ticks for e in t
                   if int(e["kind"]) == EV_ATTACK and int(e["source"]) == MONSTER + FIN.ZUK_SLOT]
    assert zuk_attacks == [14] and int(env.states[0]["sheltered_attacks"]) == 1
    assert int(env.states[0]["sheltered_ticks"]) == 14
    assert not (env.states[0]["hits"]["target"][env.states[0]["hits"]["state"] == HIT_PENDING] == 0).any()
    env.states[0]["p"]["x"] += 6
    commit(env)
    ticks = run(env, 10)
    hits = env.states[0]["hits"]
    on_me = hits[(hits["state"] == HIT_PENDING) & (hits["target"] == ST.HT_PLAYER)]
    assert len(on_me) == 1 and int(on_me[0]["style"]) == STYLE_TYPELESS
    assert int(on_me[0]["due_tick"]) == 24 + FIN.ZUK_PROJECTILE
    assert int(env.states[0]["zuk_attacks"]) == 1


def test_glyph_walks_a_tile_a_tick_stands_five_ticks_at_each_end_and_turns():
    env = zuk(glyph_start_x=3, glyph_start_dir=1)
    xs = []
    for _ in range(12):
        run(env, 1)
        xs.append(int(env.states[0]["monsters"][FIN.SHIELD_SLOT]["x"]))
    # tick 1 it stands (it spawns frozen 1), then west to the end (x 0), 5 ticks there with its arrival's (IT
    # freeze(5) counted down in the same tick's Mob.attackStep), then east. Regression: it stood 6 ticks
    assert xs == [3, 2, 1, 0, 0, 0, 0, 0, 1, 2, 3, 4]


def test_sets_come_every_350_turns_after_72_aim_at_the_glyph_and_turn_when_hit():
    env = zuk()
    hold_glyph(env)
    shelter(env)
    run(env, FIN.SET_FIRST - 1)             # the set timer counts his stunned turns too (regression: it did not)
    assert int(env.states[0]["sets_spawned"]) == 0
    run(env, 1)
    s = env.states[0]
    assert int(s["sets_spawned"]) == 1 and int(s["set_timer"]) == FIN.SET_PERIOD
    mager, ranger = alive(env, ST.K_MAGER)[0], alive(env, ST.K_RANGER)[0]
    assert int(s["monsters"][mager]["target"]) == ST.TARGET_SHIELD == int(s["monsters"][ranger]["target"])
    run(env, 12)
    assert int(env.states[0]["monsters"][FIN.SHIELD_SLOT]["hp"]) < A.GLYPH_HP
    land(env, mager, 1)
    run(env, 1)
    assert int(env.states[0]["monsters"][mager]["target"]) == ST.TARGET_PLAYER
    assert int(env.states[0]["monsters"][ranger]["target"]) == ST.TARGET_SHIELD
    # the glyph falls: its attackers turn on the player
    env.states[0]["monsters"][FIN.SHIELD_SLOT]["hp"] = 1
    commit(env)
    run(env, 8)
    assert env.states[0]["monsters"][FIN.SHIELD_SLOT]["state"] == ST.SLOT_DEAD
    assert int(env.states[0]["monsters"][ranger]["target"]) == ST.TARGET_PLAYER


def test_zuk_thresholds_pause_resume_with_jad_then_healers_and_rage():
    env = zuk()
    hold_glyph(env)
    shelter(env)
    z = FIN.ZUK_SLOT
    run(env, FIN.ZUK_STUN)                                          # his set timer counts on his own turns
    env.states[0]["monsters"][z]["hp"] = 601
    commit(env)
    land(env, z, 2)
    run(env, 1)
    s = env.states[0]
    assert int(s["set_paused"]) == 1
    timer = int(s["set_timer"])
    run(env, 5)
    assert int(env.states[0]["set_timer"]) == timer          # paused
    env.states[0]["monsters"][z]["hp"] = 481
    commit(env)
    land(env, z, 2)
    run(env, 1)
    s = env.states[0]
    assert int(s["set_paused"]) == 0 and int(s["set_timer"]) == timer + FIN.SET_RESUME_EXTRA - 1
    jad = alive(env, ST.K_JAD)
    assert len(jad) == 1 and int(s["monsters"][jad[0]]["target"]) == ST.TARGET_SHIELD
    assert (int(s["monsters"][jad[0]]["x"]), int(s["monsters"][jad[0]]["y"])) == A.ZUK_JAD
    env.states[0]["monsters"][z]["hp"] = 241
    commit(env)
    land(env, z, 2)
    run(env, 1)
    s = env.states[0]
    healers = alive(env, ST.K_ZUK_HEALER)
    assert int(s["enraged"]) == 1 and len(healers) == 4
    assert {(int(s["monsters"][k]["x"]), int(s["monsters"][k]["y"])) for k in healers} == set(A.ZUK_HEALERS)
    assert FIN.attack_speed_of(s, env.config[0], s["monsters"][z]) == FIN.ZUK_ENRAGED_SPEED


def test_zuk_healers_heal_until_tagged_then_throw_sparks_that_land_on_the_3x3_two_ticks_later():
    env = zuk(zuk_start_hp=200, zuk_start_jad=False)
    hold_glyph(env)
    shelter(env)
    healers = alive(env, ST.K_ZUK_HEALER)
    run(env, 8)
    assert int(env.states[0]["healed"]) > 0
    land(env, healers[0], 1)
    run(env, 1)
    s = env.states[0]
    assert int(s["monsters"][healers[0]]["target"]) == ST.TARGET_PLAYER and int(s["healers_tagged"]) == 1
    for _ in range(6):
        run(env, 1)
        due = env.states[0]["sparks"]["due_tick"]
        if (due > 0).any():
            break
    assert (due > 0).sum() == FIN.SPARKS_PER_THROW
    assert set((due[due > 0] - int(env.states[0]["tick"])).tolist()) == {FIN.SPARK_DELAY}
    rows = env.states[0]["sparks"]["y"][due > 0]
    assert ((rows >= A.SPARK_ROWS[0]) & (rows <= A.SPARK_ROWS[1])).all()
    # a spark by hand: on the player's diagonal neighbour it hits, two tiles off it does not
    s = env.states[0]
    s["sparks"]["due_tick"] = 0
    px, py = int(s["p"]["x"]), int(s["p"]["y"])
    s["sparks"][0] = (int(s["tick"]) + 1, px + 1, py - 1, 7, healers[1])
    s["sparks"][1] = (int(s["tick"]) + 1, px + 2, py, 9, healers[1])
    commit(env)
    hp = int(s["p"]["levels"][HITPOINTS])
    run(env, 1)
    assert int(env.states[0]["p"]["levels"][HITPOINTS]) == hp - 7


def test_everything_dies_with_zuk_and_his_death_clears_the_run():
    env = zuk(zuk_start_hp=100)
    shelter(env)
    assert alive(env, ST.K_JAD) and len(alive(env, ST.K_ZUK_HEALER)) == 4
    env.states[0]["hits"]["state"] = 0
    commit(env)
    land(env, FIN.ZUK_SLOT, 100)
    _, _, terminated, _, _ = env.step(act())
    s = env.states[0]
    assert bool(terminated[0]) and int(s["outcome"]) == ST.OUTCOME_CLEARED
    assert not (s["monsters"]["state"] == ST.SLOT_ALIVE).any()
    assert int(s["kills"][ST.K_ZUK]) == 1 and int(s["kills"][ST.K_ZUK_HEALER]) == 0


def test_wave_69_start_states_bring_what_zuks_thresholds_bring():
    env = zuk(zuk_start_hp=470, zuk_start_sets=2, glyph_start_x=20, glyph_start_dir=2)
    s = env.states[0]
    assert int(s["monsters"][FIN.ZUK_SLOT]["hp"]) == 470 and len(alive(env, ST.K_JAD)) == 1
    assert len(alive(env, ST.K_MAGER)) == 2 == len(alive(env, ST.K_RANGER))
    assert int(s["set_timer"]) == FIN.SET_FIRST + FIN.SET_RESUME_EXTRA and int(s["set_paused"]) == 0
    assert int(s["monsters"][FIN.SHIELD_SLOT]["x"]) == 20 and int(s["shield_dir"]) == 1
    assert phase(env) == ST.PH_ZUK_JAD
    env = zuk(zuk_start_hp=200, zuk_start_healers=False, zuk_start_jad=False)
    assert alive(env, ST.K_ZUK_HEALER) == [] and alive(env, ST.K_JAD) == [] and int(env.states[0]["enraged"]) == 1
    assert phase(env) == ST.PH_ZUK_AFTER_HEALERS
    assert phase(zuk(zuk_start_hp=200)) == ST.PH_ZUK_HEALERS
    assert phase(zuk(zuk_start_hp=100)) == ST.PH_ZUK_LOW_HP
    assert phase(zuk()) == ST.PH_ZUK_BEFORE_SETS
    assert phase(zuk(zuk_start_sets=1)) == ST.PH_ZUK_SETS


# ---- rewards and terminals -----------------------------------------------------------------------------------
def _returns(env, ticks, action=None):
    total = 0.0
    for _ in range(ticks):
        _, r, term, trunc, _ = env.step(act() if action is None else action)
        total += float(r[0])
        if term[0] or trunc[0]:
            break
    return total


def test_zuk_damage_pays_new_lows_only_so_heal_back_is_not_paid_twice():
    env = zuk(coef_zuk_damage=1.0, coef_wave=0.0, cleared_reward=0.0, death_reward=0.0)
    hold_glyph(env)
    shelter(env)
    land(env, FIN.ZUK_SLOT, 120)
    first = _returns(env, 1)
    assert abs(first - 120 / 1200) < 1e-6
    env.states[0]["monsters"][FIN.ZUK_SLOT]["hp"] += 100          # his healers give back 100
    commit(env)
    land(env, FIN.ZUK_SLOT, 100)
    assert _returns(env, 1) == 0.0                               # back to the same low: nothing
    land(env, FIN.ZUK_SLOT, 30)
    assert abs(_returns(env, 1) - 30 / 1200) < 1e-6              # a new low pays again


def test_a_healer_tag_pays_once_and_only_while_the_healer_heals():
    env = zuk(zuk_start_hp=200, zuk_start_jad=False, coef_healer_tag=0.25, coef_wave=0.0, cleared_reward=0.0,
              death_reward=0.0)
    hold_glyph(env)
    shelter(env)
    healer = alive(env, ST.K_ZUK_HEALER)[0]
    land(env, healer, 1)
    assert _returns(env, 1) == 0.25
    land(env, healer, 1)
    assert _returns(env, 1) == 0.0                               # drawn already: no second tag


def test_glyph_shaping_charges_a_sets_hit_when_it_lands_and_sums_to_the_same_however_the_run_ends():
    """Potential-based on the glyph's hitpoints / 600: a set's hit costs on its tick, and the run's return
    discounted by hitpoints_gamma is minus the glyph's first hitpoints / 600 whether Zuk dies at once or after
    the glyph has taken a set's hits (no stall, loop or early end pays)."""
    gamma = float(np.float32(0.995))

    def branch(kill_at):
        env = zuk(coef_glyph=1.0, hitpoints_gamma=gamma, zuk_start_sets=1, coef_wave=0.0, cleared_reward=0.0,
                  death_reward=0.0)
        shelter(env)
        total, g, charged = 0.0, 1.0, False
        for t in range(kill_at + 10):
            if t == kill_at:
                land(env, FIN.ZUK_SLOT, 1200)
            before = float(env.states[0]["monsters"][FIN.SHIELD_SLOT]["hp"])
            _, r, term, _, _ = env.step(act())
            if term[0]:
                assert int(env.states[0]["outcome"]) == ST.OUTCOME_CLEARED
                return total + g * float(r[0]), charged
            after = float(env.states[0]["monsters"][FIN.SHIELD_SLOT]["hp"])
            assert abs(float(r[0]) - (gamma * after - before) / A.GLYPH_HP) < 1e-6
            charged |= after < before
            total += g * float(r[0])
            g *= gamma
        raise AssertionError("Zuk did not die")
    (quick, hit_quick), (slow, hit_slow) = branch(2), branch(120)
    assert not hit_quick and hit_slow
    assert abs(quick + 1.0) < 1e-4 and abs(slow + 1.0) < 1e-4


def _preset_env(seed=3):
    config = {**tomllib.loads(ZUK_PRESET.read_text())["env"]["config"], "zuk_mid_pct": 0}
    return zuk(seed=seed, hp=None, zuk_start_hp=230, zuk_start_jad=False, **config)


def _discounted(env, ticks, gamma, before=None):
    """The discounted return of ``ticks`` steps (``before(env)`` runs ahead of each), stopping at the end."""
    total, g = 0.0, 1.0
    for _ in range(ticks):
        if before is not None:
            before(env)
        _, r, term, trunc, _ = env.step(act())
        total += g * float(r[0])
        g *= gamma
        if term[0] or trunc[0]:
            break
    return total


def test_under_the_zuk_preset_tagging_healers_then_dying_returns_less_than_tagging_and_fighting_on():
    """The Zuk preset's terms, returns discounted by its gamma (what PPO maximises): tag the four healers, then
    either die (twelve sparks land on the player) or stand sheltered, dodge the sparks and hit Zuk 20 every
    5 ticks for 30 ticks: fighting on returns more, and nothing is paid for dying after the tags. Hitpoints
    are never set by hand (the hitpoints term is potential-based: only a game's own hits and heals count)."""
    gamma = float(tomllib.loads(ZUK_PRESET.read_text())["ppo"]["gamma"])

    def branch(die):
        env = _preset_env()
        hold_glyph(env)
        shelter(env)
        for k in alive(env, ST.K_ZUK_HEALER):
            land(env, k, 1)
        tags = _discounted(env, 1, gamma)
        if die:
            s = env.states[0]
            s["sparks"] = [(int(s["tick"]) + 1, int(s["p"]["x"]), int(s["p"]["y"]), 10, 2)] * ST.SPARK_CAPACITY
            commit(env)
            rest = _discounted(env, 30, gamma)
            assert int(env.states[0]["outcome"]) == ST.OUTCOME_DEATH
        else:
            def fight(env):
                env.states[0]["sparks"]["due_tick"] = 0          # dodged
                commit(env)
                if int(env.states[0]["tick"]) % 5 == 0:
                    land(env, FIN.ZUK_SLOT, 20)
            rest = _discounted(env, 30, gamma, fight)
            assert int(env.states[0]["outcome"]) == ST.OUTCOME_NONE
        return tags, rest
    (tags_a, died), (tags_b, fought) = branch(True), branch(False)
    assert tags_a == tags_b > 0
    assert died < fought


def test_penalty_cap_bounds_what_the_penalty_terms_take_from_a_run():
    env = zuk(hp=99, coef_damage_taken=1.0, penalty_cap=0.3, coef_wave=0.0, death_reward=0.0)
    env.states[0]["p"]["x"] = 1                                  # far from the glyph: Zuk's hits land
    commit(env)
    _returns(env, 200)
    s = env.states[0]
    assert float(s["reward_sums"][0, ST.R_TAKEN]) >= -0.3 - 1e-6
    assert int(s["damage_taken"].sum()) > 0.3 * 99 * 1.5        # uncapped it would have cost more


def test_timeout_is_truncation_unless_timeout_terminal():
    for terminal in (False, True):
        env = zuk(max_ticks=10, timeout_terminal=terminal)
        for _ in range(9):
            env.step(act())
        _, _, term, trunc, _ = env.step(act())
        assert (bool(term[0]), bool(trunc[0])) == (terminal, not terminal)


def test_deepest_phase_and_low_watermarks_are_reported():
    env = zuk(zuk_start_hp=230, zuk_start_jad=False)
    hold_glyph(env)
    shelter(env)
    for k in alive(env, ST.K_ZUK_HEALER):
        env.states[0]["monsters"][k]["state"] = ST.SLOT_DEAD
    commit(env)
    land(env, FIN.ZUK_SLOT, 100)
    run(env, 1)
    out = V.METRICS.zeros(1)
    ph = int(V.metrics(env.states[0], env.config[0], out[0]))
    got = V.METRICS.values(out[0])
    assert ph == ST.PH_ZUK_LOW_HP == int(got["deepest_phase"])
    assert got["zuk_lowest_hp"] == 130 and got["reached_zuk"] == 1.0


# ---- the scripted player ----------------------------------------------------------------------------------
def test_solver_kills_zuk_from_most_wave_69_starts():
    """The scripted baseline (solver.py, section "The Zuk wave") from 32 wave-69 starts kills Zuk in most of
    them (128 of 128 from seed 5, spec version 9: docs/results/inferno.md, "The scripted solver")."""
    import osrs_rl
    from osrs_rl.encounters.inferno.solver import solver_actions

    env = osrs_rl.make("inferno", num_envs=32, seed=7, start_wave=69, last_wave=69)
    env.reset()
    a = np.zeros((32, env.spec.num_heads), dtype=np.int64)
    done = np.zeros(32, dtype=bool)
    cleared = np.zeros(32, dtype=bool)
    for _ in range(3000):
        solver_actions(env.states, env.config, a)
        _, _, term, trunc, _ = env.step(a)
        ended = (term | trunc) & ~done
        cleared |= ended & (env.states["outcome"] == ST.OUTCOME_CLEARED)
        done |= ended
        if done.all():
            break
    assert done.all() and cleared.mean() >= 0.6


def test_scaffolding_reads_a_jads_tell_and_skips_zuks_typeless_attack():
    """The scaffolding segment (off by default) counts a Jad's attack by its tell and leaves Zuk's typeless
    attack out of the per-style timers (no overhead blocks it)."""
    env = zuk(scaffolding=True)
    obs = env.step(act())[0][0]
    seg = {name: off for name, off in zip(*_segments(env), strict=True)}
    sc = obs[seg["scaffolding"]:seg["scaffolding"] + V.SCAFFOLDING_FEATURES]
    assert sc[0] == 1.0 and (sc[1:4] == 1.0).all()           # nothing prayable threatens on wave 69's start
    assert np.isfinite(obs).all()


def _segments(env):
    names, offsets, k = [], [], 0
    for seg in env.spec.obs_segments:
        names.append(seg.name)
        offsets.append(k)
        k += seg.features * seg.slots
    return names, offsets


def test_mid_fight_starts_draw_zuks_hitpoints_and_bring_what_his_thresholds_bring():
    seen = []
    for seed in range(12):
        env = zuk(seed=seed, zuk_mid_pct=100, zuk_mid_hp=100)
        s = env.states[0]
        hp = int(s["monsters"][FIN.ZUK_SLOT]["hp"])
        seen.append(hp)
        assert 100 <= hp <= 1199 and int(s["zuk_start"]) == hp == int(s["zuk_low"])
        assert (len(alive(env, ST.K_ZUK_HEALER)) == 4) == (hp < FIN.HEALERS_HP)
        assert (len(alive(env, ST.K_JAD)) == 1) == (hp < FIN.SET_RESUME_HP)
    assert len(set(seen)) > 6
    assert int(zuk(seed=1).states[0]["zuk_start"]) == 1200      # zuk_mid_pct 0: a plain start
