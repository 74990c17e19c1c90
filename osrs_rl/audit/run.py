"""``osrs-rl audit``: what a trained policy does, against what the encounter's reference allows.

    report, out = audit("runs/zulrah-x", episodes=16)          # plays 16 episodes, writes runs/zulrah-x/audit/

The input is a run folder (its ``checkpoint.pt``), a checkpoint file, a replay file or a folder of
replays (``from_replays`` audits a run folder's evaluation replays, ``RUN/replays/*.orlr``, instead of
playing). The output folder (``out``, else ``audit/`` beside the checkpoint or the replays) gets, each
file written atomically: ``heatmap.png``, ``report.md``, ``report.json`` and, for played episodes that
a check flags, up to ``MAX_FLAGGED`` of them as replays (``flagged-<k>.orlr``, worst first). A default
folder that exists but holds no earlier audit (no ``report.json`` of one) is refused rather than
written into.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

from osrs_rl.audit import collect
from osrs_rl.audit.report import build_report, off_reference_ticks
from osrs_rl.io.writable import writable_problem
from osrs_rl.runtime.attacks import check_attacks
from osrs_rl.runtime.truth import Truth, check_truth, reference_map

MAX_FLAGGED = 3
AUDIT_DIR = "audit"
CHECKPOINT_MAGIC = b"OSRSRLCK"
REPLAY_MAGIC = b"OSRSRLRP"
CHECKPOINT_NAME = "checkpoint.pt"
FLAGGED = re.compile(r"^flagged-\d+\.orlr$")           # the only files an earlier audit's report may name


class AuditError(ValueError):
    """An input or output the audit cannot use; the message says why."""


def _magic(path: Path) -> bytes:
    with open(path, "rb") as fh:
        return fh.read(8)


def resolve(path, from_replays: bool = False) -> tuple[str, Path, list[Path]]:
    """(``"checkpoint"`` or ``"replays"``, the checkpoint or the input folder, the replay files)."""
    path = Path(path)
    if not path.exists():
        raise AuditError(f"no run folder, checkpoint or replay at {path}")
    if path.is_file():
        magic = _magic(path)
        if magic == CHECKPOINT_MAGIC and from_replays:
            raise AuditError(f"{path} is a checkpoint; replays are audited from a run folder or replay files")
        if magic == CHECKPOINT_MAGIC:
            return "checkpoint", path, []
        if magic == REPLAY_MAGIC:
            return "replays", path, [path]
        raise AuditError(f"{path} is neither an osrs-rl checkpoint nor a replay file")
    ckpt = path / CHECKPOINT_NAME
    if ckpt.is_file() and not from_replays:
        return "checkpoint", ckpt, []
    if ckpt.is_file():                                   # a run folder: its evaluation replays
        found = sorted(p for p in (path / "replays").glob("*.orlr") if p.is_file())
        if not found:
            raise AuditError(f"run folder {path} has no evaluation replays in {path / 'replays'}")
        return "replays", path, found
    try:
        return "replays", path, collect.replay_paths(path)
    except ValueError:
        raise AuditError(f"{path} holds no {CHECKPOINT_NAME} and no replay files (*.orlr)") from None


def default_out(where: Path) -> Path:
    base = where.parent if where.is_file() else where
    return base / AUDIT_DIR


def _check_out(out: Path, named: bool) -> list[Path]:
    """Refuse a default folder that is not an earlier audit; returns the files an earlier audit saved
    there (its flagged replays), which this one replaces."""
    if not out.exists():
        return []
    if not out.is_dir():
        raise AuditError(f"{out} exists and is not a folder")
    earlier = out / "report.json"
    previous = None
    if earlier.is_file():
        try:
            previous = json.loads(earlier.read_text())
        except (OSError, ValueError):
            previous = None
    is_audit = isinstance(previous, dict) and "checks" in previous
    if not named and any(out.iterdir()) and not is_audit:
        raise AuditError(f"{out} exists and holds no earlier audit; name an output folder with --out")
    if not is_audit:
        return []
    return [out / name for name in previous.get("saved_replays", []) if isinstance(name, str) and FLAGGED.match(name)]


def audit(path, episodes: int = 16, seed: int = 0, greedy: bool = False, out=None, config: dict | None = None,
          opponents: list | None = None, from_replays: bool = False, truth: Truth | None = None,
          progress=None) -> tuple[dict, Path]:
    """Build the report of ``path`` and write it; returns (report, output folder). ``truth``: the
    encounter's by default (a test may pass another reference map)."""
    from osrs_rl.runtime.registry import get_spec

    kind, where, replay_files = resolve(path, from_replays)
    named = out is not None
    out = Path(out) if named else default_out(where)
    stale = _check_out(out, named)
    problem = writable_problem(out, "the audit's output folder")     # before the episodes, not after them
    if problem is not None:
        raise AuditError(problem)
    if kind == "checkpoint":
        from osrs_rl.agent.policy import load_policy

        try:
            policy = load_policy(where)
        except (ValueError, KeyError) as e:
            raise AuditError(str(e).strip("'\"")) from None
        spec = get_spec(policy.encounter)
        truth = _truth(spec, truth)
        tallies, cfg = collect.play_policy(policy, truth, episodes, seed, greedy, config, opponents, progress)
        settings = {**policy.env_config, **(config or {})}
        source = {"what": f"policy {where}, {episodes} episodes, {'greedy' if greedy else 'sampled'}, seed {seed}",
                  "checkpoint": str(where), "seed": seed, "greedy": greedy, "config": _plain(settings)}
        if config:
            source["config_overrides"] = _plain(config)
    else:
        if config or opponents:
            raise AuditError("settings and opponents go with a checkpoint; replays replay what they recorded")
        replays = collect.load_replays(replay_files)
        spec = get_spec(replays[0][1].encounter)
        truth = _truth(spec, truth)
        tallies, cfg = collect.resimulate(replays, truth, progress)
        source = {"what": f"{len(replays)} replays from {where}", "replays": [str(p) for p, _ in replays]}
    walkable = reference_map(truth, cfg, spec.name)
    report = build_report(tallies, spec, truth, walkable, source, check_attacks(spec, cfg))
    _save(report, tallies, out, walkable, stale)
    return report, out


