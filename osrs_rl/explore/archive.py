"""The archive: one entry per cell (``spec.cell_key``), holding the best state seen there.

Each cell keeps, for the state with the highest ``spec.progress`` found in it so far:

- ``record``: the encounter's state record (raw bytes; ``VecEnv.snapshot_of_record`` makes it a snapshot);
- ``hidden``: the policy's recurrent state at that moment (the one it would act on next; empty for an MLP)
  and ``policy_step``, the training step of the policy that held it;
- ``chunk``: the actions from the previous cell's state to this one, with ``parent`` (that cell's key),
  ``chunk_rng`` (the state's RNG where the chunk began) and ``parent_version`` (the version of the
  parent's record the chunk began from: every record kept gets a new number, and a chunk begun from a
  state the parent did not keep gets none): restoring the parent, setting that RNG and stepping the chunk
  gives this record exactly while the parent still holds that version (``replayable``);
- ``ret`` and ``ticks``: the episode's return and ticks up to it.

and counts: ``visits`` (times a tracked env entered the cell), ``selected`` (archive starts from it),
``passes``/``advanced`` (normal-start episodes that went through it, and how many of them went on to a
deeper phase of the fight than the cell's, or won: where normal starts already get past a cell, restoring
it teaches little), ``start_advanced``/``start_tries`` (archive starts from it and how many of those went on
to a deeper phase or won, decayed so they say what happens now), the phase its state is in (the phase the
encounter's metrics kernel names for it) and when it was found.

A full archive (``max_cells``) evicts the entry of least progress (ties: the most visited) to make room
for one of more progress; a new cell of less progress than every entry is not added.

File format (``save``/``load``, written atomically): ``b"ORLA"``, a uint16 format version, a uint32 header
length, a JSON header (encounter, its version and state layout digest, a digest of its ``cell_key`` and
``progress`` source, the settings the states were made under, counts, the code that wrote it:
``osrs_rl_version``, ``osrs_rl_commit``, ``osrs_rl_dirty``, which files from before 0.2.0 lack), then an
``.npz`` body (no pickles); the header holds a blake2b checksum of the body. A file from another
encounter, spec version, state layout or cell key, of another format version, or with a body that changed
by a byte is refused with a message saying which.
"""

from __future__ import annotations

import hashlib
import inspect
import io
import json
import struct
from pathlib import Path

import numpy as np

from osrs_rl.io.atomic import atomic_write
from osrs_rl.io.provenance import from_header, header_fields
from osrs_rl.runtime.snapshot import layout_digest

MAGIC = b"ORLA"
FORMAT_VERSION = 1
_HEAD = struct.Struct("<4sHI")
DEFAULT_MAX_CELLS = 20_000
START_DECAY = 0.98        # each new archive-start outcome of a cell scales its older ones by this


class ArchiveError(ValueError):
    """An archive file or entry that does not fit; the message says which check failed."""


def cells_digest(spec) -> str:
    """A digest of the source of ``spec.cell_key`` and ``spec.progress``: an archive made before either changed
    groups and ranks states otherwise, so it is refused (as far as their own source shows: a helper they call
    is not read)."""
    h = hashlib.blake2b(digest_size=8)
    for fn in (spec.cell_key, spec.progress):
        fn = getattr(fn, "py_func", fn)
        try:
            h.update(inspect.getsource(fn).encode())
        except (OSError, TypeError):       # no source to read (a built function): its name stands for it
            h.update(getattr(fn, "__qualname__", repr(fn)).encode())
    return h.hexdigest()


def rng_slice(dtype: np.dtype) -> slice:
    """Where the ``rng`` field lies in a state record's bytes."""
    field, offset = dtype.fields["rng"][:2]
    return slice(offset, offset + field.itemsize)


