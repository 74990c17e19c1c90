"""The audit report as tables: the same rows for ``report.md`` and the terminal (``console.py``).

``compact`` (the terminal) groups the window ticks past the first few and lists the top tiles only.
"""

from __future__ import annotations

from dataclasses import dataclass

from osrs_rl.io.provenance import KEY as PROVENANCE
from osrs_rl.io.provenance import describe

COMPACT_WINDOW_TICKS = 8          # the terminal shows window ticks 0..7 one by one, then the rest together
COMPACT_TILES = 8


@dataclass
class Table:
    title: str
    columns: tuple[str, ...]
    rows: list[tuple[str, ...]]
    note: str = ""


def pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f} %"


def num(x, digits: int = 2) -> str:
    if x is None:
        return "-"
    if float(x).is_integer():
        return f"{int(x):,}"
    return f"{x:,.{digits}f}"


def tables(report: dict, compact: bool = False) -> list[Table]:
    out = [_checks(report), _position(report, compact), _attacks(report)]
    if report["attacks"].get("window") is not None:
        out.append(_windows(report, compact))
    out += [_damage(report)]
    if report.get("damage_by_style"):
        out.append(_by_style(report))
    out += [_supplies(report), _outcomes(report)]
    return out


def _checks(report: dict) -> Table:
    rows = [(c["check"], num(c["value"]), num(c["expected"]), "ok" if c["ok"] else "FLAG") for c in report["checks"]]
    return Table("checks (each must be 0 for an honest simulator)", ("check", "value", "expected", ""), rows)


def _position(report: dict, compact: bool) -> Table:
    origin = report["map"]["origin"]
    tiles = report["tiles"]
    shown = tiles[:COMPACT_TILES] if compact else tiles
    flagged = [t for t in tiles[len(shown):] if not t["walkable"]]
    rows = [(f"{t['x'] + origin[0]}, {t['y'] + origin[1]}", f"{t['x']}, {t['y']}", num(t["ticks"]),
             pct(t["ticks"] / report["ticks"] if report["ticks"] else None), num(t["attacks"]),
             "yes" if t["walkable"] else "NO") for t in shown + flagged]
    pos = report["position"]
    note = (f"{num(pos['ticks_off_reference'])} ticks ({pct(pos['share_ticks_off_reference'])}) and "
            f"{num(pos['attacks_off_reference'])} attacks ({pct(pos['share_attacks_off_reference'])}) on tiles the "
            f"reference says are not walkable, in {pos['episodes_off_reference']} of {report['episodes']} episodes")
    if compact and len(tiles) > len(shown):
        note += f"; {len(tiles)} tiles stood on, the {len(shown)} most used shown (all in report.md)"
    return Table("where it stands", ("world tile", "local tile", "ticks", "share", "attacks", "walkable"), rows, note)


def _attacks(report: dict) -> Table:
    a = report["attacks"]
    rows = [(target, num(n), pct(n / a["total"] if a["total"] else None)) for target, n in a["by_target"].items()]
    rows.append(("all", num(a["total"]), pct(1.0 if a["total"] else None)))
    note = (f"{num(a['per_episode'])} attacks per episode; {num(a['not_attackable'])} "
            f"({pct(a['share_not_attackable'])}) on a target the reference says was not attackable")
    if a.get("window") is not None:
        note += f"; {a['window']} was attackable {num(a['attackable_ticks'])} ticks"
    return Table("attacks by target", ("target", "attacks", "share"), rows, note)


def _windows(report: dict, compact: bool) -> Table:
    a = report["attacks"]
    per, target, total = a["by_window_tick"], a["window"], a["on_window_target"]
    cut = COMPACT_WINDOW_TICKS if compact else len(per)
    rows = [(str(w["tick"]), num(w["attacks"]), pct(w["share"]), num(w["ticks"]), pct(w["rate"])) for w in per[:cut]]
    if len(per) > cut:
        n, ticks = sum(w["attacks"] for w in per[cut:]), sum(w["ticks"] for w in per[cut:])
        rows.append((f"{cut}-{len(per) - 1}", num(n), pct(n / total if total else None), num(ticks),
                     pct(n / ticks if ticks else None)))
    rows.append(("outside a window", num(a["outside_windows"]), pct(a["outside_windows"] / total if total else None),
                 "-", "-"))
    return Table(f"attacks on {target} by tick of its attackable windows (0: the first tick it can be attacked)",
                 ("window tick", "attacks", "share of attacks", "ticks reached", "attacked in"), rows,
                 f"{num(total)} attacks on {target}; 'attacked in': the share of ticks at that point of a window "
                 "in which an attack was started (the weapon's speed caps it)")


