"""VecEnv on the counting encounter, where every number can be checked by hand."""

import numpy as np
import pytest

import osrs_rl
from osrs_rl.runtime.config import ConfigError
from osrs_rl.runtime.snapshot import SnapshotError


def make(agents=1, n=2, **config):
    return osrs_rl.make(f"counting{agents}", num_envs=n, seed=3, **config)


def acts(env, *values):
    return np.array(values, dtype=np.int64).reshape(env.num_envs, -1)


def test_counting_by_hand():
    env = make(target=10)
    obs, info = env.reset()
    assert obs.shape == (2, 3) and obs.dtype == np.float32
    assert (obs[:, 0] == 0).all() and (obs[:, 1] == 0).all()
    assert info["action_mask"].tolist() == [[True, True, True]] * 2
    obs, rew, term, trunc, info = env.step(acts(env, 1, 2))
    assert rew.tolist() == [1.0, 2.0]
    assert obs[:, 0].tolist() == pytest.approx([0.1, 0.2])
    assert obs[:, 1].tolist() == pytest.approx([1 / 50, 1 / 50])
    # counter 1 is odd: +2 is masked for env 0 only
    assert env.action_mask().tolist() == [[True, True, False], [True, True, True]]
    assert not term.any() and not trunc.any()


def test_masked_action_becomes_noop_and_is_counted():
    env = make()
    env.reset()
    env.step(acts(env, 1, 1))                       # both counters odd now
    obs, rew, *_, info = env.step(acts(env, 2, 1))  # +2 is illegal for env 0
    assert rew.tolist() == [0.0, 1.0]
    assert info["invalid_actions"].tolist() == [1, 0]
    assert obs[0, 0] == pytest.approx(0.1)


def test_next_step_autoreset_and_separate_flags():
    env = make(target=2, max_ticks=3)
    env.reset()
    obs, rew, term, trunc, _ = env.step(acts(env, 2, 0))
    assert term.tolist() == [True, False] and not trunc.any()
    assert obs[0, 0] == pytest.approx(1.0)            # the final observation of the episode
    obs, rew, term, trunc, _ = env.step(acts(env, 2, 0))
    assert rew[0] == 0.0 and not term[0]              # env 0 was reset; its action ignored
    assert obs[0, 0] == 0.0 and obs[0, 1] == 0.0
    obs, rew, term, trunc, _ = env.step(acts(env, 0, 0))
    assert trunc.tolist() == [False, True] and not term[1]   # env 1 reached max_ticks = 3
    m = env.pop_metrics()
    assert m["ticks"].tolist() == [1.0, 3.0] and m["total"].tolist() == [2.0, 0.0]
    assert m["phase_name"].tolist() == ["second_half", "first_half"]
    assert len(env.pop_metrics()["ticks"]) == 0


def test_metadata_names_the_autoreset_mode():
    assert make().metadata["autoreset_mode"] == "next_step"


def test_two_agents_shapes():
    env = make(agents=2, n=3)
    obs, _ = env.reset()
    assert obs.shape == (3, 2, 3)
    obs, rew, *_ = env.step(np.ones((3, 2, 1), dtype=np.int64))
    assert rew.shape == (3, 2) and (rew == 1).all()


@pytest.mark.parametrize("bad,needle", [
    (np.zeros((2, 2), np.int64), "shape (2, 1)"),
    (np.zeros((3, 1), np.int64), "shape (2, 1)"),
    (np.zeros((2, 1), np.float32), "integers"),
    (np.array([[3], [0]]), "out of range 0..2"),
    (np.array([[0], [-1]]), "env 1"),
])
def test_bad_actions_are_refused_and_change_nothing(bad, needle):
    env = make()
    env.reset()
    before = env.states.copy()
    with pytest.raises(ValueError) as e:
        env.step(bad)
    assert needle in str(e.value)
    assert env.states.tobytes() == before.tobytes()


def test_step_before_reset():
    with pytest.raises(RuntimeError, match="reset"):
        make().step(np.zeros((2, 1), np.int64))


def test_unknown_encounter_lists_known_ones():
    with pytest.raises(KeyError) as e:
        osrs_rl.make("zulrahh")
    assert "template" in str(e.value) and "counting1" in str(e.value)


