"""The batched kernels' disk cache (runtime.kernel_cache): a second process loads what the first compiled,
an edit anywhere the kernels reach names a new module, and kernels no import can find still run."""

import dataclasses
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from osrs_rl.runtime import kernel_cache
from osrs_rl.runtime.kernels import _KERNELS, BatchKernels, _encounter_functions
from osrs_rl.runtime.vec_env import VecEnv
from tests.runtime import counting

ROOT = Path(__file__).resolve().parents[2]

# One process: make the counting env, play 40 ticks, say what its step kernel loaded and what it saw.
_PLAY = """
import json, numpy as np
from osrs_rl.runtime.vec_env import VecEnv
from tests.runtime.counting import COUNTING2
env = VecEnv(COUNTING2, num_envs=3, seed=5)
env.reset(seed=5)
rng, total = np.random.default_rng(0), 0.0
for _ in range(40):
    obs, rew, *_ = env.step(rng.integers(0, 3, size=env._action_shape))
    total += float(obs.sum()) + float(rew.sum())
stats = env._kernels.step.stats
print(json.dumps({"cached": env._kernels.cached, "hits": sum(stats.cache_hits.values()),
                  "misses": sum(stats.cache_misses.values()), "total": total}))
"""


def _play(cache: Path) -> dict:
    env = dict(os.environ, OSRS_RL_KERNEL_CACHE=str(cache))
    out = subprocess.run([sys.executable, "-c", _PLAY], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True, timeout=600)
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_a_second_process_loads_the_compiled_kernels_and_a_corrupt_module_is_remade(tmp_path):
    first = _play(tmp_path)
    assert first["cached"] and first["misses"] == 1 and first["hits"] == 0
    second = _play(tmp_path)
    assert second["cached"] and second["hits"] == 1 and second["misses"] == 0
    assert second["total"] == first["total"]
    (module,) = tmp_path.glob(f"{kernel_cache.GENERATED_PREFIX}counting2_*.py")
    text = module.read_text()
    module.write_text("raise SystemExit('a corrupt generated module was imported')\n")
    third = _play(tmp_path)                         # rewritten, then compiled again (its stamp changed)
    assert third["cached"] and third["total"] == first["total"]
    assert module.read_text() == text


def _ticks(env, actions):
    env.reset(seed=9)
    out = []
    for a in actions:
        obs, rew, term, trunc, _ = env.step(a)
        out.append((obs.copy(), rew.copy(), term.copy(), trunc.copy()))
    return out


def test_kernels_no_import_can_find_are_bound_per_process_with_the_same_results(tmp_path, monkeypatch):
    monkeypatch.setenv("OSRS_RL_KERNEL_CACHE", str(tmp_path))

    @njit
    def step(s, cfg, actions):                          # defined here: no import finds it
        return counting.step(s, cfg, actions)

    local = dataclasses.replace(counting.COUNTING1, name="counting_local", step=step)
    assert not BatchKernels(local).cached
    assert BatchKernels(counting.COUNTING1).cached
    rng = np.random.default_rng(1)
    actions = [rng.integers(0, 3, size=(4, 1)) for _ in range(60)]
    expected = _ticks(VecEnv(counting.COUNTING1, num_envs=4, seed=2), actions)
    got = _ticks(VecEnv(local, num_envs=4, seed=2), actions)
    for e, g in zip(expected, got, strict=True):
        for x, y in zip(e, g, strict=True):
            np.testing.assert_array_equal(x, y)


def test_the_generated_module_calls_the_encounters_functions_by_import():
    spec = counting.COUNTING2
    functions = _encounter_functions(spec)
    bound = {name: kernel_cache.importable(fn) for name, fn in functions.items()}
    text = kernel_cache.module_source(spec.name, _KERNELS, bound)
    compile(text, "generated", "exec")
    for role, fn in (("reset_fn", "reset"), ("step_fn", "step"), ("observe_fn", "observe"), ("mask_fn", "mask")):
        assert f"from tests.runtime.counting import {fn} as {role}" in text
    assert "@njit(cache=True, nogil=True, parallel=True)\ndef step_parallel(" in text
    assert "from osrs_rl.core.rng import next_u64\n" in text


def test_the_digest_follows_every_source_file(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "kernels.py").write_text("X = 1\n")
    before = kernel_cache.source_digest([pkg])
    assert kernel_cache.source_digest([pkg]) == before
    (pkg / "sub" / "kernels.py").write_text("X = 2\n")
    edited = kernel_cache.source_digest([pkg])
    assert edited != before
    (pkg / "sub" / "more.py").write_text("")
    assert kernel_cache.source_digest([pkg]) != edited
    assert kernel_cache.source_digest([pkg], skip=("more.py",)) == edited


def test_the_cache_folder_follows_the_settings(monkeypatch, tmp_path):
    monkeypatch.delenv("OSRS_RL_KERNEL_CACHE", raising=False)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    assert kernel_cache.kernel_dir() == tmp_path / "numba" / "osrs_rl_kernels"
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert kernel_cache.kernel_dir() == tmp_path / "xdg" / "osrs-rl" / "kernels"
    monkeypatch.setenv("OSRS_RL_KERNEL_CACHE", str(tmp_path / "mine"))
    assert kernel_cache.kernel_dir() == tmp_path / "mine"


def test_sources_written_after_the_process_started_are_not_cached_from_its_memory(tmp_path, monkeypatch):
    # the digest reads the files on disk, the compile uses the code imported before an edit: never pair them
    monkeypatch.setenv("OSRS_RL_KERNEL_CACHE", str(tmp_path / "cache"))
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    monkeypatch.setattr(kernel_cache, "_STARTED", time.time() + 60)
    assert not kernel_cache.changed_since_start([tmp_path / "pkg"])
    monkeypatch.setattr(kernel_cache, "_STARTED", 0.0)
    assert kernel_cache.changed_since_start([tmp_path / "pkg"])
    assert not BatchKernels(counting.COUNTING2).cached
    assert not (tmp_path / "cache").exists()


def test_a_failing_cache_warns_and_compiles_per_process(monkeypatch):
    def broken(*args):
        raise TypeError("a namespace package, say")

    monkeypatch.setattr(kernel_cache, "load", broken)
    with pytest.warns(RuntimeWarning, match="'counting1' compile per process.*TypeError"):
        kernels = BatchKernels(counting.COUNTING1)
    assert not kernels.cached
    env = VecEnv(counting.COUNTING1, num_envs=2, seed=0)
    env._kernels = kernels
    env.reset(seed=0)
    _, reward, *_ = env.step(np.ones((2, 1), dtype=np.int64))
    assert reward.tolist() == [1.0, 1.0]


def test_old_modules_of_this_encounter_alone_are_forgotten(tmp_path):
    def module(name, days_old):
        p = tmp_path / f"{kernel_cache.GENERATED_PREFIX}{name}.py"
        p.write_text("")
        os.utime(p, (time.time() - days_old * 86400,) * 2)
        return p

    keep = module("pvp_" + "a" * 16, 5)
    old = module("pvp_" + "b" * 16, 3)
    young = module("pvp_" + "c" * 16, 1)
    other = module("pvp_selfplay_" + "d" * 16, 3)            # another encounter whose name starts alike
    kernel_cache._forget_old(tmp_path, keep=keep, encounter="pvp")
    assert keep.exists() and young.exists() and other.exists() and not old.exists()
