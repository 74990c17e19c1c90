"""The viewer's HTTP server over plain urllib: static files, replay JSON, play sessions, and a JSON
error with a 4xx code for every bad request."""

import http.client
import json
import urllib.error
import urllib.request
from urllib.parse import urlsplit

import pytest

from osrs_rl.replay import load_replay, verify_replay
from osrs_rl.replay.scene import validate_scene
from osrs_rl.replay.server import MAX_BODY, PlayDefaults, ViewerApp, ViewerServer
from osrs_rl.replay.viewer_data import timeline
from osrs_rl.runtime.registry import get_spec
from tests.replay.web_fixtures import annotated_replay, save_annotated


def _call(base: str, path: str, body=None, method=None, raw: bytes | None = None):
    """(status, parsed JSON or text) of one request."""
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    req = urllib.request.Request(base.rstrip("/") + path, data=data, method=method or ("POST" if data else "GET"),
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as res:
            status, payload, kind = res.status, res.read(), res.headers["Content-Type"]
    except urllib.error.HTTPError as e:
        status, payload, kind = e.code, e.read(), e.headers["Content-Type"]
    return status, (json.loads(payload) if kind == "application/json" else payload.decode())


@pytest.fixture(scope="module")
def view_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("replays")
    paths = [save_annotated(folder, "pvp", 3), save_annotated(folder, "template", 1)]
    server = ViewerServer(ViewerApp(paths)).start()
    yield server.url
    server.close()


@pytest.fixture(scope="module")
def play_server(tmp_path_factory):
    app = ViewerApp(play=PlayDefaults("template", {"max_ticks": 10}, seed=2),
                    save_dir=tmp_path_factory.mktemp("demos"))
    server = ViewerServer(app).start()
    yield server.url, app
    server.close()


# ---- view ------------------------------------------------------------------------------------------------
def test_page_and_static_files(view_server):
    status, html = _call(view_server, "/")
    assert status == 200 and '<script src="/static/viewer.js">' in html and 'id="scrub"' in html
    status, js = _call(view_server, "/static/viewer.js")
    assert status == 200 and "window.viewer" in js
    for path in ("/static/nope.js", "/static/..%2Fserver.py", "/static/../server.py", "/elsewhere"):
        status, err = _call(view_server, path)
        assert status == 404 and "error" in err, path


def test_config_and_replay_list(view_server):
    status, cfg = _call(view_server, "/api/config")
    assert status == 200 and cfg["mode"] == "view" and cfg["play"] is None and cfg["open"] == ["0", "1"]
    status, listing = _call(view_server, "/api/replays")
    assert [(r["id"], r["name"], r["encounter"]) for r in listing] == [("0", "pvp-3.orlr", "pvp"),
                                                                      ("1", "template-1.orlr", "template")]
    assert listing[0]["ticks"] == annotated_replay("pvp", 3).ticks and listing[0]["meta"] == {"policy": "random"}


def test_a_replay_has_scenes_annotations_and_events(view_server):
    replay = annotated_replay("pvp", 3)
    status, data = _call(view_server, "/api/replays/0")
    assert status == 200
    assert len(data["scenes"]) == replay.ticks + 1
    for scene in data["scenes"]:
        validate_scene(scene)
    assert [s["tick"] for s in data["scenes"]] == list(range(replay.ticks + 1))
    spec = get_spec("pvp")
    assert data["heads"] == [{"name": h.name, "labels": list(h.labels)} for h in spec.action_heads]
    assert data["actions"] == replay.actions.tolist()
    assert data["values"] == pytest.approx(replay.values.tolist())
    assert len(data["probs"]) == spec.num_heads and len(data["probs"][2]) == replay.ticks
    assert data["probs"][2][5] == pytest.approx(replay.probs[2][5].tolist())
    assert set(data["reward_components"]) == {"damage", "win"} and len(data["rewards"]) == replay.ticks
    assert data["events"] == timeline(data["scenes"])
    assert any(e["kind"] == "hit" for e in data["events"])       # 40 ticks of random NH fighting land hits


def test_timeline_marks_hits_kills_deaths_and_prayer_switches():
    def scene(hp0, hp1, over0=None, splats=()):
        ents = [{"id": "a", "name": "me", "hp": hp0, "overhead": over0}, {"id": "b", "name": "foe", "hp": hp1,
                                                                           "overhead": None}]
        return {"entities": ents, "hitsplats": list(splats), "panels": [{"agent": "a"}]}

    scenes = [scene(10, 10), scene(10, 4, "magic", [{"on": "b", "damage": 6, "kind": "hit"},
                                                    {"on": "a", "damage": 0, "kind": "block"}]),
              scene(10, 0, "magic", [{"on": "b", "damage": 4, "kind": "hit"}]), scene(0, 0, None)]
    events = [(e["tick"], e["kind"], e["on"]) for e in timeline(scenes)]
    assert events == [(1, "hit", "b"), (1, "prayer", "a"), (2, "hit", "b"), (2, "kill", "b"), (3, "death", "a"),
                      (3, "prayer", "a")]


def test_view_errors_are_json_with_4xx(view_server):
    cases = [("/api/replays/9", None, None, 404, "no replay '9'"), ("/api/nope", None, None, 404, "no API endpoint"),
             ("/api/config", {}, "POST", 405, "POST is not allowed"), ("/api/replays", None, "PUT", 405, "use GET"),
             ("/api/play", {}, "POST", 400, "osrs-rl play ENCOUNTER"), ("/api/play/s0", None, None, 404, "no play")]
    for path, body, method, code, message in cases:
        status, err = _call(view_server, path, body, method)
        assert status == code and message in err["error"], (path, err)


# ---- play ------------------------------------------------------------------------------------------------
def test_play_session_round_trip(play_server):
    base, app = play_server
    status, cfg = _call(base, "/api/config")
    assert cfg["mode"] == "play" and cfg["play"]["encounter"] == "template" and cfg["play"]["tiers"] == []
    status, state = _call(base, "/api/play", {})
    sid = state["session"]
    assert status == 200 and state["tick"] == 0 and [h["name"] for h in state["heads"]] == ["attack", "prayer", "eat"]
    assert state["heads"][1]["legal"] == [True, True, False]
    validate_scene(state["scene"])
    status, click = _call(base, f"/api/play/{sid}/click", {"entity": "npc"})
    assert status == 200 and click["intents"] == {"attack": 1}
    status, state = _call(base, f"/api/play/{sid}/step", {"intents": {**click["intents"], "prayer": 1}})
    assert status == 200 and state["tick"] == 1
    player = state["scene"]["entities"][0]
    assert player["overhead"] == "melee" and player["attack_timer"] == 3
    assert _call(base, f"/api/play/{sid}")[1]["tick"] == 1
    status, saved = _call(base, f"/api/play/{sid}/save", {"name": "first-demo"})
    assert status == 200 and saved["ok"] and saved["path"].endswith("first-demo.orlr") and saved["ticks"] == 1
    replay = load_replay(saved["path"])
    assert replay.meta == {"source": "human"} and verify_replay(replay).ok
    listing = _call(base, "/api/replays")[1]
    assert listing[int(saved["replay"])]["name"] == "first-demo.orlr"     # saved demos can be watched
    assert len(_call(base, f"/api/replays/{saved['replay']}")[1]["scenes"]) == 2
    status, again = _call(base, f"/api/play/{sid}/save", {"name": "first-demo"})   # the same name: kept, a new one
    assert status == 200 and again["path"].endswith("first-demo-2.orlr") and load_replay(saved["path"]).ticks == 1


def test_play_errors_are_json_with_4xx(play_server):
    base, app = play_server
    sid = _call(base, "/api/play", {})[1]["session"]
    cases = [
        (f"/api/play/{sid}/step", {"intents": {"nope": 1}}, 400, "unknown action head 'nope'"),
        (f"/api/play/{sid}/step", {"intents": {"prayer": 2}}, 400, "prayer 'off' is not allowed now"),
        (f"/api/play/{sid}/step", {"intents": {"eat": 9}}, 400, "out of range"),
        (f"/api/play/{sid}/click", {"tile": [1]}, 400, "tile must be [x, y]"),
        (f"/api/play/{sid}/click", {"entity": 3}, 400, "entity must be str"),
        (f"/api/play/{sid}/click", {}, 400, "a click needs"),
        (f"/api/play/{sid}/save", {}, 400, "nothing to save"),
        (f"/api/play/{sid}/save", {"name": "../x"}, 400, "must be letters"),
        ("/api/play", {"seed": -3}, 400, "seed must be >= 0"),
        ("/api/play", {"seed": "x"}, 400, "seed must be int"),
        ("/api/play", {"opponent": "elite"}, 400, "no opponent to choose"),
        ("/api/play/s999/step", {}, 404, "no play session 's999'"),
        (f"/api/play/{sid}/jump", {}, 405, "POST is not allowed"),
    ]
    for path, body, code, message in cases:
        status, err = _call(base, path, body, "POST")
        assert status == code and message in err["error"], (path, body, err)
    for raw, code, message in [(b"{not json", 400, "not JSON"), (b"[1, 2]", 400, "must be a JSON object")]:
        status, err = _call(base, f"/api/play/{sid}/step", raw=raw)
        assert status == code and message in err["error"]
    conn = http.client.HTTPConnection(urlsplit(base).netloc, timeout=60)     # a body announced too large
    conn.request("POST", f"/api/play/{sid}/step", body=b"{}", headers={"Content-Length": str(MAX_BODY + 1)})
    res = conn.getresponse()
    assert res.status == 413 and "the limit is" in json.loads(res.read())["error"]
    conn.close()
    assert app.sessions[sid]["session"].tick == 0                 # nothing above changed the session
    for _ in range(10):
        assert _call(base, f"/api/play/{sid}/step", {})[0] == 200
    status, err = _call(base, f"/api/play/{sid}/step", {})
    assert status == 409 and "the episode ended at tick 10" in err["error"]


def test_pvp_sessions_choose_their_opponent(tmp_path):
    app = ViewerApp(play=PlayDefaults("pvp", {"max_ticks": 50}, seed=4, opponent="average"), save_dir=tmp_path)
    server = ViewerServer(app).start()
    try:
        cfg = _call(server.url, "/api/config")[1]["play"]
        assert cfg["opponent"] == "average" and "elite" in cfg["tiers"]
        state = _call(server.url, "/api/play", {})[1]
        assert state["meta"]["opponent"] == "average" and "scripted average" in state["scene"]["entities"][1]["name"]
        state = _call(server.url, "/api/play", {"opponent": "elite"})[1]
        assert "scripted elite" in state["scene"]["entities"][1]["name"]
        status, err = _call(server.url, "/api/play", {"opponent": "grandmaster"})
        assert status == 400 and "unknown scripted tier 'grandmaster'" in err["error"]
        status, click = _call(server.url, f"/api/play/{state['session']}/click", {"tile": [1, 7]})
        assert click["intents"] == {"move": 3}                      # away from the opponent, toward the west
    finally:
        server.close()


# ---- hardening (issue 15, item 11) -----------------------------------------------------------------------
def _raw(base: str, request: bytes, timeout: float = 30) -> bytes:
    """The whole reply to ``request`` sent as is on a fresh connection (until the server closes it)."""
    import socket

    host, port = urlsplit(base).netloc.split(":")
    with socket.create_connection((host, int(port)), timeout=timeout) as sock:
        sock.sendall(request)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def _status_and_error(reply: bytes) -> tuple[int, str]:
    head, _, body = reply.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)["error"]


