"""Archive starts in training: the reset mix, restored recurrent state, the learner seeing what the actor
saw, metrics split by start type, the run's archive file."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from osrs_rl.agent.config import load_config
from osrs_rl.agent.distributions import log_prob_and_entropy
from osrs_rl.agent.models import build_model
from osrs_rl.explore.archive import Archive
from osrs_rl.explore.explorer import explore
from osrs_rl.explore.starts import ArchiveStarts
from osrs_rl.runtime.checks import random_legal_actions
from osrs_rl.runtime.recording import user_settings
from osrs_rl.runtime.registry import make
from osrs_rl.train.ppo import ARCHIVE_NAME, Trainer, split_starts
from osrs_rl.train.rollout import Collector, RolloutStorage


def _archive(num_envs=16, seed=3, model=None):
    env = make("template", num_envs=num_envs, seed=seed)
    archive = Archive(env.spec, user_settings(env), hidden_size=0 if model is None else model.state_size)
    explore(env, archive, iterations=4, ticks=40, model=model, seed=seed)
    return archive


@pytest.mark.parametrize("fraction", [0.0, 0.3, 1.0])
def test_the_share_of_archive_starts_follows_its_setting(fraction):
    archive = _archive()
    env = make("template", num_envs=64, seed=9)
    starts = ArchiveStarts([env], archive, fraction, success_threshold=1.1, min_passes=10**9, reseed=True, seed=4)
    env.reset()
    starts.begin(0)
    rng = np.random.default_rng(0)
    pending = np.zeros(env.num_envs, dtype=np.bool_)
    restored = 0
    for t in range(700):
        if t % 64 == 0:
            starts.refresh()
        actions = random_legal_actions(env, rng)
        _, reward, term, trunc, _ = env.step(actions)
        was_reset = pending
        pending = term | trunc
        got, _ = starts.after_step(0, actions[:, None], reward, pending, was_reset)
        restored += len(got)
        assert set(got) <= set(np.flatnonzero(was_reset))
        assert np.array_equal(starts.start_flags(0)[got], np.ones(len(got)))
    resets = starts.resets
    assert resets > 150
    share = restored / resets
    assert abs(share - fraction) <= 4 * np.sqrt(fraction * (1 - fraction) / resets) + 1e-9


def test_only_cells_beyond_where_normal_starts_succeed_are_restored():
    archive = _archive()
    n = len(archive)
    archive.counts["passes"] = [20] * n
    archive.counts["advanced"] = [20] * (n - 3) + [2, 2, 2]      # three cells normal starts seldom get past
    env = make("template", num_envs=16, seed=1)
    starts = ArchiveStarts([env], archive, 1.0, success_threshold=0.5, min_passes=8, reseed=False, seed=0)
    starts.refresh()
    assert sorted(starts._keys.tolist()) == sorted(archive.keys[-3:])


DEVICES = ["cpu", pytest.param("cuda", marks=pytest.mark.cuda)]


@pytest.mark.slow
@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("kind", ["lstm", "mingru"])
def test_restored_envs_act_on_the_stored_recurrent_state_and_the_learner_sees_what_the_actor_saw(kind, device):
    torch.manual_seed(0)
    spec_env = make("template", num_envs=4)
    model = build_model(spec_env.spec.obs_segments, spec_env.spec.head_sizes, kind=kind, hidden=16, layers=1,
                        start_input=True)
    archive = _archive(model=model)
    model = model.to(device)
    assert any(np.abs(h).sum() > 0 for h in archive.hidden)
    envs = [make("template", num_envs=8, seed=s) for s in (1, 2)]
    starts = ArchiveStarts(envs, archive, 0.7, success_threshold=1.1, min_passes=10**9, reseed=True, seed=1,
                           hidden_of=lambda k, ids: collector.halves[k].state[torch.as_tensor(ids)].cpu().numpy())
    collector = Collector(envs, model, device, seed=0, starts=starts)
    store = RolloutStorage(32, 16, spec_env.spec.obs_size, spec_env.spec.mask_size, spec_env.spec.num_heads,
                           model.state_size, archive_starts=True)
    seen = 0
    for _ in range(3):
        collector.collect(store)
        restored = store.reset & (store.start_state.abs().sum(-1) > 0)
        seen += int(restored.sum())
        with torch.no_grad():
            d = torch.device(device)
            logits, value, _ = model.unroll(store.obs[:32].to(d), store.state0.to(d), store.reset[:32].to(d),
                                            store.start[:32].to(d), store.start_state[:32].to(d))
            logprob, _ = log_prob_and_entropy(logits, store.mask.to(d), store.action.to(d), collector.head_sizes)
        torch.testing.assert_close(logprob.cpu(), store.logprob, rtol=0, atol=1e-4)
        torch.testing.assert_close(value.cpu(), store.value[:32], rtol=0, atol=1e-4)
    collector.close()
    assert seen > 0 and store.start.sum() > 0


def test_a_value_computed_after_the_rollout_reads_each_ticks_start_type():
    """separate_value models get their values in one batch after the rollout (train.rollout): each with its
    tick's start-type input, as the learner's unroll reads it."""
    torch.manual_seed(0)
    spec = make("template", num_envs=4).spec
    model = build_model(spec.obs_segments, spec.head_sizes, hidden=16, layers=1, separate_value=True,
                        start_input=True)
    with torch.no_grad():
        model.value[0].weight[:, -1] += 1.0             # the start input moves the value
    envs = [make("template", num_envs=16, seed=1)]
    starts = ArchiveStarts(envs, _archive(), 0.7, success_threshold=1.1, min_passes=10**9, reseed=True, seed=1)
    collector = Collector(envs, model, "cpu", seed=0, starts=starts)
    assert collector.batched_values
    store = RolloutStorage(32, 16, spec.obs_size, spec.mask_size, spec.num_heads, 0, archive_starts=True)
    restored = 0
    for _ in range(6):
        collector.collect(store)
        with torch.no_grad():
            _, value, _ = model.unroll(store.obs, store.state0, store.reset, store.start)
            _, normal, _ = model.unroll(store.obs, store.state0, store.reset)
        torch.testing.assert_close(value, store.value, rtol=0, atol=1e-5)
        if store.start.sum() > 0:
            restored += 1
            assert not torch.allclose(normal, store.value)
    collector.close()
    assert restored > 0


def _cfg(tmp_path, *extra):
    return load_config("template", overrides=["--run.out_dir", str(tmp_path), "--log.console", "false",
                                              "--run.name", "t", "--env.num_envs", "32", "--run.eval_episodes", "0",
                                              "--log.replays", "false", *extra])


@pytest.mark.slow
def test_a_run_logs_normal_and_archive_starts_apart_and_saves_its_archive(tmp_path):
    cfg = _cfg(tmp_path, "--run.total_steps", "20000", "--explore.enabled", "true", "--explore.fraction", "0.5")
    trainer = Trainer(cfg, console=False)
    scalars = {}
    trainer.on_log = lambda step, s: scalars.update(s) or None
    trainer.train()
    assert scalars["archive/cells"] > 0 and 0.2 < scalars["archive/start_share"] < 0.8
    assert scalars["archive/episode/count"] > 0 and scalars["episode/count"] > 0
    assert trainer.model.start_input
    saved = Archive.load(tmp_path / "t" / ARCHIVE_NAME, trainer.spec)
    assert len(saved) == len(trainer.archive_starts.archive)
    # a resume reads the run's archive back
    again = Trainer(cfg, resume=tmp_path / "t" / "checkpoint.pt", console=False)
    assert again.archive_starts.archive.keys == saved.keys


def test_split_starts_keeps_normal_starts_as_the_score():
    episodes = {"won": np.array([1.0, 0.0, 1.0, 1.0]), "phase": np.array([0, 1, 0, 1]),
                "archive_start": np.array([0.0, 1.0, 1.0, 0.0])}
    normal, restored = split_starts(episodes)
    assert normal["won"].tolist() == [1.0, 1.0] and restored["won"].tolist() == [0.0, 1.0]
    assert "archive_start" not in normal and "archive_start" not in restored
    plain = {"won": np.array([1.0]), "phase": np.array([0])}
    assert split_starts(plain) == (plain, {})


def test_an_archive_made_under_other_rules_is_refused_by_a_run(tmp_path):
    env = make("template", num_envs=4, seed=0)
    other = dict(user_settings(env))
    key = next(k for k, v in other.items() if isinstance(v, float))
    other[key] = other[key] + 1.0
    archive = Archive(env.spec, other)
    archive.offer(1, 0.5, bytes(env.spec.state_dtype.itemsize))
    path = archive.save(tmp_path / "other.orla")
    cfg = _cfg(tmp_path, "--explore.enabled", "true", "--explore.archive", str(path))
    with pytest.raises(ValueError, match=f"other encounter settings \\({key}"):
        Trainer(cfg, console=False)


def test_explore_settings_are_checked():
    with pytest.raises(ValueError, match="explore.fraction"):
        load_config("template", overrides=["--explore.fraction", "1.5"])
    with pytest.raises(ValueError, match="explore.archive needs explore.enabled"):
        load_config("template", overrides=["--explore.archive", "x.orla"])


def test_archive_starts_on_an_encounter_without_cells_are_refused_before_any_folder(tmp_path):
    cfg = load_config("pvp", overrides=["--run.out_dir", str(tmp_path), "--log.console", "false", "--run.name", "p",
                                        "--env.num_envs", "8", "--explore.enabled", "true"])
    with pytest.raises(ValueError, match="no cell_key"):
        Trainer(cfg, console=False)
    assert not (tmp_path / "p").exists()
