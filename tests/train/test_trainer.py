"""The training loop end to end: config layers, rollout bookkeeping, learning, checkpoints, the CLI."""

import json

import numpy as np
import pytest
import torch

import osrs_rl
from osrs_rl.agent.checkpoint import CheckpointError, load_checkpoint
from osrs_rl.agent.config import load_config, parse_overrides
from osrs_rl.agent.models import build_model
from osrs_rl.agent.policy import load_policy
from osrs_rl.cli import main
from osrs_rl.runtime.registry import get_spec
from osrs_rl.train.evaluate import evaluate
from osrs_rl.train.ppo import Trainer, schedule
from osrs_rl.train.rollout import Collector, RolloutStorage


def _cfg(tmp_path, *extra, encounter="template"):
    return load_config(encounter, overrides=["--run.out_dir", str(tmp_path), "--log.console", "false",
                                             "--run.name", "t", *extra])


# ---- config -----------------------------------------------------------------------------------------
def test_config_layers_and_overrides(tmp_path):
    cfg = _cfg(tmp_path, "--ppo.horizon", "16", "--env.config.max_ticks", "50", "--optim.name=muon",
               "--env.overlap", "false")
    assert cfg.ppo.horizon == 16 and cfg.optim.name == "muon" and cfg.env.overlap is False
    assert cfg.env.config["max_ticks"] == 50
    assert cfg.env.num_envs == 256                      # from the template preset, not the default 1024
    assert cfg.batch_steps == 256 * 16


@pytest.mark.parametrize("args, message", [
    (["--ppo.horizn", "3"], "unknown setting ppo.horizn"),
    (["--nope.x", "3"], "unknown section [nope]"),
    (["--ppo.horizon", "abc"], "cannot read 'abc' as int"),
    (["--ppo.gamma", "2"], "ppo.gamma must lie in (0, 1]"),
    (["--optim.name", "sgd"], "optim.name must be adamw, muon or aurora"),
    (["ppo.horizon", "3"], "expected --section.key value"),
    (["--ppo.horizon"], "needs a value"),
    (["--model.activation", "gelu"], "model.activation must be relu or tanh"),
    (["--model.train_precision", "half"], "model.train_precision must be float32, bfloat16 or auto"),
    (["--model.kind", "lstm", "--model.separate_value", "true"], "model.separate_value needs model.kind mlp"),
    (["--ppo.bootstrap_truncation", "maybe"], "cannot read 'maybe' as bool"),
])
def test_config_errors_name_the_problem(tmp_path, args, message):
    with pytest.raises(ValueError, match=None) as e:
        load_config("template", overrides=args)
    assert message in str(e.value)


def test_the_config_takes_every_activation_the_models_have():
    from osrs_rl.agent.models import ACTIVATIONS

    for name in ACTIVATIONS:
        assert load_config("template", overrides=["--model.activation", name]).model.activation == name


def test_a_config_from_before_the_issue_19_knobs_takes_their_defaults():
    """A checkpoint's stored config (from_dict) without the three knobs reads as the behaviour it had."""
    from osrs_rl.agent.config import from_dict

    stored = load_config("template", overrides=["--model.hidden", "16"]).to_dict()
    for section, key in (("model", "activation"), ("model", "separate_value"), ("ppo", "bootstrap_truncation")):
        del stored[section][key]
    cfg = from_dict(stored)
    assert (cfg.model.activation, cfg.model.separate_value, cfg.ppo.bootstrap_truncation) == ("relu", False, True)
    assert cfg.model.hidden == 16


def test_parse_overrides_keeps_encounter_settings_typed():
    assert parse_overrides(["--env.config.damage_reward", "0.1"]) == {"env": {"config": {"damage_reward": 0.1}}}


