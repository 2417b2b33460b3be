"""What of a fairness report the public may see: a minimum population of deals (k-anonymity
over deals; docs/fairness.md, "What the public sees").

A figure per card and position (a heat map cell, "the cell farthest from fair: 6c at slot 20",
an event seen 1 time in 1 deal) over a handful of deals describes those deals: over one deal the
slot heat map is the deck itself, the stock a timeout or an abandon left unplayed included. So a
public report (the viewer's /fairness, `verbale fairness` run by anyone but the store's owner)
shows a test, its figure and its verdict only when the test counted at least `minimum` deals
(MIN_DEALS, or the setting VERBALE_FAIRNESS_MIN_DEALS):

- a population (the seeded deals, the transcribed ones) with fewer deals shows nothing per
  position: no test, no figure, no verdict sentence, only its counts and a sentence saying why;
- a test over fewer deals (a layout, an event's population, a C1 reading met on a few deals) is
  left out of the public battery, which is decided again (Benjamini-Hochberg) over the tests
  shown: a withheld test's p-value moves nothing that is shown;
- the per-dealer view shows no dealer and no cell counted on fewer deals
  (dealers.DealerView.public, Holm decided again over the cells shown).

Counts (deals, matches, matches in progress, deals apart) are shown at any size: a deal, its
redeals and its dealer are public in the match's own timeline.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields, replace
from typing import Any

from domain.text import Said, say
from projections.fairness.battery import Outcome, decide_outcomes
from projections.fairness.figures import Figures
from projections.fairness.report import SEEDED, TRANSCRIBED, FairnessReport, Population

MIN_DEALS = 40
"""The default minimum population. 40 because (1) below 40 deals the 40 × 40 slot table expects
fewer than one card per cell, where no chi-square says anything anyway, so the public loses no
test worth reading; (2) it is more deals than one match usually has (a Cirulla match to 51 is
about 6 to 12 smazzate with their redeals, a Briscola match 1 to 5), so no filter isolates one
match's deals alone; (3) each cell then sums at least 40 deals, and telling one deal's card
apart needs the other 39 decks, which nobody outside the store has (docs/fairness.md)."""
SETTING = "VERBALE_FAIRNESS_MIN_DEALS"
"""The environment variable (or the viewer's config key) that sets another minimum."""

KNOWN_FIELDS = frozenset({"criteria", "matches", "in_progress", "populations", "incomplete"})
"""The report's fields the gate has looked at: a new field of FairnessReport must be gated here
(tests/projections/fairness/test_privacy.py fails until it is)."""
POPULATION_FIELDS = frozenset({"name", "battery", "figures", "selected", "dealers"})
"""The same for each population's fields."""


class PrivacyError(ValueError):
    """A minimum population that is not a whole number of deals of at least 1."""


def min_deals(value: str | int | None = None) -> int:
    """The minimum population: `value` (a setting's value) if given, else
    $VERBALE_FAIRNESS_MIN_DEALS, else MIN_DEALS."""
    raw = value if value is not None else os.environ.get(SETTING)
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return MIN_DEALS
    text = str(raw).strip()
    if not text.isdigit() or int(text) < 1:
        raise PrivacyError(say("{setting}={value!r}: the minimum population is a whole number "
                               "of deals, at least 1", setting=SETTING, value=text))
    return int(text)


def enough(deals: int, minimum: int) -> bool:
    """Whether a figure over `deals` deals may be shown to the public."""
    return deals >= minimum


@dataclass(frozen=True, slots=True)
class Withheld:
    """What the gate took out of one population: everything (`whole`: its deals are fewer
    than the minimum) or the tests counted on too few deals, each with its count."""

    population: str
    deals: int
    whole: bool
    tests: tuple[tuple[str, int], ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {"population": self.population, "deals": self.deals, "whole": self.whole,
                "tests": [{"name": name, "n": n} for name, n in self.tests]}


@dataclass(frozen=True, slots=True)
class PublicReport:
    """A report as one reader may see it: `report` with what was withheld taken out, the
    `minimum` applied, and `gated` False for the store's owner (or a logged-in arbiter), who
    sees the whole report."""

    report: FairnessReport
    minimum: int
    withheld: tuple[Withheld, ...]
    gated: bool

    def whole(self, population: str) -> bool:
        """Whether the whole population was withheld (too few deals)."""
        return any(w.whole and w.population == population for w in self.withheld)

    def tests_withheld(self, population: str) -> tuple[tuple[str, int], ...]:
        return next((w.tests for w in self.withheld if w.population == population), ())

    def headline(self) -> Said:
        """The report's headline, in which a population withheld whole says so instead of
        its verdict (a battery of no test would "look fair")."""
        report = self.report
        shown = sorted((p for p in report.populations if p.selected and p.battery.deals),
                       key=lambda p: not p.flagged)
        if not any(self.whole(p.name) for p in shown):
            return report.headline()
        parts = [self.population_headline(p) for p in shown]
        return parts[0] if len(parts) == 1 else say("{first} {second}", first=parts[0],
                                                    second=parts[1])

    def population_headline(self, population: Population) -> Said:
        """One population's verdict, or that it has too few deals to show."""
        if not self.whole(population.name):
            return population.headline()
        sentence = too_few_sentence(population.battery.deals, self.minimum)
        if population.name == TRANSCRIBED:
            return say("Transcribed (hand-shuffled) deals: {sentence}", sentence=sentence)
        return sentence

    def as_dict(self) -> dict[str, Any]:
        """The report's JSON with the headlines shown and what was withheld (`privacy`)."""
        shape = self.report.as_dict()
        for key, name in (("verified", SEEDED), ("transcribed", TRANSCRIBED)):
            if self.whole(name) and isinstance(shape.get(key), dict):
                shape[key]["headline"] = str(too_few_sentence(
                    self.report.population(name).battery.deals, self.minimum))
        return shape | {
            "headline": str(self.headline()),
            "privacy": {"minimum_deals": self.minimum, "gated": self.gated,
                        "withheld": [w.as_dict() for w in self.withheld]}}


def too_few_sentence(deals: int, minimum: int) -> Said:
    return say("Too few deals for a public figure: {deals} selected, fewer than the minimum of "
               "{minimum}. A figure per card or per position over so few deals could reveal the "
               "cards of a single deal, so nothing is shown per position. Widen the selection.",
               deals=deals, minimum=minimum)


def whole_report(report: FairnessReport, minimum: int) -> PublicReport:
    """The report as its owner sees it: nothing withheld."""
    return PublicReport(report, minimum, (), gated=False)


def public_report(report: FairnessReport, minimum: int) -> PublicReport:
    """The report as the public sees it (this module's docstring)."""
    unknown = ({f.name for f in fields(report)} - KNOWN_FIELDS) | {
        f"populations.{f.name}" for p in report.populations for f in fields(p)
        if f.name not in POPULATION_FIELDS}
    if unknown:
        raise TypeError(f"the privacy gate does not know the report's fields {sorted(unknown)}")
    gated: list[Population] = []
    withheld: list[Withheld] = []
    for population in report.populations:
        kept, taken = _gate(population, minimum)
        if kept.dealers is not None:   # no dealer, no cell over fewer deals (dealers.py)
            kept = replace(kept, dealers=kept.dealers.public(minimum))
        gated.append(kept)
        if taken is not None:
            withheld.append(taken)
    return PublicReport(replace(report, populations=tuple(gated)), minimum, tuple(withheld),
                        gated=True)


NO_FIGURES = Figures((), (), (), (), ())


def _gate(population: Population, minimum: int) -> tuple[Population, Withheld | None]:
    if population.dealers is not None:
        population = replace(population, dealers=population.dealers.public(minimum))
    battery = population.battery
    if battery.deals == 0:
        return population, None
    if not enough(battery.deals, minimum):
        return (replace(population, battery=replace(battery, outcomes=(), descriptive=()),
                        figures=NO_FIGURES),
                Withheld(population.name, battery.deals, True))
    small = [o for o in (*battery.outcomes, *battery.descriptive)
             if o.n > 0 and not enough(o.n, minimum)]
    if not small:
        return population, None
    kept = [o for o in battery.outcomes if not (o.n > 0 and not enough(o.n, minimum))]
    descriptive = tuple(o for o in battery.descriptive
                        if not (o.n > 0 and not enough(o.n, minimum)))
    decided = decide_outcomes(kept, battery.alpha)
    gated = replace(battery, outcomes=decided, descriptive=descriptive)
    return (replace(population, battery=gated, figures=_figures(population.figures,
                                                                 (*decided, *descriptive))),
            Withheld(population.name, battery.deals, False,
                     tuple((o.name, o.n) for o in small)))


def _figures(figures: Figures, shown: tuple[Outcome, ...]) -> Figures:
    """The figures of the tests shown (each figure names its test)."""
    names = {o.name for o in shown if o.n > 0}
    return Figures(tuple(f for f in figures.heatmaps if f.test in names),
                   tuple(f for f in figures.bars if f.test in names),
                   tuple(f for f in figures.events if f.test in names),
                   tuple(f for f in figures.wins if f.test in names),
                   tuple(f for f in figures.runs if f.test in names))


__all__ = ["MIN_DEALS", "SETTING", "PrivacyError", "PublicReport", "Withheld",
           "enough", "min_deals", "public_report", "too_few_sentence", "whole_report"]
