"""What ``osrs-rl audit`` checks an Inferno policy against (``osrs_rl.runtime.truth``), read from the records only.

- Reference map: the arena floor as the game's collision data records it: the RuneLite plugin "Shortest
  Path" (github Skretzo/shortest-path) ``src/main/resources/collision-map.zip`` @ e3dc7c5a (2026-07-23),
  dumped from the OSRS cache, decoded with ``scripts/collision_map.py --x 2256 2286 --y 5328 5372`` (region
  9043, plane 0): walkable exactly world x 2257..2285, y 5329..5358, nothing else in the grid's window
  (``_DUMP_ROWS`` below, north to south). It agrees with InfernoTrainer's invisible blockers (IT x 10 and
  40, y 13 and 44), reached here from the game's data, not from ``arena.py``. The pillars are NPCs ("Rocky
  support", id 7709), absent from the dump: their tiles are walkable floor once they fall, so the map keeps
  them; while they stand they block sight (checked per attack below) and movement.
- The player's tile is ``p.x, p.y`` after the tick: it moves before it shoots (mechanics tick phase 4), so a
  shot is made from there.
- An attack started this tick is the player's ``EV_ATTACK`` in the tick's event buffer (core.events), its
  target a monster slot (``state.ENT_MONSTER + k``); the target's kind is the slot's kind.
- ``target_attackable``, by the reference's rules, on the record after the tick (monsters move before the
  player shoots and nothing dies between): the monster is alive and above ground (a digging Jal-ImKot cannot
  be attacked: InfernoTrainer JalImKot.ts), within the range of what it attacked with (a spell: 10 tiles,
  OSRS wiki "Attack range"; a ranged weapon: the worn weapon's wiki attack range, osrs_rl/data/items.json,
  e.g. the twisted bow's 10, the blowpipe's 5) and seen along core.line_of_sight's ray over flags built
  here from the reference map and the standing pillars' tiles (blert-io/plugin ``Pillar.java`` world
  tiles, 3x3), not the kernel's maps. On the Zuk wave (69) the rows north of the floor, where TzKal-Zuk and his
  healers stand, do not block sight: the dump records movement only, and Zuk and the Jal-MejJak are attacked
  from the floor (OSRS wiki "TzKal-Zuk": the healers and Zuk are fought from the south of the glyph); the
  glyph cannot be attacked.
- ``attackable``: some monster is attackable so by the same rules from the player's tile (no windows:
  ``window`` None).
- Damage by source: the change of the ``damage_taken`` tallies by the kind that dealt it (metrics
  ``taken_<kind>``) and the pillars' collapse damage (``collapse_damage``); every one can hurt (nibblers only
  once no pillar stands, but they can).
- Hits by (kind, style): the tick's ``EV_HIT`` events on the player (``hits``), named by the kind of the slot that
  threw them (``hit_source``); the audit holds them against the spec's ``attacks`` (the wiki infobox's attack
  styles of each kind and every style the kernels roll for it), so a style that lands and never hurts is flagged.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from osrs_rl.core import collision as C
from osrs_rl.core.events import EV_ATTACK, first_event
from osrs_rl.core.line_of_sight import has_line_of_sight
from osrs_rl.runtime.truth import Truth, hits_on, item_attack_range, npc_size

from . import state as ST
from . import view as V

ORIGIN = (2256, 5328)                 # world tile of local (0, 0), as arena.WORLD_ORIGIN
GRID = (31, 45)                       # local x 0..30, y 0..44: world x 2256..2286, y 5328..5372
# the dump's rows north (world y 5372) to south (5328), "." walkable, "#" blocked (module docstring)
_DUMP_ROWS = ("#" * 31,) * 14 + ("#" + "." * 29 + "#",) * 30 + ("#" * 31,)
PILLARS_WORLD = ((2257, 5349), (2274, 5351), (2267, 5335))   # blert-io/plugin Pillar.java, south-west tiles
PILLAR_SIZE = 3
SPELL_RANGE = 10                      # OSRS wiki "Attack range": combat spells reach 10 tiles
ZUK_WAVE = 69

DAMAGE_METRICS = tuple("taken_" + ST.KIND_NAMES[k] for k in V.TALLY_KINDS) + ("collapse_damage",)
SUPPLY_METRICS = tuple(n + "s_used" for n in ST.SUPPLY_NAMES)     # brews_used, ... (view.METRICS)


@cache
def _walkable() -> np.ndarray:
    w = np.zeros(GRID, dtype=bool)
    for row, line in enumerate(_DUMP_ROWS):
        y = GRID[1] - 1 - row
        for x, c in enumerate(line):
            w[x, y] = c == "."
    w.setflags(write=False)
    return w


def reference_walkable(cfg) -> np.ndarray:
    return _walkable()


@cache
def _flags(standing: int) -> np.ndarray:
    """core.collision flags: off the reference floor blocks movement and sight; each standing pillar (bit k
    of ``standing``) blocks both."""
    flags = np.where(_walkable(), 0, C.BLOCKED | C.BLOCKS_LOS).astype(C.FLAGS_DTYPE)
    for k, (wx, wy) in enumerate(PILLARS_WORLD):
        if standing >> k & 1:
            C.add_block(flags, wx - ORIGIN[0], wy - ORIGIN[1], PILLAR_SIZE, PILLAR_SIZE, blocks_los=True)
    flags.setflags(write=False)
    return flags


@cache
def _zuk_flags() -> np.ndarray:
    """The Zuk wave: no pillars; north of the reference floor nothing walks but sight passes."""
    flags = _flags(0).copy()
    w = _walkable()
    xs = np.flatnonzero(w.any(axis=1))
    top = int(np.flatnonzero(w.any(axis=0)).max())
    flags[xs[0]:xs[-1] + 1, top + 1:] = C.BLOCKED
    flags.setflags(write=False)
    return flags


def weapon_range(s, style: int | None = None) -> int:
    """The reach of the player's attack in record ``s``: a spell's 10 tiles for a magic attack (``style``, a
    pending-hit STYLE_*), else the worn weapon's attack range; with no attack (``style`` None), a weapon listed
    with range 1 (a wand, a staff: the sets that autocast) reaches as its spell does."""
    from osrs_rl.core.equipment import WEAPON
    from osrs_rl.core.pending_hits import STYLE_MAGIC

    if style == STYLE_MAGIC:
        return SPELL_RANGE
    reach = item_attack_range(int(s["p"]["equipment"][WEAPON]))
    return max(reach, SPELL_RANGE) if style is None and reach <= 1 else reach   # a staff autocasts


def attackable_from(s, k: int, x: int, y: int, reach: int | None = None) -> bool:
    """Monster slot ``k`` of record ``s`` can be attacked from (x, y) by the reference's rules, ``reach``
    tiles away at most (default: the worn weapon's, ``weapon_range``)."""
    reach = weapon_range(s) if reach is None else reach
    m = s["monsters"][k]
    if int(m["state"]) != ST.SLOT_ALIVE or int(m["dig_left"]) > 0 or int(m["kind"]) == ST.K_SHIELD:
        return False
    standing = sum(1 << p for p in range(len(PILLARS_WORLD)) if int(s["pillar_hp"][p]) > 0)
    size = npc_size(ST.KIND_NPC[int(m["kind"])])
    flags = _zuk_flags() if int(s["wave"]) >= ZUK_WAVE else _flags(standing)
    return bool(has_line_of_sight(flags, x, y, 1, int(m["x"]), int(m["y"]), size, reach))


def hit_source(s, event) -> str | None:
    """The kind that threw a hit on the player (the spec's ``attacks`` rows name kinds so), read from the slot of
    the event's source in the record after the tick; a falling pillar's damage is not an attack (None). A slot a
    new monster took while its old one's hit flew would be named by the new kind: slots are taken over only from
    dead nibblers, bloblets and finale monsters (spawns.spare_slot), whose hits land within a tick or two."""
    e = int(event["source"])
    k = e - ST.ENT_MONSTER
    if 0 <= k < ST.MONSTER_SLOTS:
        return ST.KIND_NAMES[int(s["monsters"][k]["kind"])]
    return None


def tick(previous, s, cfg, agent: int = 0) -> dict:
    x, y = int(s["p"]["x"]), int(s["p"]["y"])
    attack = first_event(s, EV_ATTACK, ST.ENT_PLAYER)   # an attack started this tick, or None
    target, target_ok = "", True
    if attack is not None:
        k = int(attack["target"]) - ST.ENT_MONSTER
        if 0 <= k < ST.MONSTER_SLOTS:
            target = ST.KIND_NAMES[int(s["monsters"][k]["kind"])]
            target_ok = attackable_from(s, k, x, y, weapon_range(s, int(attack["style"])))
        else:
            target, target_ok = "other", False          # the player only ever shoots monsters
    any_ok = any(attackable_from(s, k, x, y) for k in range(ST.MONSTER_SLOTS))
    taken = s["damage_taken"].astype(np.int64) - previous["damage_taken"].astype(np.int64)
    damage = {"taken_" + ST.KIND_NAMES[k]: int(taken[k]) for k in V.TALLY_KINDS}
    damage["collapse_damage"] = int(s["collapse_damage"]) - int(previous["collapse_damage"])
    return {"x": x, "y": y, "attack": attack is not None, "target": target, "target_attackable": target_ok,
            "attackable": any_ok, "window_tick": None, "damage": damage, "hits": hits_on(s, ST.ENT_PLAYER, hit_source)}


TRUTH = Truth(
    reference_walkable=reference_walkable,
    tick=tick,
    damage_metrics=DAMAGE_METRICS,
    supply_metrics=SUPPLY_METRICS,
    window=None,
    reference="the game's collision data of region 9043 (RuneLite plugin Shortest Path's collision-map.zip "
              "@ e3dc7c5a, dumped from the OSRS cache): floor world x 2257..2285, y 5329..5358; pillars "
              "(NPCs, not in the dump) from blert-io/plugin Pillar.java",
    origin=ORIGIN,
)
