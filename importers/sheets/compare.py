"""A score sheet's claims against the stored match they name: the same report as a hand record's.

For each smazzata the sheet writes, the claimed rows are set against the breakdown the rules
computed (SmazzataEnded), category by category; a smazzata the match has not played or not
finished, or a category the game does not score, is an error (the sheet is refused).
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.events import SmazzataEnded
from domain.record.match import MatchState
from domain.text import say
from importers.notation.report import (
    Report,
    ReportFinding,
    SmazzataScore,
    claim_differences,
    score_rows,
)
from importers.sheets.card_sheet import SheetClaim


def sheet_report(source: str, index: int, title: str, claims: Sequence[SheetClaim],
                 state: MatchState) -> Report:
    """Match `index` (1-based, in the sheet's order) of sheet `source`, titled `title`."""
    findings: list[ReportFinding] = []
    scores: list[SmazzataScore] = []
    for claim in claims:
        ended = _ended(state, claim.smazzata)
        if ended is None:
            findings.append(ReportFinding("error", "smazzata", say(
                "smazzata {smazzata} has not ended in the stored match", smazzata=claim.smazzata
                + 1), claim.line, 1, claim.smazzata + 1))
            continue
        computed = [(c, a, b) for c, a, b in ended.breakdown]
        rows = score_rows(claim.rows, computed)
        unknown = [r.category for r in rows if r.computed is None]
        if unknown:
            findings.append(ReportFinding("error", "category", say(
                "{game} scores no {categories}", game=state.rules.name,
                categories=", ".join(unknown)), claim.line, 1, claim.smazzata + 1))
        findings.extend(ReportFinding("finding", "claim", message, claim.line, 1,
                                      claim.smazzata + 1)
                        for message in claim_differences([r for r in rows
                                                          if r.computed is not None]))
        scores.append(SmazzataScore(claim.smazzata + 1, rows, claimed=True, ended=True))
    accepted = not any(f.severity == "error" for f in findings)
    return Report(source, index, title, accepted, tuple(findings), tuple(scores))


def _ended(state: MatchState, smazzata: int) -> SmazzataEnded | None:
    return next((e for e in state.ended if e.number == smazzata), None)
