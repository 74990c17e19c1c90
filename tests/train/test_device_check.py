"""``osrs-rl device-check``: its quick mode on a CPU (what needs CUDA says so, the rest measures), the long run's
outcome figures, the trainer's log read into a rate and a time split, and the refusals."""

import dataclasses
import json
import subprocess
from pathlib import Path

import pytest
import torch

from osrs_rl.cli import main
from osrs_rl.runtime.registry import builtin_names, get_spec, names, register, unregister
from osrs_rl.train import device_check
from osrs_rl.train.device_check import NO_CUDA, Plan, junit_counts, markdown, window_figures
from osrs_rl.train.logger import TRAIN_SECONDS
from osrs_rl.train.resources import machine_cores

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_quick_check_on_a_cpu_measures_what_it_can_and_says_what_it_skipped(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)     # the CPU mode, on any machine
    out = tmp_path / "check"
    assert main(["device-check", str(out), "--quick", "--long", "template"]) == 0
    record = json.loads((out / "device_check.json").read_text())
    rows = record["rows"]
    by = {(r["step"], r["encounter"], r["device"]): r for r in rows}
    assert by[("cuda tests", "", "cuda")]["status"] == NO_CUDA
    assert by[("long run", "template", "cuda")]["status"] == NO_CUDA
    assert by[("compile", "", "")]["status"] == "ok"
    for name in names():
        bench = by[("bench", name, "cpu")]
        assert bench["status"] == "ok", bench
        assert bench["figures"]["steps_per_s_1_core"] > 0 and bench["figures"]["steps_per_s_all_cores"] > 0
        if get_spec(name).gpu_preset is None:
            assert by[("throughput", name, "")]["status"] == "skipped: it declares no GPU preset"
            continue
        assert by[("throughput", name, "cuda")]["status"] == NO_CUDA
        cpu = by[("throughput", name, "cpu")]
        assert cpu["status"] == "ok", cpu
        f = cpu["figures"]
        assert f["steps_per_s"] > 0 and f["env_steps"] > 0 and f["iterations_measured"] >= 1
        assert all(f["split_s"][part] >= 0 for part in ("env", "inference", "rollout_other", "learn"))
        assert f["split_s"]["copy"] is None and "gpu_memory_gb" not in f       # no device: nothing to copy to
        assert (out / "runs" / f"throughput-{name}-cpu" / "checkpoint.pt").is_file()
    assert record["machine"]["cores"] == machine_cores() and not record["machine"]["cuda"]
    assert record["provenance"]["version"]
    text = (out / "device_check.md").read_text()
    assert text == markdown(record)                                  # the two files hold one table
    assert text.count(NO_CUDA) >= 1 + len([n for n in names() if get_spec(n).gpu_preset])
    said = capsys.readouterr().out
    assert "throughput zulrah cuda: skipped: no CUDA" in said and "done:" in said
    # a second check into the same folder would replace the first: refused
    assert main(["device-check", str(out), "--quick"]) == 2
    assert "holds files already" in capsys.readouterr().out


@pytest.mark.slow
def test_the_long_run_reports_the_declared_success_and_writes_its_evaluation(tmp_path):
    row = device_check.long_run("template", "cpu", 0.02, 8, tmp_path, {"max_ticks": 300},
                                Plan.quick_plan().overrides)
    f = row.figures
    assert row.status == "ok" and f["episodes"] == 8 and f["success"] == "won"
    assert 0 <= f["successes"] <= 8 and f["successes"] == round(8 * f["success_rate"])
    assert 0 < f["train_s"] and f["env_steps"] > 0
    assert f["progress"] is None and f["progress_mean"] is None        # the template declares no progress
    saved = json.loads(Path(f["eval_json"]).read_text())
    assert len(saved) == 1 and saved[0]["episodes"] == 8 and saved[0]["provenance"]["version"]
    config = json.loads((tmp_path / "long-template-cpu" / "config.json").read_text())
    assert config["env"]["config"]["max_ticks"] == 300 and config["env"]["num_envs"] == 32


@pytest.mark.slow
def test_the_full_checks_compile_step_compiles_each_encounter_in_a_process_of_its_own(tmp_path, monkeypatch):
    """Each discoverable encounter in a process of its own; a spec registered at run time (the runtime tests'
    counting encounters, when they ran first) only exists in this process, so it compiles here."""
    from tests.runtime.counting import COUNTING1

    register(dataclasses.replace(COUNTING1, name="counting_here"), replace=True)
    try:
        row = device_check.Check(tmp_path, Plan(), say=lambda _: None).compile()
    finally:
        unregister("counting_here")
    assert row.status == "ok", row
    assert "counting_here" in row.figures["seconds"] and len(row.figures["seconds"]) == len(names()) + 1
    assert all((tmp_path / "compile-logs" / f"{name}.log").is_file() for name in builtin_names())
    assert not (tmp_path / "compile-logs" / "counting_here.log").exists()
    monkeypatch.setattr(device_check, "names", lambda: ["nosuch"])         # a process that fails is named
    row = device_check.Check(tmp_path / "b", Plan(), say=lambda _: None).compile()
    assert row.status == "failed: nosuch (exit 1; compile-logs/nosuch.log)"
    assert "nosuch" in (tmp_path / "b" / "compile-logs" / "nosuch.log").read_text()


