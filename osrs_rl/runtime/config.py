"""Building an encounter's read-only config record from defaults and user keywords.

Unknown keys and out-of-range values are refused with a message that names them and lists the
valid keys with their ranges; the config is built once per VecEnv and never changes after.
"""

from __future__ import annotations

import difflib

import numpy as np

from osrs_rl.runtime.spec import EncounterSpec


class ConfigError(ValueError):
    """A bad config key or value; the message names it and what would be valid."""


def describe_fields(spec: EncounterSpec) -> str:
    rows = []
    for f in spec.config_fields:
        if f.derived:
            continue
        rng = ""
        if f.low is not None or f.high is not None:
            rng = f" in [{f.low}, {f.high}]"
        rows.append(f"  {f.name} (default {f.default!r}{rng}){': ' + f.doc if f.doc else ''}")
    return "\n".join(rows) if rows else "  (this encounter has no settings)"


def build_config(spec: EncounterSpec, overrides: dict | None = None) -> np.ndarray:
    """A one-element config array with defaults, then ``overrides``, validated."""
    overrides = dict(overrides or {})
    fields = {f.name: f for f in spec.config_fields if not f.derived}
    derived = [k for k in overrides if k in {f.name for f in spec.config_fields if f.derived}]
    if derived:
        raise ConfigError(f"Config {derived[0]!r} of encounter {spec.name!r} is computed from the other settings "
                          f"and cannot be set. Valid keys:\n{describe_fields(spec)}")
    unknown = [k for k in overrides if k not in fields]
    if unknown:
        hints = []
        for k in unknown:
            close = difflib.get_close_matches(k, list(fields), n=1)
            hints.append(f"{k!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
        raise ConfigError(f"Unknown config key(s) for encounter {spec.name!r}: {', '.join(hints)}. "
                          f"Valid keys:\n{describe_fields(spec)}")
    config = np.zeros(1, dtype=spec.config_dtype)
    for name, f in fields.items():
        value = overrides.get(name, f.default)
        kind = np.dtype(f.dtype).kind
        if kind in "iu" and (isinstance(value, bool) or not isinstance(value, (int, np.integer))):
            raise ConfigError(f"Config {name!r} of encounter {spec.name!r} must be an integer, got {value!r}")
        if kind == "f" and (isinstance(value, (bool, np.bool_))
                            or not isinstance(value, (int, float, np.integer, np.floating)) or not np.isfinite(value)):
            raise ConfigError(f"Config {name!r} of encounter {spec.name!r} must be a finite number, got {value!r}")
        if kind == "b" and not isinstance(value, (bool, np.bool_)):
            raise ConfigError(f"Config {name!r} of encounter {spec.name!r} must be true or false, got {value!r}")
        if (f.low is not None and value < f.low) or (f.high is not None and value > f.high):
            raise ConfigError(f"Config {name!r} = {value!r} of encounter {spec.name!r} is out of range "
                              f"[{f.low}, {f.high}]")
        config[0][name] = value
    if spec.config_hook is not None:
        spec.config_hook(config[0])
    return config
