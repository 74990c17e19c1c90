"""The local web server behind ``osrs-rl view`` and ``osrs-rl play``: the packaged page (``web/``) and a
small JSON API, on 127.0.0.1 only.

    GET  /                           the page (index.html); /static/NAME its scripts and styles
    GET  /api/config                 mode ("view" or "play"), the open replays, play defaults
    GET  /api/replays                every replay the server knows: id, name, encounter, ticks, outcome
    GET  /api/replays/ID             one replay: scenes, heads, actions, rewards, annotations, events (its
                                     entities labelled and its attack options' targets named: viewer_data)
    POST /api/play                   a new session {"encounter"?, "seed"?, "opponent"?} -> its state
    GET  /api/play/SID               the session's state: scene, heads with labels and legal options
    POST /api/play/SID/click         {"tile": [x, y]} or {"entity": ID} -> {"intents", "note"}
    POST /api/play/SID/step          {"intents": {head: option}} -> the state after one tick
    POST /api/play/SID/save          {"name"?} -> the demonstration's path and verify result

Errors are JSON ``{"error": message}`` with a 4xx code: 400 bad input (a Content-Length that is not a
count, a body that is not JSON or nests too deep), 403 a Host or Origin other than this server's own
(a web page that rebinds its DNS name to 127.0.0.1 still sends its own name: refusing it keeps other
sites out), 404 unknown path, replay or session, 405 wrong method, 409 a finished episode, 413 a body
too large.

A connection that sends nothing for ``READ_TIMEOUT_S`` is closed (a half-sent request would hold a
thread for ever), a client that hangs up mid-reply is not an error worth a traceback, and play
sessions are evicted least recently used first: at most ``MAX_SESSIONS``, none idle longer than
``SESSION_IDLE_S``.
"""

from __future__ import annotations

import itertools
import json
import re
import sys
import threading
import time
import traceback
from collections import OrderedDict
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from urllib.parse import urlsplit

from osrs_rl.replay.file import ReplayError, load_replay
from osrs_rl.replay.play import PlayError, PlaySession
from osrs_rl.replay.viewer_data import play_view, replay_payload, summary

HOST = "127.0.0.1"
MAX_BODY = 1 << 20
READ_TIMEOUT_S = 30.0       # seconds a connection may stay silent (before and inside a request)
MAX_SESSIONS = 16           # play sessions kept at once (each holds an env and its recording)
SESSION_IDLE_S = 3600.0     # a play session untouched this long is freed
_LOCAL_NAMES = ("127.0.0.1", "localhost")
_DISCONNECTS = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError)
STATIC_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                ".css": "text/css; charset=utf-8"}
_SAFE_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,100}$")


