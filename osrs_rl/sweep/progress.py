"""What a running sweep shows on the terminal: trials done (pruned, failed), the best score so far and
the time left (the mean wall time of this session's trials times the trials still to run); a second bar
follows the current trial's steps. Off a terminal it prints one line per finished trial instead; a failed
trial's line, with its reason, shows on a terminal too."""

from __future__ import annotations

import time

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn


def best_text(study) -> str:
    """``0.734 (trial 3)``, or ``none yet`` while no trial has completed."""
    try:
        best = study.best_trial
    except ValueError:
        return "none yet"
    return f"{best.value:.3f} (trial {best.number})"


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 3600}h{seconds // 60 % 60:02d}m" if seconds >= 3600 else f"{seconds // 60}m{seconds % 60:02d}s"


class SweepProgress:
    """A context manager; the sweep calls ``trial_started``, ``trial_progress`` and ``trial_done``."""

    def __init__(self, console: Console | None, trials: int, study):
        self.console = console or Console()
        self.trials = trials
        self.done = self.pruned = self.failed = 0
        self.study = study
        self.start = time.monotonic()
        self.live = self.console.is_terminal
        self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("{task.fields[info]}"), console=self.console, disable=not self.live)
        self.total_task = self.bar.add_task("trials", total=trials, info=self._info())
        self.step_task = self.bar.add_task("trial", total=None, info="", visible=False)

    def __enter__(self) -> SweepProgress:
        self.bar.start()
        return self

    def __exit__(self, *exc) -> None:
        self.bar.stop()

    def _info(self) -> str:
        left = ""
        if self.done:
            per = (time.monotonic() - self.start) / self.done
            left = f", ~{_clock(per * (self.trials - self.done))} left"
        return f"{self.pruned} pruned, {self.failed} failed, best {best_text(self.study)}{left}"

    def trial_started(self, number: int) -> None:
        self.bar.update(self.step_task, description=f"trial {number}", completed=0, total=None, visible=True)

    def trial_progress(self, step: int, total: int) -> None:
        self.bar.update(self.step_task, completed=min(step, total), total=total)

    def trial_done(self, study, trial) -> None:
        state = trial.state.name.lower()
        self.done += 1
        self.pruned += state == "pruned"
        self.failed += state == "fail"
        self.bar.update(self.total_task, completed=self.done, info=self._info())
        self.bar.update(self.step_task, visible=False)
        error = trial.user_attrs.get("error")
        if not self.live or error:          # why a trial failed shows on a terminal too, in one line
            value = f" {trial.value:.3f}" if trial.value is not None else ""
            why = f": {error}" if error else ""
            self.console.print(f"trial {trial.number} {state}{value}{why} ({self.done}/{self.trials}: {self._info()})",
                               markup=False, soft_wrap=True)
