"""Every training setting in one place: a dataclass per section, a docstring line per field.

A run's config comes from three layers, later ones winning: the defaults below, a preset TOML file
(the encounter's own, ``EncounterSpec.preset``, by default, or ``--config FILE``), then command-line
overrides ``--section.key value`` (``--ppo.horizon 128``, ``--env.config.opponent_tier 5``). Unknown
sections or keys, and values of the wrong type, are refused with the list of valid names.

    >>> cfg = load_config("template", overrides=["--run.total_steps", "1000"])
    >>> cfg.env.encounter, cfg.run.total_steps
    ('template', 1000)
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import json
import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_type_hints

from osrs_rl.io.provenance import KEY as PROVENANCE


@dataclass
class EnvSection:
    """Which encounter and how many copies of it."""

    encounter: str = "pvp"
    """Encounter name (``osrs_rl.runtime.registry.names()``)."""
    num_envs: int = 1024
    """Envs stepped per tick, in total over both halves when ``overlap`` is on; under torchrun per rank
    (a rollout is ranks x num_envs x ppo.horizon steps)."""
    overlap: bool = True
    """Split the envs in two halves: one steps in a worker thread while the policy reads the other."""
    env_threads: int = 0
    """Numba threads per env half; 0: auto (``train.resources.auto_env_threads``): half the cores where the envs
    step beside torch's threads (a CPU with ``overlap``), all but one otherwise (the network on a GPU, or no
    overlap); 1 on a 2-core machine, the value its figures were measured with."""
    config: dict = field(default_factory=dict)
    """The encounter's own settings (its config fields), e.g. ``max_ticks`` or ``opponent_tier``."""
    opponents: list = field(default_factory=list)
    """Scripted opponent tiers to spread over the envs (names or indices), for encounters with
    opponents (pvp). Empty: the encounter's config decides."""


@dataclass
class ModelSection:
    """The policy/value network (``osrs_rl.agent.models``)."""

    kind: str = "mlp"
    """``mlp``, ``lstm`` or ``mingru``. The recurrent two are unmeasured: no preset uses them and no ablation
    in docs/results measures them."""
    hidden: int = 128
    """Width of every hidden layer."""
    layers: int = 2
    """Encoder layers before the core."""
    entity_encoder: bool = False
    """Encode observation segments with several slots with shared weights."""
    activation: str = "relu"
    """``relu`` or ``tanh``: the activation of every hidden layer (encoders and value MLP); tanh is the
    usual one of small PPO MLPs (CleanRL's ppo.py)."""
    separate_value: bool = False
    """Give the value an observation encoder of its own (the policy's architecture) instead of sharing the
    policy's, so the value loss does not shape the policy's features (Andrychowicz et al. 2020 found
    separate networks better for PPO). ``mlp`` only: a recurrent critic would share and train the
    policy's core, or need a recurrent state of its own."""
    reset_on_episode: bool = True
    """Zero the recurrent state when an episode starts (off: memory runs on across episodes)."""
    train_precision: str = "float32"
    """``float32``, ``bfloat16`` or ``auto``: the observation encoders' arithmetic in the update, bfloat16 under
    autocast (weights, heads and losses stay float32; rollouts and evaluation run float32). bfloat16 is faster on
    a CPU with AVX512-BF16 or a GPU, slower than float32 on a CPU without; ``auto`` takes it where the device has
    it natively. The PPO ratio then compares a float32 rollout with a bfloat16 update: on a trained Inferno
    policy the two differ by a mean |log ratio| of 0.007, far inside the clip."""


