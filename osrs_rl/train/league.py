"""The self-play league: who the learner plays (scripted tiers and frozen snapshots of itself, drawn by
prioritized fictitious self-play) and how strong everyone is (win rates with Wilson intervals, Elo).

Nothing here knows an encounter. An opponent id is a scripted tier's name (``str``) or a snapshot's
id (``int``, 0..``max_id``); outcomes are from the learner's view: win 1, loss 0, draw 0.5.

PFSP (AlphaStar, Vinyals et al. 2019, "prioritized fictitious self-play"): a snapshot is drawn with
weight f(p), p the learner's smoothed win rate against it: "hard" (1 - p)^2 favours the opponents it
loses to, "variance" p (1 - p) the even matches, "uniform" 1. The smoothing is a Beta(prior, prior)
prior over exponentially discounted results (old results fade as the learner changes), so an unseen
opponent has p = 0.5 and no weight is ever zero.

Wiring into ``pvp_selfplay`` (``osrs_rl/encounters/pvp/opponents.py``): a scripted tier maps to
``set_opponents(env, tier=<index in TIER_NAMES>)``, a snapshot to ``set_opponents(env, slot=<id>)``.
A choice takes effect at each env's next reset, so route player 1 by the slot of the episode being
played (``opponents(env)``), never by the latest assignment::

    a = league.assign(env.num_envs)                      # once per rollout (or for the finished envs)
    s, p = np.flatnonzero(a.is_scripted), np.flatnonzero(~a.is_scripted)
    pvp.set_opponents(env, tier=a.tier_indices(TIER_NAMES)[s], env_ids=s)
    pvp.set_opponents(env, slot=a.slots[p], env_ids=p)
    ...
    _, _, slot = pvp.opponents(env)                      # every step: this episode's player 1
    for sid, envs in group_envs(slot).items():           # one forward pass per snapshot
        actions[envs, 1] = frozen[sid](obs[envs, 1])     # frozen[sid] loads league.weights(sid)
    ...
    ids = [TIER_NAMES[t] if t >= 0 else int(q) for t, q in zip(tiers, slots)]   # finished fights'
    league.record_many(ids, 0.5 + 0.5 * (won - lost))    # opponent_tier / opponent_slot / won / lost metrics
    league.add_snapshot(f"iter_{it}", model.state_dict())
    a = league.assign(env.num_envs)                      # then set_opponents as above: pending resets
    league.release(in_use=pvp.opponents(env)[2])         # now point at live snapshots; free the rest

The env stores a slot as int16 (``opponents.MAX_SLOT`` = 32767): ``max_id`` defaults to that, and past
it ids wrap around to 0, skipping the live ones. An evicted snapshot is *retired*, not dropped: episodes
that already play it keep their weights and results until ``release`` frees it.
"""

from __future__ import annotations

import copy
import dataclasses
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

import numpy as np
import torch

OpponentId = int | str          # a snapshot's id, or a scripted tier's name
LEARNER = "learner"             # the learner's name in ratings, tables and scalars
MAX_SNAPSHOT_ID = 32767         # pvp opponents.MAX_SLOT: the env keeps a slot in an int16
WEIGHTINGS = ("hard", "variance", "uniform")
OUTCOMES = {"win": 1.0, "loss": 0.0, "draw": 0.5}
WILSON_Z = 1.96                 # 95 % two-sided normal quantile
STATE_VERSION = 1


