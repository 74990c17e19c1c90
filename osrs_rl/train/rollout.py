"""Rollouts: step the envs, let the policy act, fill preallocated storage.

Storage layout (one rollout of ``T`` ticks over ``N`` envs; the learner is agent 0 of the encounter)::

    obs[t]       observation the policy acted on at tick t          [T + 1, N, obs]  (obs[T]: bootstrap)
    reset[t]     obs[t] starts an episode (recurrent state zeroed)  [T + 1, N]
    mask[t]      legal actions at t                                 [T, N, mask]
    action[t], logprob[t], value[t] (value[T]: the bootstrap value)
    reward[t], terminated[t], truncated[t]: what acting at t gave
    valid[t]     False on an autoreset tick: the env ignored the action (Gymnasium next-step mode)
    state0       recurrent state before tick 0                      [N, state]
    start[t]     obs[t] is of an archive start (the value's start-type input; 0 without archive starts)
    start_state[t]  where reset[t]: the recurrent state that episode starts from (an archive start's stored
                 one, else 0)                                       [T + 1, N, state]  (None: no archive starts
                 with a recurrent model)

With next-step autoreset the tick after an episode ends resets that env: its action is ignored and
it returns the first observation of the next episode. So ``valid[t] = not done[t - 1]`` and
``reset[t + 1] = done[t - 1]``; and after a truncation ``value[t + 1]`` is the value of the final
observation, the bootstrap a truncation needs (``osrs_rl.train.advantage``).

Overlap: with two env halves, a worker thread steps one half while the policy reads the other. The
compiled env kernels release the GIL (``nogil``) and so do torch's operators, so the two run at once.

On a CUDA device the storage is pinned host memory, so the observations go up and the actions come down
without blocking copies; the actions are the one thing the host must wait for each tick (the envs step on
them). The log-probabilities and values stay on the device in buffers of their own until the rollout ends,
then come down in one copy (``Collector.defer``); on a CPU every tensor is written into the storage as it is made.
"""

from __future__ import annotations

import queue
import threading
import time

import numpy as np
import torch

from osrs_rl.agent.distributions import sample_with_log_prob
from osrs_rl.train.training_replays import EpisodeTape


class RolloutStorage:
    """Preallocated rollout tensors on the host (``pin_memory``: page-locked, for asynchronous copies to and from
    a CUDA device); the update reads them per minibatch, or from a copy on the device (``update_fields``)."""

    def __init__(self, horizon: int, num_envs: int, obs_size: int, mask_size: int, num_heads: int,
                 state_size: int, archive_starts: bool = False, pin_memory: bool = False):
        T, N = horizon, num_envs
        self.horizon, self.num_envs = T, N

        def zeros(*shape, dtype=torch.float32):
            return torch.zeros(*shape, dtype=dtype, pin_memory=pin_memory)
        self.obs = zeros(T + 1, N, obs_size)
        self.reset = zeros(T + 1, N, dtype=torch.bool)
        self.mask = zeros(T, N, mask_size, dtype=torch.bool)
        self.action = zeros(T, N, num_heads, dtype=torch.int64)
        self.logprob = zeros(T, N)
        self.value = zeros(T + 1, N)
        self.reward = zeros(T, N)
        self.terminated = zeros(T, N, dtype=torch.bool)
        self.truncated = zeros(T, N, dtype=torch.bool)
        self.valid = zeros(T, N, dtype=torch.bool)
        self.state0 = zeros(N, state_size)
        self.start = zeros(T + 1, N)
        self.start_state = zeros(T + 1, N, state_size) if archive_starts and state_size else None

    UPDATE_FIELDS = ("obs", "reset", "mask", "action", "logprob", "value", "valid", "state0", "start", "start_state")
    """What an update's minibatches read (the advantages are computed on the host from the rest)."""

    def update_fields(self) -> dict[str, torch.Tensor]:
        """The tensors of ``UPDATE_FIELDS`` this storage holds, by name."""
        return {k: getattr(self, k) for k in self.UPDATE_FIELDS if getattr(self, k) is not None}


