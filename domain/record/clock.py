"""Timestamps of the record and the clock arithmetic that justifies a timeout or an abandon.

A timestamp is UTC with microseconds, written `YYYY-MM-DDTHH:MM:SS.ffffffZ` (docs/events.md):
one spelling per instant, so the canonical JSON of an event, and its hash, has one form. The
domain has no clock: every time comes in with the command that caused it.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from domain.text import say

_STAMP = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z")


class ClockError(ValueError):
    """A timestamp that is not UTC, not in the record's spelling, or goes backwards."""


def utc(moment: datetime) -> datetime:
    """`moment` as UTC; a naive datetime is refused, since its zone is unknown."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ClockError(say("timestamp {timestamp} has no time zone; the record is UTC",
                             timestamp=moment.isoformat()))
    return moment.astimezone(UTC)


def stamp(moment: datetime) -> str:
    m = moment if moment.tzinfo is UTC else utc(moment)
    return m.replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


def parse_stamp(text: str) -> datetime:
    if not isinstance(text, str) or not _STAMP.fullmatch(text):
        raise ClockError(say("timestamp {timestamp!r} is not of the form "
                             "YYYY-MM-DDTHH:MM:SS.ffffffZ", timestamp=text))
    try:   # with its "Z", fromisoformat gives UTC itself: a `replace` would cost twice the parse
        return datetime.fromisoformat(text)
    except ValueError as error:   # a value out of range: the message names the field alone
        raise ClockError(say("timestamp {timestamp!r} is not a date and time: {error}",
                             timestamp=text, error=str(error))) from None


def millis(span: timedelta) -> int:
    """Whole milliseconds of a span (floor), the unit of the clock readings in events."""
    return span // timedelta(milliseconds=1)
