"""scripts/bench_compile.py: updates with the model's unrolled forward eager and compiled, and the compile's cost."""

import shutil

import pytest

from tests.scripts import load_script, small_config


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("c++") is None and shutil.which("g++") is None,
                    reason="torch.compile on a CPU builds C++ kernels")
def test_it_times_both_arms_and_the_compilation(tmp_path, capsys):
    config = small_config(tmp_path / "small.toml")
    script = load_script("bench_compile")
    assert script.main(["--encounter", "template", "--config", str(config), "--rounds", "1", "--iterations", "1"]) == 0
    out = capsys.readouterr().out
    assert "compiling took" in out and "update eager" in out and "(1.00x eager" in out and "update compiled" in out
