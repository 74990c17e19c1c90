"""Tables for the kernels: gear tiers (``gear.json``), the platform, rotations and NPC rows.

``fill_config`` is the spec's config hook: it checks the settings that depend on each other
(``start_phase`` against the rotation, the tier weights) and fills every derived field with the
engine's own combatant builder (``osrs_rl.data.combatants.build_combatant``, which the calculator
uses too), as ``pvp/loadouts.py`` does.

The platform is the game's collision map (``shrine_map.json``: the RuneLite plugin "Shortest Path"'s
dump of the OSRS cache, decoded by ``scripts/collision_map.py``): a U-shaped island of 69 walkable
tiles, two 3-wide arms around the bay where Zulrah surfaces at CENTER, and two pillars that block
movement and line of sight. Water blocks movement only.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np

from osrs_rl.core import collision as C
from osrs_rl.core import equipment as E
from osrs_rl.core import hit_delay as HD
from osrs_rl.core import prayers as P
from osrs_rl.core import specials as SP
from osrs_rl.core import styles as S
from osrs_rl.core.consumables import load_consumables
from osrs_rl.core.line_of_sight import has_line_of_sight
from osrs_rl.core.skills import SKILL_NAMES
from osrs_rl.data import tables
from osrs_rl.data.combatants import CombatantInputError, build_combatant, carried_items
from osrs_rl.runtime.attacks import Attack
from osrs_rl.runtime.config import ConfigError
from osrs_rl.runtime.inventory import Kit, potion_slots

from . import rotations as RT
from . import state as ST

GEAR_PATH = Path(__file__).resolve().parent / "gear.json"
MAP_PATH = Path(__file__).resolve().parent / "shrine_map.json"
# walk directions (move options from state.MOVE_WALK, labelled state.WALK_LABELS): N, NE, E, SE, S, SW, W, NW
WALK = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
# run destinations (move options from state.MOVE_RUN, labelled state.RUN_LABELS): the 16 tiles two steps away,
# clockwise from north
RUN = ((0, 2), (1, 2), (2, 2), (2, 1), (2, 0), (2, -1), (2, -2), (1, -2),
       (0, -2), (-1, -2), (-2, -2), (-2, -1), (-2, 0), (-2, 1), (-2, 2), (-1, 2))


@cache
def tiers() -> dict:
    with open(GEAR_PATH, encoding="utf-8") as f:
        data = json.load(f)["tiers"]
    if list(data) != list(ST.TIER_NAMES):
        raise ValueError(f"gear.json must list the tiers {ST.TIER_NAMES} in that order, got {tuple(data)}")
    return data


@cache
def _map_chars() -> np.ndarray:
    """The map file's characters as ``[GRID_W, GRID_H]`` in the local frame (x east, y north)."""
    with open(MAP_PATH, encoding="utf-8") as f:
        doc = json.load(f)
    rows = doc["rows_north_to_south"]
    x0, y0 = RT.local(doc["x_min"], doc["y_max"])
    if (x0, y0 + 1 - len(rows)) != (0, 0) or {len(r) for r in rows} != {RT.GRID_W} or len(rows) != RT.GRID_H:
        raise ValueError(f"{MAP_PATH.name} must cover the local frame {RT.GRID_W}x{RT.GRID_H} from {RT.ORIGIN}")
    chars = np.array([list(r) for r in rows]).T[:, ::-1]
    if not set(np.unique(chars)) <= set(doc["legend"]):
        raise ValueError(f"{MAP_PATH.name}: characters outside its legend {sorted(doc['legend'])}")
    return chars


def walkable() -> np.ndarray:
    """bool[GRID_W, GRID_H]: the platform's walkable tiles, from the game's collision map."""
    return _map_chars() == "."


def pillars() -> np.ndarray:
    """bool[GRID_W, GRID_H]: the two pillars (block movement and line of sight)."""
    return _map_chars() == "P"


