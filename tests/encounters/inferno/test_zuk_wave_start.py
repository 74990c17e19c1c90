"""The cutscene after wave 68: the Zuk wave starts on its own tile, whatever tile the run cleared wave 68 on."""

import numpy as np

from osrs_rl.encounters.inferno import arena as A
from osrs_rl.encounters.inferno import state as ST

from .helpers import act, commit, inferno


def test_the_zuk_wave_starts_on_its_tile_after_wave_68():
    """The cutscene after wave 68 puts the player on the Zuk fight's start tile, whatever tile it cleared 68 on.
    Regression: the run kept its tile."""
    env = inferno(start_wave=68, last_wave=69)
    s = env.states[0]
    s["monsters"]["state"] = np.where(s["monsters"]["state"] == ST.SLOT_ALIVE, ST.SLOT_DEAD, s["monsters"]["state"])
    s["p"]["x"], s["p"]["y"] = 3, 3
    s["dest_x"], s["dest_y"] = 28, 3           # a click 25 tiles off: still being walked to when the wave ends
    commit(env)
    for _ in range(ST.WAVE_GAP_TICKS + 2):
        env.step(act())
        if int(env.states[0]["wave"]) == 69:
            break
    assert int(env.states[0]["wave"]) == 69
    assert (int(env.states[0]["p"]["x"]), int(env.states[0]["p"]["y"])) == A.PLAYER_START_69
    assert int(env.states[0]["dest_x"]) == -1
