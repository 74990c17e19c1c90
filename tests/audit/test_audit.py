"""The truth report (``osrs-rl audit``): its numbers add up, its flags fire, its per-tick reading is right.

Checkpoints are untrained (a trainer's first save): the audit reads what any policy does, so a random
one exercises every table; short fights keep the suite quick.
"""

import dataclasses
import json

import numpy as np
import pytest
from PIL import Image

import osrs_rl
from osrs_rl.agent.config import load_config
from osrs_rl.audit.heatmap import FLAG, image_size, tile_box
from osrs_rl.audit.run import AuditError, audit
from osrs_rl.cli import main
from osrs_rl.io.provenance import describe, provenance
from osrs_rl.replay import record_policy_episode
from osrs_rl.runtime.registry import get_spec, names
from osrs_rl.runtime.truth import TICK_KEYS, Truth, check_truth
from osrs_rl.train.ppo import Trainer

MAX_TICKS = {"template": 200, "zulrah": 120}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """encounter -> a run folder holding an untrained checkpoint."""
    out = {}
    for enc in ("template", "zulrah"):
        root = tmp_path_factory.mktemp(f"run-{enc}")
        cfg = load_config(enc, overrides=["--run.out_dir", str(root), "--run.name", "r", "--log.console", "false",
                                          "--log.replays", "false", "--env.num_envs", "4", "--env.overlap", "false",
                                          "--log.tensorboard", "false"])
        out[enc] = Trainer(cfg, console=False).save().parent
    return out


def _forbid_start(truth: Truth, start) -> Truth:
    """The encounter's truth, with a reference map that says tile ``start`` is not walkable."""
    def walkable(cfg):
        w = truth.reference_walkable(cfg).copy()
        w[start] = False
        return w
    return dataclasses.replace(truth, reference_walkable=walkable)


def _start_tile(enc: str) -> tuple[int, int]:
    env = osrs_rl.make(enc, num_envs=1, seed=0)
    env.reset()
    s = env.states[0]
    t = get_spec(enc).truth.tick(s, s, env.config[0], 0)
    return t["x"], t["y"]


# ---- the declarations ---------------------------------------------------------------------------
@pytest.mark.slow
def test_every_declared_truth_fits_its_spec():
    declared = [n for n in names() if get_spec(n).truth is not None]
    assert {"template", "zulrah"} <= set(declared)
    for name in declared:
        spec = get_spec(name)
        truth = check_truth(spec)
        env = osrs_rl.make(name, num_envs=1, seed=1)
        env.reset()
        before = env.states[0].copy()
        env.step(np.zeros(env._action_shape, dtype=np.int64))
        t = truth.tick(before, env.states[0], env.config[0], 0)
        assert set(TICK_KEYS) <= set(t), name
        assert set(t["damage"]) == set(truth.damage_metrics), name
        w = truth.reference_walkable(env.config[0])
        assert w.dtype == np.bool_ and w.ndim == 2 and w[t["x"], t["y"]], name   # the start is walkable


def test_a_truth_naming_unknown_metrics_is_refused():
    spec = get_spec("template")
    bad = dataclasses.replace(spec.truth, supply_metrics=("sharks_eaten",))
    with pytest.raises(ValueError, match="sharks_eaten"):
        check_truth(spec, bad)