@pytest.mark.slow
def test_eval_config_is_what_the_policy_is_evaluated_under(tmp_path):
    """run.eval_config (e.g. a curriculum's mid-fight starts off) replaces env.config's settings in the final
    evaluation and in a loaded checkpoint's policy (osrs-rl eval, the audit); a resume may change it; an
    unknown setting is refused before training, leaving no run folder."""
    from osrs_rl.agent.config import resumable
    from osrs_rl.agent.policy import load_policy

    assert parse_overrides(["--run.eval_config.max_ticks", "5"]) == {"run": {"eval_config": {"max_ticks": 5}}}
    assert resumable("run.eval_config.max_ticks") and not resumable("env.config.max_ticks")
    assert resumable("model.train_precision") and not resumable("model.hidden")
    cfg = _cfg(tmp_path, "--run.total_steps", "2048", "--run.eval_episodes", "0", "--env.config.max_ticks", "300",
               "--run.eval_config.max_ticks", "12")
    t = Trainer(cfg, console=False)
    t.train()
    policy = load_policy(t.checkpoint_path())
    assert policy.env_config["max_ticks"] == 12
    assert evaluate(policy, episodes=8)[0].mean_ticks <= 12
    bad = _cfg(tmp_path, "--run.name", "bad", "--run.eval_config.max_tiks", "5")
    with pytest.raises(ValueError, match=r"run.eval_config: .*'max_tiks' \(did you mean 'max_ticks'\?\)"):
        Trainer(bad, console=False)
    assert not (tmp_path / "bad").exists()


@pytest.mark.slow
def test_total_minutes_stops_a_run_that_saves_like_a_finished_one(tmp_path):
    """run.total_minutes ends a run long before its total_steps: the checkpoint holds the steps it took."""
    from osrs_rl.agent.checkpoint import load_checkpoint

    cfg = _cfg(tmp_path, "--run.total_steps", "1000000000", "--run.total_minutes", "0.02", "--run.eval_episodes", "0")
    t = Trainer(cfg, console=False)
    t.train()
    assert 0 < t.global_step < cfg.run.total_steps
    payload, _ = load_checkpoint(t.checkpoint_path())
    assert payload["global_step"] == t.global_step
    assert payload["train_seconds"] == t.train_seconds >= 1.2 and t.progress() == 1.0
    # a resume goes on counting: the same budget is spent already, a larger one trains on from the count
    again = Trainer(cfg, resume=t.checkpoint_path(), console=False)
    assert again.train_seconds == t.train_seconds and again.time_up()
    again.train()
    assert again.global_step == t.global_step
    budget = t.train_seconds / 60 + 0.02
    more = _cfg(tmp_path, "--run.total_steps", "1000000000", "--run.total_minutes", str(budget),
                "--run.eval_episodes", "0")
    longer = Trainer(more, resume=t.checkpoint_path(), console=False)
    longer.train()
    assert longer.global_step > t.global_step and longer.train_seconds >= budget * 60
    with pytest.raises(ValueError, match="run.total_minutes must be >= 0"):
        _cfg(tmp_path, "--run.total_minutes", "-1")


def test_schedules_follow_the_budget_further_along(tmp_path):
    """With run.total_minutes the schedules' progress is the larger share of the steps or the minutes."""
    t = Trainer(_cfg(tmp_path, "--run.total_steps", "1000000", "--run.total_minutes", "10"), console=False)
    t.global_step, t.train_seconds = 250_000, 60.0          # a quarter of the steps, a tenth of the time
    assert t.progress() == pytest.approx(0.25) and not t.time_up()
    t.train_seconds = 450.0                                  # three quarters of the time
    assert t.progress() == pytest.approx(0.75) and not t.time_up()
    t.train_seconds = 600.0
    assert t.progress() == 1.0 and t.time_up()
    steps_only = Trainer(_cfg(tmp_path, "--run.total_steps", "1000000", "--run.name", "u"), console=False)
    steps_only.global_step, steps_only.train_seconds = 500_000, 1e6
    assert steps_only.progress() == pytest.approx(0.5) and not steps_only.time_up()


def test_schedule_ends():
    assert schedule(1.0, 0.1, 0.0, "cosine") == pytest.approx(1.0)
    assert schedule(1.0, 0.1, 1.0, "cosine") == pytest.approx(0.1)
    assert schedule(1.0, 0.1, 0.5, "linear") == pytest.approx(0.55)
    assert schedule(1.0, 0.1, 0.7, "constant") == 1.0


