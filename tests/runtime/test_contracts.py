"""Every registered encounter keeps the runtime contract (checks are library functions)."""

import pytest

from osrs_rl.runtime import checks, registry


@pytest.mark.parametrize("name", registry.names())
def test_encounter_contract(name):
    checks.check_encounter(name, ticks=120)


def test_checker_catches_a_masked_noop():
    import numpy as np
    from numba import njit

    from tests.runtime import counting

    @njit
    def bad_mask(s, cfg, m):
        m[0, 0] = False
        m[0, 1] = True
        m[0, 2] = True

    spec = counting.make_spec(1)
    broken = type(spec)(**{**spec.__dict__, "mask": bad_mask, "name": "broken"})
    with pytest.raises(checks.ContractError, match="option 0"):
        checks.check_encounter(broken, ticks=5)
    assert np.isfinite(1.0)


def test_category_metrics_must_be_metrics():
    import dataclasses

    from osrs_rl.runtime.checks import ContractError, check_encounter
    from osrs_rl.runtime.registry import get_spec
    spec = dataclasses.replace(get_spec("template"), category_metrics=("no_such_metric",))
    with pytest.raises(ContractError, match="no_such_metric"):
        check_encounter(spec, ticks=5)
