"""scripts/reference_sweep.py, issue 43's strong reference: the sweep covers every value the issue names,
scores by steps to the level (a miss is infinite), and its winner is what compare_textbook.py races."""

import json
import math

import pytest

from tests.scripts import load_script


@pytest.fixture(scope="module")
def rs():
    return load_script("reference_sweep")


def test_one_knob_at_a_time_covers_every_named_value_once(rs):
    configs = rs.configurations(rs.CENTER, grid=False)
    assert configs[0] == rs.CENTER
    names = [rs.name(c) for c in configs]
    assert len(set(names)) == len(names) == 1 + sum(len(v) - 1 for v in rs.KNOBS.values())
    for knob, values in rs.KNOBS.items():
        assert {c[knob] for c in configs} == set(values)
    # every configuration but the centre moves exactly one knob
    assert all(sum(c[k] != rs.CENTER[k] for k in rs.KNOBS) == 1 for c in configs[1:])
    grid = rs.configurations(rs.CENTER, grid=True)
    assert grid[0] == rs.CENTER and len(grid) == math.prod(len(v) for v in rs.KNOBS.values())


def test_move_checks_a_winner_past_the_edge_of_the_knobs(rs):
    """A second round centred on a winner at the edge (128 envs) moves only the knob named, past KNOBS' values."""
    centre = {**rs.CENTER, "num_envs": 128}
    configs = rs.configurations(centre, grid=False, knobs=rs.moves(["num_envs=64/128/256"]))
    assert [c["num_envs"] for c in configs] == [128, 64, 256]
    assert all({k: v for k, v in c.items() if k != "num_envs"} == {k: v for k, v in centre.items() if k != "num_envs"}
               for c in configs)
    assert rs.moves(["lr=1e-3/2e-3", "shared=true/false"]) == {"lr": (1e-3, 2e-3), "shared": (True, False)}
    for bad, msg in (("width=3/4", "--move: unknown knob"), ("num_envs", "KNOB=V1/V2"), ("lr=x", "--move lr=")):
        with pytest.raises(SystemExit, match=msg):
            rs.moves([bad])


def test_centre_parses_each_knob_in_its_type_and_refuses_the_unknown(rs):
    c = rs.centre("epochs=4, lr=2.5e-3,shared=false,gamma=0.99")
    assert c == {**rs.CENTER, "epochs": 4, "lr": 2.5e-3, "shared": False, "gamma": 0.99}
    for bad, msg in (("width=3", "unknown knob"), ("epochs", "KNOB=VALUE"), ("lr=fast", "not a number"),
                     ("shared=yes", "true or false")):
        with pytest.raises(SystemExit, match=msg):
            rs.centre(bad)
    args = rs.textbook_args(rs.CENTER, preset_gamma=0.997)
    assert args[args.index("--gamma") + 1] == "0.997" and "--shared" in args
    assert "--shared" not in rs.textbook_args({**rs.CENTER, "shared": False}, 0.997)


def test_a_missed_seed_counts_as_infinite_and_ties_go_to_the_higher_final(rs):
    fast_but_flaky = rs.score([1_000_000, None, None], [0.95, 0.5, 0.4])
    steady = rs.score([2_000_000, 2_500_000, 3_000_000], [0.9, 0.9, 0.9])
    assert steady < fast_but_flaky and math.isinf(fast_but_flaky[0])
    assert rs.score([None] * 3, [0.6] * 3) < rs.score([None] * 3, [0.3] * 3)


@pytest.mark.slow
def test_main_runs_the_textbook_to_the_level_and_names_the_winner(rs, tmp_path, monkeypatch):
    """Two configurations on the template (which a random policy wins), each run stopped at the level."""
    monkeypatch.setattr(rs, "KNOBS", {"epochs": (1, 2), "num_envs": (16,), "gamma": ("preset",), "lr": (1e-3,),
                                      "shared": (True,)})
    monkeypatch.setattr(rs, "CENTER", {"epochs": 1, "num_envs": 16, "gamma": "preset", "lr": 1e-3, "shared": True})
    out = tmp_path / "ref"
    argv = ["--encounter", "template", "--level", "0.5", "--budget", "20480", "--window", "2048", "--seeds", "3",
            "--runs-dir", str(tmp_path / "runs"), "--out", str(out)]
    assert rs.main(argv) == 0
    data = json.loads(out.with_suffix(".json").read_text())
    assert [r["name"] for r in data["rows"]] in (
        [rs.name({**rs.CENTER, "epochs": e}) for e in order] for order in ((1, 2), (2, 1)))
    for r in data["rows"]:
        run = r["runs"][0]
        # stopped as soon as a whole window had run at the level: 16 envs x 64 steps an update
        assert run["steps"] == run["ran_steps"] and 2048 <= run["steps"] < 20480 and run["steps"] % 1024 == 0
    assert data["best"]["name"] == data["rows"][0]["name"] and "--shared" in data["best"]["textbook_args"]
    md = out.with_suffix(".md").read_text()
    assert "python scripts/reference_sweep.py --encounter template" in md and "Best: `" in md
    # a second call reads the runs back: nothing is trained again
    logs = sorted((tmp_path / "runs").glob("*.log"))
    stamps = [p.stat().st_mtime_ns for p in logs]
    assert rs.main(argv) == 0 and [p.stat().st_mtime_ns for p in logs] == stamps
    # another level (or budget, window, settings) in the same folder would read these runs back as its own
    with pytest.raises(SystemExit, match="holds the runs of another sweep"):
        rs.main([a if a != "0.5" else "0.6" for a in argv])


@pytest.mark.slow
def test_jobs_run_side_by_side_with_a_share_of_the_cores_each(rs, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(rs, "KNOBS", {"epochs": (1, 2), "num_envs": (16,), "gamma": ("preset",), "lr": (1e-3,),
                                      "shared": (True,)})
    monkeypatch.setattr(rs, "CENTER", {"epochs": 1, "num_envs": 16, "gamma": "preset", "lr": 1e-3, "shared": True})
    monkeypatch.setattr(rs.os, "cpu_count", lambda: 4)
    argv = ["--encounter", "template", "--level", "0.5", "--budget", "20480", "--window", "2048", "--seeds", "3",
            "--runs-dir", str(tmp_path / "runs"), "--out", str(tmp_path / "ref")]
    with pytest.raises(SystemExit, match="--jobs must be at least 1"):
        rs.main([*argv, "--jobs", "0"])
    assert rs.main([*argv, "--jobs", "2"]) == 0
    commands = [line for line in capsys.readouterr().out.splitlines() if line.startswith("$ ")]
    assert len(commands) == 2 and all(line.endswith("--threads 2") for line in commands)
    data = json.loads((tmp_path / "ref.json").read_text())
    assert all(r["runs"][0]["steps"] is not None for r in data["rows"])
    assert "2 runs side by side" in (tmp_path / "ref.md").read_text()
    # the runs were made with 2 threads each: a sweep alone (torch's own threads) is another sweep
    with pytest.raises(SystemExit, match="holds the runs of another sweep"):
        rs.main(argv)
