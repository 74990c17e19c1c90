"""``osrs-rl device-check OUT``: what a machine with a CUDA GPU and many cores does with osrs-rl, as one table.

    osrs-rl device-check OUT --long ENCOUNTER     # scripts/device_check.sh OUT names the long run's encounter
    osrs-rl device-check OUT --quick              # seconds, not minutes: the machinery, not figures

Steps, in order, each within its share of a time budget (``--budget-minutes``, 9 by default) and each isolated: a
step that fails is a row saying how, and the others still run. Nothing here names an encounter: they come from
the registry, and the long run's from the command line.

1. compile: each encounter's kernels, one process per encounter at once (Numba caches them for the steps after);
2. cuda tests: ``pytest -m cuda``, the tests that need a CUDA device;
3. bench: each encounter's env steps per second at one batch size on one core and on all cores
   (``runtime.bench.measure_batch``, as ``osrs-rl bench ENCOUNTER`` measures);
4. throughput: each encounter's GPU preset (``EncounterSpec.gpu_preset``, ``osrs-rl train ENC --preset gpu``)
   trained for ``--gpu-seconds`` on the GPU, then for ``--cpu-seconds`` on this machine's CPU: env steps per
   second and where an iteration's time went (env, inference, other rollout work, learn, copies between host
   and device), read from the trainer's own log scalars (``Trainer._scalars``) after its first iteration, which
   warms up; peak GPU memory; the GPU's rate over the CPU's;
5. long run: ``--long ENCOUNTER``'s GPU preset trained for ``--long-minutes``, then ``--eval-episodes`` episodes
   of it evaluated (``runner.final_evaluation``): the encounter's declared success and progress (the Inferno:
   clears and the final wave).

Without CUDA the GPU steps are rows "skipped: no CUDA". The table goes to ``OUT/device_check.md`` and
``OUT/device_check.json`` (atomically) after every step, so a check stopped half way leaves what it measured;
the runs, the tests' log and the evaluation's ``eval.json`` go beside them. ``OUT`` must be new or empty: no
earlier check is replaced.
"""

from __future__ import annotations

import gc
import json
import os
import platform
import subprocess
import sys
import time
import traceback
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import numba
import numpy as np
import torch

from osrs_rl.agent.config import load_config
from osrs_rl.io.atomic import atomic_write
from osrs_rl.io.provenance import describe, provenance, source_root
from osrs_rl.io.writable import writable_problem
from osrs_rl.runtime.bench import compile_kernels
from osrs_rl.runtime.registry import get_spec, names, sources
from osrs_rl.train.logger import TRAIN_SECONDS
from osrs_rl.train.resources import machine_cores

MD_NAME, JSON_NAME = "device_check.md", "device_check.json"
SPLIT = ("env", "inference", "rollout_other", "learn", "copy")     # the trainer's time/<name> scalars
NO_CUDA = "skipped: no CUDA"


@dataclass
class Plan:
    """How long each step may take. The defaults fit the whole check in 9 minutes on one GPU and 16 cores with
    the Numba cache warm: 4 x (20 + 10 s + setup) of throughput, 4 minutes of long run and its evaluation, a
    minute for the tests. A cold cache costs the long run's minutes first (its row says how many it got)."""

    quick: bool = False
    budget_s: float = 540.0
    gpu_s: float = 20.0
    cpu_s: float = 10.0
    long_minutes: float = 4.0
    eval_episodes: int = 128
    bench_batch: int = 4096
    tests_timeout_s: float = 150.0
    compile_timeout_s: float = 300.0
    eval_reserve_s: float = 60.0        # kept for the long run's evaluation when its training is cut to fit
    overrides: list = field(default_factory=list)   # every training run's (quick: a tiny batch)

    @classmethod
    def quick_plan(cls) -> Plan:
        return cls(quick=True, budget_s=180.0, gpu_s=3.0, cpu_s=3.0, long_minutes=0.05, eval_episodes=8,
                   bench_batch=64, tests_timeout_s=120.0, eval_reserve_s=20.0,
                   overrides=["--env.num_envs", "32", "--ppo.horizon", "8", "--ppo.minibatches", "2"])