class Archive:
    """Cells of one encounter (``spec``), their best states and counts. ``config``: the encounter settings
    the states were made under (stored, shown, and compared by ``check_config``)."""

    COUNTS = ("visits", "selected", "passes", "advanced", "found_step", "phase", "ticks", "parent", "policy_step",
              "version", "parent_version")
    FLOATS = ("progress", "ret", "start_advanced", "start_tries")

    def __init__(self, spec, config: dict | None = None, hidden_size: int = 0,
                 max_cells: int = DEFAULT_MAX_CELLS):
        if max_cells < 1:
            raise ValueError(f"max_cells must be at least 1, got {max_cells}")
        if spec.cell_key is None or spec.progress is None:
            raise ArchiveError(f"encounter {spec.name!r} declares no cell_key and progress: it has no archive "
                               f"(docs/writing-an-encounter.md, 'cell_key')")
        self.spec = spec
        self.config = dict(config or {})
        self.hidden_size = int(hidden_size)
        self.max_cells = int(max_cells)
        self.record_size = spec.state_dtype.itemsize
        self._rng = rng_slice(spec.state_dtype)
        self.index: dict[int, int] = {}           # cell key -> row
        self.keys: list[int] = []
        self.records: list[bytes] = []
        self.hidden: list[np.ndarray] = []
        self.chunks: list[np.ndarray] = []        # int16 [ticks, agents, heads] each
        self.chunk_rng: list[bytes] = []
        self.counts = {name: [] for name in self.COUNTS}
        self.floats = {name: [] for name in self.FLOATS}
        self.evicted = 0
        self.next_version = 1          # the number the next kept record gets (never reused, so never stale)
        self.written_by: dict | None = None   # the code that wrote the file it was read from (None: not read)

    def __len__(self) -> int:
        return len(self.keys)

    # ---- adding --------------------------------------------------------------------------------------
    def offer(self, key: int, progress: float, record: bytes, *, hidden=None, chunk=None, parent: int = -1,
              chunk_rng: bytes = b"", parent_version: int = -1, ret: float = 0.0, ticks: int = 0,
              phase: int = 0, step: int = 0, policy_step: int = 0) -> int:
        """A state seen in cell ``key``: counted as a visit; kept when the cell is new or it has more progress
        than the state kept there (ties: the higher return, then the fewer ticks). Returns the version number
        the record was kept as (at least 1), or 0 when it was not kept."""
        key = int(key)
        row = self.index.get(key)
        if row is not None:
            self.counts["visits"][row] += 1
            if not self.improves(row, progress, ret, ticks):
                return 0
        elif len(self.keys) >= self.max_cells:
            row = self._evictable(progress)
            if row is None:
                return 0
            self._evict(row)
            row = None
        if len(record) != self.record_size:
            raise ArchiveError(f"a {self.spec.name} state record has {self.record_size} bytes, got {len(record)}")
        hidden = np.zeros(self.hidden_size, np.float32) if hidden is None else np.asarray(hidden, np.float32)
        if hidden.shape != (self.hidden_size,):
            raise ArchiveError(f"hidden state of shape {hidden.shape}; this archive keeps ({self.hidden_size},)")
        agents, heads = self.spec.num_agents, self.spec.num_heads
        chunk = np.zeros((0, agents, heads), np.int16) if chunk is None else \
            np.asarray(chunk, np.int16).reshape(-1, agents, heads)
        values = {"record": bytes(record), "hidden": hidden.copy(), "chunk": chunk.copy(),
                  "chunk_rng": bytes(chunk_rng)}
        version = self.next_version
        self.next_version += 1
        best = {"progress": float(progress), "ret": float(ret), "ticks": int(ticks), "parent": int(parent),
                "phase": int(phase), "policy_step": int(policy_step), "version": version,
                "parent_version": int(parent_version)}
        if row is None:
            row = len(self.keys)
            self.index[key] = row
            self.keys.append(key)
            for name, value in values.items():
                getattr(self, name + "s" if name in ("record", "chunk") else name).append(value)
            for name in self.COUNTS:
                self.counts[name].append(best.get(name, 0))
            for name in self.FLOATS:
                self.floats[name].append(best.get(name, 0.0))
            self.counts["visits"][row] = 1
            self.counts["found_step"][row] = int(step)
        else:
            for name, value in values.items():
                getattr(self, name + "s" if name in ("record", "chunk") else name)[row] = value
            for name, value in best.items():
                (self.counts if name in self.counts else self.floats)[name][row] = value
        return version

    def improves(self, row: int, progress: float, ret: float, ticks: int) -> bool:
        """Whether a state of ``progress``, ``ret`` and ``ticks`` beats the one kept in ``row`` (more progress;
        ties: the higher return, then the fewer ticks): what :meth:`offer` keeps."""
        return (progress, ret, -ticks) > (self.floats["progress"][row], self.floats["ret"][row],
                                          -self.counts["ticks"][row])

    def visit(self, row: int) -> None:
        """A state seen in ``row``'s cell that does not beat its own (:meth:`improves`): counted, not kept."""
        self.counts["visits"][row] += 1

    def set_max_cells(self, max_cells: int) -> None:
        """Hold at most ``max_cells`` from now on; a fuller archive drops its cells of least progress now."""
        if max_cells < 1:
            raise ValueError(f"max_cells must be at least 1, got {max_cells}")
        self.max_cells = int(max_cells)
        while len(self.keys) > self.max_cells:
            self._evict(self._evictable(float("inf")))

    def _evictable(self, progress: float) -> int | None:
        """The row to drop for a new cell of ``progress``: the least progress (ties: most visited), if below it."""
        prog = np.asarray(self.floats["progress"])
        low = prog.min()
        if low >= progress:
            return None
        rows = np.flatnonzero(prog == low)
        return int(rows[np.argmax(np.asarray(self.counts["visits"])[rows])])

    def _evict(self, row: int) -> None:
        """Drop ``row`` by moving the last row into its place."""
        last = len(self.keys) - 1
        key = self.keys[row]
        for seq in (self.keys, self.records, self.hidden, self.chunks, self.chunk_rng, *self.counts.values(),
                    *self.floats.values()):
            seq[row] = seq[last]
            seq.pop()
        del self.index[key]
        if row != last:
            self.index[self.keys[row]] = row
        self.evicted += 1

    # ---- outcomes --------------------------------------------------------------------------------------
    def advanced_from(self, row: int, final_phase: int, won: bool) -> bool:
        """Whether an episode that went through ``row`` and ended in ``final_phase`` (or won) got past it: a phase
        of the fight deeper than the cell's (phases are in the encounter's order, deepest last)."""
        return bool(won) or final_phase > self.counts["phase"][row]

    def note_pass(self, rows, final_phase: int, won: bool) -> None:
        """A normal-start episode went through ``rows`` (cells still present) and ended in ``final_phase``."""
        for row in rows:
            self.counts["passes"][row] += 1
            self.counts["advanced"][row] += int(self.advanced_from(row, final_phase, won))

    def note_start(self, row: int, final_phase: int, won: bool) -> None:
        """An archive start from ``row`` ended in ``final_phase`` (older outcomes decay: recent ones weigh most)."""
        self.floats["start_tries"][row] = self.floats["start_tries"][row] * START_DECAY + 1.0
        self.floats["start_advanced"][row] = self.floats["start_advanced"][row] * START_DECAY + \
            float(self.advanced_from(row, final_phase, won))

    def row_of(self, key: int) -> int | None:
        return self.index.get(int(key))

    def array(self, name: str) -> np.ndarray:
        """One count or float column as an array (a copy)."""
        if name in self.counts:
            return np.asarray(self.counts[name], dtype=np.int64)
        return np.asarray(self.floats[name], dtype=np.float64)

    # ---- choosing starts ------------------------------------------------------------------------------
    def eligible(self, success_threshold: float, min_passes: int) -> np.ndarray:
        """Rows beyond where normal starts already succeed: passed by fewer than ``min_passes`` normal-start
        episodes, or got past (a deeper phase, or a win) in less than ``success_threshold`` of those passes."""
        passes, advanced = self.array("passes"), self.array("advanced")
        rate = advanced / np.maximum(passes, 1)
        return np.flatnonzero((passes < min_passes) | (rate < success_threshold))

    def weights(self, rows: np.ndarray, frontier_decay: float = 1.0, order: list[int] | None = None) -> np.ndarray:
        """Selection weights of ``rows``. Each phase among them gets a share of the whole, so a phase where the
        archive holds many cells (a long one, or one the policy stalls in) does not take the starts of a
        rarer, deeper one: with ``frontier_decay`` 1 every phase the same share; below 1 the phases in
        ``order`` (``phase_order``'s, the frontier first; None: fight order) get shares falling by that factor,
        so most archive starts go where normal starts first fail. Within a phase: more for more progress (up
        to 2x, by rank), for starts whose outcome is uncertain (a recent rate of getting past the cell near one
        half: 0.1 + 4 p (1 - p), p smoothed), and for cells seldom chosen or visited (1 / sqrt(1 + selections),
        1 / sqrt(1 + visits) halved)."""
        if len(rows) == 0:
            return np.zeros(0)
        prog = self.array("progress")[rows]
        phase = self.array("phase")[rows]
        p = (self.array("start_advanced")[rows] + 1.0) / (self.array("start_tries")[rows] + 2.0)
        learnable = 0.1 + 4.0 * p * (1.0 - p)
        fresh = 1.0 / np.sqrt(1.0 + self.array("selected")[rows]) + 0.5 / np.sqrt(1.0 + self.array("visits")[rows])
        w = learnable * fresh
        for rank, ph in enumerate(np.unique(phase) if order is None else order):
            inside = phase == ph
            rank_in = np.argsort(np.argsort(prog[inside])) / max(int(inside.sum()) - 1, 1)
            w[inside] *= 1.0 + rank_in
            w[inside] *= frontier_decay ** rank / w[inside].sum()
        return w / w.sum()

    def phase_order(self, phases, success_threshold: float = 0.5, min_passes: int = 8) -> list[int]:
        """``phases`` with the frontier first: the phases that normal starts do not yet get past (over all the
        archive's cells in the phase, fewer than ``success_threshold`` of at least ``min_passes`` passes went on
        deeper), shallowest first, then the others, shallowest first. A solved phase can still hold an odd
        eligible cell (a rare hitpoints bucket, say); it does not take the frontier's share."""
        passes, advanced, phase = self.array("passes"), self.array("advanced"), self.array("phase")

        def solved(ph) -> bool:
            n = passes[phase == ph].sum()
            return n >= max(min_passes, 1) and advanced[phase == ph].sum() >= success_threshold * n
        return sorted((int(ph) for ph in phases), key=lambda ph: (solved(ph), ph))

    def select(self, rng: np.random.Generator, count: int, rows: np.ndarray) -> np.ndarray:
        """``count`` rows drawn from ``rows`` by ``weights`` (with replacement, every phase the same share: the
        explorer's draw, which knows no normal starts), counted as selected."""
        if count <= 0 or len(rows) == 0:
            return np.zeros(0, dtype=np.int64)
        w = self.weights(rows)
        chosen = rows[rng.choice(len(rows), size=count, p=w / w.sum())].astype(np.int64)
        self.note_selected(chosen)
        return chosen

    def note_selected(self, rows) -> None:
        """Count ``rows`` as chosen for a start (once per appearance)."""
        for row in rows:
            self.counts["selected"][row] += 1

    def starting_states(self, rows, rng: np.random.Generator | None = None) -> tuple[np.ndarray, np.ndarray | None]:
        """The records of ``rows`` as a fresh state array to restore, each with a new RNG drawn from ``rng``
        (None: the RNG kept with the record), and their recurrent states (``[len(rows), hidden]``, None when
        this archive keeps none)."""
        records = np.frombuffer(b"".join(self.records[r] for r in rows), dtype=self.spec.state_dtype).copy()
        if rng is not None:
            records["rng"] = rng.integers(0, 2**64, size=records["rng"].shape, dtype=np.uint64)
        hidden = np.stack([self.hidden[r] for r in rows]) if self.hidden_size and len(rows) else None
        return records, hidden

    # ---- replaying a chunk ----------------------------------------------------------------------------
    def replayable(self, row: int) -> bool:
        """Whether restoring the parent's record with ``chunk_rng`` and stepping ``chunk`` gives ``row``'s record:
        the parent is still in the archive, holds the record (the version) the chunk began from, and a chunk
        was kept."""
        parent = self.row_of(self.counts["parent"][row]) if self.counts["parent"][row] != -1 else None
        if parent is None or len(self.chunks[row]) == 0 or len(self.chunk_rng[row]) == 0:
            return False
        return self.counts["parent_version"][row] > 0 and \
            self.counts["version"][parent] == self.counts["parent_version"][row]

    def chunk_start(self, row: int) -> bytes:
        """The record the chunk of ``row`` began from: the parent's, with the RNG it had then."""
        if not self.replayable(row):
            raise ArchiveError(f"cell {self.keys[row]} cannot be replayed from its parent (gone, changed since, or "
                               f"no chunk kept)")
        parent = bytearray(self.records[self.index[self.counts["parent"][row]]])
        parent[self._rng] = self.chunk_rng[row]
        return bytes(parent)

    # ---- files -----------------------------------------------------------------------------------------
    def header(self) -> dict:
        spec = self.spec
        return {"format": FORMAT_VERSION, "encounter": spec.name, "spec_version": spec.version,
                "layout": layout_digest(spec.name, spec.state_dtype).hex(), "record_size": self.record_size,
                "cells_digest": cells_digest(spec), "hidden_size": self.hidden_size, "max_cells": self.max_cells,
                "cells": len(self), "evicted": self.evicted, "next_version": self.next_version, "config": self.config,
                "agents": spec.num_agents, "heads": spec.num_heads}

    def to_bytes(self) -> bytes:
        n = len(self)
        lengths = np.array([len(c) for c in self.chunks], dtype=np.int64)
        arrays = {
            "keys": np.array(self.keys, dtype=np.int64).reshape(n),
            "records": np.frombuffer(b"".join(self.records), dtype=np.uint8).reshape(n, self.record_size),
            "hidden": np.array(self.hidden, dtype=np.float32).reshape(n, self.hidden_size),
            "chunk_lengths": lengths,
            "chunks": (np.concatenate(self.chunks) if n else np.zeros((0,), np.int16)).astype(np.int16).reshape(
                -1, self.spec.num_agents, self.spec.num_heads),
            "chunk_rng": np.array([r.ljust(self._rng.stop - self._rng.start, b"\0") for r in self.chunk_rng],
                                  dtype=f"S{self._rng.stop - self._rng.start}").reshape(n),
            "chunk_rng_kept": np.array([len(r) > 0 for r in self.chunk_rng], dtype=np.bool_).reshape(n),
            **{name: self.array(name) for name in self.COUNTS + self.FLOATS},
        }
        buf = io.BytesIO()
        np.savez(buf, **arrays)
        body = buf.getvalue()
        head = dict(self.header(), **header_fields(), checksum=hashlib.blake2b(body, digest_size=16).hexdigest())
        text = json.dumps(head, sort_keys=True).encode()
        return _HEAD.pack(MAGIC, FORMAT_VERSION, len(text)) + text + body

    def save(self, path: str | Path) -> Path:
        """Write the archive to ``path`` atomically (the old file stays whole until the new one is)."""
        return atomic_write(Path(path), self.to_bytes())

    @classmethod
    def from_bytes(cls, data: bytes, spec, where: str = "archive") -> Archive:
        head, body = read_header(data, where)
        if head.get("encounter") != spec.name:
            raise ArchiveError(f"{where} is an archive of {head.get('encounter')!r}, not {spec.name!r}")
        if head.get("spec_version") != spec.version:
            raise ArchiveError(f"{where} was made with {spec.name} version {head.get('spec_version')}; this build is "
                               f"version {spec.version} (its states or cells changed): build the archive again")
        if head.get("layout") != layout_digest(spec.name, spec.state_dtype).hex() or \
                head.get("record_size") != spec.state_dtype.itemsize:
            raise ArchiveError(f"{where}: its state records are of another layout than {spec.name}'s")
        if head.get("cells_digest") != cells_digest(spec):
            raise ArchiveError(f"{where} was made with another {spec.name} cell_key or progress (their source changed "
                               f"since): its cells are not this build's; build the archive again")
        try:
            with np.load(io.BytesIO(bytes(body)), allow_pickle=False) as z:
                arrays = {k: z[k] for k in z.files}
        except Exception as e:            # a zip that does not open, an array that does not parse
            raise ArchiveError(f"{where}: its body does not read ({e})") from None
        archive = cls(spec, head.get("config", {}), int(head["hidden_size"]), int(head["max_cells"]))
        archive.evicted = int(head.get("evicted", 0))
        archive.next_version = int(head.get("next_version", 1))
        archive.written_by = from_header(head)
        archive._fill(arrays, int(head["cells"]), where)
        return archive

    def _fill(self, a: dict, n: int, where: str) -> None:
        needed = ("keys", "records", "hidden", "chunk_lengths", "chunks", "chunk_rng", "chunk_rng_kept",
                  *self.COUNTS, *self.FLOATS)
        missing = [k for k in needed if k not in a]
        if missing:
            raise ArchiveError(f"{where}: its body lacks {missing}")
        if any(len(a[k]) != n for k in needed if k != "chunks") or a["chunk_lengths"].sum() != len(a["chunks"]):
            raise ArchiveError(f"{where}: its arrays disagree in length with its {n} cells")
        ends = np.cumsum(a["chunk_lengths"])
        self.keys = [int(k) for k in a["keys"]]
        self.index = {k: i for i, k in enumerate(self.keys)}
        if len(self.index) != n:
            raise ArchiveError(f"{where}: a cell key appears twice")
        self.records = [bytes(r) for r in a["records"]]
        self.hidden = [h.astype(np.float32) for h in a["hidden"]]
        self.chunks = [a["chunks"][e - k:e].astype(np.int16) for e, k in zip(ends, a["chunk_lengths"], strict=True)]
        width = self._rng.stop - self._rng.start
        self.chunk_rng = [bytes(r).ljust(width, b"\0") if kept else b""
                          for r, kept in zip(a["chunk_rng"], a["chunk_rng_kept"], strict=True)]
        self.counts = {name: [int(v) for v in a[name]] for name in self.COUNTS}
        self.floats = {name: [float(v) for v in a[name]] for name in self.FLOATS}

    @classmethod
    def load(cls, path: str | Path, spec) -> Archive:
        path = Path(path)
        try:
            data = path.read_bytes()
        except OSError as e:
            raise ArchiveError(f"cannot read archive {path}: {e.strerror or e}") from None
        return cls.from_bytes(data, spec, str(path))

    def check_states(self, env) -> None:
        """Check every kept record against the bounds of ``env``'s encounter (``VecEnv.check_states``): a file's
        records are checked once, when it is loaded, so restores need not check them again."""
        if len(self):
            env.check_states(np.frombuffer(b"".join(self.records), dtype=self.spec.state_dtype))

    def check_config(self, config: dict, where: str = "archive") -> None:
        """Refuse to restore these states into envs whose settings (user settings, as ``osrs_rl.replay.record.
        user_config`` gives them) differ from the ones they were made under, except the encounter's
        ``start_settings``: where a run starts does not change a state once it is running."""
        starts = set(self.spec.start_settings)
        differ = sorted(k for k in set(self.config) | set(config)
                        if k not in starts and not _same_setting(self.config.get(k), config.get(k)))
        if differ:
            pairs = ", ".join(f"{k}: {self.config.get(k)!r} there, {config.get(k)!r} here" for k in differ[:6])
            raise ArchiveError(f"{where} was made under other encounter settings ({pairs}): its states would play "
                               f"under rules they were not found with; build it with these settings")


