"""The CUDA path of training, in pieces a CPU can check: the rollout's deferred copies and the update's staged
rollout give exactly what the plain path gives, and a checkpoint written on a GPU loads on a CPU. The tests marked
``cuda`` (skipped without a device, saying so; ``osrs-rl device-check`` runs them) check the same on a GPU."""

import io

import numpy as np
import pytest
import torch

from osrs_rl.agent import checkpoint
from osrs_rl.agent.config import load_config
from osrs_rl.agent.distributions import log_prob_and_entropy
from osrs_rl.agent.policy import load_policy
from osrs_rl.train import bench
from osrs_rl.train.ppo import Trainer, resume_config

QUIET = ["--log.console", "false", "--log.replays", "false", "--log.tensorboard", "false", "--run.eval_episodes", "0"]
DEVICES = ["cpu", pytest.param("cuda", marks=pytest.mark.cuda)]


def _trainer(tmp_path, name: str, encounter: str, *extra: str, device: str = "cpu") -> Trainer:
    cfg = load_config(encounter, None, ["--run.out_dir", str(tmp_path), "--run.name", name, "--run.device", device,
                                        *QUIET, "--env.num_envs", "16", "--ppo.horizon", "12", *extra])
    return Trainer(cfg, console=False)


def _storage(t: Trainer) -> dict:
    return {k: v.clone() for k, v in vars(t.store).items() if isinstance(v, torch.Tensor)}


# zulrah's value reads its own encoder (computed after the rollout), the template's shares the policy's (per tick)
@pytest.mark.parametrize("encounter", ["zulrah", "template"])
@pytest.mark.parametrize("overlap", ["false", "true"])
def test_deferred_copies_fill_the_storage_exactly_as_the_plain_path(tmp_path, encounter, overlap):
    plain = _trainer(tmp_path, "plain", encounter, "--env.overlap", overlap)
    deferred = _trainer(tmp_path, "deferred", encounter, "--env.overlap", overlap)
    assert not plain.collector.defer                         # a CPU copies as it goes, unless told
    deferred.collector.defer = True
    try:
        for _ in range(2):                                   # the device buffers are reused by the second rollout
            bench.rollout(plain)
            bench.rollout(deferred)
            a, b = _storage(plain), _storage(deferred)
            assert a.keys() == b.keys()
            for k in a:
                assert torch.equal(a[k], b[k]), k
    finally:
        plain.close()
        deferred.close()
    assert "copy" in deferred.collector.timing and "copy" not in plain.collector.timing


@pytest.mark.slow
def test_a_staged_rollout_updates_the_model_exactly_as_the_storage_does(tmp_path):
    plain = _trainer(tmp_path, "plain", "zulrah", "--ppo.minibatches", "4")
    staged = _trainer(tmp_path, "staged", "zulrah", "--ppo.minibatches", "4")
    assert not plain.stage_rollout
    staged.stage_rollout = True
    try:
        for _ in range(2):
            bench.iteration(plain)
            bench.iteration(staged)
        for (name, p), q in zip(plain.model.named_parameters(), staged.model.parameters(), strict=True):
            assert torch.equal(p, q), name
        assert staged._stage["obs"] is not staged.store.obs       # a copy of its own, kept between updates
        plain_scalars, staged_scalars = plain._scalars({}, 2, 1.0), staged._scalars({}, 2, 1.0)
    finally:
        plain.close()
        staged.close()
    assert "time/copy" not in plain_scalars and staged_scalars["time/copy"] > 0


def _tag_as_cuda(monkeypatch):
    """From now on torch.save records every tensor as living on cuda:0, as a GPU run's checkpoint does."""
    monkeypatch.setattr(torch.serialization, "location_tag", lambda storage: "cuda:0")


@pytest.mark.slow
def test_a_checkpoint_written_on_a_gpu_loads_and_resumes_on_a_cpu(tmp_path, monkeypatch):
    t = _trainer(tmp_path, "A", "template", "--run.total_steps", "192")
    t.train()
    path = t.checkpoint_path()
    payload, meta = checkpoint.load_checkpoint(path)
    payload["rng"]["torch_cuda"] = [torch.zeros(16, dtype=torch.uint8)]     # a GPU run keeps its device's RNG too
    with monkeypatch.context() as m:
        _tag_as_cuda(m)
        checkpoint.save_checkpoint(path, payload, meta)
    raw = checkpoint._read_verified(path)[1]
    if not torch.cuda.is_available():              # the file is a GPU's: torch.load without a map_location refuses it
        with pytest.raises(RuntimeError, match="CUDA"):
            torch.load(io.BytesIO(raw), weights_only=True)
    policy = load_policy(path)                     # eval, audit, the viewer
    for (name, p), q in zip(policy.model.named_parameters(), t.model.parameters(), strict=True):
        assert p.device.type == "cpu" and torch.equal(p, q), name
    resumed = Trainer(resume_config(path, ["--run.device", "cpu", "--run.total_steps", "384"]), resume=path,
                      console=False)
    try:
        assert resumed.global_step == 192 and next(resumed.model.parameters()).device.type == "cpu"
        resumed.train()
        assert resumed.global_step == 384
    finally:
        resumed.close()


@pytest.mark.slow
@pytest.mark.cuda
def test_a_checkpoint_written_on_a_cpu_acts_the_same_on_a_gpu(tmp_path):
    t = _trainer(tmp_path, "A", "zulrah", "--run.total_steps", "192")
    t.train()
    on_cpu, on_gpu = load_policy(t.checkpoint_path()), load_policy(t.checkpoint_path(), device="cuda")
    assert next(on_gpu.model.parameters()).device.type == "cuda"
    obs = torch.from_numpy(np.random.default_rng(0).standard_normal((64, t.spec.obs_size), dtype=np.float32))
    with torch.no_grad():
        a = on_cpu.model.step(obs, on_cpu.model.initial_state(64))
        b = on_gpu.model.step(obs.cuda(), on_gpu.model.initial_state(64, "cuda"))
    for x, y in zip(a[:2], b[:2], strict=True):
        torch.testing.assert_close(x, y.cpu(), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("encounter", ["zulrah", "template"])
def test_a_rollout_stores_what_its_model_computes_for_each_tick(tmp_path, device, encounter):
    """The log-probabilities and values that stay on the device until the rollout ends land on their own tick and
    env; the actions are legal under the stored masks."""
    t = _trainer(tmp_path, "A", encounter, "--env.overlap", "true", device=device)
    t.collector.defer = True
    try:
        bench.rollout(t)
        bench.rollout(t)
    finally:
        t.close()
    s, dev = t.store, t.device
    assert s.obs.is_pinned() == (device == "cuda")
    T, heads = s.horizon, t.collector.head_sizes
    with torch.no_grad():
        logits, value, _ = t.model.unroll(s.obs[:T].to(dev), s.state0.to(dev), s.reset[:T].to(dev))
        logprob, _ = log_prob_and_entropy(logits, s.mask.to(dev), s.action.to(dev), heads)
    torch.testing.assert_close(logprob.cpu(), s.logprob, rtol=1e-4, atol=1e-4)
    torch.testing.assert_close(value.float().cpu(), s.value[:T], rtol=1e-4, atol=1e-4)
    offsets = np.cumsum((0,) + heads[:-1])
    columns = s.action + torch.as_tensor(offsets)
    assert bool(s.mask.gather(-1, columns).all())
