"""Hooks: a rule a shared kernel calls and each encounter writes for its own state record.

A kernel in core (core.npc_crowd's chase, for one) needs a rule that differs between encounters (which monsters
take space on the floor). It calls a hook, a plain function declared in core with its signature and its
contract::

    @hook
    def solid(s, cfg, j):
        \"\"\"Monster slot ``j`` takes space on the floor.\"\"\"

and an encounter supplies the body for its state record, in its own folder::

    @implements(CROWD.solid, ST.STATE_DTYPE)
    def solid(s, cfg, j):
        o = s.monsters[j]
        return o.state == ST.SLOT_ALIVE and o.kind != ST.K_NIBBLER

Numba picks the body by the record type of the hook's first argument (the env's state record) when it compiles
the caller, so the call costs what a direct call costs and the caller stays cacheable. (Passing the encounter's
function as an argument instead would embed its address in the compiled code, which Numba cannot cache.)
``implements`` returns the body compiled on its own as well, for the encounter's direct calls. A kernel compiled
for a state record that no encounter implemented a hook for fails to compile, naming the hook.
"""

from __future__ import annotations

import inspect

import numpy as np
from numba import njit, types
from numba.extending import overload

_BODIES: dict[str, list[tuple[np.dtype, str]]] = {}     # hook -> (state dtype, module of its body)


def hook(fn):
    """Declare ``fn`` (its signature and docstring; its body is never run) a hook. Called from Python, it
    raises: a hook has a body only in compiled code, per state record."""
    name = f"{fn.__module__}.{fn.__qualname__}"

    def stub(*args, **kwargs):
        raise TypeError(f"hook {name} runs only inside compiled kernels (its bodies: implements())")

    stub.__name__, stub.__qualname__, stub.__module__, stub.__doc__ = fn.__name__, fn.__qualname__, fn.__module__, \
        fn.__doc__
    stub.__signature__ = inspect.signature(fn)
    stub.hook_name = name
    return stub


def implements(hook_fn, state_dtype):
    """Decorator: the decorated function is ``hook_fn``'s body for state records of ``state_dtype``. Its
    parameters must be the hook's. Returns the body compiled (``njit(cache=True)``)."""
    name = getattr(hook_fn, "hook_name", None)
    if name is None:
        raise TypeError(f"{hook_fn!r} is not a hook (declare it with @hook)")
    want = np.dtype(state_dtype)
    params = list(inspect.signature(hook_fn).parameters)

    def decorate(fn):
        got = list(inspect.signature(fn).parameters)
        if got != params:
            raise TypeError(f"{fn.__module__}.{fn.__qualname__} implements hook {name}: its parameters {got} "
                            f"are not the hook's {params}")
        bodies = _BODIES.setdefault(name, [])
        for dtype, module in bodies:
            if dtype == want and module != fn.__module__:
                raise TypeError(f"hook {name} is implemented twice for one state record: in {module} and in "
                                f"{fn.__module__}")
        bodies.append((want, fn.__module__))

        def pick(s):
            return fn if isinstance(s, types.Record) and s.dtype == want else None

        # the typing function must have the hook's own parameter names (Numba checks them against the body's)
        scope = {"pick": pick}
        exec(f"def typer({', '.join(params)}):\n    return pick({params[0]})", scope)     # noqa: S102
        # no cache of its own: the overload is compiled into each caller, whose cache keeps it; a cache entry
        # for ``fn`` here would share its name with the direct dispatcher's below, and one would load the
        # other's code (a direct call from Python then crashed the process)
        overload(hook_fn)(scope["typer"])
        return njit(cache=True)(fn)

    return decorate
