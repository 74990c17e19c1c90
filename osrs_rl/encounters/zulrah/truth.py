"""What ``osrs-rl audit`` checks a Zulrah policy against (``osrs_rl.runtime.truth``), read from the records only.

- Reference map: the walkable tiles of ``shrine_map.json`` (the game's collision data, read through
  ``loadouts.walkable``), so a kernel that lets the player stand where the data says water is flagged.
- The player's tile is ``p.x, p.y`` after the tick: it moves before it attacks (mechanics.py phase 3),
  so an attack is made from there.
- An attack started this tick is the player's ``EV_ATTACK`` in the tick's event buffer (core.events),
  with its target entity (``state.ENT_*``: Zulrah, or a snakeling slot). The attack timer cannot tell
  it: a bite of food also raises it.
- Zulrah is attackable, by its sources, from ``rotations.targetable_tick`` ticks after it rises until
  its dive (``rotations.dive_tick`` of the phase in ``rotations.TIMELINES``), while it has hitpoints
  [M: ZEN ``ZulrahNPC`` (not interactable for 4 ticks at the spawn), ``DiveSequence``; RL-R ``phaseTicks``],
  and only along a line the map's pillars do not block (checked here with core.line_of_sight on flags
  built from the map file, not the kernel's). The attack in a tick sees the clock of the previous record
  (the clock advances at the end of the tick), so the window is read there; a snakeling is attackable
  while it is alive in the previous record.
- Damage by source: the change of the ``damage_taken`` tallies, one metric ``taken_<source>`` each;
  every source can hurt in the game (Zulrah's three forms and Jad phase, clouds, venom, snakelings).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from osrs_rl.core.events import EV_ATTACK, first_event
from osrs_rl.core.line_of_sight import has_line_of_sight
from osrs_rl.runtime.truth import Truth, hits_on

from . import loadouts
from . import rotations as RT
from . import state as ST

DAMAGE_METRICS = tuple("taken_" + n for n in ST.SOURCE_NAMES)
SUPPLY_METRICS = ("food_used", "prayer_doses_used", "antivenom_doses_used", "ranged_boost_doses_used",
                  "magic_boost_doses_used", "specs_used")


def reference_walkable(cfg) -> np.ndarray:
    return loadouts.walkable()


def targetable(s) -> bool:
    """Zulrah can be attacked in a tick that starts from record ``s`` [M: ZEN; RL-R (module docstring)]."""
    timeline, phase = int(s["rotation"]), int(s["phase"])
    dive = RT.dive_tick(RT.TIMELINES[timeline][phase])
    return int(s["z_hp"]) > 0 and RT.targetable_tick(timeline, phase) <= int(s["phase_tick"]) < dive


@cache
def _reference_flags() -> np.ndarray:
    return loadouts.map_flags()


def in_sight(x, y, zx, zy) -> bool:
    """A clear line from the player's tile to Zulrah's footprint past the map's pillars (any range)."""
    return bool(has_line_of_sight(_reference_flags(), x, y, 1, zx, zy, RT.ZULRAH_SIZE, RT.GRID_W))


def hit_source(s, event) -> str | None:
    """The source of a hit on the player as the spec's ``attacks`` names it (loadouts.attacks)."""
    e = int(event["source"])
    if e == ST.ENT_ZULRAH:
        return "zulrah"
    if ST.ENT_SNAKELING <= e < ST.ENT_CLOUD:
        return "snakeling"
    if e >= ST.ENT_CLOUD:
        return "clouds"
    return "venom"                   # ENTITY_NONE: venom's hits (mechanics.end_of_tick)


def tick(previous, s, cfg, agent: int = 0) -> dict:
    p = s["p"]
    attack = first_event(s, EV_ATTACK, ST.ENT_PLAYER)   # an attack started this tick, or None
    target, target_ok = "", True
    if attack is not None:
        aimed = int(attack["target"])
        if aimed == ST.ENT_ZULRAH:
            seen = in_sight(int(p["x"]), int(p["y"]), int(previous["zx"]), int(previous["zy"]))
            target, target_ok = "zulrah", targetable(previous) and seen
        else:
            target, target_ok = "snakeling", bool(previous["snakelings"][aimed - ST.ENT_SNAKELING]["active"])
    window = targetable(previous)
    taken = s["damage_taken"].astype(np.int64) - previous["damage_taken"].astype(np.int64)
    return {"x": int(p["x"]), "y": int(p["y"]), "attack": attack is not None, "target": target,
            "target_attackable": target_ok, "attackable": window,
            "window_tick": int(previous["phase_tick"])
            - RT.targetable_tick(int(previous["rotation"]), int(previous["phase"])) if window else None,
            "damage": {m: int(taken[k]) for k, m in enumerate(DAMAGE_METRICS)},
            "hits": hits_on(s, ST.ENT_PLAYER, hit_source)}


TRUTH = Truth(
    reference_walkable=reference_walkable,
    tick=tick,
    damage_metrics=DAMAGE_METRICS,
    supply_metrics=SUPPLY_METRICS,
    window="zulrah",
    reference="shrine_map.json: the shrine's walkable tiles and pillars from the game's collision data "
              "(the RuneLite plugin Shortest Path's dump of the OSRS cache)",
    origin=RT.ORIGIN,
)
