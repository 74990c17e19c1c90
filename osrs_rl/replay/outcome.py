"""How a recorded episode ended, in words a player uses: the name of the encounter's outcome metric that
is 1 (``won``, ``lost``, ``draw``, ``killed``, ``died``, ``timed out``); else ``terminated`` / ``truncated``
/ ``unfinished (recording stopped)``.

The words come from the episode's final metrics (re-simulated from the replay) and the encounter's
declared outcome (``EncounterSpec.outcome``, ``osrs_rl.runtime.spec.Outcome``): exactly one flag at 1
names the outcome. With none: a truncated episode timed out, and a terminated one of an encounter that
declares no failure metric was lost (it ended and was not a success).
"""

from __future__ import annotations

WIN, LOSS, TIMEOUT, OTHER = "success", "failure", "timeout", "other"


def outcome_metrics(spec) -> tuple[str, ...]:
    """The spec's declared 0/1 outcome metrics, success first (none when it declares no outcome)."""
    outcome = getattr(spec, "outcome", None)
    return outcome.flags if outcome is not None else ()


def outcome_kind(spec, metrics: dict | None, terminated: bool, truncated: bool) -> str | None:
    """``success``, ``failure``, ``timeout`` or ``other`` (a draw) for an episode's final ``metrics``
    under the spec's declared outcome; None when it cannot be told (no outcome, or not finished)."""
    outcome = getattr(spec, "outcome", None)
    if outcome is None or metrics is None:
        return None
    on = [m for m in outcome.flags if metrics.get(m) == 1]
    if len(on) == 1:
        m = on[0]
        return WIN if m == outcome.success else LOSS if m in outcome.failure else \
            TIMEOUT if m == outcome.timeout else OTHER
    if not on and truncated:
        return TIMEOUT
    if not on and terminated and not outcome.failure:
        return LOSS
    return None


def outcome_from_metrics(spec, metrics: dict | None, terminated: bool, truncated: bool) -> str:
    """The outcome word for an episode whose final metrics are ``metrics`` (name -> number; None when the
    episode did not finish)."""
    kind = outcome_kind(spec, metrics, terminated, truncated)
    if kind is not None:
        on = [m for m in spec.outcome.flags if metrics.get(m) == 1]
        if on:
            return on[0].replace("_", " ")
        return "timed out" if kind == TIMEOUT else "lost"
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


def _resimulated(replay):
    from osrs_rl.replay.file import ReplayError
    from osrs_rl.runtime.registry import get_spec

    try:
        return get_spec(replay.encounter), final_metrics(replay)
    except (ReplayError, KeyError, ValueError):
        return None, None                   # metrics None: only the flags are read


def replay_outcome(replay) -> str:
    """:func:`outcome_from_metrics` of the replay's re-simulated end; the plain flags when this build cannot
    re-simulate it."""
    spec, metrics = _resimulated(replay)
    return outcome_from_metrics(spec, metrics, replay.terminated, replay.truncated)


def replay_won(replay) -> bool:
    """The replay's episode ended in its encounter's declared success (re-simulated)."""
    spec, metrics = _resimulated(replay)
    return outcome_kind(spec, metrics, replay.terminated, replay.truncated) == WIN
