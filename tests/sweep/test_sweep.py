"""Sweeps: the trainer's on_log hook, a real 3-trial SQLite sweep and its report, resume, pruning of a
hopeless curve, and refusals. Fake trainings (``train=``) give learning curves chosen by the test."""

import json
import logging

import optuna
import pytest

from osrs_rl.agent.config import load_config
from osrs_rl.cli import main
from osrs_rl.io.provenance import describe, provenance
from osrs_rl.sweep.report import pareto_front
from osrs_rl.sweep.study import (
    Curve,
    SweepDefinition,
    create_or_load,
    fail_stale_trials,
    finished,
    interrupted,
    load,
    optimize,
)
from osrs_rl.train.ppo import Trainer

# 8 envs x 32 ticks = 256 steps an update, episodes of at most 40 ticks: a curve point every update
SPACE = """
[sweep]
budget_steps = 2048
curve_points = 4
last_logs = 2
startup_trials = 1

[fixed]
"env.num_envs" = 8
"ppo.horizon" = 32
"env.config.max_ticks" = 40
"log.tensorboard" = false
"log.replays" = false

[params."optim.lr"]
low = 1e-4
high = 1e-2
log = true

[params."ppo.epochs"]
choices = [1, 2]
"""


@pytest.mark.slow
def test_on_log_sees_every_log_and_a_true_return_ends_the_run_with_a_checkpoint(tmp_path):
    cfg = load_config("template", overrides=["--run.out_dir", str(tmp_path), "--run.name", "r", "--env.num_envs", "8",
                                             "--ppo.horizon", "16", "--run.total_steps", "1280", "--run.log_every",
                                             "1e-6", "--log.console", "false", "--log.replays", "false",
                                             "--log.tensorboard", "false"])
    seen = []

    def on_log(step, scalars):
        seen.append((step, "loss/policy" in scalars))
        return step >= 384                 # the third update
    trainer = Trainer(cfg, console=False, on_log=on_log)
    trainer.train()
    assert seen == [(128, True), (256, True), (384, True)]
    assert trainer.global_step == 384 and trainer.saved_step == 384
    assert (tmp_path / "r" / "checkpoint.pt").is_file()


