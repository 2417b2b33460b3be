"""`--match ID`: a whole match id, or a unique start of one (at least 4 hex digits, dashes
optional), as `verbale matches` prints it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TypeVar
from uuid import UUID

from projections.store.app import MatchStore
from replay_web.cli import UsageProblem
from replay_web.i18n import _

PREFIX_MINIMUM = 4
CANDIDATES_SHOWN = 5
_HEX = re.compile(r"[0-9a-f]+")
T = TypeVar("T")


def check_match_text(text: str) -> None:
    """A usage problem if `text` cannot name a match (whatever the store holds, so that it can
    be said before the store is opened)."""
    digits = text.strip().replace("-", "").lower()
    if len(digits) < PREFIX_MINIMUM or len(digits) > 32 or not _HEX.fullmatch(digits):
        raise UsageProblem(_("--match {text!r} is not a match id nor the start of one (at "
                             "least {minimum} hex digits)").format(text=text,
                                                                   minimum=PREFIX_MINIMUM))


def resolve_match(store: MatchStore, text: str) -> UUID:
    """The stored match (or tournament) `text` names; a usage problem if none or several."""
    given = text.strip()
    digits = given.replace("-", "").lower()
    try:
        stream = UUID(given)
    except ValueError:
        pass
    else:
        if store.chained.select_head(stream) is None and not store.streams_starting(
                stream.hex, 1):
            raise UsageProblem(_("--match {text}: no such match in the store").format(
                text=given))
        return stream
    check_match_text(text)
    return only_one(given, store.streams_starting(digits, CANDIDATES_SHOWN + 1))


def only_one(given: str, found: Sequence[T]) -> T:
    """The one match found for `--match given`; a usage problem if none or several (up to
    CANDIDATES_SHOWN + 1 found are enough to say so)."""
    if not found:
        raise UsageProblem(_("--match {text}: no match starts with {text}").format(text=given))
    if len(found) > 1:
        shown = ", ".join(str(stream) for stream in found[:CANDIDATES_SHOWN])
        more = _(", ...") if len(found) > CANDIDATES_SHOWN else ""
        raise UsageProblem(_("--match {text}: several matches start with {text}: {candidates}"
                             "{more}; give more of the id").format(
                                 text=given, candidates=shown, more=more))
    return found[0]
