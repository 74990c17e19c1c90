"""Episodes for the audit: played by a policy, or re-simulated from replay files, tallied tick by tick.

Both sources feed the encounter's ``Truth.tick`` the state records before and after every tick of
agent 0 and keep, per episode, an :class:`EpisodeTally`: ticks stood and attacks made per tile, attacks
per target and per window tick, attacks on targets the reference says were not attackable, the largest
damage per source in one tick, and the episode's end-of-fight metrics.

A policy plays ``episodes`` envs of one VecEnv, one episode each (as ``osrs_rl.train.evaluate`` does),
sampling its actions unless ``greedy``; each episode is kept as a replay too, so that a flagged one
can be saved and watched (``osrs-rl view``).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from osrs_rl.replay.file import Replay, ReplayError, load_replay
from osrs_rl.replay.record import state_digest, state_record
from osrs_rl.replay.verify import replay_steps, start_env
from osrs_rl.runtime.recording import user_settings
from osrs_rl.runtime.registry import get_spec
from osrs_rl.runtime.truth import Hit, Truth, check_tick

Progress = Callable[[int, int], None]


@dataclass
class StyleTally:
    """The hits of one (source, style) on the agent: how many landed, how many no prayer protected, the damage
    they dealt, and the damage of the unprotected ones (the audit's evidence that the attack can hurt)."""

    hits: int = 0
    unprotected: int = 0
    damage: int = 0
    unprotected_damage: int = 0

    def add(self, hit: Hit) -> None:
        self.hits += 1
        self.damage += int(hit.amount)
        if not hit.blocked:
            self.unprotected += 1
            self.unprotected_damage += int(hit.amount)

    def merge(self, other: StyleTally) -> None:
        self.hits += other.hits
        self.unprotected += other.unprotected
        self.damage += other.damage
        self.unprotected_damage += other.unprotected_damage


@dataclass
class EpisodeTally:
    """What one episode of agent 0 did, tick by tick."""

    label: str                                         # where it came from: "seed 0, env 3" or a replay path
    ticks: int = 0
    stood: Counter = field(default_factory=Counter)    # (x, y) -> ticks stood there
    attacked_from: Counter = field(default_factory=Counter)   # (x, y) -> attacks made from there
    attacks: int = 0
    by_target: Counter = field(default_factory=Counter)
    not_attackable: int = 0                            # attacks on a target the reference says was not attackable
    attackable_ticks: int = 0                          # ticks the main target was attackable
    window_ticks: Counter = field(default_factory=Counter)     # window tick -> ticks the episode reached it
    by_window_tick: Counter = field(default_factory=Counter)   # window tick -> attacks on the main target
    outside_window: int = 0                            # attacks on the main target while no window was open
    damage: Counter = field(default_factory=Counter)   # damage metric -> taken over the episode, read per tick
    largest_hit: dict = field(default_factory=dict)    # damage metric -> the most taken from it in one tick
    by_style: dict = field(default_factory=dict)       # "source/style" -> StyleTally
    metrics: dict | None = None                        # end-of-fight metrics; None for an unfinished replay
    terminated: bool = False
    truncated: bool = False
    replay: Replay | None = None                       # the episode as a replay (policy episodes), to save if flagged

    def add(self, t: dict, window: str | None) -> None:
        tile = (int(t["x"]), int(t["y"]))
        self.ticks += 1
        self.stood[tile] += 1
        self.attackable_ticks += bool(t["attackable"])
        if t["window_tick"] is not None:
            self.window_ticks[int(t["window_tick"])] += 1
        if t["attack"]:
            self.attacks += 1
            self.attacked_from[tile] += 1
            self.by_target[str(t["target"])] += 1
            self.not_attackable += not t["target_attackable"]
            if t["target"] == window and t["window_tick"] is None:
                self.outside_window += 1
            elif t["target"] == window:
                self.by_window_tick[int(t["window_tick"])] += 1
        for name, amount in t["damage"].items():
            self.damage[name] += int(amount)
            self.largest_hit[name] = max(self.largest_hit.get(name, 0), int(amount))
        for hit in t.get("hits", ()):
            hit = Hit(*hit)
            self.by_style.setdefault(f"{hit.source}/{hit.style}", StyleTally()).add(hit)


def _metrics_row(spec, row) -> dict:
    return {name: float(v) for name, v in zip(spec.metric_names, row, strict=True)}


# ---- a policy plays --------------------------------------------------------------------------------
def play_policy(policy, truth: Truth, episodes: int = 16, seed: int = 0, greedy: bool = False,
                config: dict | None = None, opponents: list | None = None,
                progress: Progress | None = None) -> tuple[list[EpisodeTally], np.void]:
    """``episodes`` episodes of ``policy`` (``osrs_rl.agent.policy.Policy``), one per env, agent 0
    acting; ``opponents``: scripted tiers spread over the envs (default: those it trained against).
    Returns the tallies and the config record they were played under."""
    import torch

    import osrs_rl
    from osrs_rl.train.ppo import spread_opponents

    if episodes < 1:
        raise ValueError(f"episodes must be at least 1, got {episodes}")
    spec = get_spec(policy.encounter)
    env = osrs_rl.make(spec.name, num_envs=episodes, seed=seed, **{**policy.env_config, **(config or {})})
    tiers = list(opponents) if opponents else list(dict.fromkeys(policy.opponents))
    if tiers:
        if spec.opponents is None:
            raise ValueError(f"encounter {spec.name!r} has no opponents to choose")
        spread_opponents(env, spec, tiers)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)          # a batch of a few dozen rows: more threads only wait on each other
    try:
        return _play(env, policy.model, truth, seed, greedy, progress), env.config[0].copy()
    finally:
        torch.set_num_threads(threads)


