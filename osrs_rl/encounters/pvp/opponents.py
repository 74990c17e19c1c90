"""Who plays player 1, per env: a scripted tier or a policy slot (for a self-play league).

``set_opponents`` records the choice in each env's state; it takes effect at that env's next reset
(an autoreset or ``env.reset()``) and holds for every later episode until changed. The current
episode's opponent is in ``opponents(env)`` and in the ``opponent_tier`` / ``opponent_slot`` metrics.

In ``pvp_selfplay`` a scripted opponent replaces the actions given for player 1 (its actions are
ignored and its observation is still produced); a policy slot is a label the trainer routes by:
the env itself steps player 1 with whatever actions it is given. ``pvp`` accepts tiers only.
"""

from __future__ import annotations

import numpy as np

from . import state as ST

MAX_SLOT = np.iinfo(np.int16).max


def _env_ids(env, env_ids) -> np.ndarray:
    if env_ids is None:
        return np.arange(env.num_envs)
    ids = np.asarray(env_ids)
    if ids.dtype.kind not in "iu" or ids.ndim != 1:
        raise ValueError(f"env_ids must be a 1-D sequence of integers, got {env_ids!r}")
    if ids.size and (ids.min() < 0 or ids.max() >= env.num_envs):
        raise ValueError(f"env_ids must lie in 0..{env.num_envs - 1}, got {ids.tolist()}")
    return ids


def _check_env(env) -> None:
    if env.spec.name not in ("pvp", "pvp_selfplay"):
        raise ValueError(f"set_opponents works on the pvp encounters, not {env.spec.name!r}")


def set_opponents(env, *, tier=None, slot=None, env_ids=None) -> None:
    """From each env's next reset on, player 1 is scripted tier ``tier`` (0..9) or policy slot
    ``slot`` (>= 0, ``pvp_selfplay`` only). Give exactly one of the two, as one int for all
    ``env_ids`` (default: every env) or one per env id. Bad input raises and changes nothing."""
    _check_env(env)
    if (tier is None) == (slot is None):
        raise ValueError("give exactly one of tier= (a scripted tier) or slot= (a policy slot)")
    ids = _env_ids(env, env_ids)
    value = np.asarray(tier if tier is not None else slot)
    if value.dtype.kind not in "iu" or value.ndim > 1 or (value.ndim == 1 and value.shape != ids.shape):
        raise ValueError(f"{'tier' if tier is not None else 'slot'} must be an int or one int per env id "
                         f"({ids.size}), got {value!r}")
    value = np.broadcast_to(value, ids.shape)
    if tier is not None:
        if value.size and (value.min() < 0 or value.max() >= ST.NUM_TIERS):
            raise ValueError(f"tier must lie in 0..{ST.NUM_TIERS - 1}, got {np.unique(value).tolist()}")
        kind = ST.OPPONENT_SCRIPTED
    else:
        if env.spec.name != "pvp_selfplay":
            raise ValueError("policy slots need pvp_selfplay: in pvp player 1 is always scripted")
        if value.size and (value.min() < 0 or value.max() > MAX_SLOT):
            raise ValueError(f"slot must lie in 0..{MAX_SLOT}, got {np.unique(value).tolist()}")
        kind = ST.OPPONENT_POLICY
    env.states["next_opponent_kind"][ids] = 1 + kind
    env.states["next_opponent_index"][ids] = value


def clear_opponents(env, env_ids=None) -> None:
    """Let the config's ``opponent_tier`` decide again from each env's next reset on."""
    _check_env(env)
    env.states["next_opponent_kind"][_env_ids(env, env_ids)] = ST.NEXT_FROM_CONFIG


def opponents(env) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """This episode's player 1 per env: (is_scripted bool array, tier or -1, policy slot or -1)."""
    _check_env(env)
    st = env.states
    return st["opponent_kind"] == ST.OPPONENT_SCRIPTED, st["opponent_tier"].copy(), st["opponent_slot"].copy()


class OpponentControl:
    """The spec's ``opponents`` hook (``osrs_rl.runtime.spec.EncounterSpec.opponents``): how the
    trainer spreads scripted tiers over envs and routes a self-play league, without PvP imports."""

    @property
    def tier_names(self) -> tuple[str, ...]:
        from .scripted import TIER_NAMES

        return TIER_NAMES

    def tier_index(self, tier) -> int:
        """A tier given by name or index, as an index; unknown tiers raise with the list of names."""
        names = self.tier_names
        if isinstance(tier, str):
            if tier not in names:
                raise ValueError(f"unknown scripted tier {tier!r}; tiers: {', '.join(names)}")
            return names.index(tier)
        if isinstance(tier, (int, np.integer)) and not isinstance(tier, bool) and 0 <= tier < len(names):
            return int(tier)
        raise ValueError(f"a tier is a name ({', '.join(names)}) or an index 0..{len(names) - 1}, got {tier!r}")

    def set(self, env, env_ids=None, tier=None, slot=None) -> None:
        set_opponents(env, tier=tier, slot=slot, env_ids=env_ids)

    def current(self, env):
        return opponents(env)


CONTROL = OpponentControl()
