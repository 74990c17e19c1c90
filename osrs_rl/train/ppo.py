"""The PPO training loop, for any encounter: setup, storage, rollout, advantage, update, log, checkpoint.

    from osrs_rl.train.config import load_config
    from osrs_rl.train.ppo import Trainer
    Trainer(load_config("template", overrides=["--run.total_steps", "200000"])).train()

Reads the encounter's spec only (heads, observation segments, metrics, phases, optional opponent
hook); nothing here names an encounter. The learner is agent 0; for encounters with an opponent hook
(pvp) ``env.opponents`` spreads scripted tiers over the envs, or with ``league.enabled`` a self-play
league (``osrs_rl.train.selfplay``) draws agent 1 per episode from snapshots and scripted tiers.
"""

from __future__ import annotations

import contextlib
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
from osrs_rl.runtime.registry import get_spec
from osrs_rl.train.advantage import anneal_beta, compute_advantages, sample_segments
from osrs_rl.train.checkpoint import capture_rng_state, load_checkpoint, restore_rng_state, save_checkpoint
from osrs_rl.train.config import TrainConfig, from_dict
from osrs_rl.train.distributions import MaskedMultiCategorical
from osrs_rl.train.logger import Logger, episode_scalars, opponent_scalars
from osrs_rl.train.losses import mean_entropy, normalize_advantages, policy_loss, value_loss
from osrs_rl.train.models import build_model
from osrs_rl.train.optim import build_optimizer, set_lr
from osrs_rl.train.rollout import Collector, RolloutStorage
from osrs_rl.train.selfplay import SelfPlay
from osrs_rl.train.training_replays import TrainingReplays

# the input layer and the output layers stay with AdamW under Muon/Aurora (osrs_rl.train.optim)
ADAMW_PATTERNS = ("encoder.trunk.0.", "policy.", "value.2.")
CHECKPOINT_NAME = "checkpoint.pt"


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


def model_meta(cfg: TrainConfig, spec) -> dict:
    """What a checkpoint must match to be loaded into a run (osrs_rl.train.checkpoint)."""
    return {"encounter": spec.name, "spec_version": spec.version, "obs_size": spec.obs_size,
            "head_sizes": [int(h) for h in spec.head_sizes], "model_kind": cfg.model.kind,
            "model_hidden": cfg.model.hidden, "model_layers": cfg.model.layers,
            "entity_encoder": cfg.model.entity_encoder}


def make_model(cfg: TrainConfig, spec) -> nn.Module:
    return build_model(spec.obs_segments, spec.head_sizes, kind=cfg.model.kind, hidden=cfg.model.hidden,
                       layers=cfg.model.layers, entity_encoder=cfg.model.entity_encoder)


