"""The per-dealer view on /fairness and the printable fairness report (docs/fairness.md, "Per
dealer" and "The report").

`/fairness/print` is the report on A4 (static/fairness_print.css), `/fairness.pdf` the same
HTML through WeasyPrint, with the page's filters (the same query string). Like /fairness they
need no login and show a reader what fairness_privacy.py lets him see: no dealer, and no cell,
over fewer deals than the minimum population.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, abort, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from markupsafe import Markup

from projections.fairness.battery import BatteryReport, Outcome, p_text
from projections.fairness.dealers import DealerCell, DealerView
from projections.fairness.power import too_few
from projections.fairness.privacy import PublicReport
from projections.fairness.questions import kind_of, order, question, report_order
from projections.fairness.report import Population
from replay_web.web import fairness_privacy
from replay_web.web.app import services
from replay_web.web.fairness import GAMES, read_form, report_of, said
from replay_web.web.fairness_svg import DealerRow, dealers_svg
from replay_web.web.verbale_page import pdf_response

blueprint = Blueprint("fairness_print", __name__)


@dataclass(frozen=True, slots=True)
class Panel:
    """One event's figure: every shown dealer's rate against the exact probability."""

    event: str
    title: str
    expected: float
    svg: Markup
    flagged: bool


@dataclass(frozen=True, slots=True)
class DealerLine:
    """One dealer in the table: his deals and his most unusual cell."""

    dealer: str
    deals: int
    cell: DealerCell
    event: str


@dataclass(frozen=True, slots=True)
class DealerBlock:
    """What the page shows of one population's dealers."""

    key: str
    verdict: str
    method: str
    panels: list[Panel]
    lines: list[DealerLine]
    flagged: list[tuple[DealerCell, str]]
    noise: int
    hidden: int
    minimum: int


def dealer_view(population: Population, shown: PublicReport | None) -> DealerView | None:
    """The population's dealers as this reader may see them."""
    view = population.dealers
    if view is None:
        return None
    return view.public(shown.minimum) if shown is not None and shown.gated else view


def dealer_block(key: str, population: Population,
                 shown: PublicReport | None) -> DealerBlock | None:
    view = dealer_view(population, shown)
    if view is None or not population.battery.deals:
        return None
    panels = [_panel(key, view, event) for event in view.events()
              if view.of_event(event)]
    # a flag first, then Cirulla's events (the dealer's 15 among them), then Briscola's
    panels.sort(key=lambda p: (not p.flagged, p.event.startswith("briscola.")))
    mine: dict[str, list[DealerCell]] = defaultdict(list)
    for cell in view.cells:
        mine[cell.dealer].append(cell)
    lines = []
    for dealer, deals in view.dealers:
        if mine.get(dealer):
            worst = min(mine[dealer], key=lambda c: (not c.flagged, c.noise, c.p_value))
            lines.append(DealerLine(dealer, deals, worst, said(view.title(worst.event))))
    method = gettext(
        "Per dealer and event, a one-sided exact binomial test (more often than chance) of his "
        "count against the exact probability; Holm over every dealer × event cell "
        "(%(cells)s), so that an honest dealer is named with probability at most %(alpha)s; "
        "the line is his 99%% Clopper-Pearson interval, the dashed line the exact probability. "
        "A hollow grey dot: too few deals to say anything (fewer than one dealer needs for 80%% "
        "power against a doubled rate).", cells=sum(c.n > 0 for c in view.cells),
        alpha=format(view.alpha, "g"))
    return DealerBlock(key, said(view.verdict()), method,
                       panels, lines,
                       [(c, said(view.title(c.event))) for c in view.flagged],
                       sum(c.noise for c in view.cells), view.hidden, view.minimum)


