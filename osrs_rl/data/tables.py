"""Loads the JSON fact tables into NumPy record arrays and resolves names to indices.

Kernels see item, NPC and spell *indices*; people and configs use the OSRS wiki names, with the
version in parentheses where the wiki has one ("Toxic blowpipe (Charged)", "Zulrah (Magma)").
A name without its version resolves when only one version exists. Unknown names raise
:class:`UnknownNameError` listing the closest matches.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from difflib import get_close_matches
from functools import cache
from pathlib import Path

import numpy as np

from osrs_rl.core import damage as D
from osrs_rl.core import equipment as E
from osrs_rl.core import styles as S
from osrs_rl.core import weapons as W
from osrs_rl.core.combatant import NPC_DTYPE

DATA_DIR = Path(__file__).resolve().parent


class UnknownNameError(KeyError, ValueError):
    """A name that is not in a table; the message lists close matches."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


def full_name(name: str, version: str | None) -> str:
    return f"{name} ({version})" if version else name


@dataclass
class NameIndex:
    """Case-insensitive name lookup with close-match errors."""

    kind: str
    names: list[str]
    _exact: dict[str, int] = field(default_factory=dict)
    _base: dict[str, list[int]] = field(default_factory=dict)

    def add(self, index: int, name: str, version: str | None) -> None:
        self._exact[full_name(name, version).lower()] = index
        self._base.setdefault(name.lower(), []).append(index)

    def find(self, query: str) -> int:
        key = query.strip().lower()
        if key in self._exact:
            return self._exact[key]
        hits = self._base.get(key, [])
        if len(hits) == 1:
            return hits[0]
        if len(hits) > 1:
            options = ", ".join(self.names[i] for i in hits)
            raise UnknownNameError(f"{self.kind} {query!r} has several versions; name one of: {options}")
        close = get_close_matches(query, self.names, n=5, cutoff=0.6)
        if not close:
            low = {n.lower(): n for n in self.names}
            close = [low[n] for n in get_close_matches(key, list(low), n=5, cutoff=0.5)]
        hint = f" Close matches: {', '.join(close)}." if close else ""
        raise UnknownNameError(f"Unknown {self.kind} {query!r}.{hint}")


def _read(name: str) -> dict:
    path = DATA_DIR / name
    with path.open(encoding="utf-8") as f:
        return json.load(f)


# ---- items -----------------------------------------------------------------------------------
@dataclass
class ItemTable:
    records: np.ndarray                 # ITEM_DTYPE rows
    index: NameIndex
    categories: dict[str, list[dict]]   # weapon category -> combat styles
    category_names: list[str]
    raw: list[dict]

    def find(self, name: str) -> int:
        return self.index.find(name)

    def name(self, i: int) -> str:
        return self.index.names[i]

    def styles(self, i: int) -> list[dict]:
        """Combat styles of the weapon at index ``i`` (or unarmed when ``i`` < 0)."""
        if i < 0:
            return self.categories["Unarmed"]
        return self.categories[self.category_names[self.records[i]["category"]]]


_BOLT_NAMES = {  # enchanted bolts by name stem -> osrs_rl.core.bolts code (resolved lazily)
    "Opal": "OPAL", "Pearl": "PEARL", "Diamond": "DIAMOND", "Ruby": "RUBY",
    "Dragonstone": "DRAGONSTONE", "Onyx": "ONYX",
}


def _bolt_code(name: str) -> int:
    from osrs_rl.core import bolts as B

    if not name.endswith("(e)"):
        return 0
    stem = name.split(" ")[0]
    attr = _BOLT_NAMES.get(stem)
    return getattr(B, attr) if attr else 0


@cache
def items() -> ItemTable:
    data = _read("items.json")
    cats = _read("weapon_categories.json")["categories"]
    category_names = sorted(cats)
    cat_index = {c: k for k, c in enumerate(category_names)}
    raw = data["items"]
    records = np.zeros(len(raw), dtype=E.ITEM_DTYPE)
    names = [full_name(it["name"], it.get("version")) for it in raw]
    index = NameIndex("item", names)
    for k, it in enumerate(raw):
        r = records[k]
        r["id"] = it["id"]
        r["slot"] = E.SLOT_NAMES.index(it["slot"])
        r["two_handed"] = bool(it.get("two_handed"))
        r["bonuses"] = [it["bonuses"].get(key, 0) for key in S.BONUS_KEYS]
        r["speed"] = it.get("speed") or 0
        r["attack_range"] = it.get("attack_range") or 0
        r["category"] = cat_index.get(it.get("category") or "Unarmed", cat_index.get("Unarmed", 0))
        ac = it.get("ammo_class")
        r["ammo_class"] = S.AMMO_CLASS_NAMES.index(ac) if ac else S.AMMO_NONE
        r["effect"] = W.EFFECT_BY_NAME.get(it["name"], W.NONE)
        r["bolt"] = _bolt_code(it["name"])
        r["is_dragon_arrow"] = it["name"] == "Dragon arrow"
        r["set_piece"] = E.SET_PIECE_BY_NAME.get(names[k], E.SET_PIECE_BY_NAME.get(it["name"], E.PIECE_NONE))
        r["fires"] = E.AMMO_KIND_NAMES.index(it["fires"]) if it.get("fires") else 0
        r["ammo_kind"] = E.AMMO_KIND_NAMES.index(it["ammo_kind"]) if it.get("ammo_kind") else 0
        r["ammo_tier"] = it.get("ammo_tier") or 0
        index.add(k, it["name"], it.get("version"))
    records.setflags(write=False)
    return ItemTable(records, index, cats, category_names, raw)


