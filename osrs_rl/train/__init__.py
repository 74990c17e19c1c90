"""PPO for every encounter: rollout, advantage, losses, optimizers, logging, evaluation and the self-play
league, over the agent of ``osrs_rl.agent`` (settings, models, distributions, checkpoints). Nothing here
knows an encounter by name: the encounter's spec (heads, observation layout, metrics, phases) is all the
trainer reads.

``osrs_rl.train.run(config)`` is a whole run in one call (train, evaluate, write ``eval.json`` and the
replays: what ``osrs-rl train`` does; ``osrs_rl.train.runner``), returning a ``RunResult``."""

# run and RunResult load the trainer (torch) when first asked for, not whenever a module of this package is
# imported (the CLI imports small ones, e.g. distributed, for commands that never train)
def __getattr__(name: str):
    if name in ("run", "RunResult"):
        from osrs_rl.train import runner

        return getattr(runner, name)
    raise AttributeError(f"module 'osrs_rl.train' has no attribute {name!r}")


__all__ = ["run", "RunResult"]
