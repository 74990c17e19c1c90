"""The PPO training loop, for any encounter: setup, storage, rollout, advantage, update, log, checkpoint.

    from osrs_rl.agent.config import load_config
    from osrs_rl.train.ppo import Trainer
    Trainer(load_config("template", overrides=["--run.total_steps", "200000"])).train()

Reads the encounter's spec only (heads, observation segments, metrics, phases, optional opponent
hook); nothing here names an encounter. The learner is agent 0; for encounters with an opponent hook
(pvp) ``env.opponents`` spreads scripted tiers over the envs, or with ``league.enabled`` a self-play
league (``osrs_rl.train.selfplay``) draws agent 1 per episode from snapshots and scripted tiers.

Under torchrun (``torchrun --nproc-per-node N -m osrs_rl.cli train ...``) the same loop runs data-
parallel, one copy per rank (``osrs_rl.train.distributed``): each rank steps its own ``env.num_envs``
envs with seeds of its own, every minibatch step uses the gradient summed over the ranks'
minibatches with global advantage moments, and rank 0 alone writes the run folder. The trainer calls
its collectives (``self.group``) unconditionally: in a plain run they are ``distributed.SingleProcess``'s,
which make no collective call and leave every number as a one-process trainer computes it.
"""

from __future__ import annotations

import copy
import math
import os
import signal
import threading
import time
from collections.abc import Callable
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
from osrs_rl.agent.policy import eval_env_config, make_model, model_meta
from osrs_rl.io.atomic import remove_stale_temp_files
from osrs_rl.io.provenance import provenance
from osrs_rl.runtime.config import build_config
from osrs_rl.runtime.registry import get_spec
from osrs_rl.train.advantage import anneal_beta, compute_advantages, sample_segments
from osrs_rl.train.distributed import (
    Dist,
    DistributedError,
    Group,
    SingleProcess,
    collectives,
    from_environment,
    rank_seed,
    seed_sequence,
)
from osrs_rl.train.logger import (
    TRAIN_SECONDS,
    Logger,
    episode_scalars,
    opponent_metrics,
    opponent_scalars,
    outcome_rates,
)
from osrs_rl.train.losses import mean_entropy, policy_loss, value_loss
from osrs_rl.train.optim import build_optimizer, set_lr
from osrs_rl.train.policy_view import with_policy_view
from osrs_rl.train.resources import busy_note, check_memory, machine_cores, thread_plan
from osrs_rl.train.rollout import Collector, RolloutStorage
from osrs_rl.train.run_folder import RunFolder, fresh_folder
from osrs_rl.train.selfplay import SelfPlay
from osrs_rl.train.training_replays import TrainingReplays

CHECKPOINT_NAME = "checkpoint.pt"
ARCHIVE_NAME = "archive.orla"      # the run's Go-Explore archive (explore.enabled), saved with each checkpoint
RESUME_ENTRIES = ("config", "model", "optimizer", "global_step", "iteration", "rng")
DIGESTS_NAME = "param_digests.txt"
STOP_BARRIER_SECONDS = 30.0     # torchrun gives its workers 30 s after its SIGTERM before it kills them


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
    handlers; in another thread this does nothing.

    ``defer`` (a distributed run): a signal raises nothing; it is noted (``requested``) and the ranks
    agree at the end of the iteration to stop together, rank 0 saving. Ctrl-C reaches each rank twice
    (from the terminal and from torchrun, which forwards it), so later signals are noted too."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self, defer: bool = False, who: str = ""):
        self.previous: dict = {}
        self.held = False
        self.put_off = 0
        self.requested = 0      # the first stop signal's number, kept even if its KeyboardInterrupt is lost
        self.defer = defer
        self.who = who          # "rank 1: ", to tell the ranks' messages apart

    def __enter__(self) -> _StopSignals:
        if threading.current_thread() is threading.main_thread():
            for sig in self.SIGNALS:
                self.previous[sig] = signal.getsignal(sig)
                signal.signal(sig, self._stop)
        return self

    def _stop(self, signum, frame):
        if self.defer:
            if not self.requested:
                self.requested = signum
                os.write(2, f"{self.who}signal {signum}: the ranks stop together at the end of this iteration\n"
                         .encode())
            return
        self.requested = signum
        self.hold()
        raise KeyboardInterrupt(f"signal {signum}")

    def check(self) -> None:
        """Raise the stop now if a signal asked for one: a KeyboardInterrupt raised inside code that
        swallows exceptions (a finalizer, a callback: "Exception ignored in ...") must not leave the run
        going with every later signal put off. Deferred signals raise nothing here: the ranks' agreement
        at the end of the iteration stops them together."""
        if self.requested and not self.defer:
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