@dataclass
class PPOSection:
    """The PPO update (``osrs_rl.train.losses``, ``osrs_rl.train.advantage``)."""

    horizon: int = 64
    """Ticks per env per rollout segment."""
    gamma: float = 0.995
    """Discount per tick."""
    lam: float = 0.95
    """GAE lambda."""
    clip: float = 0.2
    """Policy ratio clip."""
    value_clip: float = 0.2
    """Value clip around the rollout's values (0: off)."""
    value_coef: float = 0.5
    """Weight of the value loss."""
    entropy_coef: float = 0.01
    """Entropy bonus at the start."""
    entropy_coef_final: float = 0.002
    """Entropy bonus at the end (linear schedule)."""
    max_grad_norm: float = 0.5
    """Gradient norm clip."""
    epochs: int = 2
    """Passes over each rollout."""
    minibatches: int = 4
    """Minibatches per epoch (whole env segments each)."""
    rho_clip: float = 1.0
    """V-trace clip of the importance ratio in the advantage's TD terms (on-policy: no effect)."""
    c_clip: float = 1.0
    """V-trace clip of the trace-cutting ratio."""
    bootstrap_truncation: bool = True
    """Bootstrap a truncated step (the tick limit) from V(final obs). Off: treat it as terminal, for a
    limit that is part of the task (the observation shows the time left, the limit has an outcome
    reward; Pardo et al. 2018, "Time Limits in Reinforcement Learning")."""
    vtrace: bool = True
    """Recompute advantages before each minibatch with the latest ratios (V-trace correction)."""
    priority_alpha: float = 0.0
    """Prioritized segment sampling exponent on mean |advantage| (0: uniform, plain shuffling). Unmeasured:
    no preset sets it above 0 and no ablation in docs/results measures it."""
    priority_beta: float = 0.4
    """Importance-correction exponent at the start, annealed to 1 by the end."""
    normalize_advantages: bool = True
    """Normalise advantages per minibatch."""


@dataclass
class OptimSection:
    """Optimizer and learning-rate schedule (``osrs_rl.train.optim``)."""

    name: str = "adamw"
    """``adamw``, ``muon`` or ``aurora``. Muon and Aurora are unmeasured: no preset uses them and no ablation
    in docs/results measures them."""
    lr: float = 1e-3
    """Learning rate at the start."""
    lr_final: float = 1e-4
    """Learning rate at the end."""
    schedule: str = "cosine"
    """``constant``, ``linear`` or ``cosine`` from ``lr`` to ``lr_final``."""
    weight_decay: float = 0.0
    """Decoupled weight decay."""
    beta1: float = 0.9
    """AdamW first-moment decay (and momentum of the matrix optimizers' AdamW part)."""
    beta2: float = 0.999
    """AdamW second-moment decay."""
    eps: float = 1e-5
    """AdamW epsilon."""


@dataclass
class RunSection:
    """Length, seeds, device, outputs."""

    total_steps: int = 20_000_000
    """Env steps (agent decisions) to train for; under torchrun those of all ranks together."""
    total_minutes: float = 0.0
    """Also stop after this many minutes of training (0: no limit), at the next iteration's end, then save
    and evaluate as a finished run. Training time only (setup, compiling and evaluation excluded), kept in
    the checkpoint so a resume goes on counting. The schedules (learning rate, entropy) follow whichever of
    the two budgets is further along, so a run that the minutes stop has finished its schedules too."""
    seed: int = 0
    """Seeds the envs, torch and the samplers."""
    device: str = "auto"
    """``auto`` (cuda, then mps, then cpu), or a torch device string."""
    torch_threads: int = 0
    """Torch intra-op threads (0: in rollouts the cores the env worker leaves, all cores but
    ``env.env_threads`` when overlap is on, else all; in the update all; under torchrun 1 per rank on a CPU,
    the machine's cores shared out between its ranks on CUDA). On a machine other jobs share, 1 loses least
    (scripts/bench_threads.py)."""
    out_dir: str = "runs"
    """Where run folders go."""
    name: str = ""
    """Run folder name (empty: encounter and time)."""
    checkpoint_every: float = 120.0
    """Seconds between checkpoints (one is always written at the end)."""
    log_every: float = 2.0
    """Seconds between log lines."""
    eval_episodes: int = 256
    """Episodes of the evaluation after training (0: none)."""
    eval_config: dict = field(default_factory=dict)
    """Encounter settings the evaluation plays under in place of ``env.config``'s (the final evaluation,
    ``osrs-rl eval --checkpoint``, the audit), e.g. a curriculum's mid-fight starts turned off: they train,
    the plain starts are the score. ``--set`` on ``osrs-rl eval`` still wins."""
    dist_timeout: float = 300.0
    """Under torchrun: seconds a rank waits in a collective for the others before the job stops with an
    error (a rank lost or stuck)."""


