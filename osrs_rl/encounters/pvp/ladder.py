"""The scripted ladder: every tier against every other tier, in batch (``osrs-rl eval pvp --tool ladder``,
declared as the pvp spec's tool :data:`LADDER_TOOL`).

Both sides of a ``pvp_selfplay`` env are driven by the scripted kernel; each pairing plays ``fights``
fights and reports player 0's win rate with a 95 % Wilson interval (draws and truncations count as
not won). An honest ladder has each tier beat the one below in most fights.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from osrs_rl.runtime.spec import Report, Setting, Tool

from . import state as ST
from .scripted import NUM_TIERS, T_INTENT, TIER_NAMES, TIERS, scripted_actions


@njit(cache=True)
def scripted_batch(states, configs, tier0, tier1, actions, scratch_mask, scratch_row):
    """Both players' actions for every env: player 0 plays ``tier0``, player 1 ``tier1``."""
    cfg = configs[0]
    # the player that reads intent chooses second, seeing the other's row (the pvp spec's order);
    # when both or neither read it, player 0 chooses second
    zero_second = TIERS[tier0, T_INTENT] >= TIERS[tier1, T_INTENT]
    scratch_row[:] = 0
    for i in range(states.shape[0]):
        s = states[i]
        if zero_second:
            scripted_actions(s, cfg, 1, tier1, scratch_row, scratch_mask, actions[i, 1])
            scripted_actions(s, cfg, 0, tier0, actions[i, 1], scratch_mask, actions[i, 0])
        else:
            scripted_actions(s, cfg, 0, tier0, scratch_row, scratch_mask, actions[i, 0])
            scripted_actions(s, cfg, 1, tier1, actions[i, 0], scratch_mask, actions[i, 1])


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def play(tier0: int, tier1: int, fights: int = 64, seed: int = 0, **config) -> tuple[int, int, int]:
    """(wins, losses, fights) of tier0 as player 0 over ``fights`` batched fights; the rest are
    draws or fights cut at ``max_ticks``."""
    import osrs_rl

    env = osrs_rl.make("pvp_selfplay", num_envs=fights, seed=seed, **config)
    env.reset()
    actions = np.zeros((fights, 2, len(ST.HEAD_SIZES)), dtype=np.int64)
    mask = np.zeros(ST.MASK_SIZE, dtype=np.uint8)
    row = np.zeros(len(ST.HEAD_SIZES), dtype=np.int64)
    done = np.zeros(fights, dtype=np.bool_)
    wins = losses = 0
    while not done.all():
        scripted_batch(env.states, env.config, tier0, tier1, actions, mask, row)
        _, _, term, trunc, _ = env.step(actions)
        ended = (term | trunc) & ~done
        wins += int((env.states["outcome"][ended] == ST.OUTCOME_WIN).sum())
        losses += int((env.states["outcome"][ended] == ST.OUTCOME_LOSS).sum())
        done |= ended
    return wins, losses, fights


LADDER_MAX_TICKS = 1000    # 10 minutes of game time: big-supply builds outlast the env's 300-tick default
MIDDLE_TIERS = (4, 5)


def ladder(fights: int = 64, tiers=None, seed: int = 0, progress=None, **config) -> np.ndarray:
    """[row tier, column tier, (win rate, loss rate)] of the row tier as player 0; ``progress`` is
    called after each pairing with (done, total)."""
    tiers = list(range(NUM_TIERS)) if tiers is None else list(tiers)
    out = np.zeros((len(tiers), len(tiers), 2))
    total = len(tiers) ** 2
    for a, ta in enumerate(tiers):
        for b, tb in enumerate(tiers):
            wins, losses, n = play(ta, tb, fights, seed + 1000 * a + b, **config)
            out[a, b] = wins / n, losses / n
            if progress is not None:
                progress(a * len(tiers) + b + 1, total)
    return out


def head_to_head(matrix: np.ndarray, a: int, b: int, fights: int) -> tuple[int, int]:
    """(wins of row/column index ``a`` over ``b``, fights) counting both seats."""
    wins = round(matrix[a, b, 0] * fights) + round(matrix[b, a, 1] * fights)
    return int(wins), 2 * fights


def tier_list(text: str) -> list[int]:
    """``"all"`` or comma-separated tier names (or indices) as tier indices."""
    if text.strip() == "all":
        return list(range(NUM_TIERS))
    out = []
    for part in text.split(","):
        part = part.strip()
        if part in TIER_NAMES:
            out.append(TIER_NAMES.index(part))
        elif part.isdigit() and int(part) < NUM_TIERS:
            out.append(int(part))
        else:
            raise ValueError(f"unknown scripted tier {part!r}; tiers: {', '.join(TIER_NAMES)} (or all)")
    return out


def ladder_report(seed: int = 0, progress=None, config: dict | None = None, fights: int = 64,
                  max_ticks: int = LADDER_MAX_TICKS, tiers: str = "all") -> Report:
    """The ladder as a table: % of fights won/lost by the row tier as player 0, then each tier against the
    one below it (and the best against the middle tiers) over both seats, with a 95 % interval."""
    order = tier_list(tiers)
    matrix = ladder(fights, order, seed=seed, progress=progress, **{**(config or {}), "max_ticks": max_ticks})
    rows = tuple((TIER_NAMES[ta], *(f"{100 * matrix[a, b, 0]:.0f}/{100 * matrix[a, b, 1]:.0f}"
                                    for b in range(len(order)))) for a, ta in enumerate(order))
    pairs = [(a, a - 1) for a in range(1, len(order))]
    pairs += [(order.index(NUM_TIERS - 1), order.index(m)) for m in MIDDLE_TIERS
              if NUM_TIERS - 1 in order and m in order]
    notes = []
    for a, b in pairs:
        wins, n = head_to_head(matrix, a, b, fights)
        lo, hi = wilson(wins, n)
        notes.append(f"{TIER_NAMES[order[a]]} beats {TIER_NAMES[order[b]]} in {wins}/{n} fights, both seats "
                     f"({wins / n:.2f}, 95% interval {lo:.2f}-{hi:.2f})")
    return Report(title=f"pvp ladder: % of fights won/lost by the row tier as player 0 ({fights} fights per cell, "
                        f"{max_ticks}-tick limit; the rest are draws or cut at the limit)",
                  columns=("tier", *(TIER_NAMES[t][:8] for t in order)), rows=rows, notes=tuple(notes))


LADDER_TOOL = Tool(
    name="ladder", run=ladder_report,
    doc="every scripted tier against every other (both seats of pvp_selfplay): an honest ladder has each tier "
        "beat the one below",
    settings=(Setting("fights", 64, "fights per pairing", low=1),
              Setting("max_ticks", LADDER_MAX_TICKS, "tick limit of each fight (big-supply builds outlast 300)",
                      low=10, high=100_000),
              Setting("tiers", "all", "comma-separated tier names to play (default all)")))
