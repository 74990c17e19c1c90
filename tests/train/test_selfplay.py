"""Self-play with a league on pvp_selfplay: routing agent 1 to snapshots and scripted tiers, outcomes
reaching the league, the snapshot schedule, PFSP through the env, checkpoints, the CLI, bad setups."""

import json

import numpy as np
import pytest
import torch

import osrs_rl
from osrs_rl.agent.config import LeagueSection, load_config
from osrs_rl.cli import main
from osrs_rl.runtime.registry import get_spec
from osrs_rl.train.ppo import Trainer, resume_config
from osrs_rl.train.rollout import Collector, RolloutStorage
from osrs_rl.train.selfplay import SelfPlay

SPEC = get_spec("pvp_selfplay")
TINY = ["--env.num_envs", "8", "--ppo.horizon", "8", "--ppo.minibatches", "2", "--model.hidden", "16",
        "--env.config.max_ticks", "20", "--run.eval_episodes", "0"]


def _cfg(tmp_path, *extra, encounter="pvp_selfplay"):
    return load_config(encounter, overrides=["--run.out_dir", str(tmp_path), "--log.console", "false",
                                             "--run.name", "sp", *extra])


def _model(kind="mlp"):
    from osrs_rl.agent.models import build_model

    return build_model(SPEC.obs_segments, SPEC.head_sizes, kind=kind, hidden=16, layers=1)


def _selfplay(envs, kind="mlp", **league):
    cfg = LeagueSection(enabled=True, **league)
    return SelfPlay(SPEC, envs, cfg, lambda: _model(kind), "cpu", seed=0)


def _preferring(direction: int) -> dict:
    """Weights whose policy picks, in every head, the highest legal action (+1) or the lowest (-1)."""
    model = _model()
    with torch.no_grad():
        model.policy.weight.zero_()
        model.policy.bias.copy_(torch.cat([direction * 40.0 * torch.arange(n) for n in SPEC.head_sizes]))
    return model.state_dict()


def _extreme_legal(mask: np.ndarray, direction: int) -> np.ndarray:
    """Per env and head, the highest (+1) or lowest (-1) legal index of a [envs, mask_size] mask."""
    out, start = [], 0
    for n in SPEC.head_sizes:
        legal = mask[:, start:start + n]
        idx = np.where(legal, np.arange(n), -1 if direction > 0 else n)
        out.append(idx.max(axis=1) if direction > 0 else idx.min(axis=1))
        start += n
    return np.stack(out, axis=1)


# ---- routing agent 1 ------------------------------------------------------------------------------------
@pytest.mark.slow
def test_snapshot_envs_play_their_snapshot_and_scripted_envs_are_left_to_the_env():
    env = osrs_rl.make("pvp_selfplay", num_envs=12, seed=3, max_ticks=50)
    sp = _selfplay([env], scripted=["average"], scripted_fraction=0.0)
    high = sp.league.add_snapshot("high", _preferring(+1))
    low = sp.league.add_snapshot("low", _preferring(-1))
    sp.hook.set(env, np.arange(0, 4), slot=high)
    sp.hook.set(env, np.arange(4, 8), slot=low)
    sp.hook.set(env, np.arange(8, 12), tier=sp.hook.tier_index("average"))
    obs, info = env.reset()
    first = torch.ones(12, dtype=torch.bool)
    for _ in range(5):
        mask = info["action_mask"]
        act = sp.act(0, env, obs, mask, first)
        np.testing.assert_array_equal(act[:4], _extreme_legal(mask[:4, 1], +1))
        np.testing.assert_array_equal(act[4:8], _extreme_legal(mask[4:8, 1], -1))
        assert not act[8:].any()                                  # the env replaces a scripted player's actions
        assert sp.hook.current(env)[0][8:].all() and not sp.hook.current(env)[0][:8].any()
        both = np.zeros((12, 2, SPEC.num_heads), np.int64)
        both[:, 1] = act
        obs, _, _, _, info = env.step(both)
        first[:] = False
    assert set(sp._models) == {high, low}                        # one cached model per snapshot