def ignore_stop_signals() -> None:
    """After a run has stopped and said so: a late stop signal has nothing left to stop. Left to the
    interpreter, whose shutdown puts the default handlers back, it would kill the process on its way out
    (exit -15 instead of 130); an ignored signal stays ignored through that shutdown."""
    if threading.current_thread() is threading.main_thread():
        for sig in _StopSignals.SIGNALS:
            signal.signal(sig, signal.SIG_IGN)


def schedule(start: float, end: float, progress: float, kind: str) -> float:
    """A value going from ``start`` to ``end`` as ``progress`` goes from 0 to 1."""
    p = min(max(progress, 0.0), 1.0)
    if kind == "constant":
        return start
    if kind == "linear":
        return start + (end - start) * p
    return end + (start - end) * 0.5 * (1.0 + math.cos(math.pi * p))


def split_starts(episodes: dict) -> tuple[dict, dict]:
    """Finished-episode metrics split into normal starts and archive starts (by their ``archive_start``), each
    without that key; the normal starts are the run's score."""
    if not episodes or "archive_start" not in episodes:
        return ({k: v for k, v in episodes.items() if k != "archive_start"} if episodes else episodes), {}
    restored = episodes["archive_start"] > 0.5
    pick = {k: v for k, v in episodes.items() if k != "archive_start"}
    return {k: v[~restored] for k, v in pick.items()}, {k: v[restored] for k, v in pick.items()}


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
    in the checkpoint in a setting a resume may not change (``config.RESUMABLE``), it is refused.

    ``dist``: this process's place in a torchrun job (default: read from torchrun's environment
    variables; a plain process is rank 0 of 1). ``group``: the collectives the loop calls, a
    ``distributed.Group`` under torchrun, else a ``distributed.SingleProcess`` that makes no collective call.

    ``on_log(global_step, scalars)``: called on rank 0 after each log line with its scalars (a sweep
    reports its learning curve through it; ``run.log_every`` sets how often); a true return ends the
    run there as if ``run.total_steps`` were reached (checkpoint saved). Not allowed under torchrun.

    The run folder belongs to this run from ``__init__`` on (``run_folder.RunFolder``: a folder holding
    another run is refused, and one in use by a live run): ``train()`` frees it as it returns, or, with
    ``hold_folder``, ``close()`` does (the CLI evaluates and saves replays into it after training)."""

    def __init__(self, cfg: TrainConfig, resume: str | os.PathLike | None = None, console=True,
                 dist: Dist | None = None, on_log: Callable[[int, dict], bool | None] | None = None,
                 hold_folder: bool = False):
        self.hold_folder = hold_folder
        # ---- setup ---------------------------------------------------------------------------------
        cfg = copy.deepcopy(cfg)           # the run folder's name is filled in below
        self.dist = from_environment() if dist is None else dist
        if on_log is not None and self.dist.enabled:
            raise ValueError("on_log would end rank 0's run alone: it is not allowed under torchrun")
        self.on_log = on_log
        self.group: Group | SingleProcess = SingleProcess(self.dist)     # joined below once the device is known
        self.resume_payload = None
        if resume is not None:
            spec = get_spec(cfg.env.encounter)
            payload, _ = load_checkpoint(resume, expect=model_meta(cfg, spec))
            require_entries(payload, RESUME_ENTRIES + (("selfplay",) if cfg.league.enabled else ()), str(resume))
            check_resumable(from_dict(payload["config"]), cfg, str(resume))
            ranks = int(payload.get("world_size", 1))
            if ranks != self.dist.world_size:
                # each rank's env.num_envs make the batch: another number of ranks would be another run
                raise ValueError(f"{resume} was written by a run on {ranks} rank(s) and this one has "
                                 f"{self.dist.world_size}: resume it on {ranks} (" + (
                                     f"torchrun --nproc-per-node {ranks} -m osrs_rl.cli train ..." if ranks > 1
                                     else "osrs-rl train without torchrun") + ")")
            self.resume_payload = payload
            self.resume_source = str(resume)
        self.cfg = cfg.validate()
        self.spec = get_spec(cfg.env.encounter)
        if self.spec.num_agents > 1 and not cfg.league.enabled and not cfg.env.opponents:
            raise ValueError(f"{self.spec.name} has {self.spec.num_agents} agents and the trainer drives agent 0 "
                             "only: enable [league] (self-play) or set env.opponents (scripted tiers), or agent 1 "
                             "stands idle")
        if self.dist.enabled and cfg.league.enabled:
            raise ValueError("a self-play league (league.enabled) does not run under torchrun yet: each rank would "
                             "keep a league of its own; train it in one process")
        self.device = self._pick_device()
        # the cores shared between the envs and torch (resources.thread_plan; 0 settings: auto)
        threads = thread_plan(cfg.env.env_threads, cfg.run.torch_threads, cfg.env.overlap, self.device.type,
                              machine_cores(), self.dist.local_world_size if self.dist.enabled else None)
        self.env_threads, self.rollout_threads, self.learn_threads = threads.env, threads.rollout, threads.learn
        self.group = collectives(self.dist, self.device, cfg.run.dist_timeout)
        torch.manual_seed(cfg.run.seed)    # the same on every rank: the same initial model
        self.np_rng = np.random.default_rng(cfg.run.seed)
        self.model = make_model(cfg, self.spec).to(self.device)
        self.optimizer = build_optimizer(self.model, cfg.optim.name, lr=cfg.optim.lr,
                                         weight_decay=cfg.optim.weight_decay,
                                         betas=(cfg.optim.beta1, cfg.optim.beta2), eps=cfg.optim.eps,
                                         adamw_patterns=self.model.edge_layers())    # input and output layers
        self.global_step = 0
        self.iteration = 0
        self.train_seconds = 0.0               # training time so far (setup excluded), kept across resumes
        self.saved_step: int | None = None     # global_step of the last checkpoint this run wrote
        self._signals: _StopSignals | None = None
        if self.resume_payload is not None:
            self._restore(self.resume_payload)
        if self.dist.rank > 0:             # rank 0 keeps a plain run's stream (restored on a resume)
            self.np_rng = np.random.default_rng(seed_sequence(cfg.run.seed, self.dist.rank, "numpy", self.iteration))
        self.group.broadcast_parameters(self.model)
        self._run_path()                   # gives a new run without a name its own
        # under torchrun rank 0's clock names a new run: one folder for the job
        cfg.run.name = self.group.broadcast_object(cfg.run.name, "the run folder's name")
        self.run_dir = Path(cfg.run.out_dir) / cfg.run.name
        if cfg.run.eval_config:      # refused now, not after the training it would evaluate
            try:
                build_config(self.spec, eval_env_config(cfg))
            except ValueError as e:
                raise ValueError(f"run.eval_config: {e}") from None
        check_memory(self.spec, cfg, self.model.state_size, self.device.type)     # before the large arrays
        # the run folder is claimed (made, locked, refused if it holds another run) before the envs are
        # built; a setting the envs, the league or the replays refuse leaves no empty folder behind
        self.console = console
        self.run_folder = self._claim_run_folder(resume) if self.dist.is_main else None
        try:
            self._build(cfg, resume)
        except BaseException:
            self.close()
            raise

    def _build(self, cfg: TrainConfig, resume) -> None:
        self.envs = self._make_envs()
        self.selfplay = None
        if cfg.league.enabled:
            self.selfplay = SelfPlay(self.spec, self.envs, cfg.league, lambda: make_model(cfg, self.spec),
                                     self.device, seed=cfg.run.seed + self.iteration)
            if self.resume_payload is not None:
                self.selfplay.load_state_dict(self.resume_payload["selfplay"])
            self.selfplay.start(self.model, self.iteration)        # before the Collector resets the envs
        self.training_replays = None
        if cfg.log.replays and self.dist.is_main:
            self.training_replays = TrainingReplays(self.run_dir / "replays" / "train", cfg.log.replay_sample_every,
                                                    cfg.log.replay_keep, seed=cfg.run.seed + self.iteration,
                                                    annotate=self._with_policy_view)
        sampler_seed = rank_seed(cfg.run.seed + self.iteration, cfg.run.seed, self.dist.rank, "sampler", self.iteration)
        self.archive_starts = self._archive_starts(resume) if cfg.explore.enabled else None
        self.collector = Collector(self.envs, self.model, self.device, seed=sampler_seed,
                                   opponent_act=self.selfplay.act if self.selfplay is not None else None,
                                   reset_state=cfg.model.reset_on_episode, replays=self.training_replays,
                                   starts=self.archive_starts)
        self.store = RolloutStorage(cfg.ppo.horizon, cfg.env.num_envs, self.spec.obs_size, self.spec.mask_size,
                                    self.spec.num_heads, self.model.state_size,
                                    archive_starts=self.archive_starts is not None,
                                    pin_memory=self.device.type == "cuda")
        # on a CUDA device the update reads a copy of the rollout made there once per update, not a host-side
        # gather and copy per minibatch (``_staged``; a test turns it on for a CPU, where the update is the same)
        self.stage_rollout = self.device.type == "cuda"
        self._stage: dict[str, torch.Tensor] = {}
        self._warned_busy = False
        if self.dist.is_main:               # only rank 0 writes the run folder
            for folder in (self.run_dir, self.run_dir / "replays", self.run_dir / "replays" / "train"):
                remove_stale_temp_files(folder)     # left by a run killed in the middle of a write

    def _claim_run_folder(self, resume) -> RunFolder:
        """The run folder, made and locked for this run: a new run refuses one that holds another run, and
        any run refuses one another run is using. A resume goes on in its own checkpoint's folder."""
        own = resume is not None and Path(resume).resolve().parent == self.run_dir.resolve()
        existing = self.run_dir / CHECKPOINT_NAME
        again = (f"osrs-rl train {self.spec.name} --resume {existing}" if existing.exists() else "")
        return RunFolder(self.run_dir, resuming=own, again=again)

    def close(self) -> None:
        """Free the run folder for other runs (the process's end does it too); a folder this run made
        and wrote nothing into is removed."""
        collector = getattr(self, "collector", None)
        if collector is not None:
            collector.close()
        folder = getattr(self, "run_folder", None)
        if folder is not None:
            folder.release()
            folder.remove_if_empty()

    def _archive_starts(self, resume):
        """The run's archive starts (``explore``): its archive from the resumed run's folder, else from
        ``explore.archive``, else empty; refused when its states were made under other encounter settings."""
        from osrs_rl.explore.archive import Archive
        from osrs_rl.explore.starts import ArchiveStarts
        from osrs_rl.runtime.recording import user_settings

        ex = self.cfg.explore
        settings = user_settings(self.envs[0])
        source = None
        if resume is not None and (Path(resume).parent / ARCHIVE_NAME).exists():
            source = Path(resume).parent / ARCHIVE_NAME
        elif ex.archive:
            source = Path(ex.archive)
        if source is not None:
            archive = Archive.load(source, self.spec)
            archive.check_config(settings, str(source))
            archive.check_states(self.envs[0])
            if archive.hidden_size != self.model.state_size:
                raise ValueError(f"{source} keeps recurrent states of {archive.hidden_size} values; this model's have "
                                 f"{self.model.state_size} (another model.kind or model.hidden)")
            archive.set_max_cells(ex.max_cells)
        else:
            archive = Archive(self.spec, settings, self.model.state_size, ex.max_cells)

        def hidden_of(k: int, ids) -> np.ndarray:
            state = self.collector.halves[k].state
            return state[torch.as_tensor(ids, device=state.device)].float().cpu().numpy()

        seed = rank_seed(self.cfg.run.seed + self.iteration, self.cfg.run.seed, self.dist.rank, "archive",
                         self.iteration)
        return ArchiveStarts(self.envs, archive, ex.fraction, ex.success_threshold, ex.min_passes, ex.reseed, seed,
                             hidden_of=hidden_of if self.model.state_size else None,
                             frontier_decay=ex.frontier_decay)

    def _pick_device(self) -> torch.device:
        """``run.device``; under torchrun a CUDA device is the rank's own, ``cuda:LOCAL_RANK``."""
        device = pick_device(self.cfg.run.device)
        if not self.dist.enabled:
            return device
        if device.type == "cuda":
            count = torch.cuda.device_count()
            if self.dist.local_rank >= count:
                raise ValueError(f"LOCAL_RANK {self.dist.local_rank} but torch sees {count} CUDA device(s): start at "
                                 f"most {count} ranks per machine (torchrun --nproc-per-node {count})")
            return torch.device("cuda", self.dist.local_rank)
        if device.type != "cpu":
            raise ValueError(f"run.device {device.type} has no collective backend for a torchrun job (NCCL needs "
                             "cuda, gloo a cpu): give --run.device cpu or cuda")
        return device

    def _with_policy_view(self, replay):
        # the view of the model as it stands: trained on ``global_step`` steps (the episode may be newer)
        return with_policy_view(replay, self.model, self.global_step)

    def _run_path(self) -> Path:
        """``run.out_dir``/``run.name`` (a new run without a name gets the encounter and the time, and
        its config records that name, a fresh one); ``__init__`` claims it (``RunFolder``) before the envs."""
        run = self.cfg.run
        if not run.name:                  # a fresh folder: two runs started in one second get two
            stem = f"{self.spec.name}-{datetime.now().strftime('%Y%m%d-%H%M%S')}"
            run.name = fresh_folder(Path(run.out_dir), stem).name
        return Path(run.out_dir) / run.name

    def _make_envs(self) -> list:
        cfg = self.cfg
        n = cfg.env.num_envs
        sizes = [n // 2, n - n // 2] if cfg.env.overlap else [n]
        seed = (cfg.run.seed * 1_000_003 + self.iteration) % 2**63
        seed = rank_seed(seed, cfg.run.seed, self.dist.rank, "envs", self.iteration)
        envs = []
        for k, size in enumerate(sizes):
            env = osrs_rl.make(self.spec.name, num_envs=size, seed=seed + k, threads=self.env_threads,
                               **cfg.env.config)
            # under torchrun rank r's envs come after rank r - 1's: the tiers spread over the job's envs
            spread_opponents(env, self.spec, cfg.env.opponents, offset=self.dist.rank * n + sum(sizes[:k]))
            envs.append(env)
        return envs

    # ---- checkpoints -------------------------------------------------------------------------------
    def checkpoint_path(self) -> Path:
        return self.run_dir / CHECKPOINT_NAME

    def save(self, path: Path | None = None) -> Path:
        """Write the checkpoint (atomically); ``saved_step`` says which step the last one written holds.
        Weights that are not finite are never written (NonFiniteError). Only rank 0 writes one."""
        if not self.dist.is_main:
            raise RuntimeError(f"rank {self.dist.rank} writes no checkpoint: rank 0 does")
        state = self.model.state_dict()
        bad = non_finite_tensors(state)
        if bad:
            raise NonFiniteError(f"no checkpoint written at step {self.global_step:,}: the weights hold NaN or "
                                 f"infinite values (in {', '.join(bad)}); {self._kept()}")
        payload = {
            "model": state, "optimizer": self.optimizer.state_dict(),
            "global_step": self.global_step, "iteration": self.iteration, "config": self.cfg.to_dict(),
            "rng": capture_rng_state(self.np_rng), "train_seconds": self.train_seconds,
        }
        if self.selfplay is not None:
            payload["selfplay"] = self.selfplay.state_dict()
        if self.dist.enabled:              # a plain run's checkpoint is as before: 1 rank
            payload["world_size"] = self.dist.world_size
        path = save_checkpoint(path or self.checkpoint_path(), payload, model_meta(self.cfg, self.spec))
        if self.archive_starts is not None:
            self.archive_starts.archive.save(Path(path).parent / ARCHIVE_NAME)
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
        self.train_seconds = float(payload.get("train_seconds", 0.0))     # older checkpoints did not count it
        restore_rng_state(payload["rng"], self.np_rng)

    # ---- the loop ------------------------------------------------------------------------------------
    def train(self) -> dict:
        """Train to ``run.total_steps``; returns the last logged scalars. Ctrl-C or SIGTERM (a
        scheduler's stop, ``kill``) saves a checkpoint, then raises KeyboardInterrupt; further signals
        wait for that save (``saved_step`` is the step it holds, or stays behind ``global_step`` when
        it failed). A NaN or infinite loss or weight stops the run with NonFiniteError and writes no
        checkpoint, so the last good one stays.

        Under torchrun a stop signal to any rank stops every rank at the end of the iteration (rank 0
        saves; all raise KeyboardInterrupt); a rank lost or stuck past ``run.dist_timeout`` stops the
        others with DistributedError, keeping the last checkpoint rank 0 wrote. The process group is
        closed when this returns."""
        with _StopSignals(defer=self.group.enabled, who=f"rank {self.dist.rank}: ") as signals:
            self._signals = signals
            try:
                return self._train()
            finally:
                self._signals = None
                self.group.close()
                if not self.hold_folder:
                    self.close()

    def _train(self) -> dict:  # noqa: C901 - the epoch and minibatch loop with its optional losses and early stop
        cfg = self.cfg
        logger = None
        if self.dist.is_main:
            try:
                logger = Logger(self.run_dir, cfg.to_dict(), use_tensorboard=cfg.log.tensorboard,
                                wandb=cfg.log.wandb or None, console=self.console if cfg.log.console else False,
                                total_steps=cfg.run.total_steps, start_step=self.global_step,
                                run_name=self.run_dir.name, rate_metrics=outcome_rates(self.spec.outcome),
                                total_seconds=60.0 * cfg.run.total_minutes or None, provenance=provenance())
            except BaseException:             # e.g. W&B asked for and not installed: nothing was written yet
                self.close()
                raise
        last: dict = {}
        failed = True
        agreed_stop = False
        self.group.begin_training()
        try:
            next_log = next_ckpt = mark = time.monotonic()
            next_ckpt += cfg.run.checkpoint_every
            window_start, window_steps, window_iterations = time.monotonic(), 0, 0
            while self.global_step < cfg.run.total_steps and not self.time_up():
                if self._signals is not None:
                    self._signals.check()
                progress = self.progress()
                # ---- rollout ----
                t0 = time.perf_counter()
                self.model.eval()
                torch.set_num_threads(self.rollout_threads)
                if self.archive_starts is not None:
                    self.archive_starts.set_step(self.global_step)
                self.collector.collect(self.store)
                t_rollout = time.perf_counter() - t0
                if self.training_replays is not None:
                    self.training_replays.flush(self.global_step + cfg.batch_steps)
                steps = cfg.batch_steps
                self.global_step += steps * self.dist.world_size     # run.total_steps counts every rank's
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
                self.train_seconds += now - mark
                mark = now
                # under torchrun rank 0's clock decides for all, and any rank's signal stops all
                log_now, save_now, stop = self._agree(now >= next_log, now >= next_ckpt)
                time_up = self.time_up()
                log_now = log_now or time_up or self.global_step >= cfg.run.total_steps
                if log_now:
                    elapsed = max(now - window_start, 1e-9)
                    last = self._scalars(stats, window_iterations, window_steps / elapsed, elapsed)
                    if logger is not None:
                        logger.log(self.global_step, last)
                        self._warn_if_busy(logger)
                    window_start, window_steps, window_iterations = now, 0, 0
                    next_log = now + cfg.run.log_every
                    if self.on_log is not None and self.on_log(self.global_step, last):
                        break          # the caller's stop: saved below like a finished run
                if time_up:
                    break              # run.total_minutes: saved below like a finished run
                # ---- checkpoint ----
                if save_now and not stop:      # a stop saves below
                    if self.dist.is_main:
                        self.save()
                    next_ckpt = now + cfg.run.checkpoint_every
                if stop:
                    agreed_stop = True
                    raise KeyboardInterrupt(f"signal {self._signals.requested or 'on another rank'}")
            if self.dist.is_main:
                self.save()
            if self.training_replays is not None:
                self.training_replays.flush(self.global_step, force=True)
            failed = False
        except KeyboardInterrupt:
            if self._signals is not None:
                self._signals.hold()   # a second Ctrl-C or SIGTERM must not abort this save
            if self.dist.is_main:
                self.save()            # Ctrl-C keeps the run: --resume continues from here
            if agreed_stop:            # the others leave once the checkpoint is written, not before
                try:
                    self.group.barrier("the stop (waiting for rank 0's checkpoint)", STOP_BARRIER_SECONDS)
                except DistributedError:
                    pass               # a rank already gone: stopping anyway
            raise
        except DistributedError as e:
            if self.dist.is_main:      # no save: the update may have stopped half way
                raise DistributedError(f"{e}. {self._kept()[0].upper()}{self._kept()[1:]}") from None
            raise
        finally:
            self.collector.close()
            if logger is not None:
                logger.close(failed=failed)
        if self.selfplay is not None and self.console:
            self.selfplay.print_table(None if self.console is True else self.console,
                                      title=f"league after {self.iteration} iterations")
        return last

    def _warn_if_busy(self, logger) -> None:
        """Say once, on the run's console, that other processes compete for its cores (``busy_note``)."""
        if self._warned_busy or logger.console is None or self.device.type != "cpu":
            return
        note = busy_note(machine_cores(), max(self.learn_threads, self.rollout_threads + self.env_threads))
        if note is not None:
            self._warned_busy = True
            logger.console.print(note, markup=False, highlight=False, soft_wrap=True)

    def progress(self) -> float:
        """How far the run is, 0..1, for the schedules: the share of ``run.total_steps`` taken or, with
        ``run.total_minutes``, of those minutes trained, whichever is further, so a run stopped by either
        budget ends its schedules there."""
        done = self.global_step / self.cfg.run.total_steps
        if self.cfg.run.total_minutes > 0:
            done = max(done, self.train_seconds / (60.0 * self.cfg.run.total_minutes))
        return min(done, 1.0)

    def time_up(self) -> bool:
        """``run.total_minutes`` of training are done (counted across resumes)."""
        return 0 < self.cfg.run.total_minutes * 60.0 <= self.train_seconds

    def _agree(self, log_now: bool, save_now: bool) -> tuple[bool, bool, bool]:
        """Whether to log, save and stop after this iteration, as the ranks agree (``agree_iteration``: under
        torchrun rank 0's clock, any rank's stop signal, rank 0's ``train_seconds`` on every rank and a check
        that every rank holds the same parameters; in one process its own decisions); with
        ``log.param_digests`` rank 0 writes every rank's parameter digest to ``param_digests.txt``."""
        requested = self._signals.requested if self._signals is not None else 0
        agreed = self.group.agree_iteration(log_now, save_now, bool(requested), self.train_seconds, self.model,
                                            self.cfg.log.param_digests,
                                            f"after iteration {self.iteration} (step {self.global_step:,})")
        self.train_seconds = agreed.train_seconds
        if agreed.digests is not None and self.dist.is_main:
            self._write_digests(agreed.digests)
        return agreed.log_now, agreed.save_now, agreed.stop

    def _write_digests(self, digests: list[str]) -> None:
        """One line per update: iteration, step, then each rank's parameter digest (a debugging record)."""
        with open(self.run_dir / DIGESTS_NAME, "a") as f:
            f.write(f"{self.iteration} {self.global_step} {' '.join(digests)}\n")

    def _scalars(self, stats: dict, iterations: int, steps_per_second: float, seconds: float = 0.0) -> dict:
        """Losses of the last update, episode metrics since the last log, and where the time went
        (seconds per iteration over the window: waiting for envs, policy inference, the league
        opponent's inference, the rest of the rollout, the update); with a league, its ratings.
        Under torchrun every rank's are gathered on rank 0 (``distributed.merge_ranks``); the others get {}."""
        timing, n = self.collector.timing, max(iterations, 1)
        env_t, inf_t, opp_t = timing.get("env", 0.0), timing.get("inference", 0.0), timing.get("opponent", 0.0)
        # copies between the host and a device, timed apart (only where there is a device to copy to)
        copy_t, staged_t = timing.get("copy", 0.0), timing.get("stage", 0.0)
        other = max(timing.get("rollout", 0.0) - env_t - inf_t - opp_t - copy_t, 0.0)
        out = {f"loss/{k}": v for k, v in stats.items()}
        out.update({"time/env": env_t / n, "time/inference": inf_t / n, "time/rollout_other": other / n,
                    "time/learn": max(timing.get("learn", 0.0) - staged_t, 0.0) / n})
        if "copy" in timing or "stage" in timing:
            out["time/copy"] = (copy_t + staged_t) / n
        if self.selfplay is not None:
            out["time/opponent"] = opp_t / n
            out.update(self.selfplay.scalars())
        out.update({"perf/steps_per_second": steps_per_second, "perf/iteration": self.iteration,
                    TRAIN_SECONDS: self.train_seconds, "perf/progress": self.progress()})
        timing.clear()
        timing.update(env=0.0, inference=0.0)
        gathered = self.group.gather_log(out, self.collector.pop_episodes(), seconds, n)
        if gathered is None:                   # a rank other than 0: rank 0 logs for the job
            return {}
        out, episodes = gathered
        if self.archive_starts is not None:
            out.update(self.archive_starts.scalars())
            episodes, restored = split_starts(episodes)
            out.update({f"archive/{k}": v for k, v in
                        episode_scalars(restored, self.spec.phase_names, self.spec.category_metrics).items()})
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
        src = self._staged() if self.stage_rollout else s
        adv, ret = compute_advantages(s.reward, s.value[:T], s.terminated, s.truncated, s.valid, s.value[T],
                                      cfg.gamma, cfg.lam, bootstrap_truncation=cfg.bootstrap_truncation)
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
                                                  rho_clip=cfg.rho_clip, c_clip=cfg.c_clip,
                                                  bootstrap_truncation=cfg.bootstrap_truncation)
                w = None if weights is None else weights[m * per_mb:(m + 1) * per_mb].unsqueeze(0).to(self.device)
                out = self._minibatch(src, idx, adv, ret, w, entropy_coef)
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

    def _staged(self) -> dict[str, torch.Tensor]:
        """The rollout's ``UPDATE_FIELDS`` copied to the device (into buffers kept between updates), timed as
        ``stage``; on CUDA the copies run from pinned memory without blocking until the last one is done."""
        t0 = time.perf_counter()
        for name, x in self.store.update_fields().items():
            if name not in self._stage:
                self._stage[name] = torch.empty(x.shape, dtype=x.dtype, device=self.device)
            self._stage[name].copy_(x, non_blocking=True)
        if self.device.type == "cuda":
            torch.cuda.current_stream(self.device).synchronize()
        self.collector.timing["stage"] = self.collector.timing.get("stage", 0.0) + time.perf_counter() - t0
        return self._stage

    def _minibatch(self, src, idx, adv, ret, weights, entropy_coef: float) -> dict:
        """One gradient step on the env columns ``idx`` of the rollout: ``src`` is the storage itself or its copy
        on the device (``_staged``, a dict); the advantages ``adv`` and returns ``ret`` are on the host."""
        s, dev, cfg = self.store, self.device, self.cfg.ppo
        T = s.horizon
        staged = src is not s
        at = idx.to(dev) if staged else idx

        def field(name):
            return src[name] if staged else getattr(s, name)

        # index_select, not advanced indexing: the same copy, several times faster on a CPU
        def envs(x, where=at):
            return x.index_select(1, where).to(dev)
        obs = envs(field("obs")[:T])
        valid = envs(field("valid"))
        reset = envs(field("reset")[:T]) if self.cfg.model.reset_on_episode else None
        start = envs(field("start")[:T]) if self.model.start_input else None
        start_state = envs(field("start_state")[:T]) if s.start_state is not None and reset is not None else None
        logits, value, _ = self.model.unroll(obs, field("state0").index_select(0, at).to(dev), reset, start,
                                             start_state)
        new_logprob, entropy_per_sample = log_prob_and_entropy(logits, envs(field("mask")), envs(field("action")),
                                                               self.collector.head_sizes)
        old_logprob = envs(field("logprob"))
        # under torchrun the minibatch is every rank's segments: advantage moments over all of them, and this
        # rank's mean loss as its share of the mean over all of them (``Group.minibatch_advantages``)
        a, as_share = self.group.minibatch_advantages(envs(adv, idx), valid, cfg.normalize_advantages)
        pl = policy_loss(new_logprob, old_logprob, a, cfg.clip, weights, valid)
        vl = value_loss(value, envs(field("value")[:T]), envs(ret, idx), cfg.value_clip or None, weights, valid)
        entropy = mean_entropy(entropy_per_sample, valid)
        loss = as_share(pl.loss + cfg.value_coef * vl - entropy_coef * entropy)
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        self.group.average_gradients(self.model.parameters())
        grad_norm = nn.utils.clip_grad_norm_(self.model.parameters(), cfg.max_grad_norm)
        self.optimizer.step()
        # the six diagnostics in one copy to the host: one synchronisation with a device, not six
        names = ("policy", "value", "entropy", "approx_kl", "clip_fraction", "grad_norm")
        scalars = torch.stack([x.detach().float() for x in (pl.loss, vl, entropy, pl.approx_kl, pl.clip_fraction,
                                                            grad_norm)]).tolist()
        out = dict(zip(names, scalars, strict=True))
        out["_ratio"] = (new_logprob - old_logprob).detach().exp().cpu()
        checked = ("policy", "value", "entropy", "grad_norm")
        if not all(math.isfinite(out[k]) for k in checked):
            self._diverged("the loss is not finite (" + ", ".join(f"{k} {out[k]:.4g}" for k in checked) + ")")
        return out

    def _diverged(self, what: str) -> None:
        raise NonFiniteError(f"training diverged at step {self.global_step:,} (iteration {self.iteration + 1}): "
                             f"{what}. The run stops without saving; {self._kept()}. A lower --optim.lr may help "
                             "(a resume may change it)")
