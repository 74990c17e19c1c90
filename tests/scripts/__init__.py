"""Tests of the scripts in scripts/, which are files, not a package: ``load_script`` imports one."""

import importlib.util
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def load_script(name: str):
    """The module ``scripts/<name>.py``, freshly executed."""
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def small_config(path: Path, **model) -> Path:
    """A trainer config at ``path`` small enough for a benchmark script's smoke test (8 envs, 4-tick rollouts,
    one hidden layer of 8), with ``model`` settings added to its [model] table (e.g. ``separate_value="true"``)."""
    lines = ["[env]", "num_envs = 8", "[ppo]", "horizon = 4", "[model]", "hidden = 8", "layers = 1"]
    path.write_text("\n".join(lines + [f"{k} = {v}" for k, v in model.items()]) + "\n")
    return path
