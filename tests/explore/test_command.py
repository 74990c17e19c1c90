"""``osrs-rl archive build`` and ``osrs-rl archive show`` as a user runs them."""

from __future__ import annotations

import pytest

from osrs_rl.cli import main
from osrs_rl.explore.archive import Archive
from osrs_rl.io.provenance import describe
from osrs_rl.replay.file import load_replay
from osrs_rl.runtime.registry import get_spec


def test_build_show_and_a_cells_replay(tmp_path, capsys):
    out = tmp_path / "t.orla"
    assert main(["archive", "build", "template", "--out", str(out), "--iterations", "3", "--ticks", "30",
                 "--envs", "8"]) == 0
    archive = Archive.load(out, get_spec("template"))
    assert len(archive) > 0
    assert "written to" in " ".join(capsys.readouterr().out.split())
    # an existing file is not replaced; --extend grows it
    assert main(["archive", "build", "template", "--out", str(out), "--iterations", "1"]) == 2
    assert "--extend" in " ".join(capsys.readouterr().out.split())
    assert Archive.load(out, get_spec("template")).keys == archive.keys
    assert main(["archive", "build", "template", "--out", str(out), "--extend", "--iterations", "2", "--ticks", "30",
                 "--envs", "8", "--seed", "1"]) == 0
    grown = Archive.load(out, get_spec("template"))
    assert len(grown) >= len(archive)
    capsys.readouterr()
    assert main(["archive", "show", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "cells by phase" in shown and "of most progress" in shown
    assert f"written by: osrs-rl {describe(short=12)}" in shown
    row = next(r for r in range(len(grown)) if grown.replayable(r))
    replay_path = tmp_path / "cell.orlr"
    assert main(["archive", "show", str(out), "--cell", str(grown.keys[row]), "--replay", str(replay_path)]) == 0
    assert "ending on the cell's state exactly" in " ".join(capsys.readouterr().out.split())
    assert load_replay(replay_path).meta["cell"] == grown.keys[row]


def test_bad_input_is_refused_with_a_message(tmp_path, capsys):
    assert main(["archive", "build", "pvp", "--out", str(tmp_path / "p.orla"), "--iterations", "1"]) == 2
    assert "no cell_key" in capsys.readouterr().out
    assert main(["archive", "build", "template", "--out", str(tmp_path / "x.orla"), "--set", "nonsense=1"]) == 2
    assert "nonsense" in capsys.readouterr().out
    (tmp_path / "junk.orla").write_bytes(b"not an archive at all")
    assert main(["archive", "show", str(tmp_path / "junk.orla")]) == 2
    assert "not an osrs-rl archive" in capsys.readouterr().out
    assert main(["archive", "show", str(tmp_path / "missing.orla")]) == 2
    assert not (tmp_path / "p.orla").exists() and not (tmp_path / "x.orla").exists()


@pytest.mark.slow
def test_a_built_archive_trains_under_the_presets_settings(tmp_path):
    """``archive build`` uses the settings ``osrs-rl train`` would, so a run can start from what it wrote."""
    from osrs_rl.agent.config import load_config
    from osrs_rl.train.ppo import Trainer

    out = tmp_path / "z.orla"
    assert main(["archive", "build", "zulrah", "--out", str(out), "--iterations", "1", "--ticks", "20",
                 "--envs", "4"]) == 0
    cfg = load_config("zulrah", overrides=["--run.out_dir", str(tmp_path), "--run.name", "r", "--log.console", "false",
                                           "--env.num_envs", "8", "--explore.enabled", "true",
                                           "--explore.archive", str(out)])
    trainer = Trainer(cfg, console=False)
    assert set(Archive.load(out, get_spec("zulrah")).keys) <= set(trainer.archive_starts.archive.keys)
    trainer.collector.close()
