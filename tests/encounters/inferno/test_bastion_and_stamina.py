"""Inferno potions beyond brews and restores: the Bastion potion's boosts and the Stamina potion's run energy."""

import numpy as np

from osrs_rl.encounters.inferno import state as ST

from .helpers import act, commit, empty_arena, inferno, keeper


# ---- supplies ---------------------------------------------------------------------------------------------
def test_bastion_boosts_ranged_and_defence_and_stamina_restores_run_energy():
    """consumables.json: Bastion potion ranged +4 + 10 %, defence +5 + 15 %; Stamina potion +20 % run energy
    and 200 ticks of slower drain (OSRS wiki 'Energy')."""
    from osrs_rl.core.skills import DEFENCE, RANGED

    env = inferno(bastions=1, staminas=1)
    empty_arena(env, player=(15, 15))
    keeper(env)
    env.states[0]["p"]["run_energy"] = 1000
    commit(env)
    env.step(act(drink=1 + ST.SUP_BASTION))
    p = env.states[0]["p"]
    assert int(p["levels"][RANGED]) == 99 + 4 + 9 and int(p["levels"][DEFENCE]) == 99 + 5 + 14
    assert int(env.states[0]["supplies"][ST.SUP_BASTION]) == 0
    assert not np.ravel(env.head_masks()["drink"][0])[1 + ST.SUP_BASTION]   # bastion: none left (and the potion timer)
    for _ in range(3):
        env.step(act())
    energy = int(env.states[0]["p"]["run_energy"])
    env.step(act(drink=1 + ST.SUP_STAMINA))
    p = env.states[0]["p"]
    assert int(p["run_energy"]) >= energy + 2000 and int(p["stamina_ticks"]) > 190
