"""The player's per-tick bookkeeping record: levels, prayers, energies, action timers, status effects.

``PLAYER_DTYPE`` is one plain-data record per player; encounters embed it in their state record
(``("player", PLAYER_DTYPE)``) and pass the record (``state.player`` or ``players[i]``) to the
kernels in ``core.consumables``, ``core.status``, ``core.prayer_drain`` and ``core.energy``, which
mutate it in place. Snapshot/restore is a byte copy of the enclosing record (docs/guide/conventions.md).

Units: levels are game levels (hitpoints and prayer points live in ``levels[HITPOINTS]`` and
``levels[PRAYER]``); ``run_energy`` is in the game's 0..10000 units (OSRS wiki "Energy": 100 units
= 1 %); every timer counts game ticks.

Tick order for the kernels in this file: call ``tick_action_timers`` once per tick, after the tick's
actions and before the next tick's: a timer set to 3 then blocks the action on the next two ticks and
allows it three ticks later (the game's "3-tick delay"). pvp and zulrah call it at the end of the tick,
so that the action mask a policy reads between ticks already counts it.

Sources: timers and their semantics are cited where they are set (``core.consumables``); the slot
order is the game's equipment-slot order (OSRS wiki "Equipment"; same as ``core.equipment``).
"""

import numpy as np
from numba import njit

from osrs_rl.core.equipment import NUM_SLOTS
from osrs_rl.core.skills import HITPOINTS, MAX_LEVEL, NUM_SKILLS, SKILL_NAMES

# ---- equipment slots: the order of core.equipment (SLOT_NAMES, HEAD .. RING) ------------------
EMPTY_SLOT = -1

# ---- limits ---------------------------------------------------------------------------------
SPEC_MAX = 100                 # special attack energy is a percentage (OSRS wiki "Special attacks")
RUN_ENERGY_MAX = 10000         # 100.00 % (OSRS wiki "Energy": "up to 10,000 units of energy")
ATTACK_TIMER_FLOOR = -1000
"""``attack_timer`` keeps counting below zero while the player is idle (see ``tick_action_timers``);
it stops here so it never overflows int16. Any value <= 0 means "an attack may start"."""

PLAYER_DTYPE = np.dtype([
    # stats: base (real) levels and current visible levels; hitpoints and prayer points are
    # levels[HITPOINTS] and levels[PRAYER]
    ("base_levels", np.int16, (NUM_SKILLS,)),
    ("levels", np.int16, (NUM_SKILLS,)),
    # prayer: active prayers as a bit mask (core.prayers ids), drain accumulated toward the next point
    ("active_prayers", np.uint32),
    ("prayer_drain_counter", np.int32),
    ("prayer_was_on", np.uint8),     # 1: a prayer was on at the end of the last tick (core.prayer_drain)
    # special attack energy 0..100 and ticks since the last regeneration step
    ("spec_energy", np.int16),
    ("spec_regen_timer", np.int16),
    # run energy 0..10000, run toggle, stamina potion effect ticks left
    ("run_energy", np.int16),
    ("running", np.uint8),
    ("stamina_ticks", np.int16),
    # action timers: ticks until the action may happen again (<= 0: now)
    ("attack_timer", np.int16),      # may go negative while idle, see ATTACK_TIMER_FLOOR
    ("food_timer", np.int16),
    ("potion_timer", np.int16),
    ("karambwan_timer", np.int16),
    # freeze: ticks left frozen; ticks left during which a new freeze is refused (freeze + 5)
    ("freeze_ticks", np.int16),
    ("freeze_immunity_ticks", np.int16),
    # poison / venom: damage of the next hit (0 = none), ticks to the next hit, hits dealt at the
    # current poison damage, venom flag, and immunity ticks from antipoison / antivenom
    ("poison_damage", np.int16),
    ("poison_timer", np.int16),
    ("poison_hits", np.int16),
    ("venom", np.uint8),
    ("poison_immunity_ticks", np.int16),
    ("venom_immunity_ticks", np.int16),
    # natural restoration cycles: ticks counted toward the next hitpoint / drained-stat / boost step
    ("hp_regen_timer", np.int16),
    ("stat_restore_timer", np.int16),
    ("boost_decay_timer", np.int16),
    # worn items: indices into the item table, EMPTY_SLOT when empty, in core.equipment slot order
    ("equipment", np.int16, (NUM_SLOTS,)),
    # position on the encounter's tile grid
    ("x", np.int16),
    ("y", np.int16),
])


