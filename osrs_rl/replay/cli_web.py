"""``osrs-rl view`` and ``osrs-rl play``: start the local viewer server and serve until Ctrl-C.

    osrs-rl view A.orlr [B.orlr]           watch one replay, or two side by side
    osrs-rl view runs/NAME                 a run folder (as osrs-rl audit takes it): its evaluation replays
    osrs-rl play pvp --opponent elite      play a duel in the browser; save it as a demonstration
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console

console = Console()
PORTS = range(0, 65536)             # what a TCP port can be (0: the system picks a free one)


def _error(message: str) -> int:
    console.print(f"[red]error:[/red] {message}", highlight=False)
    return 2


def _port_error(port: int) -> str | None:
    if port not in PORTS:
        return f"--port must be 0-65535 (0: any free port), got {port}"
    return None


def _serve(app, args) -> int:
    from osrs_rl.replay.server import ViewerServer

    try:
        server = ViewerServer(app, port=args.port)
    except OSError as e:
        return _error(f"cannot listen on 127.0.0.1:{args.port}: {e}")
    console.print(f"serving on {server.url}  (Ctrl-C stops)", highlight=False)
    if args.open:
        import webbrowser

        webbrowser.open(server.url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        console.print("stopped")
    finally:
        server.close()
    return 0


def replay_files(path) -> list[Path]:
    """What ``osrs-rl view PATH`` shows: a file as it is; a folder's replays (``*.orlr``), and a run folder's
    evaluation replays (``RUN/replays/*.orlr``, as ``osrs-rl audit RUN --from-replays`` reads them), the best
    episodes (``best-*.orlr``, which ``osrs-rl train`` saves beside the others) first. ReplayError naming the
    folder that holds none."""
    from osrs_rl.replay.file import ReplayError

    path = Path(path)
    if not path.is_dir():
        return [path]                   # load_replay says what is wrong with a missing or bad file
    found = [p for folder in (path, path / "replays") for p in sorted(folder.glob("*.orlr")) if p.is_file()]
    if not found:
        raise ReplayError(f"no replay files (*.orlr) in {path} nor in {path / 'replays'} (osrs-rl train saves its "
                          "evaluation's there; osrs-rl eval --replays N in eval-replays/DATE-TIME beside the "
                          "checkpoint, a folder view takes too)")
    return sorted(found, key=lambda p: not p.name.startswith("best-"))


def cmd_view(args: argparse.Namespace) -> int:
    from osrs_rl.replay.file import ReplayError
    from osrs_rl.replay.server import ViewerApp

    if (bad := _port_error(args.port)) is not None:
        return _error(bad)
    try:
        files = [f for path in args.files for f in replay_files(path)]
        # a folder opens its first (best) replay alone; the rest are in the page's list
        app = ViewerApp(files, opened=1 if any(Path(p).is_dir() for p in args.files) else 2)
    except ReplayError as e:
        return _error(str(e))
    folders = [p for p in args.files if Path(p).is_dir()]
    if folders:
        console.print(f"{len(files)} replay(s) in {', '.join(folders)}: the page opens {files[0].name}; its replay "
                      "list holds them all", highlight=False)
    return _serve(app, args)


def parse_config(pairs: list[str] | None, spec=None) -> dict:
    """``KEY=VALUE`` pairs as encounter settings: through ``spec``'s config fields when given (named
    choices, e.g. ``gear_tier=max``; an unknown key is refused with the list), else as numbers."""
    raw = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--set expects KEY=VALUE, got {pair!r}")
        raw[key.strip()] = value.strip()
    if spec is not None:
        from osrs_rl.runtime.config import settings_from_text

        return settings_from_text(spec, raw)
    out = {}
    for key, value in raw.items():
        try:
            out[key] = int(value)
        except ValueError:
            try:
                out[key] = float(value)
            except ValueError:
                raise ValueError(f"--set {key}={value!r}: the value must be a number") from None
    return out


def cmd_play(args: argparse.Namespace) -> int:
    from osrs_rl.replay.play import PlayError
    from osrs_rl.replay.server import ApiError, PlayDefaults, ViewerApp
    from osrs_rl.runtime.registry import get_spec, names

    if args.config_file is not None:
        return _error(f"play takes the encounter's settings as --set KEY=VALUE (--set {args.config_file}); "
                      "--config names a training config file, in train and sweep")
    if args.encounter not in names():
        return _error(f"unknown encounter {args.encounter!r}; known: {', '.join(names())}")
    if args.opponent is not None and args.checkpoint is not None:
        return _error("give --opponent TIER or --checkpoint C, not both")
    if args.seed < 0:
        return _error(f"--seed must be >= 0, got {args.seed}")
    if (bad := _port_error(args.port)) is not None:                # before the encounter compiles
        return _error(bad)
    opponent = int(args.opponent) if args.opponent is not None and args.opponent.isdigit() else args.opponent
    try:
        settings = parse_config(args.config, get_spec(args.encounter))
        defaults = PlayDefaults(args.encounter, settings, args.seed, opponent, args.checkpoint)
        app = ViewerApp(play=defaults, save_dir=args.save_dir)
        # bad settings, tiers or checkpoints fail here, not in the page; the first session also compiles
        # the encounter (up to a minute on a cold Numba cache), so the page's first tick does not wait
        with console.status(f"preparing {args.encounter} (compiling its kernels on first use)..."):
            app.new_session({})
    except (ApiError, PlayError, ValueError, KeyError) as e:     # a bad setting, tier or checkpoint
        return _error(str(e).strip("'\""))
    app.sessions.clear()
    return _serve(app, args)


def _server_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", type=int, default=0, help="port on 127.0.0.1, 0-65535 (default 0: any free port)")
    p.add_argument("--open", action="store_true", help="open the page in the default web browser")
    p.add_argument("--no-browser", dest="open", action="store_false", help="do not open a browser (the default)")


def add_view_parser(sub) -> None:
    p = sub.add_parser("view", help="watch replays in the browser (a local page)",
                       description="Serves a page on 127.0.0.1 that plays the replay: play, pause, step, speed, "
                                   "scrub, value and action probabilities per tick, a timeline of events. Two "
                                   "files are shown side by side.")
    p.add_argument("files", nargs="+", metavar="PATH",
                   help="one or two replay files (more are listed in the page), or a folder of replays or a run folder "
                        "(its replays/: the best evaluation episode opens, the others are listed)")
    _server_options(p)
    p.set_defaults(func=cmd_view)


def add_play_parser(sub) -> None:
    p = sub.add_parser("play", help="play an encounter yourself in the browser",
                       description="Click a tile to move, an NPC or player to attack; buttons or keys for "
                                   "prayers, food, potions and switches. Ticks every 0.6 s or step by step; "
                                   "the session saves as a replay (a demonstration).")
    p.add_argument("encounter", help="encounter name, e.g. pvp or template")
    who = p.add_mutually_exclusive_group()
    who.add_argument("--opponent", metavar="TIER", help="a scripted opponent tier (name or index)")
    who.add_argument("--checkpoint", metavar="C", help="a trained policy (osrs-rl train) as the opponent")
    p.add_argument("--seed", type=int, default=0, help="seed of the episode")
    p.add_argument("--save-dir", default="demonstrations", help="where saved sessions go")
    p.add_argument("--set", dest="config", action="append", metavar="KEY=VALUE",
                   help="an encounter setting, as in every command (osrs-rl list ENCOUNTER names them), e.g. "
                        "max_ticks=500")
    # --config means a training config FILE in train and sweep: here it is refused, pointing to --set
    p.add_argument("--config", dest="config_file", help=argparse.SUPPRESS)
    _server_options(p)
    p.set_defaults(func=cmd_play)
