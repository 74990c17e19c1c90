"""The strong plain-PPO reference of an encounter: the best configuration of scripts/textbook_ppo.py's own sweep.

    python scripts/reference_sweep.py --encounter zulrah --level 0.9 --budget 4000000 --seeds 0,1,2 \\
        --runs-dir runs/ref-zulrah --out docs/reference-zulrah

Issue 43: a preset raced against a badly configured baseline wins by the baseline's configuration, not by
its trainer. So the textbook PPO is first tuned on the encounter, on the preset's own env settings (its
``env.config`` and scripted opponents, as scripts/compare_textbook.py runs it), and the preset is raced
against the winner. Each run trains from one seed until its training episodes' metric (``--metric``: the
encounter's declared success rate, or its progress metric's mean), smoothed over ``--window`` env steps,
reaches ``--level``, or until ``--budget`` env steps; it is scored by the env steps it took. A
configuration's score is the median over its seeds (a seed that never reached the level counts as
infinite; ties go to the higher median final level).

The configurations start from ``--center``, the practitioner's single-file PPO of issue 43 (one tanh body
of 128 x 2 shared by policy and value, Adam 1e-3, the preset's gamma, lambda 0.95, 256 envs, horizon 64,
2 epochs of 4 minibatches), and move one knob at a time over every value of ``KNOBS`` (epochs 1/2/4, envs
128/256/512, gamma 0.99 and the preset's, lr 3e-4/1e-3/2.5e-3, shared or separate networks); ``--grid``
runs every combination instead. Re-centring on a winner (``--center epochs=4,lr=2.5e-3``) and running
again is coordinate descent; ``--move num_envs=64/128/256`` moves only the knobs named, over the values given
(a winner at the edge of ``KNOBS`` is checked past it); runs already done (a CSV under ``--runs-dir`` named
by the configuration and seed) are read back, not run again. ``--jobs 2`` runs two at a time, each on half the
cores (more runs an hour; the steps that score do not depend on the load, the seconds do). The table goes to
``OUT.md`` beside this command, the numbers and the winner's textbook_ppo.py arguments to ``OUT.json``,
which scripts/compare_textbook.py races the preset against (``--reference``).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import shlex
import statistics
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from osrs_rl.io.atomic import atomic_write
from osrs_rl.io.provenance import provenance
from osrs_rl.io.setup_file import claim_setup

SCRIPTS = Path(__file__).resolve().parent
sys.path.insert(0, str(SCRIPTS))
import compare_textbook as ct  # noqa: E402  (a sibling script: its curve reading and env settings)

# the knobs issue 43 names, with the values its sweep must cover; "preset" is the preset's own ppo.gamma
KNOBS = {"epochs": (1, 2, 4), "num_envs": (128, 256, 512), "gamma": (0.99, "preset"),
         "lr": (3e-4, 1e-3, 2.5e-3), "shared": (True, False)}
# issue 43's practitioner: CleanRL's single-file layout with the preset's gamma
CENTER = {"epochs": 2, "num_envs": 256, "gamma": "preset", "lr": 1e-3, "shared": True}


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--encounter", required=True)
    p.add_argument("--level", type=float, required=True, help="the level each run is timed to (a rate or a wave)")
    p.add_argument("--metric", choices=("success", "progress"), default="success")
    p.add_argument("--window", type=int, default=500_000, help="env steps the curves are smoothed over")
    p.add_argument("--budget", type=int, required=True, help="env steps a run may take to reach the level")
    p.add_argument("--seeds", default="0,1,2")
    p.add_argument("--center", default="", metavar="KNOB=VALUE,...",
                   help="moves from the practitioner's configuration to start from (e.g. epochs=4,lr=2.5e-3)")
    p.add_argument("--grid", action="store_true", help="every combination of KNOBS, not one knob at a time")
    p.add_argument("--move", action="append", default=[], metavar="KNOB=V1/V2/...",
                   help="move only the knobs named (repeatable), over these values (a value beyond KNOBS' is "
                        "allowed: a winner at the edge of KNOBS is checked past it)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="an encounter setting over the preset's (repeatable)")
    p.add_argument("--jobs", type=int, default=1,
                   help="runs side by side, each with its share of the cores as torch threads: their seconds are then "
                        "not those of a run alone (the steps, which score, do not depend on the load)")
    p.add_argument("--runs-dir", required=True)
    p.add_argument("--out", required=True, help="OUT.md and OUT.json are written (replaced)")
    return p.parse_args(argv)


def parse_value(knob: str, text: str, option: str = "--center"):
    """A ``--center`` (or ``option``'s) value in the type of the knob's listed values."""
    if knob not in KNOBS:
        raise SystemExit(f"{option}: unknown knob {knob!r}; the knobs are {', '.join(KNOBS)}")
    text = text.strip()
    if knob == "shared":
        if text.lower() not in ("true", "false"):
            raise SystemExit(f"{option} shared takes true or false, got {text!r}")
        return text.lower() == "true"
    if knob == "gamma" and text == "preset":
        return "preset"
    try:
        return int(text) if knob in ("epochs", "num_envs") else float(text)
    except ValueError:
        raise SystemExit(f"{option} {knob}={text!r} is not a number") from None


def centre(text: str) -> dict:
    c = dict(CENTER)
    for pair in filter(None, (s.strip() for s in text.split(","))):
        knob, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"--center takes KNOB=VALUE pairs, got {pair!r}")
        c[knob.strip()] = parse_value(knob.strip(), value)
    return c


def moves(texts: list[str]) -> dict:
    """``--move`` texts (``num_envs=64/128/256``) as ``{knob: values}``, each value in its knob's type."""
    out = {}
    for text in texts:
        knob, sep, values = text.partition("=")
        knob = knob.strip()
        if not sep or not values.strip():
            raise SystemExit(f"--move takes KNOB=V1/V2/..., got {text!r}")
        out[knob] = tuple(parse_value(knob, v, "--move") for v in values.split("/"))
    return out


def configurations(center: dict, grid: bool, knobs: dict | None = None) -> list[dict]:
    """The centre first, then each one-knob move from it (or every combination, ``grid``), no repeats; the knobs
    moved and their values are ``knobs`` (default: all of ``KNOBS``; the others stay at the centre)."""
    knobs = knobs or KNOBS
    if grid:
        out = [{**center, **dict(zip(knobs, vs, strict=True))} for vs in itertools.product(*knobs.values())]
        out.sort(key=lambda c: c != center)
        return out
    out = [dict(center)]
    for knob, values in knobs.items():
        out += [{**center, knob: v} for v in values if v != center[knob]]
    return out


def name(config: dict) -> str:
    """A configuration's folder-safe name: its runs' CSVs are found again by it."""
    return (f"epochs{config['epochs']}-envs{config['num_envs']}-gamma{config['gamma']}-lr{config['lr']:g}-"
            + ("shared" if config["shared"] else "separate"))


def textbook_args(config: dict, preset_gamma: float) -> list[str]:
    """scripts/textbook_ppo.py's arguments for one configuration (the rest stay its own)."""
    gamma = preset_gamma if config["gamma"] == "preset" else config["gamma"]
    args = ["--epochs", str(config["epochs"]), "--num-envs", str(config["num_envs"]), "--gamma", repr(float(gamma)),
            "--lr", repr(float(config["lr"]))]
    return args + (["--shared"] if config["shared"] else [])


def claim(runs: Path, setup: dict) -> None:
    """Record what ``runs`` holds (``setup.json``), or refuse a folder of another sweep: its runs are read back
    by configuration name alone, and each was stopped at its own level within its own budget."""
    other = claim_setup(runs, setup)
    if other is not None:
        raise SystemExit(f"{runs} holds the runs of another sweep ({other}: {json.loads(Path(other).read_text())}); "
                         "they would be read back as this one's: name another --runs-dir")


def score(reaches: list[int | None], finals: list[float]) -> tuple[float, float]:
    """Sort key, lower better: the median steps to the level (a miss is infinite), then minus the median
    final level."""
    return (statistics.median(math.inf if r is None else r for r in reaches), -statistics.median(finals))


def run_one(args, runs: Path, config: dict, seed: int, preset_gamma: float, settings: dict, opponents: list,
            threads: int | None) -> None:
    """One textbook_ppo.py run of ``config`` from ``seed``, to the level or the budget; its CSV lands in ``runs``
    only once it has finished (an interrupted run's partial log is started again)."""
    csv_path = runs / f"{name(config)}-s{seed}.csv"
    partial = csv_path.with_suffix(".partial.csv")
    partial.unlink(missing_ok=True)
    cmd = [sys.executable, str(SCRIPTS / "textbook_ppo.py"), "--encounter", args.encounter,
           "--total-steps", str(args.budget), "--seed", str(seed), "--log-every", "0",
           "--stop-at", repr(args.level), "--stop-metric", args.metric,
           "--stop-window", str(args.window), "--out", str(partial), *textbook_args(config, preset_gamma)]
    cmd += [a for k, v in settings.items() for a in ("--set", f"{k}={v}")]
    if opponents:
        cmd += ["--opponents", ",".join(opponents)]
    if threads:
        cmd += ["--threads", str(threads)]
    ct._run(cmd, csv_path.with_suffix(".log"))
    partial.replace(csv_path)


def main(argv=None) -> int:
    args = parse_args(argv)
    from osrs_rl.agent.config import load_config

    seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
    if not seeds:
        raise SystemExit("--seeds names no seed")
    preset_gamma = float(load_config(args.encounter).ppo.gamma)
    settings, opponents = ct.env_settings(args.encounter, args.set)
    runs = Path(args.runs_dir)
    if args.jobs < 1:
        raise SystemExit(f"--jobs must be at least 1, got {args.jobs}")
    # side by side, each run gets its share of the cores (alone, torch's own default)
    threads = max(1, (os.cpu_count() or 1) // args.jobs) if args.jobs > 1 else None
    claim(runs, dict(encounter=args.encounter, level=args.level, metric=args.metric, window=args.window,
                     budget=args.budget, settings=settings, opponents=opponents, threads=threads))
    rows = []
    configs = configurations(centre(args.center), args.grid, moves(args.move))
    print(f"{len(configs)} configurations x {len(seeds)} seeds on {args.encounter}, to {args.metric} {args.level} "
          f"within {args.budget:,} env steps", flush=True)
    todo = [(config, seed) for config in configs for seed in seeds
            if not (runs / f"{name(config)}-s{seed}.csv").is_file()]
    if todo:
        print(f"{len(todo)} runs to do, {args.jobs} at a time"
              + (f" ({threads} torch threads each)" if threads else ""), flush=True)
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            # list(): the first run that fails raises here (the others still finish: their CSVs are kept)
            list(pool.map(lambda job: run_one(args, runs, *job, preset_gamma, settings, opponents, threads), todo))
    for config in configs:
        per_seed = []
        for seed in seeds:
            csv_path = runs / f"{name(config)}-s{seed}.csv"
            curve = ct.smooth(ct.textbook_curve(csv_path, args.metric), args.window)
            hit = ct.first_reach([p for p in curve if p[0] >= args.window], args.level)
            per_seed.append(dict(seed=seed, steps=hit[0] if hit else None, seconds=hit[1] if hit else None,
                                 final=curve[-1][2] if curve else float("nan"), ran_steps=curve[-1][0] if curve else 0,
                                 ran_seconds=curve[-1][1] if curve else 0.0))
            got = (f"at {hit[0]:,} steps, {hit[1]:.0f} s" if hit
                   else f"not within the budget (ends at {per_seed[-1]['final']:.3f})")
            print(f"{name(config)} seed {seed}: {got}", flush=True)
        rows.append(dict(config=config, name=name(config), args=textbook_args(config, preset_gamma), runs=per_seed,
                         key=score([r["steps"] for r in per_seed], [r["final"] for r in per_seed])))
    rows.sort(key=lambda r: r["key"])
    best = rows[0]
    command = "python scripts/reference_sweep.py " + shlex.join(argv if argv is not None else sys.argv[1:])
    out = Path(args.out)
    atomic_write(out.with_suffix(".md"), markdown(args, rows, settings, opponents, preset_gamma, command).encode())
    data = ct._no_nan(dict(command=command, provenance=provenance(), encounter=args.encounter, metric=args.metric,
                           level=args.level, window=args.window, budget=args.budget, settings=settings,
                           opponents=opponents,
                           best=dict(config=best["config"], name=best["name"], textbook_args=best["args"]),
                           rows=[{k: (None if isinstance(v, float) and math.isinf(v) else v) for k, v in r.items()
                                  if k != "key"} | dict(median_steps=_finite(r["key"][0]))
                                 for r in rows]))
    atomic_write(out.with_suffix(".json"), (json.dumps(data, indent=1, allow_nan=False) + "\n").encode())
    print(f"best: {best['name']} ({' '.join(best['args'])}); table: {out.with_suffix('.md')}")
    return 0


def _finite(x: float):
    return None if math.isinf(x) else x


def markdown(args, rows, settings, opponents, preset_gamma, command) -> str:
    metric = "success rate" if args.metric == "success" else "progress"
    lines = [f"# The plain-PPO reference on {args.encounter}: scripts/textbook_ppo.py's own sweep", "",
             "```", command, "```", "",
             f"Env settings: {', '.join(f'{k}={v}' for k, v in settings.items()) or 'the defaults'}"
             + (f"; scripted opponents spread over the envs: {', '.join(opponents)}" if opponents else "") + ". "
             f"Each run is timed to its training episodes' {metric} reaching {args.level}, smoothed over "
             f"{args.window:,} env steps (a whole window run first), within {args.budget:,} env steps. Knobs not "
             f"named stay textbook_ppo.py's: horizon 64, 4 minibatches, lambda 0.95, clip 0.2, entropy 0.01, "
             f"tanh 128 x 2, masks as logits of -1e8. \"preset\" gamma: {preset_gamma}. Seconds count from the "
             "first env step" + (f", with {args.jobs} runs side by side (not those of a run alone)" if args.jobs > 1
                                 else "") + ". Best first.", "",
             "| configuration | " + " | ".join(f"seed {r['seed']}: steps, s" for r in rows[0]["runs"])
             + " | median steps | median s | median final |",
             "|---|" + "---|" * (len(rows[0]["runs"]) + 3)]
    for r in rows:
        cells = [f"{x['steps']:,}, {x['seconds']:.0f}" if x["steps"] is not None
                 else f"not by {x['ran_steps']:,} ({x['final']:.3g})" for x in r["runs"]]
        secs = statistics.median(math.inf if x["seconds"] is None else x["seconds"] for x in r["runs"])
        med = r["key"][0]
        lines.append(f"| `{r['name']}` | " + " | ".join(cells)
                     + f" | {'-' if math.isinf(med) else f'{med:,.0f}'} | {'-' if math.isinf(secs) else f'{secs:.0f}'}"
                     f" | {-r['key'][1]:.3g} |")
    lines += ["", f"Best: `{rows[0]['name']}`, textbook_ppo.py {' '.join(rows[0]['args'])}. "
              "A seed that missed the level counts as infinite in the median."]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
