"""Replay files: round trip and exact re-simulation for every encounter, and a clear error for every
kind of bad file (tiny episodes: at most 50 ticks)."""

import functools
import struct

import numpy as np
import pytest

import osrs_rl
from osrs_rl import cli
from osrs_rl.replay import (
    FORMAT_VERSION,
    ReplayError,
    load_replay,
    record_episode,
    record_policy_episode,
    save_replay,
    verify_replay,
)
from osrs_rl.replay.file import MAGIC, decode, encode
from osrs_rl.runtime import registry
from osrs_rl.runtime.checks import random_legal_actions
from osrs_rl.runtime.recording import EpisodeRecorder

TICKS = 50


def _config(name: str) -> dict:
    fields = {f.name for f in registry.get_spec(name).config_fields}
    return {"max_ticks": TICKS} if "max_ticks" in fields else {}


def _random_policy(seed: int, notes: bool = False):
    rng = np.random.default_rng(seed)

    def act(env, obs, info):
        actions = random_legal_actions(env, rng)
        if not notes:
            return actions
        probs = [rng.random(h.size).astype(np.float32) for h in env.spec.action_heads]
        return actions, {"value": float(rng.normal()), "probs": probs,
                         "reward_components": {"damage": float(rng.random()), "win": 0.0}}
    return act


@functools.cache
def _replay(name: str, notes: bool = False):
    return record_policy_episode(name, _config(name), _random_policy(7, notes), seed=3, max_ticks=TICKS,
                                 meta={"policy": "random", "opponent_tier": "average"})


def _assert_same(a, b):
    for f in ("encounter", "spec_version", "config", "initial_snapshot", "terminated", "truncated",
              "final_state_hash", "meta"):
        assert getattr(a, f) == getattr(b, f), f
    for f in ("actions", "rewards", "state_hashes", "values"):
        x, y = getattr(a, f), getattr(b, f)
        assert (x is None and y is None) or (x.dtype == y.dtype and np.array_equal(x, y)), f
    assert (a.probs is None) == (b.probs is None)
    for x, y in zip(a.probs or [], b.probs or [], strict=True):
        assert x.dtype == y.dtype and np.array_equal(x, y)
    assert list(a.reward_components) == list(b.reward_components)
    for k in a.reward_components:
        assert np.array_equal(a.reward_components[k], b.reward_components[k])


@pytest.mark.parametrize("name", registry.names())
def test_round_trip_and_verify(name, tmp_path):
    replay = _replay(name)
    assert 0 < replay.ticks <= TICKS
    path = save_replay(tmp_path / f"{name}.orlr", replay)
    loaded = load_replay(path)
    _assert_same(replay, loaded)
    result = verify_replay(loaded)
    assert result.ok, result.message()
    assert result.ticks == replay.ticks


def test_annotations_round_trip_exactly(tmp_path):
    replay = _replay("template", notes=True)
    assert replay.values.shape == (replay.ticks,) and len(replay.probs) == 3
    assert replay.probs[1].shape == (replay.ticks, 3)
    assert set(replay.reward_components) == {"damage", "win"}
    loaded = load_replay(save_replay(tmp_path / "a.orlr", replay))
    _assert_same(replay, loaded)
    assert "values" in loaded.annotations() and verify_replay(loaded).ok


def _differing_action(replay, tick):
    """A legal action at ``tick`` other than the recorded one that changes the state on that tick."""
    from osrs_rl.replay.record import state_record
    from osrs_rl.runtime.vec_env import VecEnv

    spec = registry.get_spec(replay.encounter)

    def state_after(actions):
        env = VecEnv(spec, 1, 0, **replay.config)
        env.reset()
        env.restore(0, replay.initial_snapshot)
        for t in range(tick):
            env.step(replay.actions[t].reshape(1, -1))
        mask = env.action_mask()[0].copy()
        env.step(actions.reshape(1, -1))
        return state_record(env), mask

    base, mask = state_after(replay.actions[tick])
    offset = 0
    for h, head in enumerate(spec.action_heads):
        for option in np.flatnonzero(mask[offset:offset + head.size]):
            candidate = replay.actions[tick].copy()
            candidate[0, h] = option
            if option != replay.actions[tick, 0, h] and state_after(candidate)[0] != base:
                return candidate
        offset += head.size
    raise AssertionError(f"no legal action at tick {tick} changes the state")


