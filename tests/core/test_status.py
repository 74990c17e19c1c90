"""Freeze, poison and venom (osrs_rl.core.status)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from osrs_rl.core.player import new_player
from osrs_rl.core.skills import HITPOINTS
from osrs_rl.core.status import (
    ICE_BARRAGE_FREEZE,
    ICE_BLITZ_FREEZE,
    ICE_BURST_FREEZE,
    ICE_RUSH_FREEZE,
    apply_freeze,
    apply_poison,
    apply_venom,
    can_move,
    cure_poison,
    cure_venom,
    tick_status,
)


def player(hp=99):
    return new_player({"hitpoints": hp})[0]


def run(p, ticks):
    """Tick ``ticks`` times; list of the damage taken each tick."""
    return [int(tick_status(p)) for _ in range(ticks)]


# ---- freeze ---------------------------------------------------------------------------------

def test_ice_spell_durations():
    # OSRS wiki "Ice spells": 4.8 / 9.6 / 14.4 / 19.2 seconds
    assert (ICE_RUSH_FREEZE, ICE_BURST_FREEZE, ICE_BLITZ_FREEZE, ICE_BARRAGE_FREEZE) == (8, 16, 24, 32)


def test_barrage_freeze_then_five_ticks_of_immunity():
    # OSRS wiki "Ice spells": immune from being frozen again for 5 ticks after the freeze expires;
    # Naton1 simulation-rsps CombatFactory.freeze: FREEZE_IMMUNITY = ticks + 5
    p = player()
    assert apply_freeze(p, ICE_BARRAGE_FREEZE, False)
    for _ in range(ICE_BARRAGE_FREEZE - 1):
        run(p, 1)
        assert not can_move(p)
        assert not apply_freeze(p, ICE_BARRAGE_FREEZE, False)
    run(p, 1)
    assert can_move(p)
    for _ in range(5):
        assert not apply_freeze(p, ICE_BARRAGE_FREEZE, False)
        run(p, 1)
    assert apply_freeze(p, ICE_BARRAGE_FREEZE, False)


def test_protect_from_magic_halves_pvp_freeze():
    # wiki spell pages as remembered [L]: Protect from Magic halves freezes on players
    p = player()
    assert apply_freeze(p, ICE_BARRAGE_FREEZE, True)
    assert p["freeze_ticks"] == 16 and p["freeze_immunity_ticks"] == 21


# ---- poison ---------------------------------------------------------------------------------

def test_poison_every_30_ticks_and_decays_every_5_hits():
    # OSRS wiki "Poison": every 18 seconds (30 ticks), damage falls by 1 after every 5 hits
    p = player()
    p["levels"][HITPOINTS] = 200                    # enough to see the poison wear off
    assert apply_poison(p, 6)
    dealt = run(p, 30 * 31)
    hits = [(t, d) for t, d in enumerate(dealt, start=1) if d]
    assert [t for t, _ in hits][:3] == [30, 60, 90]
    assert [d for _, d in hits] == [6] * 5 + [5] * 5 + [4] * 5 + [3] * 5 + [2] * 5 + [1] * 5
    assert p["poison_damage"] == 0
    assert p["levels"][HITPOINTS] == 200 - 105


def test_weaker_poison_does_not_replace_stronger():
    p = player()
    assert apply_poison(p, 6)
    assert not apply_poison(p, 4)
    assert apply_poison(p, 8)
    assert p["poison_damage"] == 8


def test_poison_immunity_blocks():
    p = player()
    cure_poison(p, 100)
    assert not apply_poison(p, 6)
    run(p, 100)
    assert apply_poison(p, 6)


def test_poison_cannot_take_hitpoints_below_zero():
    p = player()
    p["levels"][HITPOINTS] = 3
    apply_poison(p, 6)
    assert sum(run(p, 30)) == 3
    assert p["levels"][HITPOINTS] == 0
    assert sum(run(p, 60)) == 0


# ---- venom ----------------------------------------------------------------------------------

def test_venom_table():
    # OSRS wiki "Venom": total damage at 18 s steps 6, 14, 24, 36, 50, 66, 84, 104, 124
    p = player()
    p["levels"][HITPOINTS] = 500                    # enough to see the whole table
    assert apply_venom(p)
    dealt = run(p, 30 * 9)
    totals = np.cumsum([d for d in dealt if d]).tolist()
    assert totals == [6, 14, 24, 36, 50, 66, 84, 104, 124]


def test_antipoison_turns_venom_into_poison_of_same_damage():
    # OSRS wiki "Venom": "convert the venom to regular poison, which starts at the same damage"
    p = player()
    apply_venom(p)
    run(p, 90)                                      # three hits: next damage 12
    cure_poison(p, 0)
    assert p["venom"] == 0 and p["poison_damage"] == 12
    cure_poison(p, 0)
    assert p["poison_damage"] == 0


def test_anti_venom_immunity():
    # OSRS wiki "Venom": anti-venom+ gives three minutes of venom immunity
    p = player()
    apply_venom(p)
    cure_venom(p, 300, 0)
    assert p["venom"] == 0 and p["poison_damage"] == 0
    assert not apply_venom(p)
    run(p, 300)
    assert apply_venom(p)


def test_venom_replaces_poison_but_not_the_reverse():
    p = player()
    apply_poison(p, 10)
    assert apply_venom(p)
    assert p["poison_damage"] == 6
    assert not apply_poison(p, 15)


# ---- properties -----------------------------------------------------------------------------

EVENTS = st.lists(st.tuples(st.sampled_from(["freeze", "pfm", "poison", "venom", "anti", "antivenom", "tick"]),
                            st.integers(0, 40)), max_size=60)


@settings(max_examples=200, deadline=None)
@given(events=EVENTS, hp=st.integers(1, 99))
def test_status_invariants(events, hp):
    p = player(hp)
    for kind, n in events:
        if kind == "freeze":
            apply_freeze(p, n, False)
        elif kind == "pfm":
            apply_freeze(p, n, True)
        elif kind == "poison":
            apply_poison(p, n % 21)
        elif kind == "venom":
            apply_venom(p)
        elif kind == "anti":
            cure_poison(p, n)
        elif kind == "antivenom":
            cure_venom(p, n, n)
        else:
            before = int(p["levels"][HITPOINTS])
            dealt = sum(run(p, n))
            assert before - dealt == p["levels"][HITPOINTS]
        assert 0 <= p["levels"][HITPOINTS] <= hp
        assert 0 <= p["freeze_ticks"] <= p["freeze_immunity_ticks"]
        assert 0 <= p["poison_damage"] <= 20
        assert p["venom"] in (0, 1)
