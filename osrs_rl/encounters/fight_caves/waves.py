"""The Fight Cave's 63 waves, the spawn rotation, and how a wave ends, as data.

The table is generated, not typed in. The six wave monsters (tiers) Tz-Kih, Tz-Kek, Tok-Xil, Yt-MejKot, Ket-Zek and
TzTok-Jad weigh 1, 3, 7, 15, 31, 63 (2^(k+1) - 1), and wave n holds, of each tier, the digit of n written in skew
binary on those weights (digits 0, 1 or 2; only the lowest non-zero digit may be 2). The same rule, in the words
of each source:

- RuneLite's fight cave plugin (runelite/runelite ``runelite-client/src/main/java/net/runelite/client/plugins/
  fightcave/FightCavePlugin.java``, the static ``WAVES`` block) and WooxSolo/fight-caves-sim
  (``src/js/helpers/FightCavesHelpers.js``): from wave n - 1, if some tier has two, drop the lowest such pair and
  add one of the next tier, else add one Tz-Kih;
- the Kronos OSRS server (tamerab1/Zelus-server-website-monorepo ``kronos-server/src/main/java/io/ruin/model/
  activities/fightcaves/FightCaves.java`` ``beginWave``): waves 14, 30 and 62 are two Tok-Xil, two Yt-MejKot and
  two Ket-Zek; any other wave takes as many of each tier as fit, highest first;
- GregHib/void ``data/minigame/tzhaar_fight_cave/tzhaar_fight_cave_waves.toml`` @ 06847f59 (an RS2 634-era
  server) lists all 63 waves; tests/encounters/fight_caves/test_waves.py checks rows from each source.

So the new tiers first come on waves 1, 3, 7, 15, 31 and 63, Jad alone on 63, at most 6 monsters a wave (wave 58).

Spawn rotation [H: WooxSolo ``getFightCavesRotationPositions``; Kronos ``ROTATIONS`` with ``waveRotationOffset`` /
``spawnRotationOffset``; VOID's table of 63 waves x 15 rotations is reproduced exactly by it, its rotation
1..15 being r = 2, 13, 8, 12, 7, 3, 11, 6, 14, 5, 0, 9, 1, 10, 4]: a 15-entry cycle of spawn areas
(``SPAWN_CYCLE``); at the start of the cave r is drawn uniformly from 0..14 (VOID: rotation 1..15; Kronos
``Random.get(14)``); the monsters of wave n sorted by level, highest first, the k-th (from 0) spawns in area
``SPAWN_CYCLE[(n - 1 + r + k) % 15]``. Monsters of one tier are alike, so their order among themselves does not
matter. The Zenyte OSRS server (Rims-Naps/Zyrox-Server ``FightCaveSpawn.java``, ``FightCaves.spawnNPC``) walks the
same cycle but steps once per monster spawned since the start (a wave's second monster of a kind excepted), not
once per wave, and indexes it modulo 14: other areas on 53 to 57 of the 63 waves, from wave 5 on (from wave 1 when
r is 14), and the cycle's last entry never used; it is not followed.

A wave ends when every monster it spawned is dead, a Tz-Kek's two level-22 splits included: VOID's counter counts
a Tz-Kek as 2 and counts down on the splits' deaths (``TzhaarFightCave.kt`` ``startWave``, ``npcDespawn``);
Zenyte's wave list holds a Tz-Kek's splits from its spawn (``TzKek`` constructor, ``FightCaves.checkWave``);
Kronos waits for its map to hold no monster (``handleDeath``) [H]. Jad's healers do not count: killing Jad ends
the cave (VOID ``npcDespawn``, Kronos ``handleDeath``, Zenyte ``checkWave``).

The gap before the next wave (``WAVE_GAP_TICKS``): VOID and Kronos spawn the next wave in the tick of the last
death; Zenyte counts 5 ticks first (``FightCaves.checkWave`` sets ``cycle = 5``, ``process`` counts it down) and
16 before wave 1. No public game source was found. The table takes Zenyte's 5 (the OSRS server of the three).
APPROXIMATION [L: Zenyte].
"""

from __future__ import annotations

import numpy as np

from .arena import AREA_C, AREA_NW, AREA_S, AREA_SE, AREA_SW

KIH, KEK, XIL, MEJKOT, ZEK, JAD = range(6)
# osrs_rl/data/npcs.json names (name and version, as the OSRS wiki DPS calculator's export spells them)
TIER_NAMES = ("Tz-Kih", "Tz-Kek (Level 45)", "Tok-Xil (Standard)", "Yt-MejKot (Standard)", "Ket-Zek (Standard)",
              "TzTok-Jad")