@contextlib.contextmanager
def _sigterm_as_interrupt():
    """While training, SIGTERM raises KeyboardInterrupt like Ctrl-C, so the run saves a checkpoint
    before it stops (only the main thread can install signal handlers)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):
        raise KeyboardInterrupt(f"signal {signum}")
    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


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
    """One training run. ``resume``: a checkpoint path to continue from (model, optimizer, schedules,
    counters and RNGs restored; the config stored in it is used, with ``cfg``'s run length)."""

    def __init__(self, cfg: TrainConfig, resume: str | os.PathLike | None = None, console=True):
        # ---- setup ---------------------------------------------------------------------------------
        self.resume_payload = None
        if resume is not None:
            spec = get_spec(cfg.env.encounter)
            payload, _ = load_checkpoint(resume, expect=model_meta(cfg, spec))
            stored = from_dict(payload["config"])
            stored.run.total_steps = cfg.run.total_steps
            cfg = stored
            self.resume_payload = payload
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
        if self.resume_payload is not None:
            self._restore(self.resume_payload)
        self.run_dir = self._run_dir()
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
                                                    cfg.log.replay_keep, seed=cfg.run.seed + self.iteration)
        self.collector = Collector(self.envs, self.model, self.device, seed=cfg.run.seed + self.iteration,
                                   opponent_act=self.selfplay.act if self.selfplay is not None else None,
                                   reset_state=cfg.model.reset_on_episode, replays=self.training_replays)
        self.store = RolloutStorage(cfg.ppo.horizon, cfg.env.num_envs, self.spec.obs_size, self.spec.mask_size,
                                    self.spec.num_heads, self.model.state_size)
        self.console = console

    def _run_dir(self) -> Path:
        if self.resume_payload is not None and self.resume_payload.get("run_dir"):
            return Path(self.resume_payload["run_dir"])
        name = self.cfg.run.name or f"{self.spec.name}-{datetime.now().strftime('%Y%m%d-%H%M%S')}"
        path = Path(self.cfg.run.out_dir) / name
        path.mkdir(parents=True, exist_ok=True)
        return path

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
        payload = {
            "model": self.model.state_dict(), "optimizer": self.optimizer.state_dict(),
            "global_step": self.global_step, "iteration": self.iteration, "config": self.cfg.to_dict(),
            "rng": capture_rng_state(self.np_rng), "run_dir": str(self.run_dir),
        }
        if self.selfplay is not None:
            payload["selfplay"] = self.selfplay.state_dict()
        return save_checkpoint(path or self.checkpoint_path(), payload, model_meta(self.cfg, self.spec))

    def _restore(self, payload: dict) -> None:
        self.model.load_state_dict(payload["model"])
        self.optimizer.load_state_dict(payload["optimizer"])
        self.global_step = int(payload["global_step"])
        self.iteration = int(payload["iteration"])
        restore_rng_state(payload["rng"], self.np_rng)

    # ---- the loop ------------------------------------------------------------------------------------
    def train(self) -> dict:
        """Train to ``run.total_steps``; returns the last logged scalars. Ctrl-C or SIGTERM (a
        scheduler's stop, ``kill``) saves a checkpoint, then raises KeyboardInterrupt."""
        with _sigterm_as_interrupt():
            return self._train()

    def _train(self) -> dict:
        cfg = self.cfg
        logger = Logger(self.run_dir, cfg.to_dict(), use_tensorboard=cfg.log.tensorboard,
                        wandb=cfg.log.wandb or None, console=self.console if cfg.log.console else False,
                        total_steps=cfg.run.total_steps, start_step=self.global_step, run_name=self.run_dir.name)
        last: dict = {}
        failed = True
        try:
            next_log = next_ckpt = time.monotonic()
            next_ckpt += cfg.run.checkpoint_every
            window_start, window_steps, window_iterations = time.monotonic(), 0, 0
            while self.global_step < cfg.run.total_steps:
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
            out.update(episode_scalars(episodes, self.spec.phase_names))
            if self.spec.opponents is not None:
                out.update(opponent_scalars(episodes, self.spec.opponents.tier_names))
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
        obs = s.obs[:T, idx].to(dev)
        valid = s.valid[:, idx].to(dev)
        reset = s.reset[:T, idx].to(dev) if self.cfg.model.reset_on_episode else None
        logits, value, _ = self.model.unroll(obs, s.state0[idx].to(dev), reset)
        dist = MaskedMultiCategorical(logits, s.mask[:, idx].to(dev), self.collector.head_sizes)
        new_logprob = dist.log_prob(s.action[:, idx].to(dev))
        old_logprob = s.logprob[:, idx].to(dev)
        a = adv[:, idx].to(dev)
        if cfg.normalize_advantages:
            a = normalize_advantages(a, valid)
        pl = policy_loss(new_logprob, old_logprob, a, cfg.clip, weights, valid)
        vl = value_loss(value, s.value[:T, idx].to(dev), ret[:, idx].to(dev), cfg.value_clip or None, weights, valid)
        entropy = mean_entropy(dist.entropy(), valid)
        loss = pl.loss + cfg.value_coef * vl - entropy_coef * entropy
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        grad_norm = nn.utils.clip_grad_norm_(self.model.parameters(), cfg.max_grad_norm)
        self.optimizer.step()
        return {"policy": pl.loss.item(), "value": vl.item(), "entropy": entropy.item(),
                "approx_kl": float(pl.approx_kl), "clip_fraction": float(pl.clip_fraction),
                "grad_norm": float(grad_norm), "_ratio": (new_logprob - old_logprob).detach().exp().cpu()}
