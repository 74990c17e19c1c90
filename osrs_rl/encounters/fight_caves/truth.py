"""What ``osrs-rl audit`` checks a Fight Cave policy against (``osrs_rl.runtime.truth``), read from the records only.

- Reference map: the cave's floor as the game's collision data records it: the RuneLite plugin "Shortest Path"
  (Skretzo/shortest-path ``src/main/resources/collision-map.zip`` @ e3dc7c5a621ca9cdd4c404ca4da5654b603286e7,
  dumped from the OSRS cache), decoded with ``python scripts/collision_map.py collision-map.zip --x 2368 2431 --y
  5056 5119`` (region 9551, plane 0): ``_DUMP_ROWS`` below, north (world y 5119) to south (5056), "." walkable,
  "#" blocked. It is not arena.py's map (whose walkability comes from the same dump but whose rock, lava and
  walls come from WooxSolo/fight-caves-sim's flags); tests/encounters/fight_caves/test_map.py holds the two
  equal.
- The player's tile is ``p.x, p.y`` after the tick: it moves before it shoots (mechanics tick phase 4).
- An attack started this tick is the player's ``EV_ATTACK`` in the tick's event buffer, its target a monster slot
  (``state.ENT_MONSTER + k``).
- ``target_attackable``, by the reference's rules, on the record after the tick: the monster is alive and within
  the worn weapon's attack range (osrs_rl/data/items.json, the OSRS wiki's: the twisted bow's 10, the rune
  crossbow's 7), its edge distance the Chebyshev gap between the footprints (OSRS wiki "Attack range"). The dump
  records movement only, not which blocked tiles stop a projectile (rock does, lava does not): sight is not
  checked here, so the audit catches a shot out of range but not one through rock.
- ``attackable``: some monster is attackable so from the player's tile.
- Damage by source: the change of the ``damage_taken`` tallies by the kind that dealt it (metrics ``taken_<kind>``).
- Hits by (kind, style): the tick's ``EV_HIT`` events on the player, named by the kind of the slot that threw them
  (``hit_source``); the audit holds them against the spec's ``attacks``.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from osrs_rl.core.events import EV_ATTACK, first_event
from osrs_rl.runtime.truth import Truth, hits_on, item_attack_range, npc_size

from . import state as ST

ORIGIN = (2368, 5056)                 # world tile of local (0, 0), as arena.WORLD_ORIGIN
GRID = (64, 64)
_DUMP_ROWS = (
    "################################################################",  # 5119
    "################################################################",  # 5118
    "####################################...................#########",  # 5117
    "####....................############...................#########",  # 5116
    "####....................############...................#########",  # 5115
    "####....................############...................#########",  # 5114
    "####....................############...................#########",  # 5113
    "####....................############...................#########",  # 5112
    "####....................############...................#########",  # 5111
    "####....................############...................#########",  # 5110
    "####....................############...................#########",  # 5109
    "####....................############...................#########",  # 5108
    "####....................############...................#########",  # 5107
    "####....................############...................#########",  # 5106
    "####....................############...................#########",  # 5105
    "####...................................................#########",  # 5104
    "####...................................................#########",  # 5103
    "####...................................................#########",  # 5102
    "####...................................................#########",  # 5101
    "####...................................................#########",  # 5100
    "####..........................................##################",  # 5099
    "####..........................................##################",  # 5098
    "#######.......................................##################",  # 5097
    "#######.......................................##################",  # 5096
    "#######.......................................##################",  # 5095
    "#################.............................##################",  # 5094
    "#################.............................##################",  # 5093
    "#################.............................##################",  # 5092
    "#################.............................##################",  # 5091
    "#################.............................##################",  # 5090
    "#################........................................#######",  # 5089
    "#################........................................#######",  # 5088
    "#################........................................#######",  # 5087
    "#################........................................#######",  # 5086
    "#################........................................#######",  # 5085
    "#################........................................#######",  # 5084
    "#################........................................#######",  # 5083
    "#################........................................#######",  # 5082
    "###......................................................#######",  # 5081
    "###......................................................#######",  # 5080
    "###......................................................#######",  # 5079
    "###......................................................#######",  # 5078
    "###......................................................#######",  # 5077
    "###......................................................#######",  # 5076
    "###......................................................#######",  # 5075
    "###..........................................###################",  # 5074
    "###..........................................###################",  # 5073
    "###..........................................###################",  # 5072
    "###..........................................###################",  # 5071
    "###..........................................###################",  # 5070
    "###..........................................###################",  # 5069
    "###..........................................###################",  # 5068
    "###..........................................###################",  # 5067
    "###..........................................###################",  # 5066
    "###...............##############################################",  # 5065
    "###...............##############################################",  # 5064
    "###...............##############################################",  # 5063
    "###...............##############################################",  # 5062
    "################################################################",  # 5061
    "################################################################",  # 5060
    "################################################################",  # 5059
    "################################################################",  # 5058
    "################################################################",  # 5057
    "################################################################",  # 5056
)

DAMAGE_METRICS = tuple("taken_" + n for n in ST.KIND_NAMES)
SUPPLY_METRICS = tuple(n + "s_used" for n in ST.SUPPLY_NAMES)     # brews_used, restores_used (view.METRICS)


@cache
def _walkable() -> np.ndarray:
    w = np.zeros(GRID, dtype=bool)
    for row, line in enumerate(_DUMP_ROWS):
        for x, c in enumerate(line):
            w[x, GRID[1] - 1 - row] = c == "."
    w.setflags(write=False)
    return w


def reference_walkable(cfg) -> np.ndarray:
    return _walkable()


def attackable_from(s, k: int, x: int, y: int) -> bool:
    """Monster slot ``k`` of record ``s`` is alive and within the worn weapon's range of (x, y)."""
    from osrs_rl.core.equipment import WEAPON

    m = s["monsters"][k]
    if int(m["state"]) != ST.SLOT_ALIVE:
        return False
    size = npc_size(ST.KIND_NPC[int(m["kind"])])
    mx, my = int(m["x"]), int(m["y"])
    gap = max(max(mx - x, x - (mx + size - 1), 0), max(my - y, y - (my + size - 1), 0))
    return 1 <= gap <= item_attack_range(int(s["p"]["equipment"][WEAPON])) or \
        (gap == 0 and not (mx <= x < mx + size and my <= y < my + size))


