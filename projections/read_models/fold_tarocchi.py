"""How each event of a Tarocchi tournament changes its read models (schema_tarocchi.py).

Every event of the stream is folded: its own rows are written as the event says, then the
standings after each seated turn are recomputed by the domain (domain/tarocchi/standings.py, art.
9) from the tournament's state. That state is read back from the rows once per transaction
(state_tarocchi.py) and then carried along in the session, event by event, so a batch of a
whole imported tournament reads its rows once; a rolled-back batch drops it with the session.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import event as sql_event
from sqlalchemy.orm import Session

from domain.tarocchi.events import (
    PenaltyImposed,
    PlayerLineWritten,
    SeatingDrawn,
    SorteggioRevealed,
    TableLineWritten,
    TarocchiEvent,
    TarocchiTournamentCreated,
    TurnSeated,
)
from domain.tarocchi.standings import standings
from domain.tarocchi.state import TarocchiState, evolve
from projections.read_models.fold import At, fold
from projections.read_models.schema_tarocchi import (
    TarocchiClassifica,
    TarocchiPenalita,
    TarocchiPosto,
    TarocchiRiga,
    TarocchiRigaTavolo,
    TarocchiTavolo,
    TarocchiTorneo,
    TarocchiTurno,
)
from projections.read_models.state_tarocchi import state_of
from projections.read_models.tallies import new_row, row_of

TAROCCHI_FOLDED = ("TarocchiTournamentCreated", "SeatingDrawn", "TurnSeated",
                   "PlayerLineWritten", "TableLineWritten", "PenaltyImposed", "SorteggioRevealed")
"""The stored types (projections.store.facts) of a Tarocchi tournament: each changes rows."""
_STATES = "tarocchi-states"
_DIRTY = "tarocchi-standings-due"


def _text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _advance(session: Session, at: At, event: TarocchiEvent) -> tuple[TarocchiState,
                                                                      TarocchiTorneo | None]:
    """The state after `event` (carried in the session) and the tournament's row."""
    states: dict[str, TarocchiState] = session.info.setdefault(_STATES, {})
    state = states.get(at.stream)
    if state is None:
        state = state_of(session, at.stream)
    state = evolve(state, event)
    states[at.stream] = state
    torneo = row_of(session, TarocchiTorneo, at.stream)
    if torneo is not None:
        torneo.version = at.version
    return state, torneo


def _restand(session: Session, at: At, state: TarocchiState) -> None:
    """The standings of `at.stream` are due before the transaction commits."""
    session.info.setdefault(_DIRTY, set()).add(at.stream)


@sql_event.listens_for(Session, "before_commit")
def _standings_due(session: Session) -> None:
    due: set[str] | None = session.info.pop(_DIRTY, None)
    states: dict[str, TarocchiState] = session.info.get(_STATES, {})
    for stream in sorted(due or ()):
        _write_standings(session, stream, states[stream])


def _write_standings(session: Session, stream: str, state: TarocchiState) -> None:
    """The standings after each seated turn, row by row (a row changes only if it differs)."""
    for turn in range(1, len(state.turns) + 1):
        for line in standings(state, turn):
            key = (stream, turn, line.number)
            row = row_of(session, TarocchiClassifica, key) or new_row(
                session, key, TarocchiClassifica(stream=stream, turn=turn,
                                                 number=line.number))
            row.rank, row.name, row.points = line.rank, line.name, line.points
            row.plus, row.minus, row.difference = line.plus, line.minus, line.difference
            row.solita, row.extra, row.lot = line.solita, line.extra, line.lot


@fold.register
def _created(event: TarocchiTournamentCreated, session: Session, at: At) -> None:
    _advance(session, at, event)
    new_row(session, at.stream, TarocchiTorneo(
        stream=at.stream, name=event.name, recomposition=event.recomposition, final=event.final,
        seating_commitment=event.seating_commitment,
        sorteggio_commitment=event.sorteggio_commitment, seating_seed=None,
        sorteggio_seed=None, places=len(event.entrants), turns=0, created=at.timestamp,
        version=at.version))
    for index, entrant in enumerate(event.entrants):
        new_row(session, (at.stream, index), TarocchiPosto(
            stream=at.stream, entrant=index, name=entrant.name,
            members=_text(list(entrant.members)), trump=None, number=None))


@fold.register
def _drawn(event: SeatingDrawn, session: Session, at: At) -> None:
    _, torneo = _advance(session, at, event)
    if torneo is not None:
        torneo.seating_seed = event.seed
    for index, (trump, number) in enumerate(zip(event.trumps, event.numbers, strict=True)):
        posto = row_of(session, TarocchiPosto, (at.stream, index))
        if posto is not None:
            posto.trump, posto.number = trump, number


@fold.register
def _seated(event: TurnSeated, session: Session, at: At) -> None:
    state, torneo = _advance(session, at, event)
    if torneo is not None:
        torneo.turns = len(state.turns)
    session.add(TarocchiTurno(stream=at.stream, turn=event.turn, basis=event.basis,
                              standing_order=_text(list(event.order))))
    for place, table in enumerate(event.tables):
        nord, ovest, sud, est = table.players
        session.add(TarocchiTavolo(stream=at.stream, turn=event.turn, letter=table.letter,
                                   place=place, nord=nord, ovest=ovest, sud=sud, est=est))
    _restand(session, at, state)


@fold.register
def _player_line(event: PlayerLineWritten, session: Session, at: At) -> None:
    state, _ = _advance(session, at, event)
    session.add(TarocchiRiga(
        stream=at.stream, player=event.player, turn=event.turn, smazzata=event.smazzata,
        plus=_text([list(g) for g in event.plus]), minus=_text([list(g) for g in event.minus]),
        diff=event.diff, molt=event.molt, penalty=event.penalty, parz=event.parz,
        tot=event.tot, role=event.role, validator=event.validator, member=event.member,
        source=event.source))
    _restand(session, at, state)


@fold.register
def _table_line(event: TableLineWritten, session: Session, at: At) -> None:
    state, _ = _advance(session, at, event)
    session.add(TarocchiRigaTavolo(
        stream=at.stream, turn=event.turn, letter=event.table, smazzata=event.smazzata,
        dealer=event.dealer, caller=event.caller, partner=event.partner,
        solista=event.solista, solista_cards=event.solista_cards,
        totals=_text([list(t) for t in event.totals]), compiler=event.compiler,
        validator=event.validator, source=event.source))
    _restand(session, at, state)


@fold.register
def _penalty(event: PenaltyImposed, session: Session, at: At) -> None:
    state, _ = _advance(session, at, event)
    session.add(TarocchiPenalita(
        stream=at.stream, version=at.version, player=event.player, turn=event.turn,
        smazzata=event.smazzata, code=event.code, points=event.points, fate=event.fate,
        arbiter=event.arbiter, reason=event.reason, recorded=at.timestamp))
    _restand(session, at, state)


@fold.register
def _sorteggio(event: SorteggioRevealed, session: Session, at: At) -> None:
    state, torneo = _advance(session, at, event)
    if torneo is not None:
        torneo.sorteggio_seed = event.seed
    _restand(session, at, state)
