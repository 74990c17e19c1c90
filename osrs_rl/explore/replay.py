"""A replay of how a run reached an archive cell, for the viewer (``osrs-rl archive show FILE --cell KEY
--replay OUT``): the parent cell's state with the RNG the chunk began from, then the chunk's actions, which
end on the cell's stored state exactly when the encounter is deterministic (it is checked, and said). A cell
whose chunk does not replay (its parent's state was replaced since, or the stretch was too long to keep)
gives its own state and one idle tick."""

from __future__ import annotations

import numpy as np

from osrs_rl.replay.file import Replay
from osrs_rl.replay.record import state_digest, state_record, tick_digest
from osrs_rl.runtime.recording import user_settings
from osrs_rl.runtime.registry import make


def cell_replay(archive, row: int) -> tuple[Replay, bool]:
    """(the replay, whether it ends on the cell's stored record exactly)."""
    spec = archive.spec
    env = make(spec.name, num_envs=1, **archive.config)
    replayable = archive.replayable(row)
    start = archive.chunk_start(row) if replayable else archive.records[row]
    initial = env.snapshot_of_record(start)
    env.restore(0, initial)
    actions = archive.chunks[row].astype(np.int64) if replayable else \
        np.zeros((1, spec.num_agents, spec.num_heads), np.int64)
    rewards, hashes = [], []
    terminated = truncated = False
    for act in actions:
        _, rew, term, trunc, _ = env.step(act if env.single_agent else act[None])
        rewards.append(np.array(rew[0], dtype=np.float32).reshape(spec.num_agents))
        hashes.append(tick_digest(state_record(env)))
        terminated, truncated = bool(term[0]), bool(trunc[0])
        if terminated or truncated:
            break
    ticks = len(rewards)
    final = state_record(env)
    replay = Replay(spec.name, spec.version, user_settings(env), initial, actions[:ticks].copy(),
                    np.array(rewards, dtype=np.float32).reshape(ticks, spec.num_agents), terminated, truncated,
                    state_digest(final), np.array(hashes, dtype=np.uint64),
                    meta={"source": "archive", "cell": int(archive.keys[row]),
                          "from": "parent cell" if replayable else "cell state"})
    replay.validate()
    return replay, replayable and final == archive.records[row]
