"""A tiny counting encounter whose every output can be worked out by hand (the runtime tests' fixture).

Each agent holds a counter. Head "add" has options 0 (no-op), 1 (+1) and 2 (+2); +2 is legal only
when the counter is even. The reward is what was added (its one term, ``added``). The episode terminates when agent 0's
counter reaches ``target`` and is truncated after ``max_ticks``. Observation per agent:
(counter / target, tick / max_ticks, noise / 1000) where noise is drawn from the env RNG each tick,
so determinism tests see the random stream.
"""

import numpy as np
from numba import njit

from osrs_rl.core import rng as R
from osrs_rl.core.rng import RNG_DTYPE
from osrs_rl.runtime.spec import ActionHead, ConfigField, EncounterSpec, MetricRecord, ObsSegment

MAX_AGENTS = 2


def state_dtype():
    return np.dtype([("tick", np.int64), ("rng", *RNG_DTYPE), ("counter", np.int64, (MAX_AGENTS,)),
                     ("noise", np.int64), ("total", np.int64),
                     ("reward_terms", np.float32, (MAX_AGENTS, 1)), ("reward_sums", np.float32, (MAX_AGENTS, 1))])


@njit(cache=True)
def reset(s, cfg, seed):
    R.seed_rng(s.rng, seed, 0)
    s.tick = 0
    s.counter[:] = 0
    s.total = 0
    s.noise = R.below(s.rng, 1000)


@njit(cache=True)
def step(s, cfg, actions):
    s.tick += 1
    for a in range(actions.shape[0]):
        add = actions[a, 0]
        s.counter[a] += add
        s.total += add
        s.reward_terms[a, 0] = add
    s.noise = R.below(s.rng, 1000)
    terminated = s.counter[0] >= cfg.target
    return terminated, (not terminated) and s.tick >= cfg.max_ticks


@njit(cache=True)
def observe(s, cfg, obs):
    for a in range(obs.shape[0]):
        obs[a, 0] = s.counter[a] / cfg.target
        obs[a, 1] = s.tick / cfg.max_ticks
        obs[a, 2] = s.noise / 1000.0


@njit(cache=True)
def mask(s, cfg, m):
    for a in range(m.shape[0]):
        m[a, 0] = True
        m[a, 1] = True
        m[a, 2] = s.counter[a] % 2 == 0


@njit(cache=True)
def metrics(s, cfg, out):
    out.ticks = s.tick
    out.total = s.total
    return 1 if 2 * s.counter[0] >= cfg.target else 0


def make_spec(agents: int) -> EncounterSpec:
    return EncounterSpec(
        name=f"counting{agents}", version=1, state_dtype=state_dtype(),
        config_fields=(ConfigField("target", np.int64, 10, 1, 1000), ConfigField("max_ticks", np.int64, 50, 1, 10**6)),
        action_heads=(ActionHead("add", 3),), obs_segments=(ObsSegment("counter", 3),),
        metric_record=MetricRecord("ticks", "total"), phase_names=("first_half", "second_half"),
        reset=reset, step=step, observe=observe, mask=mask, metrics=metrics, reward_terms=("added",),
        agents=tuple(f"player_{k}" for k in range(agents)))


COUNTING1 = make_spec(1)
COUNTING2 = make_spec(2)
