"""Snapshot blobs: one env's state record as bytes, behind a header that says what it is.

Layout (format 2, little-endian): ``b"ORLS"``, format version (uint16), encounter version (uint16),
a 16-byte digest of the encounter name and state dtype, the record size (uint32), a 16-byte
blake2b checksum of everything after the header, then one byte that is 1 when the env was about to
autoreset (its episode had just ended), then the record's raw bytes. A batch blob (``b"ORLB"``) has
the same header plus a record count (uint32), one such byte per env, then the records back to back.

Restoring checks the header and the checksum first, so a blob from another encounter, version or
layout, or one whose body changed by a byte, is refused with a message and the target state is
left untouched; ``VecEnv`` then checks the declared bounds of the records' index-like fields
(``osrs_rl.runtime.bounds``) before writing anything. Format 1 (no checksum) is refused: nothing in
the repository stored format-1 blobs, and a replay that embeds one is refused by
``osrs_rl.replay.file.check_compatible`` with this module's message.
"""

from __future__ import annotations

import functools
import hashlib
import struct

import numpy as np

MAGIC = b"ORLS"
BATCH_MAGIC = b"ORLB"
FORMAT_VERSION = 2            # 2: a checksum of the body in the header
_PREFIX = struct.Struct("<4sHH")          # magic, format, encounter version: the same in every format
_REST = struct.Struct("<16sI16s")         # layout digest, record size, body checksum
_COUNT = struct.Struct("<I")
_HEAD = _PREFIX.size + _REST.size


class SnapshotError(ValueError):
    """A blob that does not fit this env; the message says which check failed."""


@functools.lru_cache(maxsize=64)
def layout_digest(name: str, dtype: np.dtype) -> bytes:
    # cached: repr of a large nested dtype costs ~0.1 ms, and snapshots are taken per episode
    return hashlib.blake2b(f"{name}|{dtype.descr!r}".encode(), digest_size=16).digest()


def body_checksum(flags: bytes, records: bytes) -> bytes:
    """The 16-byte blake2b checksum of a blob's body (its autoreset flags, then its records)."""
    h = hashlib.blake2b(digest_size=16)
    h.update(flags)
    h.update(records)
    return h.digest()


def pack(name: str, version: int, dtype: np.dtype, flags: bytes, records: bytes, batch: bool = False) -> bytes:
    """A whole blob: the header (with the body's checksum), then ``flags`` (one byte per record)
    and ``records`` (their raw bytes). A batch blob when ``batch``, else one record."""
    count = len(flags)
    magic = BATCH_MAGIC if batch else MAGIC
    head = _PREFIX.pack(magic, FORMAT_VERSION, version) + _REST.pack(
        layout_digest(name, dtype), dtype.itemsize, body_checksum(flags, records))
    return head + (_COUNT.pack(count) if batch else b"") + flags + records


def check_blob(blob: bytes, name: str, version: int, dtype: np.dtype, batch: int | None = None):
    """Validate ``blob`` for this encounter (one record, or ``batch`` records); return the
    pending-autoreset flags and a view of the record bytes."""
    if not isinstance(blob, (bytes, bytearray, memoryview)):
        raise SnapshotError(f"a snapshot is bytes, got {type(blob).__name__}")
    blob = memoryview(blob).cast("B")
    if len(blob) < _PREFIX.size:
        raise SnapshotError(f"snapshot too short ({len(blob)} bytes): not an osrs-rl snapshot")
    magic, fmt, ver = _PREFIX.unpack(blob[: _PREFIX.size])
    if magic not in (MAGIC, BATCH_MAGIC):
        raise SnapshotError("not an osrs-rl snapshot (bad magic bytes)")
    if (magic == BATCH_MAGIC) != (batch is not None):
        kind = "a batch snapshot" if magic == BATCH_MAGIC else "a single-env snapshot"
        raise SnapshotError(f"this is {kind}; use {'restore_batch' if magic == BATCH_MAGIC else 'restore'}")
    if fmt != FORMAT_VERSION:
        hint = " (format 1 carried no checksum; take the snapshot again)" if fmt == 1 else ""
        raise SnapshotError(f"snapshot format {fmt} is not supported (this build reads {FORMAT_VERSION}){hint}")
    head = _HEAD + (0 if batch is None else _COUNT.size)
    if len(blob) < head:
        raise SnapshotError(f"snapshot too short ({len(blob)} bytes) for its {head}-byte header")
    digest, size, checksum = _REST.unpack(blob[_PREFIX.size: _HEAD])
    if digest != layout_digest(name, dtype):
        raise SnapshotError(f"snapshot is from another encounter or state layout, not {name!r}")
    if ver != version:
        raise SnapshotError(f"snapshot is from {name!r} version {ver}; this build is version {version}")
    count = 1
    if batch is not None:
        (count,) = _COUNT.unpack(blob[_HEAD: head])
        if count != batch:
            raise SnapshotError(f"batch snapshot holds {count} envs; {batch} indices given")
    flags, body = blob[head: head + count], blob[head + count:]
    if size != dtype.itemsize or len(body) != size * count or len(flags) != count:
        raise SnapshotError(f"snapshot records are {len(body)} bytes; expected {count} x {dtype.itemsize}")
    if body_checksum(flags, body) != checksum:
        raise SnapshotError("snapshot body is corrupted (checksum mismatch)")
    flags = np.frombuffer(flags, dtype=np.uint8)
    if flags.max(initial=0) > 1:
        raise SnapshotError(f"snapshot autoreset flag is {int(flags.max())}; expected 0 or 1")
    return flags.astype(np.bool_), body
