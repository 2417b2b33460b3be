"""The stored deals a fairness report is about: matches picked by their first event, deals read
off the few events the battery needs (docs/fairness.md, "Which deals").

The matches come from the store's listing (projections/store/listing.py: each stream's first
event, one look-up each; the endings from the last events): the filters on the match (game,
tournament, provenance) are applied there, without reading a whole stream. Of each match kept,
only the events a deal record needs are decoded (MatchCreated, SmazzataDealt, SmazzataEnded,
SeedRevealed, MatchSeedRevealed): the plays, most of a stream, are read but never decoded.

Only ended matches are read. A match in progress still has hands nobody has seen, and a report
is public (the viewer's page): its deals wait for its end, and the report says how many matches
it left out for that. The filters on a deal (the day it was dealt, its dealer, the ruleset of its
match) are applied to the records.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import cast

from domain.record.clock import parse_stamp
from domain.record.events import MatchCreated
from domain.text import say
from projections.fairness.deals import DealRecord, deal_records
from projections.store.app import MatchStore
from projections.store.facts import TOPIC_OF, StoredFact
from projections.store.listing import Filters, MatchSummary, list_matches

NEEDED = frozenset(TOPIC_OF[name] for name in (
    "MatchCreated", "SmazzataDealt", "SmazzataEnded", "SeedRevealed", "MatchSeedRevealed"))
"""The stored events a deal record is made of; the others are not decoded."""


class SelectionError(ValueError):
    """A filter that cannot be read (a ruleset option not written NAME=VALUE, an empty dealer)."""


@dataclass(frozen=True, slots=True)
class Criteria:
    """Which deals. `tournament`: the start of its id or a part of its name; `since`, `until`:
    the days (UTC) the deal was dealt on, both included; `ruleset`: options (name, value) the
    match's ruleset must have, as stored; `dealer`: a seat counted from 1, or a part of the
    dealer's name (case-insensitive); `provenance`: live, simulated or transcribed."""

    tournament: str | None = None
    since: date | None = None
    until: date | None = None
    game: str | None = None
    ruleset: tuple[tuple[str, str], ...] = ()
    dealer: str | None = None
    provenance: str | None = None

    def as_dict(self) -> dict[str, object]:
        return {"tournament": self.tournament,
                "since": self.since.isoformat() if self.since else None,
                "until": self.until.isoformat() if self.until else None,
                "game": self.game, "ruleset": dict(self.ruleset), "dealer": self.dealer,
                "provenance": self.provenance}


def ruleset_option(text: str) -> tuple[str, str]:
    """`redeal=tre-re` as (name, value), the name written with '_' as the store keeps it."""
    name, sep, value = text.partition("=")
    name, value = name.strip().replace("-", "_"), value.strip()
    if not sep or not name or not value:
        raise SelectionError(say("{text!r} is not a ruleset option NAME=VALUE (e.g. "
                                 "redeal=tre-re)", text=text))
    return name, value


@dataclass(frozen=True, slots=True)
class Selection:
    """The deals chosen (transcribed ones among them: the battery counts those apart), the
    ended matches they come from, and the matches left out because they are in progress."""

    records: tuple[DealRecord, ...]
    matches: int
    in_progress: int


Each = Callable[[Sequence[MatchSummary]], Iterable[MatchSummary]]


def select_deals(store: MatchStore, criteria: Criteria,
                 each: Each = lambda matches: matches) -> Selection:
    """The deals of the ended matches that pass `criteria` (`each` wraps the matches read, for
    a progress bar)."""
    if criteria.dealer is not None and not criteria.dealer.strip():
        raise SelectionError(say("the dealer is a seat number or a part of a name, not empty"))
    listed = list_matches(store, Filters(game=criteria.game, tournament=criteria.tournament,
                                         provenance=criteria.provenance)).matches
    ended = [m for m in listed if m.ending is not None and _created_in_time(m, criteria)]
    records: list[DealRecord] = []
    read = 0
    for summary in each(ended):
        match_records = _match_deals(store, summary, criteria)
        if match_records is not None:
            read += 1
            records += match_records
    return Selection(tuple(records), read, sum(m.ending is None for m in listed))


def _created_in_time(summary: MatchSummary, criteria: Criteria) -> bool:
    """A match created after the last day has no deal on it (a quick pre-filter)."""
    return criteria.until is None or parse_stamp(summary.created).date() <= criteria.until


def _match_deals(store: MatchStore, summary: MatchSummary,
                 criteria: Criteria) -> list[DealRecord] | None:
    timed: list[tuple[object, datetime | None]] = []
    for stored in store.stored(summary.stream):
        if stored.topic in NEEDED:
            fact = cast(StoredFact, store.mapper.to_domain_event(stored))
            timed.append((fact.to_domain(), parse_stamp(fact.timestamp)))
    created = next((e for e, _ in timed if isinstance(e, MatchCreated)), None)
    if created is None or not _ruleset_passes(created, criteria.ruleset):
        return None
    keep = _deal_filter(created, criteria)
    return [r for r in deal_records(str(summary.stream), timed) if keep(r)]


def _ruleset_passes(created: MatchCreated, wanted: tuple[tuple[str, str], ...]) -> bool:
    options = {k: str(v).lower() for k, v in created.ruleset.items()}
    return all(options.get(name) == value.lower() for name, value in wanted)


def _deal_filter(created: MatchCreated, criteria: Criteria) -> Callable[[DealRecord], bool]:
    dealer = criteria.dealer.strip() if criteria.dealer is not None else None
    seats: frozenset[int] | None = None
    if dealer is not None:
        seats = frozenset({int(dealer) - 1} if dealer.isdigit() else
                          (s for s, name in enumerate(created.players)
                           if dealer.casefold() in name.casefold()))

    def keep(record: DealRecord) -> bool:
        if seats is not None and record.dealer not in seats:
            return False
        day = record.dealt_at.date() if record.dealt_at is not None else None
        if criteria.since is not None and (day is None or day < criteria.since):
            return False
        return criteria.until is None or (day is not None and day <= criteria.until)
    return keep


__all__ = ["NEEDED", "Criteria", "Selection", "SelectionError", "ruleset_option",
           "select_deals"]