@pytest.mark.slow
def test_three_trial_sqlite_sweep_writes_its_study_trials_and_report(tmp_path, capsys):
    space = tmp_path / "space.toml"
    # an NPC of 40 hp, which some episodes kill within their 40 ticks: the scores differ, and a best is named
    space.write_text(SPACE.replace("[fixed]", '[fixed]\n"env.config.npc_max_hp" = 40'))
    folder = tmp_path / "sw"
    assert main(["sweep", "template", "--space", str(space), "--trials", "3", "--dir", str(folder),
                 "--budget-steps", "1024"]) == 0
    out = capsys.readouterr().out
    assert "trial 2 complete" in out and "3 trial(s) run here" in out
    assert (folder / "study.db").is_file()
    study, definition = load(folder)
    assert definition.encounter == "template" and len(study.trials) == 3
    for t in study.trials:
        assert t.state == optuna.trial.TrialState.COMPLETE, t
        record = json.loads((folder / "trials" / f"trial-{t.number:04d}" / "trial.json").read_text())
        assert record["params"] == t.params and record["score"] == t.value and 0 <= t.value <= 1
        assert record["provenance"] == t.user_attrs["provenance"] == provenance()      # the code that ran it
        assert record["config"]["run"]["total_steps"] == 1024 and record["curve"]
        assert record["config"]["optim"]["lr"] == t.params["optim.lr"]
        assert (folder / "trials" / f"trial-{t.number:04d}" / "checkpoint.pt").is_file()
    assert main(["sweep", "report", str(folder)]) == 0
    report = folder / "report"
    for name in ("curves.png", "importance.png", "pareto.png"):
        assert (report / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
    md = (report / "report.md").read_text()
    for t in study.trials:
        assert f"| {t.number} | complete | {t.value:.4g} |" in md
    assert f"Code the trials ran: osrs-rl {describe()}: 3 trials; this report: osrs-rl {describe()}." in md
    best = min(study.trials, key=lambda t: (-t.value, t.user_attrs["wall_seconds"]))   # of equal scores the cheaper
    exported = load_config("template", report / "best.toml")
    assert exported.optim.lr == best.params["optim.lr"] and exported.ppo.epochs == best.params["ppo.epochs"]
    assert exported.env.num_envs == 8 and exported.env.config["max_ticks"] == 40
    assert exported.run.out_dir == "runs"          # a config to train with, not a trial's run folder


def _fake(curves, calls):
    """A training that logs the next of ``curves`` (success rate per update of 256 steps) and stops
    when on_log says so."""
    def train(cfg, on_log):
        curve = curves[len(calls)]
        calls.append([])
        for k, value in enumerate(curve):
            step = 256 * (k + 1)
            calls[-1].append(step)
            if on_log(step, {"episode/won": value}):
                break
        return None
    return train


def _definition(text=SPACE):
    return SweepDefinition("template", text, "space.toml")


def test_a_hopeless_curve_is_pruned_before_its_budget(tmp_path):
    study, definition = create_or_load(tmp_path, _definition())
    good, hopeless = [0.5, 0.7, 0.8, 0.9, 0.9, 0.9, 0.9, 0.9], [0.0] * 8
    calls = []
    optimize(study, definition, tmp_path, 4, console=None, train=_fake([good, good, good, hopeless], calls))
    states = [t.state for t in study.trials]
    assert states == [optuna.trial.TrialState.COMPLETE] * 3 + [optuna.trial.TrialState.PRUNED]
    assert calls[3][-1] < 2048 and calls[0][-1] == 2048      # stopped early; the good ones ran their budget
    assert study.trials[0].value == pytest.approx(0.9)       # the mean of the last 2 logs
    assert json.loads((tmp_path / "trials" / "trial-0003" / "trial.json").read_text())["state"] == "pruned"


def test_without_pruning_the_hopeless_curve_runs_its_budget(tmp_path):
    text = SPACE.replace("[sweep]", "[sweep]\nprune = false")
    study, definition = create_or_load(tmp_path, _definition(text))
    good, hopeless = [0.9] * 8, [0.0] * 8
    calls = []
    optimize(study, definition, tmp_path, 4, console=None, train=_fake([good, good, good, hopeless], calls))
    assert [t.value for t in study.trials] == [pytest.approx(0.9)] * 3 + [0.0]


def test_a_sweep_folder_resumes_its_study_and_refuses_another_space(tmp_path):
    study, definition = create_or_load(tmp_path, _definition())
    calls = []
    optimize(study, definition, tmp_path, 2, console=None, train=_fake([[0.5] * 8] * 5, calls))
    study, definition = create_or_load(tmp_path, _definition())      # a second session
    assert optimize(study, definition, tmp_path, 3, console=None, train=_fake([[0.5] * 8] * 5, calls)) == 1
    assert [t.number for t in study.trials] == [0, 1, 2] and len(calls) == 3
    assert len({json.dumps(t.params, sort_keys=True) for t in study.trials}) == 3     # no point drawn twice
    assert optimize(study, definition, tmp_path, 3, console=None, train=_fake([], calls)) == 0
    with pytest.raises(ValueError, match="with another space or config"):
        create_or_load(tmp_path, _definition(SPACE.replace("1e-2", "1e-1")))


def test_a_trial_left_running_by_a_killed_sweep_is_marked_failed(tmp_path):
    study, _ = create_or_load(tmp_path, _definition())
    study.ask()                                   # a trial started and never told
    assert fail_stale_trials(study) == 1
    assert study.trials[0].state == optuna.trial.TrialState.FAIL and interrupted(study.trials[0])
    assert finished(study) == 0                  # it did not finish: a resumed sweep runs another in its place


def test_a_trial_whose_settings_the_config_refuses_fails_and_the_sweep_goes_on(tmp_path):
    text = SPACE + '\n[params."ppo.minibatches"]\nchoices = [1, 64]\n'       # 64 > env.num_envs: refused
    study, definition = create_or_load(tmp_path, _definition(text))
    optimize(study, definition, tmp_path, 6, console=None, train=_fake([[0.5] * 8] * 6, []))
    states = {(t.params["ppo.minibatches"], t.state) for t in study.trials}
    assert states <= {(1, optuna.trial.TrialState.COMPLETE), (64, optuna.trial.TrialState.FAIL)}
    assert len(study.trials) == 6 and (64, optuna.trial.TrialState.FAIL) in states


@pytest.mark.slow
def test_ctrl_c_in_a_trial_stops_the_sweep_in_one_line_and_the_trial_does_not_count(tmp_path, monkeypatch, capfd,
                                                                                     caplog):
    """Ctrl-C in the second trial (the Trainer raises KeyboardInterrupt once its checkpoint is saved): exit
    130 with one line saying where the study is and how to go on, no traceback; the trial is failed and
    interrupted, not finished, so the resumed sweep runs two more and the report counts it apart."""
    import signal

    import osrs_rl.sweep.study as study_module

    space = tmp_path / "space.toml"
    space.write_text(SPACE)
    folder = tmp_path / "sw"
    argv = ["sweep", "template", "--space", str(space), "--trials", "3", "--dir", str(folder)]
    calls = []

    def train(cfg, on_log):
        calls.append(cfg.run.name)
        if len(calls) == 2:
            raise KeyboardInterrupt("signal 2")
        for k in range(8):
            on_log(256 * (k + 1), {"episode/won": 0.5})
    monkeypatch.setattr(study_module, "_train", train)
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        assert main(argv) == 130
    finally:
        for sig, handler in previous.items():        # the sweep ignores late signals on its way out
            signal.signal(sig, handler)
    out, err = capfd.readouterr()
    # Optuna's log handler writes to the sys.stderr of its import, which capfd does not see: caplog does
    assert "Traceback" not in out + err + caplog.text and not err.strip()
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    said = out.splitlines()[-1]
    assert said == (f"interrupted: trial 1 stopped, marked interrupted and not counted; 1 finished trial(s) in the "
                    f"study in {folder}; continue: osrs-rl sweep template --space {space} --trials 3 --dir {folder}")
    study, _ = load(folder)
    assert [t.state for t in study.trials] == [optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.FAIL]
    assert interrupted(study.trials[1]) and finished(study) == 1
    assert main(argv) == 0                          # resumed: two more trials make three finished
    study, _ = load(folder)
    assert len(study.trials) == 4 and finished(study) == 3 and len(calls) == 4
    assert main(["sweep", "report", str(folder)]) == 0
    md = (folder / "report" / "report.md").read_text()
    assert "4 trials: 3 complete, 0 pruned, 0 failed, 1 interrupted" in md and "| 1 | interrupted |" in md


@pytest.mark.parametrize("param, refusal", [
    ('"optim.lr_final"]\nlow = -1e-4\nhigh = 1e-3',
     'params."optim.lr_final": low = -0.0001 is refused: optim.lr must be > 0 and optim.lr_final >= 0'),
    ('"ppo.gamma"]\nlow = 0.9\nhigh = 1.5', 'params."ppo.gamma": high = 1.5 is refused: ppo.gamma must lie in (0, 1]'),
    ('"model.kind"]\nchoices = ["mlp", "gru"]', "choice = 'gru' is refused: model.kind must be mlp, lstm or mingru"),
    ('"env.config.start_food"]\nlow = 0\nhigh = 50',
     'params."env.config.start_food": high = 50 is outside what env.config.start_food takes: an integer in [0, 28]'),
    ('"env.config.win_reward"]\nchoices = [1.0, 500.0]', "choice = 500.0 is outside what env.config.win_reward "
                                                          "takes: a number in [-100.0, 100.0]"),
    ('"env.config.start_fud"]\nchoices = [1, 2]', "template has no setting start_fud; its settings: player_max_hp,"),
    ('"ppo.minibatches"]\nchoices = [1, 64]', "choice = 64 is refused: ppo.minibatches must lie in 1..env.num_envs"),
], ids=["lr-final-below-0", "gamma-above-1", "model-kind", "encounter-range", "encounter-choice", "encounter-key",
        "minibatches-above-num-envs"])
def test_a_space_outside_a_settings_bounds_is_refused_before_any_trial(tmp_path, capsys, param, refusal):
    space = tmp_path / "space.toml"
    space.write_text(SPACE + "\n[params." + param + "\n")
    folder = tmp_path / "sw"
    assert main(["sweep", "template", "--space", str(space), "--trials", "1", "--dir", str(folder)]) == 2
    said = capsys.readouterr().out.strip()
    assert said.startswith(f"error: {space}: ") and refusal in said and "\n" not in said, said
    assert not folder.exists()                      # no study, no trial


def test_a_value_the_config_takes_with_another_drawn_parameter_is_not_refused():
    """ppo.minibatches 64 is refused beside the fixed env.num_envs 8, not where env.num_envs may be drawn 64."""
    text = SPACE.replace('"env.num_envs" = 8\n', "") + (
        '\n[params."env.num_envs"]\nchoices = [8, 64]\n[params."ppo.minibatches"]\nchoices = [1, 64]\n')
    SweepDefinition("template", text, "space.toml").check()


def test_a_report_whose_scores_all_tie_names_no_best(tmp_path, capsys):
    study, definition = create_or_load(tmp_path, _definition())
    optimize(study, definition, tmp_path, 3, console=None, train=_fake([[1.0] * 8] * 3, []))
    assert [t.value for t in study.trials] == [1.0] * 3
    assert main(["sweep", "report", str(tmp_path)]) == 0
    said = capsys.readouterr().out
    assert "no best.toml: all 3 completed trials scored 1: the score does not tell them apart" in said
    md = (tmp_path / "report" / "report.md").read_text()
    assert "**No best trial: all 3 completed trials scored 1" in md and "Best config" not in md
    assert not (tmp_path / "report" / "best.toml").exists()


def test_curve_points_are_on_one_grid_whatever_the_batch():
    a, b = Curve("episode/won", 2048, 4, 1), Curve("episode/won", 2048, 4, 1)
    for step in range(300, 2401, 300):     # the run ends past the budget
        a.update(step, {"episode/won": 1.0})
    for step in range(512, 2049, 512):
        b.update(step, {"episode/won": 1.0})
    assert [s for s, _ in a.points] == [s for s, _ in b.points] == [512, 1024, 1536, 2048]


def test_pareto_front():
    assert pareto_front([(0.9, 100.0), (0.9, 50.0), (0.5, 10.0), (0.4, 20.0)]) == [2, 1]


def test_cli_refusals(tmp_path, capsys):
    assert main(["sweep", "template", "--trials", "1"]) == 2
    assert "needs --space FILE" in capsys.readouterr().out
    assert main(["sweep", "nosuch", "--space", "x.toml"]) == 2
    assert "unknown encounter 'nosuch'" in capsys.readouterr().out
    assert main(["sweep", "report", str(tmp_path)]) == 2
    assert "holds no sweep" in capsys.readouterr().out
    assert main(["sweep", "worker"]) == 2
    assert "needs --storage URL" in capsys.readouterr().out


def test_ablate_two_knobs_two_seeds_reports_each_effect_with_an_interval(tmp_path, capsys):
    from osrs_rl.sweep.ablate import ablate

    study, definition = create_or_load(tmp_path, _definition())
    optimize(study, definition, tmp_path, 3, console=None, train=_fake([[0.5] * 8] * 3, []))

    def train(cfg, on_log):        # ppo.epochs 2 adds 0.3; optim.lr does nothing; the seed adds a little
        value = 0.4 + (0.3 if cfg.ppo.epochs == 2 else 0.0) + 0.01 * cfg.run.seed
        for k in range(8):
            on_log(256 * (k + 1), {"episode/won": value})
    summary = ablate(tmp_path, seeds=2, train=train)
    base = summary["baseline"]["params"]
    rows = {(r["knob"], r["value"]): r for r in summary["knobs"]}
    assert set(rows) == {("optim.lr", 1e-4), ("optim.lr", 1e-2), ("ppo.epochs", 3 - base["ppo.epochs"])}
    epochs = rows[("ppo.epochs", 3 - base["ppo.epochs"])]
    assert epochs["effect"] == pytest.approx(0.3 if base["ppo.epochs"] == 1 else -0.3)
    # the same seed noise on both sides: variances 0.01**2 / 2 each, df 2, t 4.303
    half = 4.303 * (2 * 0.01 ** 2 / 2 / 2) ** 0.5
    assert epochs["high"] - epochs["low"] == pytest.approx(2 * half) and epochs["clear"]
    for lr in (1e-4, 1e-2):
        r = rows[("optim.lr", lr)]
        assert r["effect"] == pytest.approx(0.0, abs=1e-12) and r["low"] < 0 < r["high"] and not r["clear"]
    md = (tmp_path / "ablate" / "ablation.md").read_text()
    assert md.count("| optim.lr |") == 2 and "| ppo.epochs |" in md
    result = tmp_path / "ablate" / "baseline" / "seed-1" / "result.json"
    assert json.loads(result.read_text())["provenance"] == summary["provenance"] == provenance()
    assert f"Code the runs ran: osrs-rl {describe()}: 8 runs." in md

    def refuse(cfg, on_log):
        raise AssertionError("a finished ablation run was trained again")
    assert ablate(tmp_path, seeds=2, train=refuse) == summary              # read back, not retrained
    old = {k: v for k, v in json.loads(result.read_text()).items() if k != "provenance"}
    result.write_text(json.dumps(old))                                     # a run an older osrs-rl made
    ablate(tmp_path, seeds=2, train=refuse)
    assert f"Code the runs ran: osrs-rl {describe()}: 7 runs; not recorded: 1 run." in (
        tmp_path / "ablate" / "ablation.md").read_text()
    assert main(["sweep", "ablate", str(tmp_path), "--seeds", "1"]) == 2
    assert "needs --seeds 2 or more" in capsys.readouterr().out
    assert main(["sweep", "ablate", str(tmp_path), "--knobs", "ppo.gamma"]) == 2
    assert "ppo.gamma is not a parameter" in capsys.readouterr().out


def test_ablate_a_config_moves_each_knob_from_the_presets_own_value(tmp_path, capsys):
    """No study: the baseline is the encounter's preset as it is (optim.lr 3e-3, ppo.epochs 2, start_food the
    encounter's default 10), each knob moved from there; another space in the same folder is refused."""
    from osrs_rl.sweep.ablate import ablate_config

    text = SPACE + '\n[params."env.config.start_food"]\nchoices = [5, 10]\n'
    definition = SweepDefinition("template", text, "space.toml")

    def train(cfg, on_log):        # fewer sharks cost 0.2; the seed adds a little
        value = 0.5 - (0.2 if cfg.env.config.get("start_food") == 5 else 0.0) + 0.01 * cfg.run.seed
        for k in range(8):
            on_log(256 * (k + 1), {"episode/won": value})
    said = []
    summary = ablate_config(definition, tmp_path, seeds=2, train=train, say=said.append)
    assert len(said) == 10 and said[0].startswith("[1/10] baseline seed 0: 0.5") and said[-1].startswith("[10/10]")
    assert summary["baseline"]["params"] == {"optim.lr": 3e-3, "ppo.epochs": 2, "env.config.start_food": 10}
    assert summary["baseline"]["source"] == "the preset"
    rows = {(r["knob"], r["value"]): r for r in summary["knobs"]}
    assert set(rows) == {("optim.lr", 1e-4), ("optim.lr", 1e-2), ("ppo.epochs", 1), ("env.config.start_food", 5)}
    assert rows[("env.config.start_food", 5)]["effect"] == pytest.approx(-0.2)
    assert rows[("env.config.start_food", 5)]["clear"]
    # halfway: each run's curve at half the budget (its value throughout here), the mean over the seeds
    assert rows[("env.config.start_food", 5)]["halfway"] == pytest.approx(0.305)
    assert summary["baseline"]["halfway"] == pytest.approx(0.505)
    result = json.loads((tmp_path / "ablate" / "env.config.start_food=5" / "seed-1" / "result.json").read_text())
    assert result["params"]["env.config.start_food"] == 5
    md = (tmp_path / "ablate" / "ablation.md").read_text()
    assert "Baseline: the preset (" in md and "(the baseline's: 0.505)" in md and "| 0.305 |" in md
    other = SweepDefinition("template", text.replace("choices = [5, 10]", "choices = [4, 10]"), "space.toml")
    with pytest.raises(ValueError, match="holds an ablation of another baseline"):
        ablate_config(other, tmp_path, seeds=2, train=train)
    space = tmp_path / "space.toml"
    space.write_text(text)
    assert main(["sweep", "ablate", "nosuch", "--space", str(space)]) == 2
    assert "needs an encounter" in capsys.readouterr().out
    assert main(["sweep", "ablate", "template", "--space", str(space), "--storage", "postgresql://x/y"]) == 2
    assert "an ablation of a config needs none" in capsys.readouterr().out
    assert main(["sweep", "ablate", "template", "--space", str(space), "--dir", str(tmp_path), "--seeds", "1"]) == 2
    assert "needs --seeds 2 or more" in capsys.readouterr().out


def test_the_level_objective_stops_a_run_at_the_level_and_scores_how_soon(tmp_path):
    """Issue 43's per-sample score: 1 - steps to the smoothed level / budget, the run stopped there; a
    run that never gets there scores 0; the ablation's table gives each seed's steps."""
    from osrs_rl.sweep.ablate import ablate_config

    text = SPACE.replace("[sweep]", '[sweep]\nobjective = "level"\nlevel = 0.8\nlevel_window = 512\nprune = false')

    def train(cfg, on_log):        # lr 1e-4 never learns; otherwise the seed decides when 0.9 comes
        runs.append([])
        for k in range(8):
            step = 256 * (k + 1)
            value = 0.0 if cfg.optim.lr == 1e-4 else (0.9 if k >= 2 + cfg.run.seed else 0.1)
            runs[-1].append(step)
            if on_log(step, {"episode/won": value, "episode/count": 10.0}):
                break
    runs = []
    definition = SweepDefinition("template", text + '\n', "space.toml")
    summary = ablate_config(definition, tmp_path, seeds=2, train=train, knobs=["optim.lr"])
    base = summary["baseline"]
    # seed 0: 0.9 from 768 on, the window (512 steps: the logs at 1024 and 768) at 0.9 first at 1024
    assert base["steps"] == [1024, 1280] and base["median_steps"] == 1152
    assert base["scores"] == [pytest.approx(1 - 1024 / 2048), pytest.approx(1 - 1280 / 2048)]
    assert [r[-1] for r in runs[:3]] == [1024, 1280, 2048]   # stopped at the level; a miss runs its budget
    never = {r["value"]: r for r in summary["knobs"]}[1e-4]
    assert never["steps"] == [None, None] and never["scores"] == [0.0, 0.0] and never["median_steps"] is None
    md = (tmp_path / "ablate" / "ablation.md").read_text()
    assert "| baseline | 1,024, 1,280 | 1,152 |" in md and "| optim.lr = 0.0001 | -, - | - | - |" in md
    assert base["halfway"] is None and "halfway" not in md.lower()    # a run stopped at the level has no halfway


def test_confirm_trains_the_best_trials_again_with_several_seeds(tmp_path, capsys):
    from osrs_rl.sweep.ablate import confirm

    study, definition = create_or_load(tmp_path, _definition(SPACE.replace("[sweep]", "[sweep]\nprune = false")))
    optimize(study, definition, tmp_path, 3, console=None, train=_fake([[0.2] * 8, [0.9] * 8, [0.5] * 8], []))

    def train(cfg, on_log):        # the seed decides: 0.4, 0.6, 0.8 whatever the parameters
        for k in range(8):
            on_log(256 * (k + 1), {"episode/won": 0.4 + 0.2 * cfg.run.seed})
    rows = confirm(tmp_path, top=2, seeds=3, train=train)
    assert [r["trial"] for r in rows] == [1, 2]                   # the two best trials, best first
    assert rows[0]["scores"] == pytest.approx([0.4, 0.6, 0.8])
    half = 4.303 * (0.04 / 3) ** 0.5                              # variance 0.04, 3 seeds, t(2)
    assert (rows[0]["low"], rows[0]["high"]) == pytest.approx((0.6 - half, 0.6 + half))
    assert "| 1 | 0.9 | 0.6 |" in (tmp_path / "confirm" / "confirm.md").read_text()
    assert main(["sweep", "confirm", str(tmp_path), "--seeds", "1"]) == 2
    assert "needs --seeds 2 or more" in capsys.readouterr().out


def test_a_wall_time_budget_ends_a_trial_at_its_next_log(tmp_path):
    import time

    text = SPACE.replace("[sweep]", "[sweep]\nbudget_seconds = 0.05")
    study, definition = create_or_load(tmp_path, _definition(text))
    calls = []

    def train(cfg, on_log):
        calls.append(0)
        for k in range(8):
            time.sleep(0.03)
            calls[-1] = 256 * (k + 1)
            if on_log(256 * (k + 1), {"episode/won": 0.5}):
                return None
    optimize(study, definition, tmp_path, 1, console=None, train=train)
    record = json.loads((tmp_path / "trials" / "trial-0000" / "trial.json").read_text())
    # stopped at the first log past 0.05 s (the second, unless the machine stalled the first sleep)
    assert record["timed_out"] and len(calls) == 1 and 256 <= calls[0] <= 512
    assert study.trials[0].value == pytest.approx(0.5)


@pytest.mark.slow
def test_an_eval_objective_scores_a_real_trial_by_its_evaluation(tmp_path):
    text = SPACE.replace("[sweep]", '[sweep]\nobjective = "eval"\neval_episodes = 8').replace("budget_steps = 2048",
                                                                                               "budget_steps = 512")
    study, definition = create_or_load(tmp_path, _definition(text))
    optimize(study, definition, tmp_path, 1, console=None)
    trial = study.trials[0]
    assert trial.state == optuna.trial.TrialState.COMPLETE and trial.user_attrs["metric"] == "eval/win_rate"
    assert 0 <= trial.value <= 1 and (trial.value * 8) == int(trial.value * 8)    # wins of 8 episodes
