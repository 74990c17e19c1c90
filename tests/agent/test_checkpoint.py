"""Checkpoints: bitwise resume, atomic writes, and a clear error for every way a file can be wrong."""

import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import torch

from osrs_rl.agent import checkpoint as ck
from osrs_rl.agent.checkpoint import (
    CheckpointError,
    capture_rng_state,
    load_checkpoint,
    load_meta,
    restore_rng_state,
    save_checkpoint,
)
from osrs_rl.io import atomic

META = {"encounter": "pvp", "encounter_version": 3, "obs_size": 7, "head_sizes": (2, 3, 2), "model_kind": "mlp"}


def _model(seed: int = 0) -> torch.nn.Module:
    torch.manual_seed(seed)
    return torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.Tanh(), torch.nn.Linear(16, 2))


def _train_step(model, opt, np_rng: np.random.Generator) -> None:
    """One AdamW step on data drawn from all three RNGs, so a resume must restore each of them."""
    x = torch.randn(8, 4)
    target = torch.from_numpy(np_rng.standard_normal((8, 2)).astype(np.float32)) + random.random()
    loss = ((model(x) - target) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()


def _setup(seed: int = 0):
    model = _model(seed)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.01)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    return model, opt, sched


def _payload(model, opt, sched, np_rng, step=3) -> dict:
    return {
        "model": model.state_dict(),
        "optimizer": opt.state_dict(),
        "schedule": sched.state_dict(),
        "counters": {"global_step": step, "iteration": step},
        "rng": capture_rng_state(np_rng),
        "config": {"lr": 1e-2, "hidden": (16,), "encounter": "pvp", "anneal": None},
    }


def _saved(tmp_path, meta=META) -> Path:
    model, opt, sched = _setup()
    path = tmp_path / "ckpt.pt"
    save_checkpoint(path, _payload(model, opt, sched, np.random.default_rng(0)), meta)
    return path


# ---- round trip ----------------------------------------------------------------------------------------
def test_resume_gives_bitwise_the_same_next_step(tmp_path):
    model, opt, sched = _setup(seed=0)
    np_rng = np.random.default_rng(123)
    random.seed(5)
    for _ in range(3):
        _train_step(model, opt, np_rng)
        sched.step()
    save_checkpoint(tmp_path / "ckpt.pt", _payload(model, opt, sched, np_rng), META)

    _train_step(model, opt, np_rng)  # the run that never stopped
    sched.step()
    continued = [p.detach().clone() for p in model.parameters()]

    model2, opt2, sched2 = _setup(seed=99)  # a fresh process: other weights, other RNG states
    np_rng2 = np.random.default_rng(999)
    random.seed(77)
    payload, meta = load_checkpoint(tmp_path / "ckpt.pt", expect={"encounter": "pvp", "obs_size": 7})
    model2.load_state_dict(payload["model"])
    opt2.load_state_dict(payload["optimizer"])
    sched2.load_state_dict(payload["schedule"])
    restore_rng_state(payload["rng"], np_rng2)
    _train_step(model2, opt2, np_rng2)
    sched2.step()

    for a, b in zip(continued, model2.parameters(), strict=True):
        assert torch.equal(a, b)
    assert opt.param_groups[0]["lr"] == opt2.param_groups[0]["lr"]
    assert payload["counters"] == {"global_step": 3, "iteration": 3}
    assert payload["config"] == {"lr": 1e-2, "hidden": (16,), "encounter": "pvp", "anneal": None}


def test_meta_reads_back_with_versions_added(tmp_path):
    from osrs_rl.io.provenance import provenance

    path = _saved(tmp_path)
    meta = load_meta(path)
    assert meta["encounter"] == "pvp" and meta["head_sizes"] == [2, 3, 2]
    assert meta["format_version"] == ck.FORMAT_VERSION
    assert meta["osrs_rl_version"] == __import__("osrs_rl").__version__
    made = provenance()                                   # the code that wrote it: its commit, whether dirty
    assert (meta["osrs_rl_commit"], meta["osrs_rl_dirty"]) == (made["commit"], made["dirty"])