def test_agent_1_recurrent_state_is_kept_per_env():
    env = osrs_rl.make("pvp_selfplay", num_envs=4, seed=1)
    sp = _selfplay([env], kind="lstm", scripted=["average"], scripted_fraction=0.0)
    sid = sp.league.add_snapshot("s", _model("lstm").state_dict())
    sp.hook.set(env, [0, 1], slot=sid)
    sp.hook.set(env, [2, 3], tier=0)
    obs, info = env.reset()
    sp.act(0, env, obs, info["action_mask"], torch.ones(4, dtype=torch.bool))
    state = sp._state[0]
    assert state[:2].abs().sum() > 0 and state[2:].abs().sum() == 0


# ---- outcomes, schedule, PFSP --------------------------------------------------------------------------
@pytest.mark.slow
def test_finished_episodes_reach_the_league():
    """Every finished episode is recorded once, against the opponent it played."""
    envs = [osrs_rl.make("pvp_selfplay", num_envs=6, seed=s, max_ticks=10) for s in (1, 2)]
    model = _model()
    sp = _selfplay(envs, scripted=["novice", "elite"], scripted_fraction=0.5)
    sp.start(model, 0)
    collector = Collector(envs, model, "cpu", seed=0, opponent_act=sp.act)
    store = RolloutStorage(40, 12, SPEC.obs_size, SPEC.mask_size, SPEC.num_heads, model.state_size)
    try:
        for it in range(1, 3):
            collector.collect(store)
            sp.after_iteration(it, model)
    finally:
        collector.close()
    episodes = collector.pop_episodes()
    assert len(episodes["won"]) >= 24                             # 80 ticks of 10-tick fights in 12 envs
    table = {r.name: r for r in sp.league.table()}
    assert table["learner"].games == len(episodes["won"])
    names = SPEC.opponents.tier_names
    played = [names[int(t)] if t >= 0 else sp.league.name_of(int(s))
              for t, s in zip(episodes["opponent_tier"], episodes["opponent_slot"], strict=True)]
    for name, row in table.items():
        if row.kind != "learner":
            assert row.games == played.count(name), name
    assert {"novice", "elite", "iter_0"} <= set(played)
    score = episodes["won"] + 0.5 * (1 - episodes["won"] - episodes["lost"])
    assert table["learner"].win_rate == pytest.approx(score.mean())


@pytest.mark.slow
def test_snapshots_are_added_on_schedule(tmp_path):
    cfg = _cfg(tmp_path, *TINY, "--run.total_steps", str(8 * 8 * 7), "--league.snapshot_every", "3",
               "--league.max_pool", "2")
    t = Trainer(cfg, console=False)
    assert [t.selfplay.league.name_of(i) for i in t.selfplay.league.snapshot_ids] == ["iter_0"]
    scalars = t.train()
    league = t.selfplay.league
    assert t.iteration == 7
    # iter_0 is the anchor; iter_3 was retired by iter_6 (released once no env played it)
    assert [league.name_of(i) for i in league.snapshot_ids] == ["iter_0", "iter_6"]
    assert all(league.name_of(i) == "iter_3" for i in league.retired_ids)
    assert scalars["league/pool_size"] == 2 and "league/elo/learner" in scalars and "time/opponent" in scalars


def test_pfsp_draws_the_snapshot_the_learner_loses_to_more():
    env = osrs_rl.make("pvp_selfplay", num_envs=400, seed=0)
    sp = _selfplay([env], scripted=[], scripted_fraction=0.0)
    model = _model()
    sp.start(model, 0)
    strong = sp.league.snapshot_ids[0]
    weak = sp.league.add_snapshot("weak", model.state_dict())
    sp.league.record_many([strong] * 30 + [weak] * 30, ["loss"] * 30 + ["win"] * 30)
    sp.after_iteration(1, model)
    env.reset()
    slots = sp.hook.current(env)[2]
    assert (slots >= 0).all()
    assert (slots == strong).sum() > 10 * (slots == weak).sum()


