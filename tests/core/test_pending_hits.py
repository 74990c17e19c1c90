"""The fixed-capacity pending-hit queue (osrs_rl.core.pending_hits): order, capacity, determinism."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from osrs_rl.core.pending_hits import (
    FLAG_CHECK_PRAYER_ON_LANDING,
    HIT_DTYPE,
    HIT_FREE,
    HIT_LANDED,
    HIT_PENDING,
    STYLE_MAGIC,
    STYLE_MELEE,
    check_hit_queue,
    clear_queue,
    count_pending,
    new_hit_queue,
    pop_due,
    pop_due_for,
    push_hit,
    release_landed,
)


def push(q, due, damage, style=STYLE_MELEE, flags=0, heal_pct=0, freeze=0):
    return bool(push_hit(q, due, damage, style, 0, 1, flags, heal_pct, freeze))


def pop(q, tick):
    out = np.full(q.shape[0], -1, dtype=np.int64)
    n = pop_due(q, tick, out)
    return out[:n]


def test_fields_are_stored():
    q = new_hit_queue(4)
    assert push(q, 7, 29, STYLE_MAGIC, FLAG_CHECK_PRAYER_ON_LANDING, heal_pct=25, freeze=32)
    (i,) = pop(q, 7)
    h = q[i]
    assert (h["due_tick"], h["damage"], h["style"], h["heal_pct"], h["freeze_ticks"]) == (7, 29, STYLE_MAGIC, 25, 32)
    assert h["flags"] == FLAG_CHECK_PRAYER_ON_LANDING and h["state"] == HIT_LANDED


def test_order_is_due_tick_then_push_order():
    q = new_hit_queue(8)
    for due, dmg in [(5, 1), (3, 2), (5, 3), (4, 4), (3, 5)]:
        assert push(q, due, dmg)
    idx = pop(q, 5)
    assert list(q["damage"][idx]) == [2, 5, 4, 1, 3]


def test_only_due_hits_are_popped():
    q = new_hit_queue(8)
    push(q, 2, 10)
    push(q, 4, 20)
    assert list(q["damage"][pop(q, 1)]) == []
    assert list(q["damage"][pop(q, 3)]) == [10]
    assert count_pending(q) == 1
    assert list(q["damage"][pop(q, 4)]) == [20]
    assert count_pending(q) == 0


def test_capacity_full_returns_false():
    q = new_hit_queue(3)
    assert all(push(q, 1, d) for d in range(3))
    assert not push(q, 1, 99)
    assert count_pending(q) == 3


def test_landed_slots_survive_pushes_until_next_pop():
    # a reply hit (recoil, vengeance) pushed while landed hits are applied must not overwrite them
    q = new_hit_queue(3)
    push(q, 1, 10)
    push(q, 1, 11)
    push(q, 9, 12)
    landed = pop(q, 1)
    assert not push(q, 2, 99)                       # the only non-pending slots are landed
    assert list(q["damage"][landed]) == [10, 11]
    assert len(pop(q, 1)) == 0                      # frees the landed slots
    assert push(q, 2, 99) and push(q, 2, 98)


def test_release_and_clear():
    q = new_hit_queue(2)
    push(q, 1, 5)
    pop(q, 1)
    release_landed(q)
    assert (q["state"] == HIT_FREE).all()
    push(q, 3, 1)
    clear_queue(q)
    assert count_pending(q) == 0


def test_insertion_order_after_reuse_of_lower_slots():
    q = new_hit_queue(4)
    push(q, 1, 1)   # slot 0
    push(q, 5, 2)   # slot 1
    pop(q, 1)
    pop(q, 1)       # slot 0 free again
    push(q, 5, 3)   # slot 0, pushed after the hit in slot 1
    assert list(q["damage"][pop(q, 5)]) == [2, 3]


def _run(ops, capacity):
    q = new_hit_queue(capacity)
    log = []
    for tick, pushes in enumerate(ops):
        log.append(tuple(pop(q, tick)))
        for delay, dmg in pushes:
            log.append(push(q, tick + delay, dmg))
    return q.tobytes(), log


OPS = st.lists(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 50)), max_size=4), max_size=30)


@settings(max_examples=150, deadline=None)
@given(ops=OPS, capacity=st.integers(1, 8))
def test_deterministic(ops, capacity):
    assert _run(ops, capacity) == _run(ops, capacity)


@settings(max_examples=200, deadline=None)
@given(ops=OPS, capacity=st.integers(1, 8))
def test_pop_returns_exactly_the_due_pending_hits_in_order(ops, capacity):
    q = new_hit_queue(capacity)
    for tick, pushes in enumerate(ops):
        before = q.copy()
        idx = pop(q, tick)
        due = [i for i in range(capacity) if before[i]["state"] == HIT_PENDING and before[i]["due_tick"] <= tick]
        assert sorted(idx.tolist()) == due
        for i in idx:
            assert before[i]["state"] == HIT_PENDING    # never an inactive slot
        keys = [(before[i]["due_tick"], before[i]["seq"]) for i in idx]
        assert keys == sorted(keys)
        for delay, dmg in pushes:
            free = int((q["state"] == HIT_FREE).sum())
            assert push(q, tick + delay, dmg) == (free > 0)


def test_check_hit_queue_names_dtype():
    check_hit_queue(new_hit_queue(2))
    with pytest.raises(TypeError, match="HIT_DTYPE"):
        check_hit_queue(np.zeros(4, dtype=np.int32))
    with pytest.raises(TypeError, match="1-D"):
        check_hit_queue(np.zeros((2, 2), dtype=HIT_DTYPE))
    with pytest.raises(ValueError, match="capacity"):
        new_hit_queue(0)


def test_pop_due_for_lands_only_that_targets_hits_in_order():
    q = new_hit_queue(8)
    push_hit(q, 5, 10, STYLE_MELEE, 0, 1, 0, 0, 0)
    push_hit(q, 4, 20, STYLE_MELEE, 1, 0, 0, 0, 0)
    push_hit(q, 3, 30, STYLE_MELEE, 0, 1, 0, 0, 0)
    push_hit(q, 9, 40, STYLE_MELEE, 0, 1, 0, 0, 0)
    out = np.zeros(8, np.int64)
    n = pop_due_for(q, 5, 1, out)
    assert [int(q[i]["damage"]) for i in out[:n]] == [30, 10]     # due order, target 1 only
    assert count_pending(q) == 2                                  # the hit on 0 and the later one wait
    n = pop_due_for(q, 5, 0, out)                                 # frees the landed ones first
    assert [int(q[i]["damage"]) for i in out[:n]] == [20]
    assert int((q["state"] == HIT_FREE).sum()) == 6
