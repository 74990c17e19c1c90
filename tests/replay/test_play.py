"""Human play without a browser: clicks become the options the action heads offer, masks are respected,
a checkpoint can play the opponent, and a saved session is a replay that reproduces exactly."""

import numpy as np
import pytest

from osrs_rl import cli
from osrs_rl.replay import load_replay, verify_replay
from osrs_rl.replay import play as play_module
from osrs_rl.replay.cli_web import parse_config
from osrs_rl.replay.play import PlayError, PlaySession
from osrs_rl.replay.scene import validate_scene
from tests.replay.web_fixtures import tiny_checkpoint


def _entity(state_or_scene, eid):
    scene = state_or_scene.get("scene", state_or_scene)
    return next(e for e in scene["entities"] if e["id"] == eid)


# ---- template: no movement, one NPC ---------------------------------------------------------------
def test_template_clicks_buttons_and_masks(tmp_path):
    s = PlaySession("template", {"max_ticks": 10}, seed=1)
    assert [h["name"] for h in s.legal()] == ["attack", "prayer", "eat"]
    assert s.click_entity("npc") == {"intents": {"attack": 1}, "note": "attack Abyssal demon (attack)"}
    assert s.click_entity("player")["intents"] == {}            # clicking yourself does nothing
    assert s.click_tile(4, 1)["intents"] == {}                   # the template has no movement
    with pytest.raises(PlayError, match="no entity 'ghost'"):
        s.click_entity("ghost")
    with pytest.raises(PlayError, match="prayer 'off' is not allowed now"):
        s.step({"prayer": "off"})                                # masked: not praying yet
    for bad, message in [({"nope": 1}, "unknown action head 'nope'"), ({"eat": 5}, "out of range 0..1"),
                         ({"prayer": "pray harder"}, "has no option 'pray harder'"), ([1, 2], "must be an object")]:
        with pytest.raises(PlayError, match=message):
            s.step(bad)
    assert s.tick == 0                                           # refused steps change nothing
    with pytest.raises(PlayError, match="nothing to save"):
        s.to_replay()
    state = s.step({"attack": 1, "prayer": "protect_melee"})
    player = _entity(state, "player")
    assert state["tick"] == 1 and player["overhead"] == "melee" and player["attack_timer"] == 3
    assert s.legal()[1]["legal"] == [True, False, True]          # on now: only "off" switches it
    assert state["outcome"] is None
    while not s.done:
        state = s.step({})
    assert state["outcome"] == s.outcome == "timed out"          # who won, as the replay will say
    with pytest.raises(PlayError, match=r"the episode ended at tick 10 \(timed out\)"):
        s.step({})
    path = s.save(tmp_path / "demo.orlr")
    replay = load_replay(path)
    assert replay.meta == {"source": "human"} and replay.ticks == 10 and replay.truncated
    assert replay.outcome() == "timed out"
    assert verify_replay(replay).ok
    assert np.allclose(sum(replay.reward_components.values()), replay.rewards[:, 0], atol=1e-6)


def test_a_registered_click_mapper_replaces_the_default():
    class EatOnClick:
        def tile(self, session, x, y):
            return {"intents": {"prayer": 1}, "note": f"tile {x},{y}"}

        def entity(self, session, entity_id):
            return {"intents": {"eat": 0}, "note": entity_id}

    play_module.CLICK_MAPPERS["template"] = EatOnClick()
    try:
        s = PlaySession("template", seed=2)
        assert s.click_tile(0, 0) == {"intents": {"prayer": 1}, "note": "tile 0,0"}
        assert s.click_entity("npc")["note"] == "npc"
    finally:
        del play_module.CLICK_MAPPERS["template"]


# ---- pvp: relative moves, a scripted tier or a checkpoint as the opponent ------------------------------
@pytest.fixture(scope="module")
def pvp():
    return PlaySession("pvp", {"max_ticks": 60}, seed=1, opponent="average")


