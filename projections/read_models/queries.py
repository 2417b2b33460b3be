"""The read models' queries for the match list (what the CLI and the viewer ask; a match's
scores are in scores.py, standings in standings.py; no SQL anywhere else). Each reads in one
transaction, so a page is one consistent view.

The match list is filtered and ordered (newest first, then by id) with the indexes of
schema.py; a player or tournament filter that names part of a name is first resolved against the
small tables of players and tournaments, then applied by index. Ids are shown by their shortest
unique start among the stored matches (at least PREFIX_MINIMUM hex digits), found by the two
neighbours of each shown id in the primary key's order.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sqlalchemy import Engine, Select, String, bindparam, false, func, select
from sqlalchemy.orm import Session

from domain.record.events import ENDINGS
from projections.read_models.schema import (
    Conteggio,
    Giocatore,
    Partita,
    Posto,
    Torneo,
    Verdetto,
)
from projections.read_models.tallies import STORED_MATCHES
from projections.store.listing import format_text

PREFIX_MINIMUM = 8
COUNT_CAP = 10_000
"""A filtered list counts its matches up to this many (or ten pages past the one shown)."""
PAGE_SIZE = 20
HOW_RULING = "ruling"   # the `how` filter for results restated after a ruling
KO_TIEBREAK = "spareggio"
HOWS = (*(e.replace(" ", "-") for e in ENDINGS), HOW_RULING)
"""The `how` filter as the CLI and the viewer write it: a settlement's way of ending (ENDINGS,
"vinco subito" with a dash; "spareggio": a KO tie-break was played), or "ruling" (a result
restated after a ruling)."""
LIST_STATES = ("in-progress", "ended")
"""The `state` filter: matches in progress, or ended."""


@dataclass(frozen=True, slots=True)
class MatchQuery:
    """What to list. `tournament`: the start of its id or part of its name; `player`: part of
    a name (both case-insensitive); `since`/`until`: days YYYY-MM-DD, inclusive; `how`: a
    settlement's way of ending, or "ruling"; `findings`: only matches with (True) or without
    (False) rulings, noted irregularities or findings of verify; `page` counts from 1."""

    game: str | None = None
    tournament: str | None = None
    round: int | None = None
    table: int | None = None
    player: str | None = None
    since: str | None = None
    until: str | None = None
    provenance: str | None = None
    state: str | None = None
    how: str | None = None
    findings: bool | None = None
    page: int = 1
    size: int = PAGE_SIZE


@dataclass(frozen=True, slots=True)
class MatchRow:
    stream: str
    prefix: str
    created: str
    game: str
    tournament: str | None
    tournament_name: str | None
    round: int | None
    table: int | None
    players: tuple[str, ...]
    sides: tuple[int, ...]
    match_format: str
    flags: tuple[str, ...]   # the format's flags that are on (ko, cappotto_ends, ...)
    provenance: str | None
    state: str
    how: str | None
    ruled: bool
    scores: tuple[int, int] | None
    unit: str | None
    winner: int | None
    mp: int | None
    vp: tuple[int, int] | None
    mp_per_side: tuple[int, int] | None
    smazzate: int
    spareggi: int
    rulings: int
    irregularities: int
    verdict: str | None       # None: verify has not checked the match as it now stands
    findings: int | None

    @property
    def winners(self) -> tuple[str, ...] | None:
        """The winning side's players in seat order; () for a draw; None in progress."""
        if self.state != "ended":
            return None
        if self.winner is None:
            return ()
        return tuple(n for n, s in zip(self.players, self.sides, strict=True)
                     if s == self.winner)


@dataclass(frozen=True, slots=True)
class MatchPage:
    rows: tuple[MatchRow, ...]
    total: int          # matching the filters, all pages (at least, when not `exact`)
    stored: int         # every match stored
    page: int
    size: int
    exact: bool = True  # False: more than `total` match; counting them all would be slow

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.size))


