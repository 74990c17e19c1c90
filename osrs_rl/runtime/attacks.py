"""What can hurt the player: every attack an encounter's sources make, with its max hit, checked when a config
is built (part of the spec contract, ``EncounterSpec.attacks``).

An encounter declares ``attacks(config_record) -> Sequence[Attack]``: one row per (source, style) that the
kernels can aim at the player, the ``max_hit`` the kernels will roll it with (read from the filled config, so
the row says what the simulation does, not what a comment hopes). :func:`check_attacks` refuses a config in
which any declared attack has a max hit below 1: a style that can land and can never hurt is the kind of hole a
policy farms (an attack rolled as ``inclusive(-1)`` deals 0 through every prayer) and nothing else would see.

The same rows tell ``osrs-rl audit`` which (source, style) pairs should hurt a policy that does not pray
against them (``osrs_rl.runtime.truth``).
"""

from __future__ import annotations

from dataclasses import dataclass

from osrs_rl.runtime.config import ConfigError

STYLE_NAMES = ("melee", "ranged", "magic", "typeless")    # core.pending_hits STYLE_* order


@dataclass(frozen=True)
class Attack:
    """One way a source can hurt the player: ``source`` (a monster kind, a form, a hazard), ``style`` (one of
    :data:`STYLE_NAMES`), the ``max_hit`` the kernels roll it with, and where that number comes from."""

    source: str
    style: str
    max_hit: int
    cite: str = ""

    @property
    def pair(self) -> str:
        return f"{self.source}/{self.style}"


def check_attacks(spec, config_record) -> tuple[Attack, ...]:
    """The spec's declared attacks under ``config_record``; ConfigError naming the first attack whose max hit is
    below 1 or whose style is unknown."""
    if spec.attacks is None:
        return ()
    rows = tuple(spec.attacks(config_record))
    for a in rows:
        if not isinstance(a, Attack):
            raise ConfigError(f"encounter {spec.name!r}: attacks() must return osrs_rl.runtime.attacks.Attack rows, "
                              f"got {type(a).__name__}")
        if a.style not in STYLE_NAMES:
            raise ConfigError(f"encounter {spec.name!r}: attack {a.pair} has style {a.style!r}, not one of "
                              f"{STYLE_NAMES}")
        if int(a.max_hit) < 1:
            raise ConfigError(f"encounter {spec.name!r}: {a.source}'s {a.style} attack has max hit {int(a.max_hit)}: "
                              f"every attack that can land must be able to hurt (give it a max hit from the data "
                              f"tables or the NPC formula{', ' + a.cite if a.cite else ''})")
    pairs = [a.pair for a in rows]
    if len(set(pairs)) != len(pairs):
        raise ConfigError(f"encounter {spec.name!r}: attacks() lists a (source, style) pair twice: {pairs}")
    return rows
