"""The encounter registry: names to specs, so ``osrs_rl.make(name)`` needs no wiring per encounter.

Encounters are discovered, not listed: every package (this one included) declares its encounters
in the entry-point group :data:`ENTRY_POINT_GROUP` of its metadata, one ``name = "module:ATTR"``
per encounter, ``ATTR`` being its :class:`EncounterSpec`::

    [project.entry-points."osrs_rl.encounters"]
    myfight = "my_package.myfight:SPEC"

Entry points are read from the installed metadata, which is stale until the package is installed
again (``pip install -e .``). So that the built-in encounters never go missing, a subpackage of
``osrs_rl.encounters`` that no entry point names is scanned instead: every ``EncounterSpec`` among
its module attributes counts (:func:`sources` says which way each encounter was found). Specs built
in the running process are added with :func:`register`.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import pkgutil
from dataclasses import dataclass

from osrs_rl.runtime.spec import EncounterSpec

ENTRY_POINT_GROUP = "osrs_rl.encounters"
BUILTIN_PACKAGE = "osrs_rl.encounters"


@dataclass(frozen=True)
class Source:
    """Where an encounter comes from: ``kind`` is "entry point", "package scan" or "registered";
    ``target`` the ``module:ATTR`` (or module) that holds its spec; ``package`` the distribution."""

    name: str
    kind: str
    target: str
    package: str = ""

    @property
    def builtin(self) -> bool:
        return self.target.startswith(BUILTIN_PACKAGE + ".")

    def describe(self) -> str:
        where = f" ({self.package})" if self.package else ""
        return f"{self.kind}: {self.target}{where}"


_REGISTERED: dict[str, EncounterSpec] = {}
_LOADED: dict[str, EncounterSpec] = {}
_SOURCES: dict[str, Source] | None = None


def _entry_points() -> list:
    return list(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP))


def _builtin_packages() -> list[str]:
    package = importlib.import_module(BUILTIN_PACKAGE)
    return [f"{BUILTIN_PACKAGE}.{m.name}" for m in pkgutil.iter_modules(package.__path__) if m.ispkg]


def _scan(module_name: str) -> dict[str, EncounterSpec]:
    """Every EncounterSpec among ``module_name``'s attributes, by its name."""
    module = importlib.import_module(module_name)
    return {v.name: v for v in vars(module).values() if isinstance(v, EncounterSpec)}


def _discover() -> dict[str, Source]:
    """Name -> Source of every discoverable encounter (entry points first, then the package scan)."""
    found: dict[str, Source] = {}
    clashes: dict[str, list[str]] = {}
    for ep in _entry_points():
        dist = getattr(getattr(ep, "dist", None), "name", "") or ""
        source = Source(ep.name, "entry point", ep.value, dist)
        if ep.name in found and found[ep.name].target != ep.value:
            clashes.setdefault(ep.name, [found[ep.name].describe()]).append(source.describe())
        found.setdefault(ep.name, source)
    for name, where in clashes.items():
        found[name] = Source(name, "clash", "; ".join(where))
    named = {s.target.partition(":")[0] for s in found.values()}
    for package in _builtin_packages():
        if any(m == package or m.startswith(package + ".") for m in named):
            continue                        # its entry points speak for it
        for name, spec in _scan(package).items():
            found.setdefault(name, Source(name, "package scan", package))
            _LOADED.setdefault(name, spec)
    return found


def sources() -> dict[str, Source]:
    """Where each known encounter comes from (discovered once per process; :func:`rediscover` again)."""
    global _SOURCES
    if _SOURCES is None:
        _SOURCES = _discover()
    out = dict(_SOURCES)
    for name in _REGISTERED:
        module = getattr(_REGISTERED[name].step, "__module__", None) or "?"
        out[name] = Source(name, "registered", f"register() of a spec from {module}")
    return out


def rediscover() -> None:
    """Forget what discovery found (specs loaded from entry points included); registered specs stay."""
    global _SOURCES
    _SOURCES = None
    _LOADED.clear()


def register(spec: EncounterSpec, *, replace: bool = False) -> EncounterSpec:
    """Add ``spec`` under its name (refused if the name is taken, unless ``replace``)."""
    if not isinstance(spec, EncounterSpec):
        raise TypeError(f"register() takes an EncounterSpec, got {type(spec).__name__}")
    if not replace and spec.name in sources():
        raise ValueError(f"an encounter named {spec.name!r} is already registered ({sources()[spec.name].describe()})")
    _REGISTERED[spec.name] = spec
    return spec


def unregister(name: str) -> None:
    """Remove a spec added with :func:`register` (discovered encounters cannot be removed)."""
    if name not in _REGISTERED:
        raise KeyError(f"no encounter {name!r} was added with register()")
    del _REGISTERED[name]


def names() -> list[str]:
    return sorted(sources())


def builtin_names() -> list[str]:
    """The encounters this package ships (found by entry point or by the scan of its encounters folder)."""
    return sorted(n for n, s in sources().items() if s.builtin and s.kind != "registered")


def get_spec(name: str) -> EncounterSpec:
    if name in _REGISTERED:
        return _REGISTERED[name]
    known = sources()
    if name not in known:
        raise KeyError(f"Unknown encounter {name!r}; known encounters: {', '.join(sorted(known))}")
    if name not in _LOADED:
        _LOADED[name] = _load(known[name])
    return _LOADED[name]


def _load(source: Source) -> EncounterSpec:
    if source.kind == "clash":
        raise ValueError(f"encounter {source.name!r} is declared by more than one entry point: {source.target}")
    module, _, attr = source.target.partition(":")
    try:
        obj = importlib.import_module(module)
        for part in attr.split(".") if attr else ():
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as e:
        raise ValueError(f"encounter {source.name!r}: its {source.describe()} cannot be loaded ({e}); "
                         f"reinstall the package that declares it") from e
    if not isinstance(obj, EncounterSpec):
        raise ValueError(f"encounter {source.name!r}: {source.target} is a {type(obj).__name__}, not an EncounterSpec")
    if obj.name != source.name:
        raise ValueError(f"encounter {source.name!r}: {source.target} holds the spec named {obj.name!r}; the entry "
                         f"point's name must be the spec's name")
    return obj


def make(name: str, num_envs: int = 1, seed: int = 0, threads: int = 1, **config):
    """A VecEnv of ``num_envs`` copies of encounter ``name``; ``config`` overrides its settings."""
    from osrs_rl.runtime.vec_env import VecEnv

    return VecEnv(get_spec(name), num_envs=num_envs, seed=seed, threads=threads, **config)
