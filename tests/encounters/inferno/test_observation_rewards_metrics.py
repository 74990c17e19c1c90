"""What the Inferno shows and reports, one rule per test: monster activity and the scaffolding segment in the
observation, the shaping reward terms (zero by default; the hitpoints term potential-based), the curriculum's
start settings, and the metrics by name."""

import pytest

from osrs_rl.core.skills import HITPOINTS
from osrs_rl.encounters.inferno import state as ST

from .helpers import act, commit, dead, empty_arena, inferno, keeper, put


# ---- observation: activity and scaffolding -------------------------------------------------------------
def _segment(env, name):
    spec = env.spec
    start = 0
    for seg in spec.obs_segments:
        size = seg.features * seg.slots
        if seg.name == name:
            o = env._obs[0, 0, start:start + size]
            return o.reshape(seg.slots, seg.features) if seg.slots > 1 else o
        start += size
    raise KeyError(name)


def test_monster_rows_show_digging_and_resurrecting():
    from osrs_rl.encounters.inferno import view as V

    env = inferno(dig_min=1, dig_max=1, revive_pct=100)
    empty_arena(env, player=(15, 28))
    keeper(env)
    put(env, 0, ST.K_MAGER, 8, 16)
    dead(env, 1, ST.K_RANGER)
    put(env, 2, ST.K_MELEER, 22, 2)
    env.step(act())
    rows = _segment(env, "monsters")
    names = V.MONSTER_NAMES
    assert rows[0, names.index("resurrecting")] == 1.0 and rows[0, names.index("attacking")] == 0.0
    assert rows[2, names.index("digging")] == 1.0
    assert rows[1, names.index("revived")] == 1.0


def test_scaffolding_is_off_by_default_and_one_setting_turns_it_on():
    from osrs_rl.encounters.inferno import view as V

    for on in (False, True):
        env = inferno(scaffolding=on)
        empty_arena(env, player=(15, 15))
        keeper(env)
        put(env, 0, ST.K_RANGER, 5, 15)               # due west, clear line
        o = _segment(env, "scaffolding")
        if not on:
            assert not o.any()
            continue
        names = V.SCAFFOLDING_NAMES
        assert o[names.index("enabled")] == 1.0 and o[names.index("ranged_attacks_in_0")] > 0
        assert o[names.index("safe_here")] == 0.0          # the ranger sees the player's tile
        assert o[names.index("seen_by")] == 1.0 / ST.MONSTER_SLOTS


# ---- reward terms and curriculum -------------------------------------------------------------------------
def test_every_shaping_term_is_named_zero_by_default_and_logged():
    """The sparse default is the outcome and the waves cleared (coef_wave 0.1: issue 17's "a wave cleared,
    death"); every shaping term beyond them is 0 unless set."""
    env = inferno()
    assert set(ST.REWARD_TERMS) >= {"prayer", "kill", "supplies", "pillar"}
    assert float(env.config["coef_wave"][0]) == pytest.approx(0.1)
    for name in ST.REWARD_TERMS[2:]:
        key = {"damage_dealt": "coef_damage_dealt", "damage_taken": "coef_damage_taken"}.get(name, "coef_" + name)
        assert float(env.config[key][0]) == 0.0
    env = inferno(coef_prayer=1.0, coef_supplies=0.5)
    empty_arena(env, player=(15, 15))
    keeper(env)
    put(env, 0, ST.K_RANGER, 5, 15)
    env.states[0]["p"]["levels"][HITPOINTS] = 50
    commit(env)
    env.step(act(overhead=ST.OVERHEAD_MISSILES, drink=1 + ST.SUP_BREW))
    terms = env.states[0]["reward_terms"][0]
    assert terms[ST.R_PRAYER] == 1.0 and terms[ST.R_SUPPLIES] == -0.5
    assert env.states[0]["reward_sums"][0, ST.R_PRAYER] == 1.0


def test_hitpoints_shaping_is_potential_based_so_its_discounted_sum_is_fixed():
    """coef_hitpoints pays hitpoints_gamma * hp after - hp before (/ 99) each tick, with hp after = 0 once the
    run dies: a hit costs, a brew pays back, and the run's sum discounted by hitpoints_gamma is -first hp / 99
    whatever happened (Ng, Harada and Russell 1999), so neither dying early nor stalling alive earns it."""
    gamma = 0.9
    env = inferno(coef_hitpoints=1.0, hitpoints_gamma=gamma, death_reward=0.0)
    empty_arena(env, player=(15, 15))
    keeper(env)
    put(env, 0, ST.K_MELEER, 15, 16)        # edge contact from the north: it hits every 4 ticks
    env.states[0]["p"]["levels"][HITPOINTS] = 90
    commit(env)
    first, discounted, healed, hurt = 90, 0.0, False, False
    for t in range(2000):
        hp0 = int(env.states[0]["p"]["levels"][HITPOINTS])
        drink = 1 + ST.SUP_BREW if hp0 < 60 else 0
        _, reward, terminated, _, _ = env.step(act(drink=drink, overhead=ST.OVERHEAD_OFF))
        term = float(env.states[0]["reward_terms"][0][ST.R_HITPOINTS])
        assert float(reward[0]) == pytest.approx(term, abs=1e-6)
        discounted += gamma ** t * term
        if terminated[0]:
            assert term == pytest.approx(-hp0 / 99.0, abs=1e-6)
            break
        hp1 = int(env.states[0]["p"]["levels"][HITPOINTS])
        assert term == pytest.approx((gamma * hp1 - hp0) / 99.0, abs=1e-6)
        healed |= hp1 > hp0
        hurt |= hp1 < hp0
    assert terminated[0] and healed and hurt
    assert discounted == pytest.approx(-first / 99.0, abs=1e-4)


def test_curriculum_start_hp_prayer_and_band_weights():
    env = inferno(start_hp=40, start_prayer=30)
    s = env.states[0]
    from osrs_rl.core.skills import PRAYER
    assert int(s["p"]["levels"][HITPOINTS]) == 40 and int(s["p"]["levels"][PRAYER]) == 30
    waves = set()
    env = inferno(band_weight_2=1.0, band_weight_4=1.0)
    for seed in range(16):
        env.reset(seed=seed)
        waves.add(int(env.states[0]["start_wave_drawn"]))
    assert waves <= set(range(18, 35)) | set(range(50, 67))
    assert waves & set(range(18, 35)) and waves & set(range(50, 67))


# ---- metrics -------------------------------------------------------------------------------------------
def test_metrics_report_pillars_resurrections_digs_and_style():
    from osrs_rl.encounters.inferno import view as V

    env = inferno(revive_pct=100)
    empty_arena(env, player=(15, 28))
    keeper(env)
    put(env, 0, ST.K_MAGER, 8, 16)
    dead(env, 1, ST.K_RANGER)
    env.states[0]["pillar_hp"][1] = 100
    commit(env)
    env.step(act())
    out = V.METRICS.zeros(1)
    V.metrics(env.states[0], env.config[0], out[0])
    got = V.METRICS.values(out[0])
    assert got["resurrections"] == 1 and got["pillar_hp_north"] == 100 and got["pillar_hp_west"] == 255
    for name in ("digs", "taken_melee", "taken_ranged", "taken_magic", "ticks_per_wave", "final_wave"):
        assert name in got
