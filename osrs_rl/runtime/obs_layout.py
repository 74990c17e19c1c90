"""Observation positions derived from the declared feature names, so a kernel writes each feature by name.

An encounter declares its observation as segments of named features (``ObsSegment``); the audit, replays and
every feature-name-based tool read a value by those names. A kernel that wrote ``o[3] = ...`` by hand-counted
position could put a value under another feature's name, and nothing would fail. Instead the view turns each
segment's names into an ``enum.IntEnum`` (``feature_index``) and the segments into their bounds in the flat
vector (``segment_bounds``); kernels write ``o[START.npc + NPC.hp] = ...`` (or ``o[NPC.hp]`` in a function
handed the slice ``o[START.npc:STOP.npc]``; a slot ``k`` of an entity segment at ``k * features + NPC.hp``).
Numba reads the members of a global IntEnum as compile-time constants, so the writes cost what the
hand-numbered ones did, and a name the declaration lacks fails to compile.

Features written in a loop (one per prayer, per direction, per monster kind) stay a loop: ``family_start``
checks at import that the family's names lie side by side, in order, and gives the first one's position,
from which the kernel counts (``o[SET_0 + j]``). A tool outside the kernels reads a value by name through the
spec (``position``).

>>> PLAYER = feature_index("PLAYER", ("hp", "food", "set_magic", "set_ranged"))
>>> int(PLAYER.food), len(PLAYER)
(1, 4)
>>> family_start(PLAYER, ("set_magic", "set_ranged"), size=2)
2
>>> from osrs_rl.runtime.spec import ObsSegment
>>> START, STOP = segment_bounds((ObsSegment("player", 4), ObsSegment("npc", 2, 3)))
>>> int(START.npc), int(STOP.npc)
(4, 10)
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from .name_index import caller_module, check_names, int_enum, run_start


def feature_index(name: str, feature_names: Sequence[str], module: str | None = None) -> type[enum.IntEnum]:
    """An IntEnum whose members are ``feature_names``, each valued its position in the tuple: the index a kernel
    writes that feature at within its segment (or a slot's row of it). Bind it to a module global of the same
    ``name`` (``SELF = feature_index("SELF", SELF_NAMES)``); ``module`` defaults to the caller's.

    A name that is not an identifier, a keyword, starts with ``_``, is an enum attribute (``name``, ``value``,
    ``mro``) or appears twice is refused, naming it."""
    names = check_names(f"feature index {name!r}", feature_names)
    return int_enum(name, [(n, k) for k, n in enumerate(names)], module or caller_module())


def family_start(index: type[enum.IntEnum], names: Sequence[str], size: int | None = None) -> int:
    """The position of ``names[0]`` in ``index``, after checking that ``names`` follow one another there, in
    order (and that there are ``size`` of them): the anchor a loop counts from (``o[SETS_0 + j]`` for ``j`` in
    ``range(size)``), so the element ``j`` it writes is the feature ``names[j]``. Raises ValueError naming the
    first name out of place."""
    return run_start(index.__name__, tuple(index.__members__), names, size, "feature")


def segment_bounds(segments, names: tuple[str, str] = ("START", "STOP"),
                   module: str | None = None) -> tuple[type[enum.IntEnum], type[enum.IntEnum]]:
    """Two IntEnums ``(START, STOP)`` whose members are the segments' names: where each segment (an
    ``ObsSegment``: its ``features`` x ``slots`` values) starts and stops in the flat observation, in declaration
    order, as ``EncounterSpec.obs_slices`` gives them. A kernel slices ``o[START.npc:STOP.npc]``. Bind them to
    module globals called ``names``; ``module`` defaults to the caller's."""
    segments = tuple(segments)
    segment_names = check_names("observation segments", [s.name for s in segments])
    starts, stops, at = [], [], 0
    for n, s in zip(segment_names, segments, strict=True):
        starts.append((n, at))
        at += s.size
        stops.append((n, at))
    module = module or caller_module()
    return int_enum(names[0], starts, module), int_enum(names[1], stops, module)


def position(spec, segment: str, feature: str, slot: int = 0) -> int:
    """Where ``feature`` of ``segment`` (its row ``slot``) lies in ``spec``'s flat observation: how a tool reads a
    value by name (``obs[:, position(env.spec, "player", "hp")]``). KeyError names what the spec has."""
    where = spec.obs_slices()
    seg = next((s for s in spec.obs_segments if s.name == segment), None)
    if seg is None:
        raise KeyError(f"encounter {spec.name!r} has no observation segment {segment!r} (its segments: "
                       f"{', '.join(where)})")
    if feature not in seg.feature_names:
        raise KeyError(f"segment {segment!r} of {spec.name!r} has no feature {feature!r} (its features: "
                       f"{', '.join(seg.feature_names) or 'unnamed'})")
    if not 0 <= slot < seg.slots:
        raise KeyError(f"segment {segment!r} of {spec.name!r} has {seg.slots} slots, not a slot {slot}")
    return where[segment].start + slot * seg.features + seg.feature_names.index(feature)