def test_tampered_action_names_the_tick():
    replay = _replay("template")
    tick = min(5, replay.ticks - 2)
    tampered = decode(encode(replay))
    tampered.actions[tick] = _differing_action(replay, tick)
    result = verify_replay(tampered)
    assert not result.ok and result.tick == tick
    assert result.field in ("state (record digest)", "reward[agent 0]", "terminated", "truncated")
    assert f"at tick {tick}" in result.message()


def test_tampered_reward_and_final_state_are_named():
    replay = _replay("template")
    r = decode(encode(replay))
    r.rewards[2, 0] += 1.0
    result = verify_replay(r)
    assert (result.ok, result.tick, result.field) == (False, 2, "reward[agent 0]")
    r = decode(encode(replay))
    r.state_hashes = None
    r.final_state_hash = "0" * 64
    result = verify_replay(r)
    assert (result.ok, result.tick, result.field) == (False, replay.ticks, "final state (sha256)")
    assert "after the last tick" in result.message()


def test_recorder_episode_becomes_a_verifiable_replay():
    from osrs_rl.replay.record import state_record, tick_digest

    env = registry.make("template", num_envs=1, seed=11)
    recorder = EpisodeRecorder()
    env.add_recorder(recorder)
    env.reset()
    rng = np.random.default_rng(0)
    rewards, hashes = [], []
    for _ in range(10_000):
        _, rew, term, trunc, _ = env.step(random_legal_actions(env, rng))
        rewards.append(float(rew[0]))
        hashes.append(tick_digest(state_record(env)))
        if term[0] or trunc[0]:
            break
    (episode,) = recorder.episodes
    replay = record_episode(episode, rewards, bool(term[0]), bool(trunc[0]), state_record(env), hashes)
    assert replay.ticks == len(rewards) and verify_replay(replay).ok


# ---- bad files ---------------------------------------------------------------------------------------
@pytest.fixture
def good_file(tmp_path):
    return save_replay(tmp_path / "good.orlr", _replay("template"))


