"""Logging: the TensorBoard event format, episode scalars, the console dashboard and the Logger's sinks."""

import io
import json
import sys
import types
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console

from osrs_rl.train.logger import Dashboard, Logger, episode_scalars
from osrs_rl.train.tensorboard import read_events, write_scalars


# ---- the event files ------------------------------------------------------------------------------------
def test_written_events_read_back_exactly(tmp_path):
    with Logger(tmp_path, {"a": 1}, console=False) as log:
        log.log(3, {"loss/policy": 0.5, "episode/won": np.float32(0.25)})
        log.log(2**40, {"loss/policy": -1.5e-7})
        events = read_events(tmp_path)                      # flushed at each log: readable while the run goes on
    assert (3, "loss/policy", 0.5) in events and (3, "episode/won", 0.25) in events
    assert (2**40, "loss/policy", pytest.approx(-1.5e-7)) in events
    assert any(tag == "config" and '"a": 1' in value for _, tag, value in events)


def test_write_scalars_appends_to_a_run(tmp_path):
    write_scalars(tmp_path, {"eval/elite/win_rate": 0.75}, step=100)
    write_scalars(tmp_path, {"eval/elite/win_rate": 0.5}, step=200)
    assert [(s, v) for s, t, v in read_events(tmp_path) if t == "eval/elite/win_rate"] == [(100, 0.75), (200, 0.5)]


def test_event_files_are_read_in_the_order_they_were_written_past_nine_writers(tmp_path):
    """Writers number their files in a process (``...tfevents.<time>.<host>.<pid>.<n>``): the tenth written in one
    second is read after the ninth, not before it as its name sorts."""
    for step, n in ((100, 9), (200, 10)):
        write_scalars(tmp_path / "w", {"eval/elite/win_rate": step / 400}, step=step)
        (made,) = (tmp_path / "w").iterdir()
        made.rename(tmp_path / f"events.out.tfevents.1700000000.host.42.{n}")
    assert [s for s, t, _ in read_events(tmp_path) if t == "eval/elite/win_rate"] == [100, 200]


def test_reading_no_event_file_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="no event file"):
        read_events(tmp_path / "nope.tfevents")


# ---- episode scalars -----------------------------------------------------------------------------------
def _metrics(won, ticks, phase):
    names = ("early", "late", "never")
    phase = np.array(phase, dtype=np.int64)
    return {
        "won": np.array(won, float),
        "ticks": np.array(ticks, float),
        "phase": phase,
        "phase_name": np.array([names[i] for i in phase], dtype=object),
    }


def test_episode_scalars_means_overall_and_per_phase():
    s = episode_scalars(_metrics([1, 0, 1, 1], [10, 20, 30, 40], [0, 1, 1, 1]), ("early", "late", "never"))
    assert s == {
        "episode/count": 4.0,
        "episode/won": 0.75,
        "episode/ticks": 25.0,
        "phase/early/fraction": 0.25,
        "phase/early/won": 1.0,
        "phase/early/ticks": 10.0,
        "phase/late/fraction": 0.75,
        "phase/late/won": 2 / 3,
        "phase/late/ticks": 30.0,
        "phase/never/fraction": 0.0,
    }


def test_episode_scalars_of_no_episodes_is_empty():
    assert episode_scalars(_metrics([], [], []), ("early", "late", "never")) == {}
    assert episode_scalars({}, ("early",)) == {}


def test_episode_scalars_refuses_bad_input():
    with pytest.raises(ValueError, match="phase index 2 outside 0..1"):
        episode_scalars(_metrics([1], [1], [2]), ("early", "late"))
    bad = _metrics([1, 0], [1, 2], [0, 0])
    bad["ticks"] = np.zeros(3)
    with pytest.raises(ValueError, match=r"'ticks' has shape \(3,\), expected \(2,\)"):
        episode_scalars(bad, ("early",))
    with pytest.raises(ValueError, match="no 'phase' array"):
        episode_scalars({"won": np.ones(2)}, ("early",))


# ---- dashboard -----------------------------------------------------------------------------------------
class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