def _run_steps(dx: int, dy: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two steps of a run to (dx, dy): diagonal first while both axes differ, then straight
    (the game's step order toward a destination: core.movement rule 3)."""
    first = (int(np.sign(dx)), int(np.sign(dy)))
    return first, (int(np.sign(dx - first[0])), int(np.sign(dy - first[1])))


def map_flags() -> np.ndarray:
    """core.collision flags of the map file: water blocks movement only, the pillars line of sight too."""
    flags = np.full((RT.GRID_W, RT.GRID_H), C.BLOCKED, dtype=C.FLAGS_DTYPE)
    flags[walkable()] = 0
    flags[pillars()] |= C.BLOCKS_LOS
    return flags


def platform(cfg) -> None:
    """Collision map, the legal-move table per tile and the safespot map."""
    w = walkable()
    flags = map_flags()
    cfg["collision"] = flags
    if (len(WALK), len(RUN)) != (len(ST.WALK_LABELS), len(ST.RUN_LABELS)):
        raise ValueError(f"{len(WALK)} walk and {len(RUN)} run steps for the move head's "
                         f"{len(ST.WALK_LABELS)} walk and {len(ST.RUN_LABELS)} run options")
    # each move option's one or two steps, at its number in the move head (the idle move stays (0, 0))
    steps = {ST.MOVE_IDLE: ((0, 0), (0, 0))}
    steps.update({ST.MOVE_WALK + k: ((dx, dy), (0, 0)) for k, (dx, dy) in enumerate(WALK)})
    steps.update({ST.MOVE_RUN + k: _run_steps(dx, dy) for k, (dx, dy) in enumerate(RUN)})
    for m, (a, b) in steps.items():
        cfg["move_dx"][m] = (a[0], b[0])
        cfg["move_dy"][m] = (a[1], b[1])
    ok = np.zeros((RT.GRID_W, RT.GRID_H), dtype=np.uint32)
    for x in range(RT.GRID_W):
        for y in range(RT.GRID_H):
            if not w[x, y]:
                continue
            bits = 0
            for m in range(ST.NUM_MOVES):      # idle takes no step: its bit marks a walkable tile (the solver reads it)
                cx, cy, good = x, y, True
                for k in range(2):
                    dx, dy = int(cfg["move_dx"][m, k]), int(cfg["move_dy"][m, k])
                    if dx == 0 and dy == 0:
                        continue
                    if not C.can_step(flags, cx, cy, 1, dx, dy):
                        good = False
                        break
                    cx, cy = cx + dx, cy + dy
                if good:
                    bits |= 1 << m
            ok[x, y] = bits
    cfg["move_ok"] = ok
    _sight_tables(cfg, flags, w)
    cfg["safespot"] = 0
    for x, y in RT.MELEE_SAFESPOTS:
        cfg["safespot"][x, y] = 1


def _sight_tables(cfg, flags, w) -> None:
    """Line of sight on the fixed map, once: ``zulrah_sight[spot, x, y]`` from a player on (x, y) to
    Zulrah's footprint at each spot, ``tile_sight[i, j]`` from walkable tile i to walkable tile j
    (``tile_index``); the same rays as core.line_of_sight, whose range check the kernels make apart."""
    tiles = [tuple(int(v) for v in t) for t in np.argwhere(w)]
    if len(tiles) > RT.MAX_WALKABLE:
        raise ValueError(f"{MAP_PATH.name}: {len(tiles)} walkable tiles, more than MAX_WALKABLE = {RT.MAX_WALKABLE}")
    far = RT.GRID_W + RT.GRID_H
    cfg["zulrah_sight"] = 0
    for spot, (zx, zy) in enumerate(RT.SPOT_TILES):
        for x, y in tiles:
            cfg["zulrah_sight"][spot, x, y] = has_line_of_sight(flags, x, y, 1, zx, zy, RT.ZULRAH_SIZE, far)
    cfg["tile_index"] = -1
    cfg["tile_sight"] = 0
    for i, (x, y) in enumerate(tiles):
        cfg["tile_index"][x, y] = i
        for j, (tx, ty) in enumerate(tiles):
            cfg["tile_sight"][i, j] = has_line_of_sight(flags, x, y, 1, tx, ty, 1, far)


def _projectile(rec) -> int:
    if rec["attack_type"] == S.MAGIC:
        return HD.PROJ_MAGIC
    return HD.PROJ_BOW if int(rec["ammo_class"]) != S.AMMO_LIGHT else HD.PROJ_THROWN


def _fill_set(cfg, t: int, s: int, where: str, gear: dict, levels: dict, prayers, items, normal, special) -> None:
    style = "Accurate" if s == ST.SET_MAGIC else "Rapid"
    try:
        c = build_combatant(levels=levels or None, style=style, gear=gear)
    except CombatantInputError as e:
        raise ValueError(f"gear.json: {where}: {e}") from None
    rec = c[0]
    effect = int(rec["weapon_effect"])
    cfg["set_combat"][t, s] = rec
    cfg["set_row"][t, s] = normal[effect]
    cfg["set_special"][t, s] = special[effect]          # cost 0 when the weapon has no special
    cfg["set_proj"][t, s] = _projectile(rec)
    cfg["set_range"][t, s] = int(items.records[items.find(gear["weapon"])]["attack_range"])
    cfg["set_prayer_bonus"][t, s] = rec["bonuses"][S.B_PRAYER]
    worn = np.full(E.NUM_SLOTS, -1, dtype=np.int16)
    for slot, item in gear.items():
        worn[E.SLOT_NAMES.index(slot)] = items.find(item)
    cfg["set_worn"][t, s] = worn
    cfg["set_offensive"][t, s] = P.prayer_mask(prayers)


def _fill_tier(cfg, t: int, name: str, tier: dict, items, normal, special, cons) -> None:
    levels = {k: int(v) for k, v in tier["levels"].items()}
    cfg["tier_levels"][t] = [levels.get(n, 99) for n in SKILL_NAMES]
    sets = set(tier["sets"])
    if not {"magic", "ranged"} <= sets <= set(ST.SET_NAMES) or not sets <= set(tier["prayers"]):
        raise ValueError(f"gear.json: tier {name!r} has sets {sorted(sets)} and prayers for {sorted(tier['prayers'])}: "
                         f"it needs 'magic' and 'ranged', may add 'spec', and each set needs its prayers")
    for s, set_name in enumerate(ST.SET_NAMES):
        present = set_name in tier["sets"]
        source = set_name if present else "ranged"       # an absent optional set copies the ranged one
        gear = {slot: item for slot, item in tier["sets"][source].items() if item}
        _fill_set(cfg, t, s, f"tier {name!r}, set {source!r}", gear, levels, tier["prayers"][source],
                  items, normal, special)
        cfg["set_present"][t, s] = present
    cfg["set_offensive_all"][t] = np.bitwise_or.reduce(cfg["set_offensive"][t])
    for k, key in enumerate(ST.SUPPLY_NAMES):
        item, count = tier["supplies"][key]
        cfg["supply_consumable"][t, k] = cons.id(item)
        cfg["tier_supplies"][t, k] = count


def _check(cfg) -> None:
    rotation, phase = int(cfg["start_rotation"]), int(cfg["start_phase"])
    counts = [len(r) for r in RT.ROTATIONS]
    if rotation >= 0 and phase >= counts[rotation]:
        raise ConfigError(f"Config 'start_phase' = {phase} of encounter 'zulrah': rotation {rotation} has "
                          f"{counts[rotation]} phases (0..{counts[rotation] - 1})")
    if rotation < 0 and phase >= min(counts):
        raise ConfigError(f"Config 'start_phase' = {phase} of encounter 'zulrah': with start_rotation = -1 "
                          f"(drawn) it must exist in every rotation (0..{min(counts) - 1})")
    weights = np.array([cfg["tier_weight_budget"], cfg["tier_weight_mid"], cfg["tier_weight_max"]], dtype=np.float64)
    if int(cfg["gear_tier"]) == ST.TIER_WEIGHTED and weights.sum() <= 0:
        raise ConfigError("Config gear_tier = -2 (weighted) of encounter 'zulrah' needs a positive tier weight "
                          "(tier_weight_budget, tier_weight_mid, tier_weight_max are all 0)")
    cfg["tier_cumulative"] = np.cumsum(weights) / max(weights.sum(), 1e-12)


def fill_config(cfg) -> None:
    """The spec's config hook: validate the dependent settings and fill every derived field."""
    _check(cfg)
    for key, value in RT.build_tables().items():
        cfg[key] = value
    platform(cfg)
    items, npcs = tables.items(), tables.npcs()
    cons = load_consumables()
    cfg["consumables"][:] = cons.table
    normal, special = SP.build_normal_table(), SP.build_special_table()
    for t, (name, tier) in enumerate(tiers().items()):
        _fill_tier(cfg, t, name, tier, items, normal, special, cons)
    for k, name in enumerate(ST.NPC_NAMES):
        cfg["npc_rows"][k] = npcs.records[npcs.find(name)]
    cfg["bolt_ctx"] = 0


def kit(cfg) -> list[Kit]:
    """Each gear tier's kit (the spec's ``kit``, runtime.inventory): its sets and supplies (food in pieces, potions
    in doses, 4 a potion) must fit in 28 slots."""
    out = []
    for name, tier in tiers().items():
        sets = [{k: v for k, v in gear.items() if v} for gear in tier["sets"].values()]
        ammo = next((g["ammo"] for g in sets if g.get("ammo") and " dart" not in g["ammo"].lower()), None)
        supplies = []
        for key in ST.SUPPLY_NAMES:
            item, count = tier["supplies"][key]
            supplies.append((item, potion_slots(int(count), ST.SUPPLY_PER_SLOT[key])))
        out.append(Kit(f"gear tier {name!r} (gear.json)", tuple(carried_items(g, ammo) for g in sets), tuple(supplies)))
    return out


def attacks(cfg) -> list[Attack]:
    """Every (source, style) that can hurt the player (the spec's ``attacks``, runtime.attacks), named as the audit's
    truth names the hits (truth.hit_source): Zulrah's styles over her three forms by the wiki infobox (npcs.json
    attack_styles: ranged and magic max 41, the magma slam typeless, npcs.json max 30), the snakelings' by theirs,
    the clouds (1-4 a tick) and venom (up to 20)."""
    from osrs_rl.core.status import VENOM_MAX_DAMAGE

    from .mechanics import CLOUD_DAMAGE, ZULRAH_MAX_HIT

    rows = cfg["npc_rows"]
    most = {"ranged": ZULRAH_MAX_HIT, "magic": ZULRAH_MAX_HIT, "typeless": int(rows[ST.NPC_MAGMA]["max_hit_melee"])}
    zulrah = []
    for npc in ST.NPC_NAMES[:3]:
        zulrah += [style for style in tables.npc_attack_styles(npc) if style not in zulrah]
    out = [Attack("zulrah", style, most.get(style, -1), "npcs.json Zulrah forms") for style in zulrah]
    snake = {"melee": int(rows[ST.NPC_SNAKELING_MELEE]["max_hit_melee"]),
             "magic": int(rows[ST.NPC_SNAKELING_MAGIC]["max_hit_magic"])}
    for npc in ST.NPC_NAMES[3:]:
        for style in tables.npc_attack_styles(npc):
            out.append(Attack("snakeling", style, snake.get(style, -1), f"npcs.json {npc!r}"))
    out.append(Attack("clouds", "typeless", CLOUD_DAMAGE[1], "mechanics.CLOUD_DAMAGE"))
    out.append(Attack("venom", "typeless", VENOM_MAX_DAMAGE, "core.status"))
    return out