class ApiError(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


@dataclass
class PlayDefaults:
    """What ``osrs-rl play`` asked for; new sessions start from these."""

    encounter: str
    config: dict = field(default_factory=dict)
    seed: int = 0
    opponent: str | int | None = None
    checkpoint: str | None = None


class ViewerApp:
    """The server's state: replays by id (loaded up front, scenes built on first request) and play sessions."""

    def __init__(self, replays=(), play: PlayDefaults | None = None, save_dir="demonstrations",
                 max_sessions: int = MAX_SESSIONS, session_idle_s: float = SESSION_IDLE_S, clock=time.monotonic,
                 opened: int = 2):
        self.replays: dict[str, dict] = {}
        self.opened = opened            # how many of the replays the page opens at first (two: side by side)
        self.play = play
        self.save_dir = Path(save_dir)
        self.sessions: OrderedDict[str, dict] = OrderedDict()      # least recently used first
        self.max_sessions = max_sessions
        self.session_idle_s = session_idle_s
        self._clock = clock
        self._ids = itertools.count()
        self._lock = threading.Lock()
        self._policy = None
        for path in replays:
            self.add_replay(path)
        if play is not None and play.checkpoint is not None:
            from osrs_rl.agent.policy import load_policy

            self._policy = load_policy(play.checkpoint)      # once: every new session reuses it

    def add_replay(self, path, replay=None) -> str:
        replay = replay if replay is not None else load_replay(path)
        rid = str(len(self.replays))
        self.replays[rid] = {"path": Path(path), "replay": replay, "payload": None, "lock": threading.Lock()}
        return rid

    # ---- view ------------------------------------------------------------------------------------------
    def config(self) -> dict:
        play = None
        if self.play is not None:
            from osrs_rl.runtime.registry import get_spec

            hook = get_spec(self.play.encounter).opponents
            play = {"encounter": self.play.encounter, "seed": self.play.seed, "opponent": self.play.opponent,
                    "checkpoint": self.play.checkpoint, "tiers": list(hook.tier_names) if hook else [],
                    "save_dir": str(self.save_dir)}
        return {"mode": "play" if play else "view", "replays": self.replay_list(),
                "open": list(self.replays)[:self.opened], "play": play}

    def replay_list(self) -> list[dict]:
        return [{"id": rid, **summary(r["replay"], r["path"].name)} for rid, r in self.replays.items()]

    def replay(self, rid: str) -> dict:
        entry = self.replays.get(rid)
        if entry is None:
            raise ApiError(404, f"no replay {rid!r}; ids: {', '.join(self.replays) or 'none'}")
        with entry["lock"]:
            if entry["payload"] is None:
                entry["payload"] = {"id": rid, **replay_payload(entry["replay"], entry["path"].name)}
            return entry["payload"]

    # ---- play ------------------------------------------------------------------------------------------
    def new_session(self, body: dict) -> dict:
        if self.play is None:
            raise ApiError(400, "this server shows replays; start it with `osrs-rl play ENCOUNTER` to play")
        d = self.play
        encounter = _field(body, "encounter", str, d.encounter)
        seed = _field(body, "seed", int, d.seed)
        opponent = _field(body, "opponent", (str, int), d.opponent)
        if seed < 0:
            raise ApiError(400, f"seed must be >= 0, got {seed}")
        policy = self._policy if encounter == d.encounter and "opponent" not in body else None
        try:
            session = PlaySession(encounter, dict(d.config), seed, None if policy else opponent,
                                  d.checkpoint if policy else None, policy)
        except (PlayError, KeyError, ValueError) as e:
            raise ApiError(400, str(e).strip("'\"")) from None
        with self._lock:
            self._evict(room_for=1)
            sid = f"s{next(self._ids)}"
            self.sessions[sid] = {"session": session, "lock": threading.Lock(), "used": self._clock()}
        return {"session": sid, **play_view(session.state())}

    def _evict(self, room_for: int = 0) -> None:
        """Free sessions idle too long, then the least recently used until ``room_for`` more fit (lock held)."""
        now = self._clock()
        for sid in [s for s, e in self.sessions.items() if now - e["used"] > self.session_idle_s]:
            del self.sessions[sid]
        while self.sessions and len(self.sessions) + room_for > self.max_sessions:
            self.sessions.popitem(last=False)

    def _session(self, sid: str) -> dict:
        with self._lock:
            self._evict()
            entry = self.sessions.get(sid)
            if entry is None:
                raise ApiError(404, f"no play session {sid!r} (sessions idle for {self.session_idle_s:g} s, or "
                                    f"beyond the newest {self.max_sessions}, are freed)")
            entry["used"] = self._clock()
            self.sessions.move_to_end(sid)
        return entry

    def session_state(self, sid: str) -> dict:
        entry = self._session(sid)
        with entry["lock"]:
            return {"session": sid, **play_view(entry["session"].state())}

    def click(self, sid: str, body: dict) -> dict:
        entry = self._session(sid)
        with entry["lock"]:
            session = entry["session"]
            if "tile" in body:
                tile = body["tile"]
                if not (isinstance(tile, list) and len(tile) == 2 and all(_is_int(v) for v in tile)):
                    raise ApiError(400, f"tile must be [x, y] integers, got {tile!r}")
                return session.click_tile(*tile)
            if "entity" in body:
                return session.click_entity(_field(body, "entity", str, None))
            raise ApiError(400, "a click needs \"tile\": [x, y] or \"entity\": ID")

    def step(self, sid: str, body: dict) -> dict:
        entry = self._session(sid)
        intents = body.get("intents", {})
        with entry["lock"]:
            session = entry["session"]
            if session.done:
                raise ApiError(409, f"the episode ended at tick {session.tick}: save it or start a new session")
            return {"session": sid, **play_view(session.step(intents))}

    def save(self, sid: str, body: dict) -> dict:
        from osrs_rl.replay.verify import verify_replay

        entry = self._session(sid)
        name = _field(body, "name", str, None)
        with entry["lock"]:
            session = entry["session"]
            if name is None:
                name = f"{session.spec.name}-{time.strftime('%Y%m%d-%H%M%S')}-{sid}-t{session.tick}.orlr"
            if not _SAFE_NAME.match(name) or name.startswith("."):
                raise ApiError(400, f"name {name!r} must be letters, digits, '_', '-' or '.' (a file name)")
            if not name.endswith(".orlr"):
                name += ".orlr"
            replay = session.to_replay()
            path = session.save(self.save_dir / name)
        result = verify_replay(replay)
        with self._lock:
            rid = self.add_replay(path, replay)
        return {"path": str(path), "ok": result.ok, "verify": result.message(), "replay": rid,
                "ticks": replay.ticks}


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _field(body: dict, key: str, kind, default):
    if key not in body:
        return default
    value = body[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) or not isinstance(value, kinds):
        names = " or ".join(k.__name__ for k in kinds)
        raise ApiError(400, f"{key} must be {names}, got {value!r}")
    return value


# ---- HTTP ----------------------------------------------------------------------------------------------
def _static(name: str) -> bytes | None:
    web = resources.files("osrs_rl.replay") / "web"
    if not _SAFE_NAME.match(name) or name.startswith("."):
        return None
    f = web / name
    return f.read_bytes() if f.is_file() else None


def _route(app: ViewerApp, method: str, path: str, body: dict):
    parts = [p for p in path.split("/") if p]
    if parts[:1] != ["api"]:
        raise ApiError(404, f"no such page {path!r}")
    rest = parts[1:]
    routes_get = {("config",): lambda: app.config(), ("replays",): lambda: app.replay_list()}
    if method == "GET":
        if tuple(rest) in routes_get:
            return routes_get[tuple(rest)]()
        if len(rest) == 2 and rest[0] == "replays":
            return app.replay(rest[1])
        if len(rest) == 2 and rest[0] == "play":
            return app.session_state(rest[1])
    if method == "POST":
        if rest == ["play"]:
            return app.new_session(body)
        if len(rest) == 3 and rest[0] == "play":
            action = {"click": app.click, "step": app.step, "save": app.save}.get(rest[2])
            if action is not None:
                return action(rest[1], body)
    known = tuple(rest) in routes_get or (rest[:1] in (["replays"], ["play"]) and len(rest) <= 3)
    if known:
        raise ApiError(405, f"{method} is not allowed on {path}")
    raise ApiError(404, f"no API endpoint {path!r}")


def _host_allowed(host: str | None, port: int) -> bool:
    """``host`` (a Host header, or an Origin's netloc) names this server: 127.0.0.1 or localhost, with
    this server's port or none."""
    if not host:
        return False
    name, sep, p = host.rpartition(":") if not host.endswith("]") else (host, "", "")
    if not sep:
        name, p = host, ""
    return name.lower() in _LOCAL_NAMES and p in ("", str(port))


def _origin_allowed(origin: str | None, port: int) -> bool:
    if origin is None:
        return True
    parts = urlsplit(origin)
    return parts.scheme == "http" and not parts.path.strip("/") and _host_allowed(parts.netloc, port)


def handler_for(app: ViewerApp, quiet: bool = True, read_timeout: float = READ_TIMEOUT_S):  # noqa: C901 - one HTTP handler class's routes
    class Handler(BaseHTTPRequestHandler):
        server_version = "osrs-rl-viewer"
        timeout = read_timeout          # StreamRequestHandler sets it on the socket: reads time out

        def handle(self):
            try:
                super().handle()
            except _DISCONNECTS + (TimeoutError,):        # the client went away or stalled: nothing to tell it
                self.close_connection = True

        def log_message(self, format, *args):        # noqa: A002 (the base class's name)
            if not quiet:
                super().log_message(format, *args)

        def _send(self, status: int, data: bytes, content_type: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(data)

        def _json(self, status: int, obj) -> None:
            self._send(status, json.dumps(obj, allow_nan=False).encode(), "application/json")

        def _body(self) -> dict:
            text = (self.headers.get("Content-Length") or "0").strip()
            if not (text.isascii() and text.isdigit()):
                self.close_connection = True         # the body's end is unknown: the connection cannot go on
                raise ApiError(400, f"Content-Length must be a byte count, got {text[:40]!r}")
            length = int(text)
            if length > MAX_BODY:
                self.close_connection = True
                raise ApiError(413, f"request body of {length} bytes; the limit is {MAX_BODY}")
            raw = self.rfile.read(length) if length else b""
            if len(raw) < length:
                self.close_connection = True
                raise ApiError(400, f"the request body ended after {len(raw)} of {length} bytes")
            if not raw.strip():
                return {}
            try:
                body = json.loads(raw)
            except (json.JSONDecodeError, UnicodeDecodeError) as e:
                raise ApiError(400, f"the request body is not JSON: {e}") from None
            except RecursionError:
                raise ApiError(400, "the request body nests too deep to be a request") from None
            if not isinstance(body, dict):
                raise ApiError(400, f"the request body must be a JSON object, got {type(body).__name__}")
            return body

        def _handle(self, method: str) -> None:
            path = urlsplit(self.path).path
            try:
                port = self.server.server_address[1]
                if not _host_allowed(self.headers.get("Host"), port):
                    self.close_connection = True
                    raise ApiError(403, f"Host {self.headers.get('Host')!r} is not this server "
                                        f"(127.0.0.1:{port} or localhost:{port})")
                if not _origin_allowed(self.headers.get("Origin"), port):
                    self.close_connection = True
                    raise ApiError(403, f"requests from {self.headers.get('Origin')!r} are refused")
                if method == "GET" and not path.startswith("/api/"):
                    name = "index.html" if path in ("/", "/index.html") else path.removeprefix("/static/")
                    data = _static(name) if name == "index.html" or path.startswith("/static/") else None
                    if data is None:
                        raise ApiError(404, f"no such page {path!r}")
                    self._send(200, data, STATIC_TYPES.get(Path(name).suffix, "application/octet-stream"))
                    return
                body = self._body() if method == "POST" else {}
                self._json(200, _route(app, method, path, body))
            except ApiError as e:
                self._json(e.status, {"error": str(e)})
            except (PlayError, ReplayError) as e:
                self._json(HTTPStatus.BAD_REQUEST, {"error": str(e)})
            except _DISCONNECTS + (TimeoutError,):
                raise                  # handle() closes the connection quietly
            except Exception as e:     # a bug: say so to the page instead of dropping the connection
                traceback.print_exc()
                self._json(HTTPStatus.INTERNAL_SERVER_ERROR, {"error": f"{type(e).__name__}: {e}"})

        def do_GET(self):          # noqa: N802 (http.server's names)
            self._handle("GET")

        def do_POST(self):         # noqa: N802
            self._handle("POST")

        def do_PUT(self):          # noqa: N802
            self._json(405, {"error": "use GET or POST"})

        do_DELETE = do_PATCH = do_PUT

    return Handler


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], _DISCONNECTS + (TimeoutError,)):
            super().handle_error(request, client_address)


class ViewerServer:
    """``app`` served on 127.0.0.1:``port`` (0: a free port) by a ThreadingHTTPServer; a connection
    silent for ``read_timeout`` seconds is closed."""

    def __init__(self, app: ViewerApp, port: int = 0, quiet: bool = True, read_timeout: float = READ_TIMEOUT_S):
        self.app = app
        self.httpd = _Server((HOST, port), handler_for(app, quiet, read_timeout))
        self.httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.httpd.server_address[1]}/"

    def start(self) -> ViewerServer:
        """Serve in a background thread (tests, notebooks)."""
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="osrs-rl-viewer", daemon=True)
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        self.httpd.serve_forever()

    def close(self) -> None:
        if self._thread is not None:
            self.httpd.shutdown()
            self._thread.join()
        self.httpd.server_close()
