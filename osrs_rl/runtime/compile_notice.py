"""Say once that Numba is compiling, so that a cold first run is not a silent minute.

The simulator's kernels compile on their first call after an install or a source edit (then they load from
Numba's disk cache in a few seconds); Numba fires ``numba:compile`` only for a real compile, not for a cache
load, so a warm run says nothing.
"""

from __future__ import annotations

import sys
import threading

from numba.core import event

MESSAGE = ("compiling the simulator's kernels (the first run after an install or an edit, up to a minute or two; "
           "later runs load them from the cache) ...")


class _Once(event.Listener):
    def __init__(self, say):
        self.say = say
        self.said = False
        self.lock = threading.Lock()

    def on_start(self, ev) -> None:
        with self.lock:
            if self.said:
                return
            self.said = True
        self.say(MESSAGE)

    def on_end(self, ev) -> None:
        pass


def _stderr(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def announce_compiles(say=_stderr) -> event.Listener:
    """From now on, the first Numba compile of this process is announced with ``say(MESSAGE)`` (default:
    a line on stderr); returns the listener (``event.unregister("numba:compile", it)`` removes it)."""
    listener = _Once(say)
    event.register("numba:compile", listener)
    return listener