def test_pvp_tile_click_picks_the_move_that_lands_nearest(pvp):
    me, foe = _entity(pvp.scene(), "p0"), _entity(pvp.scene(), "p1")
    assert (me["y"], foe["y"]) == (7, 7) and me["x"] < foe["x"]    # spawns: same row, p0 to the west
    west = pvp.click_tile(1, me["y"])
    assert west["intents"] == {"move": 3} and "away" in west["note"]
    assert pvp.click_tile(me["x"], me["y"])["intents"] == {"move": 0}      # your own tile: stay
    assert pvp.click_tile(foe["x"] - 1, foe["y"])["intents"] == {"move": 1}
    # every legal option's landing tile is what the mapping compares: it is the nearest of them
    target = (3, 12)
    chosen = pvp.click_tile(*target)["intents"]["move"]
    legal = [k for k, ok in enumerate(pvp.legal_options("move")) if ok]
    tiles = {k: (me["x"], me["y"]) if k == 0 else pvp.simulate_position({"move": k}) for k in legal}
    distance = {k: max(abs(x - target[0]), abs(y - target[1])) for k, (x, y) in tiles.items()}
    assert distance[chosen] == min(distance.values())
    assert pvp.tick == 0 and _entity(pvp.scene(), "p0")["x"] == me["x"]    # trying options moved nothing


def test_pvp_session_moves_attacks_prays_and_saves(pvp, tmp_path):
    start = _entity(pvp.scene(), "p0")
    attack = pvp.click_entity("p1")
    assert attack["intents"] == {"attack": 1} and "attack player 1" in attack["note"]
    intents = {**pvp.click_tile(1, 7)["intents"], **attack["intents"], "overhead": "magic"}
    state = pvp.step(intents)
    me = _entity(state, "p0")
    assert me["x"] < start["x"] and me["y"] == start["y"]             # walked (ran) west
    assert me["overhead"] == "magic" and me["attack_timer"] > 0       # prayed and attacked
    assert any(h["from"] == "p0" for h in state["scene"]["pending_hits"])
    # what the page gets holds no damage of hits still in flight (the player cannot see it in the game);
    # the session's own scene still knows it
    assert all(h["damage"] is None for h in state["scene"]["pending_hits"])
    assert all(isinstance(h["damage"], int) for h in pvp.scene()["pending_hits"])
    validate_scene(state["scene"])
    assert pvp.legal()[1]["legal"][1] is False                        # the attack timer masks a new attack
    with pytest.raises(PlayError, match="attack 'weapon' is not allowed now"):
        pvp.step({"attack": "weapon"})
    cannot = pvp.click_entity("p1")                                   # out of attacks: walk toward instead
    assert "move" in cannot["intents"] and "cannot attack" in cannot["note"]
    for _ in range(4):
        pvp.step({})
    replay = load_replay(pvp.save(tmp_path / "pvp.orlr"))
    assert replay.meta == {"source": "human", "opponent": "average"} and replay.config["opponent_tier"] == 4
    assert replay.actions[0, 0, 3] == 1 and verify_replay(replay).ok


def test_pvp_against_a_checkpoint_records_both_agents(tmp_path):
    ckpt = tiny_checkpoint(tmp_path / "c.pt")
    s = PlaySession("pvp", {"max_ticks": 30}, seed=5, checkpoint=str(ckpt))
    assert s.spec.name == "pvp_selfplay" and s.config["opponent_tier"] == -2
    assert "policy slot" in _entity(s.scene(), "p1")["name"]
    for _ in range(12):
        s.step({"overhead": "melee"} if s.tick == 0 else {})
    replay = s.to_replay()
    assert replay.actions.shape == (12, 2, 9) and replay.actions[:, 1].any()   # the policy acted for p1
    assert replay.meta["opponent"].startswith("checkpoint") and verify_replay(replay).ok


def test_bad_sessions_say_why(tmp_path):
    with pytest.raises(ValueError, match="unknown scripted tier 'grandmaster'"):
        PlaySession("pvp", opponent="grandmaster")
    with pytest.raises(PlayError, match="'template' has no opponent to choose"):
        PlaySession("template", opponent="average")
    with pytest.raises(PlayError, match="'template' has no second agent"):
        PlaySession("template", checkpoint=str(tmp_path / "none.pt"))
    with pytest.raises(KeyError, match="nosuch"):
        PlaySession("nosuch")