# ---- checkpoints ---------------------------------------------------------------------------------------
@pytest.mark.slow
def test_resume_restores_the_league(tmp_path):
    cfg = _cfg(tmp_path, *TINY, "--run.total_steps", str(8 * 8 * 4), "--league.snapshot_every", "2")
    first = Trainer(cfg, console=False)
    first.train()
    league = first.selfplay.league
    assert [league.name_of(i) for i in league.snapshot_ids] == ["iter_0", "iter_2", "iter_4"]
    ckpt = first.checkpoint_path()          # the run's own settings (snapshot_every 2), a longer length
    resumed = Trainer(resume_config(ckpt, ["--run.total_steps", str(8 * 8 * 6)]), resume=ckpt, console=False)
    again = resumed.selfplay.league
    assert again.snapshot_ids == league.snapshot_ids and again.retired_ids == league.retired_ids
    assert again.table() == league.table()
    for sid in league.snapshot_ids:
        for k, v in league.weights(sid).items():
            assert torch.equal(again.weights(sid)[k], v)
    resumed.train()
    assert [again.name_of(i) for i in again.snapshot_ids][-1] == "iter_6"


# ---- bad setups ----------------------------------------------------------------------------------------
def test_league_needs_a_two_agent_encounter_with_opponents(tmp_path):
    with pytest.raises(ValueError, match="two agents and an opponents hook.*'template' has 1 agent"):
        Trainer(_cfg(tmp_path, "--league.enabled", "true", encounter="template"), console=False)
    with pytest.raises(ValueError, match="'pvp' has 1 agent"):
        SelfPlay(get_spec("pvp"), [], LeagueSection(enabled=True), _model, "cpu")


def test_league_scores_by_the_declared_outcome():
    """The league reads wins and losses from the spec's outcome, not from metrics named won and lost."""
    import dataclasses

    from osrs_rl.runtime.spec import MetricRecord, Outcome

    names = tuple({"won": "victory", "lost": "defeat"}.get(n, n) for n in SPEC.metric_names)
    renamed = dataclasses.replace(SPEC, metric_record=MetricRecord(*names),
                                  outcome=Outcome("victory", failure="defeat", other="draw", length="ticks"))
    SelfPlay(renamed, [], LeagueSection(enabled=True), _model, "cpu")          # no "won" needed
    no_failure = dataclasses.replace(SPEC, outcome=Outcome("won", length="ticks"))
    with pytest.raises(ValueError, match="must declare an outcome with a failure metric"):
        SelfPlay(no_failure, [], LeagueSection(enabled=True), _model, "cpu")


@pytest.mark.parametrize("args, message", [
    (["--league.pfsp", "hardest"], "league.pfsp must be hard, variance or uniform"),
    (["--league.scripted_fraction", "1.5"], "league.scripted_fraction must lie in [0, 1]"),
    (["--league.snapshot_every", "0"], "league.snapshot_every must be >= 1"),
    (["--league.scripted", "[]"], "league.scripted_fraction > 0 needs league.scripted tiers"),
    (["--env.opponents", "average"], "leave env.opponents empty"),
])
def test_league_config_errors_name_the_setting(args, message):
    with pytest.raises(ValueError) as e:
        load_config("pvp_selfplay", overrides=args)
    assert message in str(e.value)


def test_unknown_scripted_tier_is_refused(tmp_path):
    with pytest.raises(ValueError, match="unknown scripted tier 'grandmaster'"):
        Trainer(_cfg(tmp_path, *TINY, "--league.scripted", "grandmaster"), console=False)


# ---- the command line ----------------------------------------------------------------------------------
@pytest.mark.slow
def test_cli_train_pvp_selfplay_then_eval_against_a_tier(tmp_path, capsys):
    rc = main(["train", "pvp_selfplay", *TINY, "--run.total_steps", str(8 * 8 * 3), "--run.out_dir", str(tmp_path),
               "--run.name", "c", "--log.console", "false", "--league.scripted", "novice,average",
               "--run.eval_episodes", "4"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "league after 3 iterations" in out and "iter_0" in out
    ckpt = tmp_path / "c" / "checkpoint.pt"
    rows = json.loads((tmp_path / "c" / "eval.json").read_text())
    assert [r["opponent"] for r in rows] == ["novice", "average"]
    assert main(["eval", "pvp_selfplay", "--checkpoint", str(ckpt), "--opponent", "average", "--episodes", "4",
                 "--set", "max_ticks=20"]) == 0
    out = capsys.readouterr().out
    assert "win rate" in out and "average" in out
