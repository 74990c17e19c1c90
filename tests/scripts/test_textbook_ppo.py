"""scripts/textbook_ppo.py, issue 19's textbook baseline: it runs, logs finite numbers, never samples a
masked action, and its GAE stops at a done and skips the reset step."""

import csv
import math

import numpy as np
import pytest
import torch

from osrs_rl.runtime.adapters.gymnasium import GymVectorEnv
from tests.scripts import load_script


@pytest.fixture(scope="module")
def tb():
    return load_script("textbook_ppo")


def test_main_writes_finite_rows(tb, tmp_path):
    out = tmp_path / "log.csv"
    args = ["--encounter", "template", "--num-envs", "16", "--horizon", "8", "--total-steps", "384",
            "--set", "max_ticks=10", "--log-every", "0", "--seed", "3", "--out", str(out)]
    assert tb.main(args) == 0
    with out.open() as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 3 and tuple(rows[0]) == tb.COLUMNS
    assert [int(r["env_steps"]) for r in rows] == [128, 256, 384]
    for r in rows:
        for k in ("wall_s", "since_first_step_s", "steps_per_s"):
            assert math.isfinite(float(r[k])) and float(r[k]) > 0
        assert int(r["invalid_actions"]) == 0         # the runtime counted no masked action
    # max_ticks=10 ends every episode inside two rollouts of 8 steps: the later rows have rates
    assert int(rows[-1]["episodes"]) > 0 and 0 <= float(rows[-1]["success_rate"]) <= 1
    assert math.isnan(float(rows[-1]["progress"]))       # the template declares no progress metric
    with pytest.raises(SystemExit):                   # an existing --out is refused
        tb.main(args)
    # --opponents reaches the env: the template has no scripted opponents to spread
    with pytest.raises(ValueError, match="has no opponents to choose"):
        tb.main(args[:-2] + ["--opponents", "average"])


def test_a_shared_body_is_one_set_of_weights_under_both_heads(tb, tmp_path):
    """``--shared``: the CleanRL Atari layout (issue 43's practitioner reference): the value's gradient reaches
    the policy's body; separate networks keep them apart."""
    for shared in (False, True):
        agent = tb.Agent(7, [3, 2], shared=shared)
        agent.value(torch.randn(5, 7)).sum().backward()
        body_grad = agent.actor[0][0].weight.grad if shared else agent.actor[0].weight.grad
        assert (body_grad is not None and body_grad.abs().sum() > 0) == shared
        n = sum(p.numel() for p in agent.parameters())
        assert n == (7 * 128 + 128 + 128 * 128 + 128 + 128 * 5 + 5 + 128 + 1 if shared
                     else 2 * (7 * 128 + 128 + 128 * 128 + 128) + 128 * 5 + 5 + 128 + 1)
    out = tmp_path / "shared.csv"
    assert tb.main(["--encounter", "template", "--num-envs", "16", "--horizon", "8", "--total-steps", "256",
                    "--set", "max_ticks=10", "--log-every", "0", "--shared", "--epochs", "2", "--out", str(out)]) == 0
    assert len(out.read_text().splitlines()) == 3


def test_sampled_actions_satisfy_the_mask(tb):
    torch.manual_seed(0)
    env = GymVectorEnv("template", num_envs=16, seed=2, max_ticks=10)
    spec = env.env.spec
    offsets = np.concatenate(([0], np.cumsum(spec.head_sizes)[:-1]))
    agent = tb.Agent(spec.obs_size, spec.head_sizes)
    with torch.no_grad():                              # a policy that wants every head's last option
        agent.actor[-1].bias.copy_(torch.cat([torch.arange(h, dtype=torch.float32) * 5 for h in spec.head_sizes]))
    obs, info = env.reset(seed=2)
    masked_seen = 0
    for _ in range(40):
        mask = info["action_mask"].astype(bool)
        masked_seen += int((~mask).sum())
        with torch.no_grad():
            action, logp, _ = agent.act(torch.from_numpy(obs), torch.from_numpy(mask))
        assert mask[np.arange(16)[:, None], offsets + action.numpy()].all()
        assert torch.isfinite(logp).all()
        obs, _, _, _, info = env.step(action.numpy())
        assert info["invalid_actions"].sum() == 0
    assert masked_seen > 0                             # the mask did forbid something


def test_gae_stops_at_done_and_skips_the_reset_step(tb):
    g, lam = 0.9, 0.5
    reward = torch.tensor([[1.0], [2.0], [0.0], [3.0]])
    value = torch.tensor([[0.5], [0.25], [7.0], [1.0]])
    done = torch.tensor([[0.0], [1.0], [0.0], [0.0]])     # the episode ends at t=1
    valid = torch.tensor([[1.0], [1.0], [0.0], [1.0]])    # t=2 is the reset step
    adv = tb.gae(reward, value, done, valid, torch.tensor([2.0]), g, lam)
    a3 = 3.0 + g * 2.0 - 1.0
    a1 = 2.0 - 0.25
    a0 = 1.0 + g * 0.25 - 0.5 + g * lam * a1
    assert torch.allclose(adv[:, 0], torch.tensor([a0, a1, 0.0, a3]))

