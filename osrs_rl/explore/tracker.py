"""Following envs through cells: what each env did since its last cell, offered to the archive at the next.

A :class:`CellTracker` follows every env of one VecEnv. After each tick it reads every env's cell and
progress (one compiled call); an env whose cell changed offers its state to the archive with the
policy's recurrent state, the actions since the previous cell (its chunk), that chunk's start (parent
cell, RNG, the version of the parent's record it began from) and the episode's return and ticks so far.
When an episode ends, a normal start's cells are credited with a pass, and with having got past them
when it ended in a deeper phase of the fight or won: that is how the archive learns where normal starts
already succeed; an archive start's outcome goes to the cell it started from.
"""

from __future__ import annotations

import numpy as np

from osrs_rl.explore.archive import Archive, rng_slice
from osrs_rl.explore.cells import read_cells, read_phases

CHUNK_LIMIT = 512         # actions kept per env since its last cell; a longer stretch keeps no chunk


class CellTracker:
    """Follows the envs of ``env`` for ``archive``. ``hidden_of(ids)`` returns the policy's recurrent state of
    those envs as float32 ``[len(ids), archive.hidden_size]`` (the state it will act on next), or None."""

    def __init__(self, env, archive: Archive, hidden_of=None):
        spec = env.spec
        n = env.num_envs
        self.env, self.archive, self.hidden_of = env, archive, hidden_of
        self.success = spec.metric_names.index(spec.outcome.success) if spec.outcome is not None else None
        self._rng = rng_slice(spec.state_dtype)
        self.key = np.zeros(n, np.int64)
        self.progress = np.zeros(n, np.float64)
        self._keys = np.zeros(n, np.int64)
        self._prog = np.zeros(n, np.float64)
        self.chunk = np.zeros((n, CHUNK_LIMIT, spec.num_agents, spec.num_heads), np.int16)
        self.chunk_len = np.zeros(n, np.int64)
        self.chunk_rng = [b""] * n
        self.parent_version = np.zeros(n, np.int64)        # the archive's version of the chunk's start (0: none)
        self.ret = np.zeros(n, np.float64)
        self.ticks = np.zeros(n, np.int64)
        self.archive_start = np.zeros(n, np.bool_)          # the episode running in env i started from a cell
        self.start_key = np.zeros(n, np.int64)              # ... that cell
        self.visited: list[set] = [set() for _ in range(n)]
        self.step = 0                                       # the trainer's global step (found_step, policy_step)

    def _rows(self) -> np.ndarray:
        return self.env.states.view(np.uint8).reshape(self.env.num_envs, -1)

    def begin(self) -> None:
        """Every env has just been reset: all are normal starts."""
        self.started(np.arange(self.env.num_envs))

    def started(self, ids, cells=None) -> None:
        """Episodes started in ``ids``: normal starts, or with ``cells`` (archive rows, one each) restored ones,
        which go on from the cell's return and ticks. The start state is offered as a cell (a root when normal)."""
        ids = np.asarray(ids, dtype=np.int64)
        if len(ids) == 0:
            return
        a = self.archive
        if cells is None:
            read_cells(self.env, self._keys, self._prog)
            phases = read_phases(self.env, ids)
        else:       # a restored record's cell and progress are its row's (its new RNG changes neither)
            self._keys[ids] = [a.keys[r] for r in cells]
            self._prog[ids] = [a.floats["progress"][r] for r in cells]
        rows = self._rows()
        for j, i in enumerate(ids):
            record = rows[i].tobytes()
            self.key[i], self.progress[i] = self._keys[i], self._prog[i]
            self.chunk_len[i] = 0
            self.chunk_rng[i] = record[self._rng]
            self.visited[i] = {int(self.key[i])}
            if cells is None:
                self.archive_start[i] = False
                self.ret[i], self.ticks[i] = 0.0, 0
                # a start's recurrent state is the zero one: hidden left as None
                self.parent_version[i] = a.offer(self.key[i], self.progress[i], record, ret=0.0, ticks=0,
                                                 phase=phases[j], step=self.step, policy_step=self.step)
            else:
                row = int(cells[j])
                self.archive_start[i] = True
                self.start_key[i] = a.keys[row]
                self.ret[i], self.ticks[i] = a.floats["ret"][row], a.counts["ticks"][row]
                self.parent_version[i] = a.counts["version"][row]

    def after_step(self, actions, rewards, done, was_reset) -> None:
        """One tick of every env: ``actions`` [envs, agents, heads] as sent, agent 0's ``rewards`` [envs], which
        envs' episodes ended (``done``) and which were reset by this step (their actions were ignored)."""
        stepping = ~was_reset
        n = self.env.num_envs
        a = self.archive
        lengths = self.chunk_len
        keep = stepping & (lengths < CHUNK_LIMIT)
        if keep.any():
            ids = np.flatnonzero(keep)
            self.chunk[ids, lengths[ids]] = np.asarray(actions).reshape(n, *self.chunk.shape[2:])[ids]
        lengths[stepping] += 1
        self.ret[stepping] += np.asarray(rewards, dtype=np.float64)[stepping]
        self.ticks[stepping] += 1
        if done.any():
            self._episodes_ended(np.flatnonzero(done & stepping))
        read_cells(self.env, self._keys, self._prog)
        moved = np.flatnonzero(stepping & ~done & (self._keys != self.key))
        if len(moved) == 0:
            return
        rows = self._rows()
        hidden = self.hidden_of(moved) if self.hidden_of is not None and a.hidden_size else None
        phases = read_phases(self.env, moved)
        for j, i in enumerate(moved):
            key, parent = int(self._keys[i]), int(self.key[i])
            row = a.row_of(key)
            if row is not None and not a.improves(row, self._prog[i], self.ret[i], self.ticks[i]):
                # the usual move, back into a known cell: counted without copying the state (what offer would do)
                a.visit(row)
                self.parent_version[i] = 0
                self.chunk_rng[i] = rows[i, self._rng].tobytes()
            else:
                record = rows[i].tobytes()
                full = lengths[i] <= CHUNK_LIMIT
                self.parent_version[i] = a.offer(
                    key, self._prog[i], record, hidden=None if hidden is None else hidden[j],
                    chunk=self.chunk[i, :lengths[i]] if full else None, parent=parent,
                    chunk_rng=self.chunk_rng[i] if full else b"", parent_version=self.parent_version[i] if full else 0,
                    ret=self.ret[i], ticks=self.ticks[i], phase=phases[j], step=self.step, policy_step=self.step)
                self.chunk_rng[i] = record[self._rng]
            self.key[i], self.progress[i] = key, self._prog[i]
            lengths[i] = 0
            self.visited[i].add(key)

    def _episodes_ended(self, ids: np.ndarray) -> None:
        if self.success is None or len(ids) == 0:
            return
        finished, metrics = self.env.finished_last_step()
        ended = {int(e): (bool(m[self.success] > 0.5), int(ph))
                 for e, m, ph in zip(finished, metrics, self.env.phases_last_step(), strict=True)}
        a = self.archive
        for i in ids:
            won, phase = ended.get(int(i), (False, -1))
            if self.archive_start[i]:
                row = a.row_of(self.start_key[i])
                if row is not None:
                    a.note_start(row, phase, won)
            else:
                a.note_pass([r for r in (a.row_of(k) for k in self.visited[i]) if r is not None], phase, won)