@dataclass
class LogSection:
    """Where logs go."""

    tensorboard: bool = True
    """Write TensorBoard event files in the run folder."""
    wandb: str = ""
    """``online`` or ``offline`` to log to Weights & Biases too (needs ``pip install wandb``)."""
    console: bool = True
    """Show the live dashboard (plain lines when not on a terminal)."""
    replays: bool = True
    """Keep replays of training episodes in ``replays/train/``: the best return so far (``best.orlr``)
    and a sampled episode per ``replay_sample_every`` seconds."""
    replay_sample_every: float = 300.0
    """Seconds between sampled training replays."""
    replay_keep: int = 10
    """Sampled training replays kept (the oldest are deleted; 0: none)."""
    param_digests: bool = False
    """Write ``param_digests.txt`` in the run folder: per update the SHA-256 of the parameters, every
    rank's under torchrun (a check that the ranks stay in step; they are compared every update anyway)."""


@dataclass
class LeagueSection:
    """Self-play against a league of past learner snapshots and scripted tiers (``osrs_rl.train.selfplay``),
    for encounters with two agents and an opponent hook (``pvp_selfplay``)."""

    enabled: bool = False
    """Play agent 1 from the league instead of the encounter's config."""
    scripted: list = field(default_factory=lambda: ["casual", "average", "skilled", "elite", "nightmare"])
    """Scripted tiers mixed in (names in the encounter's ``tier_names``)."""
    scripted_fraction: float = 0.2
    """Share of episodes against a scripted tier (all of them while the pool is empty)."""
    pfsp: str = "hard"
    """PFSP weighting of snapshots: ``hard`` (the ones the learner loses to), ``variance`` or ``uniform``."""
    snapshot_every: int = 20
    """Iterations between snapshots of the learner (the first at the start of the run)."""
    max_pool: int = 16
    """Most snapshots in the pool; a full pool retires its oldest (but the first snapshot stays)."""
    elo_k: float = 16.0
    """Elo K factor of the league table."""


@dataclass
class ExploreSection:
    """Go-Explore archive starts (``osrs_rl.explore``): the run keeps an archive of the cells its envs reach
    (``spec.cell_key``; the best state of each by ``spec.progress``) and starts some episodes from cells beyond
    where normal starts already succeed. Normal starts stay the score: their metrics are logged as ``episode/...``,
    archive starts' as ``archive/episode/...``."""

    enabled: bool = False
    """Keep the archive and start episodes from it (the encounter must declare ``cell_key`` and ``progress``)."""
    fraction: float = 0.25
    """Share of episode starts restored from an archive cell, while eligible cells exist (the rest are normal)."""
    archive: str = ""
    """An archive file to begin with (``osrs-rl archive build``, or a run's ``archive.orla``); empty: start empty.
    It is read, never written: the run saves its own archive as ``archive.orla`` in its folder."""
    max_cells: int = 20_000
    """Cells the archive holds at most (a full one drops the cell of least progress for one of more)."""
    success_threshold: float = 0.5
    """Cells that normal-start episodes passing through them get past at least this often (end in a deeper phase
    of the fight, or win) are not restored."""
    min_passes: int = 8
    """... judged once that many normal-start episodes passed through; a cell passed fewer times is eligible."""
    frontier_decay: float = 0.5
    """How the archive starts are shared between the fight's phases: the frontier first (the phases normal starts
    do not yet get past, shallowest first, then the rest), each later phase this times the share of the one
    before (0.5: a half, a quarter, ...); 1: every phase with eligible cells the same share. On the late Inferno
    equal shares lost 0.2 waves to plain PPO and 0.5 did not (docs/archive-experiment.md, rounds 2 and 3)."""
    reseed: bool = True
    """Draw a fresh RNG for each restored state, so that one cell does not replay one future."""
    start_flag: bool = True
    """The value reads the episode's start type (1: an archive start), so one critic can tell the two apart."""


