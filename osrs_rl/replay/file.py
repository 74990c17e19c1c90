"""Replay files: one episode, versioned, compressed, checksummed and written atomically.

File layout (all integers little-endian)::

    magic            8 bytes   b"OSRSRLRP"
    format_version   uint32    FORMAT_VERSION; always right after the magic, in every format
    payload_len      uint64    bytes of the compressed payload that follow
    sha256           32 bytes  of the compressed payload
    payload          zlib-compressed body

    body:
    header_len       uint32
    header           header_len bytes of UTF-8 JSON: scalars, config, meta, and one entry per array
                     (name, dtype string such as "<i8", shape, byte offset, byte length)
    arrays           the arrays' raw C-order bytes back to back, at the offsets the header gives

Reading never inflates more than the body declares: the header comes first (at most ``MAX_HEADER_BYTES``),
its arrays' sizes are checked against each other and against ``MAX_BODY_BYTES`` before the rest is
inflated, and inflation stops one byte past the declared end (a zlib bomb costs its declared size, not
its ratio of about 1000 to 1).

The JSON header means a tool learns the encounter, its spec version and config, and the code that wrote
the file (``osrs_rl_version``, ``osrs_rl_commit``, ``osrs_rl_dirty``: ``Replay.written_by``; files from
before 0.2.0 name only the version), without touching the arrays; the version sits at a fixed place, so
a newer format is named as such; the checksum turns a damaged or truncated file into a clear error
instead of a replay that silently fails to reproduce. Readers pass over header keys they do not know, so
adding one (as the commit was) keeps the format's version.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from osrs_rl.io.framing import cut_short
from osrs_rl.io.provenance import from_header

FORMAT_VERSION = 1
MAGIC = b"OSRSRLRP"
_HEADER = struct.Struct("<8sIQ32s")
_BODY_LEN = struct.Struct("<I")
_COMPRESSION_LEVEL = 6
MAX_HEADER_BYTES = 16 << 20     # a header holds settings and one short entry per array
MAX_BODY_BYTES = 1 << 30        # 1 GiB of arrays: a 100,000-tick episode with every annotation is far less


class ReplayError(ValueError):
    """A replay that cannot be written, read or re-simulated here; the message says why."""


@dataclass
class Replay:
    """One recorded episode. ``actions`` are what was sent to the env each tick (every agent);
    ``rewards`` what it returned. Annotations (``values``, ``probs``, ``reward_components``) are the
    policy's view of agent 0, present when the trainer or evaluator recorded them."""

    encounter: str
    spec_version: int
    config: dict                            # the encounter's user settings (no derived fields)
    initial_snapshot: bytes                 # VecEnv.snapshot of the env when the episode started
    actions: np.ndarray                     # int64 [ticks, agents, heads]
    rewards: np.ndarray                     # float32 [ticks, agents]
    terminated: bool                        # of the last tick
    truncated: bool
    final_state_hash: str                   # sha256 hex of the state record after the last tick
    state_hashes: np.ndarray | None = None  # uint64 [ticks]: a digest of the state record after each tick
    values: np.ndarray | None = None        # float32 [ticks]
    probs: list[np.ndarray] | None = None   # per head: float32 [ticks, head_size]
    reward_components: dict[str, np.ndarray] = field(default_factory=dict)   # name -> float32 [ticks]
    meta: dict = field(default_factory=dict)  # free JSON: policy checkpoint, opponent tier, ...
    # the code that wrote the file ({"version", "commit", "dirty"}, osrs_rl.io.provenance) as read from it; None
    # for a replay not read from a file, each value None where an older file does not say. Writing a replay
    # records the code writing it, never this
    written_by: dict | None = field(default=None, compare=False)

    @property
    def ticks(self) -> int:
        return len(self.actions)

    def annotations(self) -> list[str]:
        """The names of the annotations present."""
        out = [] if self.values is None else ["values"]
        out += [] if self.probs is None else ["probs"]
        out += [f"reward_components ({', '.join(self.reward_components)})"] if self.reward_components else []
        out += [] if self.state_hashes is None else ["state_hashes"]
        return out

    def outcome(self) -> str:
        """How the episode ended: ``won``, ``lost``, ``killed``, ``died``, ``timed out``, ... from its final
        metrics (``osrs_rl.replay.outcome``; re-simulated once, then kept)."""
        if "_outcome" not in self.__dict__:
            from osrs_rl.replay.outcome import replay_outcome

            self.__dict__["_outcome"] = replay_outcome(self)
        return self.__dict__["_outcome"]

    def validate(self) -> None:
        """Check the arrays' dtypes and shapes against each other; raise ReplayError naming the first bad one."""
        _expect(self.actions, "actions", np.int64, 3)
        t, a, _ = self.actions.shape
        _expect(self.rewards, "rewards", np.float32, 2, (t, a))
        if self.state_hashes is not None:
            _expect(self.state_hashes, "state_hashes", np.uint64, 1, (t,))
        if self.values is not None:
            _expect(self.values, "values", np.float32, 1, (t,))
        if self.probs is not None:
            if len(self.probs) != self.actions.shape[2]:
                raise ReplayError(f"probs has {len(self.probs)} heads; actions have {self.actions.shape[2]}")
            for h, p in enumerate(self.probs):
                _expect(p, f"probs[{h}]", np.float32, 2)
                if p.shape[0] != t:
                    raise ReplayError(f"probs[{h}] has shape {p.shape}; expected ({t}, head_size)")
        for name, arr in self.reward_components.items():
            if not isinstance(name, str):
                raise ReplayError(f"reward component names must be str, got {name!r}")
            _expect(arr, f"reward_components[{name!r}]", np.float32, 1, (t,))
        if not isinstance(self.initial_snapshot, bytes):
            raise ReplayError(f"initial_snapshot must be bytes, got {type(self.initial_snapshot).__name__}")


