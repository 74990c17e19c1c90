"""A TensorBoard event-file writer and reader with no TensorBoard dependency.

File format (what TensorBoard reads from ``events.out.tfevents.*`` files):

- TFRecord framing, one record per event: ``uint64 length`` (little-endian), ``uint32`` masked
  CRC32C of those 8 length bytes, the data bytes, ``uint32`` masked CRC32C of the data. The mask is
  ``((crc >> 15) | (crc << 17)) + 0xa282ead8`` mod 2**32; CRC32C is the Castagnoli CRC.
  Source: TensorFlow "TFRecords format details" (tensorflow/docs api_guides/python/python_io.md).
- Each record's data is a serialized ``Event`` protobuf (tensorboard/compat/proto/event.proto):
  ``wall_time = 1`` (double), ``step = 2`` (int64), ``file_version = 3`` (string, the first event of
  a file: "brain.Event:2"), ``summary = 5`` (message ``Summary``).
- ``Summary`` (tensorboard/compat/proto/summary.proto): ``repeated Value value = 1``; ``Value``:
  ``tag = 1`` (string), ``simple_value = 2`` (float), ``metadata = 9`` (SummaryMetadata),
  ``tensor = 8`` (TensorProto). ``SummaryMetadata``: ``plugin_data = 1`` { ``plugin_name = 1``,
  ``content = 2`` }.
- Text (tensorboard/plugins/text/metadata.py): a ``Value`` whose metadata names plugin "text" (its
  content, a version-0 ``TextPluginData``, serializes to no bytes) and whose ``tensor``
  (tensor.proto) is ``dtype = 1`` DT_STRING (7, types.proto), ``tensor_shape = 2`` empty (a
  scalar), ``string_val = 8`` the UTF-8 text.

Only these messages are encoded; the reader skips any field it does not know, so it also reads
scalars other writers store as rank-0 float tensors (``float_val = 5``, ``double_val = 6``).

Speed: the CRC is table-driven pure Python, about 0.2 microseconds a byte; one event of 100
scalars is about 4 KB, so about 1 ms a log call.
"""

from __future__ import annotations

import math
import os
import socket
import struct
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

FILE_VERSION = "brain.Event:2"
_MASK_DELTA = 0xA282EAD8
_CASTAGNOLI_REFLECTED = 0x82F63B78
_DT_FLOAT, _DT_DOUBLE, _DT_STRING = 1, 2, 7
_TEXT_PLUGIN = "text"


class EventFileError(ValueError):
    """An event file that cannot be read: truncated, a CRC mismatch or a malformed protobuf."""


# ---- CRC32C ---------------------------------------------------------------------------------------
def _crc_table() -> tuple[int, ...]:
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ _CASTAGNOLI_REFLECTED if c & 1 else c >> 1
        table.append(c)
    return tuple(table)


_CRC_TABLE = _crc_table()


