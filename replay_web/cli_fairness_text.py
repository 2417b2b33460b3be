"""`verbale fairness` as a director reads it (docs/fairness.md, "The report"): printed with rich,
wrapped to the terminal's width (100 columns when the output is not a terminal), never a line
of thousands of characters.

The order: the headline first (the verdict per population: seeded deals, transcribed deals, and
per dealer), then the scope; then per population, per kind of test, its question in plain words
(projections/fairness/questions.py), its method, and its figures (a table, the verdict sentence
of a flagged test). A cell over too few deals to say anything is marked as noise: an event's
test or a dealer's cell counted on fewer deals than one dealer needs for 80% power against a
doubled rate (projections/fairness/power.py).
"""

from __future__ import annotations

import shutil
import sys
from collections import defaultdict
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

from projections.fairness.battery import BatteryReport, Outcome, p_text
from projections.fairness.dealers import DealerCell, DealerView
from projections.fairness.power import too_few
from projections.fairness.privacy import PublicReport, too_few_sentence
from projections.fairness.questions import kind_of, order, question, report_order
from projections.fairness.report import SEEDED, FairnessReport, Population
from replay_web.i18n import _, ngettext, translate

WIDTH = 100
"""The width when the output is not a terminal (a pipe, a file, a test)."""


def console() -> Console:
    """A console as wide as the terminal, or WIDTH columns when the output is not one."""
    if sys.stdout.isatty():
        return Console(width=shutil.get_terminal_size((WIDTH, 24)).columns, highlight=False)
    return Console(width=WIDTH, highlight=False, color_system=None)


def render(report: FairnessReport, shown: PublicReport | None = None,
           out: Console | None = None) -> None:
    """The whole report: headline, scope, then each population's tests by question."""
    out = out or console()
    out.rule(Text(_("Fairness of the shuffle"), style="bold"), align="left")
    for population in report.populations:
        if population.battery.deals or population.name == SEEDED:
            headline(out, population, shown)
    out.print(Text(scope(report)))
    for population in report.populations:
        if population.battery.deals and not (shown is not None and shown.whole(population.name)):
            section(out, population, shown)


def _population_name(population: Population) -> str:
    return (_("Seeded deals") if population.name == SEEDED
            else _("Transcribed (hand-shuffled) deals"))


def headline(out: Console, population: Population, shown: PublicReport | None) -> None:
    """One population's verdict, and its dealers'."""
    name = _population_name(population)
    if shown is not None and shown.whole(population.name):
        sentence = translate(too_few_sentence(population.battery.deals, shown.minimum))
    else:
        sentence = translate(population.headline())
    style = "bold red" if population.battery.flagged else "bold"
    if population.name == SEEDED:   # the transcribed headline names its population itself
        out.print(Text.assemble((f"{name}: ", "bold"), (sentence, style)))
    else:
        out.print(Text(sentence, style=style))
    dealers = _dealers(population, shown)
    if dealers is not None and population.battery.deals:
        out.print(Text.assemble((_("Per dealer: "), "bold"), translate(dealers.verdict())))


def _dealers(population: Population, shown: PublicReport | None) -> DealerView | None:
    if population.dealers is None:
        return None
    return population.dealers if shown is None or not shown.gated else (
        population.dealers.public(shown.minimum))


def scope(report: FairnessReport) -> str:
    deals = ngettext("{n} deal", "{n} deals", report.verified.deals).format(
        n=report.verified.deals)
    matches = ngettext("{n} ended match", "{n} ended matches", report.matches).format(
        n=report.matches)
    text = _("Fairness of the shuffle: {deals} to test, from {matches}.").format(
        deals=deals, matches=matches)
    if report.in_progress:
        text += " " + ngettext(
            "{n} match in progress is left out until it ends (its hands are not public).",
            "{n} matches in progress are left out until they end (their hands are not "
            "public).", report.in_progress).format(n=report.in_progress)
    text += " " + _("Apart: {transcribed} transcribed or unseeded deals with every card known, "
                    "and {incomplete} with unknown cards (counted, not tested).").format(
        transcribed=report.transcribed.deals, incomplete=report.incomplete)
    return text


def section(out: Console, population: Population, shown: PublicReport | None) -> None:
    """One population: per kind of test its question, method and figures."""
    battery = population.battery
    out.print()
    out.rule(Text(_("{population}: {deals} deals").format(
        population=_population_name(population), deals=battery.deals), style="bold"),
        align="left")
    if shown is not None:
        withheld = shown.tests_withheld(population.name)
        if withheld:
            out.print(Text(_("Left out, each counted on fewer than {minimum} deals (a figure "
                             "over so few deals could reveal the cards of a single deal): "
                             "{tests}.").format(minimum=shown.minimum, tests=", ".join(
                                 f"{name} ({n})" for name, n in withheld)), style="dim"))
    kinds: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in (*battery.outcomes, *battery.descriptive):
        if outcome.n > 0:
            kinds[kind_of(outcome.name)].append(outcome)
    dealers = _dealers(population, shown)
    if dealers is not None and dealers.cells:
        kinds["dealers"] = []
    for kind in sorted(kinds, key=order):
        kinds[kind].sort(key=lambda o: report_order(o.name))
        out.print()
        out.print(Text(translate(question(kind)), style="bold"))
        if kind == "event":
            events(out, kinds[kind], battery)
        elif kind == "dealers" and dealers is not None:
            per_dealer(out, dealers)
        else:
            tests(out, kinds[kind], battery)


def _method(out: Console, text: str) -> None:
    out.print(Text.assemble((_("Method: "), "italic"), text))


def _expected(outcome: Outcome) -> float | None:
    value = outcome.method.params.get("expected")
    try:
        return float(str(value)) if value is not None else None
    except ValueError:
        return None


