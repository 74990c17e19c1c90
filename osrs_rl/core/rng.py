"""Per-env random numbers: a SplitMix64 stream whose whole state is one uint64.

Every record that needs randomness holds a field ``rng`` of dtype ``uint64`` and shape ``(1,)``;
kernels receive that one-element array and advance it in place, so snapshot/restore of the record
captures the generator exactly (state is data: docs/guide/conventions.md). There is no global random state.

SplitMix64 (Steele, Lea, Flood 2014, "Fast splittable pseudorandom number generators") passes
BigCrush, costs a handful of integer ops and needs no table. All arithmetic stays in uint64:
mixing a uint64 with a Python int in Numba silently yields int64 or float64.
"""

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_TWO_POW_53 = 9007199254740992.0

RNG_DTYPE = (np.uint64, (1,))
"""Use as a record field: ``("rng", *RNG_DTYPE)`` gives a one-element uint64 array."""


@njit(cache=True)
def mix64(z):
    """The SplitMix64 output function (a bijection on uint64)."""
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(cache=True)
def seed_rng(rng, seed, stream):
    """Seed ``rng`` from a user seed and a stream number (e.g. the env index).

    Distinct (seed, stream) pairs give unrelated streams because both pass through the mixer.
    """
    rng[0] = mix64(np.uint64(seed) ^ mix64(np.uint64(stream) + _GOLDEN))


@njit(cache=True)
def next_u64(rng):
    """Advance the stream and return 64 random bits."""
    rng[0] = rng[0] + _GOLDEN
    return mix64(rng[0])


@njit(cache=True)
def below(rng, n):
    """Uniform integer in ``[0, n)`` for ``n >= 1`` without modulo bias (rejection sampling)."""
    un = np.uint64(n)
    # Largest multiple of n that fits; values at or above it are redrawn (rare unless n is huge).
    limit = np.uint64(0xFFFFFFFFFFFFFFFF) - (np.uint64(0xFFFFFFFFFFFFFFFF) % un)
    x = next_u64(rng)
    while x >= limit:
        x = next_u64(rng)
    return np.int64(x % un)


@njit(cache=True)
def inclusive(rng, n):
    """Uniform integer in ``[0, n]``: the game's ``random(n)`` used by accuracy and damage rolls."""
    if n <= 0:
        return np.int64(0)
    return below(rng, n + 1)


@njit(cache=True)
def between(rng, lo, hi):
    """Uniform integer in ``[lo, hi]`` (``hi >= lo``)."""
    return lo + inclusive(rng, hi - lo)


@njit(cache=True)
def chance(rng, num, den):
    """True with probability ``num / den`` exactly (integers, ``0 <= num <= den``)."""
    return below(rng, np.int64(den)) < num     # int64: below compiles once, not per literal den


@njit(cache=True)
def uniform(rng):
    """Float in ``[0, 1)`` with 53 random bits."""
    return np.float64(next_u64(rng) >> _S11) / _TWO_POW_53


@njit(cache=True)
def shuffle(rng, a):
    """Shuffle array ``a`` in place, every order equally likely (Fisher-Yates from the last element down:
    Knuth, TAOCP vol. 2, Algorithm P), one ``below`` draw per element after the first."""
    for i in range(a.shape[0] - 1, 0, -1):
        j = below(rng, i + 1)
        a[i], a[j] = a[j], a[i]
