"""How each event changes the read models: the fold.

The data is the domain's own: MatchCreated, the deals and their dealer, accusi, scope (a
CardPlayed's `scopa`), SmazzataEnded's scores, breakdown and `outcome`, timeouts and abandons with
their penalty, the rulings, the noted irregularities and the last MatchEnded's `settlement` (a
MatchResumed after it takes the result back); tournaments from TournamentCreated. FOLDED names the
stored types folded; every other event (the other plays, seeds, the schedule, a transcribed
record's header and the claimed scores: facts about the paper, which `verify` compares) changes no
row and is not even decoded. What depends on several events of a match (spareggi, running totals, a
result's VP and its share in the standings) is recomputed by tallies.py from the rows, so that a
ruling that annuls a smazzata or restates a result changes every total that depends on it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import singledispatch
from typing import Any, cast

from sqlalchemy import Table, bindparam, update
from sqlalchemy.orm import Session

from domain.events import AccusoDeclared, CardPlayed, SmazzataDealt, SmazzataEnded
from domain.record.events import (
    Abandoned,
    IrregularityNoted,
    MatchCreated,
    MatchEnded,
    MatchResumed,
    RulingRecorded,
    TimeoutRecorded,
    TournamentCreated,
)
from projections.read_models.schema import (
    ENDED,
    IN_PROGRESS,
    Andamento,
    Decisione,
    Partita,
    Posto,
    Smazzata,
    Torneo,
)
from projections.read_models.tallies import (
    STORED_MATCHES,
    contribute,
    count,
    new_row,
    player,
    player_at,
    recount,
    row_of,
    settle,
    unsettle,
    vp_table_name,
)
from projections.store.listing import format_text

FOLDED = ("MatchCreated", "SmazzataDealt", "AccusoDeclared", "CardPlayed", "SmazzataEnded",
          "TimeoutRecorded", "Abandoned", "MatchEnded", "MatchResumed", "RulingRecorded",
          "IrregularityNoted", "TournamentCreated")
"""The stored types (projections.store.facts) whose events change a row."""


@dataclass(frozen=True, slots=True)
class At:
    """Where an event stands: its stream, its version in it, the timestamp it was recorded at."""

    stream: str
    timestamp: str
    version: int = 0


def _text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _partita(session: Session, at: At) -> Partita:
    row = row_of(session, Partita, at.stream)
    if row is None:
        raise LookupError(f"match {at.stream}: an event before its MatchCreated")
    return row


def passed_over(session: Session, versions: dict[str, int]) -> None:
    """Record the last version of each stream a batch held, its events folded or not (called
    once the batch is folded: the rows' objects in the session do not see it)."""
    session.flush()
    if versions:
        table = cast(Table, Partita.__table__)
        session.connection().execute(
            update(table).where(table.c.stream == bindparam("s")).values(version=bindparam("v")),
            [{"s": stream, "v": version} for stream, version in versions.items()])


@singledispatch
def fold(event: object, session: Session, at: At) -> None:
    """Change the rows of `at.stream` for `event` (nothing, for an event not folded)."""


@fold.register
def _created(event: MatchCreated, session: Session, at: At) -> None:
    options = dict(event.match_format)
    new_row(session, at.stream, Partita(
        stream=at.stream, game=event.game, tournament=event.tournament, round=event.round,
        table_number=event.table, players=_text(list(event.players)),
        sides=_text(list(event.sides)), created=at.timestamp, day=at.timestamp[:10],
        match_format=format_text(event.game, options).text, format_options=_text(options),
        ko=options.get("ko") == "true",
        provenance=event.provenance.kind if event.provenance is not None else None,
        state=IN_PROGRESS, how=None, ruled=False, score_0=None, score_1=None, unit=None,
        winner=None, points_0=None, points_1=None, mp=None, vp_0=None, vp_1=None, mp_0=None,
        mp_1=None, vp_table=None, penalty_0=0, penalty_1=0, kept_0=0, kept_1=0,
        forfeit_version=None,
        adjustment_0=0, adjustment_1=0,
        dealer=None, current=None, smazzate=0, spareggi=0, rulings=0, irregularities=0,
        version=at.version, timeouts=0, abandons=0))
    for seat, (name, side) in enumerate(zip(event.players, event.sides, strict=True)):
        session.add(Posto(stream=at.stream, seat=seat, player=name, side=side,
                          created=at.timestamp))
    for name in dict.fromkeys(event.players):
        player(session, name).matches += 1
    count(session, STORED_MATCHES).value += 1
    if event.tournament is not None:
        torneo = row_of(session, Torneo, event.tournament)
        if torneo is not None:
            torneo.matches += 1


@fold.register
def _dealt(event: SmazzataDealt, session: Session, at: At) -> None:
    partita = _partita(session, at)
    partita.dealer = event.dealer
    key = (at.stream, event.number)
    if partita.current == event.number:   # a new attempt after a deal annulled (C1)
        row = row_of(session, Smazzata, key)
        if row is not None:
            row.dealer = event.dealer
            return
    partita.current = event.number
    new_row(session, key, Smazzata(
        stream=at.stream, number=event.number, ended=False, dealer=event.dealer, points_0=0,
        points_1=0, breakdown="[]", accusi="[]", cappotto=None, last_capture=None,
        vinco_subito=None, spareggio=0, annulled=False, counted_0=0, counted_1=0))
    new_row(session, key, Andamento(stream=at.stream, number=event.number, total_0=0,
                                    total_1=0, won_0=0, won_1=0))


@fold.register
def _accuso(event: AccusoDeclared, session: Session, at: At) -> None:
    partita = _partita(session, at)
    row = row_of(session, Smazzata, (at.stream, partita.current))
    if row is not None:
        row.accusi = _text([*json.loads(row.accusi), [event.seat, event.kind, event.points]])
    declarer = player_at(session, partita, event.seat)
    declarer.accusi += 1
    declarer.accusi_points += event.points


@fold.register
def _played(event: CardPlayed, session: Session, at: At) -> None:
    if event.scopa:
        player_at(session, _partita(session, at), event.seat).scope += 1


@fold.register
def _smazzata_ended(event: SmazzataEnded, session: Session, at: At) -> None:
    partita = _partita(session, at)
    partita.smazzate += 1
    key = (at.stream, event.number)
    row = row_of(session, Smazzata, key)
    if row is None:   # a version-1 record may end a smazzata whose deal is not folded
        row = new_row(session, key, Smazzata(stream=at.stream, number=event.number,
                                             dealer=partita.dealer, accusi="[]", spareggio=0,
                                             annulled=False))
    outcome = event.outcome
    row.ended = True
    row.points_0, row.points_1 = event.scores
    row.counted_0, row.counted_1 = event.scores
    row.breakdown = _text([list(line) for line in event.breakdown])
    row.cappotto = outcome.cappotto if outcome is not None else None
    row.last_capture = outcome.last_capture if outcome is not None else None
    row.vinco_subito = outcome.vinco_subito if outcome is not None else None
    for name in dict.fromkeys(json.loads(partita.players)):
        player(session, name).smazzate += 1
    recount(session, partita)


@fold.register
def _timeout(event: TimeoutRecorded, session: Session, at: At) -> None:
    partita = _partita(session, at)
    partita.timeouts += 1
    _forfeited(partita, event.awarded, event.kept, at)
    player_at(session, partita, event.seat).timeouts += 1


@fold.register
def _abandoned(event: Abandoned, session: Session, at: At) -> None:
    partita = _partita(session, at)
    partita.abandons += 1
    _forfeited(partita, event.awarded, event.kept, at)
    player_at(session, partita, event.seat).abandons += 1


def _forfeited(partita: Partita, awarded: tuple[int, int], kept: tuple[int, int] | None,
               at: At) -> None:
    partita.forfeit_version = at.version
    partita.penalty_0 += awarded[0]
    partita.penalty_1 += awarded[1]
    if kept is None:
        partita.kept_0 = partita.kept_1 = None
    elif partita.kept_0 is not None and partita.kept_1 is not None:
        partita.kept_0 += kept[0]
        partita.kept_1 += kept[1]


@fold.register
def _match_ended(event: MatchEnded, session: Session, at: At) -> None:
    partita = _partita(session, at)
    if partita.state == ENDED:
        contribute(session, partita, -1)   # a restated result replaces the one before
    settle(session, partita, event)
    contribute(session, partita, +1)


@fold.register
def _match_resumed(event: MatchResumed, session: Session, at: At) -> None:
    partita = _partita(session, at)
    if partita.state == ENDED:
        contribute(session, partita, -1)   # the result it had is no longer one
    unsettle(partita)


@fold.register
def _ruling(event: RulingRecorded, session: Session, at: At) -> None:
    partita = _partita(session, at)
    partita.rulings += 1
    session.add(Decisione(
        stream=at.stream, version=at.version, arbiter=event.arbiter, kind=event.kind,
        smazzata=event.smazzata, adjustment_0=event.adjustment[0],
        adjustment_1=event.adjustment[1], reason=event.reason, recorded=at.timestamp))
    partita.adjustment_0 += event.adjustment[0]
    partita.adjustment_1 += event.adjustment[1]
    if event.kind == "annul-smazzata" and event.smazzata is not None:
        row = row_of(session, Smazzata, (at.stream, event.smazzata))
        if row is not None:
            row.annulled = True
            row.counted_0 = row.counted_1 = 0
    recount(session, partita)


@fold.register
def _irregularity(event: IrregularityNoted, session: Session, at: At) -> None:
    _partita(session, at).irregularities += 1


@fold.register
def _tournament(event: TournamentCreated, session: Session, at: At) -> None:
    name, text = vp_table_name(event)
    new_row(session, at.stream, Torneo(stream=at.stream, name=event.name, game=event.game,
                       created=at.timestamp, vp_table=name, vp_table_text=text, matches=0))
