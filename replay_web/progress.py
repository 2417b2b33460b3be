"""Progress bars (rich) for long work: recording many matches, verify, export, rebuild, import.

Drawn on standard error and only when it is a terminal, so that output piped to a file or read
by a test is the same as without them.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")


@contextmanager
def bar(total: int | None, description: str) -> Iterator[Callable[[int], None]]:
    """A bar with `description` while a long step runs; the callback sets how much is done
    (nothing is drawn when standard error is not a terminal)."""
    if not sys.stderr.isatty():
        yield _nothing
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as shown:
        task = shown.add_task(description, total=total)
        yield lambda done: shown.update(task, completed=done)


def _nothing(_done: int) -> None:
    return None


def progress(items: Iterable[T], total: int | None, description: str) -> Iterator[T]:
    """Yield `items`, showing a bar with `description` while they are worked through."""
    with bar(total, description) as done:
        for count, item in enumerate(items, start=1):
            yield item
            done(count)
