"""Hits for the Zulrah scene: those in flight, and the hitsplats of one tick derived from two records.

Entity ids: ``player``, ``zulrah``, ``snakeling_<slot>``; a snakeling that died this tick while a new
one took its slot is ``snakeling_<slot>_old`` (``scene.py`` draws the fallen ones for one tick).

Hits in flight are the queue's ``HIT_PENDING`` slots. A hit records its *source* (``SRC_*``), not the
snakeling slot that threw it, so a snakeling's magic hit is credited to a magic snakeling whose attack
timer fits the hit (it attacked ``SNAKELING_SPEED - timer`` ticks ago, at most 3 ticks before the
hit is due), else to the nearest magic snakeling; a hit whose thrower is gone is left out.

Hitsplats (the tick order of mechanics.py):
- on Zulrah and snakelings: the previous record's pending hits on them due by this tick, in slot
  order as ``land_npc_hits`` lands them, less those on Zulrah dropped by its dive (the previous
  ``phase_tick`` equals the phase length); capped in that order so that Zulrah's add up to the change
  of ``damage_dealt``, and a snakeling (1 hitpoint) shows at most 1;
- on the player: the slots ``pop_due_for`` marked ``HIT_LANDED`` this tick (due now: hits queued
  and landed within the tick, snakeling melee and the magma slam, are there too), in landing order,
  capped to the change of the hit sources' ``damage_taken``; then one splat of the clouds' damage and
  one of venom, each the change of its tally. Prayer-blocked attacks show as a blue 0.
So the player's splats add up to the change of the ``damage_taken`` tallies.
"""

from __future__ import annotations

from osrs_rl.core.hit_delay import edge_distance
from osrs_rl.core.pending_hits import HIT_LANDED, HIT_PENDING
from osrs_rl.encounters.zulrah import mechanics as M
from osrs_rl.encounters.zulrah import rotations as RT
from osrs_rl.encounters.zulrah import state as ST

HIT_STYLE_NAMES = ("melee", "ranged", "magic", "typeless")     # core.pending_hits.STYLE_*
_HIT_SOURCES = [k for k in range(ST.NUM_SOURCES) if k not in (ST.SRC_CLOUDS, ST.SRC_VENOM)]


def snakeling_id(k: int) -> str:
    return f"snakeling_{k}"


def is_fresh_spawn(sn) -> bool:
    """Spawned this tick: its life is counted down from the next tick on."""
    return bool(sn["active"]) and int(sn["life"]) == M.SNAKELING_LIFE


def fallen_snakelings(s, prev) -> dict[int, str]:
    """Slot -> id of each snakeling alive in ``prev`` and gone now (dead, or its slot taken by a spawn)."""
    out = {}
    for k in range(ST.SNAKELING_SLOTS):
        if prev["snakelings"][k]["active"] and (not s["snakelings"][k]["active"] or is_fresh_spawn(s["snakelings"][k])):
            out[k] = snakeling_id(k) + ("_old" if s["snakelings"][k]["active"] else "")
    return out


# ---- hits in flight ----------------------------------------------------------------------------
def pending_hits(s) -> list[dict]:
    out = []
    for h in s["hits"]:
        if h["state"] != HIT_PENDING:
            continue
        target = int(h["target"])
        if target == ST.TARGET_PLAYER:
            source = "zulrah" if int(h["attacker"]) != ST.SRC_SNAKELINGS else _snakeling_shooter(s, h)
            to = "player"
        else:
            source = "player"
            to = "zulrah" if target == ST.TARGET_ZULRAH else _live_snakeling(s, target - 2)
        if source is None or to is None:
            continue
        out.append({"from": source, "to": to, "style": HIT_STYLE_NAMES[int(h["style"])],
                    "damage": int(h["damage"]), "due_tick": int(h["due_tick"])})
    return out


def _live_snakeling(s, k: int) -> str | None:
    return snakeling_id(k) if s["snakelings"][k]["active"] else None


def _snakeling_shooter(s, h) -> str | None:
    tick, due = int(s["tick"]), int(h["due_tick"])
    p = s["p"]
    best, best_d = None, None
    for k, sn in enumerate(s["snakelings"]):
        if not sn["active"] or int(sn["kind"]) != 1:
            continue
        attacked = tick - (M.SNAKELING_SPEED - int(sn["attack_timer"]))
        if int(sn["attack_timer"]) > 0 and attacked < due <= attacked + M.SNAKELING_SPEED:
            return snakeling_id(k)
        d = edge_distance(int(sn["x"]), int(sn["y"]), 1, int(p["x"]), int(p["y"]), 1)
        if best_d is None or d < best_d:
            best, best_d = snakeling_id(k), d
    return best


# ---- hitsplats ---------------------------------------------------------------------------------
def hitsplats(s, prev, cfg) -> list[dict]:
    if prev is None or int(s["tick"]) == 0:
        return []
    return _on_npcs(s, prev, cfg) + _on_player(s, prev)


def _splat(on: str, damage: int) -> dict:
    return {"on": on, "damage": damage, "kind": "hit" if damage > 0 else "block"}


def _on_npcs(s, prev, cfg) -> list[dict]:
    tick = int(s["tick"])
    # hits on Zulrah wait while it dives (mechanics.land_npc_hits): the record before this tick says so
    dive = int(cfg["phase_ticks"][int(prev["rotation"]), int(prev["phase"])]) - RT.DIVE_TICKS
    dived = int(prev["phase_tick"]) >= dive
    fallen = fallen_snakelings(s, prev)
    budget = {"zulrah": int(s["damage_dealt"]) - int(prev["damage_dealt"])}
    out = []
    for h in prev["hits"]:
        target = int(h["target"])
        if h["state"] != HIT_PENDING or int(h["due_tick"]) > tick or target == ST.TARGET_PLAYER:
            continue
        if target == ST.TARGET_ZULRAH:
            if dived:
                continue
            on = "zulrah"
        else:
            k = target - 2
            if not prev["snakelings"][k]["active"]:
                continue                          # it died before this hit landed: nothing to show it on
            on = fallen.get(k, snakeling_id(k))
            budget.setdefault(on, 1)              # 1 hitpoint
        damage = min(int(h["damage"]), max(budget[on], 0))
        budget[on] -= damage
        out.append(_splat(on, damage))
    return out


def _on_player(s, prev) -> list[dict]:
    tick = int(s["tick"])
    taken, before = s["damage_taken"], prev["damage_taken"]
    landed = [h for h in s["hits"] if h["state"] == HIT_LANDED and int(h["due_tick"]) == tick
              and int(h["target"]) == ST.TARGET_PLAYER]
    landed.sort(key=lambda h: (int(h["due_tick"]), int(h["seq"])))
    budget = sum(int(taken[k]) - int(before[k]) for k in _HIT_SOURCES)
    out = []
    for h in landed:
        damage = min(int(h["damage"]), max(budget, 0))
        budget -= damage
        out.append(_splat("player", damage))
    for source in (ST.SRC_CLOUDS, ST.SRC_VENOM):
        damage = int(taken[source]) - int(before[source])
        if damage > 0:
            out.append(_splat("player", damage))
    return out
