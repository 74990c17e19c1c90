"""GAE with V-trace clipping against hand-computed numbers and a pure-Python reference; segment sampling."""

import numpy as np
import pytest
import torch

from osrs_rl.train.advantage import anneal_beta, compute_advantages, sample_segments, segment_priorities


def reference_advantages(reward, value, terminated, truncated, valid, bootstrap_value, gamma, lam, ratio=None,
                         rho_clip=1.0, c_clip=1.0):
    """The recursion of the module docstring, one env and one step at a time, in float64."""
    T, B = len(reward), len(reward[0])
    adv = [[0.0] * B for _ in range(T)]
    for b in range(B):
        next_adv = 0.0
        for t in reversed(range(T)):
            r = 1.0 if ratio is None else float(ratio[t][b])
            next_value = float(bootstrap_value[b]) if t == T - 1 else float(value[t + 1][b])
            delta = min(rho_clip, r) * (reward[t][b] + gamma * next_value * (not terminated[t][b]) - value[t][b])
            done = terminated[t][b] or truncated[t][b]
            a = delta + gamma * lam * min(c_clip, r) * (not done) * next_adv
            adv[t][b] = a if valid[t][b] else 0.0
            next_adv = adv[t][b]
    ret = [[adv[t][b] + value[t][b] for b in range(B)] for t in range(T)]
    return np.array(adv), np.array(ret)


def plain_gae(reward, value, terminated, truncated, bootstrap_value, gamma, lam):
    """Textbook GAE (arXiv:1506.02438 eq. 16) with separate terminal and truncation flags, vectorised
    over envs: what compute_advantages must equal exactly when on-policy."""
    T = reward.shape[0]
    adv = np.zeros_like(reward)
    last = np.zeros_like(bootstrap_value)
    for t in reversed(range(T)):
        next_value = bootstrap_value if t == T - 1 else value[t + 1]
        delta = reward[t] + gamma * next_value * (1.0 - terminated[t]) - value[t]
        last = delta + gamma * lam * (1.0 - (terminated[t] | truncated[t])) * last
        adv[t] = last
    return adv


def rollout(T=6, B=3, seed=0, done_rate=0.2):
    """A random rollout obeying the storage contract: after every done step comes an invalid reset step."""
    rng = np.random.default_rng(seed)
    reward = rng.normal(size=(T, B)).astype(np.float32)
    value = rng.normal(size=(T, B)).astype(np.float32)
    terminated = rng.random((T, B)) < done_rate
    truncated = (rng.random((T, B)) < done_rate) & ~terminated
    valid = np.ones((T, B), bool)
    for t in range(1, T):
        valid[t] = ~(terminated[t - 1] | truncated[t - 1])
        terminated[t] &= valid[t]
        truncated[t] &= valid[t]
    reward[~valid] = 0.0
    boot = rng.normal(size=B).astype(np.float32)
    return reward, value, terminated, truncated, valid, boot


def flags(T, B=1):
    return np.zeros((T, B), bool)


def test_hand_computed_episode_with_termination_and_reset():
    # One env, gamma 0.5, lam 0.5 (gamma * lam = 0.25). t=0,1 are an episode that terminates at t=1;
    # t=2 is the reset step (invalid); t=3 starts the next episode, cut by the rollout end.
    reward = np.array([[1.0], [2.0], [0.0], [4.0]], np.float32)
    value = np.array([[1.0], [2.0], [3.0], [2.0]], np.float32)
    term = flags(4)
    term[1] = True
    valid = ~flags(4)
    valid[2] = False
    boot = np.array([4.0], np.float32)
    adv, ret = compute_advantages(reward, value, term, flags(4), valid, boot, gamma=0.5, lam=0.5)
    # t=3: delta = 4 + 0.5 * 4 - 2 = 4                                  A = 4
    # t=2: reset step                                                    A = 0
    # t=1: terminal, no bootstrap: delta = 2 - 2 = 0, no carry         A = 0
    # t=0: delta = 1 + 0.5 * 2 - 1 = 1; carry 0.25 * A_1 = 0            A = 1
    assert adv[:, 0].tolist() == [1.0, 0.0, 0.0, 4.0]
    assert ret[:, 0].tolist() == [2.0, 2.0, 3.0, 6.0]


