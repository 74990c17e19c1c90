"""The template encounter's own rules (tick timing, deaths) and the review's edge cases."""

import numpy as np
import pytest

import osrs_rl
from osrs_rl.runtime.config import ConfigError


def test_player_attacks_every_attack_speed_ticks():
    env = osrs_rl.make("template", num_envs=1, seed=1, npc_attack_roll=0, npc_max_hp=5000, max_ticks=100)
    env.reset()
    attack_ticks = []
    for t in range(40):
        act = np.array([[1 if env.action_mask()[0, 1] else 0, 0, 0]])
        if act[0, 0]:
            attack_ticks.append(t)
        env.step(act)
    assert np.diff(attack_ticks).tolist() == [4] * (len(attack_ticks) - 1)
    assert attack_ticks[0] == 0


def test_a_dead_player_cannot_win():
    env = osrs_rl.make("template", num_envs=50, seed=2, npc_attack_roll=10**6, player_defence_roll=0,
                       npc_max_hit=50, player_attack_roll=10**6, npc_defence_roll=0)
    env.reset()
    s = env.get_states()
    s["player_hp"], s["npc_hp"], s["npc_attack_timer"], s["player_attack_timer"] = 1, 1, 0, 0
    env.set_states(range(50), s)
    _, reward, term, _, _ = env.step(np.tile([1, 0, 0], (50, 1)))
    m = env.pop_metrics()
    # the NPC acts first; a hit of 0 leaves the player alive to win, any other hit kills it
    assert term.all()
    assert ((m["won"] == 1) == (m["damage_taken"] == 0)).all()
    assert (reward[m["won"] == 0] < 0).all()


def test_returned_mask_is_a_copy():
    env = osrs_rl.make("counting1", num_envs=1)
    _, info = env.reset()
    info["action_mask"][:] = False
    *_, info = env.step(np.array([[1]]))
    assert info["invalid_actions"][0] == 0


def test_step_needs_every_env_started():
    env = osrs_rl.make("counting1", num_envs=2)
    other = osrs_rl.make("counting1", num_envs=1)
    other.reset()
    env.restore(0, other.snapshot(0))
    with pytest.raises(RuntimeError, match="1 env"):
        env.step(np.zeros((2, 1), np.int64))


def test_replay_needs_the_recorded_config():
    from osrs_rl.runtime.recording import EpisodeRecorder, replay_episode

    env = osrs_rl.make("template", num_envs=1, seed=3, max_ticks=20)
    rec = EpisodeRecorder()
    env.add_recorder(rec)
    env.reset()
    while not rec.episodes:
        env.step(np.zeros((1, 3), np.int64))
    with pytest.raises(ValueError, match="max_ticks"):
        list(replay_episode(osrs_rl.make("template", num_envs=1, max_ticks=500), rec.episodes[0]))


@pytest.mark.parametrize("kwargs", [dict(win_reward=float("nan")), dict(win_reward=True), dict(num_envs=True),
                                    dict(seed=2**70), dict(seed=True)])
def test_more_bad_construction(kwargs):
    with pytest.raises((ValueError, ConfigError)):
        osrs_rl.make("template", **kwargs)


def test_pettingzoo_after_the_episode_and_bad_keys():
    from osrs_rl.runtime.adapters.pettingzoo import PettingZooEnv

    env = PettingZooEnv("counting2", target=1)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="unknown"):
        env.step({"player_0": [1], "player_1": [1], "ghost": [0]})
    env.step({"player_0": [1], "player_1": [1]})
    assert env.agents == []
    with pytest.raises(RuntimeError, match="reset"):
        env.step({})


def test_gymnasium_vector_refuses_seed_lists_and_float_actions():
    from osrs_rl.runtime.adapters.gymnasium import GymVectorEnv

    env = GymVectorEnv("template", num_envs=2)
    with pytest.raises(ValueError, match="one base seed"):
        env.reset(seed=[1, 2])
    env.reset(seed=1)
    with pytest.raises(ValueError, match="integers"):
        env.step(np.zeros((2, 3), np.float32))
