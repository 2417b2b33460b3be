"""`verbale verify --jobs N`: the forkserver of the workers started before the command's own
imports, so that its imports (projections.verify.jobs and what it needs, about 0.7 s) run beside
the parent's instead of after them (docs/benchmarks.md, issue 24).

Only the standard library is imported here; projections/verify/jobs.py asks the same context
for its pool, and finds the server running.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

PRELOAD = ["projections.verify.jobs"]


def workers_wanted(argv: Sequence[str]) -> int:
    """The processes `verbale verify` will run with, read from its arguments (1 when they say
    anything else: click reports a bad --jobs itself)."""
    if not argv or argv[0] != "verify":
        return 1
    for index, arg in enumerate(argv):
        value = arg.partition("=")[2] if arg.startswith("--jobs=") else (
            argv[index + 1] if arg == "--jobs" and index + 1 < len(argv) else None)
        if value is not None:
            try:
                jobs = int(value)
            except ValueError:
                return 1
            return (os.cpu_count() or 1) if jobs == 0 else jobs
    return 1


def start_early(argv: Sequence[str]) -> bool:
    """Start the workers' forkserver now when `argv` asks verify for more than one process;
    whether it was started."""
    if workers_wanted(argv) <= 1:
        return False
    import multiprocessing  # only for verify --jobs: other commands do not import it
    from multiprocessing import forkserver

    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)

    forkserver.ensure_running()
    return True
