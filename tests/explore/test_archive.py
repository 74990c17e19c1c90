"""The archive: what it keeps, exact replays from its cells (recurrent state included), its file."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import torch

from osrs_rl.agent.models import build_model
from osrs_rl.explore.archive import Archive, ArchiveError
from osrs_rl.explore.explorer import explore
from osrs_rl.explore.replay import cell_replay
from osrs_rl.runtime.recording import user_settings
from osrs_rl.runtime.registry import get_spec, make


@pytest.fixture(scope="module")
def explored():
    """A template archive grown by random exploration from restored cells."""
    env = make("template", num_envs=16, seed=3)
    archive = Archive(env.spec, user_settings(env))
    got = explore(env, archive, iterations=6, ticks=40, seed=5)
    return env, archive, got


def _replay_chunk(env, archive, row):
    env.restore(0, env.snapshot_of_record(archive.chunk_start(row)))
    for act in archive.chunks[row].astype(np.int64):
        env.step(act[0][None] if env.single_agent else act[None])
    return env.states[0:1].tobytes()


def test_exploration_adds_coarse_cells_and_keeps_the_best_state_of_each(explored):
    env, archive, got = explored
    assert got["cells"] == len(archive) > 20
    assert len(archive) < got["steps"] / 10          # coarse: far fewer cells than states stepped
    keys = np.array(archive.keys)
    assert len(np.unique(keys)) == len(keys)
    for row in range(0, len(archive), 7):            # each kept state lies in its own cell, with its progress
        record = np.frombuffer(archive.records[row], dtype=env.spec.state_dtype)[0]
        assert env.spec.cell_key(record, env.config[0]) == archive.keys[row]
        assert env.spec.progress(record, env.config[0]) == pytest.approx(archive.floats["progress"][row])
    assert archive.array("selected").sum() > 0       # later rounds restored cells


def test_a_better_state_replaces_a_worse_one_and_a_worse_one_is_only_counted():
    spec = get_spec("template")
    a = Archive(spec)
    r0, r1 = bytes(spec.state_dtype.itemsize), b"\x01" * spec.state_dtype.itemsize
    assert a.offer(7, 0.5, r0)
    assert not a.offer(7, 0.4, r1)
    assert a.records[0] == r0 and a.counts["visits"][0] == 2
    assert a.offer(7, 0.6, r1)
    assert a.records[0] == r1 and a.floats["progress"][0] == 0.6 and len(a) == 1
    assert a.offer(7, 0.6, r0, ret=1.0)              # equal progress: the higher return wins
    assert a.records[0] == r0
    # improves says what offer keeps (the tracker asks it first, to count a move without copying the state)
    assert not a.improves(0, 0.6, 1.0, 0) and not a.improves(0, 0.5, 9.0, 0)
    assert a.improves(0, 0.6, 1.5, 0) and a.improves(0, 0.7, -9.0, 99)
    visits = a.counts["visits"][0]
    a.visit(0)
    assert a.counts["visits"][0] == visits + 1 and a.records[0] == r0


def test_a_full_archive_evicts_the_least_progress_for_more():
    spec = get_spec("template")
    a = Archive(spec, max_cells=3)
    rec = bytes(spec.state_dtype.itemsize)
    for key, prog in ((1, 0.1), (2, 0.5), (3, 0.3)):
        a.offer(key, prog, rec)
    assert not a.offer(4, 0.05, rec)                 # less than all: not added
    assert a.offer(5, 0.9, rec)                      # more: the least (key 1) goes
    assert sorted(a.keys) == [2, 3, 5] and a.evicted == 1
    assert all(a.keys[a.index[k]] == k for k in a.keys)
    a.set_max_cells(2)                               # a smaller bound drops the least progress now
    assert sorted(a.keys) == [2, 5] and a.evicted == 2


def test_restoring_a_cells_parent_and_stepping_its_chunk_reproduces_the_cell_exactly(explored):
    env, archive, _ = explored
    rows = [r for r in range(len(archive)) if archive.replayable(r)]
    assert len(rows) > 5
    scratch = make("template", num_envs=1, **archive.config)
    for row in rows[:40]:
        assert _replay_chunk(scratch, archive, row) == archive.records[row]
    replay, exact = cell_replay(archive, rows[0])          # the viewer's replay of it says the same
    assert exact and replay.ticks == len(archive.chunks[rows[0]])


@pytest.mark.slow
def test_the_recurrent_state_stored_with_a_cell_is_the_one_its_trajectory_leads_to():
    """Explore with an LSTM policy; from a cell's parent (its record and stored state) the policy stepped
    through the chunk arrives at the cell's stored state, and its record."""
    torch.manual_seed(0)
    env = make("template", num_envs=8, seed=11)
    model = build_model(env.spec.obs_segments, env.spec.head_sizes, kind="lstm", hidden=16, layers=1)
    archive = Archive(env.spec, user_settings(env), hidden_size=model.state_size)
    explore(env, archive, iterations=4, ticks=30, model=model, seed=2)
    rows = [r for r in range(len(archive)) if archive.replayable(r)]
    assert rows and any(np.abs(archive.hidden[r]).sum() > 0 for r in rows)
    scratch = make("template", num_envs=1, **archive.config)
    checked = 0
    for row in rows[:30]:
        parent = archive.index[archive.counts["parent"][row]]
        scratch.restore(0, scratch.snapshot_of_record(archive.chunk_start(row)))
        state = torch.from_numpy(archive.hidden[parent][None].copy())
        obs = scratch._obs_view.copy()
        with torch.no_grad():
            for act in archive.chunks[row].astype(np.int64):
                _, _, state = model.step(torch.from_numpy(obs), state)
                obs = scratch.step(act[0][None])[0].copy()
        assert scratch.states[0:1].tobytes() == archive.records[row]
        np.testing.assert_allclose(state[0].numpy(), archive.hidden[row], rtol=0, atol=1e-6)
        checked += 1
    assert checked > 3


