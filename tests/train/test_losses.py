"""PPO losses against hand-computed numbers, clipping on both sides, masks and weights."""

import math

import pytest
import torch

from osrs_rl.train.losses import masked_mean, mean_entropy, normalize_advantages, policy_loss, value_loss


def t(*values):
    return torch.tensor(values, dtype=torch.float32)


def logs(*ratios):
    """new_logprob for the given ratios against old_logprob 0."""
    return torch.log(t(*ratios))


# ---- policy loss -----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("ratio, adv, expected, clipped", [
    # A > 0: the gain stops at 1 + eps; below 1 - eps the unclipped (smaller) objective is kept
    (1.1, 2.0, -2.2, False),
    (1.5, 2.0, -2.4, True),        # min(1.5 * 2, 1.2 * 2)
    (0.5, 2.0, -1.0, True),        # |r - 1| > eps counts as clipped, though the loss uses r itself
    # A < 0: the penalty stops at 1 - eps; above 1 + eps the unclipped (larger) penalty is kept
    (0.9, -2.0, 1.8, False),
    (0.5, -2.0, 1.6, True),        # max(0.5 * 2, 0.8 * 2)
    (1.5, -2.0, 3.0, True),
])
def test_policy_loss_clipping_both_sides(ratio, adv, expected, clipped):
    out = policy_loss(logs(ratio), t(0.0), t(adv), clip_coef=0.2)
    assert out.loss.item() == pytest.approx(expected, rel=1e-6)
    assert out.clip_fraction.item() == float(clipped)
    assert out.approx_kl.item() == pytest.approx((ratio - 1) - math.log(ratio), rel=1e-5)


def test_policy_gradient_is_zero_where_clipped():
    new = logs(1.5, 0.5, 1.1).requires_grad_()
    policy_loss(new, torch.zeros(3), t(1.0, -1.0, 1.0), clip_coef=0.2).loss.backward()
    # d/dlogp of -A r / 3 is -A r / 3 where unclipped, 0 where the clipped term is the max
    assert new.grad.tolist() == pytest.approx([0.0, 0.0, -1.1 / 3])


def test_policy_loss_mask_and_weights():
    new, old, adv = logs(1.0, 1.0, 3.0), torch.zeros(3), t(1.0, 3.0, 100.0)
    valid = torch.tensor([True, True, False])
    out = policy_loss(new, old, adv, 0.2, valid=valid)
    assert out.loss.item() == pytest.approx(-2.0)              # (-1 - 3) / 2; the invalid entry is ignored
    assert out.clip_fraction.item() == 0.0 and out.approx_kl.item() == 0.0
    weighted = policy_loss(new, old, adv, 0.2, weights=t(0.5, 1.0, 1.0), valid=valid)
    assert weighted.loss.item() == pytest.approx(-1.75)        # (-0.5 - 3) / 2: weights scale, count is 2
    assert weighted.approx_kl.item() == out.approx_kl.item()   # diagnostics are unweighted


def test_per_segment_weights_broadcast_over_time():
    # [T=2, segments=2] with one weight per segment
    adv = t(1.0, 2.0).expand(2, 2)
    out = policy_loss(torch.zeros(2, 2), torch.zeros(2, 2), adv, 0.2, weights=t(1.0, 0.5))
    assert out.loss.item() == pytest.approx(-(1.0 + 1.0 + 1.0 + 1.0) / 4)


# ---- value loss ------------------------------------------------------------------------------------------------------

def test_value_loss_unclipped():
    assert value_loss(t(1.0, 3.0), t(0.0, 0.0), t(0.0, 1.0)).item() == pytest.approx(0.5 * (1 + 4) / 2)


@pytest.mark.parametrize("new, old, ret, expected", [
    (2.0, 0.0, 0.0, 0.5 * 4.0),     # moved away from the target: the larger unclipped error counts
    (2.0, 0.0, 3.0, 0.5 * 6.25),    # moved toward the target past the clip: the clipped error (0.5 - 3)^2
    (-2.0, 0.0, -3.0, 0.5 * 6.25),  # the same below
    (0.3, 0.0, 3.0, 0.5 * 7.29),    # inside the clip range: plain squared error
])
def test_value_loss_clipping_both_sides(new, old, ret, expected):
    assert value_loss(t(new), t(old), t(ret), clip_coef=0.5).item() == pytest.approx(expected, rel=1e-6)


def test_value_loss_clipped_gradient_is_zero():
    new = t(2.0).requires_grad_()
    value_loss(new, t(0.0), t(3.0), clip_coef=0.5).backward()
    assert new.grad.item() == 0.0


def test_value_loss_mask_and_weights():
    new, old, ret = t(1.0, 2.0, 50.0), torch.zeros(3), torch.zeros(3)
    valid = torch.tensor([True, True, False])
    assert value_loss(new, old, ret, valid=valid).item() == pytest.approx(0.5 * (1 + 4) / 2)
    assert value_loss(new, old, ret, weights=t(2.0, 0.5, 1.0), valid=valid).item() == pytest.approx(
        0.5 * (2 + 2) / 2)


# ---- entropy, masked mean, normalisation -----------------------------------------------------------------------------

def test_mean_entropy_over_valid_entries():
    entropy = t(1.0, 2.0, 30.0, 3.0).reshape(2, 2)
    valid = torch.tensor([[True, True], [False, True]])
    assert mean_entropy(entropy, valid).item() == pytest.approx(2.0)
    assert mean_entropy(entropy).item() == pytest.approx(9.0)


def test_masked_mean_with_nothing_valid_is_zero():
    assert masked_mean(t(1.0, 2.0), torch.tensor([False, False])).item() == 0.0


def test_normalize_advantages_over_valid_entries():
    adv = t(1.0, 2.0, 3.0, 4.0, 1000.0)
    valid = torch.tensor([True, True, True, True, False])
    out = normalize_advantages(adv, valid)
    std = math.sqrt(1.25)                                 # population std of 1, 2, 3, 4
    assert out[:4].tolist() == pytest.approx([-1.5 / std, -0.5 / std, 0.5 / std, 1.5 / std], rel=1e-5)
    assert out[4].item() == 0.0
    assert out[:4].mean().item() == pytest.approx(0.0, abs=1e-6)
    unmasked = normalize_advantages(adv[:4])
    assert unmasked.tolist() == pytest.approx(out[:4].tolist(), rel=1e-6)