SPLIT_NAME = "Tz-Kek (Level 22)"
HEALER_NAME = "Yt-HurKot (Level 108)"
TIER_LEVELS = (22, 45, 90, 180, 360, 702)
TIER_WEIGHTS = (1, 3, 7, 15, 31, 63)         # 2^(k+1) - 1
NUM_TIERS = 6
NUM_WAVES = 63
JAD_WAVE = 63
MAX_PER_WAVE = 6                             # wave 58 (asserted at import)
SPLITS_PER_KEK = 2                           # two Tz-Kek (Level 22) when a Tz-Kek (Level 45) dies
HEALERS_PER_JAD = 4                          # Yt-HurKot [H: VOID TzhaarFightCave.kt, Kronos spawnHealers, Zenyte]
WAVE_GAP_TICKS = 5                           # APPROXIMATION [L: Zenyte], module docstring
FIRST_WAVE_TICKS = 16                        # ticks from the start to wave 1 [L: Zenyte FightCaves.constructed]

# the spawn cycle [H: WooxSolo FightCavesHelpers.js rotation; Kronos FightCaves.ROTATIONS; Zenyte FightCaveSpawn]
SPAWN_CYCLE = np.array((AREA_SE, AREA_SW, AREA_C, AREA_NW, AREA_SW, AREA_SE, AREA_S, AREA_NW, AREA_C, AREA_SE,
                        AREA_SW, AREA_S, AREA_NW, AREA_C, AREA_S), dtype=np.int8)
NUM_ROTATIONS = 15
SPAWN_CYCLE.setflags(write=False)


def skew_binary(n: int) -> tuple[int, ...]:
    """The skew-binary digits of ``n`` (0 <= n <= 63) on ``TIER_WEIGHTS``, lowest tier first: wave n's counts."""
    if not 0 <= n <= NUM_WAVES:
        raise ValueError(f"a fight cave wave is 1..{NUM_WAVES} (0 for none), got {n}")
    digits = [0] * NUM_TIERS
    for k in reversed(range(NUM_TIERS)):
        # highest weight first, one of each that fits; what is left is then at most that weight again, and
        # exactly that weight only when nothing lies below it: the one digit 2 skew binary allows
        if n >= TIER_WEIGHTS[k]:
            n -= TIER_WEIGHTS[k]
            digits[k] = 1
            if n == TIER_WEIGHTS[k]:
                n, digits[k] = 0, 2
    return tuple(digits)


def _counts() -> np.ndarray:
    counts = np.zeros((NUM_WAVES + 1, NUM_TIERS), dtype=np.int8)
    for wave in range(1, NUM_WAVES + 1):
        counts[wave] = skew_binary(wave)
    return counts


COUNTS = _counts()
"""int8[64, 6]: ``COUNTS[wave, tier]`` monsters of each tier on wave 1..63 (row 0 is empty)."""


def _kinds() -> tuple[np.ndarray, np.ndarray]:
    kinds = np.full((NUM_WAVES + 1, MAX_PER_WAVE), -1, dtype=np.int8)
    size = np.zeros(NUM_WAVES + 1, dtype=np.int8)
    for wave in range(1, NUM_WAVES + 1):
        listed = [t for t in reversed(range(NUM_TIERS)) for _ in range(COUNTS[wave, t])]
        if len(listed) > MAX_PER_WAVE:
            raise ValueError(f"fight cave wave {wave} holds {len(listed)} monsters, more than {MAX_PER_WAVE}")
        kinds[wave, :len(listed)] = listed
        size[wave] = len(listed)
    return kinds, size


WAVE_KINDS, WAVE_SIZE = _kinds()
"""``WAVE_KINDS``: int8[64, 6], wave's monsters by tier, highest first, -1 past ``WAVE_SIZE[wave]`` (int8[64])."""
for _table in (COUNTS, WAVE_KINDS, WAVE_SIZE):
    _table.setflags(write=False)


def spawn_area(wave: int, rotation: int, k: int) -> int:
    """The area (arena.AREA_*) the k-th monster of ``wave`` (highest level first) spawns in under ``rotation``."""
    return int(SPAWN_CYCLE[(wave - 1 + rotation + k) % NUM_ROTATIONS])


def wave_spawns(wave: int, rotation: int) -> list[tuple[int, int]]:
    """(tier, area) of each monster of ``wave`` (1..63) under ``rotation`` (0..14), highest level first."""
    if not 1 <= wave <= NUM_WAVES:
        raise ValueError(f"a fight cave wave is 1..{NUM_WAVES}, got {wave}")
    if not 0 <= rotation < NUM_ROTATIONS:
        raise ValueError(f"a fight cave rotation is 0..{NUM_ROTATIONS - 1}, got {rotation}")
    return [(int(WAVE_KINDS[wave, k]), spawn_area(wave, rotation, k)) for k in range(WAVE_SIZE[wave])]


def clear_deaths(wave: int) -> int:
    """How many deaths end ``wave``: every monster it spawned and both splits of each Tz-Kek (Level 45)."""
    return int(WAVE_SIZE[wave]) + SPLITS_PER_KEK * int(COUNTS[wave, KEK])
