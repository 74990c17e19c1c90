"""An encounter declares its metrics once (issue 46): a record the kernel writes by name, from which the names derive.

Before, a spec listed ``metric_names`` and its kernel wrote ``out[k]`` by position, so two names listed in
swapped order labelled each other's values and nothing failed. Now the order of a declaration changes only where
a metric sits in a row, never which value its name carries.
"""

import dataclasses

import numpy as np
import pytest
from numba import njit

from osrs_rl.runtime.checks import ContractError, check_encounter
from osrs_rl.runtime.spec import MetricFamily, MetricRecord
from osrs_rl.runtime.vec_env import VecEnv
from tests.runtime import counting

PLUS_TWO, PLUS_ONE = 2, 1


@njit(cache=True)
def counters_metrics(s, cfg, out):
    out.ticks = s.tick
    out.total = s.total
    for a in range(counting.MAX_AGENTS):
        out.counters[a] = s.counter[a]
    return 0


@njit(cache=True)
def sum_metrics(s, cfg, out):
    out.ticks = s.tick
    out.sum = s.total              # "sum" is the name declared below: the counting kernel's "total" is not
    return 0


def _episode(spec, threads=1):
    """One episode of a counting spec (target 10): agent 0 adds 2 each tick, agent 1 (if any) adds 1, so it
    ends after 5 ticks with ``total`` 10 (one agent) or 15 (two); returns (pop_metrics, finished_last_step)."""
    env = VecEnv(spec, num_envs=2, seed=3, threads=threads)
    env.reset()
    actions = np.zeros((2, spec.num_agents, 1), dtype=np.int64)
    actions[:, 0, 0] = PLUS_TWO
    if spec.num_agents > 1:
        actions[:, 1, 0] = PLUS_ONE
    for _ in range(5):
        env.step(actions[:, 0] if spec.num_agents == 1 else actions)
    ids, rows = env.finished_last_step()
    assert sorted(ids) == [0, 1]
    return env.pop_metrics(), rows


def test_names_listed_in_swapped_order_still_label_their_own_values():
    """The counting kernel writes ticks and total by name: listed either way round, each name reports its own
    value in the logs and in finished_last_step's columns (by position, the swapped list read 10 ticks)."""
    for declared in (("ticks", "total"), ("total", "ticks")):
        spec = dataclasses.replace(counting.make_spec(1), metric_record=MetricRecord(*declared))
        assert spec.metric_names == declared and spec.num_metrics == 2
        logged, rows = _episode(spec)
        assert list(logged["ticks"]) == [5, 5] and list(logged["total"]) == [10, 10], declared
        assert list(rows[:, declared.index("ticks")]) == [5, 5]
        assert list(rows[:, declared.index("total")]) == [10, 10]


def test_a_family_reads_by_name_wherever_it_sits_and_on_two_threads():
    """A family (one float64 array field, element k named in the declaration) moved before or after the scalars
    keeps each element's value under its name, in the serial and the prange kernels alike."""
    counters = MetricFamily("counters", ("counter_0", "counter_1"))
    base = dataclasses.replace(counting.make_spec(2), metrics=counters_metrics)
    for fields in (("ticks", "total", counters), (counters, "total", "ticks")):
        spec = dataclasses.replace(base, metric_record=MetricRecord(*fields))
        assert set(spec.metric_names) == {"ticks", "total", "counter_0", "counter_1"}
        for threads in (1, 2):
            logged, rows = _episode(spec, threads)
            want = {"ticks": 5, "total": 15, "counter_0": 10, "counter_1": 5}
            for name, value in want.items():
                assert list(logged[name]) == [value, value], (fields, threads, name)
                assert list(rows[:, spec.metric_names.index(name)]) == [value, value]


def test_a_record_dtype_written_by_hand_declares_the_metrics():
    spec = dataclasses.replace(counting.make_spec(1),
                               metric_record=np.dtype([("total", np.float64), ("ticks", np.float64)]))
    assert isinstance(spec.metric_record, MetricRecord) and spec.metric_names == ("total", "ticks")
    logged, _ = _episode(spec)
    assert list(logged["ticks"]) == [5, 5] and list(logged["total"]) == [10, 10]