def test_a_checkpoint_from_before_the_commit_was_recorded_still_loads(tmp_path, monkeypatch):
    """0.1.0 wrote the same format with the version alone in its meta."""
    monkeypatch.setattr(ck, "header_fields", lambda: {"osrs_rl_version": "0.1.0"})
    path = _saved(tmp_path)
    monkeypatch.undo()
    payload, meta = load_checkpoint(path, expect={"encounter": "pvp", "obs_size": 7})
    assert meta["osrs_rl_version"] == "0.1.0" and "osrs_rl_commit" not in meta and "osrs_rl_dirty" not in meta
    assert payload["counters"] == {"global_step": 3, "iteration": 3}


def test_rng_state_round_trips_every_generator():
    np_rng = np.random.default_rng(4)
    state = capture_rng_state(np_rng)
    first = (torch.rand(3), np_rng.random(3), random.random())
    restore_rng_state(state, np_rng)
    again = (torch.rand(3), np_rng.random(3), random.random())
    assert torch.equal(first[0], again[0]) and np.array_equal(first[1], again[1]) and first[2] == again[2]


def test_rng_state_of_an_array_backed_generator_round_trips_through_a_file(tmp_path):
    np_rng = np.random.Generator(np.random.MT19937(3))  # its state holds a numpy array
    save_checkpoint(tmp_path / "c.pt", {"rng": capture_rng_state(np_rng)}, {})
    expected = np_rng.random(4)
    payload, _ = load_checkpoint(tmp_path / "c.pt")
    restore_rng_state(payload["rng"], np_rng)
    assert np.array_equal(np_rng.random(4), expected)


def test_restoring_into_another_kind_of_numpy_generator_is_refused():
    state = capture_rng_state(np.random.default_rng(0))
    with pytest.raises(CheckpointError, match="PCG64 bit generator, the Generator given uses MT19937"):
        restore_rng_state(state, np.random.Generator(np.random.MT19937(0)))


# ---- atomic writes -------------------------------------------------------------------------------------
def _fail_mid_write(fh, chunks):
    fh.write(next(iter(chunks)))
    raise OSError("disk full (simulated)")


@pytest.mark.parametrize("failure", ["mid_write", "fsync", "interrupt"])
def test_a_failed_save_keeps_the_old_file_and_leaves_no_temp_files(tmp_path, monkeypatch, failure):
    path = _saved(tmp_path)
    before = path.read_bytes()
    if failure == "mid_write":
        monkeypatch.setattr(atomic, "_write_chunks", _fail_mid_write)
    elif failure == "fsync":
        monkeypatch.setattr(os, "fsync", lambda fd: (_ for _ in ()).throw(OSError("fsync failed (simulated)")))
    else:
        monkeypatch.setattr(atomic, "_write_chunks", lambda fh, chunks: (_ for _ in ()).throw(KeyboardInterrupt()))
    with pytest.raises((OSError, KeyboardInterrupt)):
        save_checkpoint(path, {"model": {"w": torch.ones(1000)}}, {"encounter": "other"})
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ckpt.pt"]
    assert load_meta(path)["encounter"] == "pvp"


def test_a_failed_first_save_leaves_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(atomic, "_write_chunks", _fail_mid_write)
    with pytest.raises(OSError, match="disk full"):
        save_checkpoint(tmp_path / "new.pt", {"x": 1}, {})
    assert list(tmp_path.iterdir()) == []


def test_save_replaces_an_existing_checkpoint(tmp_path):
    path = _saved(tmp_path)
    save_checkpoint(path, {"x": torch.zeros(2)}, {"encounter": "template"})
    payload, meta = load_checkpoint(path)
    assert meta["encounter"] == "template" and torch.equal(payload["x"], torch.zeros(2))


# ---- bad input to save ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "payload, where",
    [
        ({"config": {"out_dir": Path("runs")}}, r"payload\['config'\]\['out_dir'\] is a pathlib"),
        ({"obs_mean": np.zeros(3)}, r"payload\['obs_mean'\] is a numpy.ndarray \(convert it"),
        ({"lr": np.float64(0.1)}, r"payload\['lr'\] is a numpy.float64"),
        ({"steps": [1, {2, 3}]}, r"payload\['steps'\]\[1\] is a builtins.set"),
    ],
)
def test_save_refuses_what_weights_only_cannot_load_and_writes_nothing(tmp_path, payload, where):
    with pytest.raises(CheckpointError, match=where):
        save_checkpoint(tmp_path / "c.pt", payload, {})
    assert list(tmp_path.iterdir()) == []


