"""What a spec declares instead of the framework guessing (issue 16): its outcome, its scripted
policies and its settings' named values, read by evaluation, the replay word and the command line."""

import dataclasses

import numpy as np
import pytest
from numba import njit

from osrs_rl import cli
from osrs_rl.runtime import registry
from osrs_rl.runtime.spec import ConfigField, MetricRecord, Outcome, ScriptedPolicy, Setting
from osrs_rl.train.evaluate import outcome_columns
from osrs_rl.train.evaluate_solver import evaluate_scripted, scripted_rows
from tests.runtime import counting


@njit(cache=True)
def cleared_metrics(s, cfg, out):
    out.ticks = s.tick
    out.total = s.total
    out.cleared = 1.0 if s.counter[0] >= cfg.target else 0.0      # a success named neither won nor killed
    return 1 if 2 * s.counter[0] >= cfg.target else 0


@njit(cache=True)
def adder(states, configs, out, amount=1):
    for i in range(states.shape[0]):
        out[i, 0] = amount


def cleared_spec(**changes):
    base = counting.make_spec(1)
    fields = (ConfigField("target", np.int64, 10, 1, 1000, "the count to reach", choices=((4, "short"), (10, "long"))),
              ConfigField("max_ticks", np.int64, 50, 1, 10**6))
    spec = dataclasses.replace(
        base, name="cleared_count", config_fields=fields, metric_record=MetricRecord("ticks", "total", "cleared"),
        metrics=cleared_metrics, outcome=Outcome(success="cleared", length="ticks"),
        scripted_policies=(ScriptedPolicy("adder", adder, "adds the same amount every tick",
                                          settings=(Setting("amount", 1, "added per tick", low=0, high=2),),
                                          rows="target"),))
    return dataclasses.replace(spec, **changes) if changes else spec


@pytest.fixture
def cleared():
    spec = registry.register(cleared_spec(), replace=True)
    yield spec
    registry.unregister(spec.name)


def test_an_outcome_naming_a_metric_the_spec_lacks_is_refused():
    with pytest.raises(ValueError, match=r"'counting1': its outcome names \['won'\], not metrics of the spec"):
        dataclasses.replace(counting.make_spec(1), outcome=Outcome(success="won", length="ticks"))
    with pytest.raises(ValueError, match=r"its outcome names \['turns'\]"):
        dataclasses.replace(counting.make_spec(1), outcome=Outcome(success="ticks", length="turns"))


def test_every_builtin_encounter_declares_its_outcome():
    for name in registry.builtin_names():
        outcome = registry.get_spec(name).outcome
        assert outcome is not None and outcome.length is not None, name


def test_a_scripted_policy_naming_a_field_the_spec_lacks_is_refused():
    policy = ScriptedPolicy("adder", adder, "", rows="gear_tier")
    with pytest.raises(ValueError, match="splits rows by 'gear_tier', not a config field"):
        cleared_spec(scripted_policies=(policy,))


def test_named_config_values_are_parsed_listed_and_range_checked():
    f = cleared_spec().config_fields[0]
    assert f.parse("short") == 4 and f.parse("7") == 7 and f.label(10) == "long" and f.label(7) == "7"
    with pytest.raises(ValueError, match="takes one of short, long or an integer, got 'medium'"):
        f.parse("medium")
    with pytest.raises(ValueError, match="choice 'huge' = 5000 is outside its range"):
        ConfigField("target", np.int64, 10, 1, 1000, choices=((5000, "huge"),))


def test_evaluation_counts_the_declared_success_whatever_its_name(cleared):
    rows = evaluate_scripted("cleared_count", "adder", episodes=3)
    assert [(r.row, r.win_rate, r.mean_ticks_to_win) for r in rows] == [("short", 1.0, 4.0), ("long", 1.0, 10.0)]
    stalled = evaluate_scripted("cleared_count", "adder", scripted_rows(cleared, "adder", chosen=10), episodes=3,
                                config={"max_ticks": 6}, settings={"amount": 0})
    assert [(r.row, r.wins, r.timeouts) for r in stalled] == [("long", 0, 0)]
    won, lost, ticks = outcome_columns(cleared, np.array([[4.0, 4.0, 1.0], [6.0, 0.0, 0.0]]))
    assert won.tolist() == [1.0, 0.0] and lost.tolist() == [0.0, 0.0] and ticks.tolist() == [4.0, 6.0]


def test_evaluation_reports_the_declared_progress_metric(capsys):
    """An outcome's ``progress`` (how far an episode got) is averaged per row and printed by ``eval``."""
    spec = registry.register(cleared_spec(outcome=Outcome(success="cleared", length="ticks", progress="total")),
                             replace=True)
    try:
        rows = evaluate_scripted("cleared_count", "adder", episodes=3, settings={"amount": 2})
        assert [(r.row, r.progress_mean, r.progress_median) for r in rows] == [("short", 4.0, 4.0),
                                                                            ("long", 10.0, 10.0)]
        assert cli.main(["eval", "cleared_count", "--policy", "adder", "--episodes", "2"]) == 0
        assert "median total" in " ".join(capsys.readouterr().out.split())
        assert cli.main(["list", "cleared_count"]) == 0
        assert "length ticks; progress total" in " ".join(capsys.readouterr().out.split())
        with pytest.raises(ValueError, match=r"its outcome names \['turns'\]"):
            dataclasses.replace(spec, outcome=Outcome(success="cleared", progress="turns"))
    finally:
        registry.unregister(spec.name)


def test_the_eval_command_reads_the_declared_policy_settings_and_choices(cleared, capsys):
    assert cli.main(["eval", "cleared_count", "--policy", "adder", "--episodes", "2", "--set", "target=short",
                     "--opt", "amount=2"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "cleared rate" in out and "100.0 %" in out and "short" in out and "long" not in out
    assert cli.main(["eval", "cleared_count", "--policy", "adder", "--opt", "amount=3"]) == 2
    assert "'amount' = 3 is out of range [0, 2]" in " ".join(capsys.readouterr().out.split())
    assert cli.main(["list", "cleared_count"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert "outcome: success cleared; length ticks" in said and "choices short=4, long=10" in said
    assert "adder: adds the same amount every tick" in said and "--opt amount (default 1, 0..2)" in said
