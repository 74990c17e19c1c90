"""A trained policy as a thing to load and act with: its model rebuilt from a checkpoint, and what it
was trained on.

    policy = load_policy("runs/pvp-.../checkpoint.pt")
    policy.model, policy.encounter, policy.env_config, policy.opponents

Below both ``train/`` (which writes checkpoints and evaluates policies) and ``replay/`` (whose human
play and browser viewer put a trained policy against a player), so neither imports the other to load
one. ``model_meta`` is what a checkpoint must match to be loaded into a run (``osrs_rl.agent.checkpoint``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from osrs_rl.agent.checkpoint import load_checkpoint, load_meta, load_state_checked, require_entries
from osrs_rl.agent.config import TrainConfig, from_dict
from osrs_rl.agent.distributions import MaskedMultiCategorical
from osrs_rl.agent.models import build_model
from osrs_rl.runtime.registry import get_spec


@dataclass
class Policy:
    """A trained model with what it was trained on."""

    model: torch.nn.Module
    encounter: str
    env_config: dict
    opponents: list


def model_meta(cfg: TrainConfig, spec) -> dict:
    """What a checkpoint must match to be loaded into a run (osrs_rl.agent.checkpoint)."""
    return {"encounter": spec.name, "spec_version": spec.version, "obs_size": spec.obs_size,
            "head_sizes": [int(h) for h in spec.head_sizes], "model_kind": cfg.model.kind,
            "model_hidden": cfg.model.hidden, "model_layers": cfg.model.layers,
            "entity_encoder": cfg.model.entity_encoder, **({"start_input": True} if start_input(cfg) else {})}


def start_input(cfg: TrainConfig) -> bool:
    """Whether the run's value reads a start-type input (archive starts with ``explore.start_flag``)."""
    return bool(cfg.explore.enabled and cfg.explore.start_flag)


def make_model(cfg: TrainConfig, spec) -> nn.Module:
    return build_model(spec.obs_segments, spec.head_sizes, kind=cfg.model.kind, hidden=cfg.model.hidden,
                       layers=cfg.model.layers, entity_encoder=cfg.model.entity_encoder,
                       activation=cfg.model.activation, separate_value=cfg.model.separate_value,
                       start_input=start_input(cfg), train_precision=cfg.model.train_precision)


def eval_env_config(cfg: TrainConfig) -> dict:
    """The encounter settings a run's policy is evaluated under: ``env.config`` with ``run.eval_config``."""
    return {**cfg.env.config, **cfg.run.eval_config}


def training_opponents(cfg) -> list:
    """The scripted tiers a run trained against: ``env.opponents``, else its league's tiers."""
    if cfg.env.opponents:
        return list(cfg.env.opponents)
    return list(cfg.league.scripted) if cfg.league.enabled else []


def load_policy(path, device: str = "cpu") -> Policy:
    """The model in checkpoint ``path`` (clear errors for missing, corrupt or foreign files)."""
    meta = load_meta(path)
    spec = get_spec(meta.get("encounter", "?"))
    payload, meta = load_checkpoint(path, map_location=device)
    require_entries(payload, ("config", "model"), f"checkpoint {path}")
    cfg = from_dict(payload["config"])
    expect = model_meta(cfg, spec)
    if meta.get("spec_version") != spec.version:
        raise ValueError(f"checkpoint {path} was trained on {spec.name} version {meta.get('spec_version')}; "
                         f"this osrs-rl has version {spec.version} (its state or observation changed)")
    for key in ("obs_size", "head_sizes"):
        if meta.get(key) != expect[key]:
            raise ValueError(f"checkpoint {path}: {key} {meta.get(key)} does not match the encounter's {expect[key]}")
    model = make_model(cfg, spec).to(device)
    load_state_checked(model, payload["model"], f"checkpoint {path}")
    model.eval()
    return Policy(model, spec.name, eval_env_config(cfg), training_opponents(cfg))


def policy_step(model, obs, mask, state, first, heads, num_agents: int):
    """One batched forward pass of ``model`` for agent 0 of every env: its action distribution under
    the mask, its value and the next recurrent state. ``first`` marks the envs whose episode starts
    now and is cleared."""
    device = next(model.parameters()).device
    multi = num_agents > 1
    o = torch.from_numpy(obs[:, 0] if multi else obs).to(device)
    m = torch.from_numpy(mask[:, 0] if multi else mask).to(device)
    logits, value, state = model.step(o, state, first)
    first[:] = False
    return MaskedMultiCategorical(logits, m, heads), value, state


def policy_note(dist, value, heads) -> dict:
    """Env 0's annotation of one decision, as replays store it: the value and each head's probabilities."""
    probs = dist.log_probs[0].exp().cpu().numpy()
    return {"value": float(value[0]), "probs": [probs[h, :n] for h, n in enumerate(heads)]}


def policy_actions(model, obs, info, state, first, heads, num_agents: int, greedy: bool, generator):
    """One batched decision of ``model`` for agent 0 of every env: the int64 actions to step the env
    with (``[envs, agents, heads]`` for several agents, the others left at the no-op) and the next
    recurrent state. ``first`` marks the envs whose episode starts now and is cleared."""
    dist, _, state = policy_step(model, obs, info["action_mask"], state, first, heads, num_agents)
    act = (dist.mode() if greedy else dist.sample(generator)).cpu().numpy().astype(np.int64)
    if num_agents == 1:
        return act, state
    full = np.zeros((len(act), num_agents, len(heads)), np.int64)
    full[:, 0] = act
    return full, state