def test_bad_length_and_deep_json_are_400(play_server):
    base, _ = play_server
    sid = _call(base, "/api/play", {})[1]["session"]
    host = urlsplit(base).netloc.encode()
    for length in (b"abc", b"-5", b"1e3"):
        reply = _raw(base, b"POST /api/play/" + sid.encode() + b"/step HTTP/1.1\r\nHost: " + host
                     + b"\r\nContent-Length: " + length + b"\r\n\r\n{}")
        status, err = _status_and_error(reply)
        assert status == 400 and "Content-Length must be a byte count" in err, (length, err)
    deep = b"[" * 100_000 + b"]" * 100_000           # deeper than Python's recursion limit
    status, err = _call(base, f"/api/play/{sid}/step", raw=deep)
    assert status == 400 and "nests too deep" in err["error"]


def test_foreign_host_and_origin_are_refused(view_server):
    port = urlsplit(view_server).port
    ok = [("127.0.0.1", None), (f"127.0.0.1:{port}", None), (f"localhost:{port}", f"http://localhost:{port}"),
          (f"127.0.0.1:{port}", f"http://127.0.0.1:{port}")]
    bad = [("evil.example", None), (f"evil.example:{port}", None), (f"127.0.0.1:{port + 1}", None),
           (f"127.0.0.1:{port}", "http://evil.example"), (f"127.0.0.1:{port}", f"http://evil.example:{port}"),
           (f"127.0.0.1:{port}", "null"), (None, None)]
    for host, origin in ok + bad:
        headers = ("" if host is None else f"Host: {host}\r\n") + ("" if origin is None else f"Origin: {origin}\r\n")
        reply = _raw(view_server, f"GET /api/replays HTTP/1.0\r\n{headers}\r\n".encode())
        status = int(reply.split()[1])
        assert status == (200 if (host, origin) in ok else 403), (host, origin, reply[:200])


