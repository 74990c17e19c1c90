"""Steps to a level: when a learning curve, smoothed over a window of env steps, first reaches a level.

Issue 43 scores learners per sample by the env steps they take to reach a level (a kill rate, a wave),
not by where they end: ``osrs-rl sweep``'s ``objective = "level"`` and scripts/textbook_ppo.py's
``--stop-at`` stop a run there. The smoothing is scripts/compare_textbook.py's: the mean of the metric
over the logs of the last ``window`` env steps, each log weighted by the episodes it finished.
"""

from __future__ import annotations

import math
from collections import deque


class LevelWatch:
    """Fed one log at a time; says when the smoothed metric first reaches ``level``, counting only once a
    whole window has been run (a lucky first few episodes are not a level)."""

    def __init__(self, level: float, window: int):
        if window < 1:
            raise ValueError(f"the window must be at least one env step, got {window}")
        self.level, self.window = float(level), int(window)
        self.logs: deque[tuple[int, float, float]] = deque()
        self.reached_at: int | None = None

    def add(self, steps: int, value: float, episodes: float) -> bool:
        """One log: env steps so far, the metric over the episodes it finished, their count. True once the
        level is reached (and from then on)."""
        if episodes > 0 and math.isfinite(value):
            self.logs.append((steps, value, episodes))
        while self.logs and self.logs[0][0] <= steps - self.window:
            self.logs.popleft()
        if self.reached_at is None and steps >= self.window and self.smoothed() >= self.level:
            self.reached_at = steps
        return self.reached_at is not None

    def smoothed(self) -> float:
        """The episode-weighted mean over the window (NaN without an episode in it)."""
        n = sum(e for _, _, e in self.logs)
        return sum(v * e for _, v, e in self.logs) / n if n > 0 else math.nan
