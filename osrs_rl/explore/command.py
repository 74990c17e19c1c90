"""The ``osrs-rl archive`` command line.

    osrs-rl archive build ENCOUNTER --out FILE [--checkpoint CK | --random] [--config FILE] [--iterations N]
                          [--ticks T] [--envs E] [--normal F] [--seed S] [--max-cells M] [--set KEY=VALUE ...]
                          [--extend]
    osrs-rl archive show FILE [--top N] [--cell KEY [--replay OUT]]

``build`` explores (``osrs_rl.explore.explorer``) under the encounter settings a training run would use
(the preset's, ``--config FILE``'s, or the checkpoint's; ``--set`` on top) and writes an archive that run
can start from (``--explore.archive FILE``); an existing ``--out`` is grown with ``--extend``, never replaced. ``show``
prints what an archive holds, by phase and its cells of most progress; ``--cell KEY --replay OUT`` writes
a replay of how the run reached that cell (from its parent cell's state, by the stored actions) for
``osrs-rl view OUT``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from osrs_rl.io.writable import check_writable


def add_archive_parser(sub) -> None:
    p = sub.add_parser("archive", help="Go-Explore archives: build one by exploring, or show one",
                       description="osrs-rl archive build ENCOUNTER --out FILE: explore from the archive's cells "
                                   "(random legal actions, or a trained policy's with --checkpoint) and write the "
                                   "archive (train from it: osrs-rl train ENCOUNTER --explore.enabled true "
                                   "--explore.archive FILE). osrs-rl archive show FILE: its cells by phase and "
                                   "those of most progress; --cell KEY --replay OUT writes how a run reached "
                                   "that cell as a replay (osrs-rl view OUT).")
    p.add_argument("action", choices=("build", "show"))
    p.add_argument("target", help="build: the encounter; show: the archive file")
    p.add_argument("--out", help="build: the archive file to write")
    p.add_argument("--extend", action="store_true", help="build: grow the --out archive that exists")
    p.add_argument("--checkpoint", help="build: explore with this trained policy's sampled actions (and under the "
                                        "encounter settings it trained with)")
    p.add_argument("--config", help="build: a training config file whose [env.config] the archive is made under "
                                    "(default: the encounter's preset, as osrs-rl train uses)")
    p.add_argument("--random", action="store_true", help="build: explore with random legal actions (the default "
                                                         "without --checkpoint)")
    p.add_argument("--iterations", type=int, default=20, help="build: rounds of restore-and-play (default 20)")
    p.add_argument("--ticks", type=int, default=200, help="build: ticks played from each restore (default 200)")
    p.add_argument("--envs", type=int, default=64, help="build: envs played at once (default 64)")
    p.add_argument("--normal", type=float, default=0.1, help="build: share of envs started normally each round "
                                                            "rather than from a cell (default 0.1)")
    p.add_argument("--seed", type=int, default=0, help="build: seed of the envs, the draws and the actions")
    p.add_argument("--max-cells", type=int, default=None, help="build: cells the archive holds at most "
                                                               "(default 20000, or the extended archive's)")
    p.add_argument("--set", action="append", metavar="KEY=VALUE", help="build: an encounter setting (repeatable)")
    p.add_argument("--top", type=int, default=10, help="show: how many cells of most progress to list (default 10)")
    p.add_argument("--cell", type=int, help="show: one cell's key (as listed)")
    p.add_argument("--replay", help="show: with --cell, write a replay of how the run reached it to this file")
    p.set_defaults(func=cmd_archive)


def cmd_archive(args: argparse.Namespace) -> int:
    console = Console()
    try:
        if args.action == "build":
            return _build(args, console)
        return _show(args, console)
    except ValueError as e:           # ArchiveError, settings out of range, a checkpoint that does not fit
        console.print(f"[red]error:[/red] {e}", highlight=False)
        return 2


def _build(args, console) -> int:
    from osrs_rl.explore.archive import DEFAULT_MAX_CELLS, Archive
    from osrs_rl.explore.explorer import explore
    from osrs_rl.runtime.config import settings_from_text
    from osrs_rl.runtime.recording import user_settings
    from osrs_rl.runtime.registry import get_spec, make

    if not args.out:
        raise ValueError("archive build needs --out FILE")
    if args.checkpoint and args.random:
        raise ValueError("--checkpoint and --random are two ways to act: give one")
    if args.envs < 1:
        raise ValueError(f"--envs must be at least 1, got {args.envs}")
    out = Path(args.out)
    if out.exists() and not args.extend:
        raise ValueError(f"{out} exists: give --extend to grow it, or another --out")
    check_writable(out.parent, "--out")           # before the exploring, not after it
    spec = get_spec(args.target)
    model = None
    if args.checkpoint and args.config:
        raise ValueError("--checkpoint brings the settings its policy trained with: give --config only without it")
    if args.checkpoint:
        from osrs_rl.agent.policy import load_policy

        policy = load_policy(args.checkpoint)
        if policy.encounter != spec.name:
            raise ValueError(f"{args.checkpoint} is a policy for {policy.encounter}, not {spec.name}")
        model, config = policy.model, dict(policy.env_config)
    else:
        from osrs_rl.agent.config import load_config

        # the settings a training run of this encounter uses, so that it can restore these states
        config = dict(load_config(spec.name, args.config).env.config)
    pairs = {}
    for item in args.set or []:
        if "=" not in item:
            raise ValueError(f"--set expects KEY=VALUE, got {item!r}")
        key, value = item.split("=", 1)
        pairs[key.strip()] = value.strip()
    config.update(settings_from_text(spec, pairs))
    env = make(spec.name, num_envs=args.envs, seed=args.seed, **config)
    hidden = model.state_size if model is not None else 0
    if out.exists():
        archive = Archive.load(out, spec)
        archive.check_config(user_settings(env), str(out))
        if archive.hidden_size != hidden:
            raise ValueError(f"{out} keeps recurrent states of {archive.hidden_size} values; this policy's have "
                             f"{hidden}")
        if args.max_cells is not None:
            archive.set_max_cells(args.max_cells)
    else:
        archive = Archive(spec, user_settings(env), hidden, args.max_cells or DEFAULT_MAX_CELLS)
    how = f"the policy of {args.checkpoint}" if model is not None else "random legal actions"
    console.print(f"exploring {spec.name} with {how}: {args.iterations} rounds x {args.ticks} ticks x {args.envs} envs",
                  highlight=False)
    with Progress(console=console, transient=True, disable=not console.is_terminal) as bar:
        task = bar.add_task("exploring", total=args.iterations)

        def report(done: int, total: int) -> None:
            bar.update(task, completed=done, description=f"exploring ({len(archive):,} cells)")
            if not console.is_terminal and (done == total or done % max(total // 10, 1) == 0):
                console.print(f"round {done}/{total}: {len(archive):,} cells", highlight=False)
        got = explore(env, archive, args.iterations, args.ticks, model=model, normal=args.normal, seed=args.seed,
                      progress=report)
    archive.save(out)
    console.print(f"{got['cells']} cells ({got['cells'] - got['cells_before']:+d}) after {got['steps']:,} env steps, "
                  f"{archive.evicted} evicted; written to {out}", highlight=False)
    console.print(f"see it: osrs-rl archive show {out}; train from it: osrs-rl train {spec.name} --explore.enabled "
                  f"true --explore.archive {out}", highlight=False)
    return 0


def _show(args, console) -> int:
    from osrs_rl.explore.archive import Archive, read_header
    from osrs_rl.io.provenance import describe
    from osrs_rl.runtime.registry import get_spec

    path = Path(args.target)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise ValueError(f"cannot read archive {path}: {e.strerror or e}") from None
    head, _ = read_header(data, str(path))
    try:
        spec = get_spec(head.get("encounter", "?"))
    except KeyError as e:
        raise ValueError(f"{path}: {e.args[0]}") from None
    archive = Archive.from_bytes(data, spec, str(path))
    if args.cell is not None:
        return _show_cell(archive, args, console)
    if args.replay:
        raise ValueError("--replay goes with --cell KEY")
    console.print(f"{path}: {spec.name} (version {spec.version}), {len(archive)} cells of at most {archive.max_cells} "
                  f"({archive.evicted} evicted), recurrent states of {archive.hidden_size} values", highlight=False)
    settings = ", ".join(f"{k}={v}" for k, v in sorted(archive.config.items()))
    console.print(f"made under: {settings or 'the defaults'}", highlight=False)
    console.print(f"written by: osrs-rl {describe(archive.written_by or {}, short=12)}", highlight=False)
    if not len(archive):
        return 0
    console.print(phase_table(archive))
    console.print(top_table(archive, args.top))
    replayable = sum(archive.replayable(r) for r in range(len(archive)))
    console.print(f"{replayable} of {len(archive)} cells replay from their parent's state (osrs-rl archive show "
                  f"{path} --cell KEY --replay OUT)", highlight=False)
    return 0


def phase_table(archive) -> Table:
    """Per phase of the cells' states: cells, visits, archive starts, normal-start passes and the share that got
    past the cell (a deeper phase, or a win), the same share of archive starts (recent), progress."""
    phases = archive.array("phase")
    table = Table(title="cells by phase")
    for col in ("phase", "cells", "visits", "archive starts", "normal passes", "passes got past", "starts got past",
                "best progress", "mean progress"):
        table.add_column(col, justify="left" if col == "phase" else "right")
    names = archive.spec.phase_names
    for ph in np.unique(phases):
        rows = phases == ph
        passes, past = archive.array("passes")[rows].sum(), archive.array("advanced")[rows].sum()
        tries, won = archive.array("start_tries")[rows].sum(), archive.array("start_advanced")[rows].sum()
        prog = archive.array("progress")[rows]
        table.add_row(names[ph] if 0 <= ph < len(names) else str(ph), str(int(rows.sum())),
                      f"{archive.array('visits')[rows].sum():,}", f"{archive.array('selected')[rows].sum():,}",
                      f"{passes:,}", f"{past / passes:.1%}" if passes else "-", f"{won / tries:.1%}" if tries else "-",
                      f"{prog.max():.3f}", f"{prog.mean():.3f}")
    return table


def top_table(archive, top: int) -> Table:
    """The ``top`` cells of most progress."""
    prog = archive.array("progress")
    table = Table(title=f"the {min(top, len(archive))} cells of most progress")
    for col in ("cell key", "phase", "progress", "return", "ticks", "visits", "starts", "passes", "replays"):
        table.add_column(col, justify="right")
    names = archive.spec.phase_names
    for r in np.argsort(-prog, kind="stable")[:top]:
        ph = archive.counts["phase"][r]
        table.add_row(str(archive.keys[r]), names[ph] if 0 <= ph < len(names) else str(ph), f"{prog[r]:.3f}",
                      f"{archive.floats['ret'][r]:.3f}", str(archive.counts["ticks"][r]),
                      str(archive.counts["visits"][r]), str(archive.counts["selected"][r]),
                      str(archive.counts["passes"][r]), "yes" if archive.replayable(r) else "no")
    return table


def _show_cell(archive, args, console) -> int:
    row = archive.row_of(args.cell)
    if row is None:
        raise ValueError(f"no cell {args.cell} in this archive (osrs-rl archive show FILE lists keys)")
    c, f = archive.counts, archive.floats
    ph = c["phase"][row]
    console.print(f"cell {args.cell}: phase {archive.spec.phase_names[ph]}, progress {f['progress'][row]:.3f}, "
                  f"return {f['ret'][row]:.3f} after {c['ticks'][row]} ticks; visits {c['visits'][row]}, archive "
                  f"starts {c['selected'][row]}, normal passes {c['passes'][row]} (got past {c['advanced'][row]}); "
                  f"parent "
                  f"{c['parent'][row]}, {len(archive.chunks[row])} actions from it, "
                  f"{'replayable' if archive.replayable(row) else 'not replayable'}", highlight=False)
    if args.replay:
        from osrs_rl.explore.replay import cell_replay
        from osrs_rl.replay.file import save_replay

        replay, exact = cell_replay(archive, row)
        path = save_replay(args.replay, replay)
        how = (f"{replay.ticks} ticks from its parent cell's state, ending on the cell's state exactly" if exact else
               "the cell's state alone (no chunk replays from its parent)" if replay.ticks <= 1 else
               f"{replay.ticks} ticks from its parent cell's state (the end differs from the stored state: report it)")
        console.print(f"replay: {how}; written to {path} (osrs-rl view {path})", highlight=False)
    return 0
