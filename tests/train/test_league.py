"""The self-play league: PFSP sampling, scripted fraction, pool eviction, Elo, Wilson intervals,
checkpoints, routing, and the errors bad input gets."""

import io

import numpy as np
import pytest
import torch

from osrs_rl.train.league import LEARNER, MAX_SNAPSHOT_ID, Assignment, League, group_envs, wilson

SAMPLES = 20_000


def league_with(n_snapshots=3, scripted=(), **overrides):
    """A league of ``n_snapshots`` snapshots named s0, s1, ... with one weight tensor each."""
    overrides.setdefault("scripted_fraction", 0.0)
    league = League(list(scripted), **overrides)
    for i in range(n_snapshots):
        league.add_snapshot(f"s{i}", {"w": torch.full((2,), float(i))})
    return league


def frequencies(draws, ids):
    return np.array([sum(d == i for d in draws) for i in ids]) / len(draws)


# ---- PFSP ---------------------------------------------------------------------------------------------
def test_hard_pfsp_draws_the_opponents_the_learner_loses_to():
    league = league_with(3, winrate_decay=1.0, seed=1)
    league.record_many([0] * 20, ["loss"] * 20)                  # p = 1/22
    league.record_many([1] * 20, ["win"] * 20)                   # p = 21/22
    league.record_many([2] * 20, ["win", "loss"] * 10)           # p = 11/22
    weights = np.array([(21 / 22) ** 2, (1 / 22) ** 2, (11 / 22) ** 2])
    freq = frequencies(league.sample_opponents(SAMPLES), [0, 1, 2])
    assert freq[0] > 3 * freq[2] > 3 * 20 * freq[1]
    np.testing.assert_allclose(freq, weights / weights.sum(), atol=0.015)


def test_variance_and_uniform_weightings():
    for weighting, expect in (("variance", [21, 21, 121]), ("uniform", [1, 1, 1])):
        league = league_with(3, winrate_decay=1.0, pfsp_weighting=weighting, seed=2)
        league.record_many([0] * 20 + [1] * 20 + [2] * 20, ["loss"] * 20 + ["win"] * 20 + ["draw"] * 20)
        freq = frequencies(league.sample_opponents(SAMPLES), [0, 1, 2])
        np.testing.assert_allclose(freq, np.array(expect) / sum(expect), atol=0.015)


def test_win_probability_is_smoothed_and_discounted():
    league = league_with(2, winrate_decay=0.5, winrate_prior=1.0)
    assert league.win_probability(1) == 0.5                     # unseen
    league.record_many([0, 0], ["win", "loss"])                  # score 0.5 * 1 + 0, games 0.5 * 1 + 1
    assert league.win_probability(0) == pytest.approx((0.5 + 1) / (1.5 + 2))


def test_scripted_fraction_is_respected():
    league = league_with(2, scripted=("novice", "elite"), scripted_fraction=0.3, seed=3)
    draws = league.sample_opponents(SAMPLES)
    scripted = [d for d in draws if isinstance(d, str)]
    assert len(scripted) / SAMPLES == pytest.approx(0.3, abs=0.015)
    assert frequencies(scripted, ["novice", "elite"]) == pytest.approx([0.5, 0.5], abs=0.02)


def test_scripted_only_while_the_pool_is_empty_and_at_the_extremes():
    assert all(isinstance(d, str) for d in League(["novice"], scripted_fraction=0.1).sample_opponents(50))
    assert all(isinstance(d, str) for d in league_with(2, ["novice"], scripted_fraction=1.0).sample_opponents(50))
    assert all(isinstance(d, int) for d in league_with(2, ["novice"], scripted_fraction=0.0).sample_opponents(50))


def test_hard_weighting_over_scripted_tiers():
    league = League(["easy", "hard"], scripted_fraction=1.0, scripted_weighting="hard", winrate_decay=1.0, seed=4)
    league.record_many(["easy"] * 20 + ["hard"] * 20, ["win"] * 20 + ["loss"] * 20)
    freq = frequencies(league.sample_opponents(SAMPLES), ["easy", "hard"])
    assert freq[1] > 0.99


def test_same_seed_same_draws():
    a, b, c = (league_with(3, ["novice"], scripted_fraction=0.5, seed=s) for s in (7, 7, 8))
    assert a.sample_opponents(64) == b.sample_opponents(64) != c.sample_opponents(64)


# ---- pool -------------------------------------------------------------------------------------------
def test_eviction_keeps_anchors_and_retires_the_oldest():
    league = league_with(5, max_pool=3, anchors=1)
    assert league.snapshot_ids == (0, 3, 4)
    assert league.retired_ids == (1, 2)
    assert league.sample_opponents(200).count(1) == 0            # retired: never drawn
    league.record(2, "win")                                      # an episode still playing it may finish
    assert league.release(in_use=np.array([-1, 2, 4])) == [1]
    assert torch.equal(league.weights(2)["w"], torch.full((2,), 2.0))
    with pytest.raises(KeyError, match="unknown opponent 1"):
        league.weights(1)
    assert {r.name for r in league.table()} == {LEARNER, "s0", "s3", "s4"}


