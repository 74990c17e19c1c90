"""Reward components: the encounter's named terms add up to the reward of every tick, and replays carry them."""

import numpy as np
import pytest

from osrs_rl.replay import record_policy_episode
from osrs_rl.replay.annotate import derive_reward_components


def _random_play(seed):
    rng = np.random.default_rng(seed)

    def act(env, obs, info):
        mask = info["action_mask"].reshape(-1, env.spec.mask_size)
        rows = []
        for m in mask:
            rows.append([rng.choice(np.flatnonzero(m[sl])) for sl in env.spec.mask_slices().values()])
        return np.array(rows).reshape((1,) + (() if env.single_agent else (env.spec.num_agents,)) + (-1,))
    return act


@pytest.mark.parametrize("encounter, config, ends", [
    ("template", {"max_ticks": 300}, {1.0, -1.0}),
    ("pvp", {"max_ticks": 400, "opponent_tier": 2, "damage_reward": 0.3, "loss_reward": -2.0}, {1.0, -2.0, 0.0}),
    ("pvp_selfplay", {"max_ticks": 400, "damage_reward": 0.1}, {1.0, -1.0, 0.0}),
    ("zulrah", {"max_ticks": 300, "coef_damage_dealt": 0.5, "coef_damage_taken": 0.3, "coef_prayer": 0.05,
                "death_reward": -2.0}, {1.0, -2.0}),
])
def test_components_add_up_to_the_reward(encounter, config, ends):
    """Random masked play to the end of a fight: per tick, the terms sum to agent 0's reward; the
    outcome term is zero until the last tick, where it is the win, loss or draw reward of a fight
    that ended (zero after a truncation)."""
    for seed in range(3):
        replay = record_policy_episode(encounter, config, _random_play(seed), seed=seed)
        parts = replay.reward_components
        assert set(parts) >= {"outcome"} and all(len(v) == replay.ticks for v in parts.values())
        total = sum(parts.values())
        assert np.allclose(total, replay.rewards[:, 0], atol=1e-5), np.abs(total - replay.rewards[:, 0]).max()
        assert not parts["outcome"][:-1].any()
        assert float(parts["outcome"][-1]) in (ends if replay.terminated else {0.0})
        derived = derive_reward_components(replay)
        assert all(np.array_equal(derived[k], parts[k]) for k in parts)


def test_a_policy_given_component_is_kept():
    """When act_fn annotates its own reward components, the recorder does not replace them."""
    def act(env, obs, info):
        return np.zeros((1, env.spec.num_heads), dtype=np.int64), {"reward_components": {"mine": 1.0}}
    replay = record_policy_episode("template", {"max_ticks": 10}, act, seed=0)
    assert list(replay.reward_components) == ["mine"]