@dataclass
class Row:
    """One line of the table: a step's result for one encounter (or none) on one device."""

    step: str
    encounter: str = ""
    device: str = ""
    status: str = "ok"              # "ok", "failed: ...", "skipped: ..."
    seconds: float = 0.0            # the step's wall time, setup included
    figures: dict = field(default_factory=dict)
    note: str = ""


class Check:
    """One device check writing into ``out``; ``say`` prints its progress."""

    def __init__(self, out: Path, plan: Plan, long: str | None = None, long_settings: dict | None = None,
                 say: Callable[[str], None] = print):
        self.out, self.plan, self.long, self.long_settings = out, plan, long, dict(long_settings or {})
        self.say = say
        self.rows: list[Row] = []
        self.started = time.monotonic()
        self.cuda = torch.cuda.is_available()
        self.cores = machine_cores()
        self.threads = max(1, min(self.cores, numba.config.NUMBA_NUM_THREADS))
        self.machine = machine_facts(self.cores, self.threads)

    # ---- the budget ----------------------------------------------------------------------------------------
    def left(self) -> float:
        return self.plan.budget_s - (time.monotonic() - self.started)

    def _clock(self) -> str:
        s = int(time.monotonic() - self.started)
        return f"{s // 60}:{s % 60:02d}"

    # ---- running steps ------------------------------------------------------------------------------------
    def run(self) -> list[Row]:
        self.write()
        self.say(f"device check into {self.out}: {self.machine['device']}, {self.cores} cores, osrs-rl "
                 f"{self.machine['osrs_rl']}; budget {self.plan.budget_s / 60:.1f} min"
                 + (" (quick: the machinery, not figures)" if self.plan.quick else ""))
        self.step("compile", self.compile)
        self.step("cuda tests", self.cuda_tests, device="cuda")
        for name in names():
            self.step("bench", lambda name=name: self.bench(name), name)
        for name in names():
            if get_spec(name).gpu_preset is None:
                self.rows.append(Row("throughput", name, status="skipped: it declares no GPU preset"))
                continue
            for device, seconds in (("cuda", self.plan.gpu_s), ("cpu", self.plan.cpu_s)):
                self.step("throughput", lambda name=name, d=device, s=seconds: self.throughput(name, d, s), name,
                          device, needs=seconds)
        self.add_ratios()
        if self.long is None:
            self.rows.append(Row("long run", status="skipped: no --long ENCOUNTER given"))
        else:
            self.step("long run", lambda: self.long_run(self.long, "cuda"), self.long, "cuda")
        self.write()
        self.say(f"[{self._clock()}] done: {self.out / MD_NAME}")
        return self.rows

    def step(self, what: str, work: Callable[[], Row], encounter: str = "", device: str = "",
             needs: float = 0.0) -> None:
        """Run ``work`` as one isolated step (an exception is a failed row), add its row and write the table;
        skipped when it needs CUDA and there is none, or ``needs`` more seconds than the budget has left."""
        label = " ".join(x for x in (what, encounter, device) if x)
        skip = NO_CUDA if device == "cuda" and not self.cuda else (
            f"skipped: the time budget is spent ({max(self.left(), 0):.0f} s left, {needs:.0f} needed)"
            if self.left() < needs else None)
        if skip is not None:
            self.rows.append(Row(what, encounter, device, skip))
            self.say(f"[{self._clock()}] {label}: {skip}")
            self.write()
            return
        self.say(f"[{self._clock()}] {label} ...")
        t0 = time.monotonic()
        try:
            row = work()
        except KeyboardInterrupt:
            self.rows.append(Row(what, encounter, device, "failed: interrupted", time.monotonic() - t0))
            self.write()
            raise
        except Exception as e:   # noqa: BLE001 - a step's failure is a row; the other steps still run
            row = Row(what, encounter, device, f"failed: {type(e).__name__}: {e}".splitlines()[0][:300],
                      note=traceback.format_exc()[-2000:])
        row.seconds = time.monotonic() - t0
        self.rows.append(row)
        self.say(f"[{self._clock()}] {label}: {row.status}{_brief(row)}")
        self.write()

    # ---- 1. compile -----------------------------------------------------------------------------------------
    def compile(self) -> Row:
        """Each encounter's kernels, one process per encounter at once (quick: in this process, the cache being
        warm); the seconds each took."""
        took = {}
        if self.plan.quick:
            for name in names():
                t0 = time.monotonic()
                compile_kernels(name, self.threads)
                took[name] = round(time.monotonic() - t0, 1)
            return Row("compile", figures={"seconds": took}, note="in this process (quick)")
        logs = self.out / "compile-logs"
        logs.mkdir(parents=True, exist_ok=True)
        t0, running, failed = time.monotonic(), {}, []
        known = sources()
        here = [n for n in names() if n in known and known[n].kind == "registered"]   # registered at run time:
        for name in names():                                                          # no other process finds it
            if name in here:
                continue
            with open(logs / f"{name}.log", "wb") as log:        # a file, not a pipe: no pipe to fill and block
                running[name] = subprocess.Popen([sys.executable, "-c", COMPILE_CODE, name, str(self.threads)],
                                                 cwd=source_root(), stdout=log, stderr=subprocess.STDOUT)
        for name in here:                                        # in this process, while the others compile
            t1 = time.monotonic()
            compile_kernels(name, self.threads)
            took[name] = round(time.monotonic() - t1, 1)
        while running:
            time.sleep(0.2)
            for name, proc in list(running.items()):
                if proc.poll() is None and time.monotonic() - t0 < self.plan.compile_timeout_s:
                    continue
                del running[name]
                if proc.returncode is None:
                    proc.kill()
                    proc.wait()
                    failed.append(f"{name} (over {self.plan.compile_timeout_s:.0f} s)")
                    continue
                took[name] = round(time.monotonic() - t0, 1)
                if proc.returncode != 0:
                    failed.append(f"{name} (exit {proc.returncode}; compile-logs/{name}.log)")
        return Row("compile", figures={"seconds": took},
                   status=f"failed: {'; '.join(failed)}" if failed else "ok")

    # ---- 2. the tests that need CUDA -----------------------------------------------------------------------
    def cuda_tests(self) -> Row:
        tests = source_root() / "tests"
        if not tests.is_dir():
            return Row("cuda tests", device="cuda",
                       status=f"skipped: no tests folder at {tests} (an installed package)")
        report, log = self.out / "cuda-tests.xml", self.out / "cuda-tests.log"
        cmd = [sys.executable, "-m", "pytest", "-q", "-m", "cuda", "-p", "no:cacheprovider", f"--junitxml={report}",
               str(tests)]
        timeout = max(10.0, min(self.plan.tests_timeout_s, self.left() - 60.0))
        try:
            done = subprocess.run(cmd, cwd=source_root(), capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired as e:
            atomic_write(log, _text(e.stdout).encode() + _text(e.stderr).encode())
            return Row("cuda tests", device="cuda", status=f"failed: over {timeout:.0f} s (log: {log.name})")
        atomic_write(log, (done.stdout + done.stderr).encode())
        counts = junit_counts(report)
        bad = counts.get("failed", 0) + counts.get("errors", 0)
        status = "ok" if done.returncode == 0 and bad == 0 else f"failed: exit {done.returncode} (log: {log.name})"
        if counts.get("passed", 0) == 0 and status == "ok":
            status = "failed: no test ran (all skipped or none selected)"
        return Row("cuda tests", device="cuda", status=status, figures=counts)

    # ---- 3. env steps per second ---------------------------------------------------------------------------
    def bench(self, name: str) -> Row:
        from osrs_rl.runtime.bench import measure_batch

        n = self.plan.bench_batch
        got = measure_batch(name, n, threads=self.threads)
        one, every = got["1 core"], got[f"{self.threads} threads"]
        return Row("bench", name, "cpu", figures={"batch": n, "threads": self.threads, "steps_per_s_1_core": one,
                                                  "steps_per_s_all_cores": every, "speedup": every / one})

    # ---- 4. training throughput of the GPU presets ----------------------------------------------------------
    def throughput(self, name: str, device: str, seconds: float) -> Row:
        folder = self.out / "runs"
        overrides = ["--run.device", device, "--run.total_minutes", f"{seconds / 60.0}",
                     "--run.total_steps", str(10**12), *QUIET, *self.plan.overrides]
        cfg = load_config(name, None, overrides + ["--run.out_dir", str(folder), "--run.name",
                                                   f"throughput-{name}-{device}"], preset="gpu")
        figures = measure_training(cfg)
        figures.update(num_envs=cfg.env.num_envs, horizon=cfg.ppo.horizon, hidden=cfg.model.hidden)
        note = "the preset's batch cut to the quick plan's" if self.plan.quick else ""
        if figures["iterations_measured"] == 0:
            note = (note + "; " if note else "") + "one iteration only: its figures include the warm-up"
        return Row("throughput", name, device, figures=figures, note=note)

    def add_ratios(self) -> None:
        """Each encounter's GPU rate over its CPU rate, on its GPU row."""
        rate = {(r.encounter, r.device): r.figures.get("steps_per_s") for r in self.rows
                if r.step == "throughput" and r.status == "ok"}
        for r in self.rows:
            cpu = rate.get((r.encounter, "cpu"))
            if r.step == "throughput" and r.device == "cuda" and r.status == "ok" and cpu:
                r.figures["gpu_over_cpu"] = r.figures["steps_per_s"] / cpu

    # ---- 5. the long run -------------------------------------------------------------------------------------
    def long_run(self, name: str, device: str) -> Row:
        # the minutes it may train: what the budget leaves after its evaluation's reserve, at most those asked
        minutes = min(self.plan.long_minutes, max(self.left() - self.plan.eval_reserve_s, 0.0) / 60.0)
        if minutes <= 0.0:
            return Row("long run", name, device, status="skipped: the time budget is spent")
        row = long_run(name, device, minutes, self.plan.eval_episodes, self.out / "runs", self.long_settings,
                       self.plan.overrides)
        if minutes < self.plan.long_minutes:
            row.note = f"trained {minutes:.2f} of the {self.plan.long_minutes:g} minutes asked: the time budget"
        return row

    # ---- the table -------------------------------------------------------------------------------------------
    def write(self) -> None:
        record = {"provenance": provenance(), "machine": self.machine, "plan": asdict(self.plan),
                  "long": self.long, "long_settings": self.long_settings,
                  "elapsed_s": round(time.monotonic() - self.started, 1), "rows": [asdict(r) for r in self.rows]}
        atomic_write(self.out / JSON_NAME, json.dumps(record, indent=2, default=_json_value).encode() + b"\n")
        atomic_write(self.out / MD_NAME, markdown(record).encode())


QUIET = ["--log.console", "false", "--log.tensorboard", "false", "--log.replays", "false", "--run.eval_episodes", "0",
         "--run.checkpoint_every", "1e9", "--run.log_every", "0.001"]     # a log line (a window) every iteration


# runtime.bench.compile_kernels in a process of its own (argv: encounter, threads), without this module's torch
COMPILE_CODE = "import sys; from osrs_rl.runtime.bench import compile_kernels as c; c(sys.argv[1], int(sys.argv[2]))"


def measure_training(cfg) -> dict:
    """Train ``cfg`` (its ``run.total_minutes`` is the budget) and read its rate and time split from the trainer's
    log scalars, one log line an iteration: the first iteration (compiling, warming up) is left out when more
    followed. Peak GPU memory on a CUDA device."""
    from osrs_rl.train.ppo import Trainer

    lines: list[tuple[int, dict]] = []
    cuda = cfg.run.device.startswith("cuda")
    if cuda:
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()
    trainer = Trainer(cfg, console=False, on_log=lambda step, scalars: lines.append((step, dict(scalars))))
    threads = {"env_threads": trainer.env_threads, "rollout_threads": trainer.rollout_threads,
               "learn_threads": trainer.learn_threads}
    try:
        trainer.train()
    finally:
        trainer.close()
    figures = {**window_figures(lines), **threads}
    if cuda:
        figures["gpu_memory_gb"] = torch.cuda.max_memory_allocated() / 1e9
    del trainer
    gc.collect()
    if cuda:
        torch.cuda.empty_cache()
    return figures


def window_figures(lines: list[tuple[int, dict]]) -> dict:
    """Env steps per second and seconds per iteration by part over the log ``lines`` ((global step, scalars)
    after each iteration) past the first, weighted by each window's iterations; the first alone when it is all."""
    if not lines:
        raise ValueError("the run logged nothing: it trained no iteration")
    prev = (0, {TRAIN_SECONDS: 0.0, "perf/iteration": 0})
    windows = []
    for step, scalars in lines:
        windows.append((step - prev[0], scalars[TRAIN_SECONDS] - prev[1][TRAIN_SECONDS],
                        scalars["perf/iteration"] - prev[1]["perf/iteration"], scalars))
        prev = (step, scalars)
    measured = windows[1:] or windows
    steps, seconds, iterations = (sum(w[k] for w in measured) for k in range(3))
    # a part the trainer does not log here (copies, on a CPU) is None, not 0
    split = {part: sum(w[3].get(f"time/{part}", 0.0) * w[2] for w in measured) / max(iterations, 1)
             if any(f"time/{part}" in w[3] for w in measured) else None for part in SPLIT}
    return {"steps_per_s": steps / max(seconds, 1e-9), "env_steps": steps, "train_seconds": seconds,
            "iterations_measured": iterations if len(windows) > 1 else 0,
            "seconds_per_iteration": seconds / max(iterations, 1), "split_s": split}


def long_run(name: str, device: str, minutes: float, episodes: int, out: Path, settings: dict | None = None,
             overrides: list | None = None) -> Row:
    """``name``'s GPU preset trained ``minutes`` on ``device`` (with ``settings`` of the encounter's), then
    ``episodes`` episodes of the trained policy: its declared success and progress, with ``eval.json``."""
    from osrs_rl.train.evaluate import save_rows
    from osrs_rl.train.runner import final_evaluation, run

    sets = [a for k, v in (settings or {}).items() for a in (f"--env.config.{k}", str(v))]
    cfg = load_config(name, None, ["--run.device", device, "--run.total_minutes", f"{minutes}", "--run.total_steps",
                                   str(10**12), *QUIET, "--run.log_every", "10", *(overrides or []), *sets,
                                   "--run.out_dir", str(out), "--run.name", f"long-{name}-{device}"], preset="gpu")
    t0 = time.monotonic()
    result = run(cfg, evaluate=False)
    trained = time.monotonic() - t0
    t0 = time.monotonic()
    rows = final_evaluation(result.policy, cfg, episodes=episodes)
    save_rows(rows, result.run_dir / "eval.json")
    r = rows[0]
    outcome = get_spec(name).outcome
    figures = {"minutes": minutes, "env_steps": result.global_step, "train_s": result.scalars.get(TRAIN_SECONDS),
               "setup_and_train_s": trained,
               "eval_s": time.monotonic() - t0, "episodes": r.episodes, "success": outcome.success,
               "successes": int(round(r.win_rate * r.episodes)), "success_rate": r.win_rate,
               "success_interval": [r.low, r.high], "mean_ticks": r.mean_ticks,
               "progress": r.progress or None,
               "progress_mean": None if not r.progress else r.progress_mean,
               "progress_median": None if not r.progress else r.progress_median,
               "eval_json": str(result.run_dir / "eval.json")}
    return Row("long run", name, device, figures=figures)


# ---- facts and formats -------------------------------------------------------------------------------------
def machine_facts(cores: int, threads: int) -> dict:
    """What ran the check: versions, the device, the cores, the code."""
    cuda = torch.cuda.is_available()
    facts = {"date": datetime.now(UTC).isoformat(timespec="seconds"), "osrs_rl": describe(short=12),
             "python": platform.python_version(), "platform": platform.platform(), "torch": torch.__version__,
             "torch_cuda": torch.version.cuda, "numba": numba.__version__, "numpy": np.__version__,
             "cores": cores, "os_cpu_count": os.cpu_count(), "numba_threads": threads,
             "cuda": cuda, "device": "no CUDA device"}
    if cuda:
        props = torch.cuda.get_device_properties(0)
        facts.update(device=torch.cuda.get_device_name(0), gpu_memory_gb=round(props.total_memory / 1e9, 1),
                     gpus=torch.cuda.device_count(), cudnn=torch.backends.cudnn.version())
    elif torch.version.cuda is None:
        facts["device"] = f"no CUDA device (torch {torch.__version__} is a CPU build)"
    return facts


def junit_counts(path: Path) -> dict:
    """passed / failed / errors / skipped of a pytest ``--junitxml`` report ({} when it is missing)."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return {}
    suites = [root] if root.tag == "testsuite" else list(root)
    total = {k: sum(int(s.get(k, 0)) for s in suites) for k in ("tests", "failures", "errors", "skipped")}
    return {"passed": total["tests"] - total["failures"] - total["errors"] - total["skipped"],
            "failed": total["failures"], "errors": total["errors"], "skipped": total["skipped"]}


def _text(x) -> str:
    return x.decode(errors="replace") if isinstance(x, bytes) else (x or "")


def _json_value(x):
    if isinstance(x, np.generic):
        return x.item()
    raise TypeError(f"{type(x).__name__} is not JSON")


def _brief(row: Row) -> str:
    f = row.figures
    if "steps_per_s" in f:
        return f": {f['steps_per_s']:,.0f} env steps/s"
    if "steps_per_s_all_cores" in f:
        return f": {f['steps_per_s_1_core']:,.0f} env steps/s on 1 core, {f['steps_per_s_all_cores']:,.0f} on all"
    if "success_rate" in f:
        return f": {f['successes']}/{f['episodes']} {f['success']}"
    return ""


def _where(row: dict) -> str:
    return " ".join(x for x in (row["step"], row["encounter"], row["device"]) if x)


def _n(x, fmt: str = ",.0f") -> str:
    return "-" if x is None or (isinstance(x, float) and not np.isfinite(x)) else format(x, fmt)


def markdown(record: dict) -> str:
    """The JSON record as the tables a person reads."""
    m, rows = record["machine"], record["rows"]
    lines = ["# osrs-rl device check", "",
             f"{m['date']}, osrs-rl {m['osrs_rl']}: {m['device']}"
             + (f" ({m['gpu_memory_gb']} GB)" if m.get("gpu_memory_gb") else "")
             + f", {m['cores']} cores (numba {m['numba']}, {m['numba_threads']} threads), torch {m['torch']}"
             + (f" (CUDA {m['torch_cuda']})" if m.get("torch_cuda") else "") + f", Python {m['python']}.",
             f"Plan: {'quick, ' if record['plan']['quick'] else ''}budget {record['plan']['budget_s'] / 60:.1f} min;"
             f" took {record['elapsed_s'] / 60:.1f} min.", "",
             "## Steps", "", "| step | encounter | device | status | seconds |", "| --- | --- | --- | --- | ---: |"]
    lines += [f"| {r['step']} | {r['encounter'] or '-'} | {r['device'] or '-'} | {r['status']} | {r['seconds']:.1f} |"
              for r in rows]
    bench = [r for r in rows if r["step"] == "bench" and r["status"] == "ok"]
    if bench:
        lines += ["", "## Env steps per second (osrs-rl bench: random legal actions)", "",
                  "| encounter | batch | 1 core | all cores | threads | speed-up |",
                  "| --- | ---: | ---: | ---: | ---: | ---: |"]
        lines += [f"| {r['encounter']} | {f['batch']} | {_n(f['steps_per_s_1_core'])} | "
                  f"{_n(f['steps_per_s_all_cores'])} | {f['threads']} | {_n(f['speedup'], '.1f')} |"
                  for r in bench for f in (r["figures"],)]
    train = [r for r in rows if r["step"] == "throughput" and r["status"] == "ok"]
    if train:
        lines += ["", "## Training throughput of the GPU presets (after the first iteration)", "",
                  "Seconds per iteration by part, as the trainer logs them (time/...): env (waiting for the envs), "
                  "inference (the policy's forward and sampling, with the observations' and actions' copies), "
                  "other (the rest of the rollout: storage, episode books), learn (the update), copies (the rollout's "
                  "log-probabilities and values brought back, the rollout staged on the device: only with a device).",
                  "", "| encounter | device | envs | env steps/s | GPU / CPU | s/iteration | env | inference | other | "
                  "learn | copies | GPU memory GB | iterations | threads (env/rollout/learn) |",
                  "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
        for r in train:
            f, s = r["figures"], r["figures"]["split_s"]
            lines.append(f"| {r['encounter']} | {r['device']} | {f['num_envs']} | {_n(f['steps_per_s'])} | "
                         f"{_n(f.get('gpu_over_cpu'), '.1f')} | {_n(f['seconds_per_iteration'], '.3f')} | "
                         + " | ".join(_n(s[p], ".3f") for p in SPLIT)
                         + f" | {_n(f.get('gpu_memory_gb'), '.2f')} | {f['iterations_measured']} | "
                         f"{f['env_threads']}/{f['rollout_threads']}/{f['learn_threads']} |")
    long = [r for r in rows if r["step"] == "long run" and r["status"] == "ok"]
    if long:
        lines += ["", "## Long run", "", "| encounter | device | minutes | env steps | episodes | success | rate "
                  "(95 %) | progress | mean | median | mean ticks |",
                  "| --- | --- | ---: | ---: | ---: | --- | ---: | --- | ---: | ---: | ---: |"]
        for r in long:
            f = r["figures"]
            lo, hi = f["success_interval"]
            lines.append(f"| {r['encounter']} | {r['device']} | {f['minutes']:.2f} | {_n(f['env_steps'])} | "
                         f"{f['episodes']} | {f['successes']} {f['success']} | {100 * f['success_rate']:.1f} % "
                         f"({100 * lo:.1f}-{100 * hi:.1f}) | {f['progress'] or '-'} | "
                         f"{_n(f['progress_mean'], '.1f')} | {_n(f['progress_median'], '.1f')} | "
                         f"{_n(f['mean_ticks'])} |")
    notes = [r for r in rows if r["note"] and not r["status"].startswith("failed")]
    failures = [r for r in rows if r["status"].startswith("failed")]
    if notes or failures:
        lines += ["", "## Notes", ""]
        lines += [f"- {_where(r)}: {r['note']}" for r in notes]
        for r in failures:
            lines += [f"- {_where(r)}: {r['status']}"]
            if r["note"]:
                lines += ["", "```", r["note"].rstrip(), "```", ""]
    return "\n".join(lines) + "\n"


def out_problem(out: Path) -> str | None:
    """Why ``out`` cannot take a device check (one line), or None: it must be a new or empty folder we can write."""
    if out.exists() and not out.is_dir():
        return f"{out} is a file: name a new or empty folder"
    if out.is_dir():
        held = sorted(p.name for p in out.iterdir())
        if held:
            return (f"{out} holds files already ({', '.join(held[:3])}{' ...' if len(held) > 3 else ''}): name a new "
                    "or empty folder, so that no earlier check is replaced")
    return writable_problem(out, "device-check folder")


def main(out: str | os.PathLike, quick: bool = False, long: str | None = None, long_settings: dict | None = None,
         say: Callable[[str], None] = print, **plan) -> int:
    """Run a device check into ``out`` (``plan``: ``Plan`` fields over the full or quick plan); 0 when every
    step that ran passed, 1 when one failed. Raises ValueError for an unusable ``out`` or ``long``."""
    out = Path(out)
    problem = out_problem(out)
    if problem is not None:
        raise ValueError(problem)
    if long is not None and long not in names():
        raise ValueError(f"unknown encounter {long!r} for --long; known: {', '.join(names())}")
    if long is not None and get_spec(long).gpu_preset is None:
        raise ValueError(f"--long {long}: it declares no GPU preset (EncounterSpec.gpu_preset) to train")
    base = Plan.quick_plan() if quick else Plan()
    for key, value in plan.items():
        if value is not None:
            setattr(base, key, value)
    out.mkdir(parents=True, exist_ok=True)
    rows = Check(out, base, long, long_settings, say).run()
    return 1 if any(r.status.startswith("failed") for r in rows) else 0
