"""The one switch that turns every fast route off: `VERBALE_EXACT=1` in the environment.

The fast routes of the hand records (docs/architecture.md, "Hand records") are the line reader
(reader_fast.py, beside lark's parse, its reference) and the collector paused while a record is
read or replayed (collector.py). With the switch on, the reader parses every text with lark and
the collector runs as usual. `verbale import --exact` and `verbale verify --exact` set it in the
environment, so that it also reaches their worker processes (`--jobs`).

Read once per process; `require_exact` sets it (and forgets what was read).
"""

from __future__ import annotations

import os
from functools import cache

VARIABLE = "VERBALE_EXACT"


@cache
def exact() -> bool:
    """Whether the fast routes are off: VERBALE_EXACT set to anything but empty or 0."""
    return os.environ.get(VARIABLE, "") not in ("", "0")


def require_exact() -> None:
    """The switch on for this process and the processes it starts."""
    os.environ[VARIABLE] = "1"
    exact.cache_clear()
