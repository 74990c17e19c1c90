"""Self-play with a league: who plays agent 1 of a two-agent encounter, and how the learner (agent 0)
fares against each opponent (``osrs_rl.train.league``: PFSP sampling, win rates, Elo).

Per episode, each env's agent 1 is a scripted tier (the encounter replaces its actions) or a frozen
snapshot of the learner (driven here). After each rollout, ``after_iteration``:

    record      the outcomes of the episodes that finished, against the opponent each one played
    snapshot    every ``snapshot_every`` iterations a frozen copy of the learner joins the pool
    assign      PFSP draws each env's next opponent (it takes effect at that env's next reset)
    release     retired snapshots that no env plays any more are forgotten

and every tick ``act`` gives agent 1's actions: one no-grad forward pass per snapshot over the envs
playing it, from agent 1's own observation, mask and recurrent state. Envs are routed by the opponent
of the episode being played (``opponents.current``), never by the latest assignment.

Only the encounter's ``opponents`` hook (``tier_names``, ``tier_index``, ``set``, ``current``), its
declared outcome (the success and failure metrics, ``EncounterSpec.outcome``) and the metrics
``opponent_tier`` and ``opponent_slot`` are read: nothing here names an encounter. A finished episode
counts 1 for a learner win, 0 for a loss and 0.5 otherwise (a draw, or a fight cut off at the tick limit).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence

import numpy as np
import torch
from torch import nn

from osrs_rl.agent.distributions import MaskedMultiCategorical
from osrs_rl.train.evaluate import outcome_columns
from osrs_rl.train.league import League, group_envs

REQUIRED_METRICS = ("opponent_tier", "opponent_slot")
CACHE_SPARE = 4           # built models beyond max_pool: retired snapshots still being played
STATE_VERSION = 1


class SelfPlay:
    """A league driving agent 1 of ``envs`` (one VecEnv per rollout half).

    cfg: the ``[league]`` section (``osrs_rl.agent.config.LeagueSection``).
    build_model: makes a model of the learner's architecture (a snapshot's weights are loaded into it).
    seed: seeds the league's sampler and agent 1's action sampling.
    """

    def __init__(self, spec, envs: Sequence, cfg, build_model: Callable[[], nn.Module], device, seed: int = 0):
        hook = spec.opponents
        if spec.num_agents != 2 or hook is None:
            raise ValueError(f"league.enabled needs an encounter with two agents and an opponents hook (e.g. "
                             f"pvp_selfplay); {spec.name!r} has {spec.num_agents} agent(s) and "
                             f"{'an' if hook is not None else 'no'} opponents hook")
        missing = [m for m in REQUIRED_METRICS if m not in spec.metric_names]
        if missing:
            raise ValueError(f"league.enabled needs the episode metrics {list(REQUIRED_METRICS)}; {spec.name!r} "
                             f"lacks {missing}")
        if spec.outcome is None or not spec.outcome.failure:
            raise ValueError(f"league.enabled scores wins against losses: {spec.name!r} must declare an outcome "
                             f"with a failure metric (EncounterSpec.outcome)")
        for tier in cfg.scripted:
            if not isinstance(tier, str):
                raise ValueError(f"league.scripted lists tiers by name ({', '.join(hook.tier_names)}), got {tier!r}")
            hook.tier_index(tier)             # unknown names raise with the list of tiers
        self.spec, self.hook = spec, hook
        self.envs = list(envs)
        self.device = torch.device(device)
        self.snapshot_every = cfg.snapshot_every
        self.league = League(list(cfg.scripted), max_pool=cfg.max_pool, scripted_fraction=cfg.scripted_fraction,
                             pfsp_weighting=cfg.pfsp, elo_k=cfg.elo_k, seed=seed)
        self.head_sizes = tuple(int(h) for h in spec.head_sizes)
        self.cache_size = cfg.max_pool + CACHE_SPARE
        self._build = build_model
        self._models: OrderedDict[int, nn.Module] = OrderedDict()   # by snapshot id, least recently used first
        self._spare = [self._new_model()]                            # built, holding no snapshot
        state_size = self._spare[0].state_size
        self._state = [torch.zeros(env.num_envs, state_size, device=self.device) for env in self.envs]
        self._actions = [np.zeros((env.num_envs, len(self.head_sizes)), dtype=np.int64) for env in self.envs]
        self._seen_tick = [-1] * len(self.envs)     # env.tick whose finished episodes are recorded
        self._col = {m: spec.metric_names.index(m) for m in REQUIRED_METRICS}
        self.generator = torch.Generator(device=self.device)
        self.generator.manual_seed(int(seed) % 2**63)

    # ---- the per-iteration hook ----------------------------------------------------------------------
    def start(self, model: nn.Module, iteration: int) -> None:
        """Before the envs reset: a first snapshot of ``model`` if the pool is empty, then every env's
        opponent."""
        if not self.league.snapshot_ids:
            self.league.add_snapshot(f"iter_{iteration}", model.state_dict())
        self._assign()

    def after_iteration(self, iteration: int, model: nn.Module) -> None:
        """After a rollout (no env stepping): record, snapshot on schedule, assign, release."""
        for k, env in enumerate(self.envs):
            self._record(k, env)
        if iteration % self.snapshot_every == 0:
            self.league.add_snapshot(f"iter_{iteration}", model.state_dict())
        self._assign()

    def _assign(self) -> None:
        for env in self.envs:
            a = self.league.assign(env.num_envs)
            scripted = a.is_scripted
            s, p = np.flatnonzero(scripted), np.flatnonzero(~scripted)
            if s.size:
                self.hook.set(env, s, tier=a.tier_indices(self.hook.tier_names)[s])
            if p.size:
                self.hook.set(env, p, slot=a.slots[p])
        # the new assignments draw from the pool only; a retired snapshot lives while an episode plays it
        playing = np.concatenate([self.hook.current(env)[2] for env in self.envs])
        for sid in self.league.release(playing[playing >= 0]):
            model = self._models.pop(sid, None)
            if model is not None:
                self._spare.append(model)

    def _record(self, k: int, env) -> None:
        """The outcomes of the episodes that ended in ``env``'s last step, once per step."""
        if env.tick == self._seen_tick[k]:
            return
        self._seen_tick[k] = env.tick
        _, rows = env.finished_last_step()
        if not len(rows):
            return
        names, col = self.hook.tier_names, self._col
        opponents = [names[int(t)] if t >= 0 else int(s)
                     for t, s in zip(rows[:, col["opponent_tier"]], rows[:, col["opponent_slot"]], strict=True)]
        won, lost, _ = outcome_columns(self.spec, rows)
        scores = 0.5 + 0.5 * (won - lost)
        self.league.record_many(opponents, scores.tolist())

    # ---- agent 1's actions ---------------------------------------------------------------------------
    @torch.no_grad()
    def act(self, k: int, env, obs: np.ndarray, mask: np.ndarray, first: torch.Tensor) -> np.ndarray:
        """Agent 1's actions [envs, heads] in half ``k`` (the Collector's ``opponent_act``): sampled from
        each env's snapshot; zeros (ignored) where a scripted tier plays. ``obs``/``mask``: every agent's
        [envs, agents, ...]; ``first``: bool [envs], the observation starts an episode."""
        self._record(k, env)
        out, state = self._actions[k], self._state[k]
        out.fill(0)
        for sid, rows in group_envs(self.hook.current(env)[2]).items():
            model = self._model(sid)
            idx = torch.from_numpy(rows)
            dev_idx = idx.to(self.device)
            o = torch.from_numpy(obs[rows, 1]).to(self.device)
            m = torch.from_numpy(mask[rows, 1]).to(self.device)
            logits, new_state = model.act(o, state[dev_idx], first[idx].to(self.device))     # no value needed
            state[dev_idx] = new_state
            out[rows] = MaskedMultiCategorical(logits, m, self.head_sizes).sample(self.generator).cpu().numpy()
        return out

    def _new_model(self) -> nn.Module:
        return self._build().to(self.device).eval().requires_grad_(False)

    def _model(self, sid: int) -> nn.Module:
        """The frozen model of snapshot ``sid``, from the cache (least recently used evicted)."""
        model = self._models.pop(sid, None)
        if model is None:
            if self._spare:
                model = self._spare.pop()
            elif len(self._models) >= self.cache_size:
                model = self._models.popitem(last=False)[1]
            else:
                model = self._new_model()
            try:
                model.load_state_dict(self.league.weights(sid))
            except KeyError:
                raise KeyError(f"an env plays policy slot {sid}, which the league does not hold (snapshots "
                               f"{list(self.league.snapshot_ids)}, retired {list(self.league.retired_ids)}): "
                               "were opponents set outside the league?") from None
        self._models[sid] = model
        return model

    # ---- logs and checkpoints --------------------------------------------------------------------------
    def scalars(self) -> dict[str, float]:
        """The league's Elo ratings and the learner's win rate per opponent (``League.scalars``)."""
        return self.league.scalars()

    def state_dict(self) -> dict:
        """Plain values and tensors only (``torch.load(..., weights_only=True)`` reads it)."""
        return {"version": STATE_VERSION, "league": self.league.state_dict()}

    def load_state_dict(self, state: dict) -> None:
        if state.get("version") != STATE_VERSION:
            raise ValueError(f"self-play state version {state.get('version')!r}, expected {STATE_VERSION}")
        self.league.load_state_dict(state["league"])
        self._spare.extend(self._models.values())
        self._models.clear()

    def print_table(self, console=None, title: str = "league") -> None:
        """The league table (rich): the learner's games, win rate with its 95 % interval, Elo."""
        from rich.console import Console
        from rich.table import Table

        console = console or Console()
        table = Table(title=title)
        for col in ("opponent", "kind", "games", "learner win rate", "95 % interval", "Elo"):
            table.add_column(col, justify="right")
        for r in self.league.table():
            table.add_row(r.name, r.kind, str(r.games), f"{100 * r.win_rate:.1f} %" if r.games else "-",
                          f"{100 * r.low:.1f}-{100 * r.high:.1f} %" if r.games else "-", f"{r.elo:.0f}")
        console.print(table)
