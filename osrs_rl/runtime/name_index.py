"""Names turned into the IntEnums kernels index by (``obs_layout``, ``action_layout``, an encounter's reward
terms): each name a Python identifier a kernel can write, none twice, a family of names checked to lie side by
side.

>>> REWARD = name_index("REWARD", ("outcome", "damage_dealt"))
>>> int(REWARD.damage_dealt)
1
>>> run_start("ME", ("hp", "set_a", "set_b"), ("set_a", "set_b"))
1
"""

from __future__ import annotations

import enum
import keyword
import sys
from collections.abc import Sequence

# names an IntEnum member cannot take (the enum's own attributes) or that would hide one
_RESERVED = frozenset(("name", "value", "mro"))


def check_names(what: str, names: Sequence[str]) -> tuple[str, ...]:
    """``names`` as a tuple, or ValueError naming the first that a kernel could not index by (``what`` says
    whose names they are)."""
    names = tuple(names)
    if not names:
        raise ValueError(f"{what} names nothing")
    for n in names:
        if not isinstance(n, str) or not n.isidentifier() or keyword.iskeyword(n) or n.startswith("_") \
                or n in _RESERVED:
            raise ValueError(f"{what}: {n!r} is not a name a kernel can write by (a Python identifier, not a "
                             f"keyword, not starting with '_', none of {sorted(_RESERVED)})")
    seen = set()
    for n in names:
        if n in seen:
            raise ValueError(f"{what}: {n!r} is named twice (each is read by its own name)")
        seen.add(n)
    return names


def int_enum(name: str, members, module: str | None) -> type[enum.IntEnum]:
    # the caller's module and the name it is bound to make the class picklable by reference (Numba's cache)
    return enum.IntEnum(name, members, module=module, qualname=name)


def caller_module() -> str | None:
    """The module of whoever called the function that calls this: where its IntEnum will be bound."""
    return sys._getframe(2).f_globals.get("__name__")


def name_index(name: str, names: Sequence[str], module: str | None = None) -> type[enum.IntEnum]:
    """An IntEnum whose members are ``names``, each valued its position: where a kernel writes the value of that
    name in a row declared by ``names`` (an encounter's reward terms: ``s.reward_terms[0, REWARD.outcome]``). Bind it
    to a module global of the same ``name``; ``module`` defaults to the caller's. A name a kernel could not
    index by is refused, naming it."""
    return int_enum(name, [(n, k) for k, n in enumerate(check_names(name, names))], module or caller_module())


def run_start(owner: str, members: Sequence[str], names: Sequence[str], size: int | None = None,
              what: str = "name") -> int:
    """Where ``names`` start in ``members``, checked to lie there side by side, in order, ``size`` of them:
    ``family_start`` on a plain sequence of names (``owner`` and ``what`` word the errors)."""
    names, members = tuple(names), tuple(members)
    if not names:
        raise ValueError(f"a family of {owner} names no {what}s")
    if size is not None and len(names) != size:
        raise ValueError(f"a family of {owner} from {names[0]!r} has {len(names)} names, its loop "
                         f"writes {size}")
    missing = [n for n in names if n not in members]
    if missing:
        raise ValueError(f"{owner} has no {what} {missing[0]!r} (its {what}s: {', '.join(members)})")
    first = members.index(names[0])
    for k, n in enumerate(names):
        if members.index(n) != first + k:
            raise ValueError(f"the family {names[0]!r}.. of {owner} is not consecutive: {n!r} lies at "
                             f"{members.index(n)}, not {first + k} (a loop writing it from {names[0]!r} would "
                             f"mislabel it)")
    return first


