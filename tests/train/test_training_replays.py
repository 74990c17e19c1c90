"""Replays of training episodes: taped from the rollouts, the best and a sample written, each reproducing."""

import numpy as np
import pytest

import osrs_rl
from osrs_rl.agent.config import load_config
from osrs_rl.replay import load_replay, verify_replay
from osrs_rl.runtime.registry import get_spec
from osrs_rl.train import training_replays
from osrs_rl.train.ppo import Trainer
from osrs_rl.train.training_replays import EpisodeTape, TrainingReplays


def _cfg(tmp_path, *extra, encounter="template"):
    return load_config(encounter, overrides=["--run.out_dir", str(tmp_path), "--log.console", "false",
                                             "--run.name", "t", "--run.eval_episodes", "0", *extra])


def test_tape_rebuilds_episodes_that_reproduce(tmp_path, monkeypatch):
    """Random masked play in 6 envs with autoresets; a tape of 4 ticks has to grow. Every finished
    episode becomes a replay that verifies and whose return is the sum of the rewards the env gave."""
    monkeypatch.setattr(training_replays, "INITIAL_CAPACITY", 4)
    env = osrs_rl.make("template", num_envs=6, seed=3, max_ticks=30)
    env.reset()
    tape = EpisodeTape(env)
    rng = np.random.default_rng(0)
    pending = np.zeros(6, dtype=bool)
    sums = np.zeros(6)
    finished = []
    for _ in range(120):
        mask = env.action_mask()
        actions = np.zeros((6, env.spec.num_heads), dtype=np.int64)
        for h, sl in enumerate(env.spec.mask_slices().values()):
            for i in range(6):
                actions[i, h] = rng.choice(np.flatnonzero(mask[i, sl]))
        _, rew, term, trunc, _ = env.step(actions)
        was_reset = pending.copy()
        sums[was_reset] = 0.0
        sums[~was_reset] += rew[~was_reset]
        pending = term | trunc
        for ep in tape.record(actions, rew, pending, was_reset):
            assert abs(ep.episode_return - sums[ep.index]) < 1e-4
            replay = ep.replay(bool(term[ep.index]), bool(trunc[ep.index]), {"source": "test"})
            finished.append(verify_replay(replay))
    assert len(finished) >= 6
    assert all(r.ok for r in finished), [r.message() for r in finished if not r.ok]
    assert tape.capacity > 4


def test_keeper_writes_the_best_and_rotates_samples(tmp_path):
    """The best file holds the highest return offered; samples are written per interval, the newest kept."""
    env = osrs_rl.make("template", num_envs=4, seed=1, max_ticks=10)
    env.reset()
    tape = EpisodeTape(env)
    keeper = TrainingReplays(tmp_path, sample_every=1e-9, keep=2)
    zeros = np.zeros((4, env.spec.num_heads), dtype=np.int64)
    no = np.zeros(4, dtype=bool)
    returns = []
    for step in range(3):
        rewards = np.array([1.0, 5.0, 2.0, 0.5]) * (step + 1) if step != 1 else np.array([9.0, 0, 0, 0])
        env.step(zeros)
        done = np.ones(4, dtype=bool)
        eps = tape.record(zeros, rewards, done, no)
        returns += [e.episode_return for e in eps]
        keeper.offer(eps, done, no, lambda i: {"env": i})
        keeper.flush(global_step=step + 1)
        assert tape.record(zeros, np.zeros(4), no, done) == []      # the autoreset tick starts new episodes
    keeper.flush(global_step=3, force=True)        # a new best waits out BEST_WRITE_INTERVAL, or the end
    best = load_replay(tmp_path / "best.orlr", check=False)
    assert float(best.rewards[:, 0].sum()) == max(returns) == 15.0
    assert best.meta["kind"] == "best" and best.meta["env"] == 1
    samples = sorted(p.name for p in tmp_path.glob("sample-*.orlr"))
    assert samples == ["sample-000000000002.orlr", "sample-000000000003.orlr"]


def test_trainer_saves_training_replays_that_verify(tmp_path):
    """A short template run writes best.orlr and samples under replays/train, each reproducing exactly."""
    cfg = _cfg(tmp_path, "--run.total_steps", "4096", "--env.num_envs", "16", "--ppo.horizon", "32",
               "--log.replay_sample_every", "0.000001", "--log.replay_keep", "3")
    t = Trainer(cfg, console=False)
    t.train()
    folder = t.run_dir / "replays" / "train"
    files = sorted(folder.glob("*.orlr"))
    assert (folder / "best.orlr") in files and len(files) == 4
    best = load_replay(folder / "best.orlr")
    assert best.meta["source"] == "training" and best.meta["kind"] == "best"
    parts = sum(best.reward_components.values())
    assert np.allclose(parts, best.rewards[:, 0], atol=1e-5)
    for f in files:
        replay = load_replay(f)
        assert replay.rewards[:, 0].sum() <= best.rewards[:, 0].sum() + 1e-6
        result = verify_replay(replay)
        assert result.ok, result.message()


