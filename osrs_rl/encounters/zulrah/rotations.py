"""Zulrah's four rotations as plain data, and the per-tick timelines the kernels read.

Sources (their labels and the tags [H]/[M]/[L] are defined in docs/sources.md): **RL-A..D** (the RuneLite
Zulrah plugin of 2018, runelite/runelite ``plugins/zulrah/patterns/ZulrahPatternA..D.java``: form, spot, Jad
flag, prayer per phase), **RL-R** (the later RuneLite Zulrah plugin, ``plugins/zulrah/rotationutils/
RotationType.java``: ``phaseTicks``, stand points), **ZEN** (the Zenyte RSPS source as published in
Rims-Naps/Zyrox-Server, ``com/zenyte/game/content/boss/zulrah/ZulrahNPC.java`` and ``combat/*Sequence.java``:
the ordered actions of every phase, with the venom-cloud and snakeling tiles; facts read from it, no code).
Confidence: sequences of form and spot [H: RL and ZEN agree]; phase lengths [M: RL-R]; the order of actions
inside a phase and the cloud/snakeling tiles [M: ZEN].

Coordinate frame: **local tiles** = the game's non-instanced absolute tiles minus ``ORIGIN`` = (2252, 3058),
x east, y north, so the whole arena fits a ``GRID_W`` x ``GRID_H`` map with no negative coordinate.
Zulrah's spot is the south-west tile of its 5x5 footprint: CENTER (RuneLite's "NORTH") is absolute
(2266, 3073) [ZEN], the other spots are RuneLite's exact offsets from it [H: RL ``ZulrahLocation``]
(ZEN differs by one tile for EAST in y and for WEST in x; RL's offsets are used).

A phase is a list of actions, each taking one 3-tick slot [H: DPS attack speed 3, ZEN 3-tick loops],
except the magma stand (``MELEE_STAND_TICKS``): ``("ranged", n)`` / ``("magic", n)`` / ``("jad", n)``
attacks, ``("clouds", a, b)`` one volley of two clouds centred on tiles a and b, ``("snakeling", t)``
one snakeling on tile t, ``("melee",)`` the magma stand.

Timeline of a phase (phase tick 0 = Zulrah rises at its spot): ``phase_ticks`` is RL-R's
``phaseTicks``, which the plugin counts from one rise animation (5071 at the spawn, 5073 later) to
the next, so it holds the whole cycle: rise, the actions, the dive and the time under water. The
dive is the last ``DIVE_TICKS`` of it, starting 3 ticks after the last action (ZEN locks Zulrah 3
ticks after its last attack, then dives); the first action comes as late as fits,
``phase_ticks - DIVE_TICKS - (3 per slot + the magma stand)``, which puts it 2-4 ticks after the
rise in every phase but the spawn (13) [M: the fit of RL-R lengths against the action counts; ZEN
acts 3-4 ticks after a rise]. Zulrah is targetable from ``TARGETABLE_TICK`` until the dive.

After the last phase a new rotation is drawn; its first phase is not the clouds-only spawn but the
``BRIDGE`` (serpentine at center: 5 ranged attacks, then the four volleys) [H: OSRS wiki "Zulrah"
("At the end of every rotation, Zulrah will once again appear in the middle ... It will attack the
player with ranged attacks several times before filling the area with venom clouds. This phase counts
as the first phase of the new rotation"); PufferLib's Zulrah encounter]. The kernels index their
tables by *timeline*: 0..3 the rotations after the spawn, 4..7 the same rotations after a restart
(bridge first); ``timeline % NUM_ROTATIONS`` is the rotation.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

# ---- coordinate frame ----------------------------------------------------------------------
ORIGIN = (2252, 3058)          # absolute (x, y) of local tile (0, 0)
GRID_W, GRID_H = 32, 26        # local map size: x 2252..2283, y 3058..3083
ZULRAH_SIZE = 5                # npcs.json size (OSRS wiki infobox via dps-calc)
MAX_WALKABLE = 72              # room for the shrine's walkable tiles (69: loadouts.walkable)


def local(x: int, y: int) -> tuple[int, int]:
    """Absolute (non-instanced) game tile -> local tile."""
    return x - ORIGIN[0], y - ORIGIN[1]


# ---- forms and spots ----------------------------------------------------------------------
SERPENTINE, MAGMA, TANZANITE = 0, 1, 2
FORM_NAMES = ("serpentine", "magma", "tanzanite")
FORM_NPC_IDS = (2042, 2043, 2044)          # npcs.json npc_id; RuneLite zulrah Constants, ZEN agree
CENTER, SOUTH, EAST, WEST = 0, 1, 2, 3
SPOT_NAMES = ("center", "south", "east", "west")
_CENTER_ABS = (2266, 3073)                 # ZEN; RuneLite "NORTH"
SPOT_OFFSETS = ((0, 0), (0, -11), (10, -2), (-10, -2))   # [H: RL ZulrahLocation offsets]
SPOT_TILES = tuple(local(_CENTER_ABS[0] + dx, _CENTER_ABS[1] + dy) for dx, dy in SPOT_OFFSETS)

# ---- player tiles ---------------------------------------------------------------------------
PLAYER_START = local(2268, 3068)           # ZEN player spawn
# ZEN melee safespots: the magma slam never hits these [M]
MELEE_SAFESPOTS = tuple(local(x, y) for x, y in ((2272, 3072), (2273, 3072), (2264, 3072), (2263, 3072)))
# safe from the first slam of a magma phase in rotations 1-2 (ZEN hard-codes it) [M]
FIRST_SLAM_SAFE_TILE = local(2274, 3077)
# RL-R StandLocation points, converted to tiles [H: three match ZEN safe tiles]
STAND_TILES = {
    "northeast_top": local(2274, 3077), "northeast_bottom": local(2273, 3077),
    "northwest_top": local(2262, 3076), "northwest_bottom": local(2264, 3077),
    "west": local(2262, 3075), "southwest": local(2264, 3069), "center": local(2269, 3070),
    "east_pillar_s": local(2272, 3070), "east_pillar": local(2272, 3071),
    "east_pillar_n": local(2272, 3072), "east_pillar_n2": local(2272, 3073),
    "west_pillar_s": local(2264, 3070), "west_pillar": local(2264, 3071),
    "west_pillar_n": local(2264, 3072), "west_pillar_n2": local(2264, 3073),
}

# ---- timing (ZEN ZulrahNPC, DiveSequence, MeleeSequence unless noted) -----------------------
ACTION_TICKS = 3                # one attack / volley / snakeling per 3 ticks [H]
TARGETABLE_TICK = 3             # can be attacked 3 ticks after rising [M: ZEN]
SPAWN_TARGETABLE_TICK = 4       # spawn: not interactable for 4 ticks [M: ZEN]
DIVE_TICKS = 3                  # the dive, the last ticks of phase_ticks: untargetable [M: ZEN DiveSequence; RL-R]
FIRST_ACTION_RANGE = (2, 4)     # rise -> first action outside the spawn, as the RL-R lengths fit (module docstring)
MELEE_STAND_TICKS = 16          # magma stand length ("~16 ticks") [M: ZEN]
MAGMA_PICK_TICKS = (0, 9)       # stand ticks at which the slam tile is picked [M: ZEN]
MAGMA_SLAM_TICKS = (5, 15)      # stand ticks at which the slam lands [M: ZEN]
JAD_SHOTS = (10, 10, 10, 8)     # per rotation [M: ZEN shortSequence; RL-R lengths agree]


class Phase(NamedTuple):
    form: int
    spot: int
    ticks: int              # RL-R phaseTicks: surfacing to the next dive
    prayer: str             # RL-A..D suggested prayer ("" = none)
    actions: tuple          # ZEN's ordered actions (see module docstring)
    jad_first: str = ""     # Jad phase: style of the first shot


def _c(a, b):
    return ("clouds", local(*a), local(*b))


# ZEN spawns snakelings on (2273, 3078), which is water in the game's collision map (shrine_map.json);
# APPROXIMATION: they spawn on the nearest walkable tile south of it. Clouds centred there stay: their
# 3x3 covers walkable tiles.
_SNAKELING_TILE_FIX = {(2273, 3078): (2273, 3077)}


def _s(t):
    return ("snakeling", local(*_SNAKELING_TILE_FIX.get(t, t)))


# The opening phase is the same in every rotation (ZEN lists the same four volleys each time).
_OPENING = Phase(SERPENTINE, CENTER, 28, "", (
    _c((2269, 3069), (2272, 3070)), _c((2266, 3069), (2263, 3070)),
    _c((2273, 3072), (2273, 3075)), _c((2263, 3073), (2263, 3076))))
_MELEE = ("melee",)
# The first phase of every rotation after the first: 5 ranged, then the opening's volleys [H: OSRS wiki
# "Zulrah", PufferLib]. 34 ticks [M: the older RuneLite Zulrah helper's table and the 9 slots' fit (a = 4);
# RL-R's zulrahReset sets 38, which would put the first attack 8 ticks after the rise, unlike any phase].
BRIDGE = Phase(SERPENTINE, CENTER, 34, "missiles", (("ranged", 5),) + _OPENING.actions)

# Rotation 1 ("Magma A"): RL-A, RL-R, ZEN rotation 1.
ROTATION_1 = (
    _OPENING,                                                                          # RL-A 1, 28 t
    Phase(MAGMA, CENTER, 21, "", (_MELEE,)),                                           # RL-A 2
    Phase(TANZANITE, CENTER, 18, "magic", (("magic", 4),)),                            # RL-A 3
    Phase(SERPENTINE, SOUTH, 39, "missiles", (
        ("ranged", 5), _s((2263, 3076)), _s((2263, 3073)), _c((2263, 3070), (2266, 3069)),
        _c((2272, 3069), (2273, 3072)), _s((2273, 3075)), _s((2273, 3077)))),         # RL-A 4
    Phase(MAGMA, CENTER, 22, "", (_MELEE,)),                                           # RL-A 5
    Phase(TANZANITE, WEST, 20, "magic", (("magic", 5),)),                              # RL-A 6
    Phase(SERPENTINE, SOUTH, 28, "", (
        _c((2269, 3069), (2272, 3069)), _c((2263, 3070), (2266, 3069)), _c((2263, 3073), (2263, 3076)),
        _s((2272, 3071)), _s((2273, 3075)), _s((2273, 3077)), _s((2273, 3072)))),     # RL-A 7
    Phase(TANZANITE, SOUTH, 36, "magic", (
        ("magic", 5), _s((2263, 3070)), _c((2266, 3069), (2269, 3069)), _s((2263, 3076)),
        _c((2272, 3069), (2273, 3072)), _s((2263, 3073)))),                           # RL-A 8
    # ZEN's last volley reads (2273, 2075): a typo for (2273, 3075), the tile of the same volley in rotation 2
    Phase(SERPENTINE, WEST, 48, "missiles", (
        ("jad", 10), _c((2263, 3070), (2266, 3069)), _c((2269, 3069), (2272, 3069)),
        _c((2263, 3073), (2263, 3076)), _c((2273, 3072), (2273, 3075))), "ranged"),  # RL-A 9 (Jad)
    Phase(MAGMA, CENTER, 21, "", (_MELEE,)),                                           # RL-A 10
)

# Rotation 2 ("Magma B"): RL-B, RL-R, ZEN rotation 2.
ROTATION_2 = (
    _OPENING,
    Phase(MAGMA, CENTER, 21, "", (_MELEE,)),
    Phase(TANZANITE, CENTER, 18, "magic", (("magic", 4),)),
    Phase(SERPENTINE, WEST, 28, "", (
        _c((2273, 3072), (2272, 3069)), _c((2273, 3075), (2273, 3078)), _c((2269, 3069), (2266, 3069)),
        _s((2266, 3069)), _s((2263, 3070)), _s((2263, 3073)), _s((2263, 3076)))),
    Phase(TANZANITE, SOUTH, 39, "magic", (
        ("magic", 5), _s((2263, 3076)), _s((2263, 3073)), _c((2263, 3070), (2266, 3069)),
        _c((2272, 3069), (2273, 3072)), _s((2273, 3075)), _s((2273, 3077)))),
    Phase(MAGMA, CENTER, 21, "", (_MELEE,)),
    Phase(SERPENTINE, EAST, 20, "missiles", (("ranged", 5),)),
    Phase(TANZANITE, SOUTH, 36, "magic", (
        ("magic", 5), _s((2263, 3070)), _c((2266, 3069), (2269, 3069)), _s((2263, 3076)),
        _c((2272, 3069), (2273, 3072)), _s((2263, 3073)))),
    Phase(SERPENTINE, WEST, 48, "missiles", (
        ("jad", 10), _c((2263, 3070), (2266, 3069)), _c((2269, 3069), (2272, 3069)),
        _c((2263, 3073), (2263, 3076)), _c((2273, 3072), (2273, 3075))), "ranged"),
    Phase(MAGMA, CENTER, 21, "", (_MELEE,)),
)

# Rotation 3 ("Serpentine"): RL-C, RL-R, ZEN rotation 3.
ROTATION_3 = (
    _OPENING,
    Phase(SERPENTINE, EAST, 30, "missiles", (
        ("ranged", 5), _s((2273, 3078)), _s((2273, 3075)), _s((2273, 3072)))),
    Phase(MAGMA, CENTER, 40, "", (
        _c((2273, 3078), (2273, 3075)), _s((2273, 3072)), _c((2272, 3070), (2269, 3069)),
        _s((2266, 3069)), _c((2263, 3070), (2263, 3073)), _s((2263, 3076)), _MELEE)),
    Phase(TANZANITE, WEST, 20, "magic", (("magic", 5),)),
    Phase(SERPENTINE, SOUTH, 20, "missiles", (("ranged", 5),)),
    Phase(TANZANITE, EAST, 20, "magic", (("magic", 5),)),
    Phase(SERPENTINE, CENTER, 25, "", (
        _c((2273, 3078), (2273, 3075)), _c((2273, 3072), (2272, 3069)), _c((2269, 3069), (2266, 3069)),
        _s((2263, 3070)), _s((2263, 3076)), _s((2263, 3073)))),
    Phase(SERPENTINE, WEST, 20, "missiles", (("ranged", 5),)),
    Phase(TANZANITE, CENTER, 36, "magic", (
        ("magic", 5), _c((2263, 3076), (2263, 3073)), _c((2263, 3070), (2266, 3069)),
        _s((2269, 3069)), _s((2272, 3069)), _s((2273, 3072)))),
    Phase(SERPENTINE, EAST, 35, "magic", (("jad", 10),), "magic"),                   # Jad
    Phase(TANZANITE, CENTER, 18, "", (
        _s((2263, 3076)), _s((2263, 3070)), _s((2263, 3072)), _s((2273, 3078)))),
)

# Rotation 4 ("Tanzanite"): RL-D, RL-R, ZEN rotation 4.
ROTATION_4 = (
    _OPENING,
    # 6 magic attacks [H: OSRS wiki "Zulrah/Strategies" and PufferLib; ZEN has 5, which leaves the 36
    # ticks 3 slots short of every other 10-slot phase]
    Phase(TANZANITE, EAST, 36, "magic", (
        _s((2272, 3069)), _s((2273, 3078)), _s((2273, 3075)), _s((2273, 3072)), ("magic", 6))),
    Phase(SERPENTINE, SOUTH, 24, "missiles", (
        ("ranged", 4), _c((2263, 3070), (2269, 3069)), _c((2266, 3069), (2272, 3069)))),
    Phase(TANZANITE, WEST, 30, "magic", (
        _s((2263, 3076)), _s((2263, 3073)), _s((2266, 3069)), _s((2269, 3069)), ("magic", 4))),
    Phase(MAGMA, CENTER, 28, "", (
        _MELEE, _c((2263, 3070), (2269, 3069)), _c((2266, 3069), (2272, 3069)))),
    Phase(SERPENTINE, EAST, 17, "missiles", (("ranged", 4),)),
    Phase(SERPENTINE, SOUTH, 34, "", (
        _s((2263, 3076)), _s((2263, 3073)), _s((2263, 3070)), _s((2273, 3072)), _s((2273, 3075)),
        _s((2273, 3078)), _c((2273, 3075), (2273, 3078)), _c((2272, 3069), (2273, 3072)),
        _c((2269, 3069), (2266, 3069)))),
    Phase(TANZANITE, WEST, 33, "magic", (
        ("magic", 5), _s((2263, 3076)), _s((2263, 3073)), _s((2263, 3070)), _s((2266, 3069)))),
    # 5 ranged [M: ZEN; the 20 ticks fit 5 attacks as every other 5-attack phase (a = 2) and no 4-attack
    # phase (17-18 ticks)]; the OSRS wiki's table and PufferLib say 4 (conflict unresolved: kept at 5)
    Phase(SERPENTINE, CENTER, 20, "missiles", (("ranged", 5),)),
    Phase(TANZANITE, CENTER, 27, "magic", (
        ("magic", 4), _c((2263, 3073), (2266, 3069)), _c((2263, 3070), (2263, 3076)),
        _c((2269, 3069), (2272, 3069)))),
    Phase(SERPENTINE, EAST, 29, "magic", (("jad", 8),), "magic"),                    # Jad (short)
    Phase(TANZANITE, CENTER, 18, "", (
        _s((2263, 3076)), _s((2263, 3073)), _s((2273, 3075)), _s((2273, 3078)))),
)

ROTATIONS = (ROTATION_1, ROTATION_2, ROTATION_3, ROTATION_4)
ROTATION_NAMES = ("magma_a", "magma_b", "serpentine", "tanzanite")
NUM_ROTATIONS = 4
# what the kernels index: the rotations as they follow the spawn, then as they follow a restart
TIMELINES = ROTATIONS + tuple((BRIDGE,) + r[1:] for r in ROTATIONS)
NUM_TIMELINES = len(TIMELINES)
MAX_PHASES = max(len(r) for r in ROTATIONS)                       # 12


def count(phase: Phase, kind: str) -> int:
    """How many attacks ("ranged", "magic", "jad"), volleys ("clouds") or snakelings a phase has."""
    if kind in ("clouds", "snakeling", "melee"):
        return sum(1 for a in phase.actions if a[0] == kind)
    return sum(a[1] for a in phase.actions if a[0] == kind)


def is_jad(phase: Phase) -> bool:
    return phase.jad_first != ""


# ---- per-tick timelines for the kernels -------------------------------------------------------
ACT_NONE, ACT_RANGED, ACT_MAGIC, ACT_TANZANITE, ACT_CLOUDS, ACT_SNAKELING, ACT_MAGMA_PICK, ACT_MAGMA_SLAM = range(8)
ACT_NAMES = ("none", "ranged", "magic", "tanzanite", "clouds", "snakeling", "magma_pick", "magma_slam")
MAX_PHASE_TICKS = max(p.ticks for r in TIMELINES for p in r)                   # 48
MAX_VOLLEYS = max(count(p, "clouds") for r in TIMELINES for p in r)           # 4
MAX_SPAWNS = max(count(p, "snakeling") for r in TIMELINES for p in r)         # 6


def is_spawn(timeline: int, phase_index: int) -> bool:
    """The clouds-only phase Zulrah opens the fight with (not the bridge of a restart)."""
    return timeline < NUM_ROTATIONS and phase_index == 0


def action_ticks(phase: Phase) -> int:
    """Ticks the phase's actions take: a 3-tick slot each, the magma stand its own length."""
    return sum(MELEE_STAND_TICKS if a[0] == "melee" else ACTION_TICKS * (a[1] if a[0] in ("ranged", "magic", "jad")
               else 1) for a in phase.actions)