def test_two_anchors():
    league = league_with(6, max_pool=3, anchors=2)
    assert league.snapshot_ids == (0, 1, 5)


def test_snapshot_is_a_frozen_cpu_copy_at_the_learners_rating():
    league = League([], scripted_fraction=0.0)
    weights = {"w": torch.ones(3, requires_grad=True), "n": 5}
    league.add_snapshot("a", weights)
    league.record(0, "win")
    with torch.no_grad():
        weights["w"] += 1
    stored = league.weights(0)["w"]
    assert torch.equal(stored, torch.ones(3)) and stored.device.type == "cpu" and not stored.requires_grad
    league.add_snapshot("b", weights)
    assert league.rating(1) == league.rating(LEARNER) == 1008.0


def test_ids_wrap_around_to_free_ones():
    league = league_with(4, max_pool=2, anchors=0, max_id=3)
    assert league.snapshot_ids == (2, 3) and league.retired_ids == (0, 1)
    with pytest.raises(RuntimeError, match="all 4 snapshot ids are live"):
        league.add_snapshot("s4", {})
    league.release()
    assert league.add_snapshot("s4", {}) == 0
    assert league.name_of(0) == "s4" and league.rating(0) == league.rating(LEARNER)


def test_default_id_limit_is_the_pvp_slot_limit():
    from osrs_rl.encounters.pvp.opponents import MAX_SLOT
    assert MAX_SNAPSHOT_ID == MAX_SLOT


# ---- Elo and tables ---------------------------------------------------------------------------------
def test_elo_moves_the_right_way_and_is_zero_sum():
    league = league_with(2, ["novice"], elo_k=16.0)
    league.record(0, "win")                                      # equal ratings: +K/2
    assert league.rating(LEARNER) == 1008.0 and league.rating(0) == 992.0
    league.record("novice", "loss")
    assert league.rating("novice") > 1000.0 and league.rating(LEARNER) < 1008.0
    rng = np.random.default_rng(0)
    ids = list(rng.choice(np.array([0, 1]), 50)) + ["novice"] * 10
    league.record_many(ids, rng.choice([0.0, 0.5, 1.0], 60))
    total = league.rating(LEARNER) + sum(league.rating(i) for i in (0, 1, "novice"))
    assert total == pytest.approx(4 * 1000.0)


def test_draw_between_equals_changes_nothing():
    league = league_with(1)
    league.record(0, 0.5)
    assert league.rating(0) == league.rating(LEARNER) == 1000.0


def test_wilson_against_a_hand_computed_case():
    # 8 of 10, z = 1.96: centre (0.8 + 0.19208) / 1.38416 = 0.716738,
    # half 1.96 * sqrt(0.016 + 0.009604) / 1.38416 = 0.226581
    low, high = wilson(8, 10)
    assert low == pytest.approx(0.490157, abs=1e-6) and high == pytest.approx(0.943319, abs=1e-6)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(6, 10) < wilson(6.5, 10) < wilson(7, 10)       # fractional scores: a draw counts half


def test_table_and_scalars():
    league = league_with(1, ["novice"], scripted_fraction=0.5)
    league.record_many(["novice"] * 10, ["win"] * 7 + ["draw"] * 2 + ["loss"])
    rows = {r.name: r for r in league.table()}
    assert rows["novice"].games == 10 and rows["novice"].win_rate == 0.8
    assert (rows["novice"].low, rows["novice"].high) == wilson(8, 10)
    assert rows["novice"].kind == "scripted" and rows["s0"].kind == "snapshot" and rows[LEARNER].games == 10
    elos = [r.elo for r in league.table()]
    assert elos == sorted(elos, reverse=True)
    scalars = league.scalars()
    assert scalars["league/pool_size"] == 1.0 and scalars["league/winrate/novice"] == 0.8
    assert "league/winrate/s0" not in scalars                    # never played
    assert {f"league/elo/{n}" for n in (LEARNER, "novice", "s0")} <= scalars.keys()


# ---- checkpoints ------------------------------------------------------------------------------------
def test_state_dict_round_trip_continues_exactly():
    kwargs = dict(max_pool=3, scripted_fraction=0.3, seed=5)
    league = league_with(5, ["novice", "elite"], **kwargs)
    league.record_many(league.sample_opponents(40), [1.0, 0.0, 0.5, 1.0] * 10)
    buffer = io.BytesIO()
    torch.save(league.state_dict(), buffer)
    buffer.seek(0)
    resumed = League(["novice", "elite"], **{**kwargs, "seed": 99})
    resumed.load_state_dict(torch.load(buffer, weights_only=True))
    for lg in (league, resumed):
        lg.record_many([3, "elite", 1], ["win", "loss", "draw"])  # 1 is retired
    assert resumed.sample_opponents(500) == league.sample_opponents(500)
    assert resumed.table() == league.table()
    assert resumed.add_snapshot("s5", {}) == league.add_snapshot("s5", {})
    assert resumed.snapshot_ids == league.snapshot_ids and resumed.retired_ids == league.retired_ids
    assert torch.equal(resumed.weights(4)["w"], league.weights(4)["w"])


