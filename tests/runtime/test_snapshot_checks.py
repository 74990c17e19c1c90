"""Snapshots are checksummed and restored states validated before any write (issue 15 item 5), and
VecEnv says what it does instead of doing it silently (issue 15 item 8)."""

import struct
import warnings
from dataclasses import replace

import numba
import numpy as np
import pytest

import osrs_rl
from osrs_rl.runtime import snapshot as snap
from osrs_rl.runtime import vec_env as V
from osrs_rl.runtime.bounds import Bound, InvalidStateError
from osrs_rl.runtime.registry import get_spec
from osrs_rl.runtime.snapshot import SnapshotError
from osrs_rl.runtime.vec_env import VecEnv
from tests.runtime.counting import COUNTING1, COUNTING2

# counters may not pass the target (a made-up rule, to test bounds that depend on the config)
BOUNDED = replace(COUNTING2, name="counting_bounded",
                  state_bounds=(Bound("counter", 0, lambda recs, cfg: cfg["target"]),))


def stepped(spec=COUNTING1, n=2, ticks=1, **config):
    env = VecEnv(spec, num_envs=n, seed=3, **config)
    env.reset()
    for _ in range(ticks):
        env.step(np.ones(env._action_shape, dtype=np.int64))
    return env


# ---- format 2: a checksum of the body ---------------------------------------------------------------
def test_one_changed_byte_of_the_body_is_refused():
    env = stepped()
    blob = bytearray(env.snapshot(0))
    blob[-3] ^= 0x10                                      # a byte of the record
    before = env.states.tobytes()
    with pytest.raises(SnapshotError, match=r"snapshot body is corrupted \(checksum mismatch\)"):
        env.restore(0, bytes(blob))
    flag = bytearray(env.snapshot_batch([0, 1]))
    flag[snap._HEAD + snap._COUNT.size] ^= 1              # env 0's autoreset flag
    with pytest.raises(SnapshotError, match="checksum mismatch"):
        env.restore_batch([0, 1], bytes(flag))
    assert env.states.tobytes() == before


def test_format_1_blobs_are_refused_by_name():
    env = stepped()
    record = env.states[:1].tobytes()
    old = struct.pack("<4sHH16sI", b"ORLS", 1, COUNTING1.version,
                      snap.layout_digest(COUNTING1.name, COUNTING1.state_dtype), len(record)) + b"\x00" + record
    with pytest.raises(SnapshotError, match="format 1 is not supported .*no checksum"):
        env.restore(0, old)


def test_a_kept_record_snapshots_with_its_checksum():
    env = stepped()
    blob = env.snapshot_of_record(env.states[1:2].tobytes())
    assert blob == env.snapshot(1)
    env.restore(0, blob)
    assert env.states[0].tobytes() == env.states[1].tobytes()


# ---- declared bounds ----------------------------------------------------------------------------------
def test_bounds_refuse_before_any_write_and_name_the_field():
    env = stepped(BOUNDED, n=3, target=10)
    records = env.get_states([0, 1])
    records["counter"][1, 1] = -44
    before = env.states.tobytes()
    with pytest.raises(InvalidStateError, match=r"state field counter\[1\] = -44 is outside 0..10 \(record 1, env 2\)"):
        env.set_states([0, 2], records)
    blob = env.snapshot_batch([0, 1])
    body = bytearray(env.states[[0, 1]].tobytes())
    view = np.frombuffer(body, dtype=BOUNDED.state_dtype)
    view["counter"][0, 0] = 11                             # one past the target
    crafted = snap.pack(BOUNDED.name, BOUNDED.version, BOUNDED.state_dtype, blob[-len(body) - 2:-len(body)],
                        bytes(body), batch=True)
    with pytest.raises(InvalidStateError, match=r"counter\[0\] = 11 is outside 0..10 \(record 0, env 1\)"):
        env.restore_batch([1, 2], crafted)
    assert env.states.tobytes() == before
    rows = env.states[[0, 1]].tobytes()
    env.restore_batch([1, 2], blob)                       # in range: accepted
    assert env.states[[1, 2]].tobytes() == rows


