"""Tables for the kernels: the cave's map, route and sight tables, the wave table and rotation, the monster rows
and the player's kit. ``fill_config`` is the spec's config hook; ``kit`` and ``attacks`` are the spec's.

Two kits (config ``kit``), one gear set each (no switches), built with the engine's combatant builder
(``osrs_rl.data.combatants``), so accuracy and max hits (the twisted bow's scaling on each monster's magic) come
from core.accuracy and core.max_hit as in the calculator:

- ``peer``: the kit of the peer Fight Caves environment (PufferAI/PufferLib pull request 689, its default
  "Masori + TBow" loadout as the research notes read it): twisted bow with dragon arrows, Masori (f), Ava's
  assembler, necklace of anguish, zaryte vambraces, Pegasian boots, venator ring; 99 in every skill but Attack
  and Strength (1: they do not matter for a ranged kit); no food and no potions (its evaluation's
  ``initial_sharks = 0``, ``initial_prayer_doses = 0``). Every item is in osrs_rl/data/items.json.
- ``realistic``: a mid-level ranged kit as players bring it (a common practice, not a sourced fact): rune
  crossbow with runite bolts, Karil's coif, black d'hide body, chaps and vambraces, Ava's accumulator, amulet of
  glory, climbing boots (the items.json boots nearest to a mid-level player's), 99 in every skill; 10 Saradomin
  brews and 18 super restores fill the 28 slots (OSRS wiki "Saradomin brew", "Super restore": a restore undoes
  the brews' stat drain as well as restoring prayer, which a prayer potion does not).

Both pray Rigour as their offensive prayer (OSRS wiki "Rigour": level 74 Prayer, 70 Defence; both kits have 99).
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np

from osrs_rl.core import click_move as CM
from osrs_rl.core import equipment as E
from osrs_rl.core import hit_delay as HD
from osrs_rl.core import prayers as P
from osrs_rl.core import specials as SP
from osrs_rl.core import styles as S
from osrs_rl.core.consumables import load_consumables
from osrs_rl.core.formula import NO_TRACE
from osrs_rl.core.line_of_sight import sight_table
from osrs_rl.core.max_hit import npc_max_hit
from osrs_rl.core.pending_hits import STYLE_MAGIC, STYLE_MELEE, STYLE_RANGED
from osrs_rl.core.skills import ATTACK, SKILL_NAMES, STRENGTH
from osrs_rl.data import tables
from osrs_rl.data.combatants import build_combatant, carried_items
from osrs_rl.runtime.attacks import STYLE_NAMES, Attack
from osrs_rl.runtime.inventory import Kit, potion_slots

from . import arena as A
from . import state as ST
from . import waves as W


class GearKit(NamedTuple):
    """A kit: what is worn, the weapon's stance, the offensive prayers, the levels that are not 99, and the potion
    doses it carries by default (state.SUPPLY_NAMES order)."""

    gear: dict
    stance: str
    prayers: tuple[str, ...]
    low_levels: dict
    doses: tuple[int, ...]


KITS = (
    GearKit({"head": "Masori mask (f)", "cape": "Ava's assembler (Normal)", "neck": "Necklace of anguish",
             "ammo": "Dragon arrow (Unpoisoned)", "weapon": "Twisted bow", "body": "Masori body (f)",
             "legs": "Masori chaps (f)", "hands": "Zaryte vambraces", "feet": "Pegasian boots",
             "ring": "Venator ring"}, "Rapid", ("Rigour",), {ATTACK: 1, STRENGTH: 1}, (0, 0)),
    GearKit({"head": "Karil's coif (Undamaged)", "cape": "Ava's accumulator", "neck": "Amulet of glory (4)",
             "ammo": "Runite bolts (Unpoisoned)", "weapon": "Rune crossbow", "body": "Black d'hide body",
             "legs": "Black d'hide chaps", "hands": "Black d'hide vambraces", "feet": "Climbing boots"},
            "Rapid", ("Rigour",), {}, (40, 72)),
)

# What each kind attacks with, beside npcs.json's rows [sources: the fight_caves README's monster table and
# npcs.json notes]: (range, its usual style, melee when the player is in melee reach). Range 15 for the distance
# attackers [M: WooxSolo Lvl90.js / Lvl360.js / Lvl702.js maxAttackRange, Zenyte setAttackDistance(15); VOID 14,
# Kronos 16: README "Open questions" 7]; the others melee (range 1). Tok-Xil and Ket-Zek melee an adjacent player
# half the time (core.npc_attack.melees_close), TzTok-Jad too (README "Open questions" 2); Jad's distance style is drawn
# per attack (core.jad), the magic listed here is only its default.
_ATTACK = {
    ST.K_KIH: (1, STYLE_MELEE, 0),
    ST.K_KEK: (1, STYLE_MELEE, 0),
    ST.K_KEK_SPLIT: (1, STYLE_MELEE, 0),
    ST.K_XIL: (15, STYLE_RANGED, 1),
    ST.K_MEJKOT: (1, STYLE_MELEE, 0),
    ST.K_ZEK: (15, STYLE_MAGIC, 1),
    ST.K_JAD: (15, STYLE_MAGIC, 1),
    ST.K_HURKOT: (1, STYLE_MELEE, 0),
}


def kernel_styles(k: int) -> tuple[int, ...]:
    """The pending-hit styles the kernels can roll for kind ``k``: its usual style, melee when it melees in reach,
    and both of Jad's distance styles."""
    reach, style, melee = _ATTACK[k]
    out = [style]
    if k == ST.K_JAD:
        out.append(STYLE_RANGED)
    if melee:
        out.append(STYLE_MELEE)
    return tuple(out)