def test_a_name_the_kernel_writes_but_the_record_lacks_is_refused_by_name():
    """A metric renamed in the declaration but not in the kernel: a clear error before any compile (Numba's
    own would be a bare KeyError: 'total')."""
    spec = dataclasses.replace(counting.make_spec(1), metric_record=MetricRecord("ticks", "sum"))
    logged, _ = _episode(dataclasses.replace(spec, metrics=sum_metrics))
    assert list(logged["sum"]) == [10, 10]
    with pytest.raises(ValueError, match=r"'counting1': its metrics kernel writes out.total, not a field of its "
                                         r"metric record \(ticks, sum\)"):
        VecEnv(spec)


# Numba compiles the counting kernel for the longer record as for its two-field prefix (a record subtype), and
# says so with an experimental-feature warning
@pytest.mark.filterwarnings("ignore::numba.core.errors.NumbaExperimentalFeatureWarning")
def test_a_metric_the_kernel_never_writes_breaks_the_contract():
    spec = dataclasses.replace(counting.make_spec(1), metric_record=MetricRecord("ticks", "total", "forgotten"))
    with pytest.raises(ContractError, match=r"the metrics kernel leaves \['forgotten'\] unwritten"):
        check_encounter(spec, ticks=20)


@pytest.mark.parametrize("declare, message", [
    (lambda: MetricRecord("ticks", "ticks"), "'ticks' appears twice"),
    (lambda: MetricRecord("taken_melee", MetricFamily("taken", ("taken_melee", "taken_magic"))),
     "'taken_melee' appears twice"),
    (lambda: MetricRecord("taken", MetricFamily("taken", ("taken_melee",))), "'taken' appears twice"),
    (lambda: MetricRecord(), "at least one metric"),
    (lambda: MetricRecord("100_ticks"), "must be a Python identifier"),
    (lambda: MetricRecord(("ticks", "total")), "a metric name .str. or a MetricFamily"),
    (lambda: MetricFamily("taken", ()), "names no metrics"),
    (lambda: MetricRecord.from_dtype(np.dtype([("ticks", np.int64)])), "'ticks' is int64, not float64"),
    (lambda: MetricRecord.from_dtype(np.dtype([("rate", np.float32)])), "'rate' is float32, not float64"),
    (lambda: MetricRecord.from_dtype(np.dtype([("taken", np.float64, (2,))])), "'taken' holds 2 metrics: name them"),
    (lambda: MetricRecord.from_dtype(np.dtype([("taken", np.float64, (2,))]), taken=("a",)), "2 metrics, 1 names"),
    (lambda: MetricRecord.from_dtype(np.dtype([("t", np.float64, (2, 2))]), t=("a",) * 4), "a family is a 1-d"),
    (lambda: MetricRecord.from_dtype(np.dtype([("t", np.float64)]), u=("a",)), r"names given for \['u'\]"),
])
def test_a_bad_declaration_is_refused_with_its_reason(declare, message):
    with pytest.raises(ValueError, match=message):
        declare()


def test_the_spec_names_the_encounter_whose_declaration_is_bad():
    with pytest.raises(ValueError, match="encounter 'counting1': metric field 'ticks' is int64, not float64"):
        dataclasses.replace(counting.make_spec(1), metric_record=np.dtype([("ticks", np.int64), ("total", "f8")]))
    with pytest.raises(ValueError, match="encounter 'counting1': metric_record must be a MetricRecord"):
        dataclasses.replace(counting.make_spec(1), metric_record=("ticks", "total"))


def test_records_read_as_rows_and_values():
    m = MetricRecord("won", MetricFamily("taken", ("taken_a", "taken_b")), "ticks")
    out = m.zeros(3)
    out[1]["won"], out[1]["taken"][1], out[1]["ticks"] = 1.0, 7.0, 40.0
    assert m.rows(out)[1].tolist() == [1.0, 0.0, 7.0, 40.0]
    assert m.values(out[1]) == {"won": 1.0, "taken_a": 0.0, "taken_b": 7.0, "ticks": 40.0}
    assert np.shares_memory(m.rows(out), out)
