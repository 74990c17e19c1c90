"""A kit fits in an inventory: what a loadout carries, counted in slots, refused past 28 (part of the spec
contract, ``EncounterSpec.kit``).

An encounter declares ``kit(config_record) -> Kit | Sequence[Kit]``: each kit its config can give a player (a
loadout, each PvP build's kits), built from the same gear the kernels wear and the same supply settings they
count. :func:`check_kits` refuses, when the config is built, any kit that needs more than
:data:`INVENTORY_SLOTS` slots, naming the count and what takes it.

Counting [OSRS wiki "Inventory": 28 slots; "Worn Equipment": the equipment slots hold what is worn, apart from
the inventory]: the worn set is set aside; every other item of the kit's gear sets takes one slot (a switch
item), and since the player can wear any of the sets, the count is the most over the sets of the distinct items
not in the set worn. Supplies take a slot per potion (a partly drunk one too: a 4-dose potion of 6 doses takes
2), per food item, or one for a stack (runes in a rune pouch, ammunition).
"""

from __future__ import annotations

from dataclasses import dataclass

from osrs_rl.runtime.config import ConfigError

INVENTORY_SLOTS = 28


@dataclass(frozen=True)
class Kit:
    """``label`` names the kit in errors ("loadout 0", "build pure, kit 2"); ``sets`` each gear set's items (the
    ones that are objects: a blowpipe's darts are loaded in it, not carried); ``supplies`` (name, slots) pairs."""

    label: str
    sets: tuple[tuple[str, ...], ...]
    supplies: tuple[tuple[str, int], ...] = ()

    def switch_items(self) -> int:
        """Inventory slots the gear sets take: the most, over the set worn, of the items of other sets."""
        every = set().union(*map(set, self.sets)) if self.sets else set()
        return max((len(every - set(s)) for s in self.sets), default=0)

    def slots(self) -> int:
        return self.switch_items() + sum(int(n) for _, n in self.supplies)

    def describe(self) -> str:
        parts = [f"{self.switch_items()} switch items"] + [f"{int(n)} {name}" for name, n in self.supplies if n]
        return ", ".join(parts)


def potion_slots(doses: int, per_potion: int = 4) -> int:
    """Slots ``doses`` of a ``per_potion``-dose potion take (a partly drunk potion takes a slot too)."""
    return -(-int(doses) // per_potion)


def check_kits(spec, config_record) -> tuple[Kit, ...]:
    """The spec's kits under ``config_record``; ConfigError naming the first one past :data:`INVENTORY_SLOTS`."""
    if spec.kit is None:
        return ()
    got = spec.kit(config_record)
    kits = (got,) if isinstance(got, Kit) else tuple(got)
    for k in kits:
        if not isinstance(k, Kit):
            raise ConfigError(f"encounter {spec.name!r}: kit() must return osrs_rl.runtime.inventory.Kit rows, got "
                              f"{type(k).__name__}")
        if k.slots() > INVENTORY_SLOTS:
            raise ConfigError(f"encounter {spec.name!r}: {k.label} takes {k.slots()} inventory slots "
                              f"({k.describe()}); an inventory holds {INVENTORY_SLOTS}: carry fewer supplies")
    return kits