def _same_setting(a, b) -> bool:
    """Equal settings; floats as the float32 the env holds (an archive written before settings were shown
    as short decimals holds 0.10000000149011612 where one now holds 0.1: the same setting)."""
    if isinstance(a, float) and isinstance(b, float):
        return np.float32(a) == np.float32(b)
    return a == b


def read_header(data: bytes, where: str = "archive") -> tuple[dict, memoryview]:
    """The JSON header of an archive file and a view of its body, the body's checksum checked."""
    view = memoryview(data)
    if len(view) < _HEAD.size:
        raise ArchiveError(f"{where} is too short ({len(view)} bytes) to be an osrs-rl archive")
    magic, version, size = _HEAD.unpack(view[:_HEAD.size])
    if magic != MAGIC:
        raise ArchiveError(f"{where} is not an osrs-rl archive (bad magic bytes)")
    if version != FORMAT_VERSION:
        raise ArchiveError(f"{where} is archive format {version}; this build reads format {FORMAT_VERSION}")
    try:
        head = json.loads(bytes(view[_HEAD.size:_HEAD.size + size]))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ArchiveError(f"{where}: its header is not valid JSON (the file is corrupted)") from None
    body = view[_HEAD.size + size:]
    if hashlib.blake2b(body, digest_size=16).hexdigest() != head.get("checksum"):
        raise ArchiveError(f"{where}: its body is corrupted (checksum mismatch)")
    return head, body
