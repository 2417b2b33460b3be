"""The read-model tables of a Sicilian Tarocchi tournament (docs/tarocchi.md), folded from its
stream by fold_tarocchi.py; same database, same `rm_` prefix and layout version as schema.py.

`rm_tarocchi_tornei` one row per tournament, `rm_tarocchi_posti` its places in registration
order (after the draw: the trump drawn and the player number), `rm_tarocchi_turni` each seated
turn, `rm_tarocchi_tavoli` its tables (numbers at North, West, South, East),
`rm_tarocchi_righe` the lines of the players' sheets and `rm_tarocchi_righe_tavolo` those of the
table sheets as written, `rm_tarocchi_penalita` the arbiters' penalties, and
`rm_tarocchi_classifica` the standings after each seated turn (the last one, after turn IV, is
the final standings) in the order of art. 9. Lists (games, totals, orders) are JSON text.
"""

from __future__ import annotations

from sqlalchemy import String, Text
from sqlalchemy.orm import Mapped, mapped_column

from projections.read_models.schema import Base

_ID = String(36)


class TarocchiTorneo(Base):
    """A tournament: as created (the recompositions, both commitments), the seeds once revealed
    (null before), how many turns are seated, and `version` its last folded event."""

    __tablename__ = "rm_tarocchi_tornei"

    stream: Mapped[str] = mapped_column(_ID, primary_key=True)
    name: Mapped[str] = mapped_column(String(256))
    recomposition: Mapped[str] = mapped_column(String(32))
    final: Mapped[str] = mapped_column(String(32))
    seating_commitment: Mapped[str] = mapped_column(String(64))
    sorteggio_commitment: Mapped[str] = mapped_column(String(64))
    seating_seed: Mapped[str | None] = mapped_column(String(128))
    sorteggio_seed: Mapped[str | None] = mapped_column(String(128))
    places: Mapped[int]
    turns: Mapped[int]
    created: Mapped[str] = mapped_column(String(32))
    version: Mapped[int]


class TarocchiPosto(Base):
    """A place, `entrant` its index in registration order; `members` a team's, JSON."""

    __tablename__ = "rm_tarocchi_posti"

    stream: Mapped[str] = mapped_column(_ID, primary_key=True)
    entrant: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(256))
    members: Mapped[str] = mapped_column(Text)
    trump: Mapped[int | None]
    number: Mapped[int | None]


class TarocchiTurno(Base):
    """A seated turn: how it was made and the standings order used (JSON, empty if none)."""

    __tablename__ = "rm_tarocchi_turni"

    stream: Mapped[str] = mapped_column(_ID, primary_key=True)
    turn: Mapped[int] = mapped_column(primary_key=True)
    basis: Mapped[str] = mapped_column(String(32))
    standing_order: Mapped[str] = mapped_column(Text)


class TarocchiTavolo(Base):
    """A table of a turn; `place` its order in the turn (A is 0)."""

    __tablename__ = "rm_tarocchi_tavoli"

    stream: Mapped[str] = mapped_column(_ID, primary_key=True)
    turn: Mapped[int] = mapped_column(primary_key=True)
    letter: Mapped[str] = mapped_column(String(8), primary_key=True)
    place: Mapped[int]
    nord: Mapped[int]
    ovest: Mapped[int]
    sud: Mapped[int]
    est: Mapped[int]


class TarocchiRiga(Base):
    """A line of a player's sheet, as written (`plus`, `minus`: JSON lists of [kind, count])."""

    __tablename__ = "rm_tarocchi_righe"

    stream: Mapped[str] = mapped_column(_ID, primary_key=True)
    player: Mapped[int] = mapped_column(primary_key=True)
    turn: Mapped[int] = mapped_column(primary_key=True)
    smazzata: Mapped[int] = mapped_column(primary_key=True)
    plus: Mapped[str] = mapped_column(Text)
    minus: Mapped[str] = mapped_column(Text)
    diff: Mapped[int]
    molt: Mapped[int]
    penalty: Mapped[int]
    parz: Mapped[int]
    tot: Mapped[int]
    role: Mapped[str | None] = mapped_column(String(16))
    validator: Mapped[int | None]
    member: Mapped[str | None] = mapped_column(String(256))
    source: Mapped[str | None] = mapped_column(Text)


class TarocchiRigaTavolo(Base):
    """A line of a table sheet, as written (`totals`: JSON list of [player, TOT])."""

    __tablename__ = "rm_tarocchi_righe_tavolo"

    stream: Mapped[str] = mapped_column(_ID, primary_key=True)
    turn: Mapped[int] = mapped_column(primary_key=True)
    letter: Mapped[str] = mapped_column(String(8), primary_key=True)
    smazzata: Mapped[int] = mapped_column(primary_key=True)
    dealer: Mapped[int | None]
    caller: Mapped[int | None]
    partner: Mapped[int | None]
    solista: Mapped[int | None]
    solista_cards: Mapped[int | None]
    totals: Mapped[str] = mapped_column(Text)
    compiler: Mapped[int | None]
    validator: Mapped[int | None]
    source: Mapped[str | None] = mapped_column(Text)


class TarocchiPenalita(Base):
    """An arbiter's penalty, `version` the event that recorded it."""

    __tablename__ = "rm_tarocchi_penalita"

    stream: Mapped[str] = mapped_column(_ID, primary_key=True)
    version: Mapped[int] = mapped_column(primary_key=True)
    player: Mapped[int]
    turn: Mapped[int]
    smazzata: Mapped[int]
    code: Mapped[str] = mapped_column(String(32))
    points: Mapped[int]
    fate: Mapped[str] = mapped_column(String(32))
    arbiter: Mapped[str] = mapped_column(String(256))
    reason: Mapped[str] = mapped_column(Text)
    recorded: Mapped[str] = mapped_column(String(32))


class TarocchiClassifica(Base):
    """An entrant's line of the standings after turn `turn`: punti partita, then the criteria
    of art. 9 (difference, points made, solità not lost, extra points), the draw's lot (null
    until the tie-break seed is revealed) and the rank (equal ranks: a tie only the draw
    breaks)."""

    __tablename__ = "rm_tarocchi_classifica"

    stream: Mapped[str] = mapped_column(_ID, primary_key=True)
    turn: Mapped[int] = mapped_column(primary_key=True)
    number: Mapped[int] = mapped_column(primary_key=True)
    rank: Mapped[int]
    name: Mapped[str] = mapped_column(String(256))
    points: Mapped[int]
    plus: Mapped[int]
    minus: Mapped[int]
    difference: Mapped[int]
    solita: Mapped[int]
    extra: Mapped[int]
    lot: Mapped[int | None]
