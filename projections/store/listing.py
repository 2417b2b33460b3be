"""The stored matches, listed from the store without replaying them (`verbale matches`).

A few targeted reads instead of loading every stream: each stream's first event (its
`MatchCreated`, or a tournament's `TournamentCreated`) through its head, one primary-key lookup
each; the `MatchEnded` among the last events of the selected matches (the last one is there:
docs/events.md section 3, only seed reveals and a ruling's restated result come after an end);
and per match the count of its rulings and noted irregularities from the topic column. The read
models of the next issue will serve this from tables of their own; these functions only read.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar, cast
from uuid import UUID

from eventsourcing.persistence import StoredEvent

from domain.match_format import MatchFormatError
from domain.record.catalog import parse_format
from domain.record.events import MatchCreated, MatchEnded, TournamentCreated
from projections.store.app import MatchStore
from projections.store.facts import TOPIC_OF, StoredFact

PREFIX_MINIMUM = 8
TAIL = 4   # the last MatchEnded of an ended match is among its last 3 events; one more to spare
STATES = ("in-progress", "ended")
CHUNK = 2000   # streams per query of the last events and of the counts
T = TypeVar("T")
_RULING, _IRREGULARITY, _ENDED, _RESUMED = (
    TOPIC_OF[name] for name in ("RulingRecorded", "IrregularityNoted", "MatchEnded",
                                "MatchResumed"))
_FLAG_NAMES = ("ko", "cappotto_ends", "vinco_subito", "target_strict",
               "vinco_subito_ends_smazzata_only", "smazzate_pari", "vp", "cappotto_waits_end")


@dataclass(frozen=True, slots=True)
class Ending:
    """How a match ended, from its last `MatchEnded`: `how` (a settlement's way, else the
    event's reason), the scores per side (side of seat 0 first) in `unit`, the winning side
    (None: drawn)."""

    how: str
    scores: tuple[int, int]
    winner: int | None
    unit: str


@dataclass(frozen=True, slots=True)
class MatchFormatText:
    kind: str
    length: int
    text: str               # "21pt", "3smazzate", "punti"
    flags: tuple[str, ...]  # the format's flags that are on, by their stored names


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """One stored match, as listed."""

    stream: UUID
    prefix: str          # the shortest unique start of its id among all streams (>= 8 hex)
    created: str         # timestamp of MatchCreated
    game: str
    players: tuple[str, ...]
    sides: tuple[int, ...]
    match_format: MatchFormatText
    provenance: str | None   # None: a version-1 record, not recorded
    tournament: str | None
    tournament_name: str | None
    round: int | None
    table: int | None
    events: int
    ending: Ending | None    # None: in progress
    rulings: int
    irregularities: int

    @property
    def state(self) -> str:
        return "in-progress" if self.ending is None else "ended"

    @property
    def winners(self) -> tuple[str, ...] | None:
        """The winning side's players, seat order; () for a draw; None in progress."""
        if self.ending is None:
            return None
        side = self.ending.winner
        return () if side is None else tuple(
            name for name, of in zip(self.players, self.sides, strict=True) if of == side)


@dataclass(frozen=True, slots=True)
class Filters:
    """What to list. `tournament`: the start of the tournament's id or a part of its name;
    `player`: a part of a player's name (both case-insensitive); `state`: one of STATES;
    `limit`: the first n of the listing (newest first)."""

    game: str | None = None
    tournament: str | None = None
    player: str | None = None
    provenance: str | None = None
    state: str | None = None
    limit: int | None = None


@dataclass(frozen=True, slots=True)
class Listing:
    matches: list[MatchSummary]
    total: int               # stored matches, before the filters
    unreadable: list[UUID]   # streams whose first event could not be decoded (run verify)


@dataclass(frozen=True, slots=True)
class _Created:
    stream: UUID
    created: str
    match: MatchCreated
    events: int


class Each(Protocol):
    """A wrapper over the items of a long step (replay_web.progress.progress draws a bar);
    `step` is "matches" (reading the first events), "results" or "counts"."""

    def __call__(self, items: Iterable[T], total: int | None, step: str) -> Iterable[T]: ...


def _plain(items: Iterable[T], total: int | None, step: str) -> Iterable[T]:
    return items


def list_matches(store: MatchStore, filters: Filters = Filters(), each: Each = _plain,
                 chunk: int = CHUNK) -> Listing:
    """The stored matches that pass `filters`, newest first (then by tournament, round, table
    and id). `each` wraps the long steps (a progress bar), `chunk` streams at a time."""
    firsts = store.chained.select_first_events()
    ordered = sorted(_stream(stored).hex for stored, _ in firsts)
    matches, names, unreadable = _first_events(store, each(firsts, len(firsts), "matches"))
    chosen = [m for m in matches if _passes(m, filters, names)]
    chosen.sort(key=lambda m: (m.match.tournament or "", m.match.round or 0,
                               m.match.table or 0, m.stream.hex))
    chosen.sort(key=lambda m: m.created, reverse=True)
    if filters.state is None and filters.limit is not None:
        chosen = chosen[:filters.limit]
    endings: dict[UUID, Ending] = {}
    groups = _groups([m.stream for m in chosen], chunk)
    for group in each(groups, len(groups), "results"):
        endings.update(_endings(store, group))
    if filters.state is not None:
        chosen = [m for m in chosen if (m.stream in endings) == (filters.state == "ended")]
        chosen = chosen[:filters.limit]
    counts: dict[tuple[UUID, str], int] = {}
    groups = _groups([m.stream for m in chosen], chunk)
    for group in each(groups, len(groups), "counts"):
        counts.update(store.chained.count_topics(group, (_RULING, _IRREGULARITY, _ENDED,
                                                         _RESUMED)))
    listed: list[MatchSummary] = []
    for made in chosen:
        ending = endings.get(made.stream)
        if ending is None and counts.get((made.stream, _ENDED), 0) > counts.get(
                (made.stream, _RESUMED), 0):
            # Never expected (docs/events.md section 3): an end further back than the tail.
            ending = _last_ending(store.stored(made.stream), store)
        listed.append(_summary(made, prefix_in(ordered, made.stream), names, ending,
                               counts.get((made.stream, _RULING), 0),
                               counts.get((made.stream, _IRREGULARITY), 0)))
    return Listing(listed, len(matches), unreadable)


def _groups(streams: list[UUID], chunk: int) -> list[list[UUID]]:
    return [streams[i:i + chunk] for i in range(0, len(streams), chunk)]


def prefix_in(ordered: Sequence[str], stream: UUID, minimum: int = PREFIX_MINIMUM) -> str:
    """The shortest start of `stream` (at least `minimum` hex digits) that no other id of
    `ordered` (sorted 32-digit hex ids, `stream`'s among them) shares, written as the start of
    the id's usual form (a dash after 8 digits, ...)."""
    digits = stream.hex
    index = bisect_left(ordered, digits)
    shared = max(_common(digits, ordered[index - 1]) if index else 0,
                 _common(digits, ordered[index + 1]) if index + 1 < len(ordered) else 0)
    return _with_dashes(digits, min(32, max(minimum, shared + 1)))


def shortest_prefixes(streams: Iterable[UUID], minimum: int = PREFIX_MINIMUM) -> dict[UUID, str]:
    """For each id, its shortest unique start among `streams` (prefix_in)."""
    ordered = sorted({s.hex for s in streams})
    return {UUID(digits): prefix_in(ordered, UUID(digits), minimum) for digits in ordered}


def _stream(stored: StoredEvent) -> UUID:
    found = stored.originator_id
    return found if isinstance(found, UUID) else UUID(found)


def _common(a: str, b: str) -> int:
    n = 0
    while n < len(a) and a[n] == b[n]:
        n += 1
    return n


def _with_dashes(digits: str, length: int) -> str:
    text = str(UUID(digits))
    taken = 0
    for position, char in enumerate(text):
        if char != "-":
            taken += 1
            if taken == length:
                return text[:position + 1]
    return text


def _first_events(store: MatchStore, firsts: Iterable[tuple[StoredEvent, int]]
                  ) -> tuple[list[_Created], dict[str, str], list[UUID]]:
    """The matches with their creation, the tournaments' names by id, the unreadable streams."""
    matches: list[_Created] = []
    names: dict[str, str] = {}
    unreadable: list[UUID] = []
    for stored, version in firsts:
        try:
            fact = cast(StoredFact, store.mapper.to_domain_event(stored))
            event = fact.to_domain()
        except Exception:   # a damaged or foreign record: listed apart, verify says why
            unreadable.append(_stream(stored))
            continue
        if isinstance(event, MatchCreated):
            matches.append(_Created(_stream(stored), fact.timestamp, event, version))
        elif isinstance(event, TournamentCreated):
            names[str(_stream(stored))] = event.name
    return matches, names, unreadable


def _passes(made: _Created, filters: Filters, names: dict[str, str]) -> bool:
    match = made.match
    if filters.game is not None and match.game != filters.game:
        return False
    provenance = match.provenance.kind if match.provenance is not None else None
    if filters.provenance is not None and provenance != filters.provenance:
        return False
    if filters.player is not None:
        wanted = filters.player.casefold()
        if not any(wanted in name.casefold() for name in match.players):
            return False
    if filters.tournament is not None:
        return _in_tournament(match.tournament, names, filters.tournament)
    return True


def _in_tournament(tournament: str | None, names: dict[str, str], wanted: str) -> bool:
    if tournament is None:
        return False
    start = wanted.replace("-", "").lower()
    if start and tournament.replace("-", "").lower().startswith(start):
        return True
    return wanted.casefold() in names.get(tournament, "").casefold()


def _endings(store: MatchStore, streams: Sequence[UUID]) -> dict[UUID, Ending]:
    by_stream: dict[UUID, list[StoredEvent]] = {}
    for stored in store.chained.select_last_events(streams, TAIL, _ENDED):
        by_stream.setdefault(_stream(stored), []).append(stored)
    # A resumed match (MatchResumed, after a ruling) is in progress again: its MatchEnded, still
    # in the tail, is no longer its result.
    for stored in store.chained.select_last_events(list(by_stream), TAIL, _RESUMED):
        by_stream[_stream(stored)].append(stored)
    found: dict[UUID, Ending] = {}
    for stream, tail in by_stream.items():
        tail.sort(key=lambda stored: stored.originator_version)
        ending = _last_ending(tail, store)
        if ending is not None:
            found[stream] = ending
    return found


def _last_ending(events: Sequence[StoredEvent], store: MatchStore) -> Ending | None:
    for stored in reversed(events):
        if stored.topic == _RESUMED:
            return None
        if stored.topic != _ENDED:
            continue
        fact = cast(StoredFact, store.mapper.to_domain_event(stored))
        ended = cast(MatchEnded, fact.to_domain())
        settlement = ended.settlement
        how = settlement.how if settlement is not None else ended.reason
        unit = settlement.unit if settlement is not None else "punti"
        return Ending(how, (ended.scores[0], ended.scores[1]), ended.winner, unit)
    return None


def _summary(made: _Created, prefix: str, names: dict[str, str], ending: Ending | None,
             rulings: int, irregularities: int) -> MatchSummary:
    match = made.match
    return MatchSummary(
        stream=made.stream, prefix=prefix, created=made.created, game=match.game,
        players=tuple(match.players), sides=tuple(match.sides),
        match_format=format_text(match.game, dict(match.match_format)),
        provenance=match.provenance.kind if match.provenance is not None else None,
        tournament=match.tournament,
        tournament_name=names.get(match.tournament) if match.tournament else None,
        round=match.round, table=match.table, events=made.events, ending=ending,
        rulings=rulings, irregularities=irregularities)


def format_text(game: str, options: dict[str, str]) -> MatchFormatText:
    """A stored match format for people: '21pt', '3smazzate', 'punti', and its flags."""
    flags = tuple(name for name in _FLAG_NAMES if options.get(name) == "true")
    try:
        fmt = parse_format(game, options)
    except MatchFormatError:
        kind, length = options.get("kind", "?"), options.get("length", "0")
        return MatchFormatText(kind, int(length) if length.isdigit() else 0,
                               f"{kind} {length}", flags)
    return MatchFormatText(fmt.kind.value, fmt.length, fmt.text, flags)