def test_hand_computed_carry_and_clipping():
    # Two steps, gamma 0.5, lam 0.5, ratios (2, 0.5), both clips 1: rho = c = (1, 0.5).
    reward = np.array([[1.0], [1.0]], np.float32)
    value = np.array([[0.0], [1.0]], np.float32)
    boot = np.array([2.0], np.float32)
    ratio = np.array([[2.0], [0.5]], np.float32)
    adv, _ = compute_advantages(reward, value, flags(2), flags(2), ~flags(2), boot, 0.5, 0.5, ratio=ratio)
    # t=1: delta = 0.5 * (1 + 0.5 * 2 - 1) = 0.5                         A = 0.5
    # t=0: delta = 1 * (1 + 0.5 * 1 - 0) = 1.5; carry 0.25 * c_0 * 0.5 (c_0 = min(1, 2) = 1)  A = 1.625
    assert adv[:, 0].tolist() == [1.625, 0.5]


def test_truncation_bootstraps_termination_does_not():
    # One step that ends the episode; the next stored value is V(final obs) = 10 (next-step autoreset).
    reward = np.array([[1.0], [0.0]], np.float32)
    value = np.array([[2.0], [10.0]], np.float32)
    valid = np.array([[True], [False]])
    boot = np.array([5.0], np.float32)
    done = np.array([[True], [False]])
    adv_trunc, _ = compute_advantages(reward, value, flags(2), done, valid, boot, gamma=0.9, lam=0.95)
    adv_term, _ = compute_advantages(reward, value, done, flags(2), valid, boot, gamma=0.9, lam=0.95)
    assert adv_trunc[0, 0] == pytest.approx(1.0 + 0.9 * 10.0 - 2.0)
    assert adv_term[0, 0] == pytest.approx(1.0 - 2.0)
    assert adv_trunc[1, 0] == adv_term[1, 0] == 0.0


@pytest.mark.parametrize("vtrace", [False, True])
def test_without_truncation_bootstrap_a_cut_step_is_terminal(vtrace):
    # One env, gamma 0.5, lam 0.5: t=0, 1 an episode cut by the tick limit at t=1; t=2 its reset step,
    # whose value 10 is V(final obs). V-trace: ratios 0.5 at t=0, 1 (clips 1), so rho = c = 0.5 there.
    reward = np.array([[0.5], [1.0], [0.0]], np.float32)
    value = np.array([[1.0], [2.0], [10.0]], np.float32)
    trunc = flags(3)
    trunc[1] = True
    valid = ~flags(3)
    valid[2] = False
    boot = np.array([4.0], np.float32)
    ratio = np.array([[0.5], [0.5], [1.0]], np.float32) if vtrace else None

    def advantages(bootstrap_truncation):
        return compute_advantages(reward, value, flags(3), trunc, valid, boot, 0.5, 0.5, ratio=ratio,
                                  bootstrap_truncation=bootstrap_truncation)[0][:, 0].tolist()
    if vtrace:
        # t=1: 0.5 * (1 + 0.5 * 10 - 2) = 2, or cut: 0.5 * (1 - 2) = -0.5
        # t=0: 0.5 * (0.5 + 0.5 * 2 - 1) = 0.25, carry 0.25 * c_0 (0.5) * A_1
        assert advantages(True) == [0.25 + 0.125 * 2, 2.0, 0.0]
        assert advantages(False) == [0.25 + 0.125 * -0.5, -0.5, 0.0]
    else:
        # t=1: r + gamma V(next) - V = 1 + 0.5 * 10 - 2 = 4, or cut: r - V = 1 - 2 = -1
        # t=0: 0.5 + 0.5 * 2 - 1 = 0.5, carry 0.25 * A_1
        assert advantages(True) == [0.5 + 0.25 * 4, 4.0, 0.0]
        assert advantages(False) == [0.5 + 0.25 * -1, -1.0, 0.0]


