"""Floored steps and the explain trace."""

from osrs_rl.core.formula import Step, factor, format_trace, new_trace, no_trace, trunc_div


def test_trunc_div_rounds_toward_zero_like_java():
    assert trunc_div(7, 2) == 3
    assert trunc_div(-7, 2) == -3      # Python's // would give -4
    assert trunc_div(-6, 3) == -2
    assert trunc_div(7, -2) == -3


def test_factor_records_each_step():
    t = new_trace()
    x = factor(t, Step.EFFECTIVE_LEVEL, 99, 123, 100)
    x = factor(t, Step.VOID, x + 11, 11, 10)
    assert x == 145   # floor(99 * 1.23) = 121; floor((121 + 11) * 1.1) = floor(145.2)
    assert format_trace(t)[0] == "effective_level: 99 * 123 / 100 = 121"


def test_no_trace_records_nothing():
    t = no_trace()
    assert factor(t, Step.VOID, 10, 11, 10) == 11
    assert t.shape[0] == 0