def match_page(engine: Engine, query: MatchQuery) -> MatchPage:
    """One page of the match list."""
    with Session(engine) as session, session.begin():
        where = _conditions(session, query)
        # The page's ids first, by an index (a deep page skips index entries, not joined
        # rows), then their rows.
        ids = (select(Partita.stream).where(*where).order_by(*_NEWEST_FIRST)
               .limit(query.size).offset((max(query.page, 1) - 1) * query.size))
        base = select(Partita, Torneo.name, Verdetto).outerjoin(
            Torneo, Torneo.stream == Partita.tournament).outerjoin(
            Verdetto, Verdetto.stream == Partita.stream)
        listed = session.execute(
            base.where(Partita.stream.in_(ids)).order_by(*_NEWEST_FIRST)).all()
        stored = session.scalar(select(Conteggio.value).where(
            Conteggio.name == STORED_MATCHES)) or 0
        total, exact = (stored, True) if not where else _bounded_count(
            session, where, max(COUNT_CAP, query.page * query.size * 10))
        prefixes = shortest_prefixes(session, [partita.stream for partita, _, _ in listed])
        rows = tuple(match_row(session, partita, name, verdict, prefixes[partita.stream])
                     for partita, name, verdict in listed)
    return MatchPage(rows, total, stored, max(query.page, 1), query.size, exact)


def _bounded_count(session: Session, where: list[Any], cap: int) -> tuple[int, bool]:
    """How many matches pass the filters, counting no further than `cap` (an exact count of a
    broad filter reads every index entry it passes); (cap, False) when more pass."""
    passing = select(Partita.stream).where(*where).limit(cap + 1).subquery()
    found = session.scalar(select(func.count()).select_from(passing)) or 0
    return (cap, False) if found > cap else (found, True)


_NEWEST_FIRST = (Partita.day.desc(), Partita.created.desc(), Partita.stream.desc())
"""The list's order: newest first (day is created's date: the order is created's, and it is
that of the list's indexes, schema.py)."""


def _conditions(session: Session, query: MatchQuery) -> list[Any]:
    where: list[Any] = []
    simple = ((Partita.game, query.game), (Partita.round, query.round),
              (Partita.table_number, query.table), (Partita.provenance, query.provenance),
              (Partita.state, query.state))
    where.extend(column == value for column, value in simple if value is not None)
    if query.since is not None:
        where.append(Partita.day >= query.since)
    if query.until is not None:
        where.append(Partita.day <= query.until)
    if query.how == HOW_RULING:
        where.append(Partita.ruled.is_(True))
    elif query.how == KO_TIEBREAK:
        where.append(Partita.spareggi > 0)
    elif query.how is not None:
        where.append(Partita.how == query.how)
    if query.tournament is not None:
        where.append(Partita.tournament.in_(tournaments_named(session, query.tournament)))
    if query.player is not None:
        names = players_named(session, query.player)
        where.append(Partita.stream.in_(select(Posto.stream).where(Posto.player.in_(names)))
                     if names else false())
    if query.findings is not None:
        where.append(_has_findings() if query.findings else ~_has_findings())
    return where


def _has_findings() -> Any:
    checked = select(Verdetto.stream).where(Verdetto.findings > 0)
    return (Partita.rulings > 0) | (Partita.irregularities > 0) | Partita.stream.in_(checked)


def tournaments_named(session: Session, text: str) -> list[str]:
    """The tournaments whose id starts with `text` or whose name contains it."""
    wanted = text.strip().lower()
    digits = wanted.replace("-", "")
    found = []
    for stream, name in session.execute(select(Torneo.stream, Torneo.name)):
        if (digits and stream.replace("-", "").startswith(digits)) or wanted in name.lower():
            found.append(stream)
    return found


def players_named(session: Session, text: str) -> list[str]:
    """The players whose name contains `text` (case-insensitive)."""
    wanted = text.strip().lower()
    return [name for name in session.scalars(select(Giocatore.name)) if wanted in name.lower()]