@pytest.mark.parametrize("seed", range(3))
def test_without_truncation_bootstrap_a_truncation_reads_as_a_termination(seed):
    reward, value, term, trunc, valid, boot = rollout(T=20, B=7, seed=seed, done_rate=0.3)
    assert trunc.any() and term.any()
    ratio = np.exp(np.random.default_rng(seed + 200).normal(scale=0.7, size=reward.shape)).astype(np.float32)
    for r in (None, ratio):
        adv, ret = compute_advantages(reward, value, term, trunc, valid, boot, 0.9, 0.8, ratio=r,
                                      bootstrap_truncation=False)
        ref_adv, ref_ret = reference_advantages(reward, value, term | trunc, trunc, valid, boot, 0.9, 0.8, ratio=r)
        np.testing.assert_allclose(adv, ref_adv, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(ret, ref_ret, rtol=1e-4, atol=1e-5)
        bootstrapped, _ = compute_advantages(reward, value, term, trunc, valid, boot, 0.9, 0.8, ratio=r)
        assert not np.allclose(adv, bootstrapped)        # the truncations did bootstrap by default


def test_done_stops_the_carry():
    # A huge advantage after a truncation must not leak into the step before it.
    reward = np.array([[0.0], [0.0], [100.0]], np.float32)
    value = np.zeros((3, 1), np.float32)
    trunc = flags(3)
    trunc[0] = True
    adv, _ = compute_advantages(reward, value, flags(3), trunc, ~flags(3), np.zeros(1), gamma=1.0, lam=1.0)
    assert adv[0, 0] == 0.0 and adv[1, 0] == 100.0


def test_invalid_steps_have_zero_advantage_and_return_equal_value():
    reward, value, term, trunc, valid, boot = rollout(T=32, B=16, seed=1, done_rate=0.3)
    assert (~valid).sum() > 10
    adv, ret = compute_advantages(reward, value, term, trunc, valid, boot, 0.99, 0.95)
    assert (adv[~valid] == 0).all()
    assert (ret[~valid] == value[~valid]).all()


@pytest.mark.parametrize("seed", range(5))
def test_on_policy_equals_plain_gae_exactly(seed):
    reward, value, term, trunc, valid, boot = rollout(T=64, B=32, seed=seed)
    expected = plain_gae(reward, value, term, trunc, boot, np.float32(0.99), np.float32(0.95))
    expected[~valid] = 0.0
    for ratio in (None, np.ones_like(reward)):
        adv, ret = compute_advantages(reward, value, term, trunc, valid, boot, 0.99, 0.95, ratio=ratio)
        np.testing.assert_allclose(adv, expected, rtol=1e-5, atol=1e-5)
    adv_none, _ = compute_advantages(reward, value, term, trunc, valid, boot, 0.99, 0.95)
    adv_ones, _ = compute_advantages(reward, value, term, trunc, valid, boot, 0.99, 0.95, ratio=np.ones_like(reward))
    assert np.array_equal(adv_none, adv_ones)


@pytest.mark.parametrize("seed", range(5))
def test_matches_python_reference_with_ratios(seed):
    reward, value, term, trunc, valid, boot = rollout(T=20, B=7, seed=seed)
    ratio = np.exp(np.random.default_rng(seed + 100).normal(scale=0.7, size=reward.shape)).astype(np.float32)
    for rho_clip, c_clip in ((1.0, 1.0), (2.0, 0.5), (np.inf, np.inf)):
        adv, ret = compute_advantages(reward, value, term, trunc, valid, boot, 0.9, 0.8, ratio, rho_clip, c_clip)
        ref_adv, ref_ret = reference_advantages(reward, value, term, trunc, valid, boot, 0.9, 0.8, ratio,
                                                rho_clip, c_clip)
        np.testing.assert_allclose(adv, ref_adv, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(ret, ref_ret, rtol=1e-4, atol=1e-5)


def test_clipping_actually_clips():
    reward, value, term, trunc, valid, boot = rollout(T=16, B=8, seed=3, done_rate=0.0)
    big = np.full_like(reward, 5.0)
    clipped, _ = compute_advantages(reward, value, term, trunc, valid, boot, 0.9, 0.9, ratio=big)
    on_policy, _ = compute_advantages(reward, value, term, trunc, valid, boot, 0.9, 0.9)
    unclipped, _ = compute_advantages(reward, value, term, trunc, valid, boot, 0.9, 0.9, big, np.inf, np.inf)
    np.testing.assert_array_equal(clipped, on_policy)          # rho = c = min(1, 5) = 1
    assert not np.allclose(unclipped, on_policy)
    small = np.full_like(reward, 0.25)
    scaled, _ = compute_advantages(reward, value, term, trunc, valid, boot, 0.9, 0.0, ratio=small)
    one_step, _ = compute_advantages(reward, value, term, trunc, valid, boot, 0.9, 0.0)
    np.testing.assert_allclose(scaled, 0.25 * one_step, rtol=1e-6)   # lam 0: A = rho * delta


def test_torch_in_torch_out():
    arrays = rollout(T=8, B=4, seed=2)
    adv_np, ret_np = compute_advantages(*arrays, gamma=0.99, lam=0.95)
    adv_t, ret_t = compute_advantages(*(torch.from_numpy(a) for a in arrays), gamma=0.99, lam=0.95)
    assert isinstance(adv_t, torch.Tensor) and adv_t.dtype == torch.float32
    assert np.array_equal(adv_t.numpy(), adv_np) and np.array_equal(ret_t.numpy(), ret_np)


def test_wrong_shape_names_the_buffer():
    reward, value, term, trunc, valid, boot = rollout(T=4, B=3)
    with pytest.raises(ValueError, match=r"truncated must have shape \(4, 3\)"):
        compute_advantages(reward, value, term, trunc[:, :2], valid, boot, 0.9, 0.9)
    with pytest.raises(ValueError, match=r"bootstrap_value must have shape \(3,\)"):
        compute_advantages(reward, value, term, trunc, valid, boot[:2], 0.9, 0.9)


# ---- prioritized segments --------------------------------------------------------------------------------------------


def test_alpha_zero_is_uniform_with_unit_weights():
    adv = np.random.default_rng(0).normal(size=(16, 8)).astype(np.float32)
    assert np.array_equal(segment_priorities(adv, alpha=0.0), np.full(8, 1 / 8))
    idx, w = sample_segments(adv, 4000, alpha=0.0, beta=0.7, generator=np.random.default_rng(1))
    assert (w == 1.0).all()
    counts = np.bincount(idx, minlength=8)
    assert counts.min() > 400 and counts.max() < 600   # expected 500 each


def test_weights_are_normalised_importance_weights():
    # mean |A| per column = (1, 1, 2): p = (1/4, 1/4, 1/2), B p = (3/4, 3/4, 3/2)
    adv = np.array([[1.0, -1.0, 2.0], [-1.0, 1.0, -2.0]], np.float32)
    np.testing.assert_allclose(segment_priorities(adv, alpha=1.0), [0.25, 0.25, 0.5], rtol=1e-5)
    idx, w = sample_segments(adv, 64, alpha=1.0, beta=0.5, generator=np.random.default_rng(0))
    assert set(idx.tolist()) == {0, 1, 2}
    expected = (3 * np.array([0.25, 0.25, 0.5])[idx]) ** -0.5
    np.testing.assert_allclose(w, expected / expected.max(), rtol=1e-5)
    assert w.max() == 1.0 and w[idx == 2] == pytest.approx((0.75 / 1.5) ** 0.5)


def test_higher_advantage_segments_are_drawn_more():
    adv = np.ones((10, 4), np.float32) * np.array([0.1, 0.5, 1.0, 4.0], np.float32)
    idx, _ = sample_segments(adv, 20000, alpha=1.0, beta=0.4, generator=np.random.default_rng(0))
    counts = np.bincount(idx, minlength=4)
    assert counts[0] < counts[1] < counts[2] < counts[3]
    np.testing.assert_allclose(counts / 20000, [0.1 / 5.6, 0.5 / 5.6, 1 / 5.6, 4 / 5.6], atol=0.01)


def test_valid_mask_excludes_reset_steps_from_priority():
    adv = np.array([[1.0, 1.0], [0.0, 1.0]], np.float32)
    valid = np.array([[True, True], [False, True]])
    np.testing.assert_allclose(segment_priorities(adv, 1.0, valid), [0.5, 0.5], rtol=1e-5)


def test_sampling_torch_in_torch_out_and_seeded():
    adv = torch.randn(8, 6, generator=torch.Generator().manual_seed(0))
    a = sample_segments(adv, 5, 0.6, 0.4, np.random.default_rng(3))
    b = sample_segments(adv, 5, 0.6, 0.4, np.random.default_rng(3))
    assert isinstance(a[0], torch.Tensor) and a[0].dtype == torch.int64
    assert torch.equal(a[0], b[0]) and torch.equal(a[1], b[1])
    with pytest.raises(TypeError, match="numpy.random.Generator"):
        sample_segments(adv, 5, 0.6, 0.4, torch.Generator())


def test_anneal_beta():
    assert anneal_beta(0.4, 0.0) == 0.4
    assert anneal_beta(0.4, 0.25) == pytest.approx(0.55)
    assert anneal_beta(0.4, 1.0) == 1.0 and anneal_beta(0.4, 3.0) == 1.0 and anneal_beta(0.4, -1.0) == 0.4
