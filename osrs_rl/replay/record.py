"""Making replays: from a runtime recording, or by playing one episode with a callable.

    replay = record_policy_episode("template", {"max_ticks": 50}, act_fn, seed=3)
    save_replay("runs/x/replays/0.orlr", replay)

``act_fn(env, obs, info)`` returns the env's actions for the tick (shape ``[1, heads]``, or
``[1, agents, heads]`` for several agents), or ``(actions, notes)`` where ``notes`` annotates agent 0:
``{"value": float, "probs": [per-head probabilities], "reward_components": {name: float}}`` (any subset,
the same keys every tick). When the encounter declares ``reward_terms`` and ``act_fn`` gives no
``reward_components``, the recorder adds them itself from the terms the state holds after each tick.
"""

from __future__ import annotations

import hashlib

import numpy as np

from osrs_rl.replay.file import Replay, ReplayError
from osrs_rl.runtime.recording import RecordedEpisode, user_settings
from osrs_rl.runtime.registry import get_spec, make
from osrs_rl.runtime.rewards import tick_terms

NOTE_KEYS = ("value", "probs", "reward_components")


def state_digest(record: bytes) -> str:
    """sha256 hex of one state record's bytes: the replay's final-state check."""
    return hashlib.sha256(record).hexdigest()


def tick_digest(record: bytes) -> int:
    """A 64-bit digest of one state record's bytes: the per-tick check that finds the first diverging tick."""
    return int.from_bytes(hashlib.blake2b(record, digest_size=8).digest(), "little")


def state_record(env, i: int = 0) -> bytes:
    """Env ``i``'s state record as raw bytes."""
    return env.states[i:i + 1].tobytes()


def user_config(spec, config: dict) -> dict:
    """The user settings of ``config`` (derived fields dropped), as plain Python values."""
    out = {}
    for f in spec.config_fields:
        if not f.derived and f.name in config:
            v = config[f.name]
            out[f.name] = v.item() if isinstance(v, np.generic | np.ndarray) else v
    return out


def record_episode(episode: RecordedEpisode, rewards, terminated: bool, truncated: bool, final_state,
                   state_hashes=None, notes: list[dict] | None = None, meta: dict | None = None) -> Replay:
    """A Replay from an ``EpisodeRecorder`` episode plus what the live run returned: ``rewards``
    [ticks, agents] (or [ticks] for one agent), the last tick's flags, and the final state record
    (raw bytes, or a one-record array of the state dtype). ``notes``: one dict per tick, as act_fn's."""
    spec = get_spec(episode.encounter)
    ticks = len(episode.actions)
    rewards = np.asarray(rewards, dtype=np.float32).reshape(ticks, spec.num_agents)
    if not isinstance(final_state, bytes):
        final_state = np.ascontiguousarray(final_state).tobytes()
    if state_hashes is not None:
        state_hashes = np.asarray(state_hashes, dtype=np.uint64)
    replay = Replay(episode.encounter, episode.version, user_config(spec, episode.config), episode.initial_snapshot,
                    np.asarray(episode.actions, dtype=np.int64), rewards, bool(terminated), bool(truncated),
                    state_digest(final_state), state_hashes, meta=dict(meta or {}))
    _attach_notes(replay, notes or [], spec)
    replay.validate()
    return replay


def record_policy_episode(env_name: str, config: dict | None, act_fn, seed: int = 0, max_ticks: int | None = None,
                          meta: dict | None = None) -> Replay:
    """Play one episode of ``env_name`` in a 1-env VecEnv, actions from ``act_fn`` (see the module
    docstring), recording everything; stops when the episode ends or after ``max_ticks`` ticks."""
    env = make(env_name, num_envs=1, seed=seed, **dict(config or {}))
    spec = env.spec
    obs, info = env.reset()
    initial = env.snapshot(0)
    actions, rewards, hashes, notes = [], [], [], []
    terminated = truncated = False
    while max_ticks is None or len(actions) < max_ticks:
        out = act_fn(env, obs, info)
        act, note = out if isinstance(out, tuple) else (out, None)
        act = np.array(act)                              # a copy: act_fn may reuse its buffer
        obs, rew, term, trunc, info = env.step(act)      # checks the actions' shape and range
        if spec.reward_terms and (note is None or "reward_components" not in note):
            note = {**(note or {}), "reward_components": tick_terms(spec, env.states[0])}
        actions.append(act.astype(np.int64).reshape(spec.num_agents, spec.num_heads))
        rewards.append(np.array(rew[0], dtype=np.float32).reshape(spec.num_agents))   # a copy: rew is a view
        hashes.append(tick_digest(state_record(env)))
        if note is not None:
            notes.append(note)
        elif notes:
            raise ReplayError(f"act_fn returned notes until tick {len(notes) - 1} but none at tick {len(actions) - 1}")
        terminated, truncated = bool(term[0]), bool(trunc[0])
        if terminated or truncated:
            break
    ticks = len(actions)
    replay = Replay(spec.name, spec.version, user_settings(env), initial,
                    np.array(actions, dtype=np.int64).reshape(ticks, spec.num_agents, spec.num_heads),
                    np.array(rewards, dtype=np.float32).reshape(ticks, spec.num_agents), terminated, truncated,
                    state_digest(state_record(env)), np.array(hashes, dtype=np.uint64), meta=dict(meta or {}))
    _attach_notes(replay, notes, spec)
    replay.validate()
    return replay


def _attach_notes(replay: Replay, notes: list[dict], spec) -> None:
    """Stack per-tick notes into the replay's annotation arrays."""
    if not notes:
        return
    if len(notes) != replay.ticks:
        raise ReplayError(f"{len(notes)} ticks of notes for {replay.ticks} ticks of actions")
    keys = set(notes[0])
    if keys - set(NOTE_KEYS):
        raise ReplayError(f"unknown note key(s) {sorted(keys - set(NOTE_KEYS))}; notes may hold {list(NOTE_KEYS)}")
    for t, n in enumerate(notes):
        if set(n) != keys:
            raise ReplayError(f"notes at tick {t} have keys {sorted(n)}; tick 0 had {sorted(keys)}")
    if "value" in keys:
        replay.values = np.array([float(n["value"]) for n in notes], dtype=np.float32)
    if "probs" in keys:
        replay.probs = []
        for h, head in enumerate(spec.action_heads):
            p = np.array([np.asarray(n["probs"][h], dtype=np.float32).reshape(-1) for n in notes], dtype=np.float32)
            if p.shape != (replay.ticks, head.size):
                raise ReplayError(f"probs of head {head.name!r} have shape {p.shape}; expected "
                                  f"({replay.ticks}, {head.size})")
            replay.probs.append(p)
    if "reward_components" in keys:
        names = list(notes[0]["reward_components"])
        for t, n in enumerate(notes):
            if list(n["reward_components"]) != names:
                raise ReplayError(f"reward components at tick {t} are {list(n['reward_components'])}; "
                                  f"tick 0 had {names}")
        replay.reward_components = {k: np.array([n["reward_components"][k] for n in notes], dtype=np.float32)
                                    for k in names}