@pytest.mark.slow
def test_pvp_training_replays_name_the_opponent(tmp_path):
    """Two overlapped halves against scripted opponents: the replays verify and say whom they fought;
    the training logs give the win rate per opponent tier."""
    cfg = _cfg(tmp_path, "--run.total_steps", "1024", "--env.num_envs", "16", "--ppo.horizon", "16",
               "--ppo.minibatches", "2", "--env.config.max_ticks", "20", "--log.replay_sample_every", "0.000001",
               encounter="pvp")
    t = Trainer(cfg, console=False)
    t.train()
    files = sorted((t.run_dir / "replays" / "train").glob("*.orlr"))
    assert len(files) >= 2
    from osrs_rl.train.tensorboard import read_events

    tags = {tag for _, tag, _ in read_events(t.run_dir)}
    assert {f"opponent/{tier}/won" for tier in cfg.env.opponents} <= tags     # the logs break wins down per tier
    for f in files:
        replay = load_replay(f)
        assert replay.meta["opponent"] in cfg.env.opponents
        assert replay.actions.shape[1:] == (1, 9)
        result = verify_replay(replay)
        assert result.ok, result.message()


def test_replays_can_be_turned_off(tmp_path):
    t = Trainer(_cfg(tmp_path, "--run.total_steps", "512", "--env.num_envs", "8", "--ppo.horizon", "16",
                     "--log.replays", "false"), console=False)
    t.train()
    assert not (t.run_dir / "replays").exists()


@pytest.mark.slow
def test_selfplay_training_replays_hold_both_players(tmp_path):
    """With a league, agent 1's actions come from a policy snapshot: the replay keeps them and reproduces."""
    cfg = _cfg(tmp_path, "--run.total_steps", "1024", "--env.num_envs", "16", "--ppo.horizon", "16",
               "--ppo.minibatches", "2", "--env.config.max_ticks", "20", encounter="pvp_selfplay")
    t = Trainer(cfg, console=False)
    t.train()
    replay = load_replay(t.run_dir / "replays" / "train" / "best.orlr")
    assert replay.actions.shape[1:] == (2, 9)
    result = verify_replay(replay)
    assert result.ok, result.message()


def test_equal_returns_keep_the_shortest_episode(tmp_path):
    """With a sparse reward every kill returns 1: the best is the fastest one."""
    class Episode:
        def __init__(self, index, ret, ticks):
            self.index, self.episode_return, self.ticks = index, ret, ticks

        def replay(self, terminated, truncated, meta):
            return {"ticks": self.ticks, **meta}

    keeper = TrainingReplays(tmp_path, sample_every=1e9, keep=0)
    flags = np.ones(3, dtype=bool)
    keeper.offer([Episode(0, 1.0, 300), Episode(1, 1.0, 200), Episode(2, 0.0, 50)], flags, ~flags,
                 lambda i: {"env": i})
    keeper.offer([Episode(0, 1.0, 250)], flags, ~flags, lambda i: {"env": i})
    assert keeper.best == {"ticks": 200, "env": 1, "kind": "best"}


def _recorded_view(replay, model):
    """The policy's view of ``replay`` taken as evaluation takes it: playing the recorded actions in a
    fresh env through ``record_policy_episode`` and asking the model before each tick."""
    import torch

    from osrs_rl.agent.distributions import MaskedMultiCategorical
    from osrs_rl.replay import record_policy_episode

    spec = get_spec(replay.encounter)
    heads = tuple(int(h) for h in spec.head_sizes)
    run = {"state": model.initial_state(1, torch.device("cpu")), "t": 0}

    @torch.no_grad()
    def act(env, obs, info):
        env.restore(0, replay.initial_snapshot) if run["t"] == 0 else None
        obs, mask = env._obs_view, env.action_mask()
        first = torch.tensor([run["t"] == 0])
        logits, value, run["state"] = model.step(torch.from_numpy(obs), run["state"], first)
        p = MaskedMultiCategorical(logits, torch.from_numpy(mask), heads).log_probs[0].exp().numpy()
        a = replay.actions[run["t"], 0][None]
        run["t"] += 1
        return a, {"value": float(value[0]), "probs": [p[h, :n] for h, n in enumerate(heads)]}

    return record_policy_episode(replay.encounter, replay.config, act, max_ticks=replay.ticks)


def test_training_replays_carry_the_policy_view(tmp_path):
    """A recurrent template run: best.orlr and the samples hold values and probabilities per tick and say
    at which step the view was taken; the view is the policy's run over the recorded actions (its
    recurrent state carried), equal to what evaluation's recording takes."""
    from osrs_rl.train.policy_view import with_policy_view

    cfg = _cfg(tmp_path, "--run.total_steps", "2048", "--env.num_envs", "8", "--ppo.horizon", "32",
               "--model.kind", "mingru", "--log.replay_sample_every", "0.000001", "--log.replay_keep", "2")
    t = Trainer(cfg, console=False)
    t.train()
    files = sorted((t.run_dir / "replays" / "train").glob("*.orlr"))
    assert len(files) >= 2
    for f in files:
        replay = load_replay(f)
        assert replay.values is not None and replay.probs is not None
        view_step = replay.meta["policy_view"]["global_step"]
        assert view_step <= replay.meta["global_step"] and view_step <= t.global_step
        for p in replay.probs:
            assert np.allclose(p.sum(axis=1), 1.0, atol=1e-4)
    t.model.eval()
    replay = with_policy_view(load_replay(files[0]), t.model, t.global_step)   # the final policy's view
    again = _recorded_view(replay, t.model)
    assert np.allclose(again.values, replay.values, atol=1e-5)
    for mine, theirs in zip(replay.probs, again.probs, strict=True):
        assert np.allclose(mine, theirs, atol=1e-5)