def test_save_refuses_meta_that_is_not_json(tmp_path):
    with pytest.raises(CheckpointError, match=r"meta\['model_shape'\] is a object"):
        save_checkpoint(tmp_path / "c.pt", {}, {"model_shape": object()})
    with pytest.raises(CheckpointError, match=r"meta\['x'\] is nan"):
        save_checkpoint(tmp_path / "c.pt", {}, {"x": float("nan")})
    assert list(tmp_path.iterdir()) == []


# ---- bad files -----------------------------------------------------------------------------------------
def test_missing_file(tmp_path):
    with pytest.raises(CheckpointError, match="no checkpoint at .*nope.pt"):
        load_checkpoint(tmp_path / "nope.pt")


def test_a_folder_is_not_a_checkpoint(tmp_path):
    with pytest.raises(CheckpointError, match="is not a file"):
        load_checkpoint(tmp_path)


@pytest.mark.parametrize("content", [os.urandom(4096), b"PK\x03\x04 a torch zip", b"PK"])
def test_random_bytes_are_not_a_checkpoint(tmp_path, content):
    path = tmp_path / "junk.pt"
    path.write_bytes(content)
    with pytest.raises(CheckpointError, match="is not an osrs-rl checkpoint"):
        load_checkpoint(path)


def test_an_empty_file_says_empty(tmp_path):
    path = tmp_path / "empty.pt"
    path.write_bytes(b"")
    with pytest.raises(CheckpointError, match=r"empty file \(0 bytes\)"):      # not "not a checkpoint"
        load_checkpoint(path)


def test_a_file_cut_inside_the_magic_says_truncated(tmp_path):
    path = _saved(tmp_path)
    path.write_bytes(path.read_bytes()[:5])
    with pytest.raises(CheckpointError, match=r"truncated file \(5 bytes\)"):
        load_checkpoint(path)


@pytest.mark.parametrize("keep", [10, 40, 200, -1])
def test_truncated_file(tmp_path, keep):
    path = _saved(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data[:keep])
    with pytest.raises(CheckpointError, match="is truncated"):
        load_checkpoint(path)


@pytest.mark.parametrize("where", ["meta", "payload"])
def test_a_flipped_byte_fails_the_checksum(tmp_path, where):
    path = _saved(tmp_path)
    data = bytearray(path.read_bytes())
    i = ck._HEADER.size + 3 if where == "meta" else len(data) - 100
    data[i] ^= 0x01
    path.write_bytes(bytes(data))
    with pytest.raises(CheckpointError, match="corrupt: its sha256 checksum does not match"):
        load_checkpoint(path)


def test_trailing_bytes_are_corruption(tmp_path):
    path = _saved(tmp_path)
    path.write_bytes(path.read_bytes() + b"\x00\x00")
    with pytest.raises(CheckpointError, match="corrupt: 2 bytes follow"):
        load_checkpoint(path)


def test_a_newer_format_is_named(tmp_path, monkeypatch):
    monkeypatch.setattr(ck, "FORMAT_VERSION", ck.FORMAT_VERSION + 1)
    path = _saved(tmp_path)
    monkeypatch.undo()
    newer, current = ck.FORMAT_VERSION + 1, ck.FORMAT_VERSION
    with pytest.raises(CheckpointError, match=rf"format {newer}, newer .* \(up to {current}\)"):
        load_checkpoint(path)


# ---- does it fit this run ------------------------------------------------------------------------------
def test_every_mismatched_key_is_named(tmp_path):
    path = _saved(tmp_path)
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(path, expect={"encounter": "zulrah", "obs_size": 64, "encounter_version": 3})
    msg = str(e.value)
    assert "checkpoint is for encounter 'pvp', this run is 'zulrah'" in msg
    assert "checkpoint is for obs_size 7, this run is 64" in msg
    assert "encounter_version" not in msg


def test_a_key_the_checkpoint_lacks_is_named(tmp_path):
    path = _saved(tmp_path)
    with pytest.raises(CheckpointError, match="checkpoint records no model_shape, this run is"):
        load_checkpoint(path, expect={"model_shape": [64, 64]})


def test_expect_compares_sequences_and_numpy_values_by_value(tmp_path):
    path = _saved(tmp_path)
    _, meta = load_checkpoint(path, expect={"head_sizes": np.array([2, 3, 2]), "obs_size": np.int64(7)})
    assert meta["obs_size"] == 7


