"""What depends on several events of a match, recomputed from its rows: which smazzate count
and which were KO spareggi, the running totals, the result's VP and MP from the VP table its
tournament uses, and the result's share in its lines' standings and its players' records.

A restated result (a MatchEnded after a ruling) first takes back the share of the result it
replaces (`contribute(..., -1)`), so every total follows the last result, in an incremental run
as in a rebuild.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, TypeVar, cast

from sqlalchemy import select
from sqlalchemy.orm import Session

from domain.match_format import (
    MatchFormat,
    MatchFormatError,
    SmazzataResult,
    match_status,
    smazzata_winner,
)
from domain.record.catalog import parse_format
from domain.record.events import MatchEnded, TournamentCreated
from domain.vp_table import STANDARD, VpTable, parse_vp_table, settled_vp, table_of
from projections.read_models.schema import (
    ENDED,
    IN_PROGRESS,
    Andamento,
    Conteggio,
    Giocatore,
    Linea,
    Partita,
    Smazzata,
    Torneo,
)

LINE_JOIN = " e "
"""How the names of a pair make its line's name ("Anna e Carla")."""

R = TypeVar("R")
_ROWS = "read_model_rows"
_SMAZZATE = "read_model_smazzate"   # the Smazzata rows held, by stream and number
_ALL_HELD = "read_model_all_smazzate_held"   # the streams whose Smazzata rows are all held


def row_of(session: Session, kind: type[R], key: object) -> R | None:
    """The row of `kind` with primary key `key`, held for the session's transaction.

    The session's identity map holds its rows weakly: without this, a row not changed since its
    last read would be read again from the database for each event that needs it.
    """
    rows: dict[tuple[type[Any], object], Any] = session.info.setdefault(_ROWS, {})
    found = rows.get((kind, key))
    if found is None:
        with session.no_autoflush:   # the rows held are found without a flush
            found = session.get(kind, key)
        if found is not None:
            _hold(session, kind, key, found)
    return cast("R | None", found)


def new_row(session: Session, key: object, row: R) -> R:
    """Add a new row, held like those of row_of (found without flushing)."""
    session.add(row)
    _hold(session, type(row), key, row)
    if type(row) is Partita:   # a new match: none of its smazzate is stored, all are held
        session.info.setdefault(_ALL_HELD, set()).add(key)
    return row


def _hold(session: Session, kind: type[Any], key: object, row: Any) -> None:
    session.info.setdefault(_ROWS, {})[(kind, key)] = row
    if kind is Smazzata:   # also by stream, for _ended_smazzate
        stream, number = cast(tuple[str, int], key)
        _held_smazzate(session, stream)[number] = row


def _held_smazzate(session: Session, stream: str) -> dict[int, Smazzata]:
    by_stream: dict[str, dict[int, Smazzata]] = session.info.setdefault(_SMAZZATE, {})
    return by_stream.setdefault(stream, {})


def _ended_smazzate(session: Session, stream: str) -> list[Smazzata]:
    """The match's ended smazzate in order: those stored merged with those held, unflushed.
    The stored ones are read once per transaction: from then on all of them are held."""
    all_held: set[str] = session.info.setdefault(_ALL_HELD, set())
    held = _held_smazzate(session, stream)
    if stream not in all_held:
        with session.no_autoflush:
            stored = session.scalars(select(Smazzata).where(Smazzata.stream == stream)).all()
        for row in stored:
            if row.number not in held:   # a held row is the stored one or not yet flushed
                _hold(session, Smazzata, (stream, row.number), row)
        all_held.add(stream)
    return sorted((row for row in held.values() if row.ended), key=lambda r: r.number)


STORED_MATCHES = "partite"


def count(session: Session, name: str) -> Conteggio:
    row = row_of(session, Conteggio, name)
    if row is None:
        row = new_row(session, name, Conteggio(name=name, value=0))
    return row


def player(session: Session, name: str) -> Giocatore:
    row = row_of(session, Giocatore, name)
    if row is None:
        row = new_row(session, name, Giocatore(
            name=name, matches=0, ended=0, won=0, drawn=0, lost=0, smazzate=0, vp=0, mp=0,
            accusi=0, accusi_points=0, scope=0, timeouts=0, abandons=0))
    return row


@lru_cache(maxsize=4096)
def _names(players: str) -> tuple[str, ...]:
    return tuple(json.loads(players))


@lru_cache(maxsize=4096)
def _sides(sides: str) -> tuple[int, ...]:
    return tuple(json.loads(sides))


def player_at(session: Session, partita: Partita, seat: int) -> Giocatore:
    return player(session, _names(partita.players)[seat])


def lines(partita: Partita) -> tuple[str, str]:
    """The names of the match's two lines, side 0 first: a player, or a pair in seat order."""
    names, sides = _names(partita.players), _sides(partita.sides)
    return tuple(LINE_JOIN.join(n for n, s in zip(names, sides, strict=True) if s == side)
                 for side in (0, 1))  # type: ignore[return-value]


@lru_cache(maxsize=256)
def match_format(game: str, options: str) -> MatchFormat | None:
    """The stored format, None if it cannot be read (a record that verify reports)."""
    try:
        return parse_format(game, json.loads(options))
    except (MatchFormatError, ValueError):
        return None


def vp_table_name(event: TournamentCreated) -> tuple[str, str | None]:
    """The name of the VP table a tournament declared, and its text (None: the standard)."""
    table = table_of(event)
    return table.describe(), (None if table is STANDARD else table.text)