def _panel(key: str, view: DealerView, event: str) -> Panel:
    cells = view.of_event(event)
    title = said(view.title(event))
    rows = [DealerRow(c.dealer, c.rate, c.low, c.high, c.flagged, c.noise,
                      gettext("%(dealer)s: %(k)s of %(n)s (%(rate)s; 99%% interval %(low)s to "
                              "%(high)s; expected %(expected)s)", dealer=c.dealer, k=c.k,
                              n=c.n, rate=f"{c.rate:.2%}", low=f"{c.low:.1%}",
                              high=f"{c.high:.1%}", expected=f"{c.expected:.2%}"))
            for c in cells]
    expected = cells[0].expected
    svg = dealers_svg(rows, expected, title,
                      gettext("Each dealer's rate of this event with its 99%% interval, "
                              "against the exact probability %(p)s (dashed).",
                              p=f"{expected:.2%}"),
                      f"{key}-dealers-{_slug(event)}", gettext("rate per deal"))
    return Panel(event, title, expected, svg, any(c.flagged for c in cells))


def _slug(name: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in name).strip("-")


@dataclass(frozen=True, slots=True)
class Group:
    """A kind of test with its question and its tests (their noise marks)."""

    kind: str
    question: str
    tests: list[tuple[Outcome, bool]]
    method: str


def groups(battery: BatteryReport) -> list[Group]:
    """The battery's tests that ran, by kind, in the report's order, with their question."""
    kinds: dict[str, list[tuple[Outcome, bool]]] = defaultdict(list)
    for outcome in battery.outcomes:
        if outcome.n > 0:
            kinds[kind_of(outcome.name)].append((outcome, _noise(outcome, battery.alpha)))
    for tests in kinds.values():
        tests.sort(key=lambda t: report_order(t[0].name))
    return [Group(kind, said(question(kind)), kinds[kind], _method(kind, kinds[kind]))
            for kind in sorted(kinds, key=order)]


def _method(kind: str, tests: list[tuple[Outcome, bool]]) -> str:
    if kind == "event":   # one method, each event against its own probability
        return str(gettext("Exact two-sided binomial test of each event's count against its exact "
                       "probability; Benjamini-Hochberg over the whole battery; 'noise' when "
                       "the deals are fewer than one dealer needs for 80%% power against a "
                       "doubled rate."))
    return " ".join(dict.fromkeys(said(o.method) for o, _ in tests))


def _noise(outcome: Outcome, alpha: float) -> bool:
    value = outcome.method.params.get("expected") if kind_of(outcome.name) == "event" else None
    try:
        return value is not None and outcome.n < too_few(float(str(value)), alpha)
    except ValueError:
        return False


def page_context(shown: PublicReport | None) -> dict[str, Any]:
    """What the page and the print page add to the report: per section key its question
    groups and its dealers' block; the dealers' question."""
    if shown is None:
        return {"groups": {}, "dealers": {}, "dealers_question": "", "p_text": p_text,
                "said": said}
    report = shown.report
    out_groups: dict[str, list[Group]] = {}
    blocks: dict[str, DealerBlock] = {}
    for key, name in fairness_privacy.SECTIONS.items():
        population = report.population(name)
        out_groups[key] = groups(population.battery)
        block = dealer_block(key, population, shown)
        if block is not None:
            blocks[key] = block
    return {"groups": out_groups, "dealers": blocks,
            "dealers_question": said(question("dealers")), "p_text": p_text, "said": said}


def _print(pdf: bool) -> str:
    store = services().store
    if store is None:
        abort(404)
    form = read_form(request.args)
    if form.errors:
        abort(400, "; ".join(form.errors))
    public = fairness_privacy.shown(report_of(store, form))
    return render_template("fairness_print.html", pdf=pdf, form=form, report=public.report,
                           headline=said(public.headline()), games=GAMES,
                           notices=fairness_privacy.notices(public), **page_context(public))


@blueprint.get("/fairness/print")
def fairness_print() -> ResponseReturnValue:
    return _print(pdf=False)


@blueprint.get("/fairness.pdf")
def fairness_pdf() -> ResponseReturnValue:
    return pdf_response(_print(pdf=True), "fairness.pdf")


__all__ = ["DealerBlock", "Group", "Panel", "blueprint", "dealer_block", "groups",
           "page_context"]