# ---- temporary files of interrupted writes ------------------------------------------------------------
def test_a_write_in_progress_is_named_after_its_target_and_process(tmp_path, monkeypatch):
    seen = []
    real = atomic._write_chunks

    def spy(fh, chunks):
        seen.extend(p.name for p in tmp_path.iterdir())
        real(fh, chunks)
    monkeypatch.setattr(atomic, "_write_chunks", spy)
    save_checkpoint(tmp_path / "ckpt.pt", {"x": 1}, {})
    assert len(seen) == 1 and re.fullmatch(rf"\.ckpt\.pt\.{os.getpid()}\.\d+\.tmp", seen[0]), seen
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ckpt.pt"]


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_stale_temp_files_of_a_target_go_at_its_next_write(tmp_path):
    """What a killed writer left (its process gone, or the file older than STALE_TEMP_AGE) is removed
    when the same target is written again; a live writer's file, other targets' and files not named
    like ours stay."""
    dead, me = _dead_pid(), os.getpid()
    names = {
        "dead": f".ckpt.pt.{dead}.0.tmp",
        "old": f".ckpt.pt.{me}.900.tmp",             # our pid, but hours old: a reused pid's leftover
        "live": f".ckpt.pt.{me}.901.tmp",            # a write in progress (fresh, its process alive)
        "other_target": f".other.pt.{dead}.0.tmp",
        "longer_target": f".ckpt.pt.5.{dead}.0.tmp",  # the temp file of target "ckpt.pt.5"
        "not_ours": ".ckpt.pt.abc123.tmp",           # e.g. an older osrs-rl's random name
    }
    for name in names.values():
        (tmp_path / name).write_bytes(b"partial")
    hours_ago = time.time() - 3 * 3600
    os.utime(tmp_path / names["old"], (hours_ago, hours_ago))
    save_checkpoint(tmp_path / "ckpt.pt", {"x": 1}, {})
    left = {p.name for p in tmp_path.iterdir()}
    assert left == {"ckpt.pt"} | {names[k] for k in ("live", "other_target", "longer_target", "not_ours")}
    # a sweep of the whole folder (as a run does when it starts) takes every stale one of any target
    atomic.remove_stale_temp_files(tmp_path)
    assert {p.name for p in tmp_path.iterdir()} == {"ckpt.pt", names["live"], names["not_ours"]}


# ---- weights that do not fit ---------------------------------------------------------------------------
def test_weights_that_do_not_fit_the_model_are_named_with_both_shapes():
    model = _model()
    state = model.state_dict()
    state["0.weight"] = torch.zeros(32, 4)
    state["extra.bias"] = torch.zeros(2)
    del state["2.bias"]
    with pytest.raises(CheckpointError) as e:
        ck.load_state_checked(model, state, "ckpt.pt")
    msg = str(e.value)
    assert "0.weight has shape (32, 4), the model's is (16, 4)" in msg
    assert "2.bias is missing" in msg and "extra.bias is not in this model" in msg


def test_non_finite_weights_are_refused_by_name():
    model = _model()
    before = {k: v.clone() for k, v in model.state_dict().items()}
    state = _model(seed=1).state_dict()
    state["2.weight"][0, 3] = float("nan")
    state["0.bias"][1] = float("inf")
    with pytest.raises(CheckpointError, match=r"NaN or infinite values \(in 0\.bias, 2\.weight\)"):
        ck.load_state_checked(model, state, "ckpt.pt")
    assert all(torch.equal(v, before[k]) for k, v in model.state_dict().items())   # nothing was loaded


def test_missing_entries_are_named():
    with pytest.raises(CheckpointError, match=r"c\.pt has no 'config' entry \(it has 'model'\)"):
        ck.require_entries({"model": {}}, ("model", "config"), "c.pt")


def test_atomic_writes_follow_the_umask(tmp_path):
    # issue 15: checkpoints, replays, PNG and GIF came out 0600 whatever the umask
    from osrs_rl.io.atomic import atomic_write
    old = os.umask(0o022)
    try:
        out = atomic_write(tmp_path / "x.bin", b"data")
    finally:
        os.umask(old)
    assert (out.stat().st_mode & 0o777) == 0o644
