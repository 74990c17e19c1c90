"""NH PvP: PID is hidden from the actor: only the critic's privileged segment shows who has it."""

import numpy as np

from osrs_rl.encounters.pvp import spec as PS
from osrs_rl.encounters.pvp import view as V
from tests.encounters.test_pvp_rules import duel


def _observe(env, me):
    o = np.zeros(V.OBS_SIZE, dtype=np.float32)
    V.observe_player(env.states[0], env.config[0], me, o)
    return o


# ---- 9. PID is hidden from the actor ---------------------------------------------------------------
def test_pid_is_only_in_the_privileged_segment():
    env = duel("max_main")
    privileged = slice(V.OBS_SIZE - V.PRIVILEGED_FEATURES, V.OBS_SIZE)
    for me in range(2):
        views = []
        for first in range(2):
            env.states[0]["first"] = first
            views.append(_observe(env, me))
        # what a player sees does not change with PID; the critic's segment does
        assert (views[0][:privileged.start] == views[1][:privileged.start]).all()
        pid = V.PRIVILEGED_NAMES.index("pid")
        assert views[0][privileged][pid] != views[1][privileged][pid]
    names = [seg.name for seg in PS.SPEC.obs_segments]
    assert names[-1] == "privileged" and "pid" in PS.SPEC.obs_segments[-1].feature_names
    assert sum(seg.size for seg in PS.SPEC.obs_segments) == V.OBS_SIZE
