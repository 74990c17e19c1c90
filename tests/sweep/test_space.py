"""The space file parser: what it reads, and each kind of bad input refused with a message naming it."""

import pytest

from osrs_rl.sweep.space import Param, SpaceError, load_space, parse_space

GOOD = """
[sweep]
budget_steps = 2048
objective = "eval"

[fixed]
"env.num_envs" = 16
"env.opponents" = ["a", "b"]

[params."optim.lr"]
low = 1e-4
high = 1e-2
log = true

[params."ppo.epochs"]
low = 1
high = 4

[params."model.kind"]
choices = ["mlp", "lstm"]

[params."env.config.max_ticks"]
low = 100
high = 400
step = 50
"""


def test_reads_ranges_choices_fixed_and_settings():
    space = parse_space(GOOD, "good.toml")
    by_name = {p.name: p for p in space.params}
    assert by_name["optim.lr"] == Param("optim.lr", "float", 1e-4, 1e-2, log=True)
    assert by_name["ppo.epochs"] == Param("ppo.epochs", "int", 1, 4)
    assert by_name["model.kind"] == Param("model.kind", "choice", choices=("mlp", "lstm"))
    # an encounter setting takes its bounds' type
    assert by_name["env.config.max_ticks"] == Param("env.config.max_ticks", "int", 100, 400, step=50)
    assert space.settings.budget_steps == 2048 and space.settings.objective == "eval"
    assert space.fixed_overrides() == ["--env.num_envs", "16", "--env.opponents", "['a', 'b']"]


def test_an_int_range_of_a_float_setting_is_a_float_range():
    space = parse_space('[params."ppo.gamma"]\nlow = 0\nhigh = 1\n')
    assert space.params[0] == Param("ppo.gamma", "float", 0.0, 1.0)


@pytest.mark.parametrize("text, message", [
    ('[params."ppo.horizn"]\nlow = 1\nhigh = 4\n', "unknown setting ppo.horizn; ppo has: horizon"),
    ('[params."optimizer.lr"]\nlow = 1\nhigh = 4\n', "'optimizer.lr' is not a setting"),
    ('[params."ppo.epochs"]\nlow = 1\nhigh = 4\nlg = true\n', "unknown key 'lg'"),
    ('[sweep]\nbudget = 10\n[params."ppo.epochs"]\nlow = 1\nhigh = 4\n', "unknown key sweep.budget"),
    ('[sweeps]\n[params."ppo.epochs"]\nlow = 1\nhigh = 4\n', "unknown table [sweeps]"),
    ('[fixed]\n"ppo.horizn" = 8\n[params."ppo.epochs"]\nlow = 1\nhigh = 4\n', "unknown setting ppo.horizn"),
    ('[params."ppo.epochs"]\nlow = 4\nhigh = 1\n', "bad range: low (4) must be below high (1)"),
    ('[params."ppo.epochs"]\nlow = 2\nhigh = 2\n', "bad range"),
    ('[params."ppo.epochs"]\nlow = 1\n', "a range needs low and high"),
    ('[params."ppo.epochs"]\nlow = 1.5\nhigh = 4\n', "int setting: low and high must be integers"),
    ('[params."optim.lr"]\nlow = 0.0\nhigh = 0.1\nlog = true\n', "log = true needs low > 0 (low is 0.0)"),
    ('[params."optim.lr"]\nlow = -1e-3\nhigh = 0.1\nlog = true\n', "log = true needs low > 0"),
    ('[params."optim.lr"]\nlow = 0.1\nhigh = 0.2\nlog = "yes"\n', "log must be true or false"),
    ('[params."optim.lr"]\nlow = 0.1\nhigh = 0.2\nstep = 0.5\n', "step (0.5) is wider than the range"),
    ('[params."model.kind"]\nlow = 1\nhigh = 2\n', "model.kind is a str setting: give choices"),
    ('[params."model.kind"]\nchoices = []\n', "choices must be a non-empty list"),
    ('[params."model.kind"]\nchoices = ["mlp", "mlp"]\n', "choices lists a value twice"),
    ('[params."model.kind"]\nchoices = ["mlp"]\nlow = 1\n', "choices goes alone"),
    ('[params."run.total_steps"]\nlow = 1\nhigh = 4\n', "run.total_steps is set by the sweep (budget_steps"),
    ('[sweep]\nobjective = "loss"\n[params."ppo.epochs"]\nlow = 1\nhigh = 4\n', "sweep.objective must be one of"),
    ('[sweep]\nobjective = "level"\n[params."ppo.epochs"]\nlow = 1\nhigh = 4\n', "needs sweep.level"),
    ('[sweep]\nobjective = "level"\nlevel = 0.9\nlevel_window = 0\n[params."ppo.epochs"]\nlow = 1\nhigh = 4\n',
     "sweep.level_window is out of range"),
    ('[sweep]\nbudget_steps = 0\n[params."ppo.epochs"]\nlow = 1\nhigh = 4\n', "sweep.budget_steps is out of range"),
    ('[sweep]\nbudget_steps = "many"\n[params."ppo.epochs"]\nlow = 1\nhigh = 4\n', "sweep.budget_steps must be int"),
    ('[sweep]\nbudget_steps = 100\n', "no parameters"),
    ('[fixed]\n"ppo.epochs" = 2\n[params."ppo.epochs"]\nlow = 1\nhigh = 4\n', "both fixed and a parameter"),
    ('[params."ppo.epochs"\nlow = 1\n', "is not valid TOML"),
])
def test_refuses_bad_input_naming_the_file_and_the_entry(text, message):
    with pytest.raises(SpaceError) as e:
        parse_space(text, "bad.toml")
    assert str(e.value).startswith("bad.toml"), e.value
    assert message in str(e.value), e.value


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(SpaceError, match="nope.toml does not exist"):
        load_space(tmp_path / "nope.toml")


def test_the_example_space_file_in_docs_parses():
    from pathlib import Path

    space = load_space(Path(__file__).parents[2] / "docs" / "sweep-space.toml")
    assert len(space.params) >= 3


def test_every_sweep_space_an_encounter_ships_parses():
    """The ablation spaces under osrs_rl/encounters/*/ (their docs give the command that runs them)."""
    from pathlib import Path

    files = sorted((Path(__file__).parents[2] / "osrs_rl" / "encounters").glob("*/ablation*.toml"))
    assert len(files) >= 3
    for file in files:
        space = load_space(file)
        assert space.params, file
        if space.settings.objective == "level":
            assert 0 < space.settings.level <= 1, file