def test_a_silent_connection_is_closed(tmp_path):
    server = ViewerServer(ViewerApp(), read_timeout=0.5).start()
    try:
        host = urlsplit(server.url).netloc.encode()
        # a request line without its end, and a request that promises a body and stops: both are dropped
        # instead of holding a thread (the client's own timeout of 30 s fails the test on a server that waits)
        for partial in (b"GET /api/config HTT", b"POST /api/play HTTP/1.1\r\nHost: " + host
                        + b"\r\nContent-Length: 10\r\n\r\n{"):
            assert _raw(server.url, partial) == b""
        assert _call(server.url, "/api/config")[0] == 200
    finally:
        server.close()


def test_clients_hanging_up_leave_no_traceback(view_server, capfd):
    import socket
    import struct
    import threading
    import time

    host, port = urlsplit(view_server).netloc.split(":")
    for _ in range(20):
        sock = socket.create_connection((host, int(port)), timeout=30)
        sock.sendall(f"GET /api/replays/0 HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))    # close with a reset
        sock.close()
    for _ in range(600):           # the handler threads finish on their own; wait for them (bounded)
        if not any("process_request" in t.name for t in threading.enumerate()):
            break
        time.sleep(0.05)
    assert _call(view_server, "/api/config")[0] == 200
    err = capfd.readouterr().err
    assert "Traceback" not in err and "BrokenPipe" not in err and "ConnectionReset" not in err, err[-2000:]


def test_play_sessions_are_evicted_least_recently_used_and_when_idle(tmp_path):
    now = [0.0]
    app = ViewerApp(play=PlayDefaults("template", {"max_ticks": 10}), save_dir=tmp_path, max_sessions=3,
                    session_idle_s=100.0, clock=lambda: now[0])
    sids = [app.new_session({})["session"] for _ in range(3)]
    app.session_state(sids[0])                         # s0 used: s1 is now the least recently used
    sids.append(app.new_session({})["session"])
    assert list(app.sessions) == [sids[2], sids[0], sids[3]]
    with pytest.raises(Exception, match="no play session 's1'"):
        app.session_state(sids[1])
    now[0] = 50.0
    app.session_state(sids[3])
    now[0] = 120.0                                     # s2 and s0 idle 120 s, s3 only 70 s
    assert app.session_state(sids[3])["session"] == sids[3]
    assert list(app.sessions) == [sids[3]]
    for _ in range(10):                                # many sessions never hold more than the cap
        app.new_session({})
    assert len(app.sessions) == 3
