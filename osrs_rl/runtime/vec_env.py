"""VecEnv: N envs of one encounter in one structured array, stepped by one compiled call.

    env = osrs_rl.make("template", num_envs=1024, seed=0)
    obs, info = env.reset()
    obs, reward, terminated, truncated, info = env.step(actions)   # actions: int [N, heads]

Buffers are allocated once; ``step`` returns views of them that the next call overwrites (copy
what you keep). The returned mask is a copy of the one the runtime checks actions against, so
editing it changes nothing. Shapes carry an
agent axis only for multi-agent encounters: obs is [N, obs_size] for one agent, [N, agents,
obs_size] for several; likewise rewards [N] or [N, agents] and actions [N, heads] or [N, agents, heads].

Autoreset follows Gymnasium's next-step mode (``metadata["autoreset_mode"]``): the step that ends an
episode returns its final observation with terminated/truncated set; the next ``step`` resets that
env, ignores its actions and returns the first observation with reward 0. Masked actions (legal
range but not allowed now) are replaced by 0, the no-op, and counted in ``info["invalid_actions"]``;
out-of-range values raise ``ValueError`` and change nothing.
"""

from __future__ import annotations

import warnings

import numba
import numpy as np

from osrs_rl.runtime import kernels as K
from osrs_rl.runtime import snapshot as snap
from osrs_rl.runtime.bounds import check_records
from osrs_rl.runtime.config import build_config
from osrs_rl.runtime.spec import EncounterSpec

AUTORESET_MODE = "next_step"
MAX_LOGGED_EPISODES = 100_000   # finished-episode metrics kept until pop_metrics (oldest dropped, counted)


def _is_int(x) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def bytes_per_env(spec: EncounterSpec) -> int:
    """One env's rows in a VecEnv (its state, the step buffers per agent, the finished-episode metrics):
    what ``num_envs`` multiplies, for an estimate before allocating."""
    per_agent = spec.obs_size * 4 * 2 + spec.mask_size * 2 + spec.num_heads * 8 + 8    # obs, masks, actions, reward
    return spec.state_dtype.itemsize + spec.num_agents * per_agent + spec.metric_dtype.itemsize * 2 + 64


def _check_seed(seed) -> None:
    if not _is_int(seed) or not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an integer in [0, 2**64), got {seed!r}")


