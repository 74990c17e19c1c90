"""The scripted ladder: every tier against every other tier, in batch (``osrs-rl eval pvp --ladder``).

Both sides of a ``pvp_selfplay`` env are driven by the scripted kernel; each pairing plays ``fights``
fights and reports player 0's win rate with a 95 % Wilson interval (draws and truncations count as
not won). An honest ladder has each tier beat the one below in most fights.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from osrs_rl.encounters.pvp import state as ST
from osrs_rl.encounters.pvp.scripted import NUM_TIERS, T_INTENT, TIER_NAMES, TIERS, scripted_actions


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


def print_ladder(fights: int = 64, tiers=None, max_ticks: int = LADDER_MAX_TICKS, **config) -> np.ndarray:
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    tiers = list(range(NUM_TIERS)) if tiers is None else list(tiers)
    console = Console()
    if not console.is_terminal:
        console = Console(width=140)          # logs and pipes get the whole matrix, not a cut one
    what = f"{len(tiers) ** 2} pairings x {fights} fights"
    if not console.is_terminal:               # a bar on a terminal; a log or a pipe gets one line as the work starts
        console.print(f"pvp ladder: {what} ...", markup=False)
    with Progress(console=console, transient=True, disable=not console.is_terminal) as bar:
        task = bar.add_task(what, total=len(tiers) ** 2)
        matrix = ladder(fights, tiers, progress=lambda done, total: bar.update(task, completed=done),
                        max_ticks=max_ticks, **config)
    table = Table(title=f"pvp ladder: % of fights won/lost by the row tier as player 0 ({fights} fights per "
                        f"cell, {max_ticks}-tick limit; the rest are draws or cut at the limit)")
    table.add_column("tier")
    for t in tiers:
        table.add_column(TIER_NAMES[t][:8], justify="right")
    for a, ta in enumerate(tiers):
        table.add_row(TIER_NAMES[ta], *[f"{100 * matrix[a, b, 0]:.0f}/{100 * matrix[a, b, 1]:.0f}"
                                        for b in range(len(tiers))])
    console.print(table)
    pairs = [(a, a - 1) for a in range(1, len(tiers))]
    pairs += [(tiers.index(NUM_TIERS - 1), tiers.index(m)) for m in MIDDLE_TIERS
              if NUM_TIERS - 1 in tiers and m in tiers]
    for a, b in pairs:
        wins, n = head_to_head(matrix, a, b, fights)
        lo, hi = wilson(wins, n)
        console.print(f"{TIER_NAMES[tiers[a]]} beats {TIER_NAMES[tiers[b]]} in {wins}/{n} fights, both seats "
                      f"({wins / n:.2f}, 95% interval {lo:.2f}-{hi:.2f})")
    return matrix
