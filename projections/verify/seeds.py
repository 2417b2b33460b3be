"""`verbale verify` of a tournament's seeds (docs/shuffle.md, "Tournament seed commitment").

The tournament's own events are re-decided with the rest of its stream (rules.py): the
commitment before any match is scheduled, each reveal against the root. This module adds what
needs the matches: each scheduled match's MatchCreated (its first event, one key lookup) must come
after the commitment, and in a revealed session commit to the match seed the session gives its
table. A tournament without a seed commitment is checked as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, cast
from uuid import UUID

from domain.record.clock import parse_stamp
from domain.record.events import (
    MatchCreated,
    MatchScheduled,
    SessionSeedRevealed,
    TournamentSeedsCommitted,
)
from domain.record.tournament import (
    TournamentEvent,
    TournamentState,
    decide_seed_commitment,
    decide_session_reveal,
)
from domain.record.tournament_seeds import Finding, seed_findings
from projections.store.app import MatchStore
from projections.store.facts import StoredFact


def redecide(state: TournamentState, event: object) -> tuple[TournamentEvent, ...] | None:
    """The events the tournament would record for `event`'s command (None: not a seed event)."""
    if isinstance(event, TournamentSeedsCommitted):
        return decide_seed_commitment(state, event.root, event.sessions, event.reference)
    if isinstance(event, SessionSeedRevealed):
        return decide_session_reveal(state, event)
    return None


def seed_problems(store: MatchStore, decoded: Sequence[tuple[object, datetime]]) -> list[Finding]:
    """The findings on the seeds of a tournament whose events decoded and re-decided cleanly."""
    commitment = next(((n, at, e) for n, (e, at) in enumerate(decoded, start=1)
                       if isinstance(e, TournamentSeedsCommitted)), None)
    if commitment is None:
        return []
    reveals = {e.session: e for e, _ in decoded if isinstance(e, SessionSeedRevealed)}
    scheduled = [(n, e.round, e.table, e.match) for n, (e, _) in enumerate(decoded, start=1)
                 if isinstance(e, MatchScheduled)]
    created = {match: made for _, _, _, match in scheduled
               if (made := _created(store, match)) is not None}
    return seed_findings(commitment, reveals, scheduled, created)


def _created(store: MatchStore, match: str) -> tuple[datetime, str | None] | None:
    """The creation time and match seed commitment of a stored match (None: not readable as
    one: the schedule's own check names it)."""
    try:
        rows = store.chained.select_events(UUID(match), limit=1)
        fact = cast(StoredFact, store.mapper.to_domain_event(rows[0]))
        event: Any = fact.to_domain()
        at = parse_stamp(fact.timestamp)
    except (ValueError, TypeError, LookupError, AttributeError):
        return None
    if not isinstance(event, MatchCreated):
        return None
    return at, event.match_seed_commitment
