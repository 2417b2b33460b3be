"""A fairness report over a selection of stored deals: what `verbale fairness` prints and the
viewer's /fairness page shows (docs/fairness.md, "The report").

Two batteries, never pooled: the deals whose shuffle can be checked (seeded: live and simulated
matches), with the catalogue's events (suspected.py); and, apart, the transcribed deals whose
every card is known (a club's hand shuffle, written down afterwards). Those are tested the same
way for information, but nothing proves how they were shuffled: their flags say what the cards
look like, not that a seed was misused. Deals with unknown cards are only counted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from domain.text import Said, say
from projections.fairness.battery import ALPHA, BatteryReport, run_on_columns
from projections.fairness.columns import columns_of
from projections.fairness.deals import DealRecord
from projections.fairness.figures import Figures, figures_of
from projections.fairness.selection import Criteria, Selection
from projections.fairness.suspected import catalogued_events

SCHEMA = "verbale-fairness/1"


@dataclass(frozen=True, slots=True)
class FairnessReport:
    """The report: the criteria, the matches read and left out, the two batteries."""

    criteria: Criteria
    matches: int
    in_progress: int
    verified: BatteryReport
    transcribed: BatteryReport
    incomplete: int
    """Transcribed deals with an unknown card: counted, tested by nothing."""
    figures: Figures
    transcribed_figures: Figures

    @property
    def flagged(self) -> bool:
        """Whether a test of the verifiable deals flags (the transcribed ones never decide)."""
        return bool(self.verified.flagged)

    def headline(self) -> Said:
        """The one sentence an arbiter reads first."""
        report = self.verified
        if report.deals == 0:
            return say("No deal whose shuffle can be checked matches the selection: nothing "
                       "was tested.")
        if report.flagged:
            return say("{count} of {tests} tests flag the {deals} deals at the {alpha} level "
                       "(after Benjamini-Hochberg): {names}. Read each flagged test's verdict "
                       "before drawing a conclusion.", count=len(report.flagged),
                       tests=_ran(report), deals=report.deals,
                       alpha=format(report.alpha, "g"),
                       names=", ".join(o.name for o in report.flagged))
        return say("No test flags the {deals} deals at the {alpha} level (after "
                   "Benjamini-Hochberg over {tests} tests): the shuffle looks fair.",
                   deals=report.deals, alpha=format(report.alpha, "g"), tests=_ran(report))

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape of docs/fairness.md ("The JSON report"): strict JSON, a number that
        is not one (the adjusted p-value of a test that did not run) is null."""
        shape: dict[str, Any] = _strict({"schema": SCHEMA, "criteria": self.criteria.as_dict(),
                "matches": self.matches, "matches_in_progress_left_out": self.in_progress,
                "headline": str(self.headline()), "flagged": self.flagged,
                "verified": self.verified.as_dict(),
                "transcribed": self.transcribed.as_dict() | {"incomplete": self.incomplete}})
        return shape


def _strict(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _strict(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_strict(v) for v in value]
    return value


def _ran(report: BatteryReport) -> int:
    return sum(o.n > 0 for o in report.outcomes)


def fairness_report(selection: Selection, criteria: Criteria,
                    alpha: float = ALPHA) -> FairnessReport:
    """Both batteries over the selection, each with the catalogue's events of its deals."""
    records = selection.records
    whole = [r.complete for r in records]
    tested = [r for r, w in zip(records, whole, strict=True) if w and not r.transcribed]
    apart = [r for r, w in zip(records, whole, strict=True) if w and r.transcribed]
    unverifiable = [r for r, w in zip(records, whole, strict=True) if r.transcribed or not w]
    verified, verified_figures = _battery(tested, alpha, (
        len(unverifiable), len({r.match for r in unverifiable})))
    transcribed, transcribed_figures = _battery(apart, alpha, (0, 0))
    incomplete = whole.count(False)
    return FairnessReport(criteria, selection.matches, selection.in_progress, verified,
                          transcribed, incomplete, verified_figures, transcribed_figures)


def _battery(records: list[DealRecord], alpha: float,
             apart: tuple[int, int]) -> tuple[BatteryReport, Figures]:
    columns = columns_of(records)
    events = catalogued_events(records)
    report = run_on_columns(columns, events, records, alpha, apart=apart)
    return report, figures_of(columns, report, events)


__all__ = ["SCHEMA", "FairnessReport", "fairness_report"]