def _expect(arr, name: str, dtype, ndim: int, shape: tuple | None = None) -> None:
    if not isinstance(arr, np.ndarray) or arr.dtype != dtype or arr.ndim != ndim:
        got = f"{arr.dtype} {arr.shape}" if isinstance(arr, np.ndarray) else type(arr).__name__
        raise ReplayError(f"{name} must be a {np.dtype(dtype)} array with {ndim} dimensions, got {got}")
    if shape is not None and arr.shape != shape:
        raise ReplayError(f"{name} has shape {arr.shape}; expected {shape}")


# ---- writing ---------------------------------------------------------------------------------------
def _arrays(replay: Replay) -> dict[str, np.ndarray]:
    out = {"actions": replay.actions, "rewards": replay.rewards,
           "initial_snapshot": np.frombuffer(replay.initial_snapshot, dtype=np.uint8)}
    if replay.state_hashes is not None:
        out["state_hashes"] = replay.state_hashes
    if replay.values is not None:
        out["values"] = replay.values
    for h, p in enumerate(replay.probs or []):
        out[f"probs/{h}"] = p
    for name, arr in replay.reward_components.items():
        out[f"reward_components/{name}"] = arr
    return out


def _json_safe(value, where: str):
    """``value`` checked to survive JSON exactly (numpy scalars become Python numbers)."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        raise ReplayError(f"{where} is {value}; a replay's config and meta hold only finite numbers")
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, (list, tuple)):
        return [_json_safe(v, f"{where}[{k}]") for k, v in enumerate(value)]
    if isinstance(value, dict):
        bad = [k for k in value if not isinstance(k, str)]
        if bad:
            raise ReplayError(f"{where} has a key {bad[0]!r} of type {type(bad[0]).__name__}; keys must be str")
        return {k: _json_safe(v, f"{where}[{k!r}]") for k, v in value.items()}
    raise ReplayError(f"{where} is a {type(value).__name__}; a replay's config and meta hold only JSON values")


def encode(replay: Replay) -> bytes:
    """The whole file's bytes."""
    replay.validate()
    arrays = _arrays(replay)
    entries, offset = [], 0
    for name, arr in arrays.items():
        nbytes = arr.nbytes
        entries.append({"name": name, "dtype": arr.dtype.newbyteorder("<").str, "shape": list(arr.shape),
                        "offset": offset, "nbytes": nbytes})
        offset += nbytes
    from osrs_rl.io.provenance import header_fields

    header = {
        "encounter": replay.encounter, "spec_version": int(replay.spec_version),
        "config": _json_safe(replay.config, "config"), "terminated": bool(replay.terminated),
        "truncated": bool(replay.truncated), "final_state_hash": str(replay.final_state_hash),
        "num_heads_probs": None if replay.probs is None else len(replay.probs),
        "reward_components": list(replay.reward_components), "meta": _json_safe(replay.meta, "meta"),
        **header_fields(), "arrays": entries,
    }
    head = json.dumps(header, sort_keys=True).encode()
    body = b"".join([_BODY_LEN.pack(len(head)), head]
                    + [np.ascontiguousarray(a, dtype=a.dtype.newbyteorder("<")).tobytes() for a in arrays.values()])
    payload = zlib.compress(body, _COMPRESSION_LEVEL)
    return _HEADER.pack(MAGIC, FORMAT_VERSION, len(payload), hashlib.sha256(payload).digest()) + payload


