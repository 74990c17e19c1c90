"""Trainers side by side for the benchmark scripts (scripts/bench_*.py): one trainer per arm, built from an
encounter's preset with each arm's overrides, timed in turns by ``osrs_rl.runtime.bench.alternating_rates``."""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator

import torch

from osrs_rl.agent.config import load_config
from osrs_rl.runtime.bench import alternating_rates
from osrs_rl.train.ppo import Trainer


def arm_parser(description: str) -> argparse.ArgumentParser:
    """The options every iteration benchmark takes: ``--encounter`` (required), ``--config``, ``--rounds``
    (alternations) and ``--iterations`` (each arm's work each round)."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--encounter", required=True)
    p.add_argument("--config", help="a TOML config (default: the encounter's preset)")
    p.add_argument("--rounds", type=int, default=5, help="alternations (each arm runs --iterations each round)")
    p.add_argument("--iterations", type=int, default=3)
    return p


@contextlib.contextmanager
def arm_trainers(encounter: str, config: str | None, arms: dict[str, list[str]],
                 out_dir: str) -> Iterator[dict[str, Trainer]]:
    """``{arm: Trainer}`` for ``arms`` (name -> ``--section.key value`` overrides), writing nothing but under
    ``out_dir``; their env threads are closed on any exit."""
    trainers: dict[str, Trainer] = {}
    try:
        for arm, extra in arms.items():
            cfg = load_config(encounter, config, ["--run.out_dir", out_dir, "--log.console", "false",
                                                  "--log.replays", "false", *extra])
            trainers[arm] = Trainer(cfg, console=False)
        yield trainers
    finally:
        for t in trainers.values():
            t.close()


def rollout(t: Trainer) -> int:
    """One rollout as training collects it; returns the env steps it took."""
    t.model.eval()
    torch.set_num_threads(t.rollout_threads)
    t.collector.collect(t.store)
    return t.cfg.batch_steps


def update(t: Trainer) -> int:
    """One update on the trainer's last rollout, as training runs it; returns the samples it learned from."""
    torch.set_num_threads(t.learn_threads)
    t.update(0.1)
    return t.cfg.batch_steps


def iteration(t: Trainer) -> int:
    """A training iteration (rollout, then update); returns the env steps it took."""
    rollout(t)
    return update(t)


def warm_up(trainers: dict[str, Trainer], iterations: int) -> None:
    """``iterations`` training iterations of each arm: compile, leave the first ticks behind."""
    for t in trainers.values():
        for _ in range(iterations):
            iteration(t)


def print_rates(trainers: dict[str, Trainer], rates: dict[str, float], first: str = "the first",
                indent: str = "", width: int = 30) -> None:
    """One line per arm: its env steps per second, its ratio to the first arm's (``first`` names that arm)
    and the torch threads it rolled out and updated with."""
    base = next(iter(rates.values()))
    for arm, t in trainers.items():
        print(f"{indent}{arm:{width}s} {rates[arm]:>10,.0f} env steps/s  ({rates[arm] / base:.2f} of {first}; "
              f"rollout threads {t.rollout_threads}, update threads {t.learn_threads})")


def arm_rates(trainers: dict[str, Trainer], work, repeats: int, rounds: int) -> dict[str, float]:
    """Each arm's work per second (``work(trainer)`` returns env steps or samples: ``rollout``, ``update``,
    ``iteration``), ``repeats`` calls an arm's turn, ``rounds`` turns alternating between the arms."""
    return alternating_rates({arm: (lambda t=t: sum(work(t) for _ in range(repeats))) for arm, t in trainers.items()},
                             rounds)
