"""A plain, single-file "textbook" PPO: the reference baseline of issue 19.

Issue 19 asks that the project's trainer (osrs_rl.train) beat a textbook PPO both per sample and per
second. This file is that textbook PPO, written to be easy to check against the papers and the
well-known single-file implementations, with none of the trainer's extras: PPO-clip (Schulman et al.
2017, arXiv:1707.06347) with GAE (Schulman et al. 2016, arXiv:1506.02438) and the usual details
(Huang et al. 2022, "The 37 Implementation Details of Proximal Policy Optimization", ICLR blog track):

- separate actor and critic MLPs (``--shared``: one body under both heads), 2 hidden tanh layers of 128,
  orthogonal init (gain sqrt(2) hidden,
  0.01 policy head, 1.0 value head), zero biases; no observation or reward normalisation;
- one Categorical per action head (MultiDiscrete), invalid actions' logits set to -1e8 from the mask
  in ``info["action_mask"]``; log-probabilities and entropies summed over heads;
- Adam, constant lr 1e-3, eps 1e-5; gamma 0.99, lambda 0.95; clip 0.2, no value clipping; entropy
  coefficient 0.01, value coefficient 0.5 (on 0.5 * squared error); advantages normalised per
  minibatch; gradient norm clipped at 0.5; 512 envs, horizon 64, 1 epoch of 4 minibatches.

The env is stepped only through the Gymnasium adapter (osrs_rl.runtime.adapters.gymnasium). Its
autoreset is next-step: the step that ends an episode returns the final observation with terminated
or truncated set, and the *next* step resets that env, ignores its action and returns reward 0 and
the first observation. That next step is a "reset step": it is left out of the loss and its
advantage is 0, and GAE never crosses a done. Truncation (the tick limit) is treated as terminal, no
bootstrap: textbook behaviour, and Zulrah's timeout carries an outcome reward anyway.

Episode outcomes are the encounter's declared ``Outcome`` (spec.outcome) read from the VecEnv's
finished-episode metrics (``pop_metrics``), the same numbers the trainer logs as ``episode/killed``
and ``episode/died`` for Zulrah: success = the success metric, loss = any failure metric (0 when the
encounter declares none), timeout = the timeout metric.

Issue 19's measurement (Zulrah, max gear, 600 ticks, kill +1, death -1, timeout -1, scaffolding on):

    python scripts/textbook_ppo.py --encounter zulrah --total-steps 4000000 --seed 1 \\
        --set gear_tier=2 --set max_ticks=600 --set kill_reward=1 --set death_reward=-1 \\
        --set timeout_reward=-1 --set scaffolding=true --out textbook_zulrah_seed1.csv

(4,000,000 rounds up to whole updates of 512 x 64 steps: 122 updates, 3,997,696 steps.)

These defaults are the textbook's, not a reference to race: issue 43 found a practitioner's configuration
of the same file (one shared body, 2 epochs, 256 envs, the preset's gamma) much stronger per sample. The
strong reference of an encounter is the best configuration of this file's own sweep
(scripts/reference_sweep.py, docs/reference.md), which scripts/compare_textbook.py runs. ``--stop-at``
ends a run once its smoothed training metric reaches a level (the sweep times each run to one).
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import time

import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

from osrs_rl.runtime.adapters.gymnasium import GymVectorEnv
from osrs_rl.runtime.config import settings_from_text
from osrs_rl.runtime.registry import get_spec
from osrs_rl.sweep.level import LevelWatch
from osrs_rl.train.evaluate import outcome_columns
from osrs_rl.train.ppo import spread_opponents

COLUMNS = ("env_steps", "wall_s", "since_first_step_s", "steps_per_s", "episodes", "success_rate", "loss_rate",
           "timeout_rate", "success_minus_loss", "progress", "invalid_actions")
MASKED_LOGIT = -1e8       # finite: exp() underflows to exactly 0, so the entropy stays 0 * x = 0, never NaN


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--encounter", default="zulrah")
    p.add_argument("--total-steps", type=int, default=4_000_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--num-envs", type=int, default=512)
    p.add_argument("--horizon", type=int, default=64)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--lam", type=float, default=0.95)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--minibatches", type=int, default=4)
    p.add_argument("--stop-at", type=float, default=None, metavar="LEVEL",
                   help="end the run once the training episodes' --stop-metric, smoothed over --stop-window env "
                        "steps, reaches LEVEL (a sweep scored by steps to a level need not run past it)")
    p.add_argument("--stop-metric", choices=("success", "progress"), default="success")
    p.add_argument("--stop-window", type=int, default=500_000, help="env steps the stopping rule smooths over")
    p.add_argument("--shared", action="store_true",
                   help="one tanh body shared by the policy and the value (default: separate actor and critic)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="encounter setting (repeatable)")
    p.add_argument("--opponents", default="", metavar="TIER,TIER,...",
                   help="scripted tiers spread over the envs, env i fighting tier i mod len (the trainer's "
                        "env.opponents; default: the encounter's own opponent)")
    p.add_argument("--log-every", type=float, default=10.0, help="seconds between log lines")
    p.add_argument("--threads", type=int, default=None, help="torch.set_num_threads (default: torch's own)")
    p.add_argument("--out", default=None, help="CSV of the log lines (refused if it exists)")
    return p.parse_args(argv)


def encounter_config(name: str, pairs: list[str]) -> dict:
    """``--set KEY=VALUE`` as config overrides, parsed by the encounter's own fields (ints, floats,
    bools, named choices such as gear_tier=max)."""
    texts = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise SystemExit(f"--set takes KEY=VALUE, got {pair!r}")
        texts[key.strip()] = value.strip()
    return settings_from_text(get_spec(name), texts)


def layer(n_in: int, n_out: int, gain: float) -> nn.Linear:
    lin = nn.Linear(n_in, n_out)
    nn.init.orthogonal_(lin.weight, gain)
    nn.init.zeros_(lin.bias)
    return lin


def body(n_in: int, width: int = 128) -> nn.Sequential:
    """Two tanh layers of ``width``, orthogonal gain sqrt(2)."""
    g = float(np.sqrt(2))
    return nn.Sequential(layer(n_in, width, g), nn.Tanh(), layer(width, width, g), nn.Tanh())


def mlp(n_in: int, n_out: int, head_gain: float, width: int = 128) -> nn.Sequential:
    return nn.Sequential(*body(n_in, width), layer(width, n_out, head_gain))


class Agent(nn.Module):
    """Separate actor and critic MLPs, or with ``shared`` one tanh body of 128 x 2 under both heads (the
    single-file Atari layout of CleanRL's ``ppo_atari.py``, which a practitioner reaches for first)."""

    def __init__(self, obs_size: int, head_sizes, shared: bool = False, width: int = 128):
        super().__init__()
        self.head_sizes = [int(h) for h in head_sizes]
        if shared:
            trunk = body(obs_size, width)
            self.actor = nn.Sequential(trunk, layer(width, sum(self.head_sizes), 0.01))
            self.critic = nn.Sequential(trunk, layer(width, 1, 1.0))    # the same body module: one set of weights
        else:
            self.actor = mlp(obs_size, sum(self.head_sizes), 0.01, width)
            self.critic = mlp(obs_size, 1, 1.0, width)

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.critic(obs).squeeze(-1)

    def heads(self, obs: torch.Tensor, mask: torch.Tensor) -> list[Categorical]:
        logits = self.actor(obs).masked_fill(~mask, MASKED_LOGIT)
        return [Categorical(logits=lg) for lg in torch.split(logits, self.head_sizes, dim=-1)]

    def act(self, obs, mask):
        """Sampled actions [B, heads], their summed log-probability and the value."""
        dists = self.heads(obs, mask)
        action = torch.stack([d.sample() for d in dists], dim=-1)
        return action, self.log_prob(dists, action), self.value(obs)

    @staticmethod
    def log_prob(dists, action):
        return sum(d.log_prob(action[..., k]) for k, d in enumerate(dists))


def gae(reward, value, done, valid, last_value, gamma: float, lam: float):
    """Advantages [T, B]; ``done[t]`` ends the episode at t (no bootstrap, truncation included), a
    step that is not ``valid`` (a reset step) gets 0 and, since the step before it is done, passes
    nothing back."""
    T = reward.shape[0]
    adv = torch.zeros_like(reward)
    carry = torch.zeros_like(last_value)
    for t in range(T - 1, -1, -1):
        nxt = last_value if t == T - 1 else value[t + 1]
        live = 1.0 - done[t]
        delta = reward[t] + gamma * nxt * live - value[t]
        carry = (delta + gamma * lam * live * carry) * valid[t]
        adv[t] = carry
    return adv


def outcome_rates(spec, metrics: list[dict]) -> tuple[int, float, float, float, float]:
    """(episodes, success rate, loss rate, timeout rate, mean progress) over finished-episode metrics
    (pop_metrics), won and lost read as the evaluation reads them (``outcome_columns``); progress is
    the encounter's declared ``outcome.progress`` metric (the Inferno's final wave), NaN without one."""
    out = spec.outcome
    n = sum(len(m["phase"]) for m in metrics)
    if n == 0 or out is None:
        return n, float("nan"), float("nan"), float("nan"), float("nan")
    rows = np.concatenate([np.stack([m[name] for name in spec.metric_names], axis=1) for m in metrics])
    won, lost, _ = outcome_columns(spec, rows)
    timeout = rows[:, spec.metric_names.index(out.timeout)].mean() if out.timeout else float("nan")
    progress = rows[:, spec.metric_names.index(out.progress)].mean() if out.progress else float("nan")
    return n, float(won.mean()), float(lost.mean()), float(timeout), float(progress)


def main(argv=None) -> int:
    args = parse_args(argv)
    t_start = time.perf_counter()
    if args.threads is not None:
        torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    config = encounter_config(args.encounter, args.set)
    if args.out and os.path.exists(args.out):
        raise SystemExit(f"--out {args.out} exists; name a new file")
    env = GymVectorEnv(args.encounter, num_envs=args.num_envs, seed=args.seed, **config)
    tiers = [t.strip() for t in args.opponents.split(",") if t.strip()]
    spread_opponents(env.env, env.env.spec, tiers)       # before the first reset, which applies them
    out_file = open(args.out, "x", newline="") if args.out else None    # "x": never overwrite
    writer = csv.writer(out_file) if out_file else None
    if writer:
        writer.writerow(COLUMNS)
    spec = env.env.spec
    N, T = args.num_envs, args.horizon
    agent = Agent(spec.obs_size, spec.head_sizes, shared=args.shared)
    optim = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    updates = -(-args.total_steps // (N * T))
    print(f"textbook PPO on {args.encounter} {config}: {N} envs x {T} steps x {updates} updates, "
          f"obs {spec.obs_size}, heads {[int(h) for h in spec.head_sizes]}, "
          f"{'a shared body' if args.shared else 'separate actor and critic'}, torch threads {torch.get_num_threads()}",
          flush=True)

    obs_np, info = env.reset(seed=args.seed)
    obs, mask = torch.from_numpy(obs_np), torch.from_numpy(info["action_mask"].astype(np.bool_))
    pending = torch.zeros(N, dtype=torch.bool)      # the last step ended the episode: this step resets
    buf_obs = torch.zeros((T, N, spec.obs_size))
    buf_mask = torch.zeros((T, N, spec.mask_size), dtype=torch.bool)
    buf_act = torch.zeros((T, N, spec.num_heads), dtype=torch.long)
    buf_logp, buf_val, buf_rew, buf_done, buf_valid = (torch.zeros((T, N)) for _ in range(5))

    steps, invalid, t_first, episodes = 0, 0, None, []
    watch = LevelWatch(args.stop_at, args.stop_window) if args.stop_at is not None else None
    reached = False
    last_log_t, last_log_steps = t_start, 0
    for update in range(1, updates + 1):
        # ---- rollout ----
        for t in range(T):
            with torch.no_grad():
                action, logp, value = agent.act(obs, mask)
            buf_obs[t], buf_mask[t], buf_act[t], buf_logp[t], buf_val[t] = obs, mask, action, logp, value
            buf_valid[t] = (~pending).float()
            obs_np, rew, term, trunc, info = env.step(action.numpy())
            steps += N
            if t_first is None:                      # after the first step: compilation is behind us
                t_first = last_log_t = time.perf_counter()
                last_log_steps = steps
            invalid += int(info["invalid_actions"].sum())
            done = torch.from_numpy(term | trunc)
            buf_rew[t] = torch.from_numpy(rew.astype(np.float32))
            buf_done[t] = done.float()
            pending = done
            obs, mask = torch.from_numpy(obs_np), torch.from_numpy(info["action_mask"].astype(np.bool_))
        m = env.env.pop_metrics()            # the VecEnv's finished-episode log (kept short by popping it)
        if len(m["phase"]):
            episodes.append(m)
        if watch is not None:
            n, win, _, _, progress = outcome_rates(spec, [m] if len(m["phase"]) else [])
            reached = watch.add(steps, win if args.stop_metric == "success" else progress, n)

        # ---- advantages ----
        with torch.no_grad():
            adv = gae(buf_rew, buf_val, buf_done, buf_valid, agent.value(obs), args.gamma, args.lam)
        ret = adv + buf_val

        # ---- one PPO update over the valid samples ----
        keep = buf_valid.reshape(-1).bool()
        b_obs, b_mask = buf_obs.reshape(-1, spec.obs_size)[keep], buf_mask.reshape(-1, spec.mask_size)[keep]
        b_act, b_logp = buf_act.reshape(-1, spec.num_heads)[keep], buf_logp.reshape(-1)[keep]
        b_adv, b_ret = adv.reshape(-1)[keep], ret.reshape(-1)[keep]
        for _ in range(args.epochs):
            for idx in torch.randperm(len(b_adv)).chunk(args.minibatches):
                dists = agent.heads(b_obs[idx], b_mask[idx])
                ratio = (Agent.log_prob(dists, b_act[idx]) - b_logp[idx]).exp()
                a = b_adv[idx]
                a = (a - a.mean()) / (a.std() + 1e-8)
                pg_loss = torch.max(-a * ratio, -a * ratio.clamp(1 - args.clip, 1 + args.clip)).mean()
                v_loss = 0.5 * (agent.value(b_obs[idx]) - b_ret[idx]).pow(2).mean()
                entropy = sum(d.entropy() for d in dists).mean()
                loss = pg_loss - args.ent_coef * entropy + 0.5 * v_loss
                optim.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                optim.step()

        # ---- log ----
        now = time.perf_counter()
        if now - last_log_t >= args.log_every or update == updates or reached:
            n, win, lose, timeout, progress = outcome_rates(spec, episodes)
            row = (steps, round(now - t_start, 2), round(now - t_first, 2),
                   round((steps - last_log_steps) / max(now - last_log_t, 1e-9), 1), n,
                   win, lose, timeout, win - lose, progress, invalid)
            print(f"steps {steps:>10,} | {row[1]:8.1f} s ({row[2]:.1f} s stepping) | {row[3]:9,.0f} steps/s | "
                  f"{n:5d} episodes: success {win:6.1%} loss {lose:6.1%} timeout {timeout:6.1%} "
                  f"success-loss {win - lose:+.3f}" + (f" progress {progress:.2f}" if progress == progress else "")
                  + f" | pg {pg_loss.item():+.4f} v {v_loss.item():.4f} "
                  f"ent {entropy.item():.3f}", flush=True)
            if writer:
                writer.writerow(row)
                out_file.flush()
            episodes, last_log_t, last_log_steps = [], now, steps
        if reached:
            print(f"--stop-at {args.stop_at}: the {args.stop_metric} over the last {args.stop_window:,} steps "
                  f"reached it at {steps:,} steps", flush=True)
            break
    if out_file:
        out_file.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
