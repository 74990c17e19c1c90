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


BOOL_SPELLINGS = {"true": True, "yes": True, "on": True, "1": True,
                  "false": False, "no": False, "off": False, "0": False}
"""How a true/false setting may be written (any case), in TOML strings and on the command line."""
ACCEPTED_BOOLS = "true/false, yes/no, on/off, 1/0 (any case)"


def parse_bool(value) -> bool:
    """``value`` as a bool: a bool, the integer 0 or 1, or a string in ``BOOL_SPELLINGS``.

    Anything else raises ``ValueError`` listing the accepted spellings.
    """
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in BOOL_SPELLINGS:
        return BOOL_SPELLINGS[value.strip().lower()]
    raise ValueError(f"must be true or false ({ACCEPTED_BOOLS}), got {value!r}")


def unknown_settings_message(spec: EncounterSpec, keys: list[str], how: str = "") -> str:
    """One line for settings ``spec`` does not have: each with its likely spelling where one is close, else
    the names it has (the full descriptions are ``osrs-rl list ENCOUNTER``'s, not an error's)."""
    fields = [f.name for f in spec.config_fields if not f.derived]
    hints, lost = [], False
    for k in keys:
        close = difflib.get_close_matches(k, fields, n=1)
        hints.append(f"{k!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
        lost = lost or not close
    names = f"; its settings: {', '.join(fields) or 'none'}" if lost else ""
    return (f"encounter {spec.name!r} has no setting {', '.join(hints)}{how}{names} "
            f"(osrs-rl list {spec.name} describes each)")


def settings_from_text(spec: EncounterSpec, pairs: dict[str, str]) -> dict:
    """Command-line ``KEY=VALUE`` settings (``--set``) as config overrides: each key a user setting of the
    spec, each value one of its named choices or a number (``ConfigField.parse``; the range is checked
    when the config is built). ValueError lists the settings for an unknown key."""
    fields = {f.name: f for f in spec.config_fields if not f.derived}
    out = {}
    for key, text in pairs.items():
        if key not in fields:
            raise ValueError(unknown_settings_message(spec, [key], " (--set KEY=VALUE)"))
        out[key] = fields[key].parse(text)
    return out


def build_config(spec: EncounterSpec, overrides: dict | None = None) -> np.ndarray:
    """A one-element config array with defaults, then ``overrides``, validated."""
    overrides = dict(overrides or {})
    fields = {f.name: f for f in spec.config_fields if not f.derived}
    derived = [k for k in overrides if k in {f.name for f in spec.config_fields if f.derived}]
    if derived:
        raise ConfigError(f"Config {derived[0]!r} of encounter {spec.name!r} is computed from the other settings "
                          f"and cannot be set (osrs-rl list {spec.name} describes the settings that can)")
    unknown = [k for k in overrides if k not in fields]
    if unknown:
        raise ConfigError(unknown_settings_message(spec, unknown))
    config = np.zeros(1, dtype=spec.config_dtype)
    for name, f in fields.items():
        value = overrides.get(name, f.default)
        kind = np.dtype(f.dtype).kind
        if kind in "iu" and (isinstance(value, bool) or not isinstance(value, (int, np.integer))):
            raise ConfigError(f"Config {name!r} of encounter {spec.name!r} must be an integer, got {value!r}")
        if kind == "f" and (isinstance(value, (bool, np.bool_))
                            or not isinstance(value, (int, float, np.integer, np.floating)) or not np.isfinite(value)):
            raise ConfigError(f"Config {name!r} of encounter {spec.name!r} must be a finite number, got {value!r}")
        if kind == "b":
            try:
                value = parse_bool(value)
            except ValueError as e:
                raise ConfigError(f"Config {name!r} of encounter {spec.name!r} {e}") from None
        if (f.low is not None and value < f.low) or (f.high is not None and value > f.high):
            raise ConfigError(f"Config {name!r} = {value!r} of encounter {spec.name!r} is out of range "
                              f"[{f.low}, {f.high}]")
        config[0][name] = value
    if spec.config_hook is not None:
        spec.config_hook(config[0])
    from osrs_rl.runtime.attacks import check_attacks
    from osrs_rl.runtime.inventory import check_kits

    check_attacks(spec, config[0])      # every attack that can land can hurt
    check_kits(spec, config[0])         # every kit fits in 28 slots
    return config