def save_replay(path: str | os.PathLike, replay: Replay) -> Path:
    """Write ``replay`` to ``path`` atomically (the old file, if any, stays whole until the rename)."""
    from osrs_rl.io.atomic import atomic_write

    return atomic_write(path, encode(replay))


# ---- reading ---------------------------------------------------------------------------------------
def load_replay(path: str | os.PathLike, check: bool = True) -> Replay:
    """Read a replay file; ``check`` also requires that this build can re-simulate it (known encounter,
    same spec version and state layout). Every failure is a ReplayError that names the problem."""
    path = Path(path)
    if not path.is_file():
        raise ReplayError(f"no replay file at {path}")
    replay = decode(path.read_bytes(), str(path))
    if check:
        check_compatible(replay, str(path))
    return replay


def decode(data: bytes, where: str = "replay") -> Replay:
    short = cut_short(data, MAGIC, _HEADER.size, where, "replay")
    if short is not None:
        raise ReplayError(short)
    if data[:len(MAGIC)] != MAGIC:
        raise ReplayError(f"{where} is not an osrs-rl replay (bad magic bytes)")
    if len(data) < _HEADER.size:
        raise ReplayError(f"{where} is truncated: {len(data)} bytes, shorter than the {_HEADER.size}-byte header")
    _, version, payload_len, digest = _HEADER.unpack_from(data)
    if version > FORMAT_VERSION:
        raise ReplayError(f"{where} is replay format {version}, newer than this build reads ({FORMAT_VERSION}); "
                          "update osrs-rl")
    if version != FORMAT_VERSION:
        raise ReplayError(f"{where} is replay format {version}; this build reads only format {FORMAT_VERSION}")
    payload = data[_HEADER.size:]
    if len(payload) < payload_len:
        raise ReplayError(f"{where} is truncated: {len(payload)} of {payload_len} payload bytes")
    if len(payload) > payload_len:
        raise ReplayError(f"{where} is corrupt: {len(payload) - payload_len} bytes after the payload")
    if hashlib.sha256(payload).digest() != digest:
        raise ReplayError(f"{where} is corrupt: checksum mismatch (the file was damaged after it was written)")
    try:
        header, blob = _inflate(payload)
        arrays = _read_arrays(blob, header["arrays"])
        probs = None if header["num_heads_probs"] is None else \
            [arrays[f"probs/{h}"] for h in range(header["num_heads_probs"])]
        replay = Replay(
            encounter=header["encounter"], spec_version=header["spec_version"], config=header["config"],
            initial_snapshot=arrays["initial_snapshot"].tobytes(), actions=arrays["actions"],
            rewards=arrays["rewards"], terminated=header["terminated"], truncated=header["truncated"],
            final_state_hash=header["final_state_hash"], state_hashes=arrays.get("state_hashes"),
            values=arrays.get("values"), probs=probs,
            reward_components={n: arrays[f"reward_components/{n}"] for n in header["reward_components"]},
            meta=header["meta"], written_by=from_header(header))
    except _TooLarge as e:
        raise ReplayError(f"{where} is too large to read: {e}") from None
    except (zlib.error, struct.error, ValueError, KeyError, TypeError, RecursionError) as e:
        # the checksum matched, so the writer itself produced this: say so rather than "corrupt"
        raise ReplayError(f"{where} is malformed (checksum fine, contents unreadable): {e}") from None
    replay.validate()
    return replay


