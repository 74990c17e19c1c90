"""The bounds fuzz (osrs_rl.runtime.fuzz): every leaf field of every encounter's state dtype, set to
values in range, at the edges, out of range and to random bytes, is either refused by validation or
stepped, observed, masked, measured and drawn without an out-of-bounds index (Numba's bounds
checking on, in a worker process), an exception or a hang.

The trial count covers every field at least once (trial k changes field k mod fields first);
``OSRS_RL_FUZZ_TRIALS`` raises it, and ``python -m osrs_rl.runtime.fuzz`` prints the table by field.
The first run after a change of the package compiles the bounds-checked kernels (minutes on two
cores; cached by a hash of the sources after that).
"""

import os

import numpy as np
import pytest

import osrs_rl
from osrs_rl.runtime.checks import random_legal_actions
from osrs_rl.runtime.fuzz import fuzz, leaves
from osrs_rl.runtime.registry import builtin_names, get_spec


def _one_per_state_layout() -> list[str]:
    """Every built-in encounter, once per state dtype (pvp_selfplay shares pvp's state and bounds), so
    a new encounter is fuzzed without being added here."""
    seen, out = [], []
    for name in builtin_names():
        dtype = get_spec(name).state_dtype
        if dtype not in seen:
            seen.append(dtype)
            out.append(name)
    return out


ENCOUNTERS = _one_per_state_layout()
TICKS = 12


def trial_count(name: str) -> int:
    return max(int(os.environ.get("OSRS_RL_FUZZ_TRIALS", 0)), len(leaves(get_spec(name).state_dtype)) + 20)


def run_fuzz(name: str):
    """The fuzz this file checks, for tests/conftest.py to start in the background."""
    return fuzz(name, trial_count(name), ticks=TICKS, seed=20261201)


@pytest.mark.slow
@pytest.mark.parametrize("name", ENCOUNTERS)
def test_every_field_is_refused_or_safe(name):
    from tests.conftest import started

    fields = len(leaves(get_spec(name).state_dtype))
    trials = trial_count(name)
    future = started.pop(name, None)          # begun beside the suite (tests/conftest.py), else run here
    found = future.result() if future is not None else run_fuzz(name)
    assert found.fields == fields and found.trials == trials
    assert not found.failures, f"{len(found.failures)} failing trials, e.g.\n" + "\n".join(found.failures[:10])
    assert found.ran > 0


@pytest.mark.parametrize("name", ENCOUNTERS)
def test_states_reached_by_play_pass_validation(name):
    """No false refusals: every state that random legal play reaches (episodes ending and
    restarting included) lies inside the declared bounds."""
    env = osrs_rl.make(name, num_envs=16, seed=5)
    env.reset()
    rng = np.random.default_rng(5)
    for _ in range(400):
        env.step(random_legal_actions(env, rng))
        env.check_states(env.states)


def test_old_fuzz_caches_are_forgotten_only_in_the_default_folder(tmp_path, monkeypatch):
    """A folder the user named (OSRS_RL_FUZZ_CACHE) is never cleaned; in the default one only old caches
    of other source versions (hex-named folders) go."""
    import os

    from osrs_rl.runtime import fuzz

    def old_folder(path):
        path.mkdir(parents=True)
        os.utime(path, (0, 0))
        return path

    mine = old_folder(tmp_path / "user" / "holiday-photos")
    fuzz._forget_old_caches(tmp_path / "user" / "0123456789abcdef")
    assert mine.exists()
    monkeypatch.setattr(fuzz, "_default_cache_base", lambda: tmp_path / "default")
    stale = old_folder(tmp_path / "default" / "fedcba9876543210")
    other = old_folder(tmp_path / "default" / "notes")
    fuzz._forget_old_caches(tmp_path / "default" / "0123456789abcdef")
    assert not stale.exists() and other.exists()
