"""The ``osrs-rl`` command: one entry point with subcommands.

  osrs-rl train   ``train ENCOUNTER``: PPO from the encounter's preset (``--print-config``; several
                  processes or machines under torchrun: docs/guide/distributed.md)
  osrs-rl demo    calculator examples and the engine benchmark
  osrs-rl calc    the DPS-calculator view of the engine (player vs NPC, or NPC vs player)
  osrs-rl eval    ``--checkpoint FILE``: a trained policy; ``--policy NAME``: a scripted policy the
                  encounter declares (``eval zulrah --policy solver``, one row per gear tier); ``--tool
                  NAME``: a report it declares (``eval pvp --tool ladder``); ``--set KEY=VALUE``: its settings
  osrs-rl list    the encounters (discovered: entry points), or what one declares
  osrs-rl bench   throughput of the engine kernels, or ``osrs-rl bench ENCOUNTER`` of an encounter
  osrs-rl replay  ``verify FILE`` re-simulates a replay file; ``info FILE`` says what it holds;
                  ``render FILE --out x.mp4`` draws it (.png, .gif, .mp4 or a folder of PNG frames)
  osrs-rl view    ``view A.orlr [B.orlr]``: a page on 127.0.0.1 that plays replays (two side by side)
  osrs-rl play    ``play pvp --opponent elite``: play an encounter in that page; save it as a demonstration
  osrs-rl audit   ``audit RUN``: where a policy stands, when it attacks, what hurts it, what it uses,
                  against the encounter's reference (heatmap.png, report.md, report.json)
  osrs-rl sweep   ``sweep ENCOUNTER --space FILE``: an Optuna study of training runs (``sweep report DIR``,
                  ``sweep worker --storage URL``; docs/guide/sweeps.md)
  osrs-rl archive ``archive build ENCOUNTER --out FILE``: a Go-Explore archive by exploring; ``archive show
                  FILE``: its cells by phase (``--cell KEY --replay OUT``: how a run reached one)
  osrs-rl device-check  ``device-check OUT``: tests, env rates, training throughput on the GPU and the CPU and a long
                  run, as one table in OUT (scripts/device_check.sh; ``--quick``: seconds, to try the machinery)
  osrs-rl --version  the version and the git commit of the code (", dirty" when its tree differs from it;
                  the same record is in every run folder, checkpoint, eval.json and replay: osrs_rl.io.provenance)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

from osrs_rl.explore.command import add_archive_parser
from osrs_rl.replay.cli_web import add_play_parser, add_view_parser
from osrs_rl.sweep.command import add_sweep_parser

console = Console()


def _pairs(values: list[str] | None, what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for v in values or []:
        if "=" not in v:
            raise SystemExit(f"error: --{what} expects KEY=VALUE, got {v!r}")
        k, val = v.split("=", 1)
        out[k.strip()] = val.strip()
    return out


def _int_pairs(values: list[str] | None, what: str) -> dict[str, int]:
    out = {}
    for k, v in _pairs(values, what).items():
        try:
            out[k] = int(v)
        except ValueError:
            raise SystemExit(f"error: --{what} {k}={v!r}: the value must be an integer") from None
    return out


def _print_result(title: str, result, explain: bool) -> None:
    table = Table(title=title)
    table.add_column("quantity")
    table.add_column("value", justify="right")
    for k, v in result.rows():
        table.add_row(k, v)
    console.print(table)
    if explain:
        console.print("[bold]steps[/bold] (each floored as the game does):")
        for line in result.steps:
            console.print("  " + line)


def cmd_calc(args: argparse.Namespace) -> int:
    from osrs_rl import calc

    player = dict(levels=_int_pairs(args.level, "level"), boosts=_int_pairs(args.boost, "boost"),
                  prayers=args.prayer or [], gear=_pairs(args.gear, "gear"), style=args.style)
    try:
        if args.from_npc:
            result = calc.npc_vs_player(args.from_npc, args.attack_type, **player)
            title = f"{args.from_npc} ({args.attack_type}) vs player"
        else:
            result = calc.player_vs_npc(**player, spell=args.spell, special=args.special, target=args.target,
                                        kandarin_diary=args.kandarin)
            title = f"player vs {args.target}" + (" (special attack)" if args.special else "")
    except calc.CalcInputError as e:
        console.print(f"[red]error:[/red] {e}")
        return 2
    _print_result(title, result, args.explain)
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    if args.encounter is None:
        from osrs_rl.core import bench

        bench.main()
        return 0
    from osrs_rl.runtime import bench as runtime_bench
    from osrs_rl.runtime.registry import names

    if args.encounter not in names():
        console.print(f"[red]error:[/red] unknown encounter {args.encounter!r}; known: {', '.join(names())}")
        return 2
    from osrs_rl.runtime.registry import get_spec

    try:
        config = encounter_settings(get_spec(args.encounter), args.set)
    except (KeyError, ValueError) as e:
        return _error(str(e).strip("'\""))
    runtime_bench.main(args.encounter, config)
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from osrs_rl import calc
    from osrs_rl.core import bench

    console.rule("osrs-rl demo: what the engine believes")
    examples = [
        ("Twisted bow, Rigour, +13 ranged vs Zulrah (Magma)",
         dict(gear={"weapon": "Twisted bow", "ammo": "Dragon arrow"}, prayers=["Rigour"], style="Rapid",
              boosts={"ranged": 13}, target="Zulrah (Magma)")),
        ("Toxic blowpipe special vs Zulrah (Serpentine)",
         dict(gear={"weapon": "Toxic blowpipe", "ammo": "Dragon dart"}, style="Rapid", special=True,
              target="Zulrah (Serpentine)")),
        ("Ice Barrage from a Kodai wand, Augury, vs Jal-Xil",
         dict(gear={"weapon": "Kodai wand", "neck": "Occult necklace"}, prayers=["Augury"],
              spell="Ice Barrage", target="Jal-Xil")),
    ]
    for title, kwargs in examples:
        _print_result(title, calc.player_vs_npc(**kwargs), explain=False)
    _print_result("JalTok-Jad magic vs a player without prayer",
                  calc.npc_vs_player("JalTok-Jad", "magic", levels={"defence": 70}), explain=False)
    console.rule("the runtime: 1024 template fights, a scripted policy")
    _demo_rollout()
    console.rule("engine benchmark")
    bench.main()
    return 0


def _demo_rollout(num_envs: int = 1024, ticks: int = 300) -> None:
    """Attack when ready, pray melee, eat below half hitpoints: a baseline anyone can beat."""
    import time

    import numpy as np

    import osrs_rl
    from osrs_rl.runtime.obs_layout import position

    env = osrs_rl.make("template", num_envs=num_envs, seed=0)
    hp = position(env.spec, "player", "hp")               # the player's hitpoints fraction, read by name
    obs, info = env.reset()
    actions = np.zeros((num_envs, env.spec.num_heads), dtype=np.int64)
    start = time.perf_counter()
    for _ in range(ticks):
        mask = info["action_mask"]
        actions[:, 0] = mask[:, 1]                        # attack when the timer allows
        actions[:, 1] = mask[:, 3]                        # switch Protect from Melee on if off
        actions[:, 2] = (obs[:, hp] < 0.5) & mask[:, 6]   # eat below half hitpoints
        obs, reward, terminated, truncated, info = env.step(actions)
    elapsed = time.perf_counter() - start
    m = env.pop_metrics()
    console.print(f"{len(m['won'])} episodes finished in {ticks} ticks x {num_envs} envs "
                  f"({num_envs * ticks / elapsed:,.0f} env steps/s incl. the policy): won {m['won'].mean():.1%}, "
                  f"mean length {m['ticks'].mean():.0f} ticks, food eaten {m['food_eaten'].mean():.2f}")


def _error(message: str) -> int:
    from rich.markup import escape

    console.print("[red]error:[/red] " + escape(message), soft_wrap=True)     # one line, brackets as typed
    return 2


# eval's options and the modes they act in: one given in another mode would do nothing, so it is refused
EVAL_MODES = ("--checkpoint", "--policy", "--tool")
EVAL_OPTIONS = {
    "episodes": ("--episodes", ("--checkpoint", "--policy")),
    "opponent": ("--opponent", ("--checkpoint",)),
    "greedy": ("--greedy", ("--checkpoint",)),
    "seed": ("--seed", ("--checkpoint", "--policy", "--tool")),
    "replays": ("--replays", ("--checkpoint",)),
    "replay_dir": ("--replay-dir", ("--checkpoint",)),
    "opt": ("--opt", ("--policy", "--tool")),
}
EVAL_DEFAULTS = {"episodes": 256, "seed": 0, "replays": 0}


def _eval_mode_error(args: argparse.Namespace) -> str | None:
    """Why this combination of eval options cannot run as given (None: it can); fills the defaults."""
    given = [m for m, on in zip(EVAL_MODES, (args.checkpoint is not None, args.policy is not None,
                                             args.tool is not None), strict=True) if on]
    if len(given) > 1:
        return (f"give one of --checkpoint FILE (a trained policy), --policy NAME (a scripted one) or --tool NAME "
                f"(a report the encounter offers), not both {' and '.join(given)}")
    mode = given[0] if given else None
    for dest, (flag, modes) in EVAL_OPTIONS.items():
        value = getattr(args, dest)
        if value not in (None, False, []) and mode not in modes:
            where = f"; it does nothing with {mode}" if mode else ""
            return f"{flag} goes with {' or '.join(modes)}{where} (osrs-rl eval --help lists which goes with which)"
    if mode is None:
        return (f"give --checkpoint FILE (a trained policy), --policy NAME (a scripted one) or --tool NAME (a report); "
                f"`osrs-rl list {args.encounter}` shows what {args.encounter!r} offers")
    if args.replay_dir is not None and not args.replays:
        return "--replay-dir says where --replays N go: give --replays N too"
    for dest, default in EVAL_DEFAULTS.items():
        if getattr(args, dest) is None:
            setattr(args, dest, default)
    return None


def encounter_settings(spec, pairs: list[str] | None) -> dict:
    """``--set KEY=VALUE`` pairs as the encounter's config overrides (``runtime.config.settings_from_text``)."""
    from osrs_rl.runtime.config import settings_from_text

    return settings_from_text(spec, _pairs(pairs, "set"))