def _word(flagged: bool, noise: bool) -> Text:
    if flagged:
        return Text(_("FLAGGED"), style="bold red")
    if noise:
        return Text(_("noise: too few deals"), style="dim")
    return Text(_("fair"))


def events(out: Console, outcomes: Sequence[Outcome], battery: BatteryReport) -> None:
    """The suspected events: one row each, seen against expected."""
    _method(out, _("exact two-sided binomial test of each event's count against its exact "
                   "probability (docs/fairness.md, \"Exact probabilities\"); Benjamini-Hochberg "
                   "over the whole battery; 'noise' when the deals are fewer than one dealer "
                   "needs for 80% power against a doubled rate."))
    table = _table([_("event"), _("n"), _("seen"), _("expected"), _("p"), _("BH-adjusted p"),
                    _("verdict")], numeric=(1, 2, 3, 4, 5))
    for o in outcomes:
        p = _expected(o)
        noise = p is not None and o.n < too_few(p, battery.alpha)
        table.add_row(Text(translate(o.title)), str(o.n), f"{o.statistic:.0f}",
                      f"{o.n * p:.1f}" if p is not None else "-", p_text(o.p_value),
                      p_text(o.adjusted), _word(o.flagged, noise))
    out.print(table)
    _flagged_sentences(out, outcomes)


def tests(out: Console, outcomes: Sequence[Outcome], battery: BatteryReport) -> None:
    """A kind of test other than the events: its method, a row per test, its verdicts."""
    methods = dict.fromkeys(translate(o.method) for o in outcomes)
    for method in methods:
        _method(out, method)
    descriptive = all(o in battery.descriptive for o in outcomes)
    if not descriptive:
        table = _table([_("test"), _("n"), _("statistic"), _("p"), _("BH-adjusted p"),
                        _("verdict")], numeric=(1, 2, 3, 4))
        for o in outcomes:
            table.add_row(Text(o.name), str(o.n), f"{o.statistic:.4g}", p_text(o.p_value),
                          p_text(o.adjusted), _word(o.flagged, False))
        out.print(table)
    for o in outcomes:
        out.print(Text(translate(o.verdict), style="bold red" if o.flagged else ""))


def _flagged_sentences(out: Console, outcomes: Sequence[Outcome]) -> None:
    for o in outcomes:
        if o.flagged:
            out.print(Text(translate(o.verdict), style="bold red"))


def per_dealer(out: Console, view: DealerView) -> None:
    """Per dealer: his deals, his most unusual cell, and every flagged cell."""
    _method(out, _("per dealer and event, a one-sided exact binomial test (more often than "
                   "chance) of his count against the exact probability; Holm over every "
                   "dealer x event cell ({cells}), so that an honest dealer is named with "
                   "probability at most {alpha}; 99% Clopper-Pearson intervals.").format(
        cells=sum(c.n > 0 for c in view.cells), alpha=format(view.alpha, "g")))
    table = _table([_("dealer"), _("deals"), _("most unusual event"), _("seen"), _("rate"),
                    _("expected"), _("interval (99%)"), _("Holm p"), _("verdict")],
                   numeric=(1, 3, 4, 5, 7))
    mine: dict[str, list[DealerCell]] = defaultdict(list)
    for cell in view.cells:
        mine[cell.dealer].append(cell)
    for dealer, deals in view.dealers:
        cells = mine.get(dealer, [])
        if not cells:
            continue
        worst = min(cells, key=lambda c: (not c.flagged, c.noise, c.p_value))
        table.add_row(Text(dealer), str(deals), Text(translate(view.title(worst.event))),
                      f"{worst.k}/{worst.n}", f"{worst.rate:.2%}", f"{worst.expected:.2%}",
                      f"{worst.low:.1%}-{worst.high:.1%}", p_text(worst.adjusted),
                      _word(worst.flagged, worst.noise))
    out.print(table)
    noise = sum(c.noise for c in view.cells)
    if noise:
        out.print(Text(ngettext(
            "{n} dealer x event cell has too few deals to say anything (noise): fewer than one "
            "dealer needs for 80% power against a doubled rate (docs/fairness.md, "
            "\"Per-dealer power\").",
            "{n} dealer x event cells have too few deals to say anything (noise): fewer than "
            "one dealer needs for 80% power against a doubled rate (docs/fairness.md, "
            "\"Per-dealer power\").", noise).format(n=noise), style="dim"))
    if view.hidden:
        out.print(Text(ngettext(
            "{n} dealer with fewer than {minimum} deals is not shown.",
            "{n} dealers with fewer than {minimum} deals are not shown.", view.hidden).format(
            n=view.hidden, minimum=view.minimum), style="dim"))
    for cell in view.flagged:
        out.print(Text(_("{dealer}: {event} {k} times in {n} deals ({rate}, expected "
                         "{expected}; interval (99%) {low} to {high}), Holm-adjusted "
                         "p = {p}.").format(dealer=cell.dealer,
                                             event=translate(view.title(cell.event)),
                                             k=cell.k, n=cell.n, rate=f"{cell.rate:.2%}",
                                             expected=f"{cell.expected:.2%}",
                                             low=f"{cell.low:.1%}", high=f"{cell.high:.1%}",
                                             p=p_text(cell.adjusted)),
                       style="bold red"))


def _table(headers: Sequence[str], numeric: Sequence[int]) -> Table:
    table = Table(show_edge=False, pad_edge=False, header_style="bold", box=None)
    for index, title in enumerate(headers):
        table.add_column(title, justify="right" if index in numeric else "left",
                         overflow="fold")
    return table


__all__ = ["WIDTH", "console", "render"]
