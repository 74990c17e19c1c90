"""Drawing helpers every encounter's scene shares (format: ``osrs_rl.replay.scene``): the side panel of
a player, the overhead icon, hits in flight and the hitsplats of the tick, read from the records.

Hitsplats come from the state's event buffer (``osrs_rl.core.events``): each ``EV_HIT`` the kernel
recorded is one splat, on the entity the encounter names, with the damage that landed (a blue 0 when
it missed or the prayer blocked it). Nothing here knows an encounter: entity ids are named through the
function the scene passes.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from osrs_rl.core import prayers as P
from osrs_rl.core.equipment import SLOT_NAMES
from osrs_rl.core.events import EV_HIT, live_events
from osrs_rl.core.skills import HITPOINTS, PRAYER, SKILL_NAMES

HIT_STYLE_NAMES = ("melee", "ranged", "magic", "typeless")     # core.pending_hits.STYLE_*
# overhead icons in the order the game shows one (only one overhead is on at a time)
OVERHEAD_BITS = ((P.PROTECT_FROM_MELEE, "melee"), (P.PROTECT_FROM_MISSILES, "missiles"),
                 (P.PROTECT_FROM_MAGIC, "magic"), (P.SMITE, "smite"), (P.REDEMPTION, "redemption"),
                 (P.RETRIBUTION, "retribution"))


def overhead_name(active_prayers: int) -> str | None:
    """The overhead icon of a prayer mask (core.prayers bits), or None."""
    mask = int(active_prayers)
    return next((name for bit, name in OVERHEAD_BITS if mask >> bit & 1), None)


def prayer_names(active_prayers: int) -> list[str]:
    mask = int(active_prayers)
    return [P.PRAYER_NAMES[b] for b in range(P.NUM_PRAYERS) if mask >> b & 1]


def splat(on: str, damage: int) -> dict:
    return {"on": on, "damage": int(damage), "kind": "hit" if damage > 0 else "block"}


def hitsplats(record, name_of: Callable[[int], str | None]) -> list[dict]:
    """The hitsplats of the tick that produced ``record``: its ``EV_HIT`` events in the order they
    landed, on ``name_of(target)`` (an entity id of the scene; None leaves the hit out)."""
    out = []
    for e in live_events(record):
        if int(e["kind"]) != EV_HIT:
            continue
        on = name_of(int(e["target"]))
        if on is not None:
            out.append(splat(on, int(e["amount"])))
    return out


def pending_hit(h, source: str, target: str) -> dict:
    """A hit in flight (a ``core.pending_hits`` slot) between two scene entities."""
    return {"from": source, "to": target, "style": HIT_STYLE_NAMES[int(h["style"])], "damage": int(h["damage"]),
            "due_tick": int(h["due_tick"])}


def panel(agent: str, hp: tuple[int, int], prayer: tuple[int, int], run_energy: float, spec: float | None,
          prayers: list[str], inventory: list, equipment: dict, stats: dict, timers: dict) -> dict:
    """One side panel, the fields in the scene format's order."""
    return {"agent": agent, "hp": [int(hp[0]), int(hp[1])], "prayer": [int(prayer[0]), int(prayer[1])],
            "run_energy": float(run_energy), "spec": spec, "prayers": prayers, "inventory": inventory,
            "equipment": equipment, "stats": stats, "timers": timers}


@cache
def _item_names():
    from osrs_rl.data import tables

    return tables.items()


def player_panel(agent: str, p, inventory: list, timers: dict) -> dict:
    """The panel of a ``core.player.PLAYER_DTYPE`` record ``p``: hitpoints, prayer, run and special
    energy, active prayers, worn items, levels, and its attack, food and potion timers (idle negative
    values shown as 0) followed by ``timers`` (the encounter's own: freeze, stun, venom, ...)."""
    items = _item_names()
    return panel(
        agent,
        hp=(p["levels"][HITPOINTS], p["base_levels"][HITPOINTS]),
        prayer=(p["levels"][PRAYER], p["base_levels"][PRAYER]),
        run_energy=int(p["run_energy"]) / 100.0,
        spec=float(p["spec_energy"]),
        prayers=prayer_names(p["active_prayers"]),
        inventory=inventory,
        equipment={SLOT_NAMES[k]: items.name(int(v)) for k, v in enumerate(p["equipment"]) if v >= 0},
        stats={name: [int(p["levels"][k]), int(p["base_levels"][k])] for k, name in enumerate(SKILL_NAMES)},
        timers={"attack": max(int(p["attack_timer"]), 0), "food": max(int(p["food_timer"]), 0),
                "potion": max(int(p["potion_timer"]), 0), **timers},
    )