@cache
def cave_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(flags, route, sight): the cave's collision map (arena.flags), the game's route from every tile to every
    offset within state.ROUTE_RADIUS on it (core.click_move.route_tables, which checks that every route to a
    legal click arrives within the radius) and its sight table (core.line_of_sight.sight_table: every ray,
    precomputed; about 2 MB, built once a process)."""
    flags = A.flags()
    route = CM.route_tables(flags[None], ST.ROUTE_RADIUS)[0]
    sight = sight_table(flags)
    for t in (flags, route, sight):
        t.setflags(write=False)
    return flags, route, sight


def doses(cfg) -> tuple[int, ...]:
    """The potion doses the config's player carries: each supply setting, or the kit's where it is -1."""
    kit = KITS[int(cfg["kit"])]
    return tuple(kit.doses[k] if int(cfg[name]) < 0 else int(cfg[name]) for k, name in enumerate(ST.SUPPLY_SETTINGS))


def kit(cfg) -> Kit:
    """What the config's player carries (the spec's ``kit``, runtime.inventory): its one gear set worn (nothing
    to switch to) and the potions of ``doses``."""
    k = int(cfg["kit"])
    supplies = tuple((name, potion_slots(n)) for name, n in zip(ST.SUPPLY_NAMES, doses(cfg), strict=True))
    return Kit(f"kit {ST.KIT_NAMES[k]}", (carried_items(KITS[k].gear, KITS[k].gear.get("ammo")),), supplies)


def attacks(cfg) -> list[Attack]:
    """Every (kind, style) that can hurt the player (the spec's ``attacks``, runtime.attacks): the styles npcs.json
    lists for each kind (data.tables.npc_attack_styles) and every style the kernels roll for it, with the max hit
    the kernels roll (``kind_max``)."""
    rows = []
    for k, npc in enumerate(ST.KIND_NPC):
        listed = tables.npc_attack_styles(npc)
        ours = tuple(STYLE_NAMES[st] for st in kernel_styles(k))
        for style in listed + tuple(s for s in ours if s not in listed):
            most = int(cfg["kind_max"][k, STYLE_NAMES.index(style)]) if style in STYLE_NAMES[:3] else -1
            rows.append(Attack(ST.KIND_NAMES[k], style, most, f"npcs.json {npc!r}"))
    return rows


def _fill_cave(cfg) -> None:
    flags, route, sight = cave_tables()
    cfg["flags"] = flags
    cfg["route"] = route
    cfg["sight"] = sight
    cfg["spawn_xy"] = A.SPAWN_XY
    cfg["start_xy"] = A.PLAYER_START
    cfg["cycle"] = W.SPAWN_CYCLE
    kinds = np.full((W.NUM_WAVES + 1, W.MAX_PER_WAVE), -1, dtype=np.int8)
    for wave in range(1, W.NUM_WAVES + 1):
        for j in range(W.WAVE_SIZE[wave]):
            kinds[wave, j] = ST.TIER_KIND[W.WAVE_KINDS[wave, j]]
    cfg["wave_kinds"] = kinds
    cfg["wave_size"] = W.WAVE_SIZE
    weights = np.array([cfg[f"band_weight_{k + 1}"] for k in range(ST.NUM_BANDS)], dtype=np.float64)
    cfg["band_cumulative"] = np.cumsum(weights) / weights.sum() if weights.sum() > 0 else 0.0


def _fill_monsters(cfg) -> None:
    npcs = tables.npcs()
    for k, name in enumerate(ST.KIND_NPC):
        row = npcs.records[npcs.find(name)]
        cfg["kind_row"][k] = row
        cfg["kind_size"][k] = row["size"]
        cfg["kind_speed"][k] = row["attack_speed"]
        reach, style, melee = _ATTACK[k]
        cfg["kind_range"][k] = reach
        cfg["kind_style"][k] = style
        cfg["kind_melee"][k] = melee
        rec = cfg["kind_row"][k:k + 1]
        # the listed max hit of each style the kind uses (npcs.json max_hit_by_style: the data README's choices,
        # Tok-Xil ranged 14, Ket-Zek magic 52 and stab 54, Jad 97 each), through core.max_hit.npc_max_hit
        for st, attack_type in ((STYLE_MELEE, S.CRUSH), (STYLE_RANGED, S.RANGED), (STYLE_MAGIC, S.MAGIC)):
            uses = st in kernel_styles(k)
            cfg["kind_max"][k, st] = int(npc_max_hit(NO_TRACE, rec[0], attack_type)) if uses else -1


def _projectile(rec) -> int:
    return HD.PROJ_THROWN if int(rec["ammo_class"]) == S.AMMO_LIGHT else HD.PROJ_BOW


def _fill_player(cfg) -> None:
    items = tables.items()
    kit_ = KITS[int(cfg["kit"])]
    levels = [99] * len(SKILL_NAMES)
    for skill, level in kit_.low_levels.items():
        levels[skill] = level
    cfg["levels"] = levels
    rec = build_combatant(style=kit_.stance, gear=kit_.gear, levels=dict(zip(SKILL_NAMES, levels, strict=True)))[0]
    cfg["gear_combat"] = rec
    cfg["gear_row"] = SP.build_normal_table()[int(rec["weapon_effect"])]
    cfg["gear_proj"] = _projectile(rec)
    worn = np.full(E.NUM_SLOTS, -1, dtype=np.int16)
    for slot, item in kit_.gear.items():
        worn[E.SLOT_NAMES.index(slot)] = items.find(item)
    cfg["gear_worn"] = worn
    cfg["gear_range"] = int(items.records[items.find(kit_.gear["weapon"])]["attack_range"])
    cfg["gear_prayer_bonus"] = rec["bonuses"][S.B_PRAYER]
    cfg["offensive"] = P.prayer_mask(list(kit_.prayers))
    cfg["supply_start"] = doses(cfg)
    cons = load_consumables()
    cfg["consumables"][:] = cons.table
    for k, item in enumerate(ST.SUPPLY_ITEMS):
        cfg["supply_consumable"][k] = cons.id(item)
    cfg["bolt_ctx"] = 0


def fill_config(cfg) -> None:
    """The spec's config hook: fill every derived field."""
    _fill_cave(cfg)
    _fill_monsters(cfg)
    _fill_player(cfg)