@dataclass
class TrainConfig:
    env: EnvSection = field(default_factory=EnvSection)
    model: ModelSection = field(default_factory=ModelSection)
    ppo: PPOSection = field(default_factory=PPOSection)
    optim: OptimSection = field(default_factory=OptimSection)
    run: RunSection = field(default_factory=RunSection)
    log: LogSection = field(default_factory=LogSection)
    league: LeagueSection = field(default_factory=LeagueSection)
    explore: ExploreSection = field(default_factory=ExploreSection)

    # ---- derived sizes -------------------------------------------------------------------------
    @property
    def batch_steps(self) -> int:
        """Env steps per rollout."""
        return self.env.num_envs * self.ppo.horizon

    @property
    def iterations(self) -> int:
        """Rollout-and-update rounds the run takes."""
        return max(1, -(-self.run.total_steps // self.batch_steps))

    @property
    def segments_per_minibatch(self) -> int:
        return max(1, self.env.num_envs // self.ppo.minibatches)

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    def validate(self) -> TrainConfig:
        """Raise ValueError naming the first setting out of its range."""
        checks = [
            (self.env.num_envs >= (2 if self.env.overlap else 1), "env.num_envs must be >= 1 (>= 2 with overlap)"),
            (self.env.env_threads >= 0, "env.env_threads must be >= 0 (0: auto)"),
            (self.model.kind in ("mlp", "lstm", "mingru"), "model.kind must be mlp, lstm or mingru"),
            (self.model.hidden >= 1 and self.model.layers >= 1, "model.hidden and model.layers must be >= 1"),
            (self.model.activation in ("relu", "tanh"), "model.activation must be relu or tanh"),
            (self.model.train_precision in ("float32", "bfloat16", "auto"),
             "model.train_precision must be float32, bfloat16 or auto"),
            (self.model.kind == "mlp" or not self.model.separate_value, "model.separate_value needs model.kind mlp "
                                                                        "(a recurrent critic would share its core)"),
            (self.ppo.horizon >= 1, "ppo.horizon must be >= 1"),
            (0.0 < self.ppo.gamma <= 1.0, "ppo.gamma must lie in (0, 1]"),
            (0.0 <= self.ppo.lam <= 1.0, "ppo.lam must lie in [0, 1]"),
            (self.ppo.clip > 0, "ppo.clip must be > 0"),
            (self.ppo.value_clip >= 0, "ppo.value_clip must be >= 0"),
            (self.ppo.epochs >= 1, "ppo.epochs must be >= 1"),
            (1 <= self.ppo.minibatches <= self.env.num_envs, "ppo.minibatches must lie in 1..env.num_envs"),
            (self.ppo.rho_clip > 0 and self.ppo.c_clip > 0, "ppo.rho_clip and ppo.c_clip must be > 0"),
            (self.ppo.priority_alpha >= 0, "ppo.priority_alpha must be >= 0"),
            (0 <= self.ppo.priority_beta <= 1, "ppo.priority_beta must lie in [0, 1]"),
            (self.optim.name in ("adamw", "muon", "aurora"), "optim.name must be adamw, muon or aurora"),
            (self.optim.schedule in ("constant", "linear", "cosine"), "optim.schedule must be constant, linear "
                                                                       "or cosine"),
            (self.optim.lr > 0 and self.optim.lr_final >= 0, "optim.lr must be > 0 and optim.lr_final >= 0"),
            (self.run.total_steps >= 1, "run.total_steps must be >= 1"),
            (0 <= self.run.total_minutes < math.inf, "run.total_minutes must be >= 0 (0: no limit)"),
            (0 <= self.run.seed < 2**63, "run.seed must lie in [0, 2**63)"),
            (self.run.torch_threads >= 0, "run.torch_threads must be >= 0"),
            (self.run.checkpoint_every > 0 and self.run.log_every > 0, "run.checkpoint_every and run.log_every "
                                                                        "must be > 0"),
            (self.run.eval_episodes >= 0, "run.eval_episodes must be >= 0"),
            (self.run.dist_timeout > 0, "run.dist_timeout must be > 0"),
            (self.log.wandb in ("", "online", "offline"), "log.wandb must be empty, online or offline"),
            (self.log.replay_sample_every > 0 and self.log.replay_keep >= 0, "log.replay_sample_every must be > 0 "
                                                                            "and log.replay_keep >= 0"),
            (0.0 <= self.league.scripted_fraction <= 1.0, "league.scripted_fraction must lie in [0, 1]"),
            (self.league.scripted_fraction == 0 or bool(self.league.scripted), "league.scripted_fraction > 0 needs "
                                                                               "league.scripted tiers"),
            (self.league.pfsp in ("hard", "variance", "uniform"), "league.pfsp must be hard, variance or uniform"),
            (self.league.snapshot_every >= 1, "league.snapshot_every must be >= 1"),
            (self.league.max_pool >= 2, "league.max_pool must be >= 2 (the first snapshot is kept for good)"),
            (self.league.elo_k > 0, "league.elo_k must be > 0"),
            (not (self.league.enabled and self.env.opponents), "league.enabled draws the opponents: leave "
                                                               "env.opponents empty and list tiers in league.scripted"),
            (0.0 <= self.explore.fraction <= 1.0, "explore.fraction must lie in [0, 1]"),
            (self.explore.max_cells >= 1, "explore.max_cells must be >= 1"),
            (0.0 <= self.explore.success_threshold <= 1.0, "explore.success_threshold must lie in [0, 1]"),
            (self.explore.min_passes >= 0, "explore.min_passes must be >= 0"),
            (0.0 < self.explore.frontier_decay <= 1.0, "explore.frontier_decay must lie in (0, 1]"),
            (self.explore.enabled or not self.explore.archive, "explore.archive needs explore.enabled true"),
        ]
        for ok, message in checks:
            if not ok:
                raise ValueError(message)
        return self


SECTIONS = {f.name: f.type for f in dataclasses.fields(TrainConfig)}


def _section_types() -> dict[str, type]:
    hints = get_type_hints(TrainConfig)
    return {name: hints[name] for name in SECTIONS}


def _coerce(value: Any, want: type, where: str) -> Any:
    """``value`` as type ``want``; strings from the command line are parsed."""
    if isinstance(value, str) and want is not str:
        text = value.strip()
        if want is bool and text.lower() in ("true", "false", "yes", "no", "on", "off", "1", "0"):
            return text.lower() in ("true", "yes", "on", "1")
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            if want is list:
                value = [v.strip() for v in text.split(",") if v.strip()]
            else:
                raise ValueError(f"{where}: cannot read {text!r} as {want.__name__}") from None
    if want is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if want is list and isinstance(value, tuple):
        return list(value)
    if want is list and isinstance(value, (str, int)):
        return [value]
    if not isinstance(value, want) or (want is int and isinstance(value, bool)):
        raise ValueError(f"{where} must be {want.__name__}, got {value!r} ({type(value).__name__})")
    return value


def apply(cfg: TrainConfig, values: dict, source: str) -> TrainConfig:
    """Set the nested ``values`` ({section: {key: value}}) on ``cfg``; unknown names raise."""
    types = _section_types()
    for section, table in values.items():
        if section not in types:
            raise ValueError(f"{source}: unknown section [{section}]; sections: {', '.join(types)}")
        if not isinstance(table, dict):
            raise ValueError(f"{source}: [{section}] must be a table of settings")
        obj = getattr(cfg, section)
        hints = get_type_hints(type(obj))
        for key, value in table.items():
            if key not in hints:
                raise ValueError(f"{source}: unknown setting {section}.{key}; {section} has: {', '.join(hints)}")
            want = hints[key]
            if want is dict:
                if not isinstance(value, dict):
                    raise ValueError(f"{source}: {section}.{key} must be a table")
                getattr(obj, key).update(value)
            else:
                setattr(obj, key, _coerce(value, want, f"{source}: {section}.{key}"))
    return cfg


# the tables of encounter settings (the encounter checks their names and ranges): --env.config.KEY value
ENCOUNTER_TABLES = (("env", "config"), ("run", "eval_config"))


def parse_overrides(args: list[str]) -> dict:
    """``["--ppo.horizon", "128", "--env.config.max_ticks=500"]`` -> nested dict of strings."""
    out: dict = {}
    k = 0
    while k < len(args):
        arg = args[k]
        if not arg.startswith("--") or "." not in arg:
            raise ValueError(f"expected --section.key value, got {arg!r}")
        name = arg[2:]
        if "=" in name:
            name, value = name.split("=", 1)
        else:
            if k + 1 >= len(args):
                raise ValueError(f"{arg} needs a value")
            k += 1
            value = args[k]
        parts = name.split(".")
        if len(parts) == 3 and (parts[0], parts[1]) in ENCOUNTER_TABLES:
            # an encounter setting: keep numbers as numbers, the encounter checks names and ranges
            try:
                parsed = ast.literal_eval(value)
            except (ValueError, SyntaxError):
                parsed = value
            out.setdefault(parts[0], {}).setdefault(parts[1], {})[parts[2]] = parsed
        elif len(parts) == 2:
            out.setdefault(parts[0], {})[parts[1]] = value
        else:
            raise ValueError(f"expected --section.key (or --env.config.key, --run.eval_config.key), got {arg!r}")
        k += 1
    return out


PRESETS = ("default", "gpu")
"""``load_config``'s ``preset``: the encounter's preset alone, or with its GPU settings over it."""


def preset_path(encounter: str, which: str = "default") -> Path | None:
    """The preset ``encounter``'s spec declares (``EncounterSpec.preset``; ``which="gpu"``: its ``gpu_preset``), if
    it has one; None for an encounter that is not registered (the run's validation names it)."""
    from osrs_rl.runtime.registry import get_spec

    try:
        spec = get_spec(encounter)
    except KeyError:
        return None
    declared = spec.gpu_preset if which == "gpu" else spec.preset
    if declared is None:
        return None
    path = Path(declared)
    if not path.is_file():
        raise ValueError(f"encounter {encounter!r} declares the {'GPU ' if which == 'gpu' else ''}preset {path}, "
                         "which does not exist")
    return path


def _declared_gpu_preset(encounter: str) -> Path | None:
    """The resolved path of the GPU preset ``encounter`` declares, whether or not it exists (None: none)."""
    from osrs_rl.runtime.registry import get_spec

    try:
        declared = get_spec(encounter).gpu_preset
    except KeyError:
        return None
    return Path(declared).resolve() if declared else None


def _read_toml(path: Path, what: str) -> dict:
    if not path.is_file():
        raise ValueError(f"{what} {path} does not exist")
    try:
        return tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"{what} {path} is not valid TOML: {e}") from None


def load_config(encounter: str, config_file: str | Path | None = None, overrides: list[str] | None = None,
                preset: str = "default") -> TrainConfig:
    """Defaults, then the preset (or ``config_file``), then with ``preset="gpu"`` the encounter's GPU settings
    over them (``EncounterSpec.gpu_preset``), then command-line ``overrides``."""
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}; presets: {', '.join(PRESETS)}")
    cfg = TrainConfig()
    cfg.env.encounter = encounter
    path = Path(config_file) if config_file else preset_path(encounter)
    layers = [(path, "config file")] if path is not None else []
    if config_file and path.resolve() == _declared_gpu_preset(encounter):
        # over the defaults alone it would train without the fight's own settings and reward
        raise ValueError(f"{path} holds only what changes for a GPU over {encounter}'s preset: give --preset gpu "
                         f"instead of --config {path}")
    if preset == "gpu":
        gpu = preset_path(encounter, "gpu")
        if gpu is None:
            raise ValueError(f"encounter {encounter!r} declares no GPU preset (EncounterSpec.gpu_preset): train it "
                             "with --run.device cuda and the settings you choose")
        layers.append((gpu, "GPU preset"))
    for file, what in layers:
        apply(cfg, _read_toml(file, what), str(file))
        cfg.env.encounter = encounter      # the command line names the encounter
    if overrides:
        apply(cfg, parse_overrides(overrides), "command line")
    return cfg.validate()


# ---- what a run shows of its settings ------------------------------------------------------------------
HEADLINE = ("env.encounter", "run.total_steps", "env.num_envs", "ppo.horizon", "model.kind", "model.hidden",
            "model.layers", "optim.name", "optim.lr", "run.seed")


def summary(values: dict) -> str | None:
    """A run's settings in two lines: the headline ones, then every other one not at its default
    (None when ``values`` is not a training config's ``to_dict``), e.g.::

        template: 500 steps, 256 envs x 32 ticks a rollout, mlp 64x2, adamw lr 0.003, seed 0
        not at their defaults: ppo.gamma=0.9, ppo.entropy_coef_final=0.001, optim.lr_final=0.0003
    """
    try:
        cfg = apply(TrainConfig(), copy.deepcopy(values), "config")
    except (ValueError, TypeError, AttributeError):
        return None
    budget = (f"{cfg.run.total_minutes:g} minutes of training (or {cfg.run.total_steps:,} steps, whichever comes "
              "first)" if cfg.run.total_minutes > 0 else f"{cfg.run.total_steps:,} steps")
    head = (f"{cfg.env.encounter}: {budget}, {cfg.env.num_envs:,} envs x {cfg.ppo.horizon} ticks "
            f"a rollout, {cfg.model.kind} {cfg.model.hidden}x{cfg.model.layers}, {cfg.optim.name} lr {cfg.optim.lr:g}, "
            f"seed {cfg.run.seed}")
    flat = cfg.to_dict()

    def value(name: str):
        section, key, *sub = name.split(".")
        v = flat[section][key]
        return v[sub[0]] if sub else v
    rest = [f"{n}={value(n)}" for n in changed_settings(TrainConfig(), cfg) if n not in HEADLINE]
    return head + ("\nnot at their defaults: " + ", ".join(rest) if rest else "")


def describe_sections() -> str:
    """Every section's settings with their defaults, for ``osrs-rl train --help``."""
    lines = []
    for section, kind in _section_types().items():
        keys = " ".join(f"{f.name}={_default_text(f)}" for f in dataclasses.fields(kind))
        lines.append(f"  [{section}] {keys}")
    return "\n".join(lines)


def _default_text(f: dataclasses.Field) -> str:
    value = f.default if f.default is not dataclasses.MISSING else f.default_factory()
    return ",".join(map(str, value)) if isinstance(value, list) else "{}" if value == {} else repr(value).strip("'")


def to_toml(cfg: TrainConfig) -> str:
    """``cfg`` as a TOML file that ``--config FILE`` reads back to the same settings."""
    out = []
    for section, table in cfg.to_dict().items():
        out.append(f"[{section}]")
        nested = {}
        for key, value in table.items():
            if isinstance(value, dict):
                nested[key] = value
            else:
                out.append(f"{key} = {_toml_value(value)}")
        for key, sub in nested.items():
            out.append(f"\n[{section}.{key}]")
            out += [f"{k} = {_toml_value(v)}" for k, v in sub.items()]
        out.append("")
    return "\n".join(out)


def _toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        return repr(value) if math.isfinite(value) else ("-inf" if value < 0 else "inf")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)                # a JSON string is a TOML basic string
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise ValueError(f"cannot write {value!r} ({type(value).__name__}) as TOML")