def crc32c(data: bytes) -> int:
    """CRC-32C (Castagnoli) of ``data``.

    >>> hex(crc32c(b"123456789"))
    '0xe3069283'
    """
    c = 0xFFFFFFFF
    table = _CRC_TABLE
    for b in data:
        c = table[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def masked_crc32c(data: bytes) -> int:
    """The TFRecord mask of ``crc32c(data)`` (a CRC of data that holds CRCs is weak unmasked)."""
    c = crc32c(data)
    return (((c >> 15) | (c << 17)) + _MASK_DELTA) & 0xFFFFFFFF


def frame_record(data: bytes) -> bytes:
    """One TFRecord: length, masked CRC of the length, data, masked CRC of the data."""
    header = struct.pack("<Q", len(data))
    return header + struct.pack("<I", masked_crc32c(header)) + data + struct.pack("<I", masked_crc32c(data))


# ---- protobuf encoding (only the wire types these messages use) ----------------------------------
def _varint(n: int) -> bytes:
    n &= 0xFFFFFFFFFFFFFFFF  # int64 negatives are ten-byte two's complement on the wire
    out = bytearray()
    while n > 0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _key(field: int, wire_type: int) -> bytes:
    return _varint((field << 3) | wire_type)


def _len_field(field: int, payload: bytes) -> bytes:
    return _key(field, 2) + _varint(len(payload)) + payload


def _double_field(field: int, x: float) -> bytes:
    return _key(field, 1) + struct.pack("<d", x)


def _float32(x: float) -> bytes:
    try:
        return struct.pack("<f", x)
    except OverflowError:  # beyond float32 range: store the infinity float32 rounding gives
        return struct.pack("<f", math.copysign(math.inf, x))


def _event(wall_time: float, step: int, field: int, payload: bytes) -> bytes:
    return _double_field(1, wall_time) + _key(2, 0) + _varint(step) + _len_field(field, payload)


def _scalar_value(tag: str, value: float) -> bytes:
    return _len_field(1, tag.encode()) + _key(2, 5) + _float32(value)


def _text_value(tag: str, text: str) -> bytes:
    plugin_data = _len_field(1, _TEXT_PLUGIN.encode())  # content: TextPluginData(version=0) is empty
    metadata = _len_field(1, plugin_data)
    tensor = _key(1, 0) + _varint(_DT_STRING) + _len_field(2, b"") + _len_field(8, text.encode())
    return _len_field(1, tag.encode()) + _len_field(9, metadata) + _len_field(8, tensor)


def _check_tag(tag) -> str:
    if not isinstance(tag, str) or not tag:
        raise ValueError(f"a summary tag must be a non-empty string, got {tag!r}")
    return tag


def _check_step(step) -> int:
    if isinstance(step, bool) or not hasattr(step, "__index__"):
        raise TypeError(f"step must be an integer, got {step!r} ({type(step).__name__})")
    return int(step)


def _to_float(tag: str, value) -> float:
    try:
        return float(value)
    except (TypeError, ValueError) as e:
        raise TypeError(f"scalar {tag!r} is not a number: {value!r} ({type(value).__name__})") from e


# ---- writer ---------------------------------------------------------------------------------------
class EventWriter:
    """Appends summaries to a new ``events.out.tfevents.<time>.<host>.<pid>.<n>`` file in ``logdir``.

    Records are buffered and reach the disk on ``flush()``, on ``close()``, and after any write that
    comes ``flush_secs`` or more after the last flush.
    """

    _opened = 0

    def __init__(self, logdir: str | os.PathLike, flush_secs: float = 5.0):
        self.logdir = Path(logdir)
        self.logdir.mkdir(parents=True, exist_ok=True)
        EventWriter._opened += 1
        name = f"events.out.tfevents.{int(time.time())}.{socket.gethostname()}.{os.getpid()}.{EventWriter._opened}"
        self.path = self.logdir / name
        self._file = open(self.path, "xb")  # held open until close()
        self.flush_secs = flush_secs
        self._last_flush = time.monotonic()
        self._write(_event(time.time(), 0, 3, FILE_VERSION.encode()))
        self.flush()

    @property
    def closed(self) -> bool:
        return self._file.closed

    def _write(self, event: bytes) -> None:
        if self._file.closed:
            raise ValueError(f"event file {self.path} is closed")
        self._file.write(frame_record(event))
        if time.monotonic() - self._last_flush >= self.flush_secs:
            self.flush()

    def add_scalar(self, tag: str, value: float, step: int, wall_time: float | None = None) -> None:
        self.add_scalars({tag: value}, step, wall_time)

    def add_scalars(self, scalars: Mapping[str, float], step: int, wall_time: float | None = None) -> None:
        """All of ``scalars`` as one event at ``step`` (values are stored as float32)."""
        step = _check_step(step)
        values = b"".join(_len_field(1, _scalar_value(_check_tag(t), _to_float(t, v))) for t, v in scalars.items())
        if values:
            self._write(_event(time.time() if wall_time is None else wall_time, step, 5, values))

    def add_text(self, tag: str, text: str, step: int, wall_time: float | None = None) -> None:
        """Markdown ``text`` for TensorBoard's Text tab."""
        if not isinstance(text, str):
            raise TypeError(f"text for {tag!r} must be a str, got {type(text).__name__}")
        value = _len_field(1, _text_value(_check_tag(tag), text))
        self._write(_event(time.time() if wall_time is None else wall_time, _check_step(step), 5, value))

    def flush(self) -> None:
        if not self._file.closed:
            self._file.flush()
            self._last_flush = time.monotonic()

    def close(self) -> None:
        if not self._file.closed:
            self._file.flush()
            os.fsync(self._file.fileno())
            self._file.close()

    def __enter__(self) -> EventWriter:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


# ---- reader ---------------------------------------------------------------------------------------
def iter_records(path: str | os.PathLike) -> Iterator[bytes]:
    """The data of each TFRecord in ``path``, checking both CRCs of every record."""
    path = Path(path)
    data = path.read_bytes()
    pos = 0
    while pos < len(data):
        if pos + 12 > len(data):
            raise EventFileError(f"{path}: truncated record header at byte {pos} (file ends at {len(data)})")
        header = data[pos : pos + 8]
        (length,) = struct.unpack_from("<Q", data, pos)
        (length_crc,) = struct.unpack_from("<I", data, pos + 8)
        if length_crc != masked_crc32c(header):
            raise EventFileError(f"{path}: length CRC mismatch in the record at byte {pos}")
        end = pos + 12 + length
        if end + 4 > len(data):
            raise EventFileError(f"{path}: record at byte {pos} says {length} data bytes, the file ends first")
        body = data[pos + 12 : end]
        (body_crc,) = struct.unpack_from("<I", data, end)
        if body_crc != masked_crc32c(body):
            raise EventFileError(f"{path}: data CRC mismatch in the record at byte {pos}")
        yield body
        pos = end + 4


def _fields(buf: bytes, where: str) -> Iterator[tuple[int, int, int | bytes]]:
    """(field, wire type, value) of each field of one message; value is an int or the raw bytes."""
    pos, n = 0, len(buf)

    def varint() -> int:
        nonlocal pos
        shift = result = 0
        while True:
            if pos >= n or shift > 63:
                raise EventFileError(f"malformed varint in {where}")
            b = buf[pos]
            pos += 1
            result |= (b & 0x7F) << shift
            if not b & 0x80:
                return result
            shift += 7

    while pos < n:
        key = varint()
        field, wire = key >> 3, key & 7
        if wire == 0:
            yield field, wire, varint()
            continue
        size = {1: 8, 5: 4}.get(wire)
        if size is None and wire == 2:
            size = varint()
        if size is None:
            raise EventFileError(f"unsupported protobuf wire type {wire} (field {field}) in {where}")
        if pos + size > n:
            raise EventFileError(f"field {field} runs past the end of {where}")
        yield field, wire, buf[pos : pos + size]
        pos += size


def _tensor_value(buf: bytes, where: str) -> float | str | None:
    dtype, strings, floats = 0, [], []
    for field, wire, v in _fields(buf, where):
        if field == 1 and wire == 0:
            dtype = v
        elif field == 8 and wire == 2:
            strings.append(v.decode())
        elif field == 5:  # float_val, packed or not
            floats += [x for (x,) in struct.iter_unpack("<f", v)]
        elif field == 6:  # double_val
            floats += [x for (x,) in struct.iter_unpack("<d", v)]
        elif field == 4 and wire == 2 and dtype in (_DT_FLOAT, _DT_DOUBLE):  # tensor_content
            floats += [x for (x,) in struct.iter_unpack("<f" if dtype == _DT_FLOAT else "<d", v)]
    if dtype == _DT_STRING and len(strings) == 1:
        return strings[0]
    if dtype in (_DT_FLOAT, _DT_DOUBLE) and len(floats) == 1:
        return floats[0]
    return None  # not a scalar or a single string: not something these tools read


def _summary_values(buf: bytes, where: str) -> Iterator[tuple[str, float | str]]:
    for field, wire, v in _fields(buf, where):
        if field != 1 or wire != 2:
            continue
        tag, value = None, None
        for f, w, x in _fields(v, where):
            if f == 1 and w == 2:
                tag = x.decode()
            elif f == 2 and w == 5:
                (value,) = struct.unpack("<f", x)
            elif f == 8 and w == 2:
                value = _tensor_value(x, where)
        if tag is not None and value is not None:
            yield tag, value


def read_events(path: str | os.PathLike) -> list[tuple[int, str, float | str]]:
    """(step, tag, value) of every scalar and text summary in an event file, in file order; a
    directory reads each ``*tfevents*`` file in it in name order. Raises ``EventFileError`` on a CRC
    mismatch, a truncated record or a malformed protobuf.
    """
    path = Path(path)
    if path.is_dir():
        return [e for f in sorted(path.glob("*tfevents*")) for e in read_events(f)]
    if not path.exists():
        raise FileNotFoundError(f"no event file at {path}")
    out = []
    for i, record in enumerate(iter_records(path)):
        where = f"{path} event {i}"
        step, summary = 0, None
        try:
            for field, wire, v in _fields(record, where):
                if field == 2 and wire == 0:
                    step = v - (1 << 64) if v >= 1 << 63 else v
                elif field == 5 and wire == 2:
                    summary = v
            if summary is not None:
                out += [(step, tag, value) for tag, value in _summary_values(summary, where)]
        except UnicodeDecodeError as e:
            raise EventFileError(f"a tag or text that is not UTF-8 in {where}") from e
    return out