def test_play_and_view_commands_refuse_bad_input(tmp_path, capsys):
    for argv, message in [(["play", "nosuch"], "unknown encounter 'nosuch'"),
                          (["play", "pvp", "--opponent", "grandmaster"], "unknown scripted tier"),
                          (["play", "template", "--set", "max_ticks=abc"], "takes an integer"),
                          (["play", "template", "--set", "no_such=1"], "has no setting 'no_such'"),
                          (["play", "template", "--config", "max_ticks=5"],
                           "play takes the encounter's settings as --set KEY=VALUE (--set max_ticks=5)"),
                          (["play", "template", "--set", "max_ticks=5"], "max_ticks"),
                          (["play", "template", "--seed", "-1"], "--seed must be >= 0"),
                          (["view", str(tmp_path / "missing.orlr")], "no replay file")]:
        assert cli.main(argv) == 2, argv
        assert message in " ".join(capsys.readouterr().out.split()), argv
    assert parse_config(["max_ticks=50", "damage_reward=0.5"]) == {"max_ticks": 50, "damage_reward": 0.5}


def test_view_command_prints_the_url_and_stops_on_ctrl_c(tmp_path, capsys, monkeypatch):
    from osrs_rl.replay import save_replay
    from osrs_rl.replay.server import ViewerServer
    from tests.replay.web_fixtures import annotated_replay

    path = save_replay(tmp_path / "t.orlr", annotated_replay("template", 1))

    def interrupted(self):
        raise KeyboardInterrupt

    monkeypatch.setattr(ViewerServer, "serve_forever", interrupted)
    assert cli.main(["view", str(path), "--port", "0"]) == 0
    out = capsys.readouterr().out
    assert "serving on http://127.0.0.1:" in out and "stopped" in out
    assert cli.main(["play", "template", "--seed", "3"]) == 0