def test_bounds_are_checked_when_the_spec_is_built():
    with pytest.raises(KeyError, match="no field 'counters'"):
        replace(COUNTING2, state_bounds=(Bound("counters", 0, 1),))
    with pytest.raises(ValueError, match="declared twice"):
        replace(COUNTING2, state_bounds=(Bound("tick", 0, 1), Bound("tick", 0, 2)))


@pytest.mark.parametrize("name,path,value,needle", [
    ("pvp", ("players", "kit", 1), -44, r"players\[1\]\.kit = -44 is outside 0\.\.\d"),
    ("pvp", ("players", "build", 0), 9, r"players\[0\]\.build = 9 is outside"),
    ("zulrah", ("hits", "target", 3), 12, r"hits\[3\]\.target = 12 is outside 0\.\.9"),
    ("zulrah", (None, "rotation", None), 8, r"rotation = 8 is outside 0\.\.7"),
    ("zulrah", ("hits", "attacker", 0), 7, r"hits\[0\]\.attacker = 7 is outside 0\.\.6"),   # on the player
])
def test_encounters_refuse_the_issue_states(name, path, value, needle):
    """The issue's crafted states: a PvP kit of -44 (a segfault), a Zulrah hit target past the
    snakeling slots (a write into the next env's record), a rotation past the tables."""
    env = osrs_rl.make(name, num_envs=2, seed=1)
    env.reset()
    records = env.get_states([0])
    group, fld, k = path
    if group is None:
        records[fld][0] = value
    else:
        records[group][fld][0, k] = value
    before = env.states.tobytes()
    with pytest.raises(InvalidStateError, match=needle):
        env.set_states([1], records)
    with pytest.raises(InvalidStateError, match=needle):
        env.restore(1, env.snapshot_of_record(records.tobytes()))
    assert env.states.tobytes() == before


# ---- VecEnv's silent behaviours ----------------------------------------------------------------------
@pytest.mark.parametrize("call", ["restore_batch", "set_states", "get_states", "snapshot_batch"])
def test_non_integer_env_indices_are_refused(call):
    env = stepped(n=2)
    blob, records = env.snapshot_batch([0, 1]), env.get_states([0, 1])
    before = env.states.tobytes()
    args = {"restore_batch": (blob,), "set_states": (records,), "get_states": (), "snapshot_batch": ()}[call]
    with pytest.raises(IndexError, match="must be integers, got dtype float64"):
        getattr(env, call)([0.2, 1.7], *args)
    with pytest.raises(IndexError, match="must be integers"):
        getattr(env, call)(np.array([True, False]), *args)
    assert env.states.tobytes() == before
    getattr(env, call)(np.array([1, 0], dtype=np.uint8), *args)     # unsigned integers are fine


def test_more_threads_than_numba_has_warns_and_says_what_it_uses():
    most = numba.config.NUMBA_NUM_THREADS
    with pytest.warns(RuntimeWarning, match=f"threads={most + 62} .* uses {most}"):
        env = VecEnv(COUNTING1, num_envs=1, threads=most + 62)
    assert env.threads == most
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        VecEnv(COUNTING1, num_envs=1, threads=most)


def test_dropped_episode_metrics_are_counted_and_warned(monkeypatch):
    monkeypatch.setattr(V, "MAX_LOGGED_EPISODES", 4)
    env = VecEnv(COUNTING1, num_envs=2, seed=0, target=1)
    env.reset()
    for _ in range(10):                      # every other step ends both episodes: 5 x 2 finished
        env.step(np.ones((2, 1), dtype=np.int64))
    assert env.episodes_dropped == 6
    with pytest.warns(RuntimeWarning, match="metrics of 6 finished episodes were dropped"):
        m = env.pop_metrics()
    assert len(m["ticks"]) == 4
    with warnings.catch_warnings():          # once: later drops are only counted
        warnings.simplefilter("error")
        for _ in range(10):
            env.step(np.ones((2, 1), dtype=np.int64))
        env.pop_metrics()
    assert env.episodes_dropped == 12