def cmd_eval(args: argparse.Namespace) -> int:
    from osrs_rl.runtime.registry import get_spec

    problem = _eval_mode_error(args)
    if problem is not None:
        return _error(problem)
    try:
        spec = get_spec(args.encounter)
        args.config = encounter_settings(spec, args.set)
    except (KeyError, ValueError) as e:
        return _error(str(e).strip("'\""))
    if args.policy is not None:
        return _eval_scripted(spec, args)
    if args.checkpoint is not None:
        return _eval_checkpoint(args)
    return _eval_tool(spec, args)


def _eval_tool(spec, args: argparse.Namespace) -> int:
    from rich.progress import Progress

    from osrs_rl.runtime.spec import resolve_settings

    try:
        tool = spec.tool(args.tool)
        settings = resolve_settings(f"tool {tool.name!r} of {spec.name!r}", tool.settings, _pairs(args.opt, "opt"))
    except (KeyError, ValueError) as e:
        return _error(str(e).strip("'\""))
    out = console if console.is_terminal else Console(width=140)   # logs and pipes get whole tables, not cut ones
    what = f"{spec.name} {tool.name}"
    if not out.is_terminal:                  # a bar on a terminal; a log or a pipe gets one line as the work starts
        out.print(f"{what} ...", markup=False)
    with Progress(console=out, transient=True, disable=not out.is_terminal) as bar:
        task = bar.add_task(what, total=None)
        try:
            report = tool.run(seed=args.seed, progress=lambda done, total: bar.update(task, completed=done,
                                                                                      total=total),
                              config=args.config, **settings)
        except ValueError as e:                      # a config value out of range, named by the runtime
            return _error(str(e))
    table = Table(title=report.title)
    for k, c in enumerate(report.columns):
        table.add_column(c, justify="left" if k == 0 else "right")
    for row in report.rows:
        table.add_row(*row)
    out.print(table)
    for line in report.notes:
        out.print(line, markup=False)
    return 0


