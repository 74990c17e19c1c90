"""The player's input phase: prayer clicks, gear switches, eating and drinking, special-attack energy,
and the combat refresh that follows them. One implementation for every encounter with a player.

Index (the order an encounter's input phase calls them in, before anyone's turn):
  1. supplies     ``use_supply``: one food, potion dose or karambwan from the player's supply counts, through
                  core.consumables (its timers make food -> potion -> karambwan the only same-tick order);
                  ``drink_option``: the same from a head whose options after the first are the supplies;
  2. gear         ``wear``: put on a whole loadout (one item per equipment slot) from the encounter's table;
  3. prayers      ``set_overhead`` (one overhead at a time), ``set_offensive`` (the offensive prayers of one
                  group, e.g. the one of the style just switched to) and ``clear_prayers``; ``click_overhead`` from a
                  head's option, ``hold_overhead`` from a head whose option is the overhead wanted this tick and
                  ``one_tick_flick`` (the prayers on, clicked off and on again within the tick: no drain);
                  queries ``has_prayer``, ``overhead_style``, ``protected_from``; the legal clicks
                  ``overhead_mask``, ``held_overhead_mask``, ``offensive_mask``;
  4. specials     ``can_special``: the energy check of a special (core.energy ``use_spec`` spends it);
  5. refresh      ``refresh_combat``: the live combat record = the worn loadout's record with current levels
                  and prayers, rebuilt before each roll that reads it.

The kernels take the core.player record and the rows of the encounter's own tables (loadouts, offensive
prayer masks, supply ids), never the encounter's state, so an encounter with other loadouts calls them
unchanged. Which option of an action head means what, and what is counted in metrics, stays in the encounter.

Sources: one overhead at a time (OSRS wiki "Overheads": the protection prayers, Retribution, Redemption and
Smite; activating one turns the previous one off); a prayer needs prayer points to go on (OSRS wiki "Prayer");
special-attack energy (OSRS wiki "Special attacks"). Eating and drinking: core.consumables.
The rules are the ones PvP and Zulrah had before this module (their golden traces are unchanged); at 0
prayer points ``set_overhead`` still turns the old overhead off while ``set_offensive`` changes nothing,
as they did. Every kernel that takes prayer points to 0 (core.prayer_drain, PvP's Smite and Redemption)
switches all prayers off, so only a restored state tells the two apart.
"""

import numpy as np
from numba import njit

from osrs_rl.core import prayers as P
from osrs_rl.core.consumables import COL_KIND, KIND_POTION, drink_potion, eat_food
from osrs_rl.core.equipment import NUM_SLOTS
from osrs_rl.core.pending_hits import STYLE_TYPELESS
from osrs_rl.core.skills import NUM_SKILLS, PRAYER

NO_PRAYER = -1
"""``set_overhead``'s argument for "the overhead off"."""
OVERHEAD_OF_STYLE = (P.PROTECT_FROM_MELEE, P.PROTECT_FROM_MISSILES, P.PROTECT_FROM_MAGIC)
"""The protection prayer against each pending-hit style (core.pending_hits STYLE_MELEE, _RANGED, _MAGIC)."""


# ---- prayers -----------------------------------------------------------------------------------
@njit(cache=True)
def has_prayer(p, prayer):
    """Prayer ``prayer`` (a core.prayers id) is on."""
    return (np.uint32(p.active_prayers) >> np.uint32(prayer)) & np.uint32(1) != 0


@njit(cache=True)
def overhead_style(p):
    """The pending-hit style the player's protection overhead blocks, or -1."""
    mask = np.uint32(p.active_prayers)
    for style in range(3):
        if (mask >> np.uint32(OVERHEAD_OF_STYLE[style])) & np.uint32(1):
            return style
    return -1


@njit(cache=True)
def protected_from(p, style):
    """The player's overhead blocks a hit of pending-hit ``style`` (typeless damage is never blocked)."""
    if style == STYLE_TYPELESS:
        return False
    return has_prayer(p, OVERHEAD_OF_STYLE[style])


