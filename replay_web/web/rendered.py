"""Answers already made: a public or seat page of a step, kept by everything it is made from.

A step's answer for a seat or the public is a pure function of the record up to the step
(tests/replay_web/web/test_no_leak.py compares its bytes), of the view, and, for a page, of the
language, the suits, the seat's token (in its links) and the read models' row shown in the
header (result, VP, verdict). Kept under a key holding all of them, the answer is made once:
club screens and players step through the same matches, and a page takes ~10 ms to render
against ~1 ms to find. A record that grows has a new `last` and `head`, so its old answers are
never found again (they age out of the LRU). The arbiter's pages are never kept: they hold a
CSRF token of the arbiter's session.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from domain.record.audit import Finding

KEPT_ANSWERS = 192
"""Megabytes of answers kept: some 13,000 pages of ~15 KB, or 60,000 steps of JSON. An LRU
smaller than the set of steps being viewed in turn keeps nothing useful (each is dropped just
before it is asked again), so it is sized for a tournament's matches, not a few tables'."""


class RenderedAnswers:
    """A thread-safe LRU of answers' bytes, bounded by their total size."""

    def __init__(self, megabytes: int = KEPT_ANSWERS) -> None:
        self._limit = megabytes * 1024 * 1024
        self._size = 0
        self._answers: OrderedDict[Hashable, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> bytes | None:
        with self._lock:
            found = self._answers.get(key)
            if found is not None:
                self._answers.move_to_end(key)
            return found

    def put(self, key: Hashable, answer: bytes) -> None:
        if len(answer) > self._limit:
            return
        with self._lock:
            old = self._answers.pop(key, None)
            self._size += len(answer) - (0 if old is None else len(old))
            self._answers[key] = answer
            while self._size > self._limit:
                _, dropped = self._answers.popitem(last=False)
                self._size -= len(dropped)

    def __len__(self) -> int:
        return len(self._answers)


ROW_SECONDS = 10.0
"""How long a match's read-model row is reused: a verdict `verify --record` writes shows on its
pages within this time (the record itself is checked on every request)."""


class RecentRows:
    """The read models' row of each recently shown match, reused for ROW_SECONDS: one query less
    for each answer already made (its key holds the row)."""

    def __init__(self, seconds: float = ROW_SECONDS, kept: int = 4096) -> None:
        self._seconds = seconds
        self._kept = kept
        self._rows: OrderedDict[Hashable, tuple[float, object]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, now: float) -> tuple[bool, object]:
        """(found, row): found only when read less than ROW_SECONDS before `now`."""
        with self._lock:
            found = self._rows.get(key)
        if found is None or now - found[0] >= self._seconds:
            return False, None
        return True, found[1]

    def put(self, key: Hashable, row: object, now: float) -> None:
        with self._lock:
            self._rows[key] = (now, row)
            self._rows.move_to_end(key)
            while len(self._rows) > self._kept:
                self._rows.popitem(last=False)


KEPT_FINDINGS = 1024
"""Records whose audit is kept: as many as matches kept folded (records.py KEPT)."""


class KeptFindings:
    """The audit's findings of each record recently shown, by its head (records.RecordHead):
    the audit replays the whole match (10-20 ms for a long one), once per record as it stands,
    not once per step asked. A record that grows has a new head; the old entry ages out."""

    def __init__(self, kept: int = KEPT_FINDINGS) -> None:
        self._kept = kept
        self._found: OrderedDict[Hashable, tuple[Finding, ...]] = OrderedDict()
        self._lock = threading.Lock()

    def findings_of(self, head: Hashable,
                    make: Callable[[], tuple[Finding, ...]]) -> tuple[Finding, ...]:
        with self._lock:
            found = self._found.get(head)
            if found is not None:
                self._found.move_to_end(head)
                return found
        made = make()   # outside the lock: two threads may both audit, finding the same
        with self._lock:
            self._found[head] = made
            self._found.move_to_end(head)
            while len(self._found) > self._kept:
                self._found.popitem(last=False)
        return made