def _write(path, data):
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("damage, message", [
    (lambda b: b[:len(b) // 2], "truncated"),
    (lambda b: b[:10], "truncated"),
    (lambda b: b[:-1] + bytes([b[-1] ^ 1]), "checksum mismatch"),
    (lambda b: b + b"x", "bytes after the payload"),
    (lambda b: b"NOTAREPLAY" + b[10:], "bad magic"),
    (lambda b: b"", r"empty file \(0 bytes\)"),                   # not "bad magic" (issue 15, item 8)
    (lambda b: b[:3], r"truncated file \(3 bytes\)"),               # cut inside the magic itself
    (lambda b: b"OSX", "bad magic"),                                  # short, and not a replay's start
    (lambda b: b[:8] + struct.pack("<I", FORMAT_VERSION + 1) + b[12:], "newer than this build"),
])
def test_bad_files_give_clear_errors(good_file, tmp_path, damage, message):
    bad = _write(tmp_path / "bad.orlr", damage(good_file.read_bytes()))
    with pytest.raises(ReplayError, match=message):
        load_replay(bad)


def _repack(data: bytes, edit) -> bytes:
    """``data`` (a replay file) with its body replaced by ``edit(header, arrays)`` -> (header, arrays), then
    compressed and checksummed again: a file the writer could have produced, however odd its contents."""
    import hashlib
    import json
    import zlib

    from osrs_rl.replay.file import _HEADER

    body = zlib.decompress(data[_HEADER.size:])
    (n,) = struct.unpack_from("<I", body)
    header, arrays = edit(json.loads(body[4:4 + n]), body[4 + n:])
    head = json.dumps(header).encode()
    payload = zlib.compress(struct.pack("<I", len(head)) + head + arrays, 9)
    return _HEADER.pack(MAGIC, FORMAT_VERSION, len(payload), hashlib.sha256(payload).digest()) + payload


def test_inflation_stops_at_the_declared_size(good_file):
    import tracemalloc

    bomb = _repack(good_file.read_bytes(), lambda h, a: (h, a + bytes(64 << 20)))    # 64 MiB of zeros after
    assert len(bomb) < 1 << 20                                                       # ... in under 1 MiB
    tracemalloc.start()
    try:
        with pytest.raises(ReplayError, match="more than the .* array bytes its header declares"):
            decode(bomb)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 << 20, peak                      # the undeclared tail is never inflated


def test_declared_sizes_are_checked_before_inflating(good_file, monkeypatch):
    from osrs_rl.replay import file

    data = good_file.read_bytes()
    total = sum(e["nbytes"] for e in decode_header(data)["arrays"])
    monkeypatch.setattr(file, "MAX_BODY_BYTES", total - 1)
    with pytest.raises(ReplayError, match=f"too large to read: its arrays declare {total} bytes"):
        decode(data)
    monkeypatch.setattr(file, "MAX_BODY_BYTES", total)
    assert decode(data).ticks == _replay("template").ticks

    def huge(h, a):                                  # the last entry claims 2**40 items of a tiny blob
        last = h["arrays"][-1]
        last["shape"], last["nbytes"] = [1 << 40], np.dtype(last["dtype"]).itemsize << 40
        return h, a
    with pytest.raises(ReplayError, match="too large to read"):
        decode(_repack(data, huge))

    def overlapping(h, a):
        h["arrays"][1]["offset"] = 0
        return h, a
    with pytest.raises(ReplayError, match="does not fit"):
        decode(_repack(data, overlapping))


def decode_header(data: bytes) -> dict:
    import json
    import zlib

    from osrs_rl.replay.file import _HEADER

    body = zlib.decompress(data[_HEADER.size:])
    (n,) = struct.unpack_from("<I", body)
    return json.loads(body[4:4 + n])


def test_missing_unknown_encounter_and_version_mismatch(tmp_path):
    with pytest.raises(ReplayError, match="no replay file"):
        load_replay(tmp_path / "nope.orlr")
    r = decode(encode(_replay("template")))
    r.encounter = "zulrah_someday"
    path = save_replay(tmp_path / "unknown.orlr", r)
    with pytest.raises(ReplayError, match="unknown encounter 'zulrah_someday'"):
        load_replay(path)
    assert load_replay(path, check=False).encounter == "zulrah_someday"
    r = decode(encode(_replay("template")))
    r.spec_version += 1
    with pytest.raises(ReplayError, match="spec version"):
        load_replay(save_replay(tmp_path / "old.orlr", r))


def test_save_refuses_inconsistent_replays(tmp_path):
    r = decode(encode(_replay("template")))
    r.rewards = r.rewards[:-1]
    with pytest.raises(ReplayError, match="rewards has shape"):
        save_replay(tmp_path / "x.orlr", r)
    assert not (tmp_path / "x.orlr").exists()


def test_magic_is_fixed():
    assert encode(_replay("template")).startswith(MAGIC)


# ---- the command line ----------------------------------------------------------------------------------
def test_cli_verify_info_and_bad_file(good_file, tmp_path, capsys):
    assert cli.main(["replay", "verify", str(good_file)]) == 0
    out = capsys.readouterr().out
    assert "OK" in out and "template" in out
    assert cli.main(["replay", "info", str(good_file)]) == 0
    out = capsys.readouterr().out
    assert "template" in out and "ticks" in out and "meta" in out
    assert "written by" in out and f"osrs-rl {osrs_rl.__version__}" in out       # the code that wrote the file
    r = decode(encode(_replay("template")))
    r.rewards[3, 0] -= 1.0
    diverged = save_replay(tmp_path / "diverged.orlr", r)
    assert cli.main(["replay", "verify", str(diverged)]) == 1
    assert "tick 3" in capsys.readouterr().out
    bad = _write(tmp_path / "bad.orlr", good_file.read_bytes()[:-5])
    assert cli.main(["replay", "verify", str(bad)]) == 2
    assert "truncated" in capsys.readouterr().out
    assert cli.main(["replay", "info", str(tmp_path / "missing.orlr")]) == 2
    assert "no replay file" in capsys.readouterr().out



def test_recorder_keeps_only_user_settings():
    """PvP's derived config fields are arrays: the recorder keeps the user settings only."""
    from types import SimpleNamespace

    from osrs_rl.runtime.config import build_config
    from osrs_rl.runtime.recording import user_settings

    spec = registry.get_spec("pvp")
    env = SimpleNamespace(spec=spec, config=build_config(spec, {"max_ticks": 77}))
    settings = user_settings(env)
    assert settings["max_ticks"] == 77 and "num_kits" not in settings
    assert set(settings) == {f.name for f in spec.config_fields if not f.derived}