SCALARS = {
    "loss/policy": 0.0123,
    "loss/value": 0.456,
    "episode/count": 4,
    "episode/won": 0.25,
    "phase/early/fraction": 0.5,
    "phase/late/fraction": 0.5,
    "time/env": 3.0,
    "time/inference": 1.0,
    "time/learn": 1.0,
}


def _console(terminal: bool) -> Console:
    return Console(file=io.StringIO(), force_terminal=terminal, width=120, record=True, color_system=None)


def test_dashboard_renders_progress_speed_losses_episodes_and_time():
    console, clock = _console(True), Clock()
    # the rates come from the encounter's declared outcome (the trainer passes logger.outcome_rates of it)
    with Dashboard(total_steps=1000, console=console, clock=clock, rate_metrics=("won",)) as d:
        for i in range(1, 6):
            clock.t += 1.0
            d.update(100 * i, SCALARS)
    console.print(d.render())
    text = console.export_text()
    for part in ["step 500 / 1,000 (50.0%)", "100 steps/s", "elapsed 0:00:05", "left 0:00:05",
                 "0.0123", "0.456", "episodes (last 20)", "won", "25.0%", "early", "50.0%", "env", "60%", "20%"]:
        assert part in text, part


def test_dashboard_time_left_is_the_nearer_budget():
    """With a training-time budget (run.total_minutes) the time left is the steps' or the minutes', whichever
    ends first; the minutes come from the trainer's logged perf/train_seconds."""
    clock = Clock()
    d = Dashboard(total_steps=1000, console=_console(False), clock=clock, total_seconds=60.0)
    for i in range(1, 6):
        clock.t += 1.0
        d.update(100 * i, {"perf/train_seconds": 40.0 + i})
    assert d.eta() == pytest.approx(5.0)                 # 500 steps at 100/s: before the 15 s of time left
    d.update(600, {"perf/train_seconds": 58.0})
    assert d.eta() == pytest.approx(2.0)                 # the minutes end first
    assert Dashboard(console=_console(False), total_seconds=60.0).eta() is None     # nothing logged yet


def test_dashboard_redraws_at_most_twice_a_second():
    console, clock = _console(True), Clock()
    d = Dashboard(total_steps=100, console=console, clock=clock).start()
    draws = []
    live_update = d._live.update
    d._live.update = lambda r, refresh=False: (draws.append(clock.t), live_update(r, refresh=refresh))
    for i in range(50):  # 5 seconds of updates at 10 Hz
        clock.t += 0.1
        d.update(i, {"loss/policy": 1.0})
    d.stop()
    assert 10 <= len(draws) <= 12


def test_episode_window_averages_over_episodes_not_logs():
    d = Dashboard(console=_console(False), window=2)
    d.update(1, {"episode/count": 1, "episode/won": 0.0})
    d.update(2, {"episode/count": 3, "episode/won": 1.0})
    assert d.episode_means()["episode/won"] == 0.75
    d.update(3, {"episode/count": 1, "episode/won": 0.0})  # the window of 2 logs drops the first
    assert d.episode_means()["episode/won"] == 0.75
    assert d.episodes_in_window() == 4


def test_dashboard_off_a_terminal_prints_plain_lines_every_few_seconds():
    console, clock = _console(False), Clock()
    d = Dashboard(total_steps=10_000, console=console, plain_every=10.0, clock=clock).start()
    for i in range(1, 26):  # 25 seconds at one update a second
        clock.t += 1.0
        d.update(100 * i, SCALARS)
    d.stop()
    out = console.file.getvalue()
    lines = out.splitlines()
    assert len(lines) == 4  # at 1 s, 11 s, 21 s, and the final line
    assert "\x1b" not in out
    assert lines[-1].startswith("step 2,500 / 10,000 (25.0%) | 100 steps/s | elapsed 0:00:25 | left 0:01:15")
    assert "policy=0.0123" in lines[-1] and "episodes(" in lines[-1] and "env 60%" in lines[-1]


# ---- logger --------------------------------------------------------------------------------------------
CONFIG = {"encounter": "template", "lr": 3e-4, "hidden": (64, 64), "out": Path("runs/x"), "seed": np.int64(1)}


