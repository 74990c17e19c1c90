"""Training checkpoints: written atomically, checksummed, and checked against the run that loads them.

File layout (all integers little-endian)::

    magic            8 bytes   b"OSRSRLCK"
    format_version   uint32    FORMAT_VERSION; always right after the magic, in every format
    meta_len         uint64
    payload_len      uint64
    sha256           32 bytes  of meta + payload
    meta             meta_len bytes     UTF-8 JSON: what the checkpoint fits (see ``save_checkpoint``)
    payload          payload_len bytes  ``torch.save`` of the payload dict

Why this container around ``torch.save``: the meta is plain JSON, so a run (or a tool) learns which
encounter, spec version and model shape a file fits, and which code wrote it (osrs-rl version, git
commit, dirty tree), without unpickling anything; the version sits at a fixed place, so a newer format
is named as such rather than failing somewhere in its body; and the checksum turns a truncated or
damaged file into a clear error instead of a corrupt model.

The payload is loaded with ``torch.load(weights_only=True)``, which rebuilds only tensors and plain
Python values and never runs code a file brings along. ``save_checkpoint`` therefore refuses, before
it writes anything, a payload holding anything else (numpy arrays, paths, dataclasses), naming the key;
the RNG helpers below store generator states in those plain types.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import random
import struct
from collections import OrderedDict
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import torch

from osrs_rl import __version__
from osrs_rl.io.atomic import atomic_write
from osrs_rl.io.framing import cut_short
from osrs_rl.io.provenance import header_fields

FORMAT_VERSION = 1
MAGIC = b"OSRSRLCK"
_HEADER = struct.Struct("<8sIQQ32s")
_LEAF_TYPES = (str, bytes, int, float, bool, type(None), torch.Size, torch.dtype, torch.device)
_KEY_TYPES = (str, int, float, bool, type(None))


class CheckpointError(ValueError):
    """A checkpoint that cannot be written or loaded, or that does not fit this run."""


# ---- input checks -----------------------------------------------------------------------------------
def _check_payload(value, where: str) -> None:
    if isinstance(value, torch.Tensor) or type(value) in _LEAF_TYPES:
        return
    if type(value) in (dict, OrderedDict):
        for k, v in value.items():
            if type(k) not in _KEY_TYPES:
                raise CheckpointError(f"{where} has a key {k!r} of type {type(k).__name__}; keys must be str or int")
            _check_payload(v, f"{where}[{k!r}]")
        return
    if type(value) in (list, tuple):
        for i, v in enumerate(value):
            _check_payload(v, f"{where}[{i}]")
        return
    hint = " (convert it with .tolist() or torch.from_numpy)" if type(value).__module__ == "numpy" else ""
    raise CheckpointError(
        f"{where} is a {type(value).__module__}.{type(value).__qualname__}{hint}; a checkpoint holds only tensors "
        "and plain values (dict, list, tuple, str, bytes, int, float, bool, None) so it loads with weights_only=True"
    )


def _meta_json(value, where: str):
    """``value`` as the meta JSON stores it: tuples and numpy arrays become lists, numpy scalars
    Python numbers; anything else that is not a finite JSON value is refused, naming ``where``."""
    if isinstance(value, np.ndarray | np.generic):
        value = value.tolist()
    if type(value) is float and not np.isfinite(value):
        raise CheckpointError(f"{where} is {value}; checkpoint meta holds only finite numbers")
    if type(value) in (str, int, float, bool, type(None)):
        return value
    if type(value) is dict:
        bad = [k for k in value if type(k) is not str]
        if bad:
            raise CheckpointError(f"{where} has a key {bad[0]!r} of type {type(bad[0]).__name__}; keys must be str")
        return {k: _meta_json(v, f"{where}[{k!r}]") for k, v in value.items()}
    if type(value) in (list, tuple):
        return [_meta_json(v, f"{where}[{i}]") for i, v in enumerate(value)]
    raise CheckpointError(
        f"{where} is a {type(value).__qualname__}; checkpoint meta holds only JSON values "
        "(dict with str keys, list, tuple, str, int, float, bool, None; numpy values are converted)"
    )


# ---- save / load ------------------------------------------------------------------------------------
def save_checkpoint(path: str | os.PathLike, payload: dict, meta: dict) -> Path:
    """Write ``payload`` and ``meta`` to ``path`` atomically (see ``atomic_write``).

    ``payload``: model and optimizer ``state_dict``s, schedule state, step counters, RNG states
    (``capture_rng_state``) and the trainer config as a plain dict; only tensors and plain values.
    ``meta``: JSON values naming what the payload fits, compared by ``load_checkpoint(expect=...)``;
    by convention ``encounter``, ``encounter_version``, ``obs_size``, ``head_sizes``, ``model_kind``,
    ``model_shape``. ``format_version`` and the code that wrote the file are added here: ``osrs_rl_version``,
    ``osrs_rl_commit`` and ``osrs_rl_dirty`` (``osrs_rl.io.provenance``; checkpoints from before 0.2.0 lack the
    last two and load all the same).
    """
    if not isinstance(payload, dict):
        raise CheckpointError(f"payload must be a dict, got {type(payload).__name__}")
    if not isinstance(meta, dict):
        raise CheckpointError(f"meta must be a dict, got {type(meta).__name__}")
    _check_payload(payload, "payload")
    meta = {**_meta_json(meta, "meta"), "format_version": FORMAT_VERSION, **header_fields()}
    meta_bytes = json.dumps(meta, sort_keys=True).encode()
    buf = io.BytesIO()
    torch.save(payload, buf)
    payload_bytes = buf.getvalue()
    sha = hashlib.sha256(meta_bytes)
    sha.update(payload_bytes)
    header = _HEADER.pack(MAGIC, FORMAT_VERSION, len(meta_bytes), len(payload_bytes), sha.digest())
    return atomic_write(path, [header, meta_bytes, payload_bytes])


def _read_verified(path: str | os.PathLike) -> tuple[dict, memoryview]:
    """(meta, payload bytes) of a checkpoint whose framing and checksum are sound."""
    path = Path(path)
    if not path.exists():
        raise CheckpointError(f"no checkpoint at {path}")
    if not path.is_file():
        raise CheckpointError(f"{path} is not a file")
    data = path.read_bytes()
    short = cut_short(data, MAGIC, _HEADER.size, str(path), "checkpoint")
    if short is not None:
        raise CheckpointError(short)
    if data[: len(MAGIC)] != MAGIC:
        raise CheckpointError(
            f"{path} is not an osrs-rl checkpoint: it starts with {data[:len(MAGIC)]!r}, not {MAGIC!r}"
        )
    if len(data) < _HEADER.size:
        raise CheckpointError(f"{path} is truncated: {len(data)} bytes, shorter than the {_HEADER.size}-byte header")
    _, version, meta_len, payload_len, digest = _HEADER.unpack_from(data)
    if version > FORMAT_VERSION:
        raise CheckpointError(
            f"{path} has checkpoint format {version}, newer than the formats this osrs-rl ({__version__}) reads "
            f"(up to {FORMAT_VERSION}); load it with a newer osrs-rl"
        )
    if version < 1:
        raise CheckpointError(f"{path} has an invalid checkpoint format version {version}")
    size = _HEADER.size + meta_len + payload_len
    if len(data) < size:
        raise CheckpointError(f"{path} is truncated: its header promises {size} bytes, the file has {len(data)}")
    if len(data) > size:
        raise CheckpointError(f"{path} is corrupt: {len(data) - size} bytes follow the {size} its header promises")
    body = memoryview(data)[_HEADER.size :]
    if hashlib.sha256(body).digest() != digest:
        raise CheckpointError(f"{path} is corrupt: its sha256 checksum does not match its contents")
    try:
        meta = json.loads(bytes(body[:meta_len]))
    except ValueError as e:
        raise CheckpointError(f"{path} has unreadable meta JSON: {e}") from e
    return meta, body[meta_len:]


def check_meta(meta: dict, expect: dict, source: str = "checkpoint") -> None:
    """Raise ``CheckpointError`` naming every key of ``expect`` whose value ``meta`` does not share."""
    if not isinstance(expect, dict):
        raise CheckpointError(f"expect must be a dict, got {type(expect).__name__}")
    problems = []
    for key, want in _meta_json(expect, "expect").items():
        if key not in meta:
            problems.append(f"{source} records no {key}, this run is {want!r}")
        elif meta[key] != want:
            problems.append(f"{source} is for {key} {meta[key]!r}, this run is {want!r}")
    if problems:
        raise CheckpointError("; ".join(problems))


def load_meta(path: str | os.PathLike) -> dict:
    """The meta of the checkpoint at ``path``, after checking its framing and checksum; the payload
    is not unpickled."""
    return _read_verified(path)[0]


def load_checkpoint(
    path: str | os.PathLike, expect: dict | None = None, map_location="cpu"
) -> tuple[dict, dict]:
    """(payload, meta) of the checkpoint at ``path``.

    Raises ``CheckpointError`` when the file is missing, is not a checkpoint, is truncated or
    corrupt, has a newer format, or when a key of ``expect`` differs from the meta (all differing
    keys are named). ``map_location`` goes to ``torch.load``.
    """
    meta, payload_bytes = _read_verified(path)
    if expect:
        try:
            check_meta(meta, expect)
        except CheckpointError as e:
            raise CheckpointError(f"{path} does not fit this run: {e}") from None
    try:
        payload = torch.load(io.BytesIO(payload_bytes), map_location=map_location, weights_only=True)
    except Exception as e:
        raise CheckpointError(f"{path}: its payload does not load with weights_only=True: {e}") from e
    return payload, meta


def require_entries(payload: dict, keys: Iterable[str], source: str) -> None:
    """Raise ``CheckpointError`` naming the ``keys`` that ``payload`` lacks (``source``: the file)."""
    if not isinstance(payload, dict):
        raise CheckpointError(f"{source}: its payload is a {type(payload).__name__}, not a dict")
    missing = [k for k in keys if k not in payload]
    if missing:
        raise CheckpointError(
            f"{source} has no {', '.join(repr(k) for k in missing)} entr{'y' if len(missing) == 1 else 'ies'} "
            f"(it has {', '.join(repr(k) for k in payload) or 'nothing'}); it was not written by osrs-rl train"
        )


def non_finite_tensors(state) -> list[str]:
    """Names (dotted paths) of the floating-point tensors in ``state`` (a tensor, or dicts and lists of
    them) holding a NaN or an infinity."""
    bad: list[str] = []

    def walk(value, where):
        if isinstance(value, torch.Tensor):
            if value.is_floating_point() or value.is_complex():
                if not bool(torch.isfinite(value).all()):
                    bad.append(where)
        elif isinstance(value, dict):
            for k, v in value.items():
                walk(v, f"{where}.{k}" if where else str(k))
        elif isinstance(value, list | tuple):
            for i, v in enumerate(value):
                walk(v, f"{where}[{i}]")
    walk(state, "")
    return bad


def load_state_checked(module: torch.nn.Module, state, source: str) -> None:
    """Load ``state`` into ``module`` after checking that it fits: the same parameter and buffer names,
    each with the module's shape, and only finite values. Raises ``CheckpointError`` naming each
    parameter that is missing, unexpected, of another shape (both shapes given) or not finite."""
    if not isinstance(state, dict):
        raise CheckpointError(f"{source}: its model weights are a {type(state).__name__}, not a state dict")
    want = module.state_dict()
    problems = [f"{k} is missing" for k in want if k not in state]
    problems += [f"{k} is not in this model" for k in state if k not in want]
    for k, v in state.items():
        if k in want and not isinstance(v, torch.Tensor):
            problems.append(f"{k} is a {type(v).__name__}, not a tensor")
        elif k in want and tuple(v.shape) != tuple(want[k].shape):
            problems.append(f"{k} has shape {tuple(v.shape)}, the model's is {tuple(want[k].shape)}")
    if problems:
        raise CheckpointError(f"{source}: its weights do not fit the model: " + "; ".join(problems))
    bad = non_finite_tensors(state)
    if bad:
        raise CheckpointError(f"{source}: its weights hold NaN or infinite values (in {', '.join(bad)}); "
                              "the run that wrote it had diverged: use an earlier checkpoint")
    module.load_state_dict(state)


# ---- RNG states -------------------------------------------------------------------------------------
def _plain(value):
    """A numpy bit-generator state in types ``weights_only`` loads: arrays become tagged lists."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, np.ndarray):
        return {"__ndarray__": value.tolist(), "dtype": value.dtype.str}
    if isinstance(value, np.generic):
        return value.item()
    return value