def first_action_tick(phase: Phase) -> int:
    """As late as the actions fit before the dive (module docstring)."""
    return phase.ticks - DIVE_TICKS - action_ticks(phase)


def dive_tick(phase: Phase) -> int:
    return phase.ticks - DIVE_TICKS


def targetable_tick(timeline: int, phase_index: int) -> int:
    return SPAWN_TARGETABLE_TICK if is_spawn(timeline, phase_index) else TARGETABLE_TICK


def phase_timeline(phase: Phase, phase_index: int) -> tuple[list[int], list[int]]:
    """(action code, argument) per phase tick 0..ticks-1; the argument indexes the phase's volleys
    or snakelings. Raises if the actions do not fit before the dive."""
    codes = [ACT_NONE] * phase.ticks
    args = [0] * phase.ticks
    t = first_action_tick(phase)
    if t < 1:
        raise ValueError(f"phase {phase_index + 1} ({FORM_NAMES[phase.form]} @ {SPOT_NAMES[phase.spot]}): "
                         f"its actions take {action_ticks(phase)} ticks, more than its {phase.ticks} allow")
    volley = spawn = 0
    jad_style = ACT_RANGED if phase.jad_first == "ranged" else ACT_MAGIC

    def put(code, arg=0):
        if t >= dive_tick(phase):
            raise ValueError(f"phase {phase_index + 1} ({FORM_NAMES[phase.form]} @ {SPOT_NAMES[phase.spot]}): "
                             f"actions run past its {phase.ticks} ticks")
        codes[t], args[t] = code, arg

    for action in phase.actions:
        kind = action[0]
        if kind in ("ranged", "magic", "jad"):
            for k in range(action[1]):
                if kind == "ranged":
                    put(ACT_RANGED)
                elif kind == "magic":
                    put(ACT_TANZANITE)
                else:     # strict alternation from the first style [M: ZEN FlickingSequence; RL agree]
                    put(jad_style if k % 2 == 0 else (ACT_MAGIC if jad_style == ACT_RANGED else ACT_RANGED))
                t += ACTION_TICKS
        elif kind == "clouds":
            put(ACT_CLOUDS, volley)
            volley += 1
            t += ACTION_TICKS
        elif kind == "snakeling":
            put(ACT_SNAKELING, spawn)
            spawn += 1
            t += ACTION_TICKS
        else:      # magma stand
            start = t
            for k in range(2):
                t = start + MAGMA_PICK_TICKS[k]
                put(ACT_MAGMA_PICK, k)
                t = start + MAGMA_SLAM_TICKS[k]
                put(ACT_MAGMA_SLAM, k)
            t = start + MELEE_STAND_TICKS
    return codes, args


