"""`--match ID`: a whole match id, or (to come) a unique prefix of one."""

from __future__ import annotations

from uuid import UUID

from projections.store.app import MatchStore
from replay_web.cli import UsageProblem
from replay_web.i18n import _


def resolve_match(store: MatchStore, text: str) -> UUID:
    """The stored match (or tournament) `text` names; a usage problem if none or several."""
    try:
        stream = UUID(text)
    except ValueError:
        raise UsageProblem(_("--match {text!r} is not a match id").format(text=text)) from None
    if store.chained.select_head(stream) is None:
        raise UsageProblem(_("--match {text}: no such match in the store").format(text=text))
    return stream