def test_load_state_dict_rejects_other_leagues():
    state = league_with(3, ["novice"], max_pool=3).state_dict()
    with pytest.raises(ValueError, match="scripted tiers"):
        League(["elite"]).load_state_dict(state)
    with pytest.raises(ValueError, match="more than max_pool=2"):
        League(["novice"], max_pool=2).load_state_dict(state)
    with pytest.raises(ValueError, match="version"):
        League(["novice"]).load_state_dict({**state, "version": 0})


# ---- routing ----------------------------------------------------------------------------------------
def test_group_envs_and_assignment():
    groups = group_envs(np.array([3, -1, 0, 3, -1], dtype=np.int16))
    assert list(groups) == [0, 3] and groups[3].tolist() == [0, 3] and groups[0].tolist() == [2]
    assert group_envs(np.full(4, -1)) == {}
    a = Assignment((2, "elite", 2, "novice", 0))
    assert a.is_scripted.tolist() == [False, True, False, True, False]
    assert a.slots.tolist() == [2, -1, 2, -1, 0]
    assert a.tier_indices(["novice", "elite"]).tolist() == [-1, 1, -1, 0, -1]
    assert {k: v.tolist() for k, v in a.groups().items()} == {0: [4], 2: [0, 2]}
    with pytest.raises(ValueError, match="not in tier_names"):
        a.tier_indices(["novice"])
    with pytest.raises(ValueError, match="1-D integer"):
        group_envs(np.zeros((2, 2), dtype=int))


def test_assignment_drives_pvp_selfplay():
    """The wiring the module docstring documents, on a real 8-env pvp_selfplay."""
    import osrs_rl
    from osrs_rl.encounters import pvp
    from osrs_rl.encounters.pvp.scripted import TIER_NAMES

    league = league_with(2, ["novice", "nightmare"], scripted_fraction=0.5, seed=6)
    env = osrs_rl.make("pvp_selfplay", num_envs=8, seed=0)
    env.reset()
    a = league.assign(env.num_envs)
    s, p = np.flatnonzero(a.is_scripted), np.flatnonzero(~a.is_scripted)
    assert s.size and p.size
    pvp.set_opponents(env, tier=a.tier_indices(TIER_NAMES)[s], env_ids=s)
    pvp.set_opponents(env, slot=a.slots[p], env_ids=p)
    env.reset()
    scripted, tier, slot = pvp.opponents(env)
    assert scripted.tolist() == a.is_scripted.tolist()
    assert [TIER_NAMES[t] for t in tier[s]] == [a.ids[i] for i in s]
    assert {k: v.tolist() for k, v in group_envs(slot).items()} == {k: v.tolist() for k, v in a.groups().items()}


# ---- bad input --------------------------------------------------------------------------------------
def test_unknown_opponents_raise():
    league = league_with(2, ["novice"], scripted_fraction=0.5)
    for bad in (7, "elite", True, 1.0, None):
        with pytest.raises(KeyError):
            league.record(bad, "win")
    with pytest.raises(KeyError, match="scripted tier, not a snapshot"):
        league.weights("novice")


def test_bad_outcomes_raise_and_record_nothing():
    league = league_with(2)
    for bad in ("won", 0.3, 2, True, None):
        with pytest.raises(ValueError, match="outcome must be"):
            league.record(0, bad)
    with pytest.raises(ValueError, match="outcome must be"):
        league.record_many([0, 1, 0], ["win", "win", "lost"])
    with pytest.raises(ValueError, match="2 opponents but 1 outcomes"):
        league.record_many([0, 1], ["win"])
    assert all(r.games == 0 for r in league.table()) and league.rating(LEARNER) == 1000.0


def test_empty_league_and_bad_settings_raise():
    with pytest.raises(ValueError, match="pool is empty and there are no scripted tiers"):
        League([], scripted_fraction=0.0).sample_opponents(4)
    with pytest.raises(ValueError, match="needs scripted tiers"):
        League([], scripted_fraction=0.2)
    with pytest.raises(ValueError, match="pfsp_weighting"):
        League(["novice"], pfsp_weighting="easy")
    with pytest.raises(ValueError, match="anchors < max_pool"):
        League(["novice"], max_pool=2, anchors=2)
    with pytest.raises(ValueError, match="distinct"):
        League(["novice", "novice"])
    with pytest.raises(ValueError, match="n must be >= 0"):
        League(["novice"]).sample_opponents(-1)


def test_bad_snapshot_names_raise():
    league = league_with(1, ["novice"], scripted_fraction=0.5)
    for bad in ("s0", "novice", LEARNER, ""):
        with pytest.raises(ValueError, match="snapshot name"):
            league.add_snapshot(bad, {})
    with pytest.raises(TypeError, match="mapping"):
        league.add_snapshot("x", [torch.zeros(1)])