@njit(cache=True)
def set_overhead(p, prayer):
    """Click overhead ``prayer`` on (a core.prayers id in ``OVERHEADS_MASK``), or ``NO_PRAYER`` to turn the
    overhead off. The other overheads go off by themselves; without prayer points the new one stays off."""
    mask = np.uint32(p.active_prayers) & ~np.uint32(P.OVERHEADS_MASK)
    if prayer >= 0 and p.levels[PRAYER] > 0:
        mask |= np.uint32(1) << np.uint32(prayer)
    p.active_prayers = mask


# the prayer an overhead action option clicks on, by the option's name (its label): "off" clicks the one on off
_OVERHEAD_CLICKS = {"magic": P.PROTECT_FROM_MAGIC, "missiles": P.PROTECT_FROM_MISSILES,
                    "melee": P.PROTECT_FROM_MELEE, "smite": P.SMITE, "redemption": P.REDEMPTION, "off": NO_PRAYER}


def overhead_clicks(options, keep: str = "keep") -> tuple[int, ...]:
    """The prayer each option of an overhead action head clicks on with ``set_overhead``, by option number,
    from the options' names (``options``: an IntEnum, ``action_layout.option_index``). Option ``keep`` is no
    click (``NO_PRAYER`` here; a caller skips it); a name that is neither raises ValueError.

    >>> import enum
    >>> overhead_clicks(enum.IntEnum("OV", "keep magic off", start=0)) == (NO_PRAYER, P.PROTECT_FROM_MAGIC, NO_PRAYER)
    True
    """
    unknown = [o.name for o in options if o.name != keep and o.name not in _OVERHEAD_CLICKS]
    if unknown:
        raise ValueError(f"overhead option {unknown[0]!r} names no overhead prayer (known: {keep}, "
                         f"{', '.join(_OVERHEAD_CLICKS)})")
    return tuple(NO_PRAYER if o.name == keep else _OVERHEAD_CLICKS[o.name] for o in options)


@njit(cache=True)
def click_overhead(p, option, clicks):
    """An overhead head's option: 0 keeps what is on; option k clicks ``clicks[k]`` (``overhead_clicks``'s table of
    the head's options)."""
    if 0 < option < len(clicks):
        set_overhead(p, clicks[option])


@njit(cache=True)
def hold_overhead(p, option, prayers):
    """An overhead head whose option is the overhead wanted on this tick (``prayers[option]``, ``NO_PRAYER`` for
    none: ``overhead_clicks(options, keep="none")``): a click when it is not what is on. The rules are
    ``set_overhead``'s; only the default differs from ``click_overhead``: an option left at none switches the
    overhead off, so a prayer stays on only while it is chosen tick after tick (with ``one_tick_flick``, for
    free)."""
    wanted = prayers[option]
    want = np.uint32(0) if wanted < 0 else np.uint32(1) << np.uint32(wanted)
    if (np.uint32(p.active_prayers) & np.uint32(P.OVERHEADS_MASK)) != want:
        set_overhead(p, wanted)


@njit(cache=True)
def one_tick_flick(p):
    """Every prayer on was clicked off and on again within this tick (the game's 1-tick flick): the drain timer
    is queued anew, so it does not run this tick (core.prayer_drain). For heads that choose the prayers wanted
    each tick; the player makes whatever clicks keep them up for free."""
    if p.active_prayers != 0:
        p.prayer_was_on = 0


@njit(cache=True)
def set_offensive(p, group, wanted):
    """Click offensive prayers on: those of mask ``group`` go off and those of mask ``wanted`` (inside
    ``group``, e.g. the ones of the style about to attack) go on. Without prayer points the click changes
    nothing."""
    if p.levels[PRAYER] <= 0:
        return
    p.active_prayers = (np.uint32(p.active_prayers) & ~np.uint32(group)) | np.uint32(wanted)


@njit(cache=True)
def clear_prayers(p, group):
    """Turn off every prayer of mask ``group`` (no points needed)."""
    p.active_prayers = np.uint32(p.active_prayers) & ~np.uint32(group)


