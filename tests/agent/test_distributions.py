"""MaskedMultiCategorical: masking, hand-computed log-probabilities and entropies, gradients, fallbacks."""

import math

import pytest
import torch

from osrs_rl.agent.distributions import MaskedMultiCategorical, log_prob_and_entropy, sample_with_log_prob

HEADS = (3, 1, 5, 2)


def random_case(batch, seed, heads=HEADS):
    """Random logits and a random mask over ``heads``; option 0 of each head stays legal (the runtime's rule)."""
    g = torch.Generator().manual_seed(seed)
    logits = torch.randn(batch, sum(heads), generator=g) * 3
    mask = torch.rand(batch, sum(heads), generator=g) < 0.5
    start = 0
    for size in heads:
        mask[:, start] = True
        start += size
    return logits, mask


def hand_case():
    """Two heads, sizes 3 and 2; option 1 of head 0 is illegal (and has the biggest logit)."""
    logits = torch.tensor([1.0, 9.0, 3.0, 0.5, -0.5])
    mask = torch.tensor([True, False, True, True, True])
    return logits, mask


def test_sampling_never_picks_an_illegal_option():
    logits, mask = random_case(256, seed=0)
    logits = torch.where(mask, logits / 6, 50.0)      # illegal options would win any unmasked draw
    dist = MaskedMultiCategorical(logits, mask, HEADS)
    g = torch.Generator().manual_seed(1)
    picked = torch.zeros_like(mask)
    offsets = torch.tensor([0, 3, 4, 9])
    for _ in range(100):
        flat = dist.sample(g) + offsets                # [256, 4] column in the flat layout
        assert mask.gather(1, flat).all(), "sampled a masked option"
        picked.scatter_(1, flat, True)
    # and sampling is not stuck on one option: most legal options come up over 100 draws
    assert picked.sum() > 0.9 * mask.sum()


def test_sample_frequencies_follow_the_legal_softmax():
    logits, mask = hand_case()
    dist = MaskedMultiCategorical(logits.expand(10000, 5), mask.expand(10000, 5), (3, 2))
    actions = dist.sample(torch.Generator().manual_seed(2))
    p0 = torch.softmax(torch.tensor([1.0, 3.0]), 0)   # legal options 0 and 2 of head 0
    p1 = torch.softmax(torch.tensor([0.5, -0.5]), 0)
    freq0 = torch.bincount(actions[:, 0], minlength=3).float() / 10000
    freq1 = torch.bincount(actions[:, 1], minlength=2).float() / 10000
    assert freq0[1] == 0
    torch.testing.assert_close(freq0[[0, 2]], p0, atol=0.02, rtol=0)
    torch.testing.assert_close(freq1, p1, atol=0.02, rtol=0)


def test_sample_is_reproducible_with_a_generator():
    logits, mask = random_case(64, seed=3)
    dist = MaskedMultiCategorical(logits, mask, HEADS)
    a = dist.sample(torch.Generator().manual_seed(7))
    b = dist.sample(torch.Generator().manual_seed(7))
    assert a.dtype == torch.int64 and a.shape == (64, len(HEADS))
    assert torch.equal(a, b)


def test_log_prob_matches_hand_computation():
    logits, mask = hand_case()
    dist = MaskedMultiCategorical(logits, mask, (3, 2))
    lp0 = 3.0 - math.log(math.exp(1.0) + math.exp(3.0))       # option 2 of head 0, option 1 ignored
    lp1 = -0.5 - math.log(math.exp(0.5) + math.exp(-0.5))      # option 1 of head 1
    per_head = dist.log_prob_per_head(torch.tensor([2, 1]))
    torch.testing.assert_close(per_head, torch.tensor([lp0, lp1]))
    torch.testing.assert_close(dist.log_prob(torch.tensor([2, 1])), torch.tensor(lp0 + lp1))


def test_entropy_matches_hand_computation_and_ignores_masked_options():
    logits, mask = hand_case()
    dist = MaskedMultiCategorical(logits, mask, (3, 2))

    def h(*xs):
        z = sum(math.exp(x) for x in xs)
        return -sum(math.exp(x) / z * (x - math.log(z)) for x in xs)

    torch.testing.assert_close(dist.entropy_per_head(), torch.tensor([h(1.0, 3.0), h(0.5, -0.5)]))
    torch.testing.assert_close(dist.entropy(), torch.tensor(h(1.0, 3.0) + h(0.5, -0.5)))
    # whatever an illegal option's logit is (huge, -inf, NaN-free extremes), nothing changes
    for value in (1e30, -1e30, float("-inf"), 0.0):
        other = MaskedMultiCategorical(logits.clone().index_fill_(0, torch.tensor([1]), value), mask, (3, 2))
        assert torch.equal(other.entropy_per_head(), dist.entropy_per_head())
        assert torch.equal(other.log_prob(torch.tensor([2, 1])), dist.log_prob(torch.tensor([2, 1])))


