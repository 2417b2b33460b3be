"""A file of secrets the command line hands to its user (a tournament's seeds, its sessions'
secrets): created new, readable by its owner only, never overwritten.

The secrets are what makes a commitment worth anything: they never enter the database, so the
file is the only copy, and a command that finds one already there refuses rather than lose it.
"""

from __future__ import annotations

import os
from pathlib import Path

from replay_web.cli import UsageProblem
from replay_web.i18n import _


def write_secret_file(path: Path, text: str, option: str) -> None:
    """Write `text` to a new file at `path` (mode 0600); `option` names where the path came
    from in a refusal (e.g. --seeds)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise UsageProblem(_("{option} {path}: the file exists; it is never overwritten"
                             ).format(option=option, path=path)) from None
    except OSError as error:
        raise UsageProblem(_("{option} {path}: {reason}").format(
            option=option, path=path, reason=error.strerror or str(error))) from None
    with os.fdopen(descriptor, "w", encoding="utf-8") as out:
        out.write(text)