def hit_source(s, event) -> str | None:
    """The kind that threw a hit on the player, read from the slot of the event's source after the tick (a slot a
    Tz-Kek's split took over names the split: their melee lands the tick it is made)."""
    k = int(event["source"]) - ST.ENT_MONSTER
    if 0 <= k < ST.MONSTER_SLOTS:
        return ST.KIND_NAMES[int(s["monsters"][k]["kind"])]
    return None


def tick(previous, s, cfg, agent: int = 0) -> dict:
    x, y = int(s["p"]["x"]), int(s["p"]["y"])
    attack = first_event(s, EV_ATTACK, ST.ENT_PLAYER)
    target, target_ok = "", True
    if attack is not None:
        k = int(attack["target"]) - ST.ENT_MONSTER
        if 0 <= k < ST.MONSTER_SLOTS:
            target = ST.KIND_NAMES[int(s["monsters"][k]["kind"])]
            target_ok = attackable_from(s, k, x, y) or int(s["monsters"][k]["state"]) != ST.SLOT_ALIVE
        else:
            target, target_ok = "other", False
    any_ok = any(attackable_from(s, k, x, y) for k in range(ST.MONSTER_SLOTS))
    taken = s["damage_taken"].astype(np.int64) - previous["damage_taken"].astype(np.int64)
    damage = {"taken_" + n: int(taken[k]) for k, n in enumerate(ST.KIND_NAMES)}
    return {"x": x, "y": y, "attack": attack is not None, "target": target, "target_attackable": target_ok,
            "attackable": any_ok, "window_tick": None, "damage": damage, "hits": hits_on(s, ST.ENT_PLAYER, hit_source)}


TRUTH = Truth(
    reference_walkable=reference_walkable,
    tick=tick,
    damage_metrics=DAMAGE_METRICS,
    supply_metrics=SUPPLY_METRICS,
    window=None,
    reference="the game's collision data of region 9551 (RuneLite plugin Shortest Path's collision-map.zip "
              "@ e3dc7c5a, dumped from the OSRS cache): 2224 walkable tiles",
    origin=ORIGIN,
)
