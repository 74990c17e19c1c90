"""Reward terms and events live in the state: the contract check refuses terms that do not add up to
the reward (written outside step, after the runtime summed them), a full event buffer counts what it
drops instead of writing past its end, and Zulrah's hits name the snakeling that threw them (the old
scene guessed it from attack timers)."""

import dataclasses

import numpy as np
import pytest
from numba import njit

import osrs_rl
from osrs_rl.core import events as E
from osrs_rl.encounters.template import view as TV
from osrs_rl.encounters.zulrah import state as ZS
from osrs_rl.runtime.checks import ContractError, check_encounter, random_legal_actions
from osrs_rl.runtime.registry import get_spec


@njit
def _observe_with_a_wrong_term(s, cfg, obs):
    TV.observe(s, cfg, obs)
    s.reward_terms[0, 0] += 0.5            # after the runtime summed the reward: a term the reward does not hold


def test_terms_that_do_not_add_up_are_refused():
    spec = dataclasses.replace(get_spec("template"), observe=_observe_with_a_wrong_term, name="wrong_terms")
    with pytest.raises(ContractError, match="reward terms"):
        check_encounter(spec, ticks=5)


def test_a_spec_needs_the_terms_field_it_declares():
    with pytest.raises(ValueError, match="reward_terms"):
        dataclasses.replace(get_spec("template"), reward_terms=("a", "b"))


@njit
def _fill(s, n):
    E.clear_events(s)
    for k in range(n):
        E.record_event(s, E.EV_HIT, 0, 1, 0, k, 0, 0, 0)


def test_a_full_buffer_counts_what_it_drops():
    dtype = np.dtype([("tick", np.int32), *E.event_fields(4), ("after", np.int64)])
    rec = np.zeros(1, dtype=dtype)
    rec["after"] = 12345                    # the field after the buffer: a write past its end shows here
    _fill(rec[0], 7)
    assert int(rec["event_count"][0]) == 4 and int(rec["events_lost"][0]) == 3
    assert rec["events"][0]["amount"].tolist() == [0, 1, 2, 3] and int(rec["after"][0]) == 12345
    assert E.live_events(rec[0])["amount"].tolist() == [0, 1, 2, 3]


def test_zulrah_hits_on_the_player_name_the_snakeling_that_attacked():
    """Every snakeling hit that lands came from an attack that snakeling's slot started, at most a magic
    delay earlier, and each is counted in the snakelings' damage tally."""
    env = osrs_rl.make("zulrah", num_envs=8, seed=11, max_ticks=600)
    env.reset()
    rng = np.random.default_rng(11)
    attacks: dict[tuple[int, int], list[int]] = {}        # (env, snakeling entity) -> attack ticks
    seen = 0
    for _ in range(600):
        before = env.states["damage_taken"][:, ZS.SRC_SNAKELINGS].copy()
        env.step(random_legal_actions(env, rng))
        for i in range(env.num_envs):
            s = env.states[i]
            landed = 0
            for e in E.live_events(s):
                src = int(e["source"])
                if not ZS.ENT_SNAKELING <= src < ZS.ENT_CLOUD:
                    continue
                if int(e["kind"]) == E.EV_ATTACK:
                    attacks.setdefault((i, src), []).append(int(e["tick"]))
                elif int(e["kind"]) == E.EV_HIT:
                    assert int(e["target"]) == ZS.ENT_PLAYER
                    started = attacks.get((i, src), [])
                    assert started and 0 <= int(e["tick"]) - started[-1] <= 10, (i, src, e)
                    landed += int(e["amount"])
                    seen += 1
            if int(s["tick"]) > 0:
                assert landed == int(s["damage_taken"][ZS.SRC_SNAKELINGS]) - int(before[i])
    assert seen > 0, "random play should meet a snakeling's attack"