def test_mode_is_the_best_legal_option():
    logits, mask = hand_case()
    assert MaskedMultiCategorical(logits, mask, (3, 2)).mode().tolist() == [2, 0]
    assert MaskedMultiCategorical(logits, None, (3, 2)).mode().tolist() == [1, 0]


def test_gradients_are_finite_and_skip_masked_logits():
    logits, mask = random_case(128, seed=4)
    logits = logits.masked_fill(~mask, float("-inf")).requires_grad_()   # even -inf in illegal slots
    dist = MaskedMultiCategorical(logits, mask, HEADS)
    actions = dist.sample(torch.Generator().manual_seed(5))
    (-dist.log_prob(actions).mean() - 0.01 * dist.entropy().mean()).backward()
    assert torch.isfinite(logits.grad).all()
    assert (logits.grad[~mask] == 0).all()
    assert logits.grad[mask].abs().sum() > 0


def test_head_with_nothing_legal_falls_back_to_option_zero():
    logits = torch.tensor([[4.0, 2.0, 3.0, 1.0, 0.0]])
    mask = torch.tensor([[False, False, False, True, True]])            # head 0 has no legal option
    dist = MaskedMultiCategorical(logits, mask, (3, 2))
    assert dist.legal[0, 0].tolist() == [True, False, False]
    assert dist.mode()[0, 0] == 0
    assert (dist.sample(torch.Generator().manual_seed(6))[:, 0] == 0).all()
    assert dist.log_prob_per_head(torch.tensor([[0, 1]]))[0, 0] == 0.0
    assert dist.entropy_per_head()[0, 0] == 0.0


def test_batch_shapes_and_padding_of_a_single_option_head():
    t, b = 4, 6
    logits, mask = random_case(t * b, seed=8)
    dist = MaskedMultiCategorical(logits.view(t, b, -1), mask.view(t, b, -1), HEADS)
    actions = dist.sample()
    assert actions.shape == (t, b, len(HEADS))
    assert (actions[..., 1] == 0).all()                                 # the size-1 head has one option
    assert dist.log_prob(actions).shape == (t, b) and dist.entropy().shape == (t, b)
    assert (dist.entropy_per_head()[..., 1] == 0).all()
    assert torch.isfinite(dist.log_prob(actions)).all()


def test_wrong_shapes_are_refused_with_the_sizes():
    logits, mask = random_case(2, seed=9)
    with pytest.raises(ValueError, match="11"):
        MaskedMultiCategorical(logits[:, :10], mask[:, :10], HEADS)
    with pytest.raises(ValueError, match="mask shape"):
        MaskedMultiCategorical(logits, mask[:1], HEADS)
    with pytest.raises(ValueError, match="one per head"):
        MaskedMultiCategorical(logits, mask, HEADS).log_prob(torch.zeros(2, 3, dtype=torch.int64))


def test_sample_is_the_inverse_cdf_of_the_log_probabilities_drawn_with_the_same_uniforms():
    """The sampler's arithmetic is pinned: one uniform per head and row from the generator, scaled by
    the head's total probability, against the cumulative sum of exp(log_probs) option by option
    (evaluation and play sample so; the rollout's compiled sampler draws the same uniforms, below)."""
    logits, mask = random_case(512, seed=5, heads=(25, 10, 4, 3))
    mask[:7, 25:35] = False                                       # a head with nothing legal: option 0
    dist = MaskedMultiCategorical(logits, mask, (25, 10, 4, 3))
    actions = dist.sample(torch.Generator().manual_seed(9))
    probs = dist.log_probs.exp()                                  # [512, 4, 25]; illegal slots exactly 0
    cdf = probs.double().cumsum(-1).float()
    u = torch.rand(4, 512, generator=torch.Generator().manual_seed(9)).t() * cdf[..., -1]
    assert torch.equal(actions, (cdf <= u.unsqueeze(-1)).sum(-1))
    assert (actions[:7, 1] == 0).all()


def test_entropy_matches_the_plain_formula_on_many_heads():
    logits, mask = random_case(300, seed=6, heads=(25, 10, 4, 3))
    dist = MaskedMultiCategorical(logits, mask, (25, 10, 4, 3))
    lp = dist.log_probs
    plain = -(lp.exp() * lp).masked_fill(~dist.legal, 0.0).sum(-1)
    torch.testing.assert_close(dist.entropy_per_head(), plain, rtol=1e-6, atol=1e-7)


# ---- sample_with_log_prob: the rollout's compiled CPU sampler -------------------------------------

