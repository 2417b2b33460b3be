"""A match's scores from the read models: each smazzata's breakdown as recorded and as counted
after the rulings, the running totals, the rulings, and the totals a result settles, in the
domain's own order (docs/read-models.md)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from domain.record.catalog import unit_of
from projections.read_models.queries import MatchRow, match_row, pair
from projections.read_models.schema import (
    Andamento,
    Decisione,
    Partita,
    Smazzata,
    Torneo,
    Verdetto,
)
from projections.read_models.tallies import match_format


@dataclass(frozen=True, slots=True)
class SmazzataScore:
    number: int
    dealer: int | None
    points: tuple[int, int]
    counted: tuple[int, int]
    breakdown: tuple[tuple[str, int, int], ...]
    accusi: tuple[tuple[int, str, int], ...]
    cappotto: int | None
    spareggio: int
    annulled: bool
    running: tuple[int, int]
    won: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Ruling:
    version: int
    arbiter: str
    kind: str
    smazzata: int | None
    adjustment: tuple[int, int]
    reason: str
    recorded: str


@dataclass(frozen=True, slots=True)
class MatchScores:
    match: MatchRow
    smazzate: tuple[SmazzataScore, ...]
    rulings: tuple[Ruling, ...]
    penalty: tuple[int, int]
    kept: tuple[int, int] | None
    adjustment: tuple[int, int]
    vp_table: str | None
    totals: tuple[int, int] = field(default=(0, 0))
    """The MP basis a result settles (MatchSettlement.points): the regular counted smazzate,
    the rulings' adjustments, the points kept from a smazzata a forfeit interrupted and the
    penalty, in the domain's order (`_totals`)."""


def match_scores(engine: Engine, stream: str) -> MatchScores | None:
    """A match's breakdown per smazzata, its running totals and rulings; None if unknown."""
    with Session(engine) as session, session.begin():
        found = session.execute(_one(stream)).first()
        if found is None:
            return None
        partita, tournament_name, verdict = found
        match = match_row(session, partita, tournament_name, verdict)
        running = {r.number: r for r in session.scalars(
            select(Andamento).where(Andamento.stream == stream))}
        smazzate = tuple(_smazzata(row, running.get(row.number)) for row in session.scalars(
            select(Smazzata).where(Smazzata.stream == stream, Smazzata.ended.is_(True))
            .order_by(Smazzata.number)))
        rulings = tuple(Ruling(r.version, r.arbiter, r.kind, r.smazzata,
                               (r.adjustment_0, r.adjustment_1), r.reason, r.recorded)
                        for r in session.scalars(select(Decisione).where(
                            Decisione.stream == stream).order_by(Decisione.version)))
        penalty = (partita.penalty_0, partita.penalty_1)
        adjustment = (partita.adjustment_0, partita.adjustment_1)
        kept = pair(partita.kept_0, partita.kept_1)
        return MatchScores(match, smazzate, rulings, penalty, kept, adjustment,
                           partita.vp_table, _totals(partita, smazzate, rulings))


def _totals(partita: Partita, smazzate: tuple[SmazzataScore, ...],
            rulings: tuple[Ruling, ...]) -> tuple[int, int]:
    """The MP basis, in the domain's own order (domain/record/catalog.py, decide.py):
    - the regular counted smazzate, plus the rulings' adjustments when the unit is points (in a
      Briscola match of smazzate they adjust the smazzate won, not the card points);
    - after a timeout or abandon (C12/B2): the smazzate and rulings as they stood at the
      forfeit, plus the points kept from the interrupted smazzata, each side at least 0, plus
      the penalty; a later ruling adds its adjustment and annuls nothing of that settlement.
    """
    fmt = match_format(partita.game, partita.format_options)
    in_points = fmt is None or unit_of(fmt) == "punti"
    forfeit = partita.forfeit_version

    def before(ruling: Ruling) -> bool:
        return forfeit is None or ruling.version < forfeit

    annulled = {r.smazzata for r in rulings if r.kind == "annul-smazzata" and before(r)}
    regular = [sum(s.points[side] for s in smazzate
                   if s.spareggio == 0 and s.number not in annulled) for side in (0, 1)]
    adjusted = [regular[side] + (sum(r.adjustment[side] for r in rulings if before(r))
                                 if in_points else 0) for side in (0, 1)]
    if forfeit is None:
        return adjusted[0], adjusted[1]
    kept = (partita.kept_0 or 0, partita.kept_1 or 0)
    later = [sum(r.adjustment[side] for r in rulings if not before(r)) if in_points else 0
             for side in (0, 1)]
    penalty = (partita.penalty_0, partita.penalty_1)
    return tuple(max(adjusted[side] + kept[side], 0) + penalty[side] + later[side]
                 for side in (0, 1))  # type: ignore[return-value]


def _one(stream: str) -> Any:
    return select(Partita, Torneo.name, Verdetto).outerjoin(
        Torneo, Torneo.stream == Partita.tournament).outerjoin(
        Verdetto, Verdetto.stream == Partita.stream).where(Partita.stream == stream)


def _smazzata(row: Smazzata, running: Andamento | None) -> SmazzataScore:
    return SmazzataScore(
        number=row.number, dealer=row.dealer, points=(row.points_0, row.points_1),
        counted=(row.counted_0, row.counted_1),
        breakdown=tuple((str(c), int(a), int(b)) for c, a, b in json.loads(row.breakdown)),
        accusi=tuple((int(s), str(k), int(p)) for s, k, p in json.loads(row.accusi)),
        cappotto=row.cappotto, spareggio=row.spareggio, annulled=row.annulled,
        running=(running.total_0, running.total_1) if running else (0, 0),
        won=(running.won_0, running.won_1) if running else (0, 0))
