"""A Tarocchi tournament's state (domain/tarocchi/state.py) read back from its read-model rows:
what the fold continues from in a new transaction, and what the viewer's sheets and findings are
computed from (the domain's own functions, on the same facts the stream holds)."""

from __future__ import annotations

import json
from types import MappingProxyType
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from domain.tarocchi.entrants import Entrant
from domain.tarocchi.events import (
    PenaltyImposed,
    PlayerLineWritten,
    SeatingDrawn,
    TableLineWritten,
    TarocchiTournamentCreated,
    TurnSeated,
)
from domain.tarocchi.seats import TableSeating
from domain.tarocchi.state import TarocchiState
from projections.read_models.schema_tarocchi import (
    TarocchiPenalita,
    TarocchiPosto,
    TarocchiRiga,
    TarocchiRigaTavolo,
    TarocchiTavolo,
    TarocchiTorneo,
    TarocchiTurno,
)


def state_of(session: Session, stream: str) -> TarocchiState:
    """The state the stream's folded events make (empty: no tournament `stream`)."""
    torneo = session.get(TarocchiTorneo, stream)
    if torneo is None:
        return TarocchiState()
    posti = _all(session, TarocchiPosto, stream, TarocchiPosto.entrant)
    created = TarocchiTournamentCreated(
        torneo.name, tuple(Entrant(p.name, tuple(json.loads(p.members))) for p in posti),
        torneo.recomposition, torneo.final, torneo.seating_commitment,
        torneo.sorteggio_commitment)
    draw = None
    if torneo.seating_seed is not None:
        draw = SeatingDrawn(torneo.seating_seed, tuple(p.trump or 0 for p in posti),
                            tuple(p.number or 0 for p in posti))
    return TarocchiState(created, draw, _turns(session, stream),
                         MappingProxyType(_player_lines(session, stream)),
                         MappingProxyType(_table_lines(session, stream)),
                         _penalties(session, stream), torneo.sorteggio_seed, torneo.version)


def _all(session: Session, kind: type[Any], stream: str, *order: Any) -> list[Any]:
    return list(session.scalars(select(kind).where(kind.stream == stream).order_by(*order)))


def _turns(session: Session, stream: str) -> tuple[TurnSeated, ...]:
    tables = _all(session, TarocchiTavolo, stream, TarocchiTavolo.turn, TarocchiTavolo.place)
    return tuple(
        TurnSeated(t.turn, t.basis,
                   tuple(TableSeating(r.letter, (r.nord, r.ovest, r.sud, r.est))
                         for r in tables if r.turn == t.turn),
                   tuple(json.loads(t.standing_order)))
        for t in _all(session, TarocchiTurno, stream, TarocchiTurno.turn))


def _games(text: str) -> tuple[tuple[str, int], ...]:
    return tuple((kind, count) for kind, count in json.loads(text))


def _player_lines(session: Session, stream: str) -> dict[tuple[int, int, int], PlayerLineWritten]:
    return {(r.player, r.turn, r.smazzata): PlayerLineWritten(
                r.player, r.turn, r.smazzata, _games(r.plus), _games(r.minus), r.diff, r.molt,
                r.penalty, r.parz, r.tot, r.role, r.validator, r.member, r.source)
            for r in _all(session, TarocchiRiga, stream, TarocchiRiga.turn,
                          TarocchiRiga.smazzata, TarocchiRiga.player)}


def _table_lines(session: Session, stream: str) -> dict[tuple[int, str, int], TableLineWritten]:
    return {(r.turn, r.letter, r.smazzata): TableLineWritten(
                r.turn, r.letter, r.smazzata, r.dealer, r.caller, r.partner, r.solista,
                r.solista_cards, tuple((p, t) for p, t in json.loads(r.totals)), r.compiler,
                r.validator, r.source)
            for r in _all(session, TarocchiRigaTavolo, stream, TarocchiRigaTavolo.turn,
                          TarocchiRigaTavolo.letter, TarocchiRigaTavolo.smazzata)}


def _penalties(session: Session, stream: str) -> tuple[PenaltyImposed, ...]:
    return tuple(PenaltyImposed(r.player, r.turn, r.smazzata, r.code, r.points, r.fate,
                                r.arbiter, r.reason)
                 for r in _all(session, TarocchiPenalita, stream, TarocchiPenalita.version))
