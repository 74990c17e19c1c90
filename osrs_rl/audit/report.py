"""The audit's numbers: one JSON-ready dict built from the episode tallies and the reference map.

Sections (``report.json`` holds them as they are; ``report.md`` and the terminal show them as tables):

- ``tiles``: every tile stood on, with its ticks, attacks and whether the reference says it is
  walkable (a tile outside the reference map is not); the ticks add up to ``ticks``;
- ``position``: ticks and attacks on tiles the reference says are not walkable, as counts and shares
  (an honest simulator gives 0: the game does not let a player stand there);
- ``attacks``: per target, on targets the reference says were not attackable (0: the mask should
  forbid them), per tick of the main target's attackable windows (0 = the first tick it could be
  attacked), and the ticks it was attackable;
- ``damage_taken``: per source, the total and mean per episode, in how many episodes it hurt, the most
  in one tick, and whether the reference says it can hurt; ``never_damaged_by`` lists the sources
  that never hurt (worth a look: great play, or a hazard the simulator misplaces);
- ``damage_by_style``: per (source, style) pair, the hits that landed, those no prayer protected, the damage of
  all and of the unprotected ones (``unprotected_damage``), and whether the encounter declares the pair as an
  attack that can hurt (``EncounterSpec.attacks``); a declared pair whose ``UNPROTECTED_HITS`` or more unprotected
  hits all dealt 0 is flagged, judged on those hits alone (an attack rolled with no max hit deals 0 through every
  prayer, and nothing else shows it), as is damage from a pair the encounter does not declare;
- ``supplies``: per supply metric, the total, mean, least and most per episode;
- ``outcomes``: terminated / truncated / unfinished counts and the count of each 0/1 metric of the
  encounter's declared outcome (``EncounterSpec.outcome``);
- ``checks``: the numbers that must be 0 for an honest simulator (and a truth hook that reads every
  tick's damage as the episode's metrics count it), each with ``ok``.
"""

from __future__ import annotations

import numpy as np

from osrs_rl.audit.collect import EpisodeTally, StyleTally
from osrs_rl.runtime.truth import Truth


def walkable_at(walkable: np.ndarray, x: int, y: int) -> bool:
    return 0 <= x < walkable.shape[0] and 0 <= y < walkable.shape[1] and bool(walkable[x, y])


def view_box(walkable: np.ndarray, tiles) -> dict:
    """The tiles to draw: the reference's walkable ones and every tile stood on, one tile of margin,
    clipped to the map unless a tile outside it was stood on."""
    xs, ys = np.nonzero(walkable)
    xs, ys = list(xs), list(ys)
    for x, y in tiles:
        xs.append(x)
        ys.append(y)
    if not xs:
        return {"x0": 0, "y0": 0, "width": walkable.shape[0], "height": walkable.shape[1]}
    x0 = min(max(min(xs) - 1, 0), min(xs))
    y0 = min(max(min(ys) - 1, 0), min(ys))
    x1 = max(min(max(xs) + 1, walkable.shape[0] - 1), max(xs))
    y1 = max(min(max(ys) + 1, walkable.shape[1] - 1), max(ys))
    return {"x0": int(x0), "y0": int(y0), "width": int(x1 - x0 + 1), "height": int(y1 - y0 + 1)}


def _share(part: float, whole: float) -> float | None:
    return part / whole if whole else None


def _stats(values: list[float]) -> dict:
    if not values:
        return {"total": 0.0, "mean": None, "min": None, "max": None}
    return {"total": float(sum(values)), "mean": float(np.mean(values)), "min": float(min(values)),
            "max": float(max(values))}


UNPROTECTED_HITS = 20     # unprotected hits that all dealt 0 before a pair is flagged. The odds of a false flag:
                          # an honest attack landing a fraction a of its rolls, max hit m, deals 0 on a hit with
                          # p = 1 - a + a / (m + 1), all 20 with p**20: about 1.0e-3 for a = 0.3, m = 29, but
                          # 0.13 for a = 0.1. A flag is a lead to check by probe, not a proof.


