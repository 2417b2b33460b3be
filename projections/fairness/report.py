"""A fairness report over a selection of stored deals: what `verbale fairness` prints and the
viewer's /fairness page shows (docs/fairness.md, "The report").

Two populations, never pooled, each its own battery and headline verdict: the deals whose
shuffle can be checked (seeded: live and simulated matches), with the catalogue's events
(suspected.py); and the transcribed deals whose every card is known (a club's hand shuffle,
written down afterwards). A hand-shuffled table is where a dealer can cheat, so its flags count
as much as the seeded deals' (`flagged`, `--fail-on-flag`) unless the caller selects only some
populations (`--population`). Nothing proves how a hand shuffle was made: a flag there says the
cards as written down are not what a fair shuffle gives (a dealer who stacks, or a wrong
transcription), not that a seed was misused. Deals with unknown cards are only counted.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from domain.text import Said, say
from projections.fairness.battery import BatteryReport, run_on_columns
from projections.fairness.choices import ALPHA, POPULATIONS, SEEDED, TRANSCRIBED
from projections.fairness.columns import columns_of
from projections.fairness.dealers import DealerView, dealer_view
from projections.fairness.deals import DealRecord
from projections.fairness.figures import Figures, figures_of
from projections.fairness.selection import Criteria, Selection
from projections.fairness.suspected import catalogued_events

SCHEMA = "verbale-fairness/2"


@dataclass(frozen=True, slots=True)
class Population:
    """One population's battery, its figures, and whether it is selected (`--population`): the
    flags of a selected population decide the report (`flagged`, `--fail-on-flag`)."""

    name: str
    battery: BatteryReport
    figures: Figures
    selected: bool = True
    dealers: DealerView | None = None
    """The per-dealer view of the same deals (dealers.py): never pooled across populations."""

    @property
    def flagged(self) -> bool:
        """A test of this population flags, and the population is selected."""
        return self.selected and bool(self.battery.flagged)

    def headline(self) -> Said:
        """This population's verdict in one sentence."""
        report = self.battery
        if self.name == SEEDED:
            return _seeded_headline(report)
        if report.deals == 0:
            return say("No transcribed deal with every card known matches the selection: no "
                       "hand shuffle was tested.")
        if report.flagged:
            return say("Transcribed (hand-shuffled) deals: {count} of {tests} tests flag the "
                       "{deals} deals at the {alpha} level (after Benjamini-Hochberg): "
                       "{names}. A hand shuffle is where a dealer can cheat: read each flagged "
                       "test's verdict, and narrow the deals by dealer.",
                       count=len(report.flagged), tests=_ran(report), deals=report.deals,
                       alpha=format(report.alpha, "g"),
                       names=", ".join(o.name for o in report.flagged))
        return say("Transcribed (hand-shuffled) deals: no test flags the {deals} deals at the "
                   "{alpha} level (after Benjamini-Hochberg over {tests} tests): the hand "
                   "shuffles look fair.", deals=report.deals,
                   alpha=format(report.alpha, "g"), tests=_ran(report))

    def as_dict(self) -> dict[str, Any]:
        return self.battery.as_dict() | {"headline": str(self.headline()),
                                         "selected": self.selected,
                                         "dealers": self.dealers.as_dict()
                                         if self.dealers is not None else None}


def _seeded_headline(report: BatteryReport) -> Said:
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


@dataclass(frozen=True, slots=True)
class FairnessReport:
    """The report: the criteria, the matches read and left out, one `Population` per name of
    POPULATIONS (in that order, selected or not), and the transcribed deals with an unknown
    card (`incomplete`: counted, tested by nothing)."""

    criteria: Criteria
    matches: int
    in_progress: int
    populations: tuple[Population, ...]
    incomplete: int

    def population(self, name: str) -> Population:
        return next(p for p in self.populations if p.name == name)

    @property
    def selected(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.populations if p.selected)

    @property
    def verified(self) -> BatteryReport:
        """The seeded deals' battery."""
        return self.population(SEEDED).battery

    @property
    def transcribed(self) -> BatteryReport:
        """The transcribed deals' battery."""
        return self.population(TRANSCRIBED).battery

    @property
    def figures(self) -> Figures:
        return self.population(SEEDED).figures

    @property
    def transcribed_figures(self) -> Figures:
        return self.population(TRANSCRIBED).figures

    @property
    def flagged(self) -> bool:
        """Whether a test of a selected population flags."""
        return any(p.flagged for p in self.populations)

    def headline(self) -> Said:
        """What an arbiter reads first: the verdict of each selected population that has
        deals (a flagged one first), or that nothing was tested."""
        shown = sorted((p for p in self.populations if p.selected and p.battery.deals),
                       key=lambda p: not p.flagged)
        if not shown:
            chosen = [p for p in self.populations if p.selected]
            return chosen[0].headline() if len(chosen) == 1 else say(
                "No deal with every card known matches the selection: nothing was tested.")
        if len(shown) == 1:
            return shown[0].headline()
        return say("{first} {second}", first=shown[0].headline(), second=shown[1].headline())

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape of docs/fairness.md ("The report"): strict JSON, a number that
        is not one (the adjusted p-value of a test that did not run) is null."""
        shape: dict[str, Any] = _strict({
            "schema": SCHEMA, "criteria": self.criteria.as_dict(),
            "populations": list(self.selected),
            "matches": self.matches, "matches_in_progress_left_out": self.in_progress,
            "headline": str(self.headline()), "flagged": self.flagged,
            "verified": self.population(SEEDED).as_dict(),
            "transcribed": self.population(TRANSCRIBED).as_dict()
            | {"incomplete": self.incomplete}})
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


def fairness_report(selection: Selection, criteria: Criteria, alpha: float = ALPHA,
                    populations: Iterable[str] = POPULATIONS) -> FairnessReport:
    """Both batteries over the selection, each with the catalogue's events of its deals;
    `populations` the ones whose flags decide the report (both are always computed)."""
    chosen = frozenset(populations)
    unknown = chosen - set(POPULATIONS)
    if unknown or not chosen:
        raise ValueError(say("a population is one of {known}, not {got}",
                             known=", ".join(POPULATIONS),
                             got=", ".join(sorted(unknown)) or "none"))
    records = selection.records
    whole = [r.complete for r in records]
    tested = [r for r, w in zip(records, whole, strict=True) if w and not r.transcribed]
    apart = [r for r, w in zip(records, whole, strict=True) if w and r.transcribed]
    unverifiable = [r for r, w in zip(records, whole, strict=True) if r.transcribed or not w]
    verified, verified_figures, verified_dealers = _battery(tested, alpha, (
        len(unverifiable), len({r.match for r in unverifiable})))
    transcribed, transcribed_figures, transcribed_dealers = _battery(apart, alpha, (0, 0))
    incomplete = whole.count(False)
    return FairnessReport(criteria, selection.matches, selection.in_progress, (
        Population(SEEDED, verified, verified_figures, SEEDED in chosen, verified_dealers),
        Population(TRANSCRIBED, transcribed, transcribed_figures, TRANSCRIBED in chosen,
                   transcribed_dealers)),
        incomplete)


def _battery(records: list[DealRecord], alpha: float,
             apart: tuple[int, int]) -> tuple[BatteryReport, Figures, DealerView]:
    columns = columns_of(records)
    events = catalogued_events(records)
    report = run_on_columns(columns, events, records, alpha, apart=apart)
    return report, figures_of(columns, report, events), dealer_view(records, events, alpha)


__all__ = ["POPULATIONS", "SCHEMA", "SEEDED", "TRANSCRIBED", "FairnessReport", "Population",
           "fairness_report"]
