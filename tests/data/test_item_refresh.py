"""items.json refreshed from a dps-calc equipment snapshot: the values that changed, and the refresh script.

The current snapshot is weirdgloop/osrs-dps-calc@a6599a08d87cf6193af1de9627e9167339567698 (2026-07-24)
cdn/json/equipment.json; the previous one was @787c43e1af125baf62c198b97787954fafaa4a73 (2025-06-26).
Between the two, the equipment file changed these items in commit e01fa5e9 (2026-07-22, "[automated]
Update JSON files (#924)"), i.e. after the OSRS wiki's item infoboxes were updated.
"""

import copy
import json
from pathlib import Path

import pytest

from osrs_rl.data import refresh_items as R

DATA = Path(__file__).resolve().parents[2] / "osrs_rl" / "data"
NEW = "a6599a08d87cf6193af1de9627e9167339567698"
OLD = "787c43e1af125baf62c198b97787954fafaa4a73"

# (item, field, value in the 2025-06-26 snapshot, value in the 2026-07-24 snapshot);
# both read from weirdgloop/osrs-dps-calc cdn/json/equipment.json at OLD and NEW.
CHANGED = [
    ("Ghrazi rapier", "stab", 94, 100),
    ("Ghrazi rapier", "melee_str", 89, 93),
    ("Inquisitor's mace", "crush", 95, 102),
    ("Inquisitor's mace", "melee_str", 89, 96),
    ("Master wand", "magic_dmg", 0, 100),       # tenths of a percent: +10 % magic damage
    ("Pegasian boots", "ranged_str", 0, 1),
]


def load(name):
    return json.loads((DATA / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def table():
    return load("items.json")


@pytest.fixture(scope="module")
def by_name(table):
    return {(f"{it['name']} ({it['version']})" if it["version"] else it["name"]): it for it in table["items"]}


@pytest.mark.parametrize(("name", "field", "old", "new"), CHANGED)
def test_changed_items_have_the_new_values(by_name, name, field, old, new):
    assert by_name[name]["bonuses"][field] == new != old


def test_change_table_names_exactly_the_changed_items(table):
    changes = load("item_changes.json")
    assert changes["_meta"]["from"] == R.citation(OLD) and changes["_meta"]["from_date"] == "2025-06-26"
    assert changes["_meta"]["to"] == table["_meta"]["snapshot"] == R.citation(NEW)
    assert changes["_meta"]["to_date"] == table["_meta"]["snapshot_date"] == "2026-07-24"
    listed = [(c["name"], c["field"], c["old"], c["new"]) for c in changes["changes"]]
    assert listed == CHANGED


def test_every_item_cites_the_snapshot(table):
    for it in table["items"]:
        assert it["source"] == table["_meta"]["snapshot"], it["name"]


# ---- the refresh script, on an export rebuilt from items.json ------------------------------------
def export_of(table: dict) -> list[dict]:
    """items.json written back in dps-calc's equipment.json form (the inverse of the refresh)."""
    out = []
    for it in table["items"]:
        name, version = R.NAME_ALIASES.get(it["id"], (it["name"], it["version"]))
        entry = {"name": name, "id": it["id"], "version": version or "", "slot": it["slot"],
                 "speed": it["speed"] or 0, "category": it["category"] or "", "isTwoHanded": it["two_handed"],
                 "offensive": {}, "defensive": {}, "bonuses": {}}
        if it.get("ammo_kind") == "dart":   # dps-calc lists darts as thrown weapons
            entry.update(slot="weapon", speed=3, category="Thrown")
        for group, key, ours in R.BONUS_MAP:
            entry[group][key] = it["bonuses"][ours]
        out.append(entry)
    return out


def test_refresh_of_an_unchanged_export_reproduces_the_table(table):
    new, changes = R.refresh(table, export_of(table), NEW, "2026-07-24")
    assert changes == []
    assert new == table


def test_refresh_names_each_changed_value(table):
    export = export_of(table)
    boots = next(e for e in export if e["name"] == "Pegasian boots")
    boots["bonuses"]["ranged_str"] = 7
    boots["defensive"]["magic"] += 1
    new, changes = R.refresh(table, export, "0" * 40, "2030-01-01")
    assert [R.format_change(c) for c in changes] == [
        f"Pegasian boots: magic_def {boots['defensive']['magic'] - 1} -> {boots['defensive']['magic']}",
        "Pegasian boots: ranged_str 1 -> 7",
    ]
    assert new["_meta"]["snapshot"] == R.citation("0" * 40) and new["_meta"]["snapshot_date"] == "2030-01-01"
    assert {it["source"] for it in new["items"]} == {R.citation("0" * 40)}


def test_refresh_keeps_darts_in_the_ammo_slot(table):
    new, _ = R.refresh(table, export_of(table), NEW, "2026-07-24")
    dart = next(it for it in new["items"] if it["name"] == "Dragon dart")
    assert (dart["slot"], dart["speed"], dart["category"]) == ("ammo", None, None)


@pytest.mark.parametrize(("edit", "message"), [
    (lambda ex: ex.pop(0), "appears 0 times"),
    (lambda ex: ex.append(copy.deepcopy(ex[0])), "appears 2 times"),
    (lambda ex: ex[0].update(name="Something else"), "in the export, but items.json expects"),
    (lambda ex: next(e for e in ex if e["slot"] == "feet").update(slot="hands"), "moved from slot"),
])
def test_refresh_refuses_an_export_that_does_not_fit(table, edit, message):
    export = export_of(table)
    edit(export)
    with pytest.raises(R.RefreshError, match=message):
        R.refresh(table, export, NEW, "2026-07-24")


@pytest.mark.parametrize(("commit", "date"), [("a6599a08", "2026-07-24"), (NEW, "24/07/2026")])
def test_refresh_refuses_a_bad_commit_or_date(table, commit, date):
    with pytest.raises(R.RefreshError, match="must be"):
        R.refresh(table, export_of(table), commit, date)


def test_script_writes_items_and_changes(table, tmp_path, capsys):
    export = export_of(table)
    next(e for e in export if e["name"] == "Master wand")["bonuses"]["magic_str"] = 150
    (tmp_path / "equipment.json").write_text(json.dumps(export), encoding="utf-8")
    (tmp_path / "items.json").write_text(json.dumps(table), encoding="utf-8")
    R.main([str(tmp_path / "equipment.json"), "--commit", "1" * 40, "--date", "2031-02-03",
            "--items", str(tmp_path / "items.json"), "--changes", str(tmp_path / "changes.json")])
    assert "Master wand: magic_dmg 100 -> 150" in capsys.readouterr().out.splitlines()
    written = json.loads((tmp_path / "changes.json").read_text(encoding="utf-8"))
    assert written["_meta"]["from"] == table["_meta"]["snapshot"] and written["_meta"]["from_date"] == "2026-07-24"
    assert [c["name"] for c in written["changes"]] == ["Master wand"]
    items = json.loads((tmp_path / "items.json").read_text(encoding="utf-8"))
    assert next(it for it in items["items"] if it["name"] == "Master wand")["bonuses"]["magic_dmg"] == 150