class _Half:
    """One VecEnv, the env columns it fills, and what carries over between ticks and rollouts."""

    def __init__(self, env, columns: slice, model, device):
        self.env = env
        self.columns = columns
        self.pending = np.zeros(env.num_envs, dtype=np.bool_)     # done last tick: this tick resets
        self.state = model.initial_state(env.num_envs, device)
        self.obs = None          # the latest observation/mask views of the env (valid until it steps)
        self.mask = None
        self.agents_obs = None   # the same for every agent (an opponent hook reads agent 1's)
        self.agents_mask = None
        self.first = torch.ones(env.num_envs, dtype=torch.bool)   # obs starts an episode
        self.tape = None         # an EpisodeTape when training replays are kept
        self.sent = None         # the actions of the step in flight
        self.restored = torch.zeros(env.num_envs, dtype=torch.bool)   # obs starts an archive start (state set)
        self.start = torch.zeros(env.num_envs)                        # 1.0 while an archive start runs


class Collector:
    """Fills a :class:`RolloutStorage` from one or two VecEnvs with the current policy.

    ``envs``: one VecEnv, or two (overlap). ``opponent_act(half_index, env, obs, mask, first)``,
    optional, returns agent 1's actions [envs, heads] for multi-agent encounters (a self-play league),
    given every agent's observation and mask ([envs, agents, ...] views) and which observations start an
    episode; without it agent 1 gets zeros (the no-op), which the encounter may replace (a scripted
    opponent). It runs once per tick of each half, while that half is not stepping.
    ``replays``, optional, a :class:`~osrs_rl.train.training_replays.TrainingReplays` offered every
    finished episode (of a normal start). ``starts``, optional, an :class:`~osrs_rl.explore.starts.ArchiveStarts`
    that turns some episode starts into archive starts and follows every env through the archive's cells;
    finished episodes' metrics then carry ``archive_start`` (1 for those). ``defer_copies``: keep the
    log-probabilities and values on the device until the rollout ends (default: on a CUDA device; module
    docstring); a test turns it on for a CPU, where it gives the same storage.
    """

    def __init__(self, envs, model, device, seed: int, opponent_act=None, reset_state: bool = True,
                 replays=None, starts=None, defer_copies: bool | None = None):
        self.envs = list(envs)
        self.model = model
        self.device = torch.device(device)
        self.spec = self.envs[0].spec
        self.head_sizes = tuple(int(h) for h in self.spec.head_sizes)
        self.multi_agent = self.spec.num_agents > 1
        self.opponent_act = opponent_act
        self.reset_state = reset_state
        self.generator = torch.Generator(device=self.device)
        self.generator.manual_seed(int(seed) % 2**63)
        start, self.halves = 0, []
        for env in self.envs:
            self.halves.append(_Half(env, slice(start, start + env.num_envs), model, self.device))
            start += env.num_envs
        self.num_envs = start
        self.episodes: list[dict] = []       # finished-episode metrics since the last pop
        self.timing = {"env": 0.0, "inference": 0.0}
        self.defer = self.device.type == "cuda" if defer_copies is None else bool(defer_copies)
        self._held: dict[str, torch.Tensor] = {}     # with defer: the device's logprob [T, N] and value [T + 1, N]
        self._jobs: queue.Queue | None = None
        self._done: list[queue.Queue] = []
        self._thread = None
        if len(self.envs) > 1:
            self._jobs = queue.Queue()
            self._done = [queue.Queue() for _ in self.envs]
            self._thread = threading.Thread(target=self._worker, name="osrs-rl-env", daemon=True)
            self._thread.start()
        self.replays = replays
        self.starts = starts
        # a value that reads the observation alone is left out of each tick's forward and computed for the whole
        # rollout in one batch after it (the same numbers up to float rounding, far fewer small matrix products)
        self.batched_values = bool(getattr(model, "value_reads_obs", False))
        for k, h in enumerate(self.halves):
            self._observe(h, *h.env.reset())
            if replays is not None:
                h.tape = EpisodeTape(h.env)
            if starts is not None:
                starts.begin(k)

    # ---- env side ------------------------------------------------------------------------------
    def _learner(self, arr):
        return arr[:, 0] if self.multi_agent else arr

    def _observe(self, h: _Half, obs, info) -> None:
        h.agents_obs, h.agents_mask = obs, info["action_mask"]
        h.obs, h.mask = self._learner(obs), self._learner(info["action_mask"])

    def _worker(self):
        while True:
            job = self._jobs.get()
            if job is None:
                return
            k, actions = job
            try:
                t0 = time.perf_counter()
                out = self.envs[k].step(actions)
                self._done[k].put((out, time.perf_counter() - t0))
            except BaseException as e:        # surfaces in the main thread
                self._done[k].put(e)

    def _submit(self, k: int, actions: np.ndarray):
        if self._thread is None:
            t0 = time.perf_counter()
            self._result = self.envs[k].step(actions)
            self.timing["env"] += time.perf_counter() - t0
        else:
            self._jobs.put((k, actions))

    def _collect(self, k: int):
        if self._thread is None:
            return self._result
        t0 = time.perf_counter()
        got = self._done[k].get()
        self.timing["env"] += time.perf_counter() - t0          # time the learner waited for the env
        if isinstance(got, BaseException):
            raise got
        return got[0]

    def close(self):
        if self._thread is not None:
            self._jobs.put(None)
            self._thread.join(timeout=10)
            self._thread = None

    # ---- one rollout -------------------------------------------------------------------------------
    @torch.no_grad()
    def collect(self, store: RolloutStorage) -> None:
        """Run ``store.horizon`` ticks in every env and fill ``store`` (values at T for bootstrapping)."""
        T = store.horizon
        if self.starts is not None:
            self.starts.refresh()
        if self.defer and (not self._held or self._held["value"].shape != store.value.shape):
            self._held = {"logprob": torch.zeros(store.logprob.shape, device=self.device),
                          "value": torch.zeros(store.value.shape, device=self.device)}
        for h in self.halves:
            store.state0[h.columns] = h.state.cpu()
        for t in range(T + 1):
            for k, h in enumerate(self.halves):
                if t > 0:
                    self._record_step(store, t - 1, k, h, self._collect(k))
                c = h.columns
                store.obs[t, c] = torch.from_numpy(h.obs)
                store.reset[t, c] = h.first
                store.start[t, c] = h.start
                if store.start_state is not None:
                    store.start_state[t, c] = torch.where(h.restored.unsqueeze(-1), h.state.cpu(), 0.0)
                if t == T:
                    if not self.batched_values:
                        t0 = time.perf_counter()
                        _, value, _ = self.model.step(store.obs[t, c].to(self.device), h.state,
                                                      self._reset_flags(h), self._start(h))
                        self._keep(store.value, "value", (t, c), value.float())
                        self.timing["inference"] += time.perf_counter() - t0
                    continue
                store.mask[t, c] = torch.from_numpy(h.mask)
                store.valid[t, c] = torch.from_numpy(~h.pending)
                t0 = time.perf_counter()
                actions = self._act(store, t, h)
                self.timing["inference"] += time.perf_counter() - t0
                if self.multi_agent:
                    both = np.zeros((h.env.num_envs, self.spec.num_agents, len(self.head_sizes)), np.int64)
                    both[:, 0] = actions
                    if self.opponent_act is not None:
                        t0 = time.perf_counter()
                        both[:, 1] = self.opponent_act(k, h.env, h.agents_obs, h.agents_mask, h.first)
                        self.timing["opponent"] = self.timing.get("opponent", 0.0) + time.perf_counter() - t0
                    actions = both
                h.sent = actions
                self._submit(k, actions)
        if self.batched_values:
            t0 = time.perf_counter()
            self._values(store)
            self.timing["inference"] += time.perf_counter() - t0
        if self.defer:
            t0 = time.perf_counter()
            for name, held in self._held.items():
                getattr(store, name).copy_(held, non_blocking=True)
            self._synchronize()
            self.timing["copy"] = self.timing.get("copy", 0.0) + time.perf_counter() - t0

    def _synchronize(self) -> None:
        """Wait for the device's queued work (its copies into the host's storage included); nothing on a CPU."""
        if self.device.type == "cuda":
            torch.cuda.current_stream(self.device).synchronize()

    def _keep(self, into: torch.Tensor, name: str, where, x: torch.Tensor) -> None:
        """``into[where] = x``, or with ``defer`` into the device's buffer of ``name`` (copied at the rollout's end)."""
        if self.defer:
            self._held[name][where] = x
        else:
            into[where] = x.cpu()

    def _values(self, store: RolloutStorage, rows: int = 8192) -> None:
        """Every tick's value (``T + 1`` of them, the last for bootstrapping) in batches of about ``rows``, so its
        memory does not grow with the rollout (an entity encoder holds a row per entity)."""
        ticks = max(1, rows // store.num_envs)
        for t in range(0, store.horizon + 1, ticks):
            obs = store.obs[t:t + ticks]
            start = store.start[t:t + ticks].reshape(-1).to(self.device) if self.starts is not None else None
            value = self.model.value_of(obs.reshape(-1, obs.shape[-1]).to(self.device, non_blocking=True), start)
            self._keep(store.value, "value", slice(t, t + ticks), value.float().view(obs.shape[:2]))

    def _reset_flags(self, h: _Half):
        """Where the model zeroes its recurrent state this tick (None: never, memory spans episodes). An archive
        start's state was set to the one stored with its cell: it is not zeroed."""
        return (h.first & ~h.restored).to(self.device) if self.reset_state else None

    def _start(self, h: _Half):
        """The value's start-type input for half ``h`` (None without archive starts: the model reads zeros)."""
        return h.start.to(self.device) if self.starts is not None else None

    def _act(self, store: RolloutStorage, t: int, h: _Half) -> np.ndarray:
        c = h.columns
        obs = store.obs[t, c].to(self.device, non_blocking=True)
        mask = store.mask[t, c].to(self.device, non_blocking=True)
        if self.batched_values:
            logits, h.state = self.model.act(obs, h.state, self._reset_flags(h))
        else:
            logits, value, h.state = self.model.step(obs, h.state, self._reset_flags(h), self._start(h))
            self._keep(store.value, "value", (t, c), value.float())
        action, logprob = sample_with_log_prob(logits, mask, self.head_sizes, self.generator)
        self._keep(store.logprob, "logprob", (t, c), logprob)
        if self.defer:
            store.action[t, c].copy_(action, non_blocking=True)   # into pinned memory, queued behind the forward
            self._synchronize()                                    # the envs step on these: the tick's one wait
        else:
            store.action[t, c] = action.cpu()
        return store.action[t, c].numpy()

    def _record_step(self, store: RolloutStorage, t: int, k: int, h: _Half, out) -> None:
        obs, reward, terminated, truncated, info = out
        c = h.columns
        store.reward[t, c] = torch.from_numpy(np.asarray(self._learner(reward), dtype=np.float32))
        store.terminated[t, c] = torch.from_numpy(terminated)
        store.truncated[t, c] = torch.from_numpy(truncated)
        # the tick after an end reset the env: its observation starts an episode
        was_reset = h.pending.copy()
        h.first = torch.from_numpy(was_reset)
        h.pending = terminated | truncated
        self._observe(h, obs, info)
        if h.tape is not None:
            finished = h.tape.record(h.sent, reward, h.pending, was_reset)
            if finished and self.starts is not None:      # replays are of normal starts
                kinds = self.starts.kinds(k, [f.index for f in finished])
                finished = [f for f, archive in zip(finished, kinds, strict=True) if not archive]
            if finished:
                self.replays.offer(finished, terminated, truncated, self._episode_meta(h))
        if h.pending.any() or h.first.any():
            ended = h.env.finished_last_step()[0] if self.starts is not None else None
            m = h.env.pop_metrics()
            if len(m["phase"]):
                if ended is not None:
                    m["archive_start"] = self.starts.kinds(k, ended).astype(np.float64)
                self.episodes.append(m)
        if self.starts is not None:
            self._archive_step(k, h, reward, was_reset)

    def _archive_step(self, k: int, h: _Half, reward, was_reset: np.ndarray) -> None:
        """Let the archive follow the tick and start the episodes it reset; restored envs take the stored state."""
        restored, hidden = self.starts.after_step(k, h.sent, np.asarray(self._learner(reward)), h.pending, was_reset)
        h.restored = torch.zeros(h.env.num_envs, dtype=torch.bool)
        if len(restored):
            ids = torch.from_numpy(restored)
            h.restored[ids] = True
            if hidden is not None:
                h.state[ids.to(h.state.device)] = torch.from_numpy(hidden).to(h.state.device, h.state.dtype)
            if h.tape is not None:
                h.tape.restart(restored)
        h.start = torch.from_numpy(self.starts.start_flags(k))

    def _episode_meta(self, h: _Half):
        """``meta(i)`` for a replay of env ``i`` of half ``h``: where it ran and, with an opponent hook,
        against whom (read now: the finished episode's opponent, until the env's next reset)."""
        control = self.spec.opponents
        scripted, tier, slot = control.current(h.env) if control is not None else (None, None, None)
        offset = h.columns.start

        def meta(i: int) -> dict:
            out = {"source": "training", "env": offset + i}
            if scripted is not None:
                out["opponent"] = control.tier_names[tier[i]] if scripted[i] else f"policy slot {int(slot[i])}"
            return out
        return meta

    def pop_episodes(self) -> dict[str, np.ndarray]:
        """Metrics of the episodes finished since the last call (arrays per name, plus phase)."""
        if not self.episodes:
            return {}
        out = {k: np.concatenate([e[k] for e in self.episodes]) for k in self.episodes[0]}
        self.episodes.clear()
        return out