# ---- NPCs ------------------------------------------------------------------------------------
@dataclass
class NpcTable:
    records: np.ndarray
    index: NameIndex
    raw: list[dict]

    def find(self, name: str) -> int:
        return self.index.find(name)

    def name(self, i: int) -> str:
        return self.index.names[i]


def _listed_max(npc: dict, style: str) -> int:
    by_style = npc.get("max_hit_by_style") or {}
    v = by_style.get(style)
    if isinstance(v, (int, float)):
        return int(v)
    return -1


@cache
def npcs() -> NpcTable:
    raw = _read("npcs.json")["npcs"]
    records = np.zeros(len(raw), dtype=NPC_DTYPE)
    names = [full_name(n["name"], n.get("version")) for n in raw]
    index = NameIndex("NPC", names)
    for k, n in enumerate(raw):
        r = records[k]
        lv, off, de = n["levels"], n["offensive_bonuses"], n["defence_bonuses"]
        r["npc_id"] = n.get("npc_id") or -1
        r["hitpoints"] = n["hitpoints"]
        for key in ("attack", "strength", "defence", "ranged", "magic"):
            r[key] = lv.get(key, 1)
        for key in ("melee_attack", "melee_strength", "ranged_attack", "ranged_strength",
                    "magic_attack", "magic_strength"):
            r[key] = off.get(key, 0)
        r["defence_bonuses"] = [de.get(key, 0) for key in (
            "stab", "slash", "crush", "magic", "ranged_light", "ranged_standard", "ranged_heavy")]
        r["size"] = n.get("size") or 1
        r["attack_speed"] = n.get("attack_speed_ticks") or 0
        r["max_hit_melee"] = _listed_max(n, "melee")
        r["max_hit_ranged"] = _listed_max(n, "ranged")
        r["max_hit_magic"] = _listed_max(n, "magic")
        r["magic_uses_defence"] = bool(n.get("magic_uses_defence", False))
        r["xerician"] = False
        r["hit_cap"] = D.CAP_ZULRAH if n["name"] == "Zulrah" else D.CAP_NONE
        index.add(k, n["name"], n.get("version"))
    records.setflags(write=False)
    return NpcTable(records, index, raw)


# the wiki infobox's attack styles (npcs.json ``attack_styles``) as the hit styles the simulators roll
# (runtime.attacks.STYLE_NAMES): stab, slash and crush are melee; the infobox's "Typeless ..." styles and "Area of
# effect" (damage on tiles, not aimed at the player) ignore protection prayers (OSRS wiki "Protection prayers":
# they protect from the three combat styles only)
_STYLE_CLASS = {"stab": "melee", "slash": "melee", "crush": "melee", "melee": "melee", "ranged": "ranged",
                "magic": "magic", "typeless": "typeless", "typeless magic": "typeless", "typeless ranged": "typeless",
                "area of effect": "typeless"}


def npc_attack_styles(name: str) -> tuple[str, ...]:
    """The hit styles NPC ``name`` attacks with, by the wiki infobox's attack styles, in their order, each once
    (ValueError naming a style this table cannot class)."""
    table = npcs()
    listed = table.raw[table.find(name)].get("attack_styles") or []
    out = []
    for style in listed:
        cls = _STYLE_CLASS.get(str(style).strip().lower())
        if cls is None:
            raise ValueError(f"NPC {name!r}: attack style {style!r} has no hit style in data.tables._STYLE_CLASS")
        if cls not in out:
            out.append(cls)
    return tuple(out)


# ---- spells ----------------------------------------------------------------------------------
@dataclass
class SpellTable:
    raw: list[dict]
    index: NameIndex
    max_hits: np.ndarray
    bolt: np.ndarray        # the four Bolt spells (Wind/Water/Earth/Fire Bolt; Chaos gauntlets add +3)

    def find(self, name: str) -> int:
        return self.index.find(name)


@cache
def spells() -> SpellTable:
    raw = _read("spells.json")["spells"]
    index = NameIndex("spell", [s["name"] for s in raw])
    for k, s in enumerate(raw):
        index.add(k, s["name"], None)
    max_hits = np.array([s["max_hit"] for s in raw], dtype=np.int64)
    # the standard book's Bolt spells, as the OSRS wiki "Chaos gauntlets" page names them (dps-calc
    # PlayerVsNPCCalc tests the spell name for "bolt"; no other spell here has it)
    bolt = np.array([s["spellbook"] == "standard" and s["name"].endswith(" Bolt") for s in raw], dtype=bool)
    return SpellTable(raw, index, max_hits, bolt)