def _eval_scripted(spec, args: argparse.Namespace) -> int:
    from osrs_rl.runtime.spec import resolve_settings
    from osrs_rl.train.evaluate import progress_bar
    from osrs_rl.train.evaluate_solver import evaluate_scripted, print_scripted_table, scripted_rows

    if args.episodes < 1:
        return _error(f"--episodes must be at least 1, got {args.episodes}")
    try:
        policy = spec.scripted_policy(args.policy)
        settings = resolve_settings(f"scripted policy {policy.name!r} of {spec.name!r}", policy.settings,
                                    _pairs(args.opt, "opt"))
    except (KeyError, ValueError) as e:
        return _error(str(e).strip("'\""))
    chosen = args.config.pop(policy.rows) if policy.rows in args.config else None
    rows = scripted_rows(spec, policy.name, chosen)
    labels = [label for label, _ in rows]
    by = policy.rows or "row"
    # a bar on a terminal; a log or a pipe gets one line as the work starts
    with progress_bar(console, f"{policy.name}: {len(rows)} {by} value(s) x {args.episodes} episodes") as bar:
        def report(label, done, total):
            bar(labels.index(label) * total + done, len(rows) * total, f"{by} {label}")

        try:
            table = evaluate_scripted(spec.name, policy.name, rows, args.episodes, args.seed, args.config, settings,
                                      report)
        except ValueError as e:                   # a config value out of range
            return _error(str(e))
    print_scripted_table(spec, table, policy.rows, console,
                         title=f"{spec.name} {policy.name}: {args.episodes} episodes per {by} (seed {args.seed})")
    return 0


def _eval_checkpoint(args: argparse.Namespace) -> int:
    from osrs_rl.agent.policy import load_policy
    from osrs_rl.train.evaluate import evaluate, print_table, progress_bar

    if args.episodes < 1:
        return _error(f"--episodes must be at least 1, got {args.episodes}")
    if args.replays < 0:
        return _error(f"--replays must be at least 0, got {args.replays}")
    out = None
    if args.replays:
        out = _eval_replay_dir(args)
        if isinstance(out, str):
            return _error(out)
    try:
        policy = load_policy(args.checkpoint)
        if policy.encounter != args.encounter:
            return _error(f"checkpoint {args.checkpoint} is a {policy.encounter!r} policy, not {args.encounter!r}")
        with progress_bar(console, "evaluating") as report:
            rows = evaluate(policy, episodes=args.episodes, opponents=args.opponent or None, seed=args.seed,
                            greedy=args.greedy, config=args.config, progress=report)
    except (ValueError, KeyError) as e:
        return _error(str(e).strip("'\""))
    print_table(rows, console, title=f"{args.checkpoint}: {args.episodes} episodes per opponent")
    if out is not None:
        from osrs_rl.train.evaluate import save_replays

        paths = save_replays(policy, out, args.replays, opponents=args.opponent or None, seed=args.seed,
                             greedy=args.greedy)
        console.print(f"{len(paths)} replays in {out} (check one: osrs-rl replay verify {paths[0]})", markup=False,
                      soft_wrap=True)
    return 0


def _eval_replay_dir(args: argparse.Namespace) -> Path | str:
    """Where ``eval --replays`` writes (or why it cannot, a str), decided before the evaluation: a folder
    of its own, never the training run's ``replays/`` (its final evaluation's files) nor one holding replays
    already. Default: ``eval-replays/<date>-<time>`` beside the checkpoint."""
    from datetime import datetime

    from osrs_rl.io.writable import writable_problem
    from osrs_rl.train.run_folder import fresh_folder

    if args.replay_dir:
        out = Path(args.replay_dir)
        held = sorted(p.name for p in out.glob("*.orlr")) if out.is_dir() else []
        if held:
            return (f"--replay-dir {out} holds replays already ({', '.join(held[:3])}"
                    f"{' ...' if len(held) > 3 else ''}): name a new or empty folder, so that none is replaced")
    else:
        out = fresh_folder(Path(args.checkpoint).parent / "eval-replays", datetime.now().strftime("%Y%m%d-%H%M%S"))
    return writable_problem(out, "--replay-dir") or out


def cmd_list(args: argparse.Namespace) -> int:
    from osrs_rl.runtime.registry import get_spec, sources

    if args.encounter is None:
        table = Table(title="encounters (osrs-rl list NAME: what one declares)")
        for c in ("name", "description", "found by"):
            table.add_column(c)
        for name, source in sorted(sources().items()):
            try:
                description = get_spec(name).description
            except ValueError as e:                   # a stale or broken entry point: say so, list the rest
                description = f"cannot be loaded: {e}"
            table.add_row(name, description, source.describe())
        console.print(table)
        return 0
    try:
        spec = get_spec(args.encounter)
    except (KeyError, ValueError) as e:
        return _error(str(e).strip("'\""))
    say = console.print
    say(f"[bold]{spec.name}[/bold] (version {spec.version}): {spec.description}", highlight=False)
    say(f"found by {sources()[spec.name].describe()}", markup=False)
    o = spec.outcome
    if o is not None:
        parts = [f"success {o.success}"] + ([f"failure {', '.join(o.failure)}"] if o.failure else []) + (
            [f"timeout {o.timeout}"] if o.timeout else []) + ([f"other {', '.join(o.other)}"] if o.other else []) + (
            [f"length {o.length}"] if o.length else []) + ([f"progress {o.progress}"] if o.progress else [])
        say("outcome: " + "; ".join(parts), markup=False)
    else:
        say("outcome: not declared (evaluation cannot count wins)", markup=False)
    say("settings (--set KEY=VALUE in every command; train and audit also read --env.config.KEY VALUE, a "
        "--config file [env.config]):", markup=False, soft_wrap=True)
    for f in spec.config_fields:
        if not f.derived:
            facts = [f"default {f.label(f.default)}"] + (
                [f"range {f.low}..{f.high}"] if f.low is not None or f.high is not None else []) + (
                ["choices " + ", ".join(f"{n}={v}" for v, n in f.choices)] if f.choices else [])
            say(f"  {f.name} ({'; '.join(facts)}){': ' + f.doc if f.doc else ''}", markup=False, soft_wrap=True)
    presets = _presets(spec)
    if presets:
        say(f"training presets (osrs-rl train {spec.name} [--config PATH]; without --config the first):", markup=False,
            soft_wrap=True)
        for path, doc in presets:
            say(f"  {path}{': ' + doc if doc else ''}", markup=False, soft_wrap=True)
    if spec.gpu_preset is not None:
        path, doc = _preset_entry(Path(spec.gpu_preset))
        say(f"GPU preset (osrs-rl train {spec.name} --preset gpu: these settings over the preset or --config file):",
            markup=False, soft_wrap=True)
        say(f"  {path}{': ' + doc if doc else ''}", markup=False, soft_wrap=True)
    declared = (("scripted policies", spec.scripted_policies, "--policy"), ("tools", spec.tools, "--tool"))
    for kind, items, flag in declared:
        if not items:
            say(f"{kind}: none", markup=False)
            continue
        say(f"{kind} (osrs-rl eval {spec.name} {flag} NAME [--opt KEY=VALUE]):", markup=False)
        for item in items:
            rows = f" (one table row per {item.rows})" if getattr(item, "rows", None) else ""
            say(f"  {item.name}: {item.doc}{rows}", markup=False)
            for setting in item.settings:
                say(f"    --opt {setting.describe()}", markup=False)
    return 0


