"""Shared kernels compile once per argument layout, not once per caller's integer type or literal value.

Numba compiles a separate version of a jitted function for every distinct argument type it is
called with from compiled code, and a literal constant (``f(x, 1)``) counts as its own type. Each
version costs a full compile (a cold start of the main job compiled ``_can_step_diagonal`` five
times), so the entry points cast their arguments to int64 before calling their helpers. These tests
call the entry points with the argument types the encounters use (int16 record fields, literal
sizes and steps) and check that no helper gains a compiled version.

Each test types its entry points in this process (``typed_here``): one loaded from Numba's disk cache, which
persists across runs of an unchanged tree (docs/guide/conventions.md), never types its body, so it would
neither compile its helpers nor show a wrong caller type.
"""

import sys

import numpy as np
from numba import njit

from osrs_rl.core import collision, formula, movement, rng
from osrs_rl.core.damage import roll_npc_damage


def typed_here(monkeypatch, module, *names):
    """Swap the named kernels of ``module`` for uncached copies for this test, typed (with the helpers they
    call) the first time a caller compiles."""
    for name in names:
        monkeypatch.setattr(module, name, njit(getattr(module, name).py_func))

_TILE = np.dtype([("x", np.int16), ("y", np.int16), ("flags", np.uint16, (6, 6)), ("rng", np.uint64, (1,))])


def _record():
    rec = np.zeros(1, dtype=_TILE)
    rec[0]["x"], rec[0]["y"] = 2, 2
    return rec


@njit
def _steps_int64(rec):
    s = rec[0]
    x, y = np.int64(s.x), np.int64(s.y)
    return (collision.can_step(s.flags, x, y, np.int64(1), np.int64(1), np.int64(1))
            + collision.can_step(s.flags, x, y, np.int64(1), np.int64(1), np.int64(0))
            + collision.can_step(s.flags, x, y, np.int64(1), np.int64(0), np.int64(1)))


@njit
def _steps_mixed(rec):
    s = rec[0]
    # int16 fields and literals, as the encounters pass them
    return (collision.can_step(s.flags, s.x, s.y, 1, 1, 1) + collision.can_step(s.flags, s.x, s.y, 1, -1, 0)
            + collision.can_step(s.flags, np.int64(s.x), np.int64(s.y), 2, 0, -1))


def test_collision_helpers_compile_once_for_every_caller_type(monkeypatch):
    typed_here(monkeypatch, collision, "can_step")
    rec = _record()
    assert _steps_int64(rec) == 3
    helpers = (collision._can_step_x, collision._can_step_y, collision._can_step_diagonal, collision._enterable,
               collision.flag_at, collision._back_wall_x, collision._back_wall_y)
    before = {h.py_func.__name__: len(h.signatures) for h in helpers}
    assert _steps_mixed(rec) == 3
    assert {h.py_func.__name__: len(h.signatures) for h in helpers} == before


@njit
def _gaps_int64(a, b):
    return movement.chebyshev_distance(a, a, a, b, b, a) + movement.overlaps(a, a, a, b, b, a)


@njit
def _gaps_mixed(rec):
    s = rec[0]
    return movement.chebyshev_distance(s.x, s.y, 1, s.x, s.y, 3) + movement.overlaps(s.x, 1, 1, s.y, 5, 1)


def test_axis_gap_compiles_once_for_every_caller_type(monkeypatch):
    typed_here(monkeypatch, movement, "chebyshev_distance", "overlaps")
    _gaps_int64(np.int64(1), np.int64(4))
    before = len(movement.axis_gap.signatures)
    _gaps_mixed(_record())
    assert len(movement.axis_gap.signatures) == before


@njit
def _formula_int64(trace, x, k):
    return (formula.factor(trace, formula.Step.HIT_CAP, x, k, k) + formula.add(trace, formula.Step.HIT_CAP, x, k)
            + formula.note(trace, formula.Step.HIT_CAP, x))


@njit
def _formula_literals(trace, x):
    return (formula.factor(trace, formula.Step.HIT_CAP, x, 11, 10)
            + formula.factor(trace, formula.Step.HIT_CAP, x, 9, 8) + formula.add(trace, formula.Step.HIT_CAP, x, 3)
            + formula.note(trace, formula.Step.HIT_CAP, np.int32(x)))


def test_formula_steps_share_one_trunc_div_and_one_record(monkeypatch):
    typed_here(monkeypatch, formula, "factor", "add", "note")
    trace = formula.new_trace()
    _formula_int64(trace, np.int64(50), np.int64(7))
    before = (len(formula.trunc_div.signatures), len(formula.record.signatures))
    assert _formula_literals(trace, np.int64(50)) == 55 + 56 + 53 + 50     # trunc(550/10), trunc(450/8), 50+3, 50
    assert (len(formula.trunc_div.signatures), len(formula.record.signatures)) == before


@njit
def _rolls_int64(rec, n):
    r = rec[0].rng
    return rng.chance(r, n, n) + roll_npc_damage(r, n)


@njit
def _rolls_mixed(rec):
    r = rec[0].rng
    return rng.chance(r, 3, 10) + rng.chance(r, 1, 4) + roll_npc_damage(r, 41) + roll_npc_damage(r, np.int32(7))


def test_rolls_share_one_below_and_one_inclusive(monkeypatch):
    typed_here(monkeypatch, rng, "chance")
    typed_here(monkeypatch, sys.modules[__name__], "roll_npc_damage")
    rec = _record()
    _rolls_int64(rec, np.int64(5))
    before = (len(rng.below.signatures), len(rng.inclusive.signatures))
    _rolls_mixed(rec)
    assert (len(rng.below.signatures), len(rng.inclusive.signatures)) == before
