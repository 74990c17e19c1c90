"""Archive starts for the trainer: some episodes begin from an archive cell instead of the encounter's reset.

The trainer's collector calls :meth:`ArchiveStarts.after_step` after every tick of each env half. Of the
envs the tick reset, each becomes an archive start with probability ``fraction`` when there are eligible
cells: cells beyond where normal starts already succeed (``Archive.eligible``), drawn by
``Archive.weights`` from the list made at the start of each rollout (``refresh``). A restored env gets the
cell's state (its RNG drawn afresh with ``reseed``, so one cell does not replay one future) and the
policy's recurrent state stored with it. Every env is followed by a :class:`CellTracker`, so normal and
archive starts alike add cells. ``start_flags`` says which episodes are archive starts, for the critic's
start-type input, and ``kinds`` for the metrics, which the trainer logs apart (normal starts are the score).
"""

from __future__ import annotations

import numpy as np

from osrs_rl.explore.archive import Archive
from osrs_rl.explore.tracker import CellTracker


class ArchiveStarts:
    """``envs``: the trainer's VecEnvs (one per half); ``hidden_of(k, ids)``: the policy's recurrent state of
    envs ``ids`` of half ``k`` (or None for a model without one)."""

    def __init__(self, envs, archive: Archive, fraction: float, success_threshold: float, min_passes: int,
                 reseed: bool, seed: int, hidden_of=None, frontier_decay: float = 1.0):
        if not 0.0 <= fraction <= 1.0:
            raise ValueError(f"the share of archive starts must lie in [0, 1], got {fraction}")
        self.archive = archive
        self.fraction = float(fraction)
        self.success_threshold = float(success_threshold)
        self.min_passes = int(min_passes)
        self.frontier_decay = float(frontier_decay)
        self.reseed = bool(reseed)
        self.rng = np.random.default_rng(seed)
        self.trackers = [CellTracker(env, archive, None if hidden_of is None else
                                     (lambda ids, k=k: hidden_of(k, ids))) for k, env in enumerate(envs)]
        self._keys = np.zeros(0, np.int64)
        self._weights = np.zeros(0)
        self._frontier = -1           # the phase that gets the largest share (``Archive.phase_order``)
        self.starts = 0               # archive starts since the last ``scalars``
        self.resets = 0               # episode starts, both kinds, since then

    def set_step(self, step: int) -> None:
        for t in self.trackers:
            t.step = int(step)

    def begin(self, k: int) -> None:
        """Half ``k``'s envs have all just been reset (the collector's first observation)."""
        self.trackers[k].begin()

    def refresh(self) -> None:
        """The eligible cells and their weights, for the next rollout's draws."""
        a = self.archive
        rows = a.eligible(self.success_threshold, self.min_passes)
        self._keys = np.array([a.keys[r] for r in rows], dtype=np.int64)
        order = a.phase_order(np.unique(a.array("phase")[rows]), self.success_threshold, self.min_passes)
        self._weights = a.weights(rows, self.frontier_decay, order)
        self._frontier = order[0] if order else -1

    def kinds(self, k: int, env_ids) -> np.ndarray:
        """Whether each of the episodes now running (or just ended) in ``env_ids`` of half ``k`` is an archive start."""
        return self.trackers[k].archive_start[np.asarray(env_ids, dtype=np.int64)].copy()

    def start_flags(self, k: int) -> np.ndarray:
        """1.0 where half ``k``'s env runs an archive start, else 0.0 (float32 [envs])."""
        return self.trackers[k].archive_start.astype(np.float32)

    def after_step(self, k: int, actions, rewards, done, was_reset) -> tuple[np.ndarray, np.ndarray | None]:
        """Follow one tick of half ``k`` and start the episodes it reset. Returns the envs restored from cells
        and their stored recurrent states (``[m, hidden]``, None when the archive keeps none)."""
        tracker = self.trackers[k]
        env = tracker.env
        reset = np.flatnonzero(was_reset)
        restored = np.zeros(0, np.int64)
        hidden = None
        if len(reset):
            self.resets += len(reset)
            draw = reset[self.rng.random(len(reset)) < self.fraction] if len(self._keys) else reset[:0]
            rows = self._draw(len(draw))
            restored = draw[:len(rows)]
            if len(restored):
                records, hidden = self.archive.starting_states(rows, self.rng if self.reseed else None)
                env.set_states(restored, records, checked=True)     # the archive's records are checked
                self.starts += len(restored)
            normal = np.setdiff1d(reset, restored)
            tracker.started(normal)
            tracker.started(restored, cells=rows)
        tracker.after_step(actions, rewards, done, was_reset)
        return restored, hidden

    def _draw(self, count: int) -> np.ndarray:
        """Rows of ``count`` cells drawn from the eligible list (fewer when some left the archive since)."""
        if count == 0:
            return np.zeros(0, np.int64)
        a = self.archive
        picks = self.rng.choice(len(self._keys), size=count, p=self._weights / self._weights.sum())
        rows = [a.row_of(self._keys[p]) for p in picks]
        rows = np.array([r for r in rows if r is not None], dtype=np.int64)
        a.note_selected(rows)
        return rows

    def scalars(self) -> dict:
        """The archive's state for the logs (``archive/...``), and the share of starts it gave since the last call."""
        a = self.archive
        out = {"archive/cells": float(len(a)), "archive/eligible": float(len(self._keys)),
               "archive/start_share": self.starts / max(self.resets, 1),
               "archive/frontier_phase": float(self._frontier)}
        if len(a):
            prog = a.array("progress")
            out["archive/best_progress"] = float(prog.max())
            if len(self._keys):
                rows = [a.row_of(k) for k in self._keys]
                out["archive/eligible_progress"] = float(np.mean([prog[r] for r in rows if r is not None]))
        self.starts = self.resets = 0
        return out