def _presets(spec) -> list[tuple[str, str]]:
    """The encounter's training configs, (path as the user would type it, its first comment line): its
    declared preset first, then the other TOML files beside it that hold training sections (not a sweep's
    space, not another encounter's declared preset, not a GPU preset: those go over a preset, not for it)."""
    import tomllib

    from osrs_rl.agent.config import SECTIONS
    from osrs_rl.runtime.registry import get_spec, names

    if spec.preset is None:
        return []
    default = Path(spec.preset)
    others = set()
    for name in names():
        try:
            other = get_spec(name)
        except ValueError:
            continue
        if other.preset and name != spec.name:
            others.add(Path(other.preset).resolve())
        if other.gpu_preset:
            others.add(Path(other.gpu_preset).resolve())
    found = []
    for path in [default] + sorted(p for p in default.parent.glob("*.toml") if p != default):
        if path.resolve() in others:
            continue
        try:
            tables = tomllib.loads(path.read_text())
        except (OSError, ValueError):
            continue
        if not tables or not set(tables) <= set(SECTIONS):
            continue
        found.append(_preset_entry(path))
    return found


def _preset_entry(path: Path) -> tuple[str, str]:
    """(``path`` as the user would type it, the first sentence of its leading comment)."""
    import itertools
    import re

    try:
        text = path.read_text()
    except OSError:
        return str(path), ""
    lead = " ".join(ln.lstrip("# ").strip() for ln in itertools.takewhile(lambda ln: ln.startswith("#"),
                                                                             text.splitlines()))
    first = re.split(r"(?<=[.)])\s", lead, maxsplit=1)[0]       # its first sentence
    try:
        shown = str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        shown = str(path)
    return shown, first


def _encounter_settings(encounter: str) -> str:
    """The encounter's own settings (``--env.config.KEY``) as TOML comments: default, range, meaning."""
    from osrs_rl.runtime.registry import get_spec

    lines = [f"# {encounter}'s own settings ([env.config] here, --set KEY=VALUE or --env.config.KEY value on the "
             "command line; unset ones take the default):"]
    for f in get_spec(encounter).config_fields:
        if not f.derived:
            span = f" in {f.low}..{f.high}" if f.low is not None and f.high is not None else ""
            lines.append(f"#   {f.name} = {f.default}{span}" + (f"  {f.doc}" if f.doc else ""))
    return "\n".join(lines) + "\n"


def cmd_train(args: argparse.Namespace) -> int:
    from rich.markup import escape

    from osrs_rl.agent.config import load_config
    from osrs_rl.runtime.registry import names
    from osrs_rl.train.distributed import DistributedError, from_environment, torchrun_flag_error
    from osrs_rl.train.ppo import Trainer, resume_config

    problem = torchrun_flag_error(args.overrides)
    if problem is not None:
        return _error(problem)
    try:
        where = from_environment()                 # torchrun's variables: this process's rank in the job
    except ValueError as e:
        return _error(str(e))
    if args.encounter not in names():
        return _error(f"unknown encounter {args.encounter!r}; known: {', '.join(names())}")
    if args.resume and (args.config or args.preset != "default"):
        flag = "--config" if args.config else f"--preset {args.preset}"
        return _error(f"{flag} goes with a new run: a resumed run keeps the settings stored in its checkpoint "
                      "(change the ones a resume may change with --section.key value)")
    try:
        cfg = resume_config(args.resume, args.overrides) if args.resume else load_config(
            args.encounter, args.config, args.overrides, preset=args.preset)
        if cfg.env.encounter != args.encounter:
            return _error(f"checkpoint {args.resume} is a {cfg.env.encounter!r} run, not {args.encounter!r}")
        if args.print_config:
            from osrs_rl.agent.config import to_toml

            sys.stdout.write(to_toml(cfg) + _encounter_settings(args.encounter))
            return 0
        trainer = Trainer(cfg, resume=args.resume, dist=where, hold_folder=True)
    except ValueError as e:
        return _error(str(e))
    except DistributedError as e:
        console.print("[red]error:[/red] " + escape(str(e)))
        return 1
    try:                                    # the run folder stays claimed until its last file is written
        return _train_and_report(trainer, args, where)
    finally:
        trainer.close()