def test_an_archive_file_round_trips(tmp_path, explored):
    _, archive, _ = explored
    path = archive.save(tmp_path / "a.orla")
    back = Archive.load(path, archive.spec)
    assert back.keys == archive.keys and back.records == archive.records
    assert all(np.array_equal(x, y) for x, y in zip(back.chunks, archive.chunks, strict=True))
    assert back.chunk_rng == archive.chunk_rng and back.next_version == archive.next_version
    for name in Archive.COUNTS + Archive.FLOATS:
        assert np.array_equal(back.array(name), archive.array(name)), name
    assert back.config == archive.config and back.to_bytes() == archive.to_bytes()


def test_a_corrupted_or_foreign_archive_is_refused(tmp_path, explored):
    _, archive, _ = explored
    data = bytearray(archive.to_bytes())
    bad = bytearray(data)
    bad[-100] ^= 1
    with pytest.raises(ArchiveError, match="corrupted"):
        Archive.from_bytes(bytes(bad), archive.spec)
    with pytest.raises(ArchiveError, match="not an osrs-rl archive"):
        Archive.from_bytes(b"XXXX" + bytes(data[4:]), archive.spec)
    with pytest.raises(ArchiveError, match="archive format 9"):
        Archive.from_bytes(bytes(data[:4]) + (9).to_bytes(2, "little") + bytes(data[6:]), archive.spec)
    newer = dataclasses.replace(archive.spec, version=archive.spec.version + 1)
    with pytest.raises(ArchiveError, match="build the archive again"):
        Archive.from_bytes(bytes(data), newer)
    with pytest.raises(ArchiveError, match="archive of 'template', not 'zulrah'"):
        Archive.from_bytes(bytes(data), get_spec("zulrah"))
    with pytest.raises(ArchiveError, match="too short"):
        Archive.from_bytes(b"OR", archive.spec)
    with pytest.raises(ArchiveError, match="cannot read"):
        Archive.load(tmp_path / "none.orla", archive.spec)


