"""Suite-wide scheduling: the bounds fuzz runs beside the rest of the suite; tests marked ``cuda`` skip without a
CUDA device, saying so.

Each encounter's bounds fuzz (tests/runtime/test_state_fuzz.py) spends minutes compiling bounds-checked
kernels in a worker process of its own, while the pytest process waits. Once the tests are collected,
the fuzz of every encounter whose fuzz test was selected starts in a background thread (one worker
process at a time, on the machine's second core) and its test collects the result when it is reached;
the checks are the same, only when they run changes. ``OSRS_RL_FUZZ_BACKGROUND=0`` runs each fuzz in its
test instead. Hypothesis runs without its per-example deadline (below).
"""

import os
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import settings

# No test asserts wall-clock time: Hypothesis's per-example deadline (200 ms) failed a pure-arithmetic test on a
# loaded machine (a first call compiling or waiting for the CPU), so it is off for the whole suite.
settings.register_profile("osrs_rl", deadline=None)
settings.load_profile("osrs_rl")

FUZZ_TEST = "tests/runtime/test_state_fuzz.py::test_every_field_is_refused_or_safe"
_executor: ThreadPoolExecutor | None = None
started: dict = {}          # encounter name -> Future of its fuzz Findings (test_state_fuzz reads it)


def pytest_collection_finish(session):
    global _executor
    if os.environ.get("OSRS_RL_FUZZ_BACKGROUND", "1") == "0" or session.config.option.collectonly:
        return
    names = [item.callspec.params["name"] for item in session.items
             if item.nodeid.startswith(FUZZ_TEST) and hasattr(item, "callspec")]
    if not names:
        return
    from tests.runtime.test_state_fuzz import run_fuzz

    _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bounds-fuzz")
    for name in names:
        started[name] = _executor.submit(run_fuzz, name)


def pytest_sessionfinish(session, exitstatus):
    if _executor is not None:
        for future in started.values():
            future.cancel()                 # not begun: never started (e.g. a run stopped by -x)
        _executor.shutdown(wait=True)       # a fuzz under way ends with its worker


def pytest_collection_modifyitems(config, items):
    """``@pytest.mark.cuda`` (a test, or a parameter of one) needs a CUDA device: without one it skips with the
    reason "no CUDA" (``osrs-rl device-check`` runs them where there is one: ``pytest -m cuda``)."""
    marked = [item for item in items if item.get_closest_marker("cuda") is not None]
    if not marked:
        return
    import torch

    if torch.cuda.is_available():
        return
    for item in marked:
        item.add_marker(pytest.mark.skip(reason="no CUDA"))