def _truth(spec, truth: Truth | None) -> Truth:
    if truth is None and spec.truth is None:
        raise AuditError(f"encounter {spec.name!r} declares no truth (EncounterSpec.truth), so it cannot be audited")
    return check_truth(spec, truth)


def _plain(d: dict) -> dict:
    return {k: v.item() if hasattr(v, "item") else v for k, v in d.items()}


def _save(report: dict, tallies, out: Path, walkable, stale: list[Path]) -> None:
    """Write the flagged replays, then the picture and the report (which lists them)."""
    from osrs_rl.audit.heatmap import render_heatmap
    from osrs_rl.audit.tables import to_markdown
    from osrs_rl.io.atomic import atomic_write
    from osrs_rl.io.provenance import KEY, provenance
    from osrs_rl.replay.file import save_replay

    report[KEY] = provenance()                 # the code that audited
    out.mkdir(parents=True, exist_ok=True)
    for p in stale:
        p.unlink(missing_ok=True)
    worst = sorted((t for t in tallies if t.replay is not None and _flags(t, walkable)),
                   key=lambda t: -_flags(t, walkable))[:MAX_FLAGGED]
    saved = []
    for k, t in enumerate(worst):
        saved.append(save_replay(out / f"flagged-{k}.orlr", t.replay).name)
    report["saved_replays"] = saved
    buf = io.BytesIO()
    render_heatmap(report, walkable).save(buf, format="PNG")
    atomic_write(out / "heatmap.png", buf.getvalue())
    atomic_write(out / "report.md", to_markdown(report).encode())
    atomic_write(out / "report.json", json.dumps(report, indent=1).encode() + b"\n")


def _flags(t, walkable) -> int:
    return off_reference_ticks(t, walkable) + t.not_attackable
