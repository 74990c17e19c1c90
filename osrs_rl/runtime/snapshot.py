"""Snapshot blobs: one env's state record as bytes, behind a header that says what it is.

Layout: ``b"ORLS"``, format version (uint16), encounter version (uint16), a 16-byte digest of the
encounter name and state dtype, the record size (uint32), one byte that is 1 when the env was about
to autoreset (its episode had just ended), then the record's raw bytes. A batch blob (``b"ORLB"``)
has the same header plus a record count (uint32), one such byte per env, then the records back to
back.
Restoring checks every field first, so a blob from another encounter, version or layout is
refused with a message and the target state is left untouched.
"""

from __future__ import annotations

import functools
import hashlib
import struct

import numpy as np

MAGIC = b"ORLS"
BATCH_MAGIC = b"ORLB"
FORMAT_VERSION = 1
_HEADER = struct.Struct("<4sHH16sI")


class SnapshotError(ValueError):
    """A blob that does not fit this env; the message says which check failed."""


@functools.lru_cache(maxsize=64)
def layout_digest(name: str, dtype: np.dtype) -> bytes:
    # cached: repr of a large nested dtype costs ~0.1 ms, and snapshots are taken per episode
    return hashlib.blake2b(f"{name}|{dtype.descr!r}".encode(), digest_size=16).digest()


_COUNT = struct.Struct("<I")


def header(name: str, version: int, dtype: np.dtype, batch: int | None = None) -> bytes:
    """The header of a one-record blob, or of a batch of ``batch`` records."""
    magic = MAGIC if batch is None else BATCH_MAGIC
    head = _HEADER.pack(magic, FORMAT_VERSION, version, layout_digest(name, dtype), dtype.itemsize)
    return head if batch is None else head + _COUNT.pack(batch)


def check_blob(blob: bytes, name: str, version: int, dtype: np.dtype, batch: int | None = None):
    """Validate ``blob`` for this encounter (one record, or ``batch`` records); return the
    pending-autoreset flags and a view of the record bytes."""
    if not isinstance(blob, (bytes, bytearray, memoryview)):
        raise SnapshotError(f"a snapshot is bytes, got {type(blob).__name__}")
    blob = memoryview(blob)
    head = _HEADER.size + (0 if batch is None else _COUNT.size)
    if len(blob) < head:
        raise SnapshotError(f"snapshot too short ({len(blob)} bytes): not an osrs-rl snapshot")
    magic, fmt, ver, digest, size = _HEADER.unpack(blob[: _HEADER.size])
    if magic not in (MAGIC, BATCH_MAGIC):
        raise SnapshotError("not an osrs-rl snapshot (bad magic bytes)")
    if (magic == BATCH_MAGIC) != (batch is not None):
        kind = "a batch snapshot" if magic == BATCH_MAGIC else "a single-env snapshot"
        raise SnapshotError(f"this is {kind}; use {'restore_batch' if magic == BATCH_MAGIC else 'restore'}")
    if fmt != FORMAT_VERSION:
        raise SnapshotError(f"snapshot format {fmt} is not supported (this build reads {FORMAT_VERSION})")
    if digest != layout_digest(name, dtype):
        raise SnapshotError(f"snapshot is from another encounter or state layout, not {name!r}")
    if ver != version:
        raise SnapshotError(f"snapshot is from {name!r} version {ver}; this build is version {version}")
    count = 1
    if batch is not None:
        (count,) = _COUNT.unpack(blob[_HEADER.size: head])
        if count != batch:
            raise SnapshotError(f"batch snapshot holds {count} envs; {batch} indices given")
    flags, body = blob[head: head + count], blob[head + count:]
    if size != dtype.itemsize or len(body) != size * count or len(flags) != count:
        raise SnapshotError(f"snapshot records are {len(body)} bytes; expected {count} x {dtype.itemsize}")
    return np.frombuffer(flags, dtype=np.uint8).astype(np.bool_), body
