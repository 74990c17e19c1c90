"""Every registered encounter keeps the runtime contract (checks are library functions)."""

import math

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


# ---- the cell_key contract (Go-Explore archives group states by it) ------------------------------------
def _with_cell_key(fn):
    import dataclasses

    from tests.runtime import counting
    return dataclasses.replace(counting.make_spec(1), cell_key=fn, name="keyed")


def _key_good(s, cfg):
    return s.counter[0] // 4


def _key_reads_rng(s, cfg):
    return (s.counter[0] // 4) * 2 + (s.rng[0] & 1)


def _key_every_state(s, cfg):
    return s.tick * 1000 + s.noise


def _key_writes(s, cfg):
    s.total += 1
    return 0


def _key_float(s, cfg):
    return s.counter[0] / 4


@pytest.mark.slow
def test_a_coarse_rng_blind_cell_key_passes():
    from numba import njit

    checks.check_cell_key(_with_cell_key(njit(_key_good)), ticks=30)


@pytest.mark.parametrize("fn, message", [
    (_key_reads_rng, "reads the RNG"),
    (_key_every_state, "not coarse"),
    (_key_writes, "changed the state record"),
    (_key_float, "not an integer"),
])
def test_a_broken_cell_key_is_named(fn, message):
    from numba import njit

    with pytest.raises(checks.ContractError, match=message):
        checks.check_cell_key(_with_cell_key(njit(fn)), ticks=30)



def _progress_good(s, cfg):
    return s.counter[0] / 4.0


def _progress_reads_rng(s, cfg):
    return float(s.counter[0]) + float(s.rng[0] & 1)


def _progress_writes(s, cfg):
    s.total += 1
    return 0.0


def _progress_nan(s, cfg):
    return math.inf - math.inf


def test_a_cell_keys_progress_passes_when_it_keeps_the_rules():
    import dataclasses

    from numba import njit

    checks.check_cell_key(dataclasses.replace(_with_cell_key(njit(_key_good)), progress=njit(_progress_good)), ticks=30)


@pytest.mark.parametrize("fn, message", [
    (_progress_reads_rng, "another rng"),
    (_progress_writes, "progress changed the state record"),
    (_progress_nan, "not a finite number"),
])
def test_a_broken_progress_is_named(fn, message):
    import dataclasses

    from numba import njit

    spec = dataclasses.replace(_with_cell_key(njit(_key_good)), progress=njit(fn))
    with pytest.raises(checks.ContractError, match=message):
        checks.check_cell_key(spec, ticks=30)


def test_progress_without_a_cell_key_is_refused():
    import dataclasses

    from tests.runtime import counting
    with pytest.raises(ValueError, match="progress but no cell_key"):
        dataclasses.replace(counting.make_spec(1), progress=lambda s, c: 0.0)


@pytest.mark.parametrize("hook", ["start_settings", "demo_settings"])
def test_start_and_demo_settings_must_name_config_fields(hook):
    import dataclasses

    from tests.runtime import counting
    spec = counting.make_spec(1)
    value = ("no_such_setting",) if hook == "start_settings" else {"no_such_setting": 1}
    with pytest.raises(ValueError, match=f"{hook} \\['no_such_setting'\\] are not config fields"):
        dataclasses.replace(spec, **{hook: value})
