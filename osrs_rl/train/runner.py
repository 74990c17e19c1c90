"""A whole training run in one call, ``osrs_rl.train.run``: what ``osrs-rl train ENCOUNTER ...`` does, from
Python, writing the same files.

    import osrs_rl.train
    from osrs_rl.agent.config import load_config

    cfg = load_config("template", overrides=["--run.total_steps", "20000", "--run.eval_episodes", "64"])
    result = osrs_rl.train.run(cfg)          # console=True: the dashboard, the evaluation table, as the CLI
    result.run_dir                           # runs/template-<date>-<time>: config.json, TensorBoard events,
                                             # checkpoint.pt, eval.json, replays/ (and replays/train/)
    result.checkpoint                        # run_dir/checkpoint.pt: osrs_rl.agent.policy.load_policy reads it
    result.eval_summary["default"]["win_rate"]   # per opponent, as logged under eval/<opponent>/...

``run`` trains (``ppo.Trainer``: checkpoints, logs, training replays, Ctrl-C saves), then, on rank 0 and
when ``run.eval_episodes`` > 0, evaluates the policy (``final_evaluation``: that many episodes per opponent
from seed ``run.seed + 1``), writes ``eval.json`` (``evaluate.save_rows``: its rows with the provenance of
the code), logs the evaluation's ``EVAL_SCALARS`` to TensorBoard at the step the training ended (with
``log.tensorboard``), and saves ``REPLAYS_PER_OPPONENT`` replays of evaluation episodes per opponent in
``replays/`` (seed ``run.seed + 2``). The run folder stays claimed until its last file is written.
Exceptions pass through as the trainer raises them (KeyboardInterrupt after its checkpoint is saved,
``NonFiniteError``, ``DistributedError``, OSError); the caller says what they mean (the CLI does).
"""

from __future__ import annotations

import contextlib
import math
import os
from dataclasses import dataclass, field
from pathlib import Path

from osrs_rl.agent.config import TrainConfig
from osrs_rl.agent.policy import Policy, eval_env_config, training_opponents
from osrs_rl.train import evaluate as evaluation
from osrs_rl.train.distributed import Dist
from osrs_rl.train.evaluate import EvalRow, print_table, progress_bar, save_replays, save_rows
from osrs_rl.train.ppo import Trainer

EVAL_SCALARS = ("win_rate", "low", "high", "loss_rate", "mean_ticks", "mean_return")   # EvalRow fields logged
REPLAYS_PER_OPPONENT = 2
EVAL_NAME = "eval.json"
REPLAYS_DIR = "replays"


@dataclass
class RunResult:
    """What a run left: where, its checkpoint, how far it trained, and its final evaluation."""

    run_dir: Path
    checkpoint: Path                  # the run's checkpoint (rank 0 writes it; under torchrun the job's)
    global_step: int                  # env steps trained (over every rank)
    scalars: dict                     # the last logged scalars ({} on a rank other than 0)
    eval_rows: list[EvalRow] = field(default_factory=list)    # the final evaluation; [] without one
    replays: list[Path] = field(default_factory=list)         # replays of evaluation episodes (``replays/``)
    training_replays: Path | None = None   # where the training episodes' replays went (``log.replays``)
    policy: Policy | None = None      # the trained policy, in eval mode (rank 0): play or evaluate it further

    @property
    def eval_path(self) -> Path | None:
        """``eval.json``, when the run evaluated."""
        return self.run_dir / EVAL_NAME if self.eval_rows else None

    @property
    def eval_summary(self) -> dict[str, dict[str, float | None]]:
        """Per opponent, the evaluation's ``EVAL_SCALARS`` (a rate the encounter does not declare, None), the
        numbers logged as ``eval/<opponent>/<name>``; {} without an evaluation."""
        return {r.opponent: {k: _number(getattr(r, k)) for k in EVAL_SCALARS} for r in self.eval_rows}


def _number(x: float) -> float | None:
    return None if isinstance(x, float) and math.isnan(x) else x


def trained_policy(trainer: Trainer) -> Policy:
    """The trainer's model as a Policy, in eval mode, under the settings the evaluation plays
    (``run.eval_config`` over ``env.config``) and against the tiers it trained with."""
    trainer.model.eval()
    return Policy(trainer.model, trainer.spec.name, eval_env_config(trainer.cfg), training_opponents(trainer.cfg))


def final_evaluation(policy: Policy, cfg: TrainConfig, episodes: int | None = None, progress=None) -> list[EvalRow]:
    """A run's final evaluation of ``policy``: ``episodes`` (default ``run.eval_episodes``) per opponent, from
    seed ``run.seed + 1`` (apart from the training envs' seeds); a sweep's ``"eval"`` objective plays it too."""
    n = cfg.run.eval_episodes if episodes is None else episodes
    return evaluation.evaluate(policy, episodes=n, seed=cfg.run.seed + 1, progress=progress)