class _TooLarge(Exception):
    pass


def _inflate(payload: bytes) -> tuple[dict, bytes]:
    """(header, array bytes) of a compressed body, inflating no more than the header declares."""
    z = zlib.decompressobj()
    start = z.decompress(payload, _BODY_LEN.size)
    (head_len,) = _BODY_LEN.unpack_from(start)
    if head_len > MAX_HEADER_BYTES:
        raise _TooLarge(f"its header declares {head_len} bytes; the limit is {MAX_HEADER_BYTES}")
    head = z.decompress(z.unconsumed_tail, head_len)
    if len(head) < head_len:
        raise ValueError(f"the body ends inside its {head_len}-byte header")
    header = json.loads(head)
    declared = _declared_size(header["arrays"])
    if declared > MAX_BODY_BYTES:
        raise _TooLarge(f"its arrays declare {declared} bytes; the limit is {MAX_BODY_BYTES}")
    blob = z.decompress(z.unconsumed_tail, declared + 1)
    if len(blob) > declared or z.unconsumed_tail or not z.eof:
        raise ValueError(f"the body holds more than the {declared} array bytes its header declares")
    return header, blob


def _declared_size(entries: list[dict]) -> int:
    """The bytes the header's arrays take, after checking that each entry's size matches its dtype and
    shape and that they lie back to back (so nothing is read twice or left out)."""
    end = 0
    for e in entries:
        dtype, shape, nbytes = np.dtype(e["dtype"]), tuple(e["shape"]), e["nbytes"]
        if not all(isinstance(n, int) and n >= 0 for n in (*shape, nbytes, e["offset"])):
            raise ValueError(f"array {e['name']!r} has a bad shape, offset or size")
        if dtype.hasobject or nbytes != dtype.itemsize * math.prod(shape) or e["offset"] != end:
            raise ValueError(f"array {e['name']!r} ({dtype} {shape}) does not fit its {nbytes} bytes at "
                             f"{e['offset']}")
        end += nbytes
    return end


def _read_arrays(blob: bytes, entries: list[dict]) -> dict[str, np.ndarray]:
    out = {}
    for e in entries:
        dtype, shape = np.dtype(e["dtype"]), tuple(e["shape"])
        start, nbytes = e["offset"], e["nbytes"]
        if nbytes != dtype.itemsize * math.prod(shape) or start + nbytes > len(blob):
            raise ValueError(f"array {e['name']!r} ({dtype} {shape}) does not fit its {nbytes} bytes at {start}")
        arr = np.frombuffer(blob, dtype=dtype, count=math.prod(shape), offset=start).reshape(shape)
        out[e["name"]] = arr.astype(dtype.newbyteorder("="), copy=True)
    return out


def check_compatible(replay: Replay, where: str = "replay") -> None:
    """Raise ReplayError unless this build knows the replay's encounter at the same spec version and
    state layout (what re-simulating it needs)."""
    from osrs_rl.runtime import snapshot as snap
    from osrs_rl.runtime.registry import get_spec, names

    if replay.encounter not in names():
        raise ReplayError(f"{where} is from unknown encounter {replay.encounter!r}; known: {', '.join(names())}")
    spec = get_spec(replay.encounter)
    if replay.spec_version != spec.version:
        raise ReplayError(f"{where} is from {replay.encounter!r} spec version {replay.spec_version}; this build is "
                          f"version {spec.version} (the state layout or rules changed), so it cannot be re-simulated")
    try:
        snap.check_blob(replay.initial_snapshot, spec.name, spec.version, spec.state_dtype)
    except snap.SnapshotError as e:
        raise ReplayError(f"{where}: its initial snapshot does not fit this build: {e}") from None
    _, agents, heads = replay.actions.shape
    if (agents, heads) != (spec.num_agents, spec.num_heads):
        raise ReplayError(f"{where} has actions for {agents} agent(s) x {heads} head(s); {spec.name!r} has "
                          f"{spec.num_agents} x {spec.num_heads}")