def test_logger_writes_config_events_and_console(tmp_path):
    console = _console(False)
    with Logger(tmp_path / "run", CONFIG, console=console, total_steps=100) as log:
        log.log(10, {"loss/policy": 0.5, "episode/won": np.float64(1.0)})
        log.log(20, {"loss/policy": 0.25})
    config = json.loads((tmp_path / "run" / "config.json").read_text())
    assert config == {"encounter": "template", "lr": 3e-4, "hidden": [64, 64], "out": "runs/x", "seed": 1}
    events = read_events(tmp_path / "run")
    assert (10, "loss/policy", 0.5) in events and (20, "loss/policy", 0.25) in events
    assert (10, "episode/won", 1.0) in events
    assert any(tag == "config" and '"lr": 0.0003' in value for _, tag, value in events)
    out = console.file.getvalue()
    assert '"encounter"' not in out and "5 settings" in out   # a summary on screen; the config is in config.json
    assert str(tmp_path / "run" / "config.json") in out.replace("\n", "")
    assert "step 20 / 100 (20.0%)" in out


def test_logger_without_console_or_tensorboard_still_writes_the_config(tmp_path):
    with Logger(tmp_path, {"a": 1}, use_tensorboard=False, console=False) as log:
        log.log(1, {"x": 1.0})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.json"]


def test_logger_refuses_a_scalar_that_is_not_a_number(tmp_path):
    with Logger(tmp_path, {}, console=False) as log:
        with pytest.raises(TypeError, match="scalar 'loss/policy' is not a number"):
            log.log(1, {"loss/policy": [1, 2]})


def test_logger_refuses_a_config_it_cannot_write_and_writes_nothing(tmp_path):
    with pytest.raises(TypeError, match=r"config\['model'\]\['act'\] is a function"):
        Logger(tmp_path / "run", {"model": {"act": lambda x: x}}, console=False)
    assert not (tmp_path / "run").exists()


def test_wandb_asked_for_but_not_installed_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "wandb", None)  # makes `import wandb` raise ImportError
    with pytest.raises(ImportError, match="pip install wandb"):
        Logger(tmp_path / "run", CONFIG, wandb="offline", console=False)
    assert not (tmp_path / "run").exists()


def test_wandb_mode_must_be_online_or_offline(tmp_path):
    with pytest.raises(ValueError, match="wandb mode must be one of"):
        Logger(tmp_path, CONFIG, wandb="disabled", console=False)


def test_wandb_offline_run_gets_config_scalars_and_finish(tmp_path, monkeypatch):
    calls = []

    class FakeRun:
        def log(self, data, step):
            calls.append(("log", dict(data), step))

        def finish(self, exit_code=None):
            calls.append(("finish", exit_code))

    def init(**kwargs):
        calls.append(("init", kwargs))
        return FakeRun()

    monkeypatch.setitem(sys.modules, "wandb", types.SimpleNamespace(init=init))
    with Logger(tmp_path, CONFIG, wandb="offline", console=False, run_name="r1") as log:
        log.log(5, {"loss/policy": 0.5})
    init_kwargs = calls[0][1]
    assert init_kwargs["mode"] == "offline" and init_kwargs["project"] == "osrs-rl" and init_kwargs["name"] == "r1"
    assert init_kwargs["config"]["hidden"] == [64, 64]
    assert calls[1:] == [("log", {"loss/policy": 0.5}, 5), ("finish", 0)]


def test_a_failing_run_finishes_wandb_with_exit_code_1(tmp_path, monkeypatch):
    finished = []
    run = types.SimpleNamespace(log=lambda data, step: None, finish=lambda exit_code=None: finished.append(exit_code))
    monkeypatch.setitem(sys.modules, "wandb", types.SimpleNamespace(init=lambda **kw: run))
    with pytest.raises(RuntimeError), Logger(tmp_path, {}, wandb="online", console=False):
        raise RuntimeError("training diverged")
    assert finished == [1]


