"""Floored formula steps with an optional trace, so every combat number can be explained.

The game computes combat in Java ints: each "multiply by a/b" is ``trunc(x * a / b)`` applied at
once, and the order of the steps matters (as weirdgloop/osrs-dps-calc ``BaseCalc.trackFactor``
applies them: ``Math.trunc(base * num / den)`` per step). Kernels call :func:`factor`, :func:`add` and
:func:`record` with a stable :class:`Step` label; when the caller passes a trace buffer with rows,
each step is written as ``(label, input, num, den, output)`` and ``osrs_rl.calc`` prints them.
Hot paths pass the read-only :data:`NO_TRACE`, for which the recording compiles to nothing.
"""

from enum import IntEnum

import numpy as np
from numba import njit, types
from numba.extending import overload

TRACE_COLS = 5          # label, input, num, den, output
MAX_TRACE_STEPS = 64


class Step(IntEnum):
    """Labels of traced steps (an IntEnum, which Numba reads as integer constants)."""

    EFFECTIVE_LEVEL = 0        # visible level after the prayer multiplier
    STANCE_BONUS = 1           # + stance bonus
    LEVEL_CONSTANT = 2         # + 8 (or + 9 for magic accuracy)
    VOID = 3                   # void knight multiplier
    ATTACK_ROLL = 4            # effective level * (bonus + 64)
    DEFENCE_ROLL = 5           # (level + 9) * (bonus + 64), or the player's defence roll
    MAX_HIT_BASE = 6           # (eff_str * (str_bonus + 64) + 320) / 640
    GEAR_MULTIPLIER = 7        # salve, slayer helm, ...
    TWISTED_BOW_ACCURACY = 8
    TWISTED_BOW_DAMAGE = 9
    SPELL_BASE = 10            # spell or powered staff base max hit
    MAGIC_DAMAGE_BONUS = 11    # + base * magic damage / 1000
    SPECIAL_ACCURACY = 12
    SPECIAL_DAMAGE = 13
    SPECIAL_DEFENCE = 14       # special attack that rolls against part of the defence
    MAGIC_DEFENCE_MIX = 15     # 70% magic, 30% defence for a player's magic defence
    DEFENCE_PRAYER = 16
    NPC_MAX_HIT = 17
    HIT_CAP = 18
    PVP_PROTECTION = 19
    SHADOW_MULTIPLIER = 20     # Tumeken's shadow triples gear magic attack and damage
    STRENGTH_BONUS = 21        # equipment strength bonus used (e.g. blowpipe plus dart)
    BOLT_EFFECT = 22


STEP_NAMES = {int(s): s.name.lower() for s in Step}


@njit(cache=True)
def trunc_div(a, b):
    """Integer division rounding toward zero, as Java's ``/`` on ints does."""
    q = a // b
    if q < 0 and q * b != a:
        q += 1
    return q


def _record(trace, label, x, num, den, out):
    """Python stand-in; kernels use the overload below."""
    raise NotImplementedError("record() is only callable from compiled code")


@overload(_record, jit_options={"cache": True})
def _record_impl(trace, label, x, num, den, out):
    if isinstance(trace, types.Array) and not trace.mutable:
        # a read-only trace (NO_TRACE) compiles to nothing: hot paths pay no cost at all
        return lambda trace, label, x, num, den, out: None

    def impl(trace, label, x, num, den, out):
        if trace.shape[0] > 1:
            n = trace[0, 0] + 1
            if n < trace.shape[0]:
                trace[n, 0] = label
                trace[n, 1] = x
                trace[n, 2] = num
                trace[n, 3] = den
                trace[n, 4] = out
                trace[0, 0] = n
    return impl


@njit(cache=True)
def record(trace, label, x, num, den, out):
    """Append one step to ``trace`` if it is writable and has rows; row 0 holds the count."""
    _record(trace, label, x, num, den, out)


@njit(cache=True)
def factor(trace, label, x, num, den):
    """``trunc(x * num / den)``, traced."""
    # int64 arguments (callers pass literals and int32 fields): trunc_div and record compile once
    out = trunc_div(np.int64(x * num), np.int64(den))
    record(trace, label, np.int64(x), np.int64(num), np.int64(den), out)
    return out


@njit(cache=True)
def add(trace, label, x, k):
    """``x + k``, traced (``num`` holds ``k``, ``den`` is 0 to mark an addition)."""
    out = x + k
    record(trace, label, np.int64(x), np.int64(k), np.int64(0), np.int64(out))
    return out


@njit(cache=True)
def note(trace, label, value):
    """Record a value computed elsewhere (``den`` is -1 to mark a plain note)."""
    record(trace, label, np.int64(value), np.int64(0), np.int64(-1), np.int64(value))
    return value


def new_trace(steps: int = MAX_TRACE_STEPS) -> np.ndarray:
    """A trace buffer with room for ``steps`` steps."""
    return np.zeros((steps + 1, TRACE_COLS), dtype=np.int64)


NO_TRACE = np.zeros((0, TRACE_COLS), dtype=np.int64)
NO_TRACE.setflags(write=False)
"""Pass this (a read-only global, so Numba freezes it as a constant) where no trace is wanted."""


def no_trace() -> np.ndarray:
    """An empty writable buffer: nothing is recorded (the same as NO_TRACE, for Python callers)."""
    return np.zeros((0, TRACE_COLS), dtype=np.int64)


def format_trace(trace: np.ndarray) -> list[str]:
    """Human-readable lines such as ``effective_level: 99 * 123 / 100 = 121``."""
    lines = []
    for label, x, num, den, out in trace[1 : trace[0, 0] + 1]:
        name = STEP_NAMES.get(int(label), str(label))
        if den == 0:
            lines.append(f"{name}: {x} + {num} = {out}")
        elif den == -1:
            lines.append(f"{name}: {out}")
        else:
            lines.append(f"{name}: {x} * {num} / {den} = {out}")
    return lines
