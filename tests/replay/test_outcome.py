"""Who won: a replay names its outcome (won, lost, killed, died, timed out) from the episode's final
metrics, in ``replay info``, the viewer's replay list and titles."""

import functools

import numpy as np
import pytest

from osrs_rl import cli
from osrs_rl.replay import record_policy_episode, save_replay
from osrs_rl.replay.outcome import outcome_from_metrics, outcome_metrics
from osrs_rl.replay.scene import scenes_for_replay
from osrs_rl.replay.viewer_data import summary
from osrs_rl.runtime.checks import random_legal_actions
from osrs_rl.runtime.registry import get_spec

# the final scene's outcome word (the encounter's scene builder) -> the words a replay may use for it
SCENE_WORDS = {"win": {"won", "killed"}, "loss": {"lost", "died"}, "draw": {"draw"}, None: {"timed out"}}


@functools.cache
def _episode(name: str, seed: int, max_ticks: int):
    rng = np.random.default_rng(seed)
    return record_policy_episode(name, {"max_ticks": max_ticks}, lambda env, o, i: random_legal_actions(env, rng),
                                 seed=seed)


@pytest.mark.parametrize("name, seed, max_ticks", [("template", 0, 300), ("template", 0, 10), ("pvp", 0, 300),
                                                   ("zulrah", 2, 300)])
def test_a_replay_names_who_won(name, seed, max_ticks, tmp_path, capsys):
    replay = _episode(name, seed, max_ticks)
    last = scenes_for_replay(replay)[-1]
    assert replay.outcome() in SCENE_WORDS[last["outcome"]], (replay.outcome(), last["outcome"])
    assert summary(replay, "x.orlr")["outcome"] == replay.outcome()
    path = save_replay(tmp_path / "r.orlr", replay)
    assert cli.main(["replay", "info", str(path)]) == 0
    assert replay.outcome() in capsys.readouterr().out


def test_outcome_words_from_each_encounters_flags():
    pvp, zulrah, template = get_spec("pvp"), get_spec("zulrah"), get_spec("template")
    assert outcome_metrics(zulrah) == ("killed", "died", "timed_out")          # each spec declares them
    assert outcome_metrics(pvp) == ("won", "lost", "draw")
    assert outcome_metrics(template) == ("won",)
    cases = [(pvp, {"won": 1, "lost": 0, "draw": 0}, True, False, "won"),
             (pvp, {"won": 0, "lost": 1, "draw": 0}, True, False, "lost"),
             (pvp, {"won": 0, "lost": 0, "draw": 0}, False, True, "timed out"),
             (zulrah, {"killed": 0, "died": 0, "timed_out": 1}, True, False, "timed out"),
             (zulrah, {"killed": 0, "died": 1, "timed_out": 0}, True, False, "died"),
             (template, {"won": 0}, True, False, "lost"),
             (template, None, False, False, "unfinished (recording stopped)")]
    for spec, metrics, term, trunc, word in cases:
        assert outcome_from_metrics(spec, metrics, term, trunc) == word, (spec.name, metrics)


def test_the_outcome_word_is_the_declared_metric_whatever_its_name():
    """A success named neither won nor killed (issue 16: ``cleared`` once read as 0 % wins, no error)."""
    import dataclasses

    from osrs_rl.replay.outcome import outcome_kind
    from osrs_rl.runtime.spec import MetricRecord, Outcome

    names = ("ticks", "damage_dealt", "damage_taken", "food_eaten", "cleared")
    spec = dataclasses.replace(get_spec("template"), name="cleared_fight", metric_record=MetricRecord(*names),
                               outcome=Outcome(success="cleared", length="ticks"))
    final = dict.fromkeys(names, 0) | {"cleared": 1}
    assert outcome_from_metrics(spec, final, True, False) == "cleared"
    assert outcome_kind(spec, final, True, False) == "success"
    assert outcome_kind(spec, final | {"cleared": 0}, True, False) == "failure"     # no failure metric declared
    assert outcome_kind(spec, final | {"cleared": 0}, False, True) == "timeout"