def build_report(tallies: list[EpisodeTally], spec, truth: Truth, walkable: np.ndarray, source: dict,
                 declared: tuple = ()) -> dict:
    """``declared``: the spec's attacks under the audited config (``osrs_rl.runtime.attacks.check_attacks``)."""
    ticks = sum(t.ticks for t in tallies)
    stood, attacked = _sum_counters(t.stood for t in tallies), _sum_counters(t.attacked_from for t in tallies)
    tiles = [{"x": x, "y": y, "ticks": n, "attacks": attacked.get((x, y), 0), "walkable": walkable_at(walkable, x, y)}
             for (x, y), n in sorted(stood.items(), key=lambda kv: (-kv[1], kv[0]))]
    off = [t for t in tiles if not t["walkable"]]
    attacks = sum(t.attacks for t in tallies)
    report = {
        "encounter": spec.name, "spec_version": spec.version, "source": source, "reference": truth.reference,
        "episodes": len(tallies), "ticks": ticks,
        "map": {"width": int(walkable.shape[0]), "height": int(walkable.shape[1]), "origin": list(truth.origin),
                "view": view_box(walkable, stood)},
        "tiles": tiles,
        "position": _position(tallies, off, ticks, attacks, walkable),
        "attacks": _attacks(tallies, truth, attacks),
        "damage_taken": _damage(tallies, truth),
        "damage_by_style": _by_style(tallies, declared),
        "supplies": [{"metric": m, **_stats([t.metrics[m] for t in tallies if t.metrics])}
                     for m in truth.supply_metrics],
        "outcomes": _outcomes(tallies, spec),
    }
    report["never_damaged_by"] = [d["metric"] for d in report["damage_taken"] if d["total"] == 0]
    report["checks"] = _checks(report, tallies, truth)
    report["flagged_episodes"] = [{"episode": t.label, "ticks_off_reference": off_reference_ticks(t, walkable),
                                   "attacks_not_attackable": t.not_attackable}
                                  for t in tallies if off_reference_ticks(t, walkable) or t.not_attackable]
    return report


def _sum_counters(counters) -> dict:
    out: dict = {}
    for c in counters:
        for k, v in c.items():
            out[k] = out.get(k, 0) + v
    return out


def off_reference_ticks(t: EpisodeTally, walkable) -> int:
    return sum(n for (x, y), n in t.stood.items() if not walkable_at(walkable, x, y))


def _position(tallies, off, ticks, attacks, walkable) -> dict:
    off_ticks = sum(t["ticks"] for t in off)
    off_attacks = sum(t["attacks"] for t in off)
    return {"ticks_off_reference": off_ticks, "share_ticks_off_reference": _share(off_ticks, ticks),
            "attacks_off_reference": off_attacks, "share_attacks_off_reference": _share(off_attacks, attacks),
            "episodes_off_reference": sum(1 for t in tallies if off_reference_ticks(t, walkable)),
            "tiles_off_reference": off}


def _attacks(tallies, truth: Truth, attacks: int) -> dict:
    by_target = _sum_counters(t.by_target for t in tallies)
    by_window = _sum_counters(t.by_window_tick for t in tallies)
    bad = sum(t.not_attackable for t in tallies)
    out = {"total": attacks, "per_episode": _share(attacks, len(tallies)),
           "by_target": dict(sorted(by_target.items(), key=lambda kv: -kv[1])),
           "not_attackable": bad, "share_not_attackable": _share(bad, attacks),
           "window": truth.window, "attackable_ticks": sum(t.attackable_ticks for t in tallies)}
    if truth.window is not None:
        reached = _sum_counters(t.window_ticks for t in tallies)
        on_target = by_target.get(truth.window, 0)
        out["by_window_tick"] = [{"tick": k, "attacks": n, "share": _share(n, on_target), "ticks": reached.get(k, 0),
                                  "rate": _share(n, reached.get(k, 0))}
                                 for k in range(max(reached, default=-1) + 1) for n in [by_window.get(k, 0)]]
        out["on_window_target"] = on_target
        out["outside_windows"] = sum(t.outside_window for t in tallies)
    return out