def from_dict(values: dict) -> TrainConfig:
    """A config from ``to_dict`` output (as stored in checkpoints), or a run folder's ``config.json`` (its
    ``"provenance"`` entry, the code that ran, is no setting and is passed over)."""
    values = {k: v for k, v in values.items() if k != PROVENANCE}
    return apply(TrainConfig(), values, "checkpoint config").validate()


# ---- resuming -------------------------------------------------------------------------------------
# What a resumed run may change: its length, where and how often it writes, its evaluation, where it
# runs, and the learning-rate schedule (set afresh every update, so a new value takes effect). The
# rest shapes the model, the envs, the rollout storage or the optimizer's state (weight decay and betas
# are restored with it), or is the algorithm itself: changing it would be another run.
RESUMABLE = {
    "run": ("total_steps", "total_minutes", "eval_episodes", "eval_config", "checkpoint_every", "log_every",
            "device", "torch_threads", "out_dir", "name", "dist_timeout"),
    "log": tuple(f.name for f in dataclasses.fields(LogSection)),
    "optim": ("lr", "lr_final", "schedule"),
    "model": ("train_precision",),          # how the update computes, not what the model is (as run.device)
}


def resumable(name: str) -> bool:
    """Whether the setting ``section.key`` may change when a run is resumed."""
    section, _, key = name.partition(".")
    return key.partition(".")[0] in RESUMABLE.get(section, ())