def test_a_huge_unsigned_action_is_reported_as_given():
    env = stepped(n=2)
    acts = np.array([[1], [2**64 - 1]], dtype=np.uint64)
    with pytest.raises(ValueError, match="action 18446744073709551615 for head 'add' is out of range 0..2 "
                                         r"\(env 1\)"):
        env.step(acts)


def test_multi_agent_action_errors_name_the_agent():
    env = stepped(COUNTING2, n=3)
    acts = np.ones((3, 2, 1), dtype=np.int64)
    acts[2, 1, 0] = 5
    with pytest.raises(ValueError, match=r"action 5 for head 'add' of agent 1 \('\w+'\) is out of range 0..2 "
                                         r"\(env 2\)"):
        env.step(acts)


# ---- replays embed a start snapshot: format 2 from now on; older or damaged ones are refused clearly
def test_replays_carry_format_2_and_refuse_old_or_damaged_snapshots(tmp_path):
    from osrs_rl.replay import ReplayError, load_replay, record_policy_episode, save_replay, verify_replay
    from osrs_rl.replay.verify import start_env
    from osrs_rl.runtime.checks import random_legal_actions

    rng = np.random.default_rng(0)
    replay = record_policy_episode("template", {"max_ticks": 20}, lambda env, obs, info: random_legal_actions(env, rng),
                                   seed=3, max_ticks=20)
    fmt = struct.unpack("<H", replay.initial_snapshot[4:6])[0]
    assert fmt == snap.FORMAT_VERSION == 2
    assert verify_replay(load_replay(save_replay(tmp_path / "ok.orlr", replay))).ok
    spec = get_spec("template")
    record = replay.initial_snapshot[-spec.state_dtype.itemsize:]
    old = struct.pack("<4sHH16sI", b"ORLS", 1, spec.version, snap.layout_digest(spec.name, spec.state_dtype),
                      len(record)) + b"\x00" + record
    save_replay(tmp_path / "old.orlr", replace(replay, initial_snapshot=old))
    with pytest.raises(ReplayError, match="initial snapshot does not fit this build: snapshot format 1"):
        load_replay(tmp_path / "old.orlr")
    damaged = bytearray(replay.initial_snapshot)
    damaged[-5] ^= 1
    with pytest.raises(ReplayError, match="checksum mismatch"):
        start_env(replace(replay, initial_snapshot=bytes(damaged)))
    raw = bytearray(record)
    raw[spec.state_dtype.fields["praying"][1]] = 7         # a bool byte that is neither 0 nor 1
    crafted = snap.pack(spec.name, spec.version, spec.state_dtype, b"\x00", bytes(raw))
    with pytest.raises(ReplayError, match=r"cannot start the replay: state field praying = 7 is outside 0..1"):
        start_env(replace(replay, initial_snapshot=crafted))


def test_pvp_refuses_a_supply_its_build_does_not_carry():
    """The fuzz's find: builds 3..6 carry no karambwans (supply_consumable -1), so a count there
    made the next karambwan eat index the consumables table with -1."""
    from osrs_rl.encounters.pvp import state as ST

    env = osrs_rl.make("pvp", num_envs=1, seed=1)
    env.reset()
    cfg = env.config[0]
    build = int(np.flatnonzero(cfg["supply_consumable"][:, ST.SUP_KARAMBWAN] < 0)[0])
    rec = env.get_states([0])
    rec["players"]["build"][0, 0], rec["players"]["kit"][0, 0] = build, 0
    rec["players"]["supplies"][0, 0, ST.SUP_KARAMBWAN] = 2
    with pytest.raises(InvalidStateError, match=r"players\[0\]\.supplies\[1\] = 2 is outside 0\.\.0"):
        env.set_states([0], rec)
    rec["players"]["supplies"][0, 0, ST.SUP_KARAMBWAN] = 0
    env.set_states([0], rec)                               # the same state without them is fine