def test_view_opens_a_run_folder_as_audit_takes_it(tmp_path, capsys, monkeypatch):
    """Issue 42, item 8: ``osrs-rl view RUN`` refused the run folder ``osrs-rl audit RUN`` takes ("no replay file").
    A run folder (or a folder of replays) opens its best evaluation replay and lists the others; a folder with
    none says where it looked."""
    from osrs_rl.replay import save_replay
    from osrs_rl.replay import server as server_module
    from tests.replay.web_fixtures import annotated_replay

    run = tmp_path / "run"
    (run / "replays").mkdir(parents=True)
    (run / "checkpoint.pt").write_bytes(b"")
    for name, seed in (("default-0", 1), ("default-1", 2), ("best-default", 2)):
        save_replay(run / "replays" / f"{name}.orlr", annotated_replay("template", seed))
    served = []

    class Served:
        def __init__(self, app, port=0):
            served.append(app)
            self.url = f"http://127.0.0.1:{port}/"

        def serve_forever(self):
            raise KeyboardInterrupt

        def close(self):
            pass
    monkeypatch.setattr(server_module, "ViewerServer", Served)
    assert cli.main(["view", str(run)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert f"3 replay(s) in {run}: the page opens best-default.orlr" in out
    cfg = served[-1].config()
    assert [r["name"] for r in cfg["replays"]] == ["best-default.orlr", "default-0.orlr", "default-1.orlr"]
    assert cfg["open"] == ["0"]                                        # the best alone; the others in the list
    assert cli.main(["view", str(run / "replays")]) == 0 and served[-1].config()["open"] == ["0"]
    empty = tmp_path / "empty-run"
    empty.mkdir()
    assert cli.main(["view", str(empty)]) == 2
    out = " ".join(capsys.readouterr().out.split())
    assert f"no replay files (*.orlr) in {empty} nor in {empty / 'replays'}" in out


def test_a_port_out_of_range_is_one_line_before_any_work(tmp_path, capsys, monkeypatch):
    """Issue 42, item 8: ``--port 70000`` was an OverflowError traceback from the socket (``play`` after compiling)."""
    from osrs_rl.replay import save_replay
    from tests.replay.web_fixtures import annotated_replay

    path = save_replay(tmp_path / "t.orlr", annotated_replay("template", 1))
    monkeypatch.setattr(PlaySession, "warm_up", lambda self: pytest.fail("play prepared a session for a bad port"))
    for argv in (["view", str(path), "--port", "70000"], ["view", str(path), "--port", "-1"],
                 ["play", "template", "--port", "65536"]):
        assert cli.main(argv) == 2, argv
        out = capsys.readouterr().out
        assert out.count("\n") == 1 and out.startswith("error: --port must be 0-65535"), (argv, out)


def test_actions_are_int64_rows():
    s = PlaySession("template", seed=0)
    row = s.action_row({"attack": 1, "eat": "no"})
    assert row.dtype == np.int64 and row.tolist() == [1, 0, 0]


def test_zulrah_clicks_walk_to_the_tile_and_target_the_clicked_npc():
    """Zulrah's moves are compass steps, so a click two tiles north runs there; clicking Zulrah picks
    the attack option named after it, never a snakeling's."""
    s = PlaySession("zulrah", {"max_ticks": 200, "gear_tier": 2}, seed=1)
    me = _entity(s.scene(), "player")
    run = s.click_tile(me["x"], me["y"] + 2)
    assert run["intents"] == {"move": s.heads[0]["labels"].index("run_n")}, run
    for _ in range(12):                                    # past the spawn lock: Zulrah can be attacked
        s.step({})
    labels = s.heads[s.head_names.index("attack")]["labels"]
    click = s.click_entity("zulrah")
    assert click["intents"] == {"attack": labels.index("zulrah")}, click    # the twisted bow reaches it
    state = s.step(click["intents"])
    assert _entity(state, "player")["attack_timer"] > 0                  # the attack went out
    assert s.to_replay().ticks == 13


def test_saving_never_overwrites_a_demonstration_unless_asked(tmp_path):
    # issue 15, item 8: a second save under a saved demo's name replaced it without a word
    first = PlaySession("template", {"max_ticks": 10}, seed=1)
    first.step({"attack": 1})
    path = first.save(tmp_path / "demo.orlr")
    assert path == tmp_path / "demo.orlr"
    kept = path.read_bytes()
    second = PlaySession("template", {"max_ticks": 10}, seed=2)
    for _ in range(3):
        second.step({})
    again = second.save(tmp_path / "demo.orlr")
    assert again == tmp_path / "demo-2.orlr" and path.read_bytes() == kept       # the first one is untouched
    assert load_replay(again).ticks == 3
    assert second.save(tmp_path / "demo.orlr") == tmp_path / "demo-3.orlr"
    assert second.save(tmp_path / "demo.orlr", overwrite=True) == path           # asked for: replaced
    assert load_replay(path).ticks == 3


def test_play_warms_the_encounter_up_before_its_server_listens(capsys, monkeypatch):
    # issue 15, item 15: the first tick compiled the step kernels (seconds, keys dropped meanwhile); the warm-up
    # steps the encounter once and builds its scene while `osrs-rl play` starts, before the server exists
    from osrs_rl.replay import scene as scene_module
    from osrs_rl.replay import server as server_module
    from osrs_rl.runtime.vec_env import VecEnv

    events = []
    step, scene_of = VecEnv.step, scene_module.scene_of
    monkeypatch.setattr(VecEnv, "step", lambda self, actions: (events.append("step"), step(self, actions))[1])
    monkeypatch.setattr(scene_module, "scene_of", lambda *a, **k: (events.append("scene"), scene_of(*a, **k))[1])

    class NotListening:
        def __init__(self, app, port=0):
            events.append("listen")
            raise OSError("the test stops here")
    monkeypatch.setattr(server_module, "ViewerServer", NotListening)
    assert cli.main(["play", "template"]) == 2
    assert "cannot listen" in capsys.readouterr().out
    assert events.count("listen") == 1 and "step" in events[:events.index("listen")]
    assert "scene" in events[:events.index("listen")]


def test_the_warm_up_moves_nothing(tmp_path, monkeypatch):
    """A warmed session plays exactly as one that was not: its state, its opponent policy's draws."""
    ckpt = tiny_checkpoint(tmp_path / "c.pt")

    def play(session):
        for _ in range(8):
            session.step({})
        return session.to_replay()
    warm = PlaySession("pvp", {"max_ticks": 30}, seed=5, checkpoint=str(ckpt))
    assert warm.tick == 0 and warm.env.snapshot(0) == warm.initial
    monkeypatch.setattr(PlaySession, "warm_up", lambda self: None)
    cold = PlaySession("pvp", {"max_ticks": 30}, seed=5, checkpoint=str(ckpt))
    assert warm.initial == cold.initial
    a, b = play(warm), play(cold)
    assert np.array_equal(a.actions, b.actions) and a.final_state_hash == b.final_state_hash
    assert a.actions[:, 1].any()                                 # the policy acted, so its draws were compared
