"""core.player: the record every encounter's player is, and its reset at the start of a fight."""

import numpy as np

from osrs_rl.core.player import PLAYER_DTYPE, RUN_ENERGY_MAX, SPEC_MAX, new_player, reset_player
from osrs_rl.core.skills import NUM_SKILLS


def test_reset_player_clears_every_field_a_fight_leaves_behind():
    """A record full of leftovers from a previous fight comes back as a fresh one: a field added to
    PLAYER_DTYPE and forgotten by ``reset_player`` fails here (equipment is the encounter's)."""
    rng = np.random.default_rng(0)
    dirty = np.zeros(1, dtype=PLAYER_DTYPE)
    for name in PLAYER_DTYPE.names:
        field = dirty[0][name]
        dirty[0][name] = rng.integers(1, 100, size=np.shape(field)).astype(PLAYER_DTYPE[name].base)
    levels = np.arange(NUM_SKILLS, dtype=np.int16) + 70
    reset_player(dirty[0], levels, 3, 4)
    want = new_player()
    want[0]["base_levels"] = levels
    want[0]["levels"] = levels
    want[0]["running"] = 1
    want[0]["x"], want[0]["y"] = 3, 4
    for name in PLAYER_DTYPE.names:
        if name != "equipment":
            assert np.array_equal(dirty[0][name], want[0][name]), name
    assert dirty[0]["spec_energy"] == SPEC_MAX and dirty[0]["run_energy"] == RUN_ENERGY_MAX


def test_heal_hitpoints_stops_at_base_and_keeps_boosts_and_death():
    from osrs_rl.core.player import heal_hitpoints
    from osrs_rl.core.skills import HITPOINTS

    p = new_player()[0]
    p["levels"][HITPOINTS] = 90
    assert heal_hitpoints(p, 25) == 9 and p["levels"][HITPOINTS] == 99      # capped at the base level
    p["levels"][HITPOINTS] = 50
    assert heal_hitpoints(p, 7) == 7 and p["levels"][HITPOINTS] == 57
    p["levels"][HITPOINTS] = 110                                            # a brewed boost is kept
    assert heal_hitpoints(p, 7) == 0 and p["levels"][HITPOINTS] == 110
    p["levels"][HITPOINTS] = 0                                              # the dead stay dead
    assert heal_hitpoints(p, 7) == 0 and p["levels"][HITPOINTS] == 0
    p["levels"][HITPOINTS] = 50
    assert heal_hitpoints(p, -3) == 0 and p["levels"][HITPOINTS] == 50