def _train_and_report(trainer, args: argparse.Namespace, where) -> int:
    """``train``: the run (``osrs_rl.train.run``: train, evaluate, write eval.json and the replays; on rank 0,
    which reports for the job), then where everything went; a stop or a failure in a line that says what
    the checkpoint holds and how to go on."""
    from rich.markup import escape

    from osrs_rl.train.distributed import DistributedError
    from osrs_rl.train.ppo import NonFiniteError, ignore_stop_signals
    from osrs_rl.train.runner import run

    ckpt = trainer.checkpoint_path()

    def say(text: str) -> None:             # paths and commands: no markup, no line breaks inside them
        console.print(text, markup=False, soft_wrap=True)
    again = (f"torchrun --nproc-per-node {where.world_size} -m osrs_rl.cli" if where.enabled else "osrs-rl") + (
        f" train {args.encounter} --resume {ckpt}")
    try:
        result = run(trainer, console=console if where.is_main else None)
    except KeyboardInterrupt:              # the message says what the checkpoint holds, never more
        if not where.is_main:              # rank 0 says it for the job
            return INTERRUPTED
        step = trainer.global_step
        if trainer.saved_step == step:
            say(f"interrupted at step {step:,}; checkpoint saved: {ckpt} (continue: {again})")
        elif trainer.saved_step is not None:
            say(f"interrupted at step {step:,}; its checkpoint could not be saved; the last one, at step "
                f"{trainer.saved_step:,}, is {ckpt} (continue: {again})")
        else:
            resumed = f"; the one it resumed from is {args.resume}" if args.resume else ""
            say(f"interrupted at step {step:,} before a checkpoint was saved{resumed}")
        ignore_stop_signals()
        return INTERRUPTED
    except (NonFiniteError, DistributedError) as e:
        console.print("[red]error:[/red] " + escape(str(e)))
        return 1
    except ImportError as e:               # an optional package a setting needs (log.wandb: wandb)
        return _error(str(e))
    except OSError as e:                   # a full disk, a folder gone or made read-only under the run
        cause = e.strerror or str(e)
        place = f" ({e.filename})" if e.filename else ""
        kept = (f"the last checkpoint, at step {trainer.saved_step:,}, is {ckpt} (continue once there is room: "
                f"{again})" if trainer.saved_step is not None else
                f"the run it resumed from is {args.resume}" if args.resume else "no checkpoint was saved")
        say(f"error: writing the run failed at step {trainer.global_step:,}: {cause}{place}; {kept}")
        return 1
    if not where.is_main:                  # the other ranks only train
        return 0
    rows, replays = result.eval_rows, result.replays
    say(f"logs (TensorBoard events, config.json{', eval.json' if rows else ''}): {result.run_dir}")
    say(f"checkpoint: {ckpt}  (train further: {again} --run.total_steps N; "
        f"evaluate: osrs-rl eval {args.encounter} --checkpoint {ckpt})")
    if rows:
        console.print(f"replays of evaluation episodes: {result.run_dir / 'replays'} ({len(replays)} files; "
                      f"osrs-rl replay verify FILE re-simulates one)")
        win = _first_win(replays)
        if win is not None:
            say(f"watch the policy win (its value and action probabilities per tick): osrs-rl view {win}")
        else:
            best = next((p for p in replays if Path(p).name.startswith("best-")), replays[0] if replays else None)
            say("none of the evaluation replays is a win" + (
                f"; watch its best episode (the highest return): osrs-rl view {best}" if best else ""))
    if result.training_replays is not None:
        console.print(f"replays of training episodes (the best so far and a sample): {result.training_replays}")
    if trainer.spec.truth is not None:
        console.print(f"check what the policy does against the reference: osrs-rl audit {result.run_dir}")
    return 0


def _first_win(paths) -> Path | None:
    """The first replay among ``paths`` whose episode the learner won: the encounter's declared success,
    re-simulated (a replay whose meta names it a copy of another, ``copy_of``, is passed over)."""
    from osrs_rl.replay.file import load_replay
    from osrs_rl.replay.outcome import replay_won

    for path in paths:
        replay = load_replay(path)
        if "copy_of" not in replay.meta and replay_won(replay):
            return Path(path)
    return None


RENDER_OPTIONS = {"out": "--out", "tick": "--tick", "fps": "--fps", "overlays": "--overlays", "start": "--start",
                  "end": "--end", "frames": "--frames"}


def _render_options_error(args: argparse.Namespace, kind: str) -> str | None:
    """Why ``replay render``'s options cannot all act for an output of ``kind`` (None: they can)."""
    if kind == "png":
        unused = [f for f, v in (("--start", args.start), ("--end", args.end), ("--fps", args.fps)) if v is not None]
        if unused:
            return f"{unused[0]} does nothing for a .png (one frame): pick the frame with --tick, or write a .gif/.mp4"
    elif args.tick is not None:
        return "--tick picks the frame of a .png; for a .gif, .mp4 or frames folder give --start and --end"
    if args.start is not None and args.end is not None and args.start > args.end:
        return f"--start {args.start} comes after --end {args.end}: the first frame must not follow the last"
    return None


def cmd_replay(args: argparse.Namespace) -> int:
    from osrs_rl.io.provenance import describe
    from osrs_rl.replay import FORMAT_VERSION, ReplayError, load_replay, verify_replay
    from osrs_rl.replay.file import check_compatible

    if args.action != "render":
        flags = [flag for dest, flag in RENDER_OPTIONS.items() if getattr(args, dest) not in (None, False)]
        if flags:
            return _error(f"{flags[0]} goes with `osrs-rl replay render`, not `replay {args.action}`")
    try:
        replay = load_replay(args.file, check=args.action in ("verify", "render"))
        if args.action == "render":
            return _render_replay(replay, args)
        if args.action == "verify":
            result = verify_replay(replay)
            console.print(result.message(), markup=False)
            return 0 if result.ok else 1
    except ReplayError as e:
        return _error(str(e))
    table = Table(title=str(args.file))
    table.add_column("field")
    table.add_column("value")
    for k, v in [("encounter", replay.encounter), ("spec version", str(replay.spec_version)),
                 ("replay format", str(FORMAT_VERSION)),
                 ("config", ", ".join(f"{k}={v}" for k, v in replay.config.items()) or "(defaults)"),
                 ("ticks", str(replay.ticks)), ("outcome", replay.outcome()),
                 ("return per agent", ", ".join(f"{r:g}" for r in replay.rewards.sum(axis=0, dtype=float))),
                 ("annotations", ", ".join(replay.annotations()) or "none"),
                 ("meta", ", ".join(f"{k}={v}" for k, v in replay.meta.items()) or "none"),
                 ("written by", f"osrs-rl {describe(replay.written_by or {}, short=12)}")]:
        table.add_row(k, v)
    console.print(table)
    try:
        check_compatible(replay, str(args.file))
    except ReplayError as e:
        console.print(f"[yellow]note:[/yellow] {e}", markup=True)
    return 0