def test_states_made_under_other_rules_are_refused_but_another_start_is_allowed():
    spec = get_spec("zulrah")
    env = make("zulrah", num_envs=1)
    archive = Archive(spec, user_settings(env))
    archive.check_config({**user_settings(env), "start_phase": 3, "gear_tier": 0})       # where runs start
    with pytest.raises(ArchiveError, match="kill_reward"):
        archive.check_config({**user_settings(env), "kill_reward": 2.0})


def test_an_encounter_without_cells_has_no_archive():
    with pytest.raises(ArchiveError, match="no cell_key"):
        Archive(get_spec("pvp"))


def test_an_archive_made_with_other_cells_is_refused(explored):
    _, archive, _ = explored
    data = archive.to_bytes()
    other = dataclasses.replace(archive.spec, cell_key=get_spec("zulrah").cell_key)
    with pytest.raises(ArchiveError, match="another template cell_key or progress"):
        Archive.from_bytes(data, other)


def test_a_pass_counts_as_getting_past_a_cell_when_it_ends_deeper_or_wins():
    spec = get_spec("template")
    a = Archive(spec)
    rec = bytes(spec.state_dtype.itemsize)
    a.offer(1, 0.1, rec, phase=0)
    a.offer(2, 0.6, rec, phase=1)
    a.note_pass([0, 1], final_phase=1, won=False)      # past the phase-0 cell, not the phase-1 one
    a.note_pass([0, 1], final_phase=1, won=True)       # a win gets past both
    assert a.counts["passes"] == [2, 2] and a.counts["advanced"] == [2, 1]
    assert a.eligible(success_threshold=0.75, min_passes=2).tolist() == [1]
    assert a.eligible(success_threshold=0.75, min_passes=3).tolist() == [0, 1]


def test_every_phase_gets_the_same_share_of_archive_starts():
    spec = get_spec("template")
    a = Archive(spec)
    rec = bytes(spec.state_dtype.itemsize)
    for key in range(10):                               # nine cells in phase 0, one in phase 1
        a.offer(key, key / 10, rec, phase=int(key == 9))
    w = a.weights(np.arange(10))
    assert w[:9].sum() == pytest.approx(w[9]) and np.all(np.diff(w[:9]) > 0)   # within a phase: more progress


def test_the_frontier_phase_takes_the_largest_share_and_a_solved_phase_the_least():
    spec = get_spec("template")
    a = Archive(spec)
    rec = bytes(spec.state_dtype.itemsize)
    for key in range(12):                               # four cells in each of phases 0, 1 and 2
        a.offer(key, key / 12, rec, phase=key // 4)
    rows = np.arange(12)
    a.note_pass(rows[:4], final_phase=1, won=False)     # phase 0 got past by every pass (8 of 8) ...
    a.note_pass(rows[:4], final_phase=2, won=False)
    a.note_pass(rows[4:8], final_phase=2, won=False)    # ... phase 1 by 4 of 4, under min_passes=8; phase 2 by none
    assert a.phase_order([0, 1, 2], success_threshold=0.5, min_passes=8) == [1, 2, 0]
    assert a.phase_order([0, 1, 2], success_threshold=0.5, min_passes=2) == [2, 0, 1]
    order = a.phase_order([0, 1, 2], success_threshold=0.5, min_passes=8)
    share = [a.weights(rows, 0.5, order)[4 * ph:4 * ph + 4].sum() for ph in range(3)]
    assert share == pytest.approx([1 / 7, 4 / 7, 2 / 7])          # solved phase 0 last: 1 : 1/2 : 1/4
    equal = [a.weights(rows, 1.0, order)[4 * ph:4 * ph + 4].sum() for ph in range(3)]
    assert equal == pytest.approx([1 / 3] * 3)