@pytest.mark.parametrize("config,needle", [
    (dict(targt=5), "did you mean 'target'"),
    (dict(target=0), "out of range [1, 1000]"),
    (dict(target=2.5), "must be an integer"),
    (dict(max_ticks=True), "must be an integer"),
])
def test_config_errors_name_the_key(config, needle):
    with pytest.raises(ConfigError) as e:
        make(**config)
    assert needle in str(e.value)
    if "did you mean" in needle:              # one line: the likely key and where the rest are described
        assert "\n" not in str(e.value) and "max_ticks" not in str(e.value) and "osrs-rl list" in str(e.value)


@pytest.mark.parametrize("kwargs", [dict(num_envs=0), dict(threads=0), dict(seed=-1), dict(num_envs=1.5)])
def test_bad_construction(kwargs):
    with pytest.raises(ValueError):
        osrs_rl.make("counting1", **kwargs)


def test_snapshot_restore_and_refusals():
    env = make()
    env.reset()
    env.step(acts(env, 1, 2))
    blob = env.snapshot(0)
    env.step(acts(env, 1, 2))
    env.restore(0, blob)
    assert env.action_mask()[0].tolist() == [True, True, False]   # mask refreshed for counter 1
    other = make(agents=2)
    other.reset()
    before = other.states.copy()
    with pytest.raises(SnapshotError, match="another encounter"):
        other.restore(0, blob)
    with pytest.raises(SnapshotError, match="bad magic"):
        other.restore(0, b"XXXX" + blob[4:])
    with pytest.raises(SnapshotError, match="expected 1 x"):
        env.restore(0, blob[:-1])
    with pytest.raises(SnapshotError, match="batch"):
        env.restore(0, env.snapshot_batch([0]))
    assert other.states.tobytes() == before.tobytes()
    with pytest.raises(IndexError):
        env.snapshot(5)


def test_snapshot_of_a_kept_record():
    """A raw state record kept earlier becomes the same blob ``snapshot`` gave (no autoreset pending)."""
    env = make(n=2)
    env.reset()
    env.step(acts(env, 1, 2))
    record = env.states[1:2].tobytes()
    assert env.snapshot_of_record(record) == env.snapshot(1)
    with pytest.raises(SnapshotError, match="bytes, got"):
        env.snapshot_of_record(record[:-1])


def test_batch_snapshot_and_start_states():
    env = make(n=4)
    env.reset()
    env.step(acts(env, 1, 2, 1, 2))
    blob = env.snapshot_batch([0, 1])
    env.restore_batch([2, 3], blob)
    assert env.states[2].tobytes() == env.states[0].tobytes()
    with pytest.raises(SnapshotError, match="holds 2 envs"):
        env.restore_batch([0, 1, 2], blob)
    records = env.get_states([1])
    env.set_states([0], records)
    assert env.get_states([0]).tobytes() == records.tobytes()
    with pytest.raises(IndexError, match="repeat"):
        env.set_states([0, 0], env.get_states([1, 2]))


def test_snapshot_from_another_version_is_refused():
    from dataclasses import replace

    from osrs_rl.runtime.vec_env import VecEnv
    from tests.runtime.counting import COUNTING1

    old = make()
    old.reset()
    newer = VecEnv(replace(COUNTING1, version=2), num_envs=1)
    newer.reset()
    before = newer.states.tobytes()
    with pytest.raises(SnapshotError, match="version 1; this build is version 2"):
        newer.restore(0, old.snapshot(0))
    assert newer.states.tobytes() == before


def test_derived_config_fields_are_filled_by_the_hook_and_not_settable():
    from dataclasses import replace

    from osrs_rl.runtime.spec import ConfigField
    from osrs_rl.runtime.vec_env import VecEnv
    from tests.runtime.counting import COUNTING1

    def hook(cfg):
        cfg["table"][:] = np.arange(4) * cfg["target"]

    spec = replace(COUNTING1, name="counting_table",
                   config_fields=COUNTING1.config_fields + (ConfigField("table", np.int64, shape=(4,), derived=True),),
                   config_hook=hook)
    env = VecEnv(spec, num_envs=1, target=5)
    assert env.config[0]["table"].tolist() == [0, 5, 10, 15]
    env.reset()
    _, reward, *_ = env.step(np.array([[2]]))     # kernels take a config record holding an array
    assert reward[0] == 2.0
    with pytest.raises(ConfigError, match="computed from the other settings"):
        VecEnv(spec, num_envs=1, table=3)
    with pytest.raises(ValueError, match="only derived fields"):
        ConfigField("bad", np.int64, 0, shape=(2,))
    with pytest.raises(ValueError, match="no config_hook"):
        replace(spec, config_hook=None)
