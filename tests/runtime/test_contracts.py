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
