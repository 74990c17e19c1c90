"""How a run shares the machine's cores (``train.resources.thread_plan``): on 2 cores exactly the threads every
2-core figure was measured with; on many cores the envs and torch take them without being told."""

import os

import numba
import pytest

from osrs_rl.agent.config import load_config
from osrs_rl.train import ppo
from osrs_rl.train.resources import Threads, auto_env_threads, machine_cores, thread_plan


@pytest.mark.parametrize("overlap, rollout", [(True, 1), (False, 2)])
def test_two_cores_resolve_to_the_threads_the_2_core_figures_were_measured_with(overlap, rollout):
    # before env.env_threads had an auto value: 1 env thread, torch on the cores the env worker leaves, all in updates
    assert thread_plan(0, 0, overlap, "cpu", 2) == Threads(env=1, rollout=rollout, learn=2)
    assert thread_plan(1, 0, overlap, "cpu", 2) == thread_plan(0, 0, overlap, "cpu", 2)


def test_sixteen_cores_are_used_without_being_told():
    assert thread_plan(0, 0, True, "cpu", 16) == Threads(env=8, rollout=8, learn=16)     # envs beside torch: half
    assert thread_plan(0, 0, False, "cpu", 16) == Threads(env=15, rollout=16, learn=16)  # in turns: all but one
    # the network on the GPU: the envs take every core but the one that feeds it
    assert thread_plan(0, 0, True, "cuda", 16) == Threads(env=15, rollout=1, learn=16)


def test_settings_win_over_auto():
    assert thread_plan(3, 0, True, "cpu", 16) == Threads(env=3, rollout=13, learn=16)
    assert thread_plan(0, 2, True, "cpu", 16) == Threads(env=8, rollout=2, learn=2)


def test_torchrun_ranks_share_the_cores():
    assert thread_plan(0, 0, True, "cpu", 16, ranks_here=4) == Threads(env=1, rollout=1, learn=1)
    assert thread_plan(0, 0, True, "cuda", 16, ranks_here=4) == Threads(env=3, rollout=1, learn=4)
    assert thread_plan(0, 0, False, "cpu", 16, ranks_here=1) == Threads(env=1, rollout=1, learn=1)


@pytest.mark.parametrize("cores", [1, 2, 3, 16, 64])
def test_auto_env_threads_never_take_none_or_more_than_the_machine(cores):
    for device in ("cpu", "cuda"):
        for overlap in (True, False):
            assert 1 <= auto_env_threads(cores, device, overlap) <= cores


def test_machine_cores_are_the_affinity_where_the_os_gives_one(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 3, 5}, raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    assert machine_cores() == 3                       # a container's share of a 64-core host
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    assert machine_cores() == 64


def test_the_trainer_steps_its_envs_with_the_resolved_threads(tmp_path, monkeypatch):
    monkeypatch.setattr(ppo, "machine_cores", lambda: 4)
    cfg = load_config("template", None, ["--run.out_dir", str(tmp_path), "--run.name", "t", "--run.device", "cpu",
                                         "--log.console", "false", "--log.replays", "false", "--env.num_envs", "8",
                                         "--env.overlap", "true"])
    assert cfg.env.env_threads == 0                 # the default: auto
    t = ppo.Trainer(cfg, console=False)
    t.close()
    assert (t.env_threads, t.rollout_threads, t.learn_threads) == (2, 2, 4)
    assert [env.threads for env in t.envs] == [min(2, numba.config.NUMBA_NUM_THREADS)] * 2


def test_a_negative_env_threads_is_refused():
    with pytest.raises(ValueError, match="env.env_threads must be >= 0"):
        load_config("template", None, ["--env.env_threads", "-1"])
