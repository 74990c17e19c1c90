"""Action positions derived from the declared action heads, so the mechanics read and the mask writes each option
by name: the action side's twin of ``obs_layout``.

An encounter declares its actions once, as ``ActionHead``s whose ``labels`` name each option; the policy's
distribution, the replays and the viewer show an option by that label. A mask kernel that wrote ``row[k + 1]``
by hand-counted position, or mechanics that compared ``a[2] == 1`` by a constant numbered apart from the labels,
could let the policy pick "missiles" while the mask and the rules meant "magic", and nothing would fail.
Instead the heads become IntEnums: ``head_index`` (a head's element of an agent's action row, ``a[HEAD.overhead]``),
``head_bounds`` (a head's place in the flat mask, ``row[MASK_START.overhead:MASK_STOP.overhead]``) and
``option_index`` (an option's number within its head, ``OVERHEAD.magic``). Numba reads their members as
compile-time constants, and a name the declaration lacks fails to compile.

Options written in a loop (one per tile offset, per monster slot, per gear set) stay a loop: ``option_start``
checks that their labels lie side by side, in order, and gives the first one's number. A tool outside the
kernels finds an option through the spec (``option_position``); ``check_numbered`` ties indices numbered
apart from the labels (supply slots, gear sets) to the options the rules take for them.

>>> from osrs_rl.runtime.spec import ActionHead
>>> HEADS = (ActionHead("attack", 2, ("wait", "hit")), ActionHead("gear", 3, ("keep", "set_a", "set_b")))
>>> HEAD = head_index("HEAD", HEADS)
>>> MASK_START, MASK_STOP = head_bounds(HEADS)
>>> GEAR = option_index("GEAR", HEADS[HEAD.gear])
>>> int(HEAD.gear), int(MASK_START.gear), int(MASK_STOP.gear), int(GEAR.set_b)
(1, 2, 5, 2)
>>> option_start(HEADS[HEAD.gear], ("set_a", "set_b"), size=2)
1
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from .name_index import caller_module, check_names, int_enum, run_start


def _heads(heads) -> tuple:
    heads = tuple(heads)
    check_names("action heads", [h.name for h in heads])
    return heads


def head_index(name: str, heads, module: str | None = None) -> type[enum.IntEnum]:
    """An IntEnum whose members are the heads' names, each valued the head's place in an agent's action row
    (``a[HEAD.overhead]``). Bind it to a module global of the same ``name``; ``module`` defaults to the caller's."""
    return int_enum(name, [(h.name, k) for k, h in enumerate(_heads(heads))], module or caller_module())


def head_bounds(heads, names: tuple[str, str] = ("MASK_START", "MASK_STOP"),
                module: str | None = None) -> tuple[type[enum.IntEnum], type[enum.IntEnum]]:
    """Two IntEnums ``(MASK_START, MASK_STOP)`` whose members are the heads' names: where each head's options start
    and stop in an agent's flat mask, in declaration order, as ``EncounterSpec.mask_slices`` gives them. Bind
    them to module globals called ``names``; ``module`` defaults to the caller's."""
    starts, stops, at = [], [], 0
    for h in _heads(heads):
        starts.append((h.name, at))
        at += h.size
        stops.append((h.name, at))
    module = module or caller_module()
    return int_enum(names[0], starts, module), int_enum(names[1], stops, module)


def option_index(name: str, head, module: str | None = None) -> type[enum.IntEnum]:
    """An IntEnum whose members are ``head``'s option labels, each valued its option number (``OVERHEAD.magic``):
    what the mechanics compare an action with and the mask writes at. The labels must be names a kernel can
    use (identifiers, not keywords, not ``name``/``value``/``mro``, none twice), and a head has one per option;
    a head with other labels (tile offsets) is written through ``option_start`` instead."""
    if len(head.labels) != head.size:
        raise ValueError(f"action head {head.name!r} labels {len(head.labels)} of its {head.size} options: an "
                         f"option index needs a label for each")
    labels = check_names(f"the options of action head {head.name!r}", head.labels)
    return int_enum(name, [(n, k) for k, n in enumerate(labels)], module or caller_module())


def option_start(head, labels: Sequence[str], size: int | None = None) -> int:
    """The option number of ``labels[0]`` in ``head``, after checking that ``labels`` follow one another there,
    in order (and that there are ``size`` of them): the anchor a loop counts from (option ``WALK_0 + o`` is
    ``labels[o]``). Raises ValueError naming the first label out of place."""
    return run_start(f"action head {head.name!r}", head.labels, labels, size, "option")


def check_numbered(head, start: int, numbered: dict[str, int]) -> None:
    """ValueError unless option ``start + k`` of ``head`` is the one labelled ``name``, for each ``name: k`` of
    ``numbered``: where the rules take option ``start + k`` for an index ``k`` numbered apart from the labels
    (a supply slot, a gear set), this ties each such index to its option by name at import."""
    for name, k in numbered.items():
        at = start + k
        if not 0 <= at < len(head.labels) or head.labels[at] != name:
            found = repr(head.labels[at]) if 0 <= at < len(head.labels) else "no option"
            raise ValueError(f"action head {head.name!r}: option {start} + {k} (the index of {name!r}) is {found}, "
                             f"not {name!r}: the index and the label disagree")


def option_position(spec, head: str, label: str) -> int:
    """Where option ``label`` of ``head`` lies in ``spec``'s flat mask (``env.action_mask[:, 0, p]``): how a tool
    finds an option by name. KeyError names what the spec has."""
    where = spec.mask_slices()
    found = next((h for h in spec.action_heads if h.name == head), None)
    if found is None:
        raise KeyError(f"encounter {spec.name!r} has no action head {head!r} (its heads: {', '.join(where)})")
    if label not in found.labels:
        raise KeyError(f"action head {head!r} of {spec.name!r} has no option {label!r} (its options: "
                       f"{', '.join(found.labels) or 'unlabelled'})")
    return where[head].start + found.labels.index(label)