@njit(cache=True)
def overhead_mask(p, row, keep, magic, missiles, melee, off):
    """Write an overhead head's legal options into ``row`` (its slice of the mask) at option numbers ``keep``,
    ``magic``, ``missiles``, ``melee``, ``off``: keep always; a protection prayer that is not on needs prayer
    points (OSRS wiki "Prayer"); off needs one on."""
    praying = p.levels[PRAYER] > 0
    on_magic = has_prayer(p, P.PROTECT_FROM_MAGIC)
    on_missiles = has_prayer(p, P.PROTECT_FROM_MISSILES)
    on_melee = has_prayer(p, P.PROTECT_FROM_MELEE)
    row[keep] = True
    row[magic] = praying and not on_magic
    row[missiles] = praying and not on_missiles
    row[melee] = praying and not on_melee
    row[off] = on_magic or on_missiles or on_melee


@njit(cache=True)
def held_overhead_mask(p, row, none, magic, missiles, melee):
    """Write the legal options of a ``hold_overhead`` head into ``row``: none always; a protection prayer needs
    prayer points, on already or not (OSRS wiki "Prayer")."""
    praying = p.levels[PRAYER] > 0
    row[none] = True
    row[magic] = praying
    row[missiles] = praying
    row[melee] = praying


@njit(cache=True)
def offensive_mask(p, row, keep, on, off, group, wanted):
    """Write an offensive-prayer head's legal options into ``row`` at ``keep``, ``on`` (the prayers of mask
    ``wanted``, inside ``group``, not all on yet; they need prayer points) and ``off`` (some prayer of
    ``group`` is on)."""
    active = np.uint32(p.active_prayers)
    row[keep] = True
    row[on] = p.levels[PRAYER] > 0 and (active & np.uint32(wanted)) != np.uint32(wanted)
    row[off] = (active & np.uint32(group)) != 0


# ---- gear ---------------------------------------------------------------------------------------
@njit(cache=True)
def wear(p, worn):
    """Put on loadout ``worn``: one item index per core.equipment slot (core.player EMPTY_SLOT for none)."""
    for k in range(NUM_SLOTS):
        p.equipment[k] = worn[k]


# ---- supplies -----------------------------------------------------------------------------------
@njit(cache=True)
def use_supply(p, supplies, slot, consumable, table):
    """Eat or drink one of supply ``slot`` (counts in ``supplies``), consumable ``consumable`` (a row of the
    core.consumables ``table``; -1: the player carries none). True when it was used and counted off; False
    when none is left or its timer blocks it (nothing changes)."""
    if supplies[slot] <= 0 or consumable < 0:
        return False
    if table[consumable, COL_KIND] == KIND_POTION:
        used = drink_potion(p, consumable, table)
    else:
        used = eat_food(p, consumable, table)
    if used:
        supplies[slot] -= 1
    return used


@njit(cache=True)
def drink_option(p, supplies, used, option, first, consumables, table):
    """A supply head's option: below ``first`` none; else a dose or bite of supply ``option - first``
    (``use_supply``, consumable ``consumables[slot]`` of ``table``), counted in ``used[slot]``. True when used."""
    if option < first:
        return False
    slot = option - first
    if not use_supply(p, supplies, slot, consumables[slot], table):
        return False
    used[slot] += 1
    return True


# ---- special attacks ------------------------------------------------------------------------------
@njit(cache=True)
def can_special(p, cost):
    """A special attack of ``cost`` % energy (core.specials SP_COST of the attack row; 0: the weapon has none)
    can be used now: the weapon has one and the player has the energy. ``core.energy.use_spec`` spends it."""
    return cost > 0 and p.spec_energy >= cost


# ---- combat refresh ---------------------------------------------------------------------------------
@njit(cache=True)
def refresh_combat(combat, p, gear):
    """Rebuild the live combat record ``combat[0]`` (a 1-element COMBATANT_DTYPE array) from loadout record
    ``gear`` (the worn set's combatant: bonuses, style, weapon) with the player's current levels (boosts and
    drains) and prayers."""
    combat[0] = gear
    c = combat[0]
    for k in range(NUM_SKILLS):
        c.levels[k] = p.levels[k]
    c.prayers = p.active_prayers
