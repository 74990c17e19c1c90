"""osrs_rl.train.bench: the benchmark scripts' trainers side by side, one per arm."""

import pytest
import torch

from osrs_rl.train.bench import arm_parser, arm_rates, arm_trainers, iteration, rollout, update, warm_up
from osrs_rl.train.rollout import Collector

SMALL = ["--env.num_envs", "8", "--ppo.horizon", "4", "--env.overlap", "true"]


def test_each_arm_is_a_trainer_with_its_overrides_and_their_env_threads_close_after(tmp_path):
    arms = {"plain": SMALL, "bf16": [*SMALL, "--model.train_precision", "bfloat16"]}
    with arm_trainers("template", None, arms, str(tmp_path)) as trainers:
        assert list(trainers) == ["plain", "bf16"]
        assert trainers["plain"].model.train_precision == "float32"
        assert trainers["bf16"].model.train_precision == "bfloat16"
        t = trainers["bf16"]
        before = [p.detach().clone() for p in t.model.parameters()]
        assert rollout(t) == t.cfg.batch_steps == 8 * 4
        assert update(t) == 32
        assert any(not torch.equal(a, b) for a, b in zip(before, t.model.parameters(), strict=True))
        assert iteration(trainers["plain"]) == 32
        assert all(t.collector._thread is not None for t in trainers.values())     # overlap: a worker each
    assert all(t.collector._thread is None for t in trainers.values())


def test_a_bad_arm_is_refused_and_the_trainers_already_made_are_closed(tmp_path, monkeypatch):
    closed = []
    close = Collector.close
    monkeypatch.setattr(Collector, "close", lambda self: (closed.append(self), close(self)))
    arms = {"plain": SMALL, "bad": [*SMALL, "--model.train_precision", "half"]}
    with pytest.raises(ValueError, match="model.train_precision must be float32, bfloat16 or auto"):
        with arm_trainers("template", None, arms, str(tmp_path)):
            pass
    assert len(closed) == 1 and closed[0]._thread is None


def test_the_benchmarks_options_need_an_encounter():
    args = arm_parser("timing").parse_args(["--encounter", "zulrah", "--rounds", "2"])
    assert (args.encounter, args.config, args.rounds, args.iterations) == ("zulrah", None, 2, 3)
    with pytest.raises(SystemExit):
        arm_parser("timing").parse_args([])


def test_arm_rates_time_each_arm_in_turns_after_a_warm_up(tmp_path):
    calls = []

    def work(t):
        calls.append(t)
        return 10

    with arm_trainers("template", None, {"a": SMALL, "b": SMALL}, str(tmp_path)) as trainers:
        before = {arm: [p.detach().clone() for p in t.model.parameters()] for arm, t in trainers.items()}
        warm_up(trainers, 2)
        for arm, t in trainers.items():                 # each arm rolled out and learned
            assert any(not torch.equal(x, y) for x, y in zip(before[arm], t.model.parameters(), strict=True))
        rates = arm_rates(trainers, work, repeats=3, rounds=2)
        a, b = trainers["a"], trainers["b"]
        assert calls == [a, a, a, b, b, b] * 2
        assert set(rates) == {"a", "b"} and all(r > 0 for r in rates.values())