@pytest.mark.slow
def test_the_cuda_tests_step_runs_them_and_counts_its_report(tmp_path):
    check = device_check.Check(tmp_path, Plan(), say=lambda _: None)
    check.cuda = True                                  # run the step even without a device: they skip, saying so
    row = check.cuda_tests()
    counts = row.figures
    ran = counts["passed"] + counts["failed"] + counts["errors"] + counts["skipped"]
    assert ran >= 5                                    # the archive starts' two, the device path's three
    if torch.cuda.is_available():
        assert row.status == "ok" and counts["passed"] == ran, row
    else:
        assert row.status == "failed: no test ran (all skipped or none selected)" and counts["skipped"] == ran
        assert "no CUDA" in (tmp_path / "cuda-tests.log").read_text()


def _line(step, seconds, iteration, **split):
    return step, {TRAIN_SECONDS: seconds, "perf/iteration": iteration, **{f"time/{k}": v for k, v in split.items()}}


def test_the_first_iteration_is_left_out_of_the_rate_and_the_split():
    lines = [_line(1000, 10.0, 1, env=9.0, learn=1.0),                    # compiling: left out
             _line(3000, 11.0, 3, env=0.2, inference=0.1, learn=0.2),      # 2 iterations in 1 s
             _line(4000, 11.5, 4, env=0.4, inference=0.1, learn=0.0)]      # 1 in 0.5 s
    f = window_figures(lines)
    assert f["steps_per_s"] == pytest.approx(3000 / 1.5) and f["iterations_measured"] == 3
    assert f["seconds_per_iteration"] == pytest.approx(0.5)
    assert f["split_s"]["env"] == pytest.approx((0.2 * 2 + 0.4) / 3)
    assert f["split_s"]["learn"] == pytest.approx(0.4 / 3) and f["split_s"]["copy"] is None
    alone = window_figures(lines[:1])                                      # one iteration: all there is
    assert alone["steps_per_s"] == pytest.approx(100.0) and alone["iterations_measured"] == 0
    with pytest.raises(ValueError, match="trained no iteration"):
        window_figures([])


def test_the_tests_report_is_counted(tmp_path):
    report = tmp_path / "r.xml"
    report.write_text('<testsuites><testsuite tests="5" failures="1" errors="0" skipped="2"/></testsuites>')
    assert junit_counts(report) == {"passed": 2, "failed": 1, "errors": 0, "skipped": 2}
    assert junit_counts(tmp_path / "missing.xml") == {}


def test_a_long_run_row_shows_the_progress_the_encounter_declares():
    row = device_check.Row("long run", "fight", "cuda", figures={
        "minutes": 4.0, "env_steps": 1_000_000, "episodes": 128, "success": "cleared", "successes": 3,
        "success_rate": 3 / 128, "success_interval": [0.008, 0.067], "mean_ticks": 9000.0, "progress": "final_wave",
        "progress_mean": 41.5, "progress_median": 43.0})
    record = {"machine": device_check.machine_facts(2, 2), "plan": {"quick": False, "budget_s": 540.0},
              "elapsed_s": 1.0, "rows": [device_check.asdict(row)]}
    text = markdown(record)
    assert "| fight | cuda | 4.00 | 1,000,000 | 128 | 3 cleared | 2.3 % (0.8-6.7) | final_wave | 41.5 | 43.0 |" in text


@pytest.mark.parametrize("argv, message", [
    (["--gpu-seconds", "0"], "--gpu-seconds must be positive, got 0"),
    (["--long", "nosuch"], "unknown encounter 'nosuch' for --long"),
    (["--long", "pvp_selfplay"], "--long pvp_selfplay: it declares no GPU preset"),
    (["--long-set", "start_wave=1"], "--long-set gives the long run's settings: name its encounter with --long"),
    (["--long", "zulrah", "--long-set", "nosuch=1"], "nosuch"),
])
def test_bad_options_are_refused_before_anything_runs(tmp_path, capsys, argv, message):
    out = tmp_path / "check"
    assert main(["device-check", str(out), *argv]) == 2
    assert message in capsys.readouterr().out
    assert not out.exists()


def test_the_script_says_how_to_call_it():
    done = subprocess.run(["bash", str(ROOT / "scripts" / "device_check.sh")], capture_output=True, text=True)
    assert done.returncode == 2 and "usage: bash scripts/device_check.sh OUT" in done.stderr