# ---- rollout bookkeeping --------------------------------------------------------------------------
@pytest.mark.parametrize("overlap", [False, True])
def test_rollout_marks_autoreset_ticks_invalid(overlap):
    """With next-step autoreset, the tick after an episode ends is not a decision (valid False) and
    the observation it returns starts the next episode (reset True one tick later)."""
    spec = get_spec("template")
    model = build_model(spec.obs_segments, spec.head_sizes, hidden=8, layers=1)
    n = 8
    envs = ([osrs_rl.make("template", num_envs=n // 2, seed=s, max_ticks=10) for s in (1, 2)] if overlap
            else [osrs_rl.make("template", num_envs=n, seed=1, max_ticks=10)])
    collector = Collector(envs, model, "cpu", seed=0)
    store = RolloutStorage(40, n, spec.obs_size, spec.mask_size, spec.num_heads, model.state_size)
    try:
        collector.collect(store)
    finally:
        collector.close()
    done = store.terminated | store.truncated
    assert done.any()
    assert store.reset[0].all()                                     # the first observation starts episodes
    for t in range(1, 40):
        assert torch.equal(store.valid[t], ~done[t - 1])
        assert not (done[t] & ~store.valid[t]).any()                 # a reset tick ends nothing
    for t in range(2, 41):
        assert torch.equal(store.reset[t], done[t - 2])
    assert (store.reward[~store.valid] == 0).all()
    # the bootstrap row holds the observation after the last tick
    assert store.obs[40].abs().sum() > 0


@pytest.mark.parametrize("overlap", [False, True])
def test_a_value_that_reads_the_observation_alone_is_computed_after_the_rollout_with_the_same_numbers(overlap):
    """separate_value: the rollout leaves the value out of each tick and computes all of them in one batch; the
    actions, log-probabilities and values are those of a rollout that asks the model every tick."""
    spec = get_spec("template")
    torch.manual_seed(0)
    model = build_model(spec.obs_segments, spec.head_sizes, hidden=16, layers=2, separate_value=True)
    assert model.value_reads_obs
    stores = {}
    for batched in (True, False):
        envs = ([osrs_rl.make("template", num_envs=4, seed=s, max_ticks=10) for s in (1, 2)] if overlap
                else [osrs_rl.make("template", num_envs=8, seed=1, max_ticks=10)])
        collector = Collector(envs, model, "cpu", seed=0)
        assert collector.batched_values
        collector.batched_values = batched
        stores[batched] = store = RolloutStorage(40, 8, spec.obs_size, spec.mask_size, spec.num_heads, 0)
        try:
            for _ in range(2):
                collector.collect(store)
        finally:
            collector.close()
    fast, slow = stores[True], stores[False]
    for name in ("obs", "action", "logprob", "reward", "reset", "valid"):
        assert torch.equal(getattr(fast, name), getattr(slow, name)), name
    assert slow.value.abs().sum() > 0
    torch.testing.assert_close(fast.value, slow.value, rtol=0, atol=1e-5)
    with torch.no_grad():
        _, value, _ = model.unroll(fast.obs[:40], fast.state0, fast.reset[:40])
    torch.testing.assert_close(value, fast.value[:40], rtol=0, atol=1e-5)
    again = fast.value.clone()
    fast.value.zero_()
    collector._values(fast, rows=24)         # 3 ticks of 8 envs a batch: 41 rows in 14 batches
    torch.testing.assert_close(fast.value, again, rtol=0, atol=1e-6)
    shared = build_model(spec.obs_segments, spec.head_sizes, hidden=16, layers=2)
    assert not shared.value_reads_obs
    with pytest.raises(ValueError, match="separate_value"):
        shared.value_of(fast.obs[0])


# ---- learning ---------------------------------------------------------------------------------------
@pytest.mark.slow
def test_template_is_learned(tmp_path):
    """The CI learning test: a short run on the template must clearly beat its starting policy. The
    template NPC is weak, so even the untrained policy wins; what it does not do is pray and attack
    on time: it takes damage and wins slowly (return about 1.7 of the best 2, about 118 ticks). The
    trained policy must reach a return of 1.9 and win at least 20 ticks sooner."""
    cfg = _cfg(tmp_path, "--run.total_steps", "250000", "--run.eval_episodes", "0")
    from osrs_rl.agent.policy import Policy

    trainer = Trainer(cfg, console=False)
    before = evaluate(Policy(trainer.model, "template", {}, []), episodes=256, seed=5)[0]
    trainer.train()
    after = evaluate(Policy(trainer.model, "template", {}, []), episodes=256, seed=5)[0]
    assert after.mean_return >= 1.9 and after.mean_return > before.mean_return + 0.1, (before, after)
    assert after.mean_ticks < before.mean_ticks - 20, (before, after)
    assert after.win_rate >= 0.95
    assert trainer.global_step >= 250000


# ---- checkpoints and resume ----------------------------------------------------------------------
@pytest.mark.slow
def test_resume_continues_the_run(tmp_path):
    cfg = _cfg(tmp_path, "--run.total_steps", "16384", "--run.eval_episodes", "0")
    first = Trainer(cfg, console=False)
    first.train()
    path = first.checkpoint_path()
    assert path.is_file()
    weights = {k: v.clone() for k, v in first.model.state_dict().items()}
    resumed = Trainer(_cfg(tmp_path, "--run.total_steps", "32768"), resume=path, console=False)
    assert resumed.global_step == first.global_step and resumed.iteration == first.iteration
    for k, v in resumed.model.state_dict().items():
        assert torch.equal(v, weights[k])
    opt_a, opt_b = first.optimizer.state_dict(), resumed.optimizer.state_dict()
    assert len(opt_a["state"]) == len(opt_b["state"]) if "state" in opt_a else True
    resumed.train()
    assert resumed.global_step >= 32768


def test_bad_checkpoints_get_clear_errors(tmp_path):
    junk = tmp_path / "junk.pt"
    junk.write_bytes(b"not a checkpoint at all")
    with pytest.raises(CheckpointError):
        Trainer(_cfg(tmp_path), resume=junk, console=False)
    cfg = _cfg(tmp_path, "--run.total_steps", "8192", "--run.eval_episodes", "0", "--model.hidden", "16")
    t = Trainer(cfg, console=False)
    t.train()
    with pytest.raises(CheckpointError, match="model_hidden"):
        Trainer(_cfg(tmp_path, "--model.hidden", "32"), resume=t.checkpoint_path(), console=False)


# ---- the command line -----------------------------------------------------------------------------
@pytest.mark.slow
def test_cli_train_then_eval(tmp_path, capsys):
    rc = main(["train", "template", "--run.total_steps", "8192", "--run.out_dir", str(tmp_path), "--run.name", "c",
               "--log.console", "false", "--run.eval_episodes", "16"])
    assert rc == 0
    out = capsys.readouterr().out
    ckpt = tmp_path / "c" / "checkpoint.pt"
    assert str(ckpt) in out.replace("\n", "") and (tmp_path / "c" / "eval.json").is_file()
    assert list((tmp_path / "c").glob("events.out.tfevents.*"))
    replays = sorted((tmp_path / "c" / "replays").glob("*.orlr"))
    assert [p.name for p in replays] == ["best-default.orlr", "default-0.orlr", "default-1.orlr"]
    assert main(["eval", "template", "--checkpoint", str(ckpt), "--episodes", "8", "--replays", "1",
                 "--replay-dir", str(tmp_path / "r")]) == 0
    assert "win rate" in capsys.readouterr().out
    from osrs_rl.replay import load_replay, verify_replay

    replay = load_replay(tmp_path / "r" / "default-0.orlr")
    assert verify_replay(replay).ok
    assert replay.values is not None and len(replay.probs) == get_spec("template").num_heads
    assert np.allclose([p.sum(axis=1) for p in replay.probs], 1.0, atol=1e-5)   # a distribution per head
    policy = load_policy(ckpt)
    assert policy.encounter == "template"


@pytest.mark.parametrize("argv, message", [
    (["train", "nosuch"], "unknown encounter 'nosuch'"),
    (["train", "template", "--ppo.horizn", "3"], "unknown setting ppo.horizn"),
    (["eval", "template", "--checkpoint", "/nonexistent.pt"], "nonexistent"),
    (["eval", "pvp", "--checkpoint", "x", "--episodes", "0"], "--episodes must be at least 1"),
    (["eval", "pvp", "--checkpoint", "x", "--replays", "-1"], "--replays must be at least 0"),
])
def test_cli_bad_input(argv, message, capsys):
    assert main(argv) == 2
    assert message in " ".join(capsys.readouterr().out.split())


@pytest.mark.slow
def test_a_boss_fight_reports_its_kills_as_wins():
    # zulrah has no "won" metric: its evaluation counts "killed" (Zulrah at 1 hitpoint: any hit kills)
    from osrs_rl.agent.policy import Policy

    spec = get_spec("zulrah")
    model = build_model(spec.obs_segments, spec.head_sizes, hidden=16)
    row = evaluate(Policy(model, "zulrah", {"start_hp": 1, "max_ticks": 60}, []), episodes=16, seed=2)[0]
    assert row.win_rate > 0


@pytest.mark.slow
def test_eval_refuses_wrong_encounter(tmp_path, capsys):
    cfg = _cfg(tmp_path, "--run.total_steps", "4096", "--run.eval_episodes", "0")
    t = Trainer(cfg, console=False)
    t.train()
    assert main(["eval", "pvp", "--checkpoint", str(t.checkpoint_path())]) == 2
    assert "is a 'template' policy" in " ".join(capsys.readouterr().out.split())


@pytest.mark.slow
def test_pvp_opponents_spread_and_evaluated(tmp_path):
    """The PvP trainer spreads its scripted tiers over the envs and evaluates per tier."""
    cfg = _cfg(tmp_path, "--run.total_steps", "2048", "--env.num_envs", "16", "--ppo.horizon", "8",
               "--ppo.minibatches", "2", "--run.eval_episodes", "0", encounter="pvp")
    t = Trainer(cfg, console=False)
    t.train()
    tiers = np.concatenate([get_spec("pvp").opponents.current(e)[1] for e in t.envs])
    names = get_spec("pvp").opponents.tier_names
    assert sorted({names[i] for i in tiers}) == sorted(set(cfg.env.opponents))
    from osrs_rl.agent.policy import Policy

    rows = evaluate(Policy(t.model, "pvp", {"max_ticks": 20}, ["novice", "average"]), episodes=4)
    assert [r.opponent for r in rows] == ["novice", "average"]
    assert all(0.0 <= r.low <= r.win_rate <= r.high <= 1.0 for r in rows)


@pytest.mark.slow
def test_evaluation_tells_losses_from_undecided_fights(tmp_path):
    """An untrained policy against nightmare: most fights lost when they may run long, hardly any
    when they are cut after 10 ticks (undecided, not losses); an encounter without a loss metric
    reports none, as null in eval.json."""
    from osrs_rl.agent.policy import Policy
    from osrs_rl.train.evaluate import save_rows

    spec = get_spec("pvp")
    model = build_model(spec.obs_segments, spec.head_sizes, hidden=16)
    long, short = (evaluate(Policy(model, "pvp", {"max_ticks": ticks}, ["nightmare"]), episodes=32, seed=3)[0]
                   for ticks in (600, 10))
    assert long.loss_rate > 0.5 and long.win_rate + long.loss_rate <= 1.0
    assert short.loss_rate <= 0.1 and short.win_rate + short.loss_rate <= 0.1
    template = get_spec("template")
    row = evaluate(Policy(build_model(template.obs_segments, template.head_sizes, hidden=16), "template", {}, []),
                   episodes=4)[0]
    assert np.isnan(row.loss_rate)
    save_rows([row, long], tmp_path / "eval.json")
    saved = json.loads((tmp_path / "eval.json").read_text())
    assert saved[0]["loss_rate"] is None and saved[1]["loss_rate"] == long.loss_rate


@pytest.mark.slow
def test_evaluation_tells_where_the_episodes_ended():
    """Each episode is counted once in the phase it ended in, with its outcome (the counts add up to the
    episodes, the wins and the losses), in the encounter's phase order; the table prints beside the main one
    when episodes ended in more than one phase (the untrained template wins all its fights in one)."""
    import io

    from rich.console import Console

    from osrs_rl.agent.policy import Policy
    from osrs_rl.train.evaluate import print_table

    spec = get_spec("pvp")
    model = build_model(spec.obs_segments, spec.head_sizes, hidden=16)
    rows = evaluate(Policy(model, "pvp", {"max_ticks": 600}, ["nightmare", "novice"]), episodes=32, seed=3)
    for row in rows:
        assert list(row.phases) == list(spec.phase_names)
        assert all(list(v) == ["ended", "lost", "won"] for v in row.phases.values())    # the console's order
        assert sum(v["ended"] for v in row.phases.values()) == 32
        assert sum(v["won"] for v in row.phases.values()) == round(row.win_rate * 32)
        assert sum(v["lost"] for v in row.phases.values()) == round(row.loss_rate * 32) > 0
    out = io.StringIO()
    print_table(rows, Console(file=out, width=160))
    assert "where the episodes ended" in out.getvalue()
    template = get_spec("template")
    model = build_model(template.obs_segments, template.head_sizes, hidden=16)
    one = evaluate(Policy(model, "template", {}, []), episodes=16, seed=1)
    out = io.StringIO()
    print_table(one, Console(file=out, width=160))
    assert sum(v["ended"] > 0 for v in one[0].phases.values()) == 1 and "where the episodes" not in out.getvalue()


@pytest.mark.slow
def test_evaluation_reports_its_progress(tmp_path):
    """The final evaluation of a run and `eval --checkpoint` draw a progress bar from these reports:
    episodes done over all opponents, rising to the total, with the opponent being played."""
    from osrs_rl.agent.policy import Policy
    from osrs_rl.train.evaluate import save_replays

    spec = get_spec("pvp")
    policy = Policy(build_model(spec.obs_segments, spec.head_sizes, hidden=16), "pvp", {"max_ticks": 20},
                    ["novice", "average"])
    calls = []
    evaluate(policy, episodes=4, progress=lambda done, total, opponent: calls.append((done, total, opponent)))
    assert calls[0] == (0, 8, "novice") and calls[-1] == (8, 8, "average")
    assert [c[0] for c in calls] == sorted(c[0] for c in calls) and {c[1] for c in calls} == {8}
    assert max(c[0] for c in calls if c[2] == "novice") == 4
    calls.clear()
    save_replays(policy, tmp_path, per_opponent=1, progress=lambda *c: calls.append(c))
    assert calls == [(1, 2, "novice"), (2, 2, "average")]


def test_multi_agent_needs_an_opponent(tmp_path):
    with pytest.raises(ValueError, match="agent 1 stands idle"):
        Trainer(_cfg(tmp_path, "--league.enabled", "false", encounter="pvp_selfplay"), console=False)


@pytest.mark.slow
def test_memory_across_episodes_option(tmp_path):
    """With model.reset_on_episode off a recurrent model keeps its state over episode starts."""
    cfg = _cfg(tmp_path, "--model.kind", "mingru", "--model.reset_on_episode", "false", "--env.num_envs", "8",
               "--ppo.horizon", "40", "--ppo.minibatches", "2", "--env.config.max_ticks", "10",
               "--run.total_steps", "320", "--run.eval_episodes", "0")
    t = Trainer(cfg, console=False)
    assert t.collector.reset_state is False
    t.train()
    assert t.store.reset[1:].any()          # episodes did start inside the rollout


@pytest.mark.slow
def test_the_issue_19_knobs_reach_the_model_the_optimizer_and_both_advantage_passes(tmp_path, monkeypatch):
    from osrs_rl.train import ppo

    seen = []
    real = ppo.compute_advantages

    def compute_advantages(*args, **kw):
        seen.append((kw.get("bootstrap_truncation"), kw.get("ratio") is not None))
        return real(*args, **kw)
    monkeypatch.setattr(ppo, "compute_advantages", compute_advantages)
    cfg = _cfg(tmp_path, "--model.activation", "tanh", "--model.separate_value", "true",
               "--ppo.bootstrap_truncation", "false", "--optim.name", "muon", "--env.num_envs", "8",
               "--ppo.horizon", "40", "--ppo.minibatches", "2", "--env.config.max_ticks", "10",
               "--run.total_steps", "320", "--run.eval_episodes", "0", "--log.replays", "false")
    t = Trainer(cfg, console=False)
    assert t.model.value_encoder is not None
    assert any(isinstance(m, torch.nn.Tanh) for m in t.model.modules())
    assert not any(isinstance(m, torch.nn.ReLU) for m in t.model.modules())
    # the value's encoder is split between AdamW and Muon as the policy's is
    groups = {}
    for group in t.optimizer.param_groups:
        for p in group["params"]:
            groups[id(p)] = group["name"]
    named = dict(t.model.named_parameters())
    for name, p in named.items():
        if name.startswith("value_encoder."):
            assert groups[id(p)] == groups[id(named[name[len("value_"):]])], name
    assert groups[id(named["value_encoder.trunk.0.weight"])] == "adamw_decay"
    assert groups[id(named["value_encoder.trunk.2.weight"])] == "matrix"
    t.train()
    assert t.store.truncated.any()                          # the tick limit did cut episodes
    assert seen and {flag for flag, _ in seen} == {False}
    assert {vtrace for _, vtrace in seen} == {False, True}  # the first pass and the V-trace recomputes
def _on_second_update(tmp_path, monkeypatch, action):
    """A short template Trainer whose second update first runs ``action(trainer)``; returns the trainer
    and the list of updates begun."""
    t = Trainer(_cfg(tmp_path, "--run.total_steps", "100000", "--run.eval_episodes", "0"), console=False)
    calls = []
    real_update = t.update

    def update(progress):
        calls.append(progress)
        if len(calls) == 2:
            action(t)
        return real_update(progress)

    monkeypatch.setattr(t, "update", update)
    return t, calls


@pytest.mark.slow
def test_ctrl_c_saves_a_checkpoint(tmp_path, monkeypatch):
    def ctrl_c(_):
        raise KeyboardInterrupt

    t, _ = _on_second_update(tmp_path, monkeypatch, ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        t.train()
    resumed = Trainer(_cfg(tmp_path, "--run.total_steps", "100000"), resume=t.checkpoint_path(), console=False)
    assert resumed.global_step == t.global_step > 0


@pytest.mark.slow
def test_a_stop_signal_whose_interrupt_is_swallowed_still_stops_the_run(tmp_path, monkeypatch):
    """A signal's KeyboardInterrupt raised inside code that swallows it (a finalizer, a callback:
    "Exception ignored in ...") used to leave the run training with every later signal put off (a
    fresh-clone CI run hung so). The run stops at the next iteration and saves, as for Ctrl-C."""
    import signal

    def swallowed_sigterm(t):
        try:
            t._signals._stop(signal.SIGTERM, None)          # the handler runs where its exception is lost
        except KeyboardInterrupt:
            pass

    t, calls = _on_second_update(tmp_path, monkeypatch, swallowed_sigterm)
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        with pytest.raises(KeyboardInterrupt, match="signal 15"):
            t.train()
    finally:
        for sig, handler in previous.items():       # the held handlers stay installed by design
            signal.signal(sig, handler)
    assert len(calls) == 2                           # stopped before a third update
    resumed = Trainer(_cfg(tmp_path, "--run.total_steps", "100000"), resume=t.checkpoint_path(), console=False)
    assert resumed.global_step == t.global_step > 0


@pytest.mark.slow
def test_sigterm_stops_like_ctrl_c(tmp_path):
    """A scheduler's SIGTERM (or `kill`) saves a checkpoint and says how to resume, like Ctrl-C.
    Further SIGTERMs close behind the first (an impatient `kill`, or Ctrl-C twice) must not abort that
    save while the message claims it: the step reported is the step the file holds. (The wider model
    makes the save take tens of milliseconds, so that later signals land inside it.)"""
    import os
    import re
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "runs"
    proc = subprocess.Popen(
        [sys.executable, "-m", "osrs_rl.cli", "train", "template", "--run.total_steps", "100000000",
         "--run.out_dir", str(out), "--run.name", "t", "--log.console", "false", "--env.num_envs", "16",
         "--model.hidden", "256"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "COLUMNS": "1000"})    # whole lines: paths unbroken
    from osrs_rl.train.tensorboard import read_events

    events = out / "t"

    def logged():                                  # into the loop: an iteration has been logged
        try:
            return any(tag == "perf/steps_per_second" for _, tag, _ in read_events(events))
        except (OSError, ValueError):              # not there yet, or a record half written
            return False
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and not logged():
        time.sleep(0.5)
    proc.send_signal(signal.SIGTERM)
    for _ in range(6):            # more over the next ~20 ms: some land inside the save, not merged with the first
        time.sleep(0.003)
        proc.send_signal(signal.SIGTERM)
    text, _ = proc.communicate(timeout=120)
    assert proc.returncode == 130, text
    words = " ".join(text.split())
    reported = re.search(r"interrupted at step ([\d,]+); checkpoint saved: (\S+) \(continue: .* --resume", words)
    assert reported, text
    payload, _ = load_checkpoint(reported.group(2))
    assert payload["global_step"] == int(reported.group(1).replace(",", "")) > 0