def run(config: TrainConfig | Trainer, *, resume: str | os.PathLike | None = None, console=None,
        dist: Dist | None = None, on_log=None, evaluate: bool = True) -> RunResult:
    """Train ``config`` and evaluate the result, writing what ``osrs-rl train`` writes (module docstring).

    ``config``: the run's settings (``agent.config.load_config``; a resume's: ``ppo.resume_config``), or a
    ``Trainer`` already built from them (the CLI builds it first, to tell a refused setting from a failed
    run; ``resume``, ``dist`` and ``on_log`` then go to the Trainer, not here). ``resume``: a checkpoint to
    continue from. ``console``: None (nothing printed), True or a ``rich`` Console: the trainer's dashboard
    (where ``log.console``), where the run writes, the evaluation's progress and table. ``dist``: this
    process's place in a torchrun job (default: from torchrun's variables); rank 0 evaluates and writes, the
    other ranks only train. ``on_log(step, scalars)``: the trainer's hook (a true return ends the training
    there, saved as a finished run). ``evaluate``: False leaves out the final evaluation, its files and
    replays (a sweep scores its trials itself); ``result.policy`` is there all the same.

    The Trainer is closed (its run folder freed) when this returns or raises."""
    from rich.console import Console

    out = Console() if console is True else (console or None)
    if isinstance(config, Trainer):
        given = [name for name, value in (("resume", resume), ("dist", dist), ("on_log", on_log)) if value is not None]
        if given:
            raise ValueError(f"run(trainer): {', '.join(given)} belong to the Trainer, which is built already")
        trainer = config
    else:
        trainer = Trainer(config, resume=resume, console=out or False, dist=dist, on_log=on_log, hold_folder=True)
    trainer.hold_folder = True          # eval.json and the replays go in after the training
    try:
        if out is not None and trainer.dist.is_main:
            _announce(trainer, out)
        scalars = trainer.train()
        result = RunResult(trainer.run_dir, trainer.checkpoint_path(), trainer.global_step, scalars,
                           training_replays=trainer.training_replays.folder if trainer.training_replays else None)
        if not trainer.dist.is_main:    # rank 0 evaluates and writes for the job
            return result
        result.policy = trained_policy(trainer)
        if evaluate and trainer.cfg.run.eval_episodes > 0:
            result.eval_rows, result.replays = _evaluate_and_save(trainer, result.policy, out)
        return result
    finally:
        trainer.close()


def _announce(trainer: Trainer, out) -> None:
    """Where the run writes, from which step and with which code, before its dashboard starts."""
    from osrs_rl.io.provenance import describe

    def say(text: str) -> None:             # paths: no markup, no line breaks inside them
        out.print(text, markup=False, soft_wrap=True)

    where, cfg = trainer.dist, trainer.cfg
    if where.enabled:
        say(f"rank 0 of {where.world_size}: {cfg.env.num_envs:,} envs per rank, "
            f"{where.world_size * cfg.batch_steps:,} steps a rollout over all ranks")
    if trainer.resume_payload is not None:
        say(f"resuming {trainer.resume_source} at step {trainer.global_step:,} of {cfg.run.total_steps:,}; "
            f"this run writes to {trainer.run_dir}")
    else:
        say(f"this run writes to {trainer.run_dir}")
    say(f"code: osrs-rl {describe()}")
    if cfg.model.train_precision == "auto":
        from osrs_rl.agent.models import train_dtype

        chosen = "bfloat16" if train_dtype("auto", trainer.device.type) else "float32"
        say(f"model.train_precision auto: the update's encoders in {chosen} on this {trainer.device.type}")


def _evaluate_and_save(trainer: Trainer, policy: Policy, out) -> tuple[list[EvalRow], list[Path]]:
    """The final evaluation, ``eval.json``, its scalars beside the training curves and the replays."""
    cfg = trainer.cfg
    with _progress(out, "evaluating") as report:
        rows = final_evaluation(policy, cfg, progress=report)
    if out is not None:
        print_table(rows, out, title=f"evaluation: {cfg.run.eval_episodes} episodes per opponent")
    save_rows(rows, trainer.run_dir / EVAL_NAME)
    if cfg.log.tensorboard:                 # beside the training curves, at the step the run ended
        from osrs_rl.train.tensorboard import write_scalars

        write_scalars(trainer.run_dir, {f"eval/{r.opponent}/{k}": getattr(r, k) for r in rows for k in EVAL_SCALARS
                                        if getattr(r, k) == getattr(r, k)}, trainer.global_step)   # nan: none
    with _progress(out, "saving replays") as report:
        replays = save_replays(policy, trainer.run_dir / REPLAYS_DIR, per_opponent=REPLAYS_PER_OPPONENT,
                               seed=cfg.run.seed + 2, progress=report)
    return rows, replays


def _progress(out, description: str):
    """``evaluate.progress_bar`` on ``out``; nothing without a console."""
    return progress_bar(out, description) if out is not None else contextlib.nullcontext(None)