def _render_replay(replay, args: argparse.Namespace) -> int:
    from rich.progress import Progress

    from osrs_rl.io.writable import check_writable
    from osrs_rl.replay import ReplayError
    from osrs_rl.replay.export import DEFAULT_FPS, frame_range, output_kind, render_replay
    from osrs_rl.replay.render import overlay_names

    if not args.out:
        return _error("replay render needs --out PATH (.png, .gif, .mp4, or a folder ending in / for PNG frames)")
    try:
        kind = output_kind(args.out, args.frames)
        problem = _render_options_error(args, kind)
        if problem is not None:
            return _error(problem)
        overlay_names(args.overlays or ())
        total = len(frame_range(replay, kind, args.tick, args.start, args.end))
        check_writable(args.out if kind == "frames" else Path(args.out).parent, "--out")
        fps = DEFAULT_FPS if args.fps is None else args.fps
        if not fps > 0:
            raise ValueError(f"--fps must be positive, got {fps}")
    except ValueError as e:
        return _error(str(e))
    drawn = [0]
    with Progress(console=console, transient=True, disable=total < 10) as progress:
        task = progress.add_task(f"drawing {total} frame(s)", total=total)

        def advance(done, _):
            drawn[0] = done
            progress.update(task, completed=done)
        try:
            out = render_replay(replay, args.out, fps=fps, start=args.start, end=args.end, tick=args.tick,
                                frames=args.frames, overlays=args.overlays or (), progress=advance)
        except ReplayError as e:                    # the file's fault: its states do not re-simulate
            return _error(str(e))
        except OSError as e:                        # the disk's: full, or the folder gone
            return _error(f"writing {args.out} failed after {drawn[0]} of {total} frame(s): {e.strerror or e}")
        except Exception as e:                      # noqa: BLE001 - the input was checked above: this is ours
            console.print(f"internal error: drawing frame {drawn[0] + 1} of {total} failed ({type(e).__name__}: {e}). "
                          f"This is a bug in osrs-rl's renderer, not in the replay or the options; please report it "
                          f"with the replay file.", markup=False, soft_wrap=True)
            return 1
    console.print(f"{total} frame(s) of {replay.encounter} written to {out}", markup=False)
    return 0


def cmd_audit(args: argparse.Namespace) -> int:
    from rich.progress import Progress

    from osrs_rl.agent.config import parse_overrides
    from osrs_rl.audit.console import print_report
    from osrs_rl.audit.run import AuditError, audit

    if args.episodes < 1:
        return _error(f"--episodes must be at least 1, got {args.episodes}")
    try:
        parsed = parse_overrides(args.overrides)
    except ValueError as e:
        return _error(str(e))
    other = sorted(set(parsed) - {"env"}) + sorted(f"env.{k}" for k in parsed.get("env", {}) if k != "config")
    if other:
        return _error(f"audit takes encounter settings only (--env.config.KEY VALUE), not --{other[0]}")
    config = parsed.get("env", {}).get("config", {})
    with Progress(console=console, transient=True) as bar:
        task = bar.add_task("auditing", total=None)

        def report(done, total):
            bar.update(task, completed=done, total=total, description=f"episodes {done}/{total}")

        try:
            result, out = audit(args.path, episodes=args.episodes, seed=args.seed, greedy=args.greedy, out=args.out,
                                config=config, opponents=args.opponent, from_replays=args.replays, progress=report)
        except (AuditError, ValueError) as e:           # ReplayError, ConfigError and CheckpointError included
            return _error(str(e))
    print_report(result, console)
    files = ["heatmap.png", "report.md", "report.json"] + result["saved_replays"]
    console.print(f"audit written to {out}: {', '.join(files)}", markup=False, soft_wrap=True)
    failed = [c["check"] for c in result["checks"] if not c["ok"]]
    if failed:
        console.print(f"[bold red]flagged:[/bold red] {'; '.join(failed)}")
    return 1 if failed and args.strict else 0


def cmd_device_check(args: argparse.Namespace) -> int:
    from osrs_rl.runtime.registry import get_spec, names
    from osrs_rl.train import device_check

    given = (("--budget-minutes", args.budget_minutes), ("--gpu-seconds", args.gpu_seconds),
             ("--cpu-seconds", args.cpu_seconds), ("--long-minutes", args.long_minutes),
             ("--eval-episodes", args.eval_episodes))
    for flag, value in given:
        if value is not None and not value > 0:
            return _error(f"{flag} must be positive, got {value}")
    numbers = {"budget_s": args.budget_minutes and args.budget_minutes * 60.0, "gpu_s": args.gpu_seconds,
               "cpu_s": args.cpu_seconds, "long_minutes": args.long_minutes, "eval_episodes": args.eval_episodes}
    if args.long_set and args.long is None:
        return _error("--long-set gives the long run's settings: name its encounter with --long ENCOUNTER")
    settings = {}
    if args.long is not None:
        if args.long not in names():
            return _error(f"unknown encounter {args.long!r} for --long; known: {', '.join(names())}")
        try:
            settings = encounter_settings(get_spec(args.long), args.long_set)
        except (KeyError, ValueError) as e:
            return _error(str(e).strip("'\""))

    def say(text: str) -> None:
        console.print(text, markup=False, highlight=False, soft_wrap=True)
    try:
        return device_check.main(args.out, quick=args.quick, long=args.long, long_settings=settings, say=say,
                                 **numbers)
    except ValueError as e:
        return _error(str(e))


SET_HELP = ("one of the encounter's own settings, e.g. max_ticks=400 (repeatable; osrs-rl list ENCOUNTER describes "
            "them); the same as --env.config.KEY VALUE")


def _set_as_overrides(pairs: list[str] | None) -> list[str]:
    """``--set KEY=VALUE`` (every command's word for an encounter setting) as train's and audit's
    ``--env.config.KEY VALUE`` overrides."""
    return [a for k, v in _pairs(pairs, "set").items() for a in (f"--env.config.{k}", v)]