# ---- the report ---------------------------------------------------------------------------------
@pytest.mark.parametrize("enc", ["template", "zulrah"])
def test_audit_writes_a_picture_and_tables_that_add_up(runs, enc, tmp_path):
    report, out = audit(runs[enc], episodes=4, seed=3, config={"max_ticks": MAX_TICKS[enc]}, out=tmp_path / "a")
    saved = json.loads((out / "report.json").read_text())
    assert saved == json.loads(json.dumps(report))
    view = saved["map"]["view"]
    with Image.open(out / "heatmap.png") as img:
        assert img.size == image_size(view["width"], view["height"])
        assert img.size[0] >= 2 * view["width"] * 24
    assert (out / "report.md").read_text().startswith(f"# Audit: {enc}")
    assert saved["provenance"] == provenance()                               # the code that audited
    assert f"- audited by: osrs-rl {describe(provenance(), short=12)}\n" in (out / "report.md").read_text()
    tiles = saved["tiles"]
    assert sum(t["ticks"] for t in tiles) == saved["ticks"] > 0
    assert saved["ticks"] == pytest.approx(saved["outcomes"]["mean_ticks"] * saved["episodes"])
    assert sum(t["attacks"] for t in tiles) == saved["attacks"]["total"] == sum(saved["attacks"]["by_target"].values())
    assert saved["episodes"] == 4
    assert saved["outcomes"]["terminated"] + saved["outcomes"]["truncated"] == 4
    assert all(c["ok"] for c in saved["checks"]), saved["checks"]
    assert saved["saved_replays"] == [] and not list(out.glob("*.orlr"))
    for t in tiles:                                   # every tile inside the drawn box
        assert view["x0"] <= t["x"] < view["x0"] + view["width"] and view["y0"] <= t["y"] < view["y0"] + view["height"]
    a = saved["attacks"]
    if a["window"] is not None:
        assert sum(w["attacks"] for w in a["by_window_tick"]) + a["outside_windows"] == a["on_window_target"]
        assert sum(w["ticks"] for w in a["by_window_tick"]) == a["attackable_ticks"]