def test_fast_sampler_log_prob_equals_the_distributions():
    logits, mask = random_case(512, seed=11, heads=(25, 10, 4, 3, 1))
    mask[:5, 25:35] = False                                       # a head with nothing legal: option 0
    actions, logprob = sample_with_log_prob(logits, mask, (25, 10, 4, 3, 1), torch.Generator().manual_seed(3))
    assert actions.dtype == torch.int64 and actions.shape == (512, 5) and logprob.dtype == torch.float32
    dist = MaskedMultiCategorical(logits, mask, (25, 10, 4, 3, 1))
    torch.testing.assert_close(logprob, dist.log_prob(actions), rtol=1e-5, atol=1e-5)
    assert (actions[:5, 1] == 0).all() and (actions[:, 4] == 0).all()
    offsets = torch.tensor([0, 25, 35, 39, 42])
    legal_rows = torch.arange(512) >= 5
    assert mask[legal_rows].gather(1, (actions + offsets)[legal_rows]).all(), "sampled a masked option"


def test_fast_sampler_frequencies_follow_the_legal_softmax():
    logits, mask = hand_case()
    logits = torch.where(mask, logits, 50.0)                      # the illegal option would win unmasked
    actions, _ = sample_with_log_prob(logits.expand(20000, 5), mask.expand(20000, 5), (3, 2),
                                      torch.Generator().manual_seed(4))
    freq0 = torch.bincount(actions[:, 0], minlength=3).float() / 20000
    freq1 = torch.bincount(actions[:, 1], minlength=2).float() / 20000
    assert freq0[1] == 0
    torch.testing.assert_close(freq0[[0, 2]], torch.softmax(torch.tensor([1.0, 3.0]), 0), atol=0.015, rtol=0)
    torch.testing.assert_close(freq1, torch.softmax(torch.tensor([0.5, -0.5]), 0), atol=0.015, rtol=0)


def test_fast_sampler_draws_what_the_distribution_draws_from_the_same_generator():
    """Same uniforms ([H, N] from the generator), same inverse CDF: the picks agree except where a
    uniform falls within float rounding of a boundary between two options."""
    logits, mask = random_case(4096, seed=12, heads=(25, 10, 4, 3))
    fast, _ = sample_with_log_prob(logits, mask, (25, 10, 4, 3), torch.Generator().manual_seed(5))
    slow = MaskedMultiCategorical(logits, mask, (25, 10, 4, 3)).sample(torch.Generator().manual_seed(5))
    assert (fast != slow).any(-1).float().mean() < 0.002
    a, _ = sample_with_log_prob(logits, mask, (25, 10, 4, 3), torch.Generator().manual_seed(5))
    assert torch.equal(a, fast)                                   # reproducible from the generator


def test_fast_sampler_refuses_mismatched_shapes():
    logits, mask = random_case(4, seed=13)
    with pytest.raises(ValueError, match="sum to 11"):
        sample_with_log_prob(logits[:, :10], mask[:, :10], HEADS)
    with pytest.raises(ValueError, match="mask shape"):
        sample_with_log_prob(logits, mask[:, :5], HEADS)


# ---- log_prob_and_entropy: the update's flat-layout path -----------------------------------------

@pytest.mark.parametrize("heads", [HEADS, (25, 10, 4, 3, 4, 2, 5, 2)])
def test_flat_log_prob_and_entropy_equal_the_distributions_with_their_gradients(heads):
    logits, mask = random_case(6 * 40, seed=14, heads=heads)
    mask[:3, heads[0]:heads[0] + heads[1]] = False                # head 1 with nothing legal: option 0
    logits = (logits * 4).view(6, 40, -1).requires_grad_()        # [T, B, A], as an update sees it
    mask = mask.view(6, 40, -1)
    dist = MaskedMultiCategorical(logits, mask, heads)
    actions = dist.sample(torch.Generator().manual_seed(15))
    want_lp, want_ent = dist.log_prob(actions), dist.entropy()
    (want_lp.sum() + 0.3 * want_ent.sum()).backward()
    want_grad, logits.grad = logits.grad.clone(), None
    lp, ent = log_prob_and_entropy(logits, mask, actions, heads)
    assert lp.shape == ent.shape == (6, 40)
    torch.testing.assert_close(lp, want_lp, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(ent, want_ent, rtol=1e-5, atol=1e-5)
    (lp.sum() + 0.3 * ent.sum()).backward()
    torch.testing.assert_close(logits.grad, want_grad, rtol=1e-4, atol=1e-5)
    assert (logits.grad[~mask] == 0).all()


def test_flat_path_takes_infinite_illegal_logits_and_flags_an_illegal_action():
    logits, mask = hand_case()
    logits = logits.masked_fill(~mask, float("-inf")).expand(2, 5).clone().requires_grad_()
    lp, ent = log_prob_and_entropy(logits, mask.expand(2, 5), torch.tensor([[2, 0], [1, 1]]), (3, 2))
    p0 = torch.log_softmax(torch.tensor([1.0, 3.0]), 0)
    p1 = torch.log_softmax(torch.tensor([0.5, -0.5]), 0)
    torch.testing.assert_close(lp[0], p0[1] + p1[0])
    assert lp[1] < -1e8                                           # option 1 of head 0 is masked
    (lp[0] + ent.sum()).backward()
    assert torch.isfinite(logits.grad).all() and (logits.grad[:, 1] == 0).all()
