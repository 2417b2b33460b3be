"""The read models' queries for Tarocchi tournaments (what `verbale tournament` and the viewer's
tournament page ask; no SQL anywhere else). Each reads in one transaction."""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from domain.tarocchi.state import TarocchiState
from projections.read_models.schema_tarocchi import (
    TarocchiClassifica,
    TarocchiPosto,
    TarocchiTorneo,
    TarocchiTurno,
)
from projections.read_models.state_tarocchi import state_of


@dataclass(frozen=True, slots=True)
class TarocchiTournament:
    """A tournament as the list shows it."""

    stream: str
    name: str
    places: int
    turns: int
    recomposition: str
    final: str
    created: str
    seating_commitment: str
    sorteggio_commitment: str
    seating_seed: str | None
    sorteggio_seed: str | None


@dataclass(frozen=True, slots=True)
class Standing:
    """An entrant's line of the standings after a turn (art. 9's columns)."""

    rank: int
    number: int
    name: str
    members: tuple[str, ...]
    points: int
    difference: int
    plus: int
    minus: int
    solita: int
    extra: int
    lot: int | None


@dataclass(frozen=True, slots=True)
class TurnBasis:
    turn: int
    basis: str
    order: tuple[int, ...]


def _tournament(row: TarocchiTorneo) -> TarocchiTournament:
    return TarocchiTournament(row.stream, row.name, row.places, row.turns, row.recomposition,
                              row.final, row.created, row.seating_commitment,
                              row.sorteggio_commitment, row.seating_seed, row.sorteggio_seed)


def tarocchi_tournaments(engine: Engine) -> list[TarocchiTournament]:
    """Every Tarocchi tournament, newest first."""
    with Session(engine) as session:
        rows = session.scalars(select(TarocchiTorneo).order_by(
            TarocchiTorneo.created.desc(), TarocchiTorneo.stream))
        return [_tournament(r) for r in rows]


def tarocchi_tournament(engine: Engine, stream: str) -> TarocchiTournament | None:
    with Session(engine) as session:
        row = session.get(TarocchiTorneo, stream)
        return None if row is None else _tournament(row)


def tarocchi_standings(engine: Engine, stream: str, turn: int) -> list[Standing]:
    """The standings after turn `turn`, first to last (empty: the turn is not seated)."""
    with Session(engine) as session:
        members = {p.number: tuple(json.loads(p.members)) for p in session.scalars(
            select(TarocchiPosto).where(TarocchiPosto.stream == stream))}
        rows = session.scalars(select(TarocchiClassifica).where(
            TarocchiClassifica.stream == stream, TarocchiClassifica.turn == turn).order_by(
            TarocchiClassifica.rank, TarocchiClassifica.number))
        return [Standing(r.rank, r.number, r.name, members.get(r.number, ()), r.points,
                         r.difference, r.plus, r.minus, r.solita, r.extra, r.lot)
                for r in rows]


def tarocchi_turns(engine: Engine, stream: str) -> list[TurnBasis]:
    with Session(engine) as session:
        return [TurnBasis(r.turn, r.basis, tuple(json.loads(r.standing_order)))
                for r in session.scalars(select(TarocchiTurno).where(
                    TarocchiTurno.stream == stream).order_by(TarocchiTurno.turn))]


def tarocchi_state(engine: Engine, stream: str) -> TarocchiState | None:
    """The tournament's state as its rows hold it (for the sheets and the findings, which the
    domain computes), None: no such tournament."""
    with Session(engine) as session:
        if session.get(TarocchiTorneo, stream) is None:
            return None
        return state_of(session, stream)


def tarocchi_streams_starting(engine: Engine, prefix: str, limit: int = 6) -> list[str]:
    """The tournaments whose id starts with `prefix`, or whose name contains it."""
    text = prefix.strip().lower()
    with Session(engine) as session:
        rows = session.scalars(select(TarocchiTorneo).order_by(TarocchiTorneo.stream))
        return [r.stream for r in rows
                if r.stream.startswith(text) or text in r.name.lower()][:limit]
