"""Where the read models stand, said on every page: lag and disagreement with the record.

The lists, the scores and the standings come from the read models; the step pages replay the
record itself. Two things can make the first say something other than the second:

- lag: events recorded and not folded yet (the tracking position behind the log's last
  notification: a catch-up that failed, a projection stopped). A neutral banner says how many
  events the lists are behind;
- disagreement: the last `verbale verify --read-models` (or `--against`) found rows that are not
  what a fold of the record gives (projections/read_models/verdicts.py). A warning says so, and
  a match's page lists its own differences.

The check is two small queries (the log's last notification id, the tracking position) and the
last check's row, made at most every NOTICE_SECONDS per app: a page costs nothing more.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from flask import Flask, current_app, request
from sqlalchemy.exc import SQLAlchemyError

from replay_web.web.app import services

NOTICE_SECONDS = 2.0
SHOWN = 50
"""A match's differences listed on its page at most."""
_KEY = "verbale_read_notice"


@dataclass(frozen=True, slots=True)
class ReadNotice:
    """The read models against the record: `behind` events not folded; the last check (when,
    how many differences, events folded that the log no longer holds), None if none."""

    behind: int
    checked: str | None = None
    differences: int = 0
    ahead: int = 0

    @property
    def disagrees(self) -> bool:
        return self.differences > 0 or self.ahead > 0


class _Kept:
    """The last notice and when it was made, shared by the app's threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.notice: ReadNotice | None = None
        self.made = float("-inf")


def read_notice() -> ReadNotice | None:
    """The notice of this app's store (None: no store, or its read models cannot be read),
    made again at most every NOTICE_SECONDS."""
    kept: _Kept = current_app.extensions.setdefault(_KEY, _Kept())
    now = time.monotonic()
    with kept.lock:
        if now - kept.made < NOTICE_SECONDS:
            return kept.notice
        kept.notice, kept.made = _made(), now
        return kept.notice


def _made() -> ReadNotice | None:
    from projections.read_models.project import position
    from projections.read_models.verdicts import last_comparison

    found = services()
    if found.engine is None or found.store is None:
        return None
    try:
        head = found.store.recorder.max_notification_id() or 0
        folded = position(found.engine, found.store.name) or 0
        checked = last_comparison(found.engine)
    except SQLAlchemyError:
        return None   # no read models to speak of: the page says what it can
    behind = max(head - folded, 0)
    if checked is None or not checked.disagrees:
        return ReadNotice(behind)
    return ReadNotice(behind, checked.checked, checked.differences, checked.ahead)


def _match_differences(notice: ReadNotice | None) -> list[Any]:
    """The recorded differences of the match this page shows (none unless the last check
    disagreed)."""
    from projections.read_models.verdicts import recorded_differences

    text = (request.view_args or {}).get("match_text")
    engine = services().engine
    if notice is None or not notice.disagrees or not text or engine is None:
        return []
    try:
        return list(recorded_differences(engine, str(UUID(str(text))), SHOWN))
    except (ValueError, SQLAlchemyError):
        return []


def _context() -> dict[str, Any]:
    notice = read_notice()
    return {"read_notice": notice, "read_differences": _match_differences(notice)}


def register(app: Flask) -> None:
    app.context_processor(_context)