def _damage(tallies, truth: Truth) -> list[dict]:
    rows = []
    for m in truth.damage_metrics:
        per = [t.damage.get(m, 0) for t in tallies]
        rows.append({"metric": m, "can_hurt": truth.can_hurt(m), "total": int(sum(per)),
                     "mean": float(np.mean(per)) if per else None, "episodes_hurt": sum(1 for v in per if v > 0),
                     "largest_tick": max((t.largest_hit.get(m, 0) for t in tallies), default=0)})
    return rows


def _by_style(tallies, attacks) -> list[dict]:
    """One row per (source, style): the declared attacks first (in the spec's order), then any other seen."""
    seen: dict[str, StyleTally] = {}
    for t in tallies:
        for pair, row in t.by_style.items():
            seen.setdefault(pair, StyleTally()).merge(row)
    declared = {a.pair: a for a in attacks}
    pairs = list(declared) + sorted(p for p in seen if p not in declared)
    rows = []
    for pair in pairs:
        got = seen.get(pair, StyleTally())
        a = declared.get(pair)
        rows.append({"pair": pair, "declared": a is not None, "max_hit": a.max_hit if a else None,
                     "hits": got.hits, "unprotected": got.unprotected, "damage": got.damage,
                     "unprotected_damage": got.unprotected_damage,
                     "episodes_hurt": sum(1 for t in tallies if pair in t.by_style and t.by_style[pair].damage > 0),
                     # judged on unprotected hits alone: damage a prayer lets through must not hide a style
                     # whose open hits all roll 0
                     "never_hurt": a is not None and got.unprotected >= UNPROTECTED_HITS
                     and got.unprotected_damage == 0})
    return rows


def _outcomes(tallies, spec) -> dict:
    finished = [t for t in tallies if t.metrics]
    out = {"terminated": sum(t.terminated for t in tallies), "truncated": sum(t.truncated for t in tallies),
           "unfinished": sum(1 for t in tallies if not (t.terminated or t.truncated)),
           "mean_ticks": _share(sum(t.ticks for t in tallies), len(tallies))}
    for m in spec.outcome.flags if spec.outcome is not None else ():
        out[m] = int(sum(t.metrics[m] for t in finished))
    return out


def _checks(report: dict, tallies, truth: Truth) -> list[dict]:
    pos, att = report["position"], report["attacks"]
    unexpected = sum(d["total"] for d in report["damage_taken"] if not d["can_hurt"])
    mismatched = [f"{t.label}: {m}" for t in tallies if t.metrics for m in truth.damage_metrics
                  if t.damage.get(m, 0) != round(t.metrics[m])]
    styles = report["damage_by_style"]
    never = sum(1 for r in styles if r["never_hurt"])
    undeclared = sum(r["damage"] for r in styles if not r["declared"])
    rows = [
        ("ticks on tiles the reference says are not walkable", pos["ticks_off_reference"]),
        ("attacks from tiles the reference says are not walkable", pos["attacks_off_reference"]),
        ("attacks on a target that was not attackable", att["not_attackable"]),
        ("damage from sources the reference says cannot hurt", unexpected),
        ("episodes whose per-tick damage differs from their metrics", len(mismatched)),
        (f"attacks (source, style) that dealt 0 in {UNPROTECTED_HITS}+ unprotected hits", never),
        ("damage from a (source, style) the encounter does not declare as an attack", undeclared),
    ]
    return [{"check": name, "value": int(v), "expected": 0, "ok": v == 0} for name, v in rows]
