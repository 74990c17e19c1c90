"""Two workers on one study in a real PostgreSQL server: they share the trial numbering and the trials,
and stop at the study's total together; then ``osrs-rl sweep worker --storage URL`` (a plain
``postgresql://`` URL) runs two more trials of the same study."""

import threading
import time

import optuna
import pytest

from osrs_rl.cli import main
from osrs_rl.sweep.study import SweepDefinition, create_or_load, finished, load, optimize
from tests.sweep import postgres
from tests.sweep.test_sweep import SPACE

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(postgres.bindir() is None, reason="PostgreSQL is not installed (initdb and pg_ctl "
                                 "not found; Debian: apt-get install postgresql)")]


@pytest.fixture(scope="module")
def url():
    with postgres.server() as u:
        yield u


def test_two_workers_share_one_study(url, tmp_path):
    create_or_load(tmp_path / "lead", SweepDefinition("template", SPACE, "space.toml"), url)
    ran: dict[str, list[int]] = {"a": [], "b": []}
    errors = []

    def worker(name: str) -> None:
        def train(cfg, on_log):             # a quick fake training: a flat curve, with time to interleave
            ran[name].append(int(cfg.run.name.split("-")[1]))
            for k in range(8):
                time.sleep(0.02)
                on_log(256 * (k + 1), {"episode/won": 0.5})
        try:
            study, definition = load(tmp_path / name, url)      # a worker needs only the URL
            optimize(study, definition, tmp_path / name, 8, console=None, train=train)
        except BaseException as e:              # noqa: B036  (reported below, in the test's thread)
            errors.append(e)
    threads = [threading.Thread(target=worker, args=(n,)) for n in ran]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    assert ran["a"] and ran["b"], ran                          # both worked
    numbers = sorted(ran["a"] + ran["b"])
    assert numbers == list(range(len(numbers)))                # one numbering: no trial run twice
    study, _ = load(tmp_path, url)
    assert 8 <= finished(study) <= 9                           # the total, plus at most the one in flight
    assert {t.state for t in study.trials} == {optuna.trial.TrialState.COMPLETE}
    for name, trials in ran.items():                           # each trial's folder on its worker's side
        assert all((tmp_path / name / "trials" / f"trial-{n:04d}" / "trial.json").is_file() for n in trials)


def test_the_worker_command_works_on_the_shared_study(url, tmp_path, capsys, monkeypatch):
    from osrs_rl.sweep import study as study_module

    def train(cfg, on_log):                 # the CLI path with a fake training (a real one: test_sweep.py)
        for k in range(8):
            on_log(256 * (k + 1), {"episode/won": 0.5})
    monkeypatch.setattr(study_module, "_train", train)
    before = finished(load(tmp_path, url)[0])
    plain = url.replace("postgresql+psycopg://", "postgresql://")          # as a user would write it
    assert main(["sweep", "worker", "--storage", plain, "--dir", str(tmp_path), "--trials", str(before + 2)]) == 0
    assert "2 trial(s) run here" in capsys.readouterr().out
    study, _ = load(tmp_path, url)
    assert finished(study) == before + 2
    assert all((tmp_path / "trials" / f"trial-{t.number:04d}" / "trial.json").is_file() for t in study.trials[-2:])
