"""Tournaments and their matches checked against each other: every match a tournament schedules
is in the store, and every match naming a tournament is scheduled there, at its round and
table; for the whole store (`linked`) or one stream read by its key (`linked_one`)."""

from __future__ import annotations

from uuid import UUID

from domain.record.events import MatchCreated, MatchScheduled
from domain.text import say
from projections.store.app import MatchStore
from projections.verify.structure import Broken, category_of, decode_row
from projections.verify.verdicts import Problem, Verdict, with_problems


def linked(store: MatchStore, verdicts: list[Verdict]) -> list[Verdict]:
    """The whole store: every scheduled match is a stored match, and every match naming a
    tournament is scheduled there at its round and table."""
    by_id = {v.stream: v for v in verdicts}
    found: dict[UUID, list[Problem]] = {}
    places: dict[UUID, dict[str, list[tuple[int, int]]]] = {}   # each schedule, by match
    for tournament in verdicts:
        for round_, table, match in tournament.scheduled or ():
            places.setdefault(tournament.stream, {}).setdefault(match, []).append(
                (round_, table))
            problem = _missing(store, by_id, round_, table, match)
            if problem is not None:
                found.setdefault(tournament.stream, []).append(problem)
    for played in verdicts:
        if played.place is None:
            continue
        named = by_id.get(_uuid(played.place[0]) or played.stream)
        if named is None or named.category != "tournament":
            found.setdefault(played.stream, []).append(_no_tournament(played.place[0]))
        elif named.scheduled is not None:
            problem = _unplaced(played, places.get(named.stream, {}).get(str(played.stream), []))
            if problem is not None:
                found.setdefault(played.stream, []).append(problem)
    return [with_problems(v, found[v.stream]) if v.stream in found else v for v in verdicts]


def linked_one(store: MatchStore, verdict: Verdict) -> Verdict:
    """One stream: a match against its tournament's schedule (only the events that name it
    are decoded), a tournament against the first event of each match it schedules."""
    problems: list[Problem] = []
    if verdict.place is not None:
        tournament = _uuid(verdict.place[0])
        rows = store.stored(tournament) if tournament is not None else []
        if not rows or category_of(rows[0]) != "tournament":
            problems.append(_no_tournament(verdict.place[0]))
        else:
            needle = str(verdict.stream).encode()
            scheduled = []
            for row in rows:
                if needle in row.state:
                    try:
                        event, _ = decode_row(store, row)
                    except Broken:
                        continue   # the tournament's own verify names it
                    if isinstance(event, MatchScheduled):
                        scheduled.append((event.round, event.table, event.match))
            problem = _unscheduled(verdict, tuple(scheduled))
            problems.extend([problem] if problem is not None else [])
    for round_, table, match in verdict.scheduled or ():
        problem = _scheduled_one(store, verdict.stream, round_, table, match)
        problems.extend([problem] if problem is not None else [])
    return with_problems(verdict, problems) if problems else verdict


def _scheduled_one(store: MatchStore, tournament: UUID, round_: int, table: int,
                   match: str) -> Problem | None:
    """A match a tournament schedules: stored, and its MatchCreated names that place."""
    stream = _uuid(match)
    first = store.chained.select_events(stream, limit=1) if stream is not None else []
    if stream is None or not first or category_of(first[0]) != "match":
        return _missing(store, {}, round_, table, match)
    try:
        created, _ = decode_row(store, first[0])
    except Broken:
        created = None
    if isinstance(created, MatchCreated) and (created.tournament, created.round,
                                              created.table) == (str(tournament), round_, table):
        return None
    return Problem(None, "tournament", say(
        "round {round}, table {table}: match {match} does not name this tournament at this "
        "round and table", round=round_, table=table, match=match))


def _missing(store: MatchStore, by_id: dict[UUID, Verdict], round_: int, table: int,
             match: str) -> Problem | None:
    stream = _uuid(match)
    found = by_id.get(stream) if stream is not None else None
    if found is not None and found.category == "match" and found.events:
        return None
    if found is None and stream is not None and store.chained.select_head(stream) is not None \
            and store.chained.select_events(stream, limit=1):
        return None   # recorded while verify was reading the store
    return Problem(None, "tournament", say(
        "round {round}, table {table}: the scheduled match {match} is not in the store",
        round=round_, table=table, match=match))


def _unscheduled(match: Verdict, scheduled: tuple[tuple[int, int, str], ...]
                 ) -> Problem | None:
    text = str(match.stream)
    return _unplaced(match, [(r, t) for r, t, m in scheduled if m == text])


def _unplaced(match: Verdict, mine: list[tuple[int, int]]) -> Problem | None:
    """A match against the places (round, table) its tournament schedules it at."""
    assert match.place is not None
    tournament, round_, table = match.place
    if (round_ is None and table is None and mine) or (round_, table) in mine:
        return None
    if round_ is None and table is None:
        return Problem(1, "tournament", say(
            "the match names tournament {tournament}, but the tournament does not schedule it "
            "there", tournament=tournament))
    return Problem(1, "tournament", say(
        "the match names tournament {tournament} at round {round}, table {table}, but the "
        "tournament does not schedule it there", tournament=tournament, round=round_,
        table=table))


def _no_tournament(tournament: str) -> Problem:
    return Problem(1, "tournament", say(
        "the match names tournament {tournament}, which is not in the store",
        tournament=tournament))


def _uuid(text: str) -> UUID | None:
    try:
        return UUID(text)
    except ValueError:
        return None