def changed_settings(before: TrainConfig, after: TrainConfig) -> list[str]:
    """The settings (``section.key``, ``env.config.KEY`` for the encounter's own) whose values differ."""
    out = []
    a, b = before.to_dict(), after.to_dict()
    for section in a:
        for key in a[section]:
            old, new = a[section][key], b[section][key]
            if isinstance(old, dict):
                out += [f"{section}.{key}.{k}" for k in {**old, **new} if old.get(k, _MISSING) != new.get(k, _MISSING)]
            elif old != new:
                out.append(f"{section}.{key}")
    return out


_MISSING = object()


def check_resumable(stored: TrainConfig, cfg: TrainConfig, source: str = "checkpoint") -> None:
    """Raise ValueError naming each setting in which ``cfg`` differs from the ``stored`` config of the
    run it resumes, where a resume may not change it (``RESUMABLE``)."""
    a, b = stored.to_dict(), cfg.to_dict()

    def value(d, name) -> str:
        section, key, *sub = name.split(".")
        v = d[section][key]
        if sub:
            return repr(v[sub[0]]) if sub[0] in v else "it unset"
        return repr(v)
    refused = [n for n in changed_settings(stored, cfg) if not resumable(n)]
    if refused:
        which = "; ".join(f"{n} (the run has {value(a, n)}, asked {value(b, n)})" for n in refused)
        every = {s: [f.name for f in dataclasses.fields(t)] for s, t in _section_types().items()}
        allowed = ", ".join(f"{s}.*" if list(keys) == every[s] else f"{s}.{{{', '.join(keys)}}}"
                            for s, keys in RESUMABLE.items())
        raise ValueError(f"a resume continues the run in {source} with its own settings and cannot change {which}. "
                         f"A resume may change its length, evaluation, logging, device and learning-rate schedule "
                         f"({allowed}); start a new run (without --resume) to change the others")


def resume_overrides(stored: TrainConfig, overrides: list[str] | None, source: str = "checkpoint") -> TrainConfig:
    """``stored`` (a run's config, as its checkpoint holds it) with the command-line ``overrides`` that
    a resume may change applied; any other override that changes a value is refused (``check_resumable``)."""
    cfg = copy.deepcopy(stored)
    if overrides:
        apply(cfg, parse_overrides(overrides), "command line")
    cfg.validate()
    check_resumable(stored, cfg, source)
    return cfg