def _damage(report: dict) -> Table:
    rows = [(d["metric"], num(d["total"]), num(d["mean"]), f"{d['episodes_hurt']} / {report['episodes']}",
             num(d["largest_tick"]), "yes" if d["can_hurt"] else "NO") for d in report["damage_taken"]]
    never = report["never_damaged_by"]
    note = f"never damaged by: {', '.join(never)}" if never else "every source hurt at least once"
    return Table("damage taken by source", ("source", "total", "mean per episode", "episodes hurt",
                                            "most in one tick", "reference: can hurt"), rows, note)


def _by_style(report: dict) -> Table:
    rows = [(r["pair"], num(r["max_hit"]), num(r["hits"]), num(r["unprotected"]), num(r["damage"]),
             num(r["unprotected_damage"]), f"{r['episodes_hurt']} / {report['episodes']}",
             "NEVER HURT" if r["never_hurt"] else ("yes" if r["declared"] else "NOT DECLARED"))
            for r in report["damage_by_style"]]
    quiet = [r["pair"] for r in report["damage_by_style"] if r["declared"] and r["unprotected_damage"] == 0]
    note = ("declared attacks that dealt nothing unprotected here: " + ", ".join(quiet) + " (flagged only after "
            "enough unprotected hits: great prayer, or an attack that cannot hurt)") if quiet \
        else "every declared attack hurt unprotected"
    return Table("damage taken by source and style", ("source/style", "max hit", "hits landed", "unprotected",
                                                      "damage", "unprotected damage", "episodes hurt",
                                                      "declared attack"), rows, note)


def _supplies(report: dict) -> Table:
    rows = [(s["metric"], num(s["total"]), num(s["mean"]), num(s["min"]), num(s["max"])) for s in report["supplies"]]
    return Table("supplies used per episode", ("supply", "total", "mean", "least", "most"), rows)


def _outcomes(report: dict) -> Table:
    o = report["outcomes"]
    rows = [(k, num(v)) for k, v in o.items() if k != "mean_ticks"]
    return Table("outcomes", ("outcome", "episodes"), rows, f"{num(o['mean_ticks'])} ticks per episode")


# ---- markdown ---------------------------------------------------------------------------------------
def _cell(text: str) -> str:
    return str(text).replace("|", "\\|")


def to_markdown(report: dict) -> str:
    src = report["source"]
    lines = [f"# Audit: {report['encounter']} (spec version {report['spec_version']})", "",
             f"- what: {src.get('what', '')}",
             f"- episodes: {report['episodes']}, ticks: {report['ticks']:,}",
             f"- reference map: {report['reference']}",
             "- picture: heatmap.png (left: share of ticks per tile, right: share of attacks; red frame: stood on a "
             "tile the reference says is not walkable)"]
    for k, v in src.items():
        if k != "what":
            lines.append(f"- {k}: {v}")
    flagged = report["flagged_episodes"]
    if flagged:
        lines.append(f"- flagged episodes: {len(flagged)} (first: {flagged[0]['episode']})")
    if report.get("saved_replays"):
        lines.append(f"- flagged episodes saved as replays: {', '.join(report['saved_replays'])} "
                     "(watch: osrs-rl view FILE)")
    if report.get(PROVENANCE):
        lines.append(f"- audited by: osrs-rl {describe(report[PROVENANCE], short=12)}")
    for t in tables(report):
        lines += ["", f"## {t.title}", "", "| " + " | ".join(t.columns) + " |",
                  "|" + "|".join(" --- " for _ in t.columns) + "|"]
        lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in t.rows]
        if t.note:
            lines += ["", t.note]
    return "\n".join(lines) + "\n"