def test_a_reference_without_the_start_tile_flags_every_tick_there(runs, tmp_path):
    """The template never moves: a reference map without its tile flags 100 % of ticks and attacks,
    frames the tile in red, and saves the flagged episodes as replays that reproduce the flags."""
    start = _start_tile("template")
    truth = _forbid_start(get_spec("template").truth, start)
    report, out = audit(runs["template"], episodes=3, config={"max_ticks": 80}, out=tmp_path / "bad", truth=truth)
    pos = report["position"]
    assert pos["share_ticks_off_reference"] == 1.0 and pos["ticks_off_reference"] == report["ticks"]
    assert pos["attacks_off_reference"] == report["attacks"]["total"]
    assert pos["episodes_off_reference"] == 3
    assert not report["checks"][0]["ok"] and report["checks"][0]["value"] == report["ticks"]
    view = report["map"]["view"]
    with Image.open(out / "heatmap.png") as img:
        l, t, r, b = tile_box(view, 0, *start)
        assert img.convert("RGB").getpixel((l, (t + b) // 2)) == FLAG
    assert report["saved_replays"] == ["flagged-0.orlr", "flagged-1.orlr", "flagged-2.orlr"]
    again, _ = audit(out / "flagged-0.orlr", out=tmp_path / "again", truth=truth)
    first = report["flagged_episodes"]
    assert again["ticks"] == again["position"]["ticks_off_reference"] == max(f["ticks_off_reference"] for f in first)
    honest, _ = audit(out / "flagged-0.orlr", out=tmp_path / "honest")
    assert honest["position"]["ticks_off_reference"] == 0 and honest["ticks"] == again["ticks"]
    with Image.open(tmp_path / "honest" / "heatmap.png") as img:
        l, t, r, b = tile_box(honest["map"]["view"], 0, *start)
        assert img.convert("RGB").getpixel((l, (t + b) // 2)) != FLAG
    clean, _ = audit(runs["template"], episodes=3, config={"max_ticks": 80}, out=out)   # the same folder again
    assert clean["saved_replays"] == [] and not list(out.glob("*.orlr"))                 # its flagged replays go


def test_zulrah_a_forbidden_tile_is_flagged_exactly_as_often_as_it_is_stood_on(runs, tmp_path):
    """Replay the same episodes with a reference map that drops the tile they stood on most."""
    kwargs = dict(episodes=3, seed=2, config={"max_ticks": 60})
    honest, _ = audit(runs["zulrah"], out=tmp_path / "h", **kwargs)
    top = honest["tiles"][0]
    truth = _forbid_start(get_spec("zulrah").truth, (top["x"], top["y"]))
    report, _ = audit(runs["zulrah"], out=tmp_path / "z", truth=truth, **kwargs)
    assert report["position"]["ticks_off_reference"] == top["ticks"] > 0
    assert report["position"]["attacks_off_reference"] == top["attacks"]
    assert report["position"]["tiles_off_reference"] == [{**top, "walkable": False}]
    assert report["position"]["share_ticks_off_reference"] == pytest.approx(top["ticks"] / honest["ticks"])


def test_a_later_window_in_the_reference_flags_the_early_attacks(runs, tmp_path):
    """A reference whose Zulrah becomes attackable 3 ticks later than the simulator's flags exactly the
    attacks on Zulrah the honest report puts at window ticks 0-2."""
    truth = get_spec("zulrah").truth
    honest, _ = audit(runs["zulrah"], episodes=4, seed=5, config={"max_ticks": MAX_TICKS["zulrah"]},
                      out=tmp_path / "h")

    def late(previous, s, cfg, agent=0):
        t = truth.tick(previous, s, cfg, agent)
        early = t["window_tick"] is not None and t["window_tick"] < 3
        if early and t["target"] == "zulrah":
            t["target_attackable"] = False
        return t

    shifted, _ = audit(runs["zulrah"], episodes=4, seed=5, config={"max_ticks": MAX_TICKS["zulrah"]},
                       out=tmp_path / "s", truth=dataclasses.replace(truth, tick=late))
    early = sum(w["attacks"] for w in honest["attacks"]["by_window_tick"][:3])
    assert early > 0
    assert honest["attacks"]["not_attackable"] == 0
    assert shifted["attacks"]["not_attackable"] == early
    assert next(c for c in shifted["checks"] if "not attackable" in c["check"])["value"] == early


# ---- the per-tick reading ------------------------------------------------------------------------
def _scripted(enc: str, choose, ticks: int, config: dict):
    """Play one episode with ``choose(mask_by_head, rng) -> actions``; returns the replay and, per tick,
    whether the action asked for an attack the mask allowed."""
    spec = get_spec(enc)
    rng = np.random.default_rng(0)
    asked = []

    def act(env, obs, info):
        heads = {h: info["action_mask"][0, sl] for h, sl in spec.mask_slices().items()}
        a, wanted = choose(heads, rng)
        asked.append(wanted)
        return np.array([a], dtype=np.int64)

    replay = record_policy_episode(enc, config, act, seed=4, max_ticks=ticks)
    return replay, asked


def _ticks_read(replay, truth):
    from osrs_rl.replay.verify import replay_steps, start_env

    env = start_env(replay)
    out, previous = [], env.states[0].copy()
    for _ in replay_steps(replay, env):
        out.append(truth.tick(previous, env.states[0], env.config[0], 0))
        previous = env.states[0].copy()
    return out


def test_template_attacks_are_read_from_the_records():
    """Attack or eat at random: every allowed attack the player lived to make is read as one, and no bite
    is (eating raises the attack timer too)."""
    def choose(h, rng):
        attack = bool(h["attack"][1]) and rng.random() < 0.5
        eat = not attack and bool(h["eat"][1]) and rng.random() < 0.5
        return [int(attack), 0, int(eat)], attack

    replay, asked = _scripted("template", choose, 150, {"max_ticks": 150})
    read = _ticks_read(replay, get_spec("template").truth)
    attacks = [t["attack"] for t in read]
    assert sum(asked) > 5 and any(replay.actions[:, 0, 2])
    assert attacks == asked[:len(attacks)]


def test_zulrah_attacks_are_read_from_the_hit_queue():
    """A scripted player (prays the next shot's style, eats, drinks, attacks Zulrah or else a snakeling,
    now and then steps): an attack is read only on a tick that asked for an allowed one, at the target
    asked for, and nearly every allowed attack on Zulrah is read (a slam's stun in the tick can stop it;
    a snakeling may step out of reach before the player acts, so those are not counted)."""
    from osrs_rl.core.skills import HITPOINTS, PRAYER
    from osrs_rl.encounters.zulrah.view import next_attack_style

    spec = get_spec("zulrah")
    sl = spec.mask_slices()
    rng = np.random.default_rng(0)
    asked = []

    def act(env, obs, info):
        m = info["action_mask"][0]
        s, cfg = env.states[0], env.config[0]
        a = np.zeros((1, spec.num_heads), dtype=np.int64)
        attack = m[sl["attack"]]
        target = 1 if attack[1] else next((k for k in range(2, len(attack)) if attack[k]), 0)
        a[0, 1] = target
        style = int(next_attack_style(s, cfg))                   # 1 magic, 2 missiles
        a[0, 2] = style if m[sl["overhead"]][style] else 0
        hp, prayer = int(s["p"]["levels"][HITPOINTS]), int(s["p"]["levels"][PRAYER])
        eat = bool(m[sl["eat"]][1]) and hp < 70
        if eat and (target == 0 or hp < 40):                       # a bite in an attack's tick delays it
            a[0, 1], target, a[0, 5] = 0, 0, 1
        a[0, 6] = int(m[sl["drink"]][1] and prayer < 40)
        if rng.random() < 0.1:
            a[0, 0] = int(rng.choice(np.flatnonzero(m[sl["move"]])))
        asked.append(("zulrah" if target == 1 else "snakeling") if target else "")
        return a

    replay = record_policy_episode("zulrah", {"max_ticks": 400, "gear_tier": 0}, act, seed=4)
    read = _ticks_read(replay, spec.truth)
    attacks = [t["target"] if t["attack"] else "" for t in read]
    assert all(a == asked[k] for k, a in enumerate(attacks) if a)
    made, allowed = attacks.count("zulrah"), asked.count("zulrah")
    assert made >= 0.9 * allowed and made > 20, (made, allowed)
    assert "snakeling" in attacks and any(replay.actions[:, 0, 5]), (attacks.count("snakeling"), replay.ticks)
    assert all(t["target_attackable"] for t in read) and all(t["attackable"] for t in read if t["target"] == "zulrah")


# ---- the command --------------------------------------------------------------------------------
def test_cli_audit_prints_the_tables(runs, capsys):
    rc = main(["audit", str(runs["template"]), "--episodes", "2", "--env.config.max_ticks", "50"])
    words = " ".join(capsys.readouterr().out.split())
    assert rc == 0
    assert "checks" in words and "damage taken by source" in words and "audit written to" in words
    assert (runs["template"] / "audit" / "report.json").is_file()
    assert main(["audit", str(runs["template"]), "--episodes", "2", "--env.config.max_ticks", "50"]) == 0


@pytest.mark.parametrize("argv, message", [
    (["audit", "/nonexistent-run"], "no run folder, checkpoint or replay"),
    (["audit", "RUN", "--ppo.lr", "0.1"], "encounter settings only"),
    (["audit", "RUN", "--env.config.max_tick", "50"], "max_tick"),
    (["audit", "RUN", "--episodes", "0"], "--episodes must be at least 1"),
    (["audit", "RUN", "--replays"], "no evaluation replays"),
])
def test_cli_audit_bad_input(runs, argv, message, capsys):
    argv = [str(runs["template"]) if a == "RUN" else a for a in argv]
    assert main(argv) == 2
    assert message in " ".join(capsys.readouterr().out.split())


def test_a_default_folder_that_is_not_an_audit_is_left_alone(runs, tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    (run / "checkpoint.pt").write_bytes((runs["template"] / "checkpoint.pt").read_bytes())
    (run / "audit").mkdir()
    (run / "audit" / "notes.txt").write_text("mine")
    with pytest.raises(AuditError, match="--out"):
        audit(run, episodes=1)
    assert [p.name for p in (run / "audit").iterdir()] == ["notes.txt"]


# ---- damage by (source, style), from tallies built by hand ---------------------------------------------------
def _style_report(hits_per_episode, declared):
    """The report of episodes whose tick dicts carry only ``hits`` (runtime.truth.Hit rows)."""
    from osrs_rl.audit.collect import EpisodeTally
    from osrs_rl.audit.report import build_report

    tallies = []
    for k, hits in enumerate(hits_per_episode):
        t = EpisodeTally(label=f"episode {k}")
        t.add({"x": 0, "y": 0, "attack": False, "target": "", "target_attackable": True, "attackable": False,
               "window_tick": None, "damage": {}, "hits": hits}, None)
        tallies.append(t)
    truth = Truth(reference_walkable=lambda cfg: np.ones((1, 1), bool), tick=None, damage_metrics=(),
                  supply_metrics=())
    report = build_report(tallies, get_spec("template"), truth, np.ones((1, 1), bool), {}, tuple(declared))
    return {r["pair"]: r for r in report["damage_by_style"]}, {c["check"]: c["value"] for c in report["checks"]}


def _check(checks, start):
    return next(v for k, v in checks.items() if k.startswith(start))


def test_a_style_tally_counts_hits_unprotected_ones_and_their_damage():
    from osrs_rl.audit.collect import StyleTally
    from osrs_rl.runtime.truth import Hit

    t = StyleTally()
    for hit in (Hit("npc", "ranged", 12, False), Hit("npc", "ranged", 0, True), Hit("npc", "ranged", 7, True)):
        t.add(hit)
    assert (t.hits, t.unprotected, t.damage, t.unprotected_damage) == (3, 1, 19, 12)
    other = StyleTally()
    other.add(Hit("npc", "ranged", 5, False))
    t.merge(other)
    assert (t.hits, t.unprotected, t.damage, t.unprotected_damage) == (4, 2, 24, 17)
    assert (other.hits, other.damage) == (1, 5)


def test_an_attack_that_never_hurts_unprotected_is_flagged_even_when_prayed_hits_hurt():
    """A declared style whose unprotected hits all dealt 0 over UNPROTECTED_HITS is flagged, judged on the
    unprotected hits alone: a prayer that lets part of a hit through must not hide it. Under that count, or with
    one unprotected hit that hurt, it is not."""
    from osrs_rl.audit.report import UNPROTECTED_HITS
    from osrs_rl.runtime.attacks import Attack
    from osrs_rl.runtime.truth import Hit

    declared = (Attack("npc", "ranged", 29), Attack("npc", "magic", 29), Attack("other", "ranged", 19))
    npc_ranged = [Hit("npc", "ranged", 0, False)] * UNPROTECTED_HITS + [Hit("npc", "ranged", 9, True)] * 5
    npc_magic = [Hit("npc", "magic", 0, False)] * (UNPROTECTED_HITS - 1)
    other = [Hit("other", "ranged", 0, False)] * 30 + [Hit("other", "ranged", 4, False)]
    rows, checks = _style_report([npc_ranged[:10], npc_ranged[10:] + npc_magic + other], declared)
    assert rows["npc/ranged"]["never_hurt"] and rows["npc/ranged"]["damage"] == 45
    assert rows["npc/ranged"]["unprotected_damage"] == 0 and rows["npc/ranged"]["episodes_hurt"] == 1
    assert not rows["npc/magic"]["never_hurt"] and not rows["other/ranged"]["never_hurt"]
    assert _check(checks, "attacks (source, style) that dealt 0") == 1
    assert list(rows) == ["npc/ranged", "npc/magic", "other/ranged"]            # declared order


def test_damage_from_an_undeclared_style_is_flagged_with_its_amount():
    from osrs_rl.runtime.attacks import Attack
    from osrs_rl.runtime.truth import Hit

    rows, checks = _style_report([[Hit("other", "ranged", 3, False), Hit("other", "magic", 5, False),
                                   Hit("other", "magic", 2, True)]], (Attack("other", "ranged", 19),))
    assert not rows["other/magic"]["declared"] and rows["other/magic"]["max_hit"] is None
    assert _check(checks, "damage from a (source, style) the encounter does not declare") == 7
    rows, checks = _style_report([[Hit("other", "ranged", 3, False)]], (Attack("other", "ranged", 19),))
    assert _check(checks, "damage from a (source, style) the encounter does not declare") == 0