# ---- small pure helpers ---------------------------------------------------------------------------
def wilson(score: float, games: int, z: float = WILSON_Z) -> tuple[float, float]:
    """Wilson score interval of a win rate; ``score`` counts a draw as half a win.

    >>> [round(x, 4) for x in wilson(8, 10)]
    [0.4902, 0.9433]
    """
    if games == 0:
        return 0.0, 1.0
    p, zz = score / games, z * z
    centre = (p + zz / (2 * games)) / (1 + zz / games)
    half = z * math.sqrt(p * (1 - p) / games + zz / (4 * games * games)) / (1 + zz / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def elo_expected(rating: float, other: float) -> float:
    """Expected score of ``rating`` against ``other`` (logistic, 400 points = 10:1 odds)."""
    return 1.0 / (1.0 + 10.0 ** ((other - rating) / 400.0))


def pfsp_weight(p: float, weighting: str) -> float:
    """PFSP weight of an opponent the learner beats with probability ``p``."""
    if weighting == "hard":
        return (1.0 - p) ** 2
    if weighting == "variance":
        return p * (1.0 - p)
    return 1.0


def group_envs(slots) -> dict[int, np.ndarray]:
    """Env indices per snapshot id, ids ascending; entries < 0 (a scripted opponent) are skipped.

    >>> group_envs([3, -1, 0, 3])
    {0: array([2]), 3: array([0, 3])}
    """
    slots = np.asarray(slots)
    if slots.ndim != 1 or slots.dtype.kind not in "iu":
        raise ValueError(f"slots must be a 1-D integer array (one per env), got {slots.dtype} {slots.shape}")
    envs = np.flatnonzero(slots >= 0)
    if not envs.size:
        return {}
    order = envs[np.argsort(slots[envs], kind="stable")]
    ids, starts = np.unique(slots[order], return_index=True)
    return {int(i): part for i, part in zip(ids, np.split(order, starts[1:]), strict=True)}


def _outcome(outcome) -> float:
    if isinstance(outcome, str) and outcome in OUTCOMES:
        return OUTCOMES[outcome]
    if isinstance(outcome, int | float | np.integer | np.floating) and not isinstance(outcome, bool | np.bool_):
        if float(outcome) in (0.0, 0.5, 1.0):
            return float(outcome)
    raise ValueError(f"outcome must be 'win', 'loss', 'draw' or 1, 0, 0.5 (learner's view), got {outcome!r}")


def _cpu_copy(state_dict: Mapping) -> dict:
    if not isinstance(state_dict, Mapping):
        raise TypeError(f"state_dict must be a mapping of names to tensors, got {type(state_dict).__name__}")
    return {k: v.detach().to("cpu").clone() if isinstance(v, torch.Tensor) else copy.deepcopy(v)
            for k, v in state_dict.items()}


# ---- records ----------------------------------------------------------------------------------------
@dataclasses.dataclass
class _Record:
    """Results against one opponent: raw counts for tables, discounted ones for PFSP."""
    games: int = 0
    wins: int = 0
    draws: int = 0
    disc_score: float = 0.0     # discounted sum of outcomes
    disc_games: float = 0.0     # discounted game count

    def add(self, score: float, decay: float) -> None:
        self.games += 1
        self.wins += int(score == 1.0)
        self.draws += int(score == 0.5)
        self.disc_score = self.disc_score * decay + score
        self.disc_games = self.disc_games * decay + 1.0

    @property
    def score(self) -> float:
        return self.wins + 0.5 * self.draws


@dataclasses.dataclass
class _Snapshot:
    name: str
    weights: dict
    anchor: bool


class TableRow(NamedTuple):
    name: str
    kind: str                   # "learner", "scripted" or "snapshot"
    games: int
    win_rate: float             # the learner's, a draw counting half (0.5 when unplayed); learner row: all games
    low: float                  # 95 % Wilson interval of win_rate
    high: float
    elo: float


@dataclasses.dataclass(frozen=True)
class Assignment:
    """One opponent per env, as ``League.assign`` drew them."""
    ids: tuple[OpponentId, ...]

    @property
    def is_scripted(self) -> np.ndarray:
        return np.array([isinstance(i, str) for i in self.ids], dtype=bool)

    @property
    def slots(self) -> np.ndarray:
        """Snapshot id per env, -1 where the opponent is scripted."""
        return np.array([-1 if isinstance(i, str) else i for i in self.ids], dtype=np.int64)

    def tier_indices(self, tier_names: Sequence[str]) -> np.ndarray:
        """Index of each env's scripted tier in the encounter's ``tier_names``, -1 for a snapshot."""
        names = list(tier_names)
        missing = sorted({i for i in self.ids if isinstance(i, str) and i not in names})
        if missing:
            raise ValueError(f"scripted tiers {missing} are not in tier_names {names}")
        return np.array([names.index(i) if isinstance(i, str) else -1 for i in self.ids], dtype=np.int64)

    def groups(self) -> dict[int, np.ndarray]:
        """Env indices per snapshot id of this assignment (see ``group_envs``)."""
        return group_envs(self.slots)


# ---- the league -------------------------------------------------------------------------------------
class League:
    """A pool of frozen learner snapshots plus scripted tiers, PFSP sampling, win rates and Elo.

    scripted: scripted tier names the league may draw (may be empty).
    max_pool: most snapshots in the pool; adding one to a full pool retires the oldest non-anchor.
    anchors: the first ``anchors`` snapshots ever added are never evicted (< max_pool).
    scripted_fraction: probability an env gets a scripted tier (every env does while the pool is empty).
    pfsp_weighting / scripted_weighting: "hard", "variance" or "uniform", over snapshots / over tiers.
    winrate_prior: Beta(prior, prior) pseudo-games behind the PFSP win rate (> 0; unseen: 0.5).
    winrate_decay: per-game discount of past results in the PFSP win rate (memory ~ 1 / (1 - decay) games).
    elo_k, elo_start: Elo K factor and the starting rating of the learner and the scripted tiers.
    max_id: largest snapshot id (the encounter's slot limit); past it ids wrap to 0, skipping live ones.
    seed: seeds the sampler; the same seed and calls give the same opponents.

    >>> league = League(["novice", "elite"], max_pool=4, scripted_fraction=0.5, seed=0)
    >>> league.add_snapshot("iter_0", {"w": torch.zeros(2)})
    0
    >>> league.sample_opponents(6)
    [0, 'elite', 'elite', 'elite', 0, 0]
    >>> league.record_many([0, "elite"], ["win", "loss"])
    >>> [(r.name, r.games, round(r.elo, 1)) for r in league.table()]
    [('elite', 1, 1008.2), ('novice', 0, 1000.0), ('learner', 2, 999.8), ('iter_0', 1, 992.0)]
    """

    def __init__(self, scripted: Sequence[str] = (), *, max_pool: int = 16, anchors: int = 1,
                 scripted_fraction: float = 0.2, pfsp_weighting: str = "hard", scripted_weighting: str = "uniform",
                 winrate_prior: float = 1.0, winrate_decay: float = 0.99, elo_k: float = 16.0,
                 elo_start: float = 1000.0, max_id: int = MAX_SNAPSHOT_ID, seed: int = 0):
        scripted = tuple(scripted)
        if not all(isinstance(s, str) and s for s in scripted) or len(set(scripted)) != len(scripted):
            raise ValueError(f"scripted must be distinct non-empty tier names, got {scripted!r}")
        if LEARNER in scripted:
            raise ValueError(f"{LEARNER!r} names the learner; it cannot be a scripted tier")
        if max_pool < 1 or not 0 <= anchors < max_pool:
            raise ValueError(f"need max_pool >= 1 and 0 <= anchors < max_pool, got max_pool={max_pool}, "
                             f"anchors={anchors}")
        if not 0.0 <= scripted_fraction <= 1.0:
            raise ValueError(f"scripted_fraction must lie in [0, 1], got {scripted_fraction}")
        if scripted_fraction > 0 and not scripted:
            raise ValueError(f"scripted_fraction={scripted_fraction} needs scripted tiers; none were given")
        for label, w in (("pfsp_weighting", pfsp_weighting), ("scripted_weighting", scripted_weighting)):
            if w not in WEIGHTINGS:
                raise ValueError(f"{label} must be one of {WEIGHTINGS}, got {w!r}")
        if winrate_prior <= 0 or not 0 < winrate_decay <= 1:
            raise ValueError(f"need winrate_prior > 0 and 0 < winrate_decay <= 1, got {winrate_prior}, "
                             f"{winrate_decay}")
        if max_id < max_pool:     # a new snapshot takes its id before a full pool retires one
            raise ValueError(f"need max_id >= max_pool (ids 0..max_id), got max_id={max_id}, max_pool={max_pool}")
        self.scripted = scripted
        self.max_pool, self.anchors, self.max_id = max_pool, anchors, max_id
        self.scripted_fraction = scripted_fraction
        self.pfsp_weighting, self.scripted_weighting = pfsp_weighting, scripted_weighting
        self.winrate_prior, self.winrate_decay = winrate_prior, winrate_decay
        self.elo_k, self.elo_start = elo_k, elo_start
        self._rng = np.random.default_rng(seed)
        self._pool: dict[int, _Snapshot] = {}         # insertion order is age order
        self._retired: dict[int, _Snapshot] = {}      # evicted, maybe still played: freed by release()
        self._records: dict[OpponentId, _Record] = {s: _Record() for s in scripted}
        self._elo: dict[OpponentId, float] = {s: elo_start for s in scripted}
        self._learner = _Record()
        self._learner_elo = elo_start
        self._next_id = 0
        self._added = 0

    # ---- pool ---------------------------------------------------------------------------------------
    @property
    def snapshot_ids(self) -> tuple[int, ...]:
        """Ids in the pool, oldest first (retired snapshots excluded)."""
        return tuple(self._pool)

    @property
    def retired_ids(self) -> tuple[int, ...]:
        return tuple(self._retired)

    def add_snapshot(self, name: str, state_dict: Mapping) -> int:
        """Add a frozen CPU copy of ``state_dict`` named ``name``; returns its id. It starts at the
        learner's rating. A full pool first retires its oldest non-anchor snapshot."""
        taken = {s.name for s in (*self._pool.values(), *self._retired.values())}
        if not isinstance(name, str) or not name or name == LEARNER or name in self.scripted or name in taken:
            raise ValueError(f"snapshot name must be a new non-empty string, not {LEARNER!r}, a scripted tier "
                             f"or a live snapshot's name; got {name!r}")
        weights = _cpu_copy(state_dict)
        sid = self._new_id()
        if len(self._pool) == self.max_pool:
            oldest = next(i for i, s in self._pool.items() if not s.anchor)
            self._retired[oldest] = self._pool.pop(oldest)
        self._pool[sid] = _Snapshot(name, weights, anchor=self._added < self.anchors)
        self._records[sid] = _Record()
        self._elo[sid] = self._learner_elo
        self._added += 1
        return sid

    def _new_id(self) -> int:
        for _ in range(self.max_id + 1):
            sid, self._next_id = self._next_id, (self._next_id + 1) % (self.max_id + 1)
            if sid not in self._pool and sid not in self._retired:
                return sid
        raise RuntimeError(f"all {self.max_id + 1} snapshot ids are live: call release() to free retired ones")

    def release(self, in_use: Iterable[int] = ()) -> list[int]:
        """Forget the retired snapshots no env plays (weights, results, rating); returns their ids.
        ``in_use``: every slot an env plays now or from its next reset (entries < 0 are ignored)."""
        keep = {int(i) for i in in_use}
        freed = [i for i in self._retired if i not in keep]
        for i in freed:
            del self._retired[i], self._records[i], self._elo[i]
        return freed

    def weights(self, sid: int) -> dict:
        """The stored CPU state dict of snapshot ``sid`` (pool or retired). Load it, don't mutate it."""
        return self._snapshot(sid).weights

    def name_of(self, opponent: OpponentId) -> str:
        key = self._key(opponent)
        return key if isinstance(key, str) else self._snapshot(key).name

    def _snapshot(self, sid) -> _Snapshot:
        key = self._key(sid)
        if isinstance(key, str):
            raise KeyError(f"{key!r} is a scripted tier, not a snapshot id")
        return self._pool[key] if key in self._pool else self._retired[key]

    def _key(self, opponent) -> OpponentId:
        """The canonical id (int or str) of a known opponent; raises KeyError otherwise."""
        if isinstance(opponent, str):
            key = opponent
        elif isinstance(opponent, int | np.integer) and not isinstance(opponent, bool | np.bool_):
            key = int(opponent)
        else:
            raise KeyError(f"an opponent id is a scripted tier name or a snapshot id, got {opponent!r}")
        if key not in self._records:
            raise KeyError(f"unknown opponent {key!r}: scripted tiers {list(self.scripted)}, snapshots "
                           f"{list(self._pool)}, retired {list(self._retired)}")
        return key

    # ---- sampling -----------------------------------------------------------------------------------
    def win_probability(self, opponent: OpponentId) -> float:
        """The learner's smoothed, discounted win rate against ``opponent`` (what PFSP weighs)."""
        r, a = self._records[self._key(opponent)], self.winrate_prior
        return (r.disc_score + a) / (r.disc_games + 2 * a)

    def _probabilities(self, ids: Sequence[OpponentId], weighting: str) -> np.ndarray:
        w = np.array([pfsp_weight(self.win_probability(i), weighting) for i in ids])
        return w / w.sum()

    def sample_opponents(self, n: int) -> list[OpponentId]:
        """Draw an opponent for each of ``n`` envs: a scripted tier with probability
        ``scripted_fraction`` (always while the pool is empty), else a pool snapshot by PFSP."""
        if n < 0:
            raise ValueError(f"n must be >= 0, got {n}")
        pool = list(self._pool)
        if not pool and not self.scripted:
            raise ValueError("no opponents to draw: the pool is empty and there are no scripted tiers "
                             "(add_snapshot first)")
        fraction = self.scripted_fraction if pool else 1.0
        scripted = self._rng.random(n) < fraction
        out: list[OpponentId] = [0] * n
        k = int(scripted.sum())
        if k:
            picks = self._rng.choice(len(self.scripted), size=k, p=self._probabilities(self.scripted,
                                                                                        self.scripted_weighting))
            for env, j in zip(np.flatnonzero(scripted), picks, strict=True):
                out[env] = self.scripted[j]
        if n - k:
            picks = self._rng.choice(len(pool), size=n - k, p=self._probabilities(pool, self.pfsp_weighting))
            for env, j in zip(np.flatnonzero(~scripted), picks, strict=True):
                out[env] = pool[j]
        return out

    def assign(self, env_count: int) -> Assignment:
        """``sample_opponents`` packaged for routing: per env scripted or not, its tier or slot."""
        return Assignment(tuple(self.sample_opponents(env_count)))

    # ---- results ------------------------------------------------------------------------------------
    def record(self, opponent: OpponentId, outcome) -> None:
        """One finished game against ``opponent``: 'win'/'loss'/'draw' or 1/0/0.5, learner's view."""
        self.record_many([opponent], [outcome])

    def record_many(self, opponents: Sequence[OpponentId], outcomes: Sequence) -> None:
        """Several finished games, applied in order; bad input raises and records nothing."""
        opponents, outcomes = list(opponents), list(outcomes)
        if len(opponents) != len(outcomes):
            raise ValueError(f"record_many got {len(opponents)} opponents but {len(outcomes)} outcomes")
        keys = [self._key(o) for o in opponents]
        scores = [_outcome(o) for o in outcomes]
        for key, score in zip(keys, scores, strict=True):
            self._records[key].add(score, self.winrate_decay)
            self._learner.add(score, 1.0)
            delta = self.elo_k * (score - elo_expected(self._learner_elo, self._elo[key]))
            self._learner_elo += delta
            self._elo[key] -= delta

    def rating(self, who: OpponentId) -> float:
        """Elo of ``who``: ``"learner"``, a scripted tier's name or a snapshot id."""
        return self._learner_elo if isinstance(who, str) and who == LEARNER else self._elo[self._key(who)]

    def table(self) -> list[TableRow]:
        """The learner, the scripted tiers and the pool, highest Elo first."""
        def row(name, kind, r, elo):
            low, high = wilson(r.score, r.games)
            return TableRow(name, kind, r.games, r.score / r.games if r.games else 0.5, low, high, elo)
        rows = [row(LEARNER, "learner", self._learner, self._learner_elo)]
        rows += [row(s, "scripted", self._records[s], self._elo[s]) for s in self.scripted]
        rows += [row(s.name, "snapshot", self._records[i], self._elo[i]) for i, s in self._pool.items()]
        return sorted(rows, key=lambda r: (-r.elo, r.name))

    def scalars(self) -> dict[str, float]:
        """Flat metrics for a logger: Elo of everyone, the learner's win rate per opponent played."""
        out = {"league/pool_size": float(len(self._pool)), "league/retired": float(len(self._retired)),
               "league/games": float(self._learner.games)}
        for r in self.table():
            out[f"league/elo/{r.name}"] = r.elo
            if r.kind != "learner" and r.games:
                out[f"league/winrate/{r.name}"] = r.win_rate
        return out

    # ---- checkpoints --------------------------------------------------------------------------------
    def state_dict(self) -> dict:
        """Everything a resumed run needs to continue exactly: pool weights, results, ratings, RNG.
        Plain Python values and tensors only (``torch.load(..., weights_only=True)`` reads it)."""
        def snap(i, s, retired):
            return {"id": i, "name": s.name, "anchor": s.anchor, "retired": retired, "weights": s.weights}
        return {
            "version": STATE_VERSION,
            "scripted": list(self.scripted),
            "rng": self._rng.bit_generator.state,
            "next_id": self._next_id,
            "added": self._added,
            "snapshots": [snap(i, s, False) for i, s in self._pool.items()]
            + [snap(i, s, True) for i, s in self._retired.items()],
            "records": [[k, dataclasses.astuple(r)] for k, r in self._records.items()],
            "elo": [[k, v] for k, v in self._elo.items()],
            "learner": [dataclasses.astuple(self._learner), self._learner_elo],
        }

    def load_state_dict(self, state: Mapping) -> None:
        """Restore ``state_dict()``'s output. Settings stay the constructor's; the scripted tiers must match."""
        if state.get("version") != STATE_VERSION:
            raise ValueError(f"league state version {state.get('version')!r}, expected {STATE_VERSION}")
        if tuple(state["scripted"]) != self.scripted:
            raise ValueError(f"league state has scripted tiers {state['scripted']}, this league {list(self.scripted)}")
        pool = [s for s in state["snapshots"] if not s["retired"]]
        if len(pool) > self.max_pool:
            raise ValueError(f"league state holds {len(pool)} snapshots, more than max_pool={self.max_pool}")
        self._rng = np.random.default_rng()
        self._rng.bit_generator.state = state["rng"]
        self._next_id, self._added = int(state["next_id"]), int(state["added"])
        self._pool, self._retired = {}, {}
        for s in state["snapshots"]:
            target = self._retired if s["retired"] else self._pool
            target[int(s["id"])] = _Snapshot(s["name"], _cpu_copy(s["weights"]), bool(s["anchor"]))
        self._records = {k: _Record(*r) for k, r in state["records"]}
        self._elo = {k: float(v) for k, v in state["elo"]}
        self._learner, self._learner_elo = _Record(*state["learner"][0]), float(state["learner"][1])