def _unplain(value):
    if isinstance(value, dict):
        if "__ndarray__" in value:
            return np.array(value["__ndarray__"], dtype=np.dtype(value["dtype"]))
        return {k: _unplain(v) for k, v in value.items()}
    return value


def capture_rng_state(np_rng: np.random.Generator | None = None) -> dict:
    """The states of torch's CPU generator (and the CUDA ones when CUDA is in use), of Python's
    ``random`` and of ``np_rng`` when given, in types a checkpoint holds."""
    state = {"torch": torch.get_rng_state(), "python": random.getstate()}
    if torch.cuda.is_available() and torch.cuda.is_initialized():
        state["torch_cuda"] = list(torch.cuda.get_rng_state_all())
    if np_rng is not None:
        state["numpy"] = _plain(np_rng.bit_generator.state)
    return state


def restore_rng_state(state: dict, np_rng: np.random.Generator | None = None) -> None:
    """Put back what ``capture_rng_state`` took. ``np_rng`` receives the numpy state; the CUDA
    states are restored when this process has as many CUDA devices as the capturing one had."""
    for key in ("torch", "python"):
        if key not in state:
            raise CheckpointError(f"RNG state has no {key!r} entry (has {sorted(state)})")
    torch.set_rng_state(state["torch"].to("cpu", torch.uint8))
    version, internal, gauss_next = state["python"]
    random.setstate((version, tuple(internal), gauss_next))
    cuda = state.get("torch_cuda")
    if cuda and torch.cuda.is_available() and torch.cuda.device_count() == len(cuda):
        torch.cuda.set_rng_state_all([s.to("cpu", torch.uint8) for s in cuda])
    if np_rng is not None:
        if "numpy" not in state:
            raise CheckpointError("RNG state has no 'numpy' entry, yet a numpy Generator was given to restore")
        saved = state["numpy"].get("bit_generator")
        have = type(np_rng.bit_generator).__name__
        if saved != have:
            raise CheckpointError(f"RNG state is for a numpy {saved} bit generator, the Generator given uses {have}")
        np_rng.bit_generator.state = _unplain(state["numpy"])
