"""The cyclic garbage collector paused while a record is read or replayed.

Reading a record and replaying it make many small objects (tokens, plays, events, states) and
no cycles that need collecting meanwhile; the collections their allocations trigger cost a third
of the reading time and about a twentieth of the replay's (docs/benchmarks.md, issue 12). Only
the previous state is restored: another thread working at the same time can at worst run with
the collector on, which is slower, never wrong; whatever became garbage meanwhile is collected
once the collector runs again. A speed-only route: with VERBALE_EXACT=1 (exact.py) the collector
is left as it is.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from importers.notation.exact import exact


@contextmanager
def collector_paused() -> Iterator[None]:
    if exact():
        yield
        return
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