class _Version(argparse.Action):
    """``--version``: asks git only when given (argparse's own version action formats its text up front)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from osrs_rl.io.provenance import describe

        sys.stdout.write(f"osrs-rl {describe()}\n")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="osrs-rl", description="Reinforcement-learning workbench for OSRS fights",
                                     allow_abbrev=False)
    parser.add_argument("--version", action=_Version, help="print the version and the git commit of this code, "
                        "with ', dirty' when its tree differs from the commit, and exit")
    sub = parser.add_subparsers(dest="command", required=True)
    add_view_parser(sub)           # osrs-rl view FILE...: the browser viewer
    add_play_parser(sub)           # osrs-rl play ENCOUNTER: human play in the same page

    p = sub.add_parser("demo", help="calculator examples and the engine benchmark")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("calc", help="what one attack does, computed by the engine's kernels",
                       description="Player vs NPC by default; --from-npc NAME gives NPC vs player.")
    p.add_argument("--target", default="Zulrah (Serpentine)", help="NPC name with version, e.g. 'Zulrah (Magma)'")
    p.add_argument("--gear", action="append", metavar="SLOT=ITEM", help="e.g. --gear weapon='Twisted bow'")
    p.add_argument("--level", action="append", metavar="SKILL=N", help="base level (default 99)")
    p.add_argument("--boost", action="append", metavar="SKILL=N", help="visible boost, e.g. ranged=13")
    p.add_argument("--prayer", action="append", metavar="NAME", help="active prayer, e.g. Rigour")
    p.add_argument("--style", help="combat style name from the weapon interface, e.g. Rapid, Lash")
    p.add_argument("--spell", help="spell name, e.g. 'Ice Barrage'")
    p.add_argument("--special", action="store_true", help="use the weapon's special attack")
    p.add_argument("--kandarin", action="store_true", help="Kandarin hard diary (enchanted bolt procs x1.1)")
    p.add_argument("--from-npc", metavar="NPC", help="NPC attacking the player instead")
    p.add_argument("--attack-type", default="melee", help="with --from-npc: melee, stab, slash, crush, ranged, magic")
    p.add_argument("--explain", action="store_true", help="print every floored step")
    p.set_defaults(func=cmd_calc)

    from osrs_rl.agent.config import describe_sections
    from osrs_rl.runtime.registry import names

    p = sub.add_parser("train", help="train a policy with PPO", formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="Settings: the encounter's preset (a TOML file in its folder), then --config FILE, "
                                   "then --section.key value overrides (see osrs_rl/agent/config.py);\n"
                                   "--print-config shows the result without training.\n"
                                   "Several processes or machines: torchrun --nproc-per-node N -m osrs_rl.cli train "
                                   "ENCOUNTER ... (env.num_envs per rank, run.total_steps over all; "
                                   "docs/guide/distributed.md).",
                       epilog=f"encounters: {', '.join(names())}\n\n"
                              f"settings (--section.key value; the encounter's own: --set KEY=VALUE or "
                              f"--env.config.KEY value), "
                              f"with their defaults before the preset:\n{describe_sections()}")
    p.add_argument("encounter", help="encounter name (listed below)")
    p.add_argument("--config", help="a TOML file of settings (replaces the preset)")
    p.add_argument("--preset", choices=("default", "gpu"), default="default",
                   help="gpu: the encounter's settings for one GPU and many cores over its preset (or over --config; "
                        "osrs-rl list ENCOUNTER names the file)")
    p.add_argument("--print-config", action="store_true",
                   help="print the settings the run would use (a TOML file --config reads back) and stop")
    p.add_argument("--set", action="append", metavar="KEY=VALUE", help=SET_HELP)
    p.add_argument("--resume", metavar="CHECKPOINT",
                   help="continue a run from its checkpoint, with the settings stored in it; a resume may change "
                        "run length, evaluation, logging, device and the learning-rate schedule. It writes into "
                        "the checkpoint's run folder, or the one --run.out_dir/--run.name name (needed for a "
                        "checkpoint that is not a run folder's checkpoint.pt)")
    p.set_defaults(func=cmd_train)

    p = sub.add_parser("eval", help="evaluate a trained policy, a scripted policy, or run a tool an encounter offers",
                       description="The scripted policies and tools of an encounter, their settings (--opt) and the "
                                   "encounter's own settings (--set) are declared by its spec: osrs-rl list ENCOUNTER "
                                   "shows them.",
                       epilog="e.g. osrs-rl eval zulrah --policy solver --set gear_tier=max; "
                              "osrs-rl eval pvp --tool ladder --opt fights=64")
    p.add_argument("encounter", help="encounter name (osrs-rl list shows them)")
    p.add_argument("--checkpoint", help="a checkpoint written by osrs-rl train")
    p.add_argument("--policy", help="a scripted policy the encounter declares (e.g. zulrah: solver)")
    p.add_argument("--tool", help="a report the encounter declares (e.g. pvp: ladder)")
    p.add_argument("--opt", action="append", metavar="KEY=VALUE",
                   help="with --policy or --tool: one of its declared settings (repeatable)")
    p.add_argument("--set", action="append", metavar="KEY=VALUE",
                   help="one of the encounter's settings, e.g. gear_tier=max or max_ticks=400 (repeatable); with "
                        "--policy, setting the field its table is split by gives that one row")
    p.add_argument("--episodes", type=int,
                   help="with --checkpoint: episodes per opponent; with --policy: per table row (default 256)")
    p.add_argument("--opponent", action="append", metavar="TIER",
                   help="with --checkpoint: a scripted tier to play (repeatable; default: the training tiers)")
    p.add_argument("--greedy", action="store_true", help="with --checkpoint: most likely actions, not samples")
    p.add_argument("--seed", type=int, help="seed of the evaluation envs (default 0)")
    p.add_argument("--replays", type=int, metavar="N",
                   help="with --checkpoint: also save N replays per opponent (and the best of them)")
    p.add_argument("--replay-dir", help="where --replays go: a new or empty folder (default: a new "
                   "eval-replays/DATE-TIME beside the checkpoint)")
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("list", help="the encounters; with a name, what it declares (settings, policies, tools)")
    p.add_argument("encounter", nargs="?", help="an encounter name: its settings, outcome, scripted policies, tools")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("bench", help="throughput of the engine kernels, or of an encounter under the runtime")
    p.add_argument("encounter", nargs="?", help="an encounter name (e.g. template); omit for the engine kernels")
    p.add_argument("--set", action="append", metavar="KEY=VALUE",
                   help="one of the encounter's settings for every measurement, e.g. start_wave=50 (repeatable)")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("replay", help="check, describe or draw a replay file")
    p.add_argument("action", choices=["verify", "info", "render"],
                   help="verify: re-simulate and prove it reproduces exactly (exit 0, 1 on divergence, 2 on a bad "
                        "file); info: encounter, config, ticks, outcome, annotations; render: draw it to --out")
    p.add_argument("file", help="a replay file")
    p.add_argument("--out", help="render: .png (one frame), .gif, .mp4, or a folder ending in / for PNG frames")
    p.add_argument("--tick", type=int, help="render to .png: the frame after this many ticks (default: the last)")
    p.add_argument("--fps", type=float, help="render: frames per second (default 5; 1.667 is game speed)")
    p.add_argument("--overlays", help="render: comma-separated tile tints, from los (line of sight) and danger")
    p.add_argument("--start", type=int, help="render: first frame (ticks played; default 0)")
    p.add_argument("--end", type=int, help="render: last frame (default: the last tick)")
    p.add_argument("--frames", action="store_true", help="render: write --out as a folder of PNG frames")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("audit", help="what a trained policy does, against the encounter's reference",
                       description="Plays a run's policy (or re-simulates replays) and writes heatmap.png, report.md "
                                   "and report.json: where it stands (flagged where the reference map says a tile "
                                   "is not walkable), when it attacks against the target's attackable windows, "
                                   "damage taken by source, supplies, outcomes. Encounter settings: "
                                   "--set KEY=VALUE (or --env.config.KEY VALUE).")
    p.add_argument("path", help="a run folder, a checkpoint, a replay file or a folder of replays")
    p.add_argument("--episodes", type=int, default=16, help="episodes the policy plays (default 16)")
    p.add_argument("--seed", type=int, default=0, help="seed of the envs and of the policy's sampling")
    p.add_argument("--greedy", action="store_true", help="most likely actions, not samples")
    p.add_argument("--opponent", action="append", metavar="TIER",
                   help="a scripted tier to play (repeatable, spread over the episodes; default: the training tiers)")
    p.add_argument("--replays", action="store_true",
                   help="with a run folder: audit its evaluation replays (RUN/replays/*.orlr) instead of playing")
    p.add_argument("--out", help="output folder (default: audit/ in the run folder, or beside the replays)")
    p.add_argument("--set", action="append", metavar="KEY=VALUE", help=SET_HELP)
    p.add_argument("--strict", action="store_true", help="exit 1 when a check is flagged")
    p.set_defaults(func=cmd_audit)

    p = sub.add_parser("device-check", help="tests, env rates, training throughput (GPU and CPU) and a long run on "
                                            "this machine, as one table", description=(
        "Writes OUT/device_check.md and OUT/device_check.json (after every step): the tests that need CUDA, each "
        "encounter's env steps/s on one core and on all, each GPU preset's training throughput on the GPU and on "
        "the CPU with its time split and GPU memory, and --long ENCOUNTER's GPU preset trained for --long-minutes "
        "then evaluated. Steps without CUDA are rows saying so. Fits --budget-minutes (9) on one GPU and 16 cores "
        "with the Numba cache warm; scripts/device_check.sh OUT runs the full check."))
    p.add_argument("out", help="a new or empty folder for the table, the runs and the logs")
    p.add_argument("--quick", action="store_true",
                   help="seconds, not minutes: tiny batches and budgets that try the machinery, not figures")
    p.add_argument("--long", metavar="ENCOUNTER", help="the encounter of the long run (its GPU preset)")
    p.add_argument("--long-set", action="append", metavar="KEY=VALUE",
                   help="one of the long run's encounter settings, e.g. start_wave=1 (repeatable)")
    p.add_argument("--long-minutes", type=float, help="training minutes of the long run (default 4)")
    p.add_argument("--eval-episodes", type=int, help="evaluation episodes after the long run (default 128)")
    p.add_argument("--gpu-seconds", type=float, help="training seconds of each GPU preset on the GPU (default 20)")
    p.add_argument("--cpu-seconds", type=float, help="... and on the CPU, for the ratio (default 10)")
    p.add_argument("--budget-minutes", type=float, help="the whole check's time budget (default 9): a step that "
                   "cannot fit is skipped, saying so, and the long run trains for what is left")
    p.set_defaults(func=cmd_device_check)

    add_sweep_parser(sub)          # osrs-rl sweep ENCOUNTER --space FILE, sweep report DIR, sweep worker
    add_archive_parser(sub)        # osrs-rl archive build ENCOUNTER --out FILE, archive show FILE
    return parser


INTERRUPTED = 130          # the shell's exit status of a process stopped by SIGINT (128 + 2)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args, rest = parser.parse_known_args(argv)
    if args.command in ("train", "audit"):
        try:                                       # --section.key value pairs, checked by the config
            args.overrides = rest + _set_as_overrides(args.set)
        except SystemExit as e:
            return _error(str(e).removeprefix("error: "))
    elif rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    from numba.core.event import unregister

    from osrs_rl.runtime.compile_notice import announce_compiles

    listener = announce_compiles()                 # a cold first run says why it is quiet, once
    try:
        return args.func(args)
    except KeyboardInterrupt:                      # Ctrl-C anywhere a command has no message of its own
        console.print(f"interrupted: osrs-rl {args.command} stopped before it finished", markup=False)
        return INTERRUPTED
    except MemoryError as e:                       # more envs or episodes than fit: one line, not numpy's trace
        console.print(f"error: out of memory in osrs-rl {args.command}: {e or 'an allocation failed'}; ask for "
                      "fewer envs or episodes", markup=False, soft_wrap=True)
        return 2
    finally:
        unregister("numba:compile", listener)


if __name__ == "__main__":
    sys.exit(main())