def match_row(session: Session, partita: Partita, tournament_name: str | None,
         verdict: Verdetto | None, prefix: str | None = None) -> MatchRow:
    ended = partita.state == "ended"
    current = verdict is not None and verdict.version >= partita.version
    return MatchRow(
        stream=partita.stream,
        prefix=shortest_prefix(session, partita.stream) if prefix is None else prefix,
        created=partita.created, game=partita.game, tournament=partita.tournament,
        tournament_name=tournament_name, round=partita.round, table=partita.table_number,
        players=tuple(json.loads(partita.players)), sides=tuple(json.loads(partita.sides)),
        match_format=partita.match_format,
        flags=_flags(partita.game, partita.format_options), provenance=partita.provenance,
        state=partita.state,
        how=partita.how, ruled=partita.ruled,
        scores=(partita.score_0, partita.score_1) if ended else None,  # type: ignore[arg-type]
        unit=partita.unit, winner=partita.winner, mp=partita.mp,
        vp=pair(partita.vp_0, partita.vp_1), mp_per_side=pair(partita.mp_0, partita.mp_1),
        smazzate=partita.smazzate, spareggi=partita.spareggi, rulings=partita.rulings,
        irregularities=partita.irregularities,
        verdict=verdict.verdict if verdict is not None and current else None,
        findings=verdict.findings if verdict is not None and current else None)


@lru_cache(maxsize=256)
def _flags(game: str, options: str) -> tuple[str, ...]:
    return format_text(game, json.loads(options)).flags


def pair(a: int | None, b: int | None) -> tuple[int, int] | None:
    return None if a is None or b is None else (a, b)


def shortest_prefix(session: Session, stream: str, minimum: int = PREFIX_MINIMUM) -> str:
    """The shortest start of `stream` (hex, no dashes) that no other stored match shares."""
    return shortest_prefixes(session, [stream], minimum)[stream]


def shortest_prefixes(session: Session, streams: Sequence[str],
                      minimum: int = PREFIX_MINIMUM) -> dict[str, str]:
    """shortest_prefix of each of `streams`, every neighbour read in one statement (a page's
    ids in one round trip)."""
    if not streams:
        return {}
    found = session.execute(_neighbours(len(streams)),
                            {f"s{n}": stream for n, stream in enumerate(streams)}).one()
    return {stream: _prefix(stream, found[2 * n], found[2 * n + 1], minimum)
            for n, stream in enumerate(streams)}


@lru_cache(maxsize=32)
def _neighbours(count: int) -> Select[Any]:
    """The stored ids before and after each of `count` ids (parameters s0, s1, ...): the
    statement is built once per count, not per page."""
    columns = []
    for n in range(count):
        stream = bindparam(f"s{n}", type_=String)
        columns.append(select(Partita.stream).where(Partita.stream < stream)
                       .order_by(Partita.stream.desc()).limit(1).scalar_subquery())
        columns.append(select(Partita.stream).where(Partita.stream > stream)
                       .order_by(Partita.stream).limit(1).scalar_subquery())
    return select(*columns)


def _prefix(stream: str, before: str | None, after: str | None, minimum: int) -> str:
    digits = stream.replace("-", "")
    shared = max((_common(digits, other.replace("-", "")) for other in (before, after)
                  if other is not None), default=0)
    return digits[:max(minimum, shared + 1)]


def _common(a: str, b: str) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def matches_starting(engine: Engine, digits: str, limit: int) -> list[str]:
    """Up to `limit` stored match ids whose hex digits start with `digits`, in id order."""
    digits = digits.replace("-", "").lower()
    if not digits:
        return []
    dashed = "-".join(filter(None, (digits[0:8], digits[8:12], digits[12:16], digits[16:20],
                                    digits[20:32])))
    upper = dashed[:-1] + chr(ord(dashed[-1]) + 1)
    with Session(engine) as session:
        return list(session.scalars(select(Partita.stream).where(
            Partita.stream >= dashed, Partita.stream < upper).order_by(Partita.stream)
            .limit(limit)))


def one_match(engine: Engine, stream: str) -> MatchRow | None:
    """One match's row of the list (its result, VP, verdict) in one query: what a match page's
    header and badges need; None when the read models do not have it."""
    with Session(engine) as session, session.begin():
        found = session.execute(
            select(Partita, Torneo.name, Verdetto)
            .outerjoin(Torneo, Torneo.stream == Partita.tournament)
            .outerjoin(Verdetto, Verdetto.stream == Partita.stream)
            .where(Partita.stream == stream)).first()
        if found is None:
            return None
        partita, name, verdict = found
        return match_row(session, partita, name, verdict, prefix=stream[:PREFIX_MINIMUM])
