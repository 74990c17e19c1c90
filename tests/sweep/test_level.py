"""osrs_rl.sweep.level: steps to a level, the per-sample score of issue 43."""

import math

import pytest

from osrs_rl.sweep.level import LevelWatch


def test_a_level_counts_after_a_whole_window_and_weighs_episodes():
    watch = LevelWatch(level=0.8, window=300)
    assert not watch.add(100, 1.0, 10)                 # at the level, but a third of a window
    assert not watch.add(200, math.nan, 0)             # a log without a finished episode changes nothing
    assert watch.add(300, 0.7, 10) and watch.reached_at == 300     # (10 x 1.0 + 10 x 0.7) / 20 = 0.85
    assert watch.add(400, 0.5, 30) and watch.reached_at == 300     # reached stays reached, at its first step
    assert watch.smoothed() == pytest.approx((7 + 15) / 40)        # the log at 100 left the window


def test_an_empty_window_is_no_level():
    watch = LevelWatch(level=0.0, window=10)
    assert not watch.add(50, math.nan, 0) and math.isnan(watch.smoothed())
    with pytest.raises(ValueError, match="at least one env step"):
        LevelWatch(0.5, 0)
