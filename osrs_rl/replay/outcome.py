"""How a recorded episode ended, in words a player uses: ``won``, ``lost``, ``draw``, ``killed``, ``died``,
``timed out``; else ``terminated`` / ``truncated`` / ``unfinished (recording stopped)``.

The words come from the episode's final metrics (re-simulated from the replay): the encounter's 0/1
outcome flags, which are ``truth.outcome_metrics`` when it declares them (``osrs_rl.runtime.truth``), else
its metrics named in :data:`OUTCOME_FLAGS`. Exactly one flag at 1 names the outcome. With none: a
truncated episode timed out, and a terminated one of an encounter that flags only ``won`` was lost.
"""

from __future__ import annotations

OUTCOME_FLAGS = ("won", "lost", "draw", "killed", "died", "timed_out")


def outcome_metrics(spec) -> tuple[str, ...]:
    truth = getattr(spec, "truth", None)
    declared = tuple(getattr(truth, "outcome_metrics", ()) or ())
    return declared or tuple(m for m in spec.metric_names if m in OUTCOME_FLAGS)


def outcome_from_metrics(spec, metrics: dict | None, terminated: bool, truncated: bool) -> str:
    """The outcome word for an episode whose final metrics are ``metrics`` (name -> number; None when the
    episode did not finish)."""
    if metrics is not None:
        flags = {m: metrics[m] for m in outcome_metrics(spec) if m in metrics and metrics[m] in (0, 1)}
        on = [m for m, v in flags.items() if v == 1]
        if len(on) == 1:
            return on[0].replace("_", " ")
        if not on and truncated:
            return "timed out"
        if not on and terminated and "won" in flags and "lost" not in flags:
            return "lost"
    if terminated:
        return "terminated"
    return "truncated" if truncated else "unfinished (recording stopped)"


def final_metrics(replay) -> dict | None:
    """The metrics the env reported when the replay's episode ended, re-simulated; None when it did not end."""
    from osrs_rl.replay.verify import replay_steps, start_env

    if not (replay.terminated or replay.truncated):
        return None
    env = start_env(replay)
    env.pop_metrics()
    for _ in replay_steps(replay, env):
        pass
    done = env.pop_metrics()
    if len(done["phase"]) != 1:
        return None
    return {name: float(done[name][0]) for name in env.spec.metric_names}


def replay_outcome(replay) -> str:
    """:func:`outcome_from_metrics` of the replay's re-simulated end; the plain flags when this build cannot
    re-simulate it."""
    from osrs_rl.replay.file import ReplayError
    from osrs_rl.runtime.registry import get_spec

    try:
        spec, metrics = get_spec(replay.encounter), final_metrics(replay)
    except (ReplayError, KeyError, ValueError):
        spec, metrics = None, None          # metrics None: only the flags are read
    return outcome_from_metrics(spec, metrics, replay.terminated, replay.truncated)
