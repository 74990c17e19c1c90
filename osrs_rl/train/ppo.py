"""The PPO training loop, for any encounter: setup, storage, rollout, advantage, update, log, checkpoint.

    from osrs_rl.agent.config import load_config
    from osrs_rl.train.ppo import Trainer
    Trainer(load_config("template", overrides=["--run.total_steps", "200000"])).train()

Reads the encounter's spec only (heads, observation segments, metrics, phases, optional opponent
hook); nothing here names an encounter. The learner is agent 0; for encounters with an opponent hook
(pvp) ``env.opponents`` spreads scripted tiers over the envs, or with ``league.enabled`` a self-play
league (``osrs_rl.train.selfplay``) draws agent 1 per episode from snapshots and scripted tiers.
"""

from __future__ import annotations

import copy
import math
import os
import signal
import threading
import time
from datetime import datetime
from pathlib import Path

import numpy as np
import torch
from torch import nn

import osrs_rl
from osrs_rl.agent.checkpoint import (
    CheckpointError,
    capture_rng_state,
    load_checkpoint,
    load_state_checked,
    non_finite_tensors,
    require_entries,
    restore_rng_state,
    save_checkpoint,
)
from osrs_rl.agent.config import RunSection, TrainConfig, check_resumable, from_dict, parse_overrides, resume_overrides
from osrs_rl.agent.distributions import log_prob_and_entropy
from osrs_rl.agent.policy import make_model, model_meta
from osrs_rl.io.atomic import remove_stale_temp_files
from osrs_rl.runtime.registry import get_spec
from osrs_rl.train.advantage import anneal_beta, compute_advantages, sample_segments
from osrs_rl.train.logger import Logger, episode_scalars, opponent_metrics, opponent_scalars, outcome_rates
from osrs_rl.train.losses import mean_entropy, normalize_advantages, policy_loss, value_loss
from osrs_rl.train.optim import build_optimizer, set_lr
from osrs_rl.train.policy_view import with_policy_view
from osrs_rl.train.rollout import Collector, RolloutStorage
from osrs_rl.train.selfplay import SelfPlay
from osrs_rl.train.training_replays import TrainingReplays

# the input layer and the output layers stay with AdamW under Muon/Aurora (osrs_rl.train.optim)
ADAMW_PATTERNS = ("encoder.trunk.0.", "policy.", "value.2.")
CHECKPOINT_NAME = "checkpoint.pt"
RESUME_ENTRIES = ("config", "model", "optimizer", "global_step", "iteration", "rng")


class NonFiniteError(RuntimeError):
    """Training produced a NaN or infinite loss or weight: the run stops and keeps its last good checkpoint."""


def pick_device(name: str) -> torch.device:
    """``auto``: cuda when available, then mps, else cpu; otherwise the named device."""
    if name == "auto":
        if torch.cuda.is_available():
            return torch.device("cuda")
        if getattr(torch.backends, "mps", None) is not None and torch.backends.mps.is_available():
            return torch.device("mps")
        return torch.device("cpu")
    try:
        device = torch.device(name)
    except RuntimeError as e:
        raise ValueError(f"run.device {name!r} is not a torch device: {e}") from None
    if device.type == "cuda" and not torch.cuda.is_available():
        raise ValueError("run.device is cuda but torch sees no CUDA device")
    return device


def resume_config(checkpoint: str | os.PathLike, overrides: list[str] | None = None) -> TrainConfig:
    """The settings a run resumed from ``checkpoint`` continues with: the ones stored in it, with the
    command-line ``overrides`` a resume may change (``config.RESUMABLE``; any other is refused,
    naming it). Where it writes:

    - ``--run.out_dir`` and/or ``--run.name`` given: that folder, the missing part as for a new run
      (``runs``, ``<encounter>-<date>-<time>``);
    - otherwise the folder of ``checkpoint`` when it is a run folder's ``checkpoint.pt`` (the run goes
      on where it was, replacing that file);
    - otherwise (a copied or renamed checkpoint) nowhere: the caller must name the folder.

    The folder a checkpoint's own config records is never used: a copy must not write into the run it
    was copied from.
    """
    path = Path(checkpoint)
    payload, _ = load_checkpoint(path)
    require_entries(payload, ("config",), str(path))
    cfg = resume_overrides(from_dict(payload["config"]), overrides, str(path))
    named = parse_overrides(overrides or []).get("run", {})
    if "out_dir" in named or "name" in named:
        cfg.run.out_dir = cfg.run.out_dir if "out_dir" in named else RunSection().out_dir
        cfg.run.name = cfg.run.name if "name" in named else ""
    elif path.name == CHECKPOINT_NAME:
        folder = path.absolute().parent
        cfg.run.out_dir, cfg.run.name = str(folder.parent), folder.name
    else:
        raise ValueError(f"{path} is not a run folder's {CHECKPOINT_NAME}, so a resume from it has no folder of its "
                         f"own: name where it writes with --run.out_dir DIR and/or --run.name NAME (to go on in the "
                         f"run it came from, name that run's folder: this replaces its {CHECKPOINT_NAME})")
    return cfg


