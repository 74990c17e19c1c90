"""True/false settings accept the ordinary spellings, from Python, TOML and the command line.

Encounter settings reach ``osrs_rl.runtime.config.build_config`` as Python values (``make``), as
TOML values (``[env.config]`` in a train preset or file), or as command-line text
(``--env.config.key value``, read by ``osrs_rl.agent.config.parse_overrides``: ``1`` arrives as the
integer 1, ``false`` as the string "false"). Zulrah's ``scaffolding`` is the boolean used here.
"""

import pytest

import osrs_rl
from osrs_rl import cli
from osrs_rl.agent.config import load_config
from osrs_rl.runtime.config import ConfigError, build_config, parse_bool
from osrs_rl.runtime.registry import get_spec

SPELLINGS = [("true", True), ("True", True), ("TRUE", True), ("yes", True), ("Yes", True), ("on", True),
             ("ON", True), ("1", True), (" true ", True), ("false", False), ("False", False),
             ("no", False), ("NO", False), ("off", False), ("Off", False), ("0", False)]
REFUSED = ["maybe", "", "t", "2", "-1", "truee", "none"]


def scaffolding(value) -> bool:
    return bool(build_config(get_spec("zulrah"), {"scaffolding": value})[0]["scaffolding"])


@pytest.mark.parametrize(("text", "expected"), SPELLINGS)
def test_string_spellings(text, expected):
    assert parse_bool(text) is expected
    assert scaffolding(text) is expected


@pytest.mark.parametrize(("value", "expected"), [(True, True), (False, False), (1, True), (0, False)])
def test_bools_and_zero_one(value, expected):
    assert scaffolding(value) is expected


@pytest.mark.parametrize("value", [*REFUSED, 2, -1, 0.0, 1.5, None, [True]])
def test_other_values_are_refused_with_the_accepted_spellings(value):
    with pytest.raises(ConfigError) as e:
        scaffolding(value)
    message = str(e.value)
    assert "'scaffolding'" in message and "zulrah" in message and repr(value) in message
    assert "true/false, yes/no, on/off, 1/0 (any case)" in message


@pytest.mark.parametrize(("text", "expected"), [("false", False), ("False", False), ("off", False), ("0", False),
                                                ("yes", True), ("1", True), ("True", True)])
def test_train_command_line_override(text, expected):
    # the case: --env.config.scaffolding false was refused ("must be true or false, got 'false'")
    cfg = load_config("zulrah", overrides=["--env.config.scaffolding", text])
    env = osrs_rl.make("zulrah", num_envs=1, **cfg.env.config)
    assert bool(env.config[0]["scaffolding"]) is expected


@pytest.mark.parametrize(("toml", "expected"), [("false", False), ('"no"', False), ('"On"', True), ("0", False)])
def test_train_config_file(tmp_path, toml, expected):
    path = tmp_path / "zulrah.toml"
    path.write_text(f"[env.config]\nscaffolding = {toml}\n")
    cfg = load_config("zulrah", config_file=path)
    env = osrs_rl.make("zulrah", num_envs=1, **cfg.env.config)
    assert bool(env.config[0]["scaffolding"]) is expected


def test_train_cli_names_a_bad_spelling(capsys):
    assert cli.main(["train", "zulrah", "--env.config.scaffolding", "maybe"]) == 2
    out = " ".join(capsys.readouterr().out.split())
    assert "'scaffolding'" in out and "'maybe'" in out and "yes/no, on/off, 1/0" in out