def _play(env, model, truth: Truth, seed: int, greedy: bool, progress: Progress | None) -> list[EpisodeTally]:
    import torch

    from osrs_rl.agent.policy import policy_actions

    spec, episodes = env.spec, env.num_envs
    device = next(model.parameters()).device
    heads = tuple(int(h) for h in spec.head_sizes)
    generator = torch.Generator(device=device)
    generator.manual_seed(seed)
    multi = spec.num_agents > 1
    obs, info = env.reset()
    cfg = env.config[0]
    snapshots = [env.snapshot(i) for i in range(episodes)]
    tallies = [EpisodeTally(f"seed {seed}, env {i}") for i in range(episodes)]
    actions_log, rewards_log = [], []
    state = model.initial_state(episodes, device)
    first = torch.ones(episodes, dtype=torch.bool, device=device)
    done = np.zeros(episodes, dtype=bool)
    finished = 0
    with torch.no_grad():
        while not done.all():
            act, state = policy_actions(model, obs, info, state, first, heads, spec.num_agents, greedy, generator)
            full = act if multi else act[:, None]
            previous = env.states.copy()
            obs, reward, term, trunc, info = env.step(act)
            actions_log.append(full)
            rewards_log.append(np.asarray(reward, dtype=np.float32).reshape(episodes, spec.num_agents).copy())
            for i in np.flatnonzero(~done):
                tallies[i].add(check_tick(truth.tick(previous[i], env.states[i], cfg, 0), spec.name), truth.window)
            ended = (term | trunc) & ~done
            if ended.any():
                ids, rows = env.finished_last_step()
                for i, row in zip(ids, rows, strict=True):
                    if done[i]:
                        continue
                    t = tallies[i]
                    t.metrics, t.terminated, t.truncated = _metrics_row(spec, row), bool(term[i]), bool(trunc[i])
                    n = t.ticks
                    t.replay = Replay(spec.name, spec.version, user_settings(env), snapshots[i],
                                      np.array([a[i] for a in actions_log[:n]], dtype=np.int64),
                                      np.array([r[i] for r in rewards_log[:n]], dtype=np.float32),
                                      t.terminated, t.truncated, state_digest(state_record(env, i)),
                                      meta={"audit": t.label, "greedy": greedy})
                done |= ended
                finished += int(ended.sum())
                if progress is not None:
                    progress(finished, episodes)
    return tallies


# ---- replays are re-simulated --------------------------------------------------------------------
def replay_paths(path: Path) -> list[Path]:
    """A replay file, or every ``*.orlr`` under a folder (sorted)."""
    path = Path(path)
    if path.is_file():
        return [path]
    found = sorted(p for p in path.rglob("*.orlr") if p.is_file())
    if not found:
        raise ReplayError(f"no replay files (*.orlr) under {path}")
    return found


def _fingerprint(replay: Replay) -> str:
    h = hashlib.sha256(replay.initial_snapshot)
    h.update(replay.actions.tobytes())
    return h.hexdigest()


def load_replays(paths: list[Path]) -> list[tuple[Path, Replay]]:
    """The replays of ``paths``, one encounter, each episode once (``best-*.orlr`` copies another file)."""
    out, seen = [], set()
    for p in paths:
        replay = load_replay(p)
        if out and replay.encounter != out[0][1].encounter:
            raise ReplayError(f"{p} is a {replay.encounter!r} replay; {out[0][0]} is {out[0][1].encounter!r}: "
                              "audit one encounter at a time")
        key = _fingerprint(replay)
        if key not in seen:
            seen.add(key)
            out.append((p, replay))
    return out


def resimulate(replays: list[tuple[Path, Replay]], truth: Truth, progress: Progress | None = None,
               ) -> tuple[list[EpisodeTally], np.void]:
    """Re-simulate each replay (``osrs_rl.replay.verify``'s path) and tally its ticks. Returns the
    tallies and the first replay's config record."""
    tallies, first = [], None
    for k, (path, replay) in enumerate(replays):
        env = start_env(replay)
        spec, cfg = env.spec, env.config[0]
        first = cfg.copy() if first is None else first
        tally = EpisodeTally(str(path))
        previous = env.states[0].copy()
        term = trunc = False
        for _, (_, _, terminated, truncated, _) in replay_steps(replay, env):
            tally.add(check_tick(truth.tick(previous, env.states[0], cfg, 0), spec.name), truth.window)
            previous = env.states[0].copy()
            term, trunc = bool(terminated[0]), bool(truncated[0])
        if term or trunc:
            _, rows = env.finished_last_step()
            tally.metrics = _metrics_row(spec, rows[0])
        tally.terminated, tally.truncated = term, trunc
        tallies.append(tally)
        if progress is not None:
            progress(k + 1, len(replays))
    return tallies, first