def identify_phase(rotation: int) -> int:
    """The first phase index at whose surfacing the (form, spot) sequence so far fits only ``rotation``."""
    seen = ROTATIONS[rotation]
    for p in range(len(seen)):
        prefix = [(q.form, q.spot) for q in seen[:p + 1]]
        others = [r for r in range(NUM_ROTATIONS) if r != rotation
                  and [(q.form, q.spot) for q in ROTATIONS[r][:p + 1]] == prefix]
        if not others:
            return p
    return len(seen) - 1


def build_tables() -> dict[str, np.ndarray]:
    """The arrays the kernels read (copied into derived config fields by the spec's hook)."""
    shape = (NUM_TIMELINES, MAX_PHASES)
    t = {
        "num_phases": np.array([len(r) for r in TIMELINES], dtype=np.int8),
        "phase_form": np.zeros(shape, np.int8),
        "phase_spot": np.zeros(shape, np.int8),
        "phase_ticks": np.zeros(shape, np.int16),
        "phase_jad": np.zeros(shape, np.int8),
        "phase_prayer": np.zeros(shape, np.int8),       # 0 none, 1 magic, 2 missiles (RL-A..D)
        "timeline": np.zeros(shape + (MAX_PHASE_TICKS,), np.int8),
        "timeline_arg": np.zeros(shape + (MAX_PHASE_TICKS,), np.int8),
        "next_action": np.zeros(shape + (MAX_PHASE_TICKS,), np.int16),   # ticks to the next action, 0: none
        "volley_tiles": np.zeros(shape + (MAX_VOLLEYS, 2, 2), np.int16),
        "spawn_tiles": np.zeros(shape + (MAX_SPAWNS, 2), np.int16),
        "identify_phase": np.array([identify_phase(r) for r in range(NUM_ROTATIONS)], dtype=np.int8),
        "spot_tiles": np.array(SPOT_TILES, dtype=np.int16),
    }
    for r, rot in enumerate(TIMELINES):
        for p, ph in enumerate(rot):
            t["phase_form"][r, p] = ph.form
            t["phase_spot"][r, p] = ph.spot
            t["phase_ticks"][r, p] = ph.ticks
            t["phase_jad"][r, p] = is_jad(ph)
            t["phase_prayer"][r, p] = {"": 0, "magic": 1, "missiles": 2}[ph.prayer]
            codes, args = phase_timeline(ph, p)
            t["timeline"][r, p, :ph.ticks] = codes
            t["timeline_arg"][r, p, :ph.ticks] = args
            upcoming = -1                     # tick of the next action after k, -1: none
            for k in range(ph.ticks - 1, -1, -1):
                t["next_action"][r, p, k] = upcoming - k if upcoming >= 0 else 0
                if codes[k] != ACT_NONE:
                    upcoming = k
            clouds = [a for a in ph.actions if a[0] == "clouds"]
            spawns = [a for a in ph.actions if a[0] == "snakeling"]
            for k, a in enumerate(clouds):
                t["volley_tiles"][r, p, k] = (a[1], a[2])
            for k, a in enumerate(spawns):
                t["spawn_tiles"][r, p, k] = a[1]
    return t