@njit(cache=True)
def tick_action_timers(p):
    """Count the attack, food, potion and karambwan timers down by one tick (start of the tick).

    The attack timer keeps counting below zero while idle (down to ``ATTACK_TIMER_FLOOR``) because
    eating adds its delay to that uncapped value (see ``core.consumables.eat_food``).
    """
    if p.attack_timer > ATTACK_TIMER_FLOOR:
        p.attack_timer -= 1
    if p.food_timer > 0:
        p.food_timer -= 1
    if p.potion_timer > 0:
        p.potion_timer -= 1
    if p.karambwan_timer > 0:
        p.karambwan_timer -= 1


@njit(cache=True)
def heal_hitpoints(p, amount):
    """Heal ``amount`` hitpoints up to the base level (a heal from damage dealt: the blowpipe's special,
    a Sanguinesti staff's or a Blood Barrage's); a boosted player keeps its boost, a dead one stays
    dead. Returns the hitpoints gained."""
    hp, base = np.int64(p.levels[HITPOINTS]), np.int64(p.base_levels[HITPOINTS])
    if hp <= 0 or amount <= 0 or hp >= base:
        return 0
    gain = min(np.int64(amount), base - hp)
    p.levels[HITPOINTS] = hp + gain
    return gain


@njit(cache=True)
def reset_player(p, levels, x, y):
    """Start a fight: base and current levels from ``levels`` (one per skill), full special and run
    energy with running on, every prayer, timer, status, immunity and natural cycle cleared, and the
    player at (x, y). Equipment is the encounter's business."""
    for k in range(NUM_SKILLS):
        p.base_levels[k] = levels[k]
        p.levels[k] = levels[k]
    p.active_prayers = 0
    p.prayer_drain_counter = 0
    p.prayer_was_on = 0
    p.spec_energy = SPEC_MAX
    p.spec_regen_timer = 0
    p.run_energy = RUN_ENERGY_MAX
    p.running = 1
    p.stamina_ticks = 0
    p.attack_timer = 0
    p.food_timer = 0
    p.potion_timer = 0
    p.karambwan_timer = 0
    p.freeze_ticks = 0
    p.freeze_immunity_ticks = 0
    p.poison_damage = 0
    p.poison_timer = 0
    p.poison_hits = 0
    p.venom = 0
    p.poison_immunity_ticks = 0
    p.venom_immunity_ticks = 0
    p.hp_regen_timer = 0
    p.stat_restore_timer = 0
    p.boost_decay_timer = 0
    p.x = x
    p.y = y


def new_player(levels: dict | None = None) -> np.ndarray:
    """A 1-element ``PLAYER_DTYPE`` array: 99s (or ``levels``), full hp/prayer/spec/run, no gear.

    ``levels`` maps skill names (``core.skills.SKILL_NAMES``) to base levels; current levels start
    equal to them. Kernels take the record: ``p = new_player(); eat_food(p[0], ...)``.

    >>> p = new_player({"hitpoints": 90})
    >>> int(p[0]["levels"][5]), int(p[0]["spec_energy"]), int(p[0]["run_energy"])
    (90, 100, 10000)
    """
    base = np.full(NUM_SKILLS, MAX_LEVEL, dtype=np.int16)
    for name, level in (levels or {}).items():
        if name not in SKILL_NAMES:
            from difflib import get_close_matches

            close = get_close_matches(str(name), SKILL_NAMES, n=3, cutoff=0.5)
            hint = f" Did you mean: {', '.join(close)}?" if close else ""
            raise ValueError(f"Unknown skill {name!r}.{hint} Skills: {', '.join(SKILL_NAMES)}")
        if not 1 <= int(level) <= MAX_LEVEL:
            raise ValueError(f"Level for {name!r} must be 1..{MAX_LEVEL}, got {level}")
        base[SKILL_NAMES.index(name)] = int(level)
    p = np.zeros(1, dtype=PLAYER_DTYPE)
    p[0]["base_levels"] = base
    p[0]["levels"] = base
    p[0]["spec_energy"] = SPEC_MAX
    p[0]["run_energy"] = RUN_ENERGY_MAX
    p[0]["equipment"] = EMPTY_SLOT
    return p


def check_player_array(arr, name: str = "player") -> None:
    """Raise ``TypeError`` unless ``arr`` is a NumPy array of ``PLAYER_DTYPE`` records."""
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"{name} must be a numpy array of PLAYER_DTYPE records, got {type(arr).__name__}")
    if arr.dtype != PLAYER_DTYPE:
        raise TypeError(
            f"{name} has dtype {arr.dtype}; expected PLAYER_DTYPE (osrs_rl.core.player) with fields "
            f"{', '.join(PLAYER_DTYPE.names)}"
        )

