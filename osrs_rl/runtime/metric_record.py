"""An encounter's episode metrics, declared once: a record of float64 fields the ``metrics`` kernel writes by name.

The declaration is the only place a metric's name and place meet. The kernel writes ``out.ticks = s.tick``
(a scalar metric) or ``out.taken_by_source[k] = s.damage_taken[k]`` (one element of a family: several metrics
written in a loop, one float64 array field whose elements carry their own names), and every reader (training
logs, evaluation, ``VecEnv.pop_metrics``, ``finished_last_step``) takes the names from the same declaration, so
a name cannot label another metric's value: a name the kernel writes that the record lacks fails to compile.

>>> m = MetricRecord("won", "ticks", MetricFamily("taken_by", ("taken_melee", "taken_magic")))
>>> m.names
('won', 'ticks', 'taken_melee', 'taken_magic')
>>> out = m.zeros(1)
>>> out[0]["taken_by"][1] = 7.0
>>> m.values(out[0])["taken_magic"]
7.0
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from dataclasses import dataclass

import numpy as np

FLOAT64 = np.dtype(np.float64)


@dataclass(frozen=True)
class MetricFamily:
    """Metrics written in a loop: the record's float64 array field ``field``, element ``k`` the metric
    ``names[k]`` (``MetricFamily("taken_by_source", tuple("taken_" + n for n in SOURCE_NAMES))``). Size the
    loop that writes it from the same constant as ``names``: compiled kernels do not check the index (the
    bounds fuzz, ``osrs_rl.runtime.fuzz``, runs them with the check on)."""

    field: str
    names: tuple[str, ...]

    def __post_init__(self):
        object.__setattr__(self, "names", tuple(self.names))
        if not isinstance(self.field, str) or not self.field.isidentifier():
            raise ValueError(f"metric family field {self.field!r} must be a Python identifier (the kernel writes "
                             f"out.<field>[k])")
        if not self.names:
            raise ValueError(f"metric family {self.field!r} names no metrics")
        bad = [n for n in self.names if not isinstance(n, str) or not n or n != n.strip()]
        if bad:
            raise ValueError(f"metric family {self.field!r}: metric name {bad[0]!r} must be a non-empty string "
                             f"without surrounding spaces")


@dataclass(frozen=True, init=False)
class MetricRecord:
    """The episode metrics of an encounter, in the order logs and ``eval.json`` list them: each field a metric
    name (a scalar float64 field the kernel writes as ``out.<name>``) or a :class:`MetricFamily`.

    ``dtype`` is the record the runtime hands the ``metrics`` kernel; ``names`` the metric names, derived from
    the fields in order (a family's names where its field lies). Every field is float64, so a batch of records
    reads as a float64 table ``[n, len(names)]`` (``rows``), one column per name.
    """

    fields: tuple[str | MetricFamily, ...]

    def __init__(self, *fields: str | MetricFamily):
        object.__setattr__(self, "fields", tuple(fields))
        if not fields:
            raise ValueError("a metric record needs at least one metric")
        layout, names, taken = [], [], set()
        for f in fields:
            if isinstance(f, MetricFamily):
                field, elements = f.field, f.names
                layout.append((field, FLOAT64, (len(elements),)))
            elif isinstance(f, str):
                if not f.isidentifier():
                    raise ValueError(f"metric name {f!r} must be a Python identifier (the kernel writes out.{f}); "
                                     f"a name that is not goes in a MetricFamily")
                field, elements = f, (f,)
                layout.append((field, FLOAT64))
            else:
                raise ValueError(f"a metric record field is a metric name (str) or a MetricFamily, got "
                                 f"{type(f).__name__} {f!r}")
            for n in (*elements, *((field,) if isinstance(f, MetricFamily) else ())):
                if n in taken:
                    raise ValueError(f"{n!r} appears twice in the metric record (as a metric or a family's field)")
                taken.add(n)
            names += elements
        object.__setattr__(self, "_names", tuple(names))
        object.__setattr__(self, "_dtype", np.dtype(layout))

    @classmethod
    def from_dtype(cls, dtype, **families: tuple[str, ...]) -> MetricRecord:
        """The declaration of a record dtype written by hand: every field float64, a scalar (the metric of its
        name) or a 1-d array whose element names ``families[field]`` gives.

        >>> MetricRecord.from_dtype(np.dtype([("won", "f8"), ("hit", "f8", (2,))]), hit=("hit_a", "hit_b")).names
        ('won', 'hit_a', 'hit_b')
        """
        dtype = np.dtype(dtype)
        if dtype.names is None:
            raise ValueError(f"a metric record dtype needs named fields, got {dtype}")
        fields: list[str | MetricFamily] = []
        for name in dtype.names:
            sub = dtype.fields[name][0]
            base, shape = sub.base, sub.shape
            if base != FLOAT64:
                raise ValueError(f"metric field {name!r} is {base}, not float64: every metric is a float64 "
                                 f"(declare a count or a flag as float64 too)")
            if shape == ():
                if name in families:
                    raise ValueError(f"metric field {name!r} is a scalar, but names were given for its elements")
                fields.append(name)
            elif len(shape) == 1:
                if name not in families:
                    raise ValueError(f"metric field {name!r} holds {shape[0]} metrics: name them "
                                     f"(from_dtype(..., {name}=(...)))")
                if len(families[name]) != shape[0]:
                    raise ValueError(f"metric field {name!r} holds {shape[0]} metrics, {len(families[name])} "
                                     f"names given")
                fields.append(MetricFamily(name, families[name]))
            else:
                raise ValueError(f"metric field {name!r} has shape {shape}: a family is a 1-d array")
        stray = sorted(set(families) - set(dtype.names))
        if stray:
            raise ValueError(f"names given for {stray}, not fields of the metric dtype {list(dtype.names)}")
        return cls(*fields)

    @property
    def names(self) -> tuple[str, ...]:
        """Every metric's name, in record order (a family's elements in turn)."""
        return self._names

    @property
    def dtype(self) -> np.dtype:
        """The record the ``metrics`` kernel writes (packed float64 fields, in declaration order)."""
        return self._dtype

    def __len__(self) -> int:
        return len(self._names)

    def zeros(self, n: int) -> np.ndarray:
        """``n`` zeroed records (a structured array); pass ``out[i]`` to the kernel."""
        return np.zeros(n, dtype=self._dtype)

    def rows(self, records: np.ndarray) -> np.ndarray:
        """``records`` (a structured array of this dtype) as float64 ``[n, len(names)]``, a view when they are
        contiguous (else a copy): column ``k`` is metric ``names[k]``."""
        if records.dtype != self._dtype:
            raise ValueError(f"records of dtype {records.dtype} are not this metric record ({self._dtype})")
        return np.ascontiguousarray(records).view(FLOAT64).reshape(len(records), len(self._names))

    def values(self, record) -> dict[str, float]:
        """One record (an element of a structured array of this dtype) as ``{name: value}``."""
        flat = np.asarray(record).reshape(1).view(FLOAT64)
        return {name: float(v) for name, v in zip(self._names, flat, strict=True)}

    def stray_fields(self, kernel) -> list[str]:
        """The fields ``kernel`` (a ``metrics(state, config, out)``, Numba dispatcher or not) names on ``out`` in
        its own source that this record lacks: a name renamed in one place only, which Numba would report as a
        bare ``KeyError`` while compiling. Helpers it hands ``out`` to are not read; nor is a kernel whose source
        cannot be found ([] then)."""
        fn = getattr(kernel, "py_func", kernel)
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
        except (OSError, TypeError, SyntaxError):
            return []
        node = tree.body[0] if tree.body else None
        if not isinstance(node, ast.FunctionDef) or len(node.args.args) < 3:
            return []
        out = node.args.args[2].arg
        named = {a.attr for a in ast.walk(node)
                 if isinstance(a, ast.Attribute) and isinstance(a.value, ast.Name) and a.value.id == out}
        return sorted(named - set(self._dtype.names))
