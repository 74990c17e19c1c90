"""A policy's view of a recorded episode: its value and action probabilities at every tick.

Training replays are cut from the rollouts, which keep no per-env probabilities across iterations
(they would cost the mask size in floats per env and tick). When one is written, the current policy
is run over the episode instead: the replay's start snapshot is restored, the recorded actions are
stepped, and at each tick the policy reads the observation (its recurrent state carried from the
episode's first tick) and gives its value and probabilities. The actions stay those the policy of
their time sampled; the replay's meta says at which step the view was taken.
"""

from __future__ import annotations

import numpy as np
import torch

from osrs_rl.agent.policy import policy_note, policy_step
from osrs_rl.replay.file import Replay
from osrs_rl.replay.verify import replay_steps, start_env


@torch.no_grad()
def policy_view(replay: Replay, model) -> tuple[np.ndarray, list[np.ndarray]]:
    """``model``'s value (float32 ``[ticks]``) and probabilities per head (float32 ``[ticks, size]``)
    for agent 0 at each tick of ``replay``, before that tick's action."""
    env = start_env(replay)
    spec = env.spec
    heads = tuple(int(h) for h in spec.head_sizes)
    device = next(model.parameters()).device
    state = model.initial_state(1, device)
    first = torch.ones(1, dtype=torch.bool, device=device)
    values = np.zeros(replay.ticks, dtype=np.float32)
    probs = [np.zeros((replay.ticks, n), dtype=np.float32) for n in heads]

    def look(t: int) -> None:
        nonlocal state
        dist, value, state = policy_step(model, env._obs_view, env.action_mask(), state, first, heads,
                                         spec.num_agents)
        note = policy_note(dist, value, heads)
        values[t] = note["value"]
        for h in range(len(heads)):
            probs[h][t] = note["probs"][h]

    if replay.ticks:
        look(0)
    for t, _ in replay_steps(replay, env):
        if t + 1 < replay.ticks:
            look(t + 1)
    return values, probs


def with_policy_view(replay: Replay, model, global_step: int) -> Replay:
    """``replay`` with ``model``'s values and probabilities filled in (in place, returned) and its
    meta noting the step they were taken at (the actions are the recorded ones)."""
    was_training = model.training
    model.eval()
    try:
        replay.values, replay.probs = policy_view(replay, model)
    finally:
        model.train(was_training)
    replay.meta["policy_view"] = {
        "global_step": int(global_step),
        "note": "values and probabilities of the policy at this step, run over the recorded episode; "
                "its actions were sampled by the policy of their time",
    }
    return replay