def test_win_rate_by_opponent_is_weighted_by_that_opponents_episodes():
    """Per-tier means average over that tier's episodes (not over logs or all episodes) and show as a table."""
    console = _console(True)
    d = Dashboard(console=console, window=5)
    d.update(1, {"episode/count": 4, "opponent/elite/count": 1, "opponent/elite/won": 1.0,
                 "opponent/novice/count": 3, "opponent/novice/won": 1.0})
    d.update(2, {"episode/count": 3, "opponent/elite/count": 3, "opponent/elite/won": 0.0})
    means = d.episode_means()
    assert means["opponent/elite/won"] == 0.25 and means["opponent/novice/won"] == 1.0
    console.print(d.render())
    text = console.export_text()
    assert "won by opponent" in text and "25.0%" in text and "100.0%" in text


# ---- the dashboard shows what a number means (issue 15, item 22) -------------------------------------------
def test_categorical_metrics_get_shares_not_means():
    m = {"rotation": np.array([0, 2, 2, 3]), "opponent_tier": np.array([4, 4, 9, -1]), "won": np.array([1, 0, 1, 1.0]),
         "phase": np.array([0, 0, 1, 1])}
    s = episode_scalars(m, ("early", "late"), category_metrics=("rotation",))
    assert not [k for k in s if k.endswith(("/rotation", "/opponent_tier"))]        # no mean of an index, anywhere
    assert s["category/rotation/2"] == 0.5 and s["category/rotation/0"] == 0.25
    assert s["category/opponent_tier/4"] == 0.5 and s["category/opponent_tier/-1"] == 0.25
    assert s["episode/won"] == 0.75 and s["phase/late/won"] == 1.0


def test_dashboard_shows_categories_as_shares_and_rates_as_percentages():
    console, clock = _console(True), Clock()
    d = Dashboard(total_steps=1000, console=console, clock=clock, rate_metrics=("won", "killed"))
    for won, rotation in ((1.0, 1), (0.0, 3)):
        clock.t += 1.0
        metrics = {"won": np.array([won] * 4), "killed": np.array([won] * 4), "ticks": np.array([100.0] * 4),
                   "rotation": np.array([rotation] * 4), "phase": np.zeros(4, dtype=np.int64)}
        d.update(100, episode_scalars(metrics, ("fight",), category_metrics=("rotation",)))
    console.print(d.render())
    text = console.export_text()
    assert "rotation 1" in text and "rotation 3" in text and "50.0%" in text     # each rotation in half the episodes
    lines = {line.split()[0]: line.split()[1] for line in text.splitlines() if line.split()[:1] in (["won"], ["killed"],
                                                                                                       ["ticks"])}
    assert lines == {"won": "50.0%", "killed": "50.0%", "ticks": "100"}
    assert "rotation=" not in d.summary_line() and "won=50.0%" in d.summary_line()


def test_dashboard_progress_never_passes_100_percent():
    console, clock = _console(False), Clock()
    d = Dashboard(total_steps=1000, console=console, clock=clock)
    clock.t += 1.0
    d.update(131_072, {"loss/policy": 0.5})
    text = d.summary_line()
    assert "131,072 / 1,000" not in text and "done" in text and "%" not in text.split("|")[0]
    console.print(d.render())
    assert "131,072 / 1,000" not in console.export_text()


def test_logger_prints_a_summary_of_a_training_config(tmp_path):
    from osrs_rl.agent.config import load_config

    cfg = load_config("template", overrides=["--run.total_steps", "500", "--ppo.gamma", "0.9"])
    console = _console(False)
    Logger(tmp_path, cfg.to_dict(), use_tensorboard=False, console=console).close()
    out = console.file.getvalue()
    assert "template: 500 steps" in out and "ppo.gamma=0.9" in out
    assert len(out.splitlines()) < 8                                          # not the whole config
    assert json.loads((tmp_path / "config.json").read_text()) == cfg.to_dict()


def test_the_rates_and_per_opponent_metrics_are_the_declared_outcomes():
    from osrs_rl.runtime.registry import get_spec
    from osrs_rl.train.logger import opponent_metrics, outcome_rates

    assert outcome_rates(get_spec("zulrah").outcome) == ("killed", "died", "timed_out")
    assert opponent_metrics(get_spec("pvp").outcome) == ("won", "lost", "draw", "ticks")
    assert outcome_rates(None) == () and opponent_metrics(None) == ()
