"""A blob's split as an archive sees it: the ticks between its death and its bloblets are neither ahead of the
state after the split (progress) nor another cell than the state before its death (cell key)."""

import pytest

from osrs_rl.encounters.inferno import state as ST
from osrs_rl.runtime.registry import get_spec

from .helpers import act, empty_arena, inferno, keeper, put


def test_killing_a_blob_never_looks_like_more_progress_before_its_split_than_after_it():
    """Between a blob's death and its bloblets (kinds.BLOBLET_DELAY) the archive's progress counts the
    bloblets to come (view.work_left) and the cell key counts the dying blob as left, so the states of those
    ticks are neither ahead of the state after the split nor another situation than the one before the death.
    Regression: both counted monsters alive, so those 3 ticks looked like more progress than what followed."""
    from osrs_rl.encounters.inferno import kinds as KIN
    from osrs_rl.encounters.inferno import spawns as SPN
    from osrs_rl.encounters.inferno import view as V

    spec = get_spec("inferno")
    env = inferno()
    empty_arena(env, player=(12, 14))
    keeper(env)
    put(env, 0, ST.K_BLOB, 5, 5, hp=1, stun=100)
    cfg = env.config[0]

    def now():
        return env.states[0:1][0]

    for _ in range(40):
        key_alive, progress_alive = spec.cell_key(now(), cfg), spec.progress(now(), cfg)   # the blob's last tick
        env.step(act(attack=1))
        if int(env.states[0]["monsters"][0]["state"]) == ST.SLOT_DEAD:
            break
    assert int(now()["monsters"][0]["split_due"]) > 0
    assert SPN.monsters_alive(now()) == 1 and SPN.wave_left(now()) == 2 and V.work_left(now()) == 1 + 3
    dying = spec.progress(now(), cfg)
    assert dying > progress_alive and spec.cell_key(now(), cfg) == key_alive
    # the keeper and 3 bloblets to come of 64, plus the ties' most (hitpoints full, no dose drunk)
    assert dying == pytest.approx(int(now()["wave"]) + 0.5 * (V.MOST_WORK - 4) / V.MOST_WORK + 0.09)
    for _ in range(KIN.BLOBLET_DELAY):
        env.step(act())
        assert spec.progress(now(), cfg) == pytest.approx(dying)
    assert SPN.monsters_alive(now()) == 4 and V.work_left(now()) == 4         # the split came: no step back
