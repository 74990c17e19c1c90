"""Snapshot blobs: one env's state record as bytes, behind a header that says what it is.

Layout: ``b"ORLS"``, format version (uint16), encounter version (uint16), a 16-byte digest of the
encounter name and state dtype, the record size (uint32), then the record's raw bytes. Restoring
checks every field first, so a blob from another encounter, version or layout is refused with a
message and the target state is left untouched.
"""

from __future__ import annotations

import hashlib
import struct

import numpy as np

MAGIC = b"ORLS"
FORMAT_VERSION = 1
_HEADER = struct.Struct("<4sHH16sI")


class SnapshotError(ValueError):
    """A blob that does not fit this env; the message says which check failed."""


def layout_digest(name: str, dtype: np.dtype) -> bytes:
    return hashlib.blake2b(f"{name}|{dtype.descr!r}".encode(), digest_size=16).digest()


def header(name: str, version: int, dtype: np.dtype) -> bytes:
    return _HEADER.pack(MAGIC, FORMAT_VERSION, version, layout_digest(name, dtype), dtype.itemsize)


def check_blob(blob: bytes, name: str, version: int, dtype: np.dtype) -> memoryview:
    """Validate ``blob`` for this encounter and return a view of its record bytes."""
    if not isinstance(blob, (bytes, bytearray, memoryview)):
        raise SnapshotError(f"a snapshot is bytes, got {type(blob).__name__}")
    blob = memoryview(blob)
    if len(blob) < _HEADER.size:
        raise SnapshotError(f"snapshot too short ({len(blob)} bytes): not an osrs-rl snapshot")
    magic, fmt, ver, digest, size = _HEADER.unpack(blob[: _HEADER.size])
    if magic != MAGIC:
        raise SnapshotError("not an osrs-rl snapshot (bad magic bytes)")
    if fmt != FORMAT_VERSION:
        raise SnapshotError(f"snapshot format {fmt} is not supported (this build reads {FORMAT_VERSION})")
    if digest != layout_digest(name, dtype):
        raise SnapshotError(f"snapshot is from another encounter or state layout, not {name!r}")
    if ver != version:
        raise SnapshotError(f"snapshot is from {name!r} version {ver}; this build is version {version}")
    body = blob[_HEADER.size:]
    if size != dtype.itemsize or len(body) != size:
        raise SnapshotError(f"snapshot record is {len(body)} bytes; {name!r} records are {dtype.itemsize}")
    return body