class _StopSignals:
    """While training, Ctrl-C (SIGINT) and SIGTERM (a scheduler's stop, ``kill``) raise KeyboardInterrupt,
    so the run saves a checkpoint before it stops. The first signal also puts off the ones after it
    (``hold``): they are noted, not raised, so that they cannot abort that save; the run is stopping
    anyway. The previous handlers come back on exit, unless a stop signal came: then the noting
    handlers stay until the process ends, so that a signal between the save and the caller's report of
    it cannot kill the process with the report unsaid. Only the main thread can install signal
    handlers; in another thread this does nothing."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self):
        self.previous: dict = {}
        self.held = False
        self.put_off = 0
        self.requested = 0      # the first stop signal's number, kept even if its KeyboardInterrupt is lost

    def __enter__(self) -> _StopSignals:
        if threading.current_thread() is threading.main_thread():
            for sig in self.SIGNALS:
                self.previous[sig] = signal.getsignal(sig)
                signal.signal(sig, self._stop)
        return self

    def _stop(self, signum, frame):
        self.requested = signum
        self.hold()
        raise KeyboardInterrupt(f"signal {signum}")

    def check(self) -> None:
        """Raise the stop now if a signal asked for one: a KeyboardInterrupt raised inside code that
        swallows exceptions (a finalizer, a callback: "Exception ignored in ...") must not leave the run
        going with every later signal put off."""
        if self.requested:
            raise KeyboardInterrupt(f"signal {self.requested}")

    def _later(self, signum, frame):
        self.put_off += 1
        # os.write, not print: a buffered stream the main thread is writing to must not be re-entered
        os.write(2, f"signal {signum}: still saving the checkpoint; the run stops once it is written\n".encode())

    def hold(self) -> None:
        """From now on, note further stop signals instead of raising them."""
        if self.previous and not self.held:
            self.held = True
            for sig in self.SIGNALS:
                signal.signal(sig, self._later)

    def __exit__(self, *exc) -> None:
        if self.held:
            return
        for sig, handler in self.previous.items():
            signal.signal(sig, signal.SIG_DFL if handler is None else handler)


def schedule(start: float, end: float, progress: float, kind: str) -> float:
    """A value going from ``start`` to ``end`` as ``progress`` goes from 0 to 1."""
    p = min(max(progress, 0.0), 1.0)
    if kind == "constant":
        return start
    if kind == "linear":
        return start + (end - start) * p
    return end + (start - end) * 0.5 * (1.0 + math.cos(math.pi * p))


def spread_opponents(env, spec, tiers: list, offset: int = 0) -> None:
    """Give env i the scripted tier ``tiers[(i + offset) % len(tiers)]`` (from each env's next reset)."""
    if not tiers:
        return
    if spec.opponents is None:
        raise ValueError(f"env.opponents is set but encounter {spec.name!r} has no opponents to choose")
    index = np.array([spec.opponents.tier_index(t) for t in tiers], dtype=np.int64)
    ids = np.arange(env.num_envs)
    spec.opponents.set(env, ids, tier=index[(ids + offset) % len(index)])


class Trainer:
    """One training run, writing into ``run.out_dir``/``run.name``. ``resume``: a checkpoint path to
    continue from (model, optimizer, schedules, counters and RNGs restored). ``cfg`` is then the
    resumed run's settings (``resume_config`` builds them); where it differs from the config stored
    in the checkpoint in a setting a resume may not change (``config.RESUMABLE``), it is refused."""

    def __init__(self, cfg: TrainConfig, resume: str | os.PathLike | None = None, console=True):
        # ---- setup ---------------------------------------------------------------------------------
        cfg = copy.deepcopy(cfg)           # the run folder's name is filled in below
        self.resume_payload = None
        if resume is not None:
            spec = get_spec(cfg.env.encounter)
            payload, _ = load_checkpoint(resume, expect=model_meta(cfg, spec))
            require_entries(payload, RESUME_ENTRIES + (("selfplay",) if cfg.league.enabled else ()), str(resume))
            check_resumable(from_dict(payload["config"]), cfg, str(resume))
            self.resume_payload = payload
            self.resume_source = str(resume)
        self.cfg = cfg.validate()
        self.spec = get_spec(cfg.env.encounter)
        if self.spec.num_agents > 1 and not cfg.league.enabled and not cfg.env.opponents:
            raise ValueError(f"{self.spec.name} has {self.spec.num_agents} agents and the trainer drives agent 0 "
                             "only: enable [league] (self-play) or set env.opponents (scripted tiers), or agent 1 "
                             "stands idle")
        self.device = pick_device(cfg.run.device)
        # torch threads: during rollouts one core is left to the env worker thread; the update has
        # every core (the envs are idle then)
        cores = os.cpu_count() or 1
        self.learn_threads = cfg.run.torch_threads or cores
        self.rollout_threads = cfg.run.torch_threads or max(1, cores - (1 if cfg.env.overlap else 0))
        torch.manual_seed(cfg.run.seed)
        self.np_rng = np.random.default_rng(cfg.run.seed)
        self.model = make_model(cfg, self.spec).to(self.device)
        self.optimizer = build_optimizer(self.model, cfg.optim.name, lr=cfg.optim.lr,
                                         weight_decay=cfg.optim.weight_decay,
                                         betas=(cfg.optim.beta1, cfg.optim.beta2), eps=cfg.optim.eps,
                                         adamw_patterns=ADAMW_PATTERNS)
        self.global_step = 0
        self.iteration = 0
        self.saved_step: int | None = None     # global_step of the last checkpoint this run wrote
        self._signals: _StopSignals | None = None
        if self.resume_payload is not None:
            self._restore(self.resume_payload)
        # the run folder is named now and created last: a setting the envs, the league or the replays
        # refuse (an encounter setting out of range, opponents it has not) leaves no empty folder behind
        self.run_dir = self._run_path()
        self.envs = self._make_envs()
        self.selfplay = None
        if cfg.league.enabled:
            self.selfplay = SelfPlay(self.spec, self.envs, cfg.league, lambda: make_model(cfg, self.spec),
                                     self.device, seed=cfg.run.seed + self.iteration)
            if self.resume_payload is not None:
                self.selfplay.load_state_dict(self.resume_payload["selfplay"])
            self.selfplay.start(self.model, self.iteration)        # before the Collector resets the envs
        self.training_replays = None
        if cfg.log.replays:
            self.training_replays = TrainingReplays(self.run_dir / "replays" / "train", cfg.log.replay_sample_every,
                                                    cfg.log.replay_keep, seed=cfg.run.seed + self.iteration,
                                                    annotate=self._with_policy_view)
        self.collector = Collector(self.envs, self.model, self.device, seed=cfg.run.seed + self.iteration,
                                   opponent_act=self.selfplay.act if self.selfplay is not None else None,
                                   reset_state=cfg.model.reset_on_episode, replays=self.training_replays)
        self.store = RolloutStorage(cfg.ppo.horizon, cfg.env.num_envs, self.spec.obs_size, self.spec.mask_size,
                                    self.spec.num_heads, self.model.state_size)
        self.console = console
        self._made_run_dir = not self.run_dir.exists()      # a folder made here and left empty is removed
        self.run_dir.mkdir(parents=True, exist_ok=True)
        for folder in (self.run_dir, self.run_dir / "replays", self.run_dir / "replays" / "train"):
            remove_stale_temp_files(folder)     # left by a run killed in the middle of a write

    def _with_policy_view(self, replay):
        # the view of the model as it stands: trained on ``global_step`` steps (the episode may be newer)
        return with_policy_view(replay, self.model, self.global_step)

    def _run_path(self) -> Path:
        """``run.out_dir``/``run.name`` (a new run without a name gets the encounter and the time, and
        its config records that name); ``__init__`` creates it once the rest of the setup stands."""
        run = self.cfg.run
        if not run.name:
            run.name = f"{self.spec.name}-{datetime.now().strftime('%Y%m%d-%H%M%S')}"
        return Path(run.out_dir) / run.name

    def _remove_empty_run_dir(self) -> None:
        """Undo the run folder when the run failed before writing anything into it (only a folder this
        trainer made, and only empty folders: ``rmdir`` never deletes a file)."""
        if not self._made_run_dir:
            return
        for folder in (self.run_dir / "replays" / "train", self.run_dir / "replays", self.run_dir):
            try:
                folder.rmdir()
            except OSError:              # absent, or it holds something: keep it
                pass

    def _make_envs(self) -> list:
        cfg = self.cfg
        n = cfg.env.num_envs
        sizes = [n // 2, n - n // 2] if cfg.env.overlap else [n]
        seed = (cfg.run.seed * 1_000_003 + self.iteration) % 2**63
        envs = []
        for k, size in enumerate(sizes):
            env = osrs_rl.make(self.spec.name, num_envs=size, seed=seed + k, threads=cfg.env.env_threads,
                               **cfg.env.config)
            spread_opponents(env, self.spec, cfg.env.opponents, offset=sum(sizes[:k]))
            envs.append(env)
        return envs

    # ---- checkpoints -------------------------------------------------------------------------------
    def checkpoint_path(self) -> Path:
        return self.run_dir / CHECKPOINT_NAME

    def save(self, path: Path | None = None) -> Path:
        """Write the checkpoint (atomically); ``saved_step`` says which step the last one written holds.
        Weights that are not finite are never written (NonFiniteError)."""
        state = self.model.state_dict()
        bad = non_finite_tensors(state)
        if bad:
            raise NonFiniteError(f"no checkpoint written at step {self.global_step:,}: the weights hold NaN or "
                                 f"infinite values (in {', '.join(bad)}); {self._kept()}")
        payload = {
            "model": state, "optimizer": self.optimizer.state_dict(),
            "global_step": self.global_step, "iteration": self.iteration, "config": self.cfg.to_dict(),
            "rng": capture_rng_state(self.np_rng),
        }
        if self.selfplay is not None:
            payload["selfplay"] = self.selfplay.state_dict()
        path = save_checkpoint(path or self.checkpoint_path(), payload, model_meta(self.cfg, self.spec))
        self.saved_step = self.global_step
        return path

    def _kept(self) -> str:
        """Which checkpoint a run that stops without saving leaves behind."""
        if self.saved_step is not None:
            return f"the last good checkpoint, at step {self.saved_step:,}, is kept: {self.checkpoint_path()}"
        if self.resume_payload is not None:
            return f"this run wrote no checkpoint; the one it resumed from is {self.resume_source}"
        return "this run wrote no checkpoint"

    def _restore(self, payload: dict) -> None:
        source = self.resume_source
        load_state_checked(self.model, payload["model"], source)
        bad = non_finite_tensors(payload["optimizer"])
        if bad:
            raise CheckpointError(f"{source}: its optimizer state holds NaN or infinite values (in {', '.join(bad)})")
        try:
            self.optimizer.load_state_dict(payload["optimizer"])
        except (ValueError, KeyError, RuntimeError) as e:
            raise CheckpointError(f"{source}: its optimizer state does not fit this model's optimizer: {e}") from None
        self.global_step = int(payload["global_step"])
        self.iteration = int(payload["iteration"])
        restore_rng_state(payload["rng"], self.np_rng)

    # ---- the loop ------------------------------------------------------------------------------------
    def train(self) -> dict:
        """Train to ``run.total_steps``; returns the last logged scalars. Ctrl-C or SIGTERM (a
        scheduler's stop, ``kill``) saves a checkpoint, then raises KeyboardInterrupt; further signals
        wait for that save (``saved_step`` is the step it holds, or stays behind ``global_step`` when
        it failed). A NaN or infinite loss or weight stops the run with NonFiniteError and writes no
        checkpoint, so the last good one stays."""
        with _StopSignals() as signals:
            self._signals = signals
            try:
                return self._train()
            finally:
                self._signals = None

    def _train(self) -> dict:
        cfg = self.cfg
        try:
            logger = Logger(self.run_dir, cfg.to_dict(), use_tensorboard=cfg.log.tensorboard,
                            wandb=cfg.log.wandb or None, console=self.console if cfg.log.console else False,
                            total_steps=cfg.run.total_steps, start_step=self.global_step, run_name=self.run_dir.name,
                            rate_metrics=outcome_rates(self.spec.outcome))
        except BaseException:             # e.g. W&B asked for and not installed: nothing was written yet
            self._remove_empty_run_dir()
            raise
        last: dict = {}
        failed = True
        try:
            next_log = next_ckpt = time.monotonic()
            next_ckpt += cfg.run.checkpoint_every
            window_start, window_steps, window_iterations = time.monotonic(), 0, 0
            while self.global_step < cfg.run.total_steps:
                if self._signals is not None:
                    self._signals.check()
                progress = self.global_step / cfg.run.total_steps
                # ---- rollout ----
                t0 = time.perf_counter()
                self.model.eval()
                torch.set_num_threads(self.rollout_threads)
                self.collector.collect(self.store)
                t_rollout = time.perf_counter() - t0
                if self.training_replays is not None:
                    self.training_replays.flush(self.global_step + cfg.batch_steps)
                steps = cfg.batch_steps
                self.global_step += steps
                window_steps += steps
                # ---- advantage and update ----
                t0 = time.perf_counter()
                torch.set_num_threads(self.learn_threads)
                stats = self.update(progress)
                self.collector.timing["learn"] = self.collector.timing.get("learn", 0.0) + time.perf_counter() - t0
                self.collector.timing["rollout"] = self.collector.timing.get("rollout", 0.0) + t_rollout
                window_iterations += 1
                self.iteration += 1
                if self.selfplay is not None:
                    self.selfplay.after_iteration(self.iteration, self.model)
                # ---- log ----
                now = time.monotonic()
                if now >= next_log or self.global_step >= cfg.run.total_steps:
                    last = self._scalars(stats, window_iterations, window_steps / max(now - window_start, 1e-9))
                    logger.log(self.global_step, last)
                    window_start, window_steps, window_iterations = now, 0, 0
                    next_log = now + cfg.run.log_every
                # ---- checkpoint ----
                if now >= next_ckpt:
                    self.save()
                    next_ckpt = now + cfg.run.checkpoint_every
            self.save()
            if self.training_replays is not None:
                self.training_replays.flush(self.global_step, force=True)
            failed = False
        except KeyboardInterrupt:
            if self._signals is not None:
                self._signals.hold()   # a second Ctrl-C or SIGTERM must not abort this save
            self.save()                # Ctrl-C keeps the run: --resume continues from here
            raise
        finally:
            self.collector.close()
            logger.close(failed=failed)
        if self.selfplay is not None and self.console:
            self.selfplay.print_table(None if self.console is True else self.console,
                                      title=f"league after {self.iteration} iterations")
        return last

    def _scalars(self, stats: dict, iterations: int, steps_per_second: float) -> dict:
        """Losses of the last update, episode metrics since the last log, and where the time went
        (seconds per iteration over the window: waiting for envs, policy inference, the league
        opponent's inference, the rest of the rollout, the update); with a league, its ratings."""
        timing, n = self.collector.timing, max(iterations, 1)
        env_t, inf_t, opp_t = timing.get("env", 0.0), timing.get("inference", 0.0), timing.get("opponent", 0.0)
        other = max(timing.get("rollout", 0.0) - env_t - inf_t - opp_t, 0.0)
        out = {f"loss/{k}": v for k, v in stats.items()}
        out.update({"time/env": env_t / n, "time/inference": inf_t / n, "time/rollout_other": other / n,
                    "time/learn": timing.get("learn", 0.0) / n})
        if self.selfplay is not None:
            out["time/opponent"] = opp_t / n
            out.update(self.selfplay.scalars())
        out.update({"perf/steps_per_second": steps_per_second, "perf/iteration": self.iteration})
        timing.clear()
        timing.update(env=0.0, inference=0.0)
        episodes = self.collector.pop_episodes()
        if episodes:
            out.update(episode_scalars(episodes, self.spec.phase_names, self.spec.category_metrics))
            if self.spec.opponents is not None:
                out.update(opponent_scalars(episodes, self.spec.opponents.tier_names,
                                            opponent_metrics(self.spec.outcome)))
        return out

    def update(self, progress: float) -> dict:
        """Advantages, then ``ppo.epochs`` passes of minibatches of whole env segments."""
        cfg, s = self.cfg.ppo, self.store
        lr = schedule(self.cfg.optim.lr, self.cfg.optim.lr_final, progress, self.cfg.optim.schedule)
        set_lr(self.optimizer, lr)
        entropy_coef = schedule(cfg.entropy_coef, cfg.entropy_coef_final, progress, "linear")
        beta = anneal_beta(cfg.priority_beta, progress)
        T = s.horizon
        ratio = torch.ones(T, s.num_envs)
        adv, ret = compute_advantages(s.reward, s.value[:T], s.terminated, s.truncated, s.valid, s.value[T],
                                      cfg.gamma, cfg.lam)
        self.model.train()
        sums: dict[str, float] = {}
        count = 0
        per_mb = self.cfg.segments_per_minibatch
        for epoch in range(cfg.epochs):
            if cfg.priority_alpha > 0:
                order, weights = sample_segments(adv, cfg.minibatches * per_mb, cfg.priority_alpha, beta,
                                                 self.np_rng, valid=s.valid)
                order, weights = torch.as_tensor(order), torch.as_tensor(weights)
            else:
                order, weights = torch.from_numpy(self.np_rng.permutation(s.num_envs)), None
            for m in range(cfg.minibatches):
                idx = order[m * per_mb:(m + 1) * per_mb]
                if len(idx) == 0:
                    continue
                if cfg.vtrace and (epoch > 0 or m > 0):
                    # V-trace: the segments seen so far were judged by a policy that has moved on
                    adv, ret = compute_advantages(s.reward, s.value[:T], s.terminated, s.truncated, s.valid,
                                                  s.value[T], cfg.gamma, cfg.lam, ratio=ratio,
                                                  rho_clip=cfg.rho_clip, c_clip=cfg.c_clip)
                w = None if weights is None else weights[m * per_mb:(m + 1) * per_mb].unsqueeze(0).to(self.device)
                out = self._minibatch(idx, adv, ret, w, entropy_coef)
                ratio[:, idx] = out.pop("_ratio")
                for k, v in out.items():
                    sums[k] = sums.get(k, 0.0) + v
                count += 1
        finite = torch.stack([torch.isfinite(p).all() for p in self.model.parameters()]).all()
        if not bool(finite):                    # e.g. an optimizer step that overflowed
            bad = [n for n, p in self.model.named_parameters() if not bool(torch.isfinite(p).all())]
            self._diverged(f"the weights are not finite after the update (in {', '.join(bad)})")
        stats = {k: v / max(count, 1) for k, v in sums.items()}
        stats.update(lr=lr, entropy_coef=entropy_coef)
        valid = s.valid
        if valid.any():
            v, r = s.value[:T][valid], ret[valid]
            stats["explained_variance"] = float(1.0 - (r - v).var() / r.var().clamp(min=1e-8))
        return stats

    def _minibatch(self, idx, adv, ret, weights, entropy_coef: float) -> dict:
        s, dev, cfg = self.store, self.device, self.cfg.ppo
        T = s.horizon
        # index_select, not advanced indexing: the same copy, several times faster on a CPU
        def envs(x):
            return x.index_select(1, idx).to(dev)
        obs = envs(s.obs[:T])
        valid = envs(s.valid)
        reset = envs(s.reset[:T]) if self.cfg.model.reset_on_episode else None
        logits, value, _ = self.model.unroll(obs, s.state0.index_select(0, idx).to(dev), reset)
        new_logprob, entropy_per_sample = log_prob_and_entropy(logits, envs(s.mask), envs(s.action),
                                                               self.collector.head_sizes)
        old_logprob = envs(s.logprob)
        a = envs(adv)
        if cfg.normalize_advantages:
            a = normalize_advantages(a, valid)
        pl = policy_loss(new_logprob, old_logprob, a, cfg.clip, weights, valid)
        vl = value_loss(value, envs(s.value[:T]), envs(ret), cfg.value_clip or None, weights, valid)
        entropy = mean_entropy(entropy_per_sample, valid)
        loss = pl.loss + cfg.value_coef * vl - entropy_coef * entropy
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        grad_norm = nn.utils.clip_grad_norm_(self.model.parameters(), cfg.max_grad_norm)
        self.optimizer.step()
        out = {"policy": pl.loss.item(), "value": vl.item(), "entropy": entropy.item(),
               "approx_kl": float(pl.approx_kl), "clip_fraction": float(pl.clip_fraction),
               "grad_norm": float(grad_norm), "_ratio": (new_logprob - old_logprob).detach().exp().cpu()}
        checked = ("policy", "value", "entropy", "grad_norm")
        if not all(math.isfinite(out[k]) for k in checked):
            self._diverged("the loss is not finite (" + ", ".join(f"{k} {out[k]:.4g}" for k in checked) + ")")
        return out

    def _diverged(self, what: str) -> None:
        raise NonFiniteError(f"training diverged at step {self.global_step:,} (iteration {self.iteration + 1}): "
                             f"{what}. The run stops without saving; {self._kept()}. A lower --optim.lr may help "
                             "(a resume may change it)")