@lru_cache(maxsize=64)
def _declared(text: str) -> VpTable:
    return parse_vp_table(text, "the tournament's VP table")


def _table(session: Session, partita: Partita) -> VpTable:
    if partita.tournament is None:
        return STANDARD
    torneo = row_of(session, Torneo, partita.tournament)
    if torneo is None or torneo.vp_table_text is None:
        return STANDARD
    return _declared(torneo.vp_table_text)


def _won(fmt: MatchFormat | None, result: SmazzataResult) -> int | None:
    if fmt is not None:
        return smazzata_winner(fmt, result)
    points = result.points
    return None if points[0] == points[1] else (0 if points[0] > points[1] else 1)


def _spareggio(fmt: MatchFormat | None, before: list[SmazzataResult]) -> int:
    """The KO spareggio the next smazzata is (0: a regular one)."""
    if fmt is None:
        return 0
    try:
        return match_status(fmt, before).next_tiebreak
    except MatchFormatError:
        return 0   # a record the rules refuse: verify reports it; here it counts as regular


def recount(session: Session, partita: Partita) -> None:
    """Spareggi, counted points and running totals of the match from its ended smazzate."""
    fmt = match_format(partita.game, partita.format_options)
    rows = _ended_smazzate(session, partita.stream)
    counted: list[SmazzataResult] = []
    totals, won = [0, 0], [0, 0]
    for row in rows:
        row.spareggio = 0
        if not row.annulled:
            result = SmazzataResult((row.points_0, row.points_1), row.last_capture,
                                    row.cappotto, row.vinco_subito)
            row.spareggio = _spareggio(fmt, counted)
            counted.append(result)
            if row.spareggio == 0:
                totals = [totals[0] + row.points_0, totals[1] + row.points_1]
                side = _won(fmt, result)
                if side is not None:
                    won[side] += 1
        _running(session, row, totals, won)
    partita.spareggi = sum(1 for row in rows if row.spareggio)


def _running(session: Session, row: Smazzata, totals: list[int], won: list[int]) -> None:
    key = (row.stream, row.number)
    running = row_of(session, Andamento, key)
    if running is None:
        running = new_row(session, key, Andamento(stream=row.stream, number=row.number))
    running.total_0, running.total_1 = totals
    running.won_0, running.won_1 = won


def settle(session: Session, partita: Partita, event: MatchEnded) -> None:
    """The result columns from the last MatchEnded, with VP and MP from the VP table."""
    settlement = event.settlement
    partita.state = ENDED
    partita.score_0, partita.score_1 = event.scores
    partita.winner = event.winner
    partita.ruled = partita.rulings > 0
    partita.how = settlement.how if settlement is not None else event.reason
    partita.unit = settlement.unit if settlement is not None else "punti"
    partita.mp = settlement.mp if settlement is not None else None
    points = settlement.points if settlement is not None else (None, None)
    partita.points_0, partita.points_1 = points
    fmt = match_format(partita.game, partita.format_options)
    partita.vp_0 = partita.vp_1 = partita.mp_0 = partita.mp_1 = None
    partita.vp_table = None
    if fmt is None or settlement is None:
        return
    table = _table(session, partita)
    try:
        vp = settled_vp(fmt, event.winner, settlement.how, settlement.mp, table=table)
    except MatchFormatError:
        return   # an MP the table cannot hold: verify reports the record
    if vp is not None:
        (partita.vp_0, partita.vp_1), (partita.mp_0, partita.mp_1) = vp.vp, vp.mp
        partita.vp_table = table.describe()


def unsettle(partita: Partita) -> None:
    """No result: the match is in progress again (MatchResumed)."""
    partita.state = IN_PROGRESS
    partita.ruled = False
    partita.score_0 = partita.score_1 = partita.winner = partita.mp = None
    partita.how = partita.unit = partita.vp_table = None
    partita.points_0 = partita.points_1 = None
    partita.vp_0 = partita.vp_1 = partita.mp_0 = partita.mp_1 = None


def contribute(session: Session, partita: Partita, sign: int) -> None:
    """Add (sign +1) or take back (-1) the ended match's share in its players' records and,
    in a tournament, in its two lines' standings."""
    names, sides = _names(partita.players), _sides(partita.sides)
    vps, mps = (partita.vp_0, partita.vp_1), (partita.mp_0, partita.mp_1)
    for name, side in dict(zip(names, sides, strict=True)).items():
        row = player(session, name)
        row.ended += sign
        _count_result(row, partita.winner, side, sign)
        row.vp += sign * (vps[side] or 0)
        row.mp += sign * (mps[side] or 0)
    if partita.tournament is None:
        return
    points = (partita.points_0 or 0, partita.points_1 or 0)
    for side, line in enumerate(lines(partita)):
        standing = _line(session, partita.tournament, line)
        standing.played += sign
        _count_result(standing, partita.winner, side, sign)
        standing.vp += sign * (vps[side] or 0)
        standing.mp += sign * (mps[side] or 0)
        standing.points_for += sign * points[side]
        standing.points_against += sign * points[1 - side]


def _line(session: Session, tournament: str, line: str) -> Linea:
    row = row_of(session, Linea, (tournament, line))
    if row is None:
        row = new_row(session, (tournament, line), Linea(
            tournament=tournament, line=line, played=0, won=0, drawn=0, lost=0, vp=0, mp=0,
            points_for=0, points_against=0))
    return row


def _count_result(row: Giocatore | Linea, winner: int | None, side: int, sign: int) -> None:
    if winner is None:
        row.drawn += sign
    elif winner == side:
        row.won += sign
    else:
        row.lost += sign