class VecEnv:
    metadata = {"autoreset_mode": AUTORESET_MODE}

    def __init__(self, spec: EncounterSpec, num_envs: int = 1, seed: int = 0, threads: int = 1, **config):
        if not _is_int(num_envs) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        if not _is_int(threads) or threads < 1:
            raise ValueError(f"threads must be a positive integer, got {threads!r}")
        _check_seed(seed)
        self.spec = spec
        self.num_envs = int(num_envs)
        most = numba.config.NUMBA_NUM_THREADS
        if threads > most:
            warnings.warn(f"threads={threads} is more than Numba's NUMBA_NUM_THREADS={most}; this env uses {most} "
                          "(set NUMBA_NUM_THREADS before importing numba for more)", RuntimeWarning, stacklevel=2)
        self.threads = min(int(threads), most)
        self.seed = int(seed)
        self.config = build_config(spec, config)
        self._kernels = K.bound_kernels(spec)
        try:
            self._allocate()
        except MemoryError:          # numpy's ArrayMemoryError names a shape; say what was asked instead
            row = bytes_per_env(spec)
            raise MemoryError(f"{self.num_envs:,} {spec.name} envs need about {self.num_envs * row / 1e9:.1f} GB "
                              f"({row:,} bytes each) and that much memory is not free") from None

    def _allocate(self) -> None:
        spec = self.spec
        n, a = self.num_envs, spec.num_agents
        # ---- state and bookkeeping (one row per env) ----
        self.states = np.zeros(n, dtype=spec.state_dtype)
        self._carried = K.carried_bytes(spec)    # the bytes a reset keeps (the spec's carried_fields)
        self._episodes = np.full(n, -1, dtype=np.int64)
        self._needs_reset = np.zeros(n, dtype=np.bool_)
        self._head_sizes = spec.head_sizes
        self._head_offsets = np.concatenate(([0], np.cumsum(self._head_sizes)[:-1])).astype(np.int64)
        # ---- buffers the kernels write, allocated once ----
        self._actions = np.zeros((n, a, spec.num_heads), dtype=np.int64)
        self._rewards = np.zeros((n, a), dtype=np.float32)
        self._terminated = np.zeros(n, dtype=np.bool_)
        self._truncated = np.zeros(n, dtype=np.bool_)
        self._obs = np.zeros((n, a, spec.obs_size), dtype=np.float32)
        self._masks = np.zeros((n, a, spec.mask_size), dtype=np.bool_)
        self._invalid = np.zeros(n, dtype=np.int64)
        self._finished = np.zeros(n, dtype=np.bool_)
        # one record per env of the spec's metric dtype (the kernel writes it by name); the packed rows read
        # as float64 [n, num_metrics], a column per name in spec.metric_names
        self._finished_metrics = spec.metric_record.zeros(n)
        self._finished_phase = np.zeros(n, dtype=np.int64)
        self._done_envs = np.zeros(n, dtype=np.int64)
        self._done_metrics = spec.metric_record.zeros(n)
        self._done_rows = spec.metric_record.rows(self._done_metrics)
        self._done_phase = np.zeros(n, dtype=np.int64)
        self._episode_log: list[tuple[np.ndarray, np.ndarray]] = []
        self._recorders: list = []
        self._all_started = False
        self._action_shape = (n, spec.num_heads) if a == 1 else (n, a, spec.num_heads)
        self.single_agent = a == 1
        # views in the user's shape, made once (they stay valid: the buffers never move)
        self._started = np.zeros(n, dtype=np.bool_)   # reset or restored at least once
        self._logged = 0
        self.episodes_dropped = 0    # finished episodes whose metrics the log dropped (over MAX_LOGGED_EPISODES)
        self._warned_drop = False
        self._mask_out = np.zeros_like(self._masks)    # the user's copy: editing it cannot change legality
        self._obs_view = self._agent_view(self._obs)
        self._rewards_view = self._agent_view(self._rewards)
        self._mask_view = self._agent_view(self._mask_out)
        self._info = {"action_mask": self._mask_view, "invalid_actions": self._invalid}
        self.tick = 0
        self._done_count = 0

    # ---- views in the user's shape -----------------------------------------------------------
    def _agent_view(self, arr):
        return arr[:, 0] if self.single_agent else arr

    def action_mask(self) -> np.ndarray:
        """Legal actions for every env, concatenated over heads: bool [N, mask_size] (or [N, agents, ...])."""
        return self._mask_view

    def head_masks(self) -> dict[str, np.ndarray]:
        """The action mask split by head name."""
        m = self.action_mask()
        return {name: m[..., sl] for name, sl in self.spec.mask_slices().items()}

    # ---- the Gymnasium-style API ---------------------------------------------------------------
    def reset(self, seed: int | None = None):
        """Start a new episode in every env; returns (obs, info)."""
        if seed is not None:
            _check_seed(seed)
            self.seed = int(seed)
            self._episodes[:] = -1
        idx = np.arange(self.num_envs, dtype=np.int64)
        self._kernels.reset(self.states, self.config, np.uint64(self.seed), self._episodes, self._needs_reset, idx,
                            self._obs, self._masks, self._carried)
        self._started[:] = True
        np.copyto(self._mask_out, self._masks)
        self.tick = 0
        self._done_count = 0
        for r in self._recorders:
            r.on_reset(self, idx)
        return self._obs_view, {"action_mask": self._mask_view}

    def _actions_view(self, actions) -> np.ndarray:
        """The caller's actions as an integer [envs, agents, heads] view (no copy when possible)."""
        a = actions if isinstance(actions, np.ndarray) else np.asarray(actions)
        self._user_actions = a         # the values as given, for error messages (int64 wraps 2**64 - 1 to -1)
        if a.shape != self._action_shape:
            raise ValueError(f"actions must have shape {self._action_shape} (envs, "
                             f"{'' if self.single_agent else 'agents, '}heads "
                             f"{[h.name for h in self.spec.action_heads]}), got {a.shape}")
        if a.dtype.kind not in "iu":
            raise ValueError(f"actions must be integers, got dtype {a.dtype}")
        if a.dtype != np.int64 or not a.flags.c_contiguous:
            a = np.ascontiguousarray(a, dtype=np.int64)
        return a.reshape(self._actions.shape)

    def _raise_bad_action(self, src: np.ndarray, bad: int) -> None:
        env, rest = divmod(bad, self.spec.num_agents * self.spec.num_heads)
        agent, h = divmod(rest, self.spec.num_heads)
        head = self.spec.action_heads[h]
        value = self._user_actions.reshape(-1)[bad].item()
        who = "" if self.single_agent else f" of agent {agent} ({self.spec.agents[agent]!r})"
        raise ValueError(f"action {value} for head {head.name!r}{who} is out of range "
                         f"0..{head.size - 1} (env {env})")

    def step(self, actions):
        """Advance every env one tick; returns (obs, reward, terminated, truncated, info).

        Invalid input (shape, dtype, a value outside its head's range) raises ValueError before any
        env changes.
        """
        if not self._all_started:
            if not self._started.all():
                raise RuntimeError(f"{int((~self._started).sum())} env(s) have never been reset or restored: "
                                   "call reset() (or restore every env) before step()")
            self._all_started = True
        src = self._actions_view(actions)
        resetting = np.flatnonzero(self._needs_reset) if self._recorders else None
        if self._recorders and (bad := int(K.first_bad_action(src, self._head_sizes))) >= 0:
            self._raise_bad_action(src, bad)
        for r in self._recorders:
            r.on_actions(self, src, ~self._needs_reset)
        if self.threads > 1:
            numba.set_num_threads(self.threads)
            kernel = self._kernels.step_parallel
        else:
            kernel = self._kernels.step
        bad, done = kernel(src, self.states, self.config, self._episodes, self._needs_reset, self._actions,
                           self._head_sizes, self._head_offsets, self._rewards, self._terminated, self._truncated,
                           self._obs, self._masks, self._invalid, self._finished,
                           self._finished_metrics, self._finished_phase, self._done_envs, self._done_metrics,
                           self._done_phase, self._carried)
        if bad >= 0:
            self._raise_bad_action(src, int(bad))
        self.tick += 1
        if resetting is not None and len(resetting):
            for r in self._recorders:
                r.on_reset(self, resetting)
        np.copyto(self._mask_out, self._masks)
        self._done_count = done
        if done:
            self._log_episodes(self._done_rows[:done].copy(), self._done_phase[:done].copy())
            for r in self._recorders:
                r.on_finished(self, self._done_envs[:done].copy())
        return self._obs_view, self._rewards_view, self._terminated, self._truncated, self._info

    def _log_episodes(self, metrics: np.ndarray, phases: np.ndarray) -> None:
        self._episode_log.append((metrics, phases))
        self._logged += len(phases)
        while self._logged > MAX_LOGGED_EPISODES and len(self._episode_log) > 1:
            dropped = len(self._episode_log.pop(0)[1])
            self._logged -= dropped
            self.episodes_dropped += dropped

    # ---- finished-episode metrics ----------------------------------------------------------------
    def finished_last_step(self) -> tuple[np.ndarray, np.ndarray]:
        """The envs whose episode ended in the last ``step`` and those episodes' metrics
        (``[k]`` env indices, ``[k, num_metrics]``), as copies."""
        k = self._done_count
        return self._done_envs[:k].copy(), self._done_rows[:k].copy()

    def phases_last_step(self) -> np.ndarray:
        """The phase index (``spec.phase_names``) each episode of :meth:`finished_last_step` ended in, in its
        order, as a copy."""
        return self._done_phase[:self._done_count].copy()

    def pop_metrics(self) -> dict[str, np.ndarray]:
        """Metrics of all episodes finished since the last call, one array per metric name, plus
        ``phase`` (index) and ``phase_name``; empties the log. The log keeps the newest
        ``MAX_LOGGED_EPISODES``: older ones are dropped, counted in ``episodes_dropped`` (with a
        warning the first time), so call it at least that often."""
        if self.episodes_dropped and not self._warned_drop:
            self._warned_drop = True
            warnings.warn(f"pop_metrics: the metrics of {self.episodes_dropped} finished episodes were dropped "
                          f"(the log keeps the newest {MAX_LOGGED_EPISODES}; env.episodes_dropped counts them)",
                          RuntimeWarning, stacklevel=2)
        if self._episode_log:
            m = np.concatenate([x for x, _ in self._episode_log])
            p = np.concatenate([y for _, y in self._episode_log])
        else:
            m = np.zeros((0, self.spec.num_metrics))
            p = np.zeros(0, dtype=np.int64)
        self._episode_log.clear()
        self._logged = 0
        out = {name: m[:, k] for k, name in enumerate(self.spec.metric_names)}
        out["phase"] = p
        out["phase_name"] = np.array([self.spec.phase_names[i] for i in p], dtype=object)
        return out

    # ---- snapshot / restore ------------------------------------------------------------------------
    def _index(self, idx) -> int:
        if not _is_int(idx) or not 0 <= idx < self.num_envs:
            raise IndexError(f"env index {idx!r} out of range 0..{self.num_envs - 1}")
        return int(idx)

    def snapshot(self, idx: int) -> bytes:
        """Env ``idx``'s whole state as bytes: a header, its pending-autoreset flag, the record."""
        return self._snapshot(np.array([self._index(idx)], dtype=np.int64), batch=False)

    def restore(self, idx: int, blob: bytes) -> None:
        """Set env ``idx`` to a snapshot; a blob that does not fit raises and changes nothing.
        Restoring and then stepping the same actions reproduces the snapshotted run exactly."""
        self._restore(np.array([self._index(idx)], dtype=np.int64), blob, batch=False)

    def snapshot_of_record(self, record: bytes) -> bytes:
        """The ``snapshot`` of an env that holds ``record`` (raw bytes of one ``states`` row) with no
        autoreset pending: for callers that keep raw records and want snapshots only of a few."""
        if len(record) != self.spec.state_dtype.itemsize:
            raise snap.SnapshotError(f"a {self.spec.name} state record has {self.spec.state_dtype.itemsize} bytes, "
                                f"got {len(record)}")
        return snap.pack(self.spec.name, self.spec.version, self.spec.state_dtype, b"\x00", bytes(record))

    def snapshot_batch(self, indices) -> bytes:
        """The states of ``indices`` as one blob (a header, then flags and records back to back)."""
        return self._snapshot(self._indices(indices), batch=True)

    def restore_batch(self, indices, blob: bytes) -> None:
        """Restore a ``snapshot_batch`` blob into ``indices`` (same count, any envs)."""
        self._restore(self._indices(indices), blob, batch=True)

    def _snapshot(self, idx: np.ndarray, batch: bool) -> bytes:
        rows = self.states.view(np.uint8).reshape(self.num_envs, -1)[idx]
        return snap.pack(self.spec.name, self.spec.version, self.spec.state_dtype,
                         self._needs_reset[idx].astype(np.uint8).tobytes(), rows.tobytes(), batch=batch)

    def _restore(self, idx: np.ndarray, blob: bytes, batch: bool) -> None:
        flags, body = snap.check_blob(blob, self.spec.name, self.spec.version, self.spec.state_dtype,
                                      len(idx) if batch else None)
        self.check_states(np.frombuffer(body, dtype=self.spec.state_dtype), idx)
        rows = self.states.view(np.uint8).reshape(self.num_envs, -1)
        rows[idx] = np.frombuffer(body, dtype=np.uint8).reshape(len(idx), -1)
        self._after_state_change(idx, pending_reset=flags)

    def check_states(self, records: np.ndarray, envs=None) -> None:
        """Raise ``bounds.InvalidStateError`` unless every index-like field of ``records`` lies in the
        range the encounter declares (``spec.state_bounds``); ``envs`` (the rows they are meant for)
        only names the env in the message. ``restore``, ``restore_batch`` and ``set_states`` call it
        before writing."""
        check_records(records, self.config[0], self.spec.state_bounds, envs)

    def _indices(self, indices) -> np.ndarray:
        if isinstance(indices, range):
            indices = np.arange(indices.start, indices.stop, indices.step, dtype=np.int64)
        raw = np.asarray(indices)
        if raw.size and (raw.dtype.kind not in "iu"):
            raise IndexError(f"env indices must be integers, got dtype {raw.dtype} ({raw.reshape(-1)[:4].tolist()}"
                             f"{' ...' if raw.size > 4 else ''})")
        if raw.size and raw.dtype.kind == "u" and raw.max() >= self.num_envs:
            raise IndexError(f"env indices must lie in 0..{self.num_envs - 1}, got {raw.max()}")
        idx = raw.astype(np.int64).reshape(-1)
        if idx.size and (idx.min() < 0 or idx.max() >= self.num_envs):
            raise IndexError(f"env indices must lie in 0..{self.num_envs - 1}")
        if len(np.unique(idx)) != len(idx):
            raise IndexError("env indices must not repeat")
        return idx

    def set_states(self, indices, records: np.ndarray, checked: bool = False) -> None:
        """Copy state records (e.g. a start-state set) into the envs ``indices``. ``checked``: the caller has
        already passed these records through ``check_states`` (an archive checks its records once, when it
        is loaded, not on every restore)."""
        indices = self._indices(indices)
        records = np.asarray(records)
        if records.dtype != self.spec.state_dtype:
            raise ValueError(f"records must have the {self.spec.name!r} state dtype, got {records.dtype}")
        if records.shape != (len(indices),):
            raise ValueError(f"{len(indices)} indices but records of shape {records.shape}")
        if not checked:
            self.check_states(records, indices)
        rows = self.states.view(np.uint8).reshape(self.num_envs, -1)
        rows[indices] = records.view(np.uint8).reshape(len(indices), -1)
        self._after_state_change(indices)

    def get_states(self, indices=None) -> np.ndarray:
        """A copy of the state records of ``indices`` (all envs by default)."""
        if indices is None:
            return self.states.copy()
        return self.states[self._indices(indices)]

    def _after_state_change(self, indices: np.ndarray, pending_reset=False) -> None:
        self._needs_reset[indices] = pending_reset
        self._started[indices] = True
        self._kernels.refresh(self.states, self.config, indices, self._obs, self._masks)
        np.copyto(self._mask_out, self._masks)
        for r in self._recorders:
            r.on_reset(self, indices)

    # ---- recording hook ------------------------------------------------------------------------------
    def add_recorder(self, recorder) -> None:
        """Attach an object with ``on_reset(env, indices)`` (episodes starting), ``on_actions(env, actions,
        stepping)`` (before each tick: actions [N, agents, heads] and which envs step rather than reset)
        and ``on_finished(env, indices)`` (see ``osrs_rl.runtime.recording.EpisodeRecorder``)."""
        self._recorders.append(recorder)

    def remove_recorder(self, recorder) -> None:
        self._recorders.remove(recorder)

    def __repr__(self) -> str:
        return (f"VecEnv({self.spec.name!r}, num_envs={self.num_envs}, threads={self.threads}, "
                f"agents={self.spec.num_agents}, heads={[h.name for h in self.spec.action_heads]})")
