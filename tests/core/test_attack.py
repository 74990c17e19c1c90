"""One attack end to end: sampled hitsplats agree with the exact expected damage, never exceed
their bounds, and specials and bolts follow their rules."""

import numpy as np
import pytest
from numba import njit

from osrs_rl.core import bolts as B
from osrs_rl.core import rng as R
from osrs_rl.core import specials as SP
from osrs_rl.core import weapons as W
from osrs_rl.core.attack import MAX_HITSPLATS, expected_damage, sample_hits
from osrs_rl.core.damage import CAP_NONE, CAP_ZULRAH

TABLE = SP.build_special_table()
NORMALS = SP.build_normal_table()
NORMAL = SP.identity_row()
NO_BOLT = B.bolt_context()


@njit(cache=True)
def _sample(seed, att, dfn, mn, mx, sp, ctx, cap, n):
    rng = np.zeros(1, np.uint64)
    R.seed_rng(rng, seed, 0)
    out = np.zeros(MAX_HITSPLATS, np.int64)
    totals = np.zeros(n, np.int64)
    biggest = 0
    for i in range(n):
        k = sample_hits(rng, att, dfn, mn, mx, sp, ctx, cap, out)
        for j in range(k):
            totals[i] += out[j]
            biggest = max(biggest, out[j])
    return totals, biggest


CASES = [
    ("normal", 20_000, 15_000, 0, 40, NORMAL, NO_BOLT, CAP_NONE),
    ("zulrah cap", 40_000, 10_000, 0, 80, NORMAL, NO_BOLT, CAP_ZULRAH),
    ("claws", 25_000, 20_000, 0, 45, TABLE[W.DRAGON_CLAWS], NO_BOLT, CAP_NONE),
    ("dragon dagger", 25_000, 20_000, 0, 30, TABLE[W.DRAGON_DAGGER], NO_BOLT, CAP_NONE),
    ("voidwaker", 5_000, 60_000, 20, 60, TABLE[W.VOIDWAKER], NO_BOLT, CAP_NONE),
    ("dark bow", 10_000, 30_000, 8, 60, TABLE[W.DARK_BOW], NO_BOLT, CAP_NONE),
    ("diamond bolts", 20_000, 30_000, 0, 50, NORMAL, B.bolt_context(B.DIAMOND), CAP_NONE),
    ("ruby bolts", 20_000, 30_000, 0, 50, NORMAL, B.bolt_context(B.RUBY, target_hp=500), CAP_NONE),
    ("opal bolts", 20_000, 30_000, 0, 50, NORMAL, B.bolt_context(B.OPAL, ranged_level=112), CAP_NONE),
    ("onyx zcb spec", 20_000, 30_000, 0, 50, TABLE[W.ZARYTE_CROSSBOW], B.bolt_context(B.ONYX, zaryte=True),
     CAP_NONE),
    ("dragonstone", 20_000, 30_000, 0, 50, NORMAL, B.bolt_context(B.DRAGONSTONE, ranged_level=99), CAP_NONE),
    ("sanguinesti +8", 20_000, 15_000, 0, 40, NORMALS[W.SANGUINESTI_STAFF], NO_BOLT, CAP_NONE),
    ("dark bow normal", 20_000, 15_000, 0, 40, NORMALS[W.DARK_BOW], NO_BOLT, CAP_NONE),
    ("acb spec ruby", 20_000, 30_000, 0, 50, TABLE[W.ARMADYL_CROSSBOW], B.bolt_context(B.RUBY, target_hp=300),
     CAP_NONE),
]


@pytest.mark.parametrize("name,att,dfn,mn,mx,sp,ctx,cap", CASES, ids=[c[0] for c in CASES])
def test_sampled_mean_matches_expected(name, att, dfn, mn, mx, sp, ctx, cap):
    n = 100_000
    totals, _ = _sample(1, att, dfn, mn, mx, sp, ctx.copy(), cap, n)
    expected = expected_damage(att, dfn, mn, mx, sp, ctx, cap)
    stderr = totals.std() / np.sqrt(n)
    assert abs(totals.mean() - expected) < 5 * stderr + 1e-9, (totals.mean(), expected)


def test_hitsplats_within_bounds():
    _, biggest = _sample(2, 50_000, 1, 0, 70, NORMAL, NO_BOLT, CAP_ZULRAH, 50_000)
    assert biggest == 50          # Zulrah caps every hit at 50 (re-rolled to 45..50)
    _, biggest = _sample(3, 50_000, 1, 0, 40, NORMAL, NO_BOLT, CAP_NONE, 50_000)
    assert biggest == 40
    _, biggest = _sample(4, 50_000, 1, 8, 70, TABLE[W.DARK_BOW], NO_BOLT, CAP_NONE, 50_000)
    assert biggest == 48          # dark bow: 48 per arrow


def test_same_seed_same_hits():
    a, _ = _sample(9, 20_000, 15_000, 0, 40, TABLE[W.DRAGON_CLAWS], NO_BOLT, CAP_NONE, 1000)
    b, _ = _sample(9, 20_000, 15_000, 0, 40, TABLE[W.DRAGON_CLAWS], NO_BOLT, CAP_NONE, 1000)
    assert np.array_equal(a, b)


def test_claws_split_totals():
    # dps-calc dists/claws.ts: first roll accurate -> total d in [M, 2M - 1], splats d/2, d/4, d/8, d/8 + 1
    out = np.zeros(4, np.int64)
    rng = np.zeros(1, np.uint64)
    for seed in range(200):
        R.seed_rng(rng, seed, 0)
        SP.claws_split(rng, 40, 0, out, 0)
        assert 40 // 2 <= out[0] and out[3] == out[2] + 1
        SP.claws_split(rng, 40, 3, out, 0)
        assert out[:3].sum() == 0 and 10 + 1 <= out[3] <= 40 + 10
