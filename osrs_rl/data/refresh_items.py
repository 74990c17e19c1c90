"""Refresh ``items.json`` from a dps-calc equipment export and list what changed.

``items.json`` keeps its own selection of items (ids, names and versions as the engine shows them)
and the fields this project adds (``attack_range``, ``ammo_class``, ``fires``, ``ammo_kind``,
``ammo_tier``). Everything else (slot, two-handedness, the 14 bonuses, attack speed, weapon
category) is re-read, by item id, from the OSRS wiki DPS calculator's equipment export
(weirdgloop/osrs-dps-calc ``cdn/json/equipment.json``). The same export and the same selection
always give the same file.

Usage, from a copy of weirdgloop/osrs-dps-calc (commit and date from ``git log -1 --format='%H %cs'``)::

    python -m osrs_rl.data.refresh_items path/to/cdn/json/equipment.json \\
        --commit <40-hex commit> --date YYYY-MM-DD

It rewrites ``osrs_rl/data/items.json`` and ``osrs_rl/data/item_changes.json`` (the values that
differ from the snapshot the table was built from before) and prints the changes, one
``name: field old -> new`` line each.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent
EQUIPMENT_PATH = "cdn/json/equipment.json"

# dps-calc bonus group and key -> items.json bonus key (order = items.json order).
BONUS_MAP = (
    ("offensive", "stab", "stab"), ("offensive", "slash", "slash"), ("offensive", "crush", "crush"),
    ("offensive", "magic", "magic"), ("offensive", "ranged", "ranged"),
    ("defensive", "stab", "stab_def"), ("defensive", "slash", "slash_def"), ("defensive", "crush", "crush_def"),
    ("defensive", "magic", "magic_def"), ("defensive", "ranged", "ranged_def"),
    ("bonuses", "str", "melee_str"), ("bonuses", "ranged_str", "ranged_str"),
    # dps-calc magic_str is in tenths of a percent; kept as is (Occult necklace 50 = +5 %).
    ("bonuses", "magic_str", "magic_dmg"), ("bonuses", "prayer", "prayer"),
)
STAT_FIELDS = ("slot", "two_handed", "speed", "category")

# Where the table's name or version is not dps-calc's for the same id (see data/README.md).
NAME_ALIASES = {
    22622: ("Statius's warhammer (Deadman Mode)", None),
    22613: ("Vesta's longsword (Deadman Mode)", None),
    22647: ("Zuriel's staff (Deadman Mode)", None),
    # the imbued rings' Nightmare Zone ids; dps-calc lists them without a version
    11771: ("Archers ring (i)", None),
    11773: ("Berserker ring (i)", None),
    13202: ("Ring of the gods (i)", None),
}

META_SOURCE = (
    "Item equipment bonuses, attack speeds, weapon categories and two-handedness from the OSRS wiki DPS "
    "calculator's equipment export (dps-calc), read by item id with osrs_rl/data/refresh_items.py. "
    "attack_range and ammo_class are added here from the OSRS wiki's \"Attack range\" page (its class "
    "rules; per-weapon values compiled by hand); fires, "
    "ammo_kind and ammo_tier from weirdgloop/osrs-dps-calc src/lib/Equipment.ts. See data/README.md."
)


class RefreshError(ValueError):
    """The export does not fit the table (missing id, renamed item, changed slot)."""


def citation(commit: str) -> str:
    return f"weirdgloop/osrs-dps-calc@{commit} {EQUIPMENT_PATH}"


def _stats(entry: dict, table_item: dict) -> dict:
    """The dps-calc fields of one export entry in items.json form."""
    bonuses = {key: int(entry[group][k]) for group, k, key in BONUS_MAP}
    slot = entry["slot"]
    if table_item.get("ammo_kind") == "dart":
        # Darts are ammo here: the blowpipe adds its loaded dart's ranged strength (data/README.md).
        slot = "ammo"
    weapon = slot == "weapon"
    return {
        "slot": slot,
        "two_handed": bool(entry["isTwoHanded"]),
        "bonuses": bonuses,
        "speed": int(entry["speed"]) if weapon else None,
        "category": entry["category"] if weapon else None,
    }


def _check_identity(entry: dict, it: dict) -> None:
    expected = NAME_ALIASES.get(it["id"], (it["name"], it["version"]))
    got = (entry["name"], entry["version"] or None)
    if got != expected:
        raise RefreshError(f"item id {it['id']} is {got[0]!r} version {got[1]!r} in the export, "
                           f"but items.json expects {expected[0]!r} version {expected[1]!r}")


def refresh(table: dict, export: list[dict], commit: str, date: str) -> tuple[dict, list[dict]]:
    """Return (new items.json, changes) for ``table`` refreshed from ``export`` at ``commit``/``date``.

    ``changes`` holds one ``{"id", "name", "field", "old", "new"}`` record per value that differs,
    ``field`` being a bonus key or one of ``slot two_handed speed category``.
    """
    if not re.fullmatch(r"[0-9a-f]{40}", commit):
        raise RefreshError(f"commit must be 40 lower-case hex digits, got {commit!r}")
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", date):
        raise RefreshError(f"date must be YYYY-MM-DD, got {date!r}")
    by_id: dict[int, list[dict]] = {}
    for entry in export:
        by_id.setdefault(entry["id"], []).append(entry)
    items, changes = [], []
    for it in table["items"]:
        name = f"{it['name']} ({it['version']})" if it["version"] else it["name"]
        found = by_id.get(it["id"], [])
        if len(found) != 1:
            raise RefreshError(f"item {name!r} (id {it['id']}) appears {len(found)} times in the export")
        _check_identity(found[0], it)
        stats = _stats(found[0], it)
        if stats["slot"] != it["slot"]:
            raise RefreshError(f"item {name!r} moved from slot {it['slot']!r} to {stats['slot']!r}; "
                               "its project fields (attack_range, ammo_class) need a person")
        for field in STAT_FIELDS:
            if stats[field] != it[field]:
                changes.append({"id": it["id"], "name": name, "field": field, "old": it[field], "new": stats[field]})
        for key, value in stats["bonuses"].items():
            if value != it["bonuses"][key]:
                changes.append({"id": it["id"], "name": name, "field": key, "old": it["bonuses"][key], "new": value})
        new = dict(it)
        new.update(stats)
        new["source"] = citation(commit)
        items.append(new)
    meta = dict(table["_meta"])
    meta["source"] = META_SOURCE
    meta["snapshot"] = citation(commit)
    meta["snapshot_date"] = date
    units = meta.pop("units")
    meta["units"] = units  # keep units last
    return {"_meta": meta, "items": items}, changes


def change_table(changes: list[dict], old_snapshot: str, old_date: str | None, commit: str, date: str) -> dict:
    return {
        "_meta": {
            "source": "Values in items.json that differ between two dps-calc equipment snapshots, as printed "
                      "by osrs_rl/data/refresh_items.py.",
            "from": old_snapshot, "from_date": old_date, "to": citation(commit), "to_date": date,
        },
        "changes": changes,
    }


def write_json(path: Path, data: dict) -> None:
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def format_change(c: dict) -> str:
    return f"{c['name']}: {c['field']} {c['old']} -> {c['new']}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("equipment", type=Path, help=f"a copy of weirdgloop/osrs-dps-calc {EQUIPMENT_PATH}")
    p.add_argument("--commit", required=True, help="the osrs-dps-calc commit the export was read at")
    p.add_argument("--date", required=True, help="that commit's date, YYYY-MM-DD")
    p.add_argument("--items", type=Path, default=DATA_DIR / "items.json", help="items.json to refresh (in place)")
    p.add_argument("--changes", type=Path, default=DATA_DIR / "item_changes.json", help="where to write the changes")
    args = p.parse_args(argv)
    table = json.loads(args.items.read_text(encoding="utf-8"))
    export = json.loads(args.equipment.read_text(encoding="utf-8"))
    old_snapshot, old_date = table["_meta"]["snapshot"], table["_meta"].get("snapshot_date")
    new_table, changes = refresh(table, export, args.commit, args.date)
    write_json(args.items, new_table)
    if old_snapshot != new_table["_meta"]["snapshot"]:
        write_json(args.changes, change_table(changes, old_snapshot, old_date, args.commit, args.date))
    print(f"{len(new_table['items'])} items from {citation(args.commit)} ({args.date}); {len(changes)} changed values")
    for c in changes:
        print(format_change(c))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
