"""How each event of a match changes its rows: the read models' fold.

Only the facts the tables need are folded (FOLDED names their stored types); every other event
(the plays, seeds, tournaments' streams) leaves the rows as they are. The data is the domain's
own: MatchCreated, SmazzataDealt's dealer, SmazzataEnded's scores, breakdown and `outcome`,
MatchEnded's `settlement` (the last MatchEnded is the result), and the counts of
RulingRecorded and IrregularityNoted; a ruling that annuls a smazzata marks its row.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import singledispatch
from typing import Any

from sqlalchemy.orm import Session

from domain.events import SmazzataDealt, SmazzataEnded
from domain.record.events import (
    IrregularityNoted,
    MatchCreated,
    MatchEnded,
    RulingRecorded,
)
from projections.read_models.schema import ENDED, IN_PROGRESS, Partita, Smazzata
from projections.store.listing import format_text

FOLDED = ("MatchCreated", "SmazzataDealt", "SmazzataEnded", "MatchEnded", "RulingRecorded",
          "IrregularityNoted")
"""The stored types (projections.store.facts) whose events change a row."""


@dataclass(frozen=True, slots=True)
class At:
    """Where an event stands: its stream and the timestamp it was recorded at."""

    stream: str
    timestamp: str


def _text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _partita(session: Session, at: At) -> Partita:
    row = session.get(Partita, at.stream)
    if row is None:
        raise LookupError(f"match {at.stream}: an event before its MatchCreated")
    return row


@singledispatch
def fold(event: object, session: Session, at: At) -> None:
    """Change the rows of `at.stream` for `event` (nothing, for an event not folded)."""


@fold.register
def _created(event: MatchCreated, session: Session, at: At) -> None:
    session.add(Partita(
        stream=at.stream, game=event.game, tournament=event.tournament, round=event.round,
        table_number=event.table, players=_text(list(event.players)),
        sides=_text(list(event.sides)), created=at.timestamp,
        match_format=format_text(event.game, dict(event.match_format)).text,
        provenance=event.provenance.kind if event.provenance is not None else None,
        state=IN_PROGRESS, how=None, score_0=None, score_1=None, unit=None, winner=None,
        mp=None, dealer=None, smazzate=0, rulings=0, irregularities=0))


@fold.register
def _dealt(event: SmazzataDealt, session: Session, at: At) -> None:
    _partita(session, at).dealer = event.dealer


@fold.register
def _smazzata_ended(event: SmazzataEnded, session: Session, at: At) -> None:
    partita = _partita(session, at)
    partita.smazzate += 1
    outcome = event.outcome
    session.add(Smazzata(
        stream=at.stream, number=event.number, dealer=partita.dealer,
        points_0=event.scores[0], points_1=event.scores[1],
        breakdown=_text([list(row) for row in event.breakdown]),
        cappotto=outcome.cappotto if outcome is not None else None, annulled=False))


@fold.register
def _match_ended(event: MatchEnded, session: Session, at: At) -> None:
    partita = _partita(session, at)
    settlement = event.settlement
    partita.state = ENDED
    partita.score_0, partita.score_1 = event.scores
    partita.winner = event.winner
    partita.how = settlement.how if settlement is not None else event.reason
    partita.unit = settlement.unit if settlement is not None else "punti"
    partita.mp = settlement.mp if settlement is not None else None


@fold.register
def _ruling(event: RulingRecorded, session: Session, at: At) -> None:
    _partita(session, at).rulings += 1
    if event.kind == "annul-smazzata" and event.smazzata is not None:
        row = session.get(Smazzata, (at.stream, event.smazzata))
        if row is not None:
            row.annulled = True


@fold.register
def _irregularity(event: IrregularityNoted, session: Session, at: At) -> None:
    _partita(session, at).irregularities += 1
