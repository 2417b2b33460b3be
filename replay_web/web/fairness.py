"""`/fairness`: the fairness report of `verbale fairness` as a public page, with its figures
(docs/fairness.md "The report"; projections/fairness).

The filters are a GET form (tournament, days, game, ruleset options, dealer, provenance, alpha);
each figure shows with the test it illustrates: its method, n, p-value, adjusted p-value and
verdict sentence. Only ended matches are read (projections/fairness/selection.py): a match in
progress still has hands nobody has seen, and this page needs no login. The report reads the
selected matches' streams; the last few reports are kept, keyed by the filters and the store's
stream heads, so a reload or a second reader costs one query until the store changes.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from flask import Blueprint, abort, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from domain.games import recorded_names
from domain.record.events import PROVENANCES
from projections.fairness.battery import ALPHA, BatteryReport, Outcome, p_text
from projections.fairness.figures import Figures, Interval
from projections.fairness.report import FairnessReport, fairness_report
from projections.fairness.selection import Criteria, SelectionError, ruleset_option, select_deals
from projections.store.app import MatchStore
from replay_web.i18n import translate
from replay_web.web import fairness_privacy
from replay_web.web.app import services
from replay_web.web.fairness_svg import bars_svg, heatmap_svg, intervals_svg

blueprint = Blueprint("fairness", __name__)

GAMES = recorded_names()
KEPT = 8


@dataclass
class _Kept:
    reports: OrderedDict[tuple[Any, ...], FairnessReport] = field(default_factory=OrderedDict)


_KEPT = _Kept()


@dataclass(frozen=True, slots=True)
class Form:
    """The form's values as typed, the criteria they make, and what was wrong with them."""

    values: dict[str, str]
    criteria: Criteria
    alpha: float
    errors: tuple[str, ...]


@blueprint.get("/fairness")
def fairness() -> ResponseReturnValue:
    store = services().store
    if store is None:
        abort(404)
    form = read_form(request.args)
    # The reader's view of the report: nothing over fewer deals than the minimum population
    # for the public (fairness_privacy.py).
    public = None if form.errors else fairness_privacy.shown(report_of(store, form))
    report = public.report if public is not None else None
    from replay_web.web.fairness_dealers import page_context  # it imports this module
    return render_template("fairness.html", form=form, report=report, games=GAMES,
                           **page_context(public),
                           headline=said(public.headline()) if public is not None else "",
                           provenances=PROVENANCES,
                           notices=fairness_privacy.notices(public) if public else {},
                           sections=_sections(report) if report is not None else [])


def said(text: object) -> str:
    """A message of projections/fairness in the request's language."""
    return translate(text, gettext)


def read_form(args: Any) -> Form:
    values = {k: str(args.get(k, "")).strip() for k in
              ("tournament", "since", "until", "game", "ruleset", "dealer", "provenance",
               "alpha")}
    errors: list[str] = []
    days = {k: _day(values[k], errors) for k in ("since", "until")}
    options: list[tuple[str, str]] = []
    for text in values["ruleset"].replace(",", " ").split():
        try:
            options.append(ruleset_option(text))
        except SelectionError as error:
            errors.append(said(error.args[0]))
    alpha = _alpha(values["alpha"], errors)
    game = values["game"] if values["game"] in GAMES else None
    provenance = values["provenance"] if values["provenance"] in PROVENANCES else None
    criteria = Criteria(tournament=values["tournament"] or None, since=days["since"],
                        until=days["until"], game=game, ruleset=tuple(options),
                        dealer=values["dealer"] or None, provenance=provenance)
    return Form(values, criteria, alpha, tuple(errors))


def _day(text: str, errors: list[str]) -> date | None:
    if not text:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        errors.append(gettext("%(value)s is not a day YYYY-MM-DD", value=text))
        return None


def _alpha(text: str, errors: list[str]) -> float:
    if not text:
        return ALPHA
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < 1:
        errors.append(gettext("The level must be a number between 0 and 1, not %(value)s",
                              value=text))
        return ALPHA
    return value


def report_of(store: MatchStore, form: Form) -> FairnessReport:
    """The fairness report of the store for the form's criteria and level (kept while the
    store's heads do not move)."""
    heads = hashlib.sha256("".join(sorted(f"{h}" for h in store.heads())).encode()).hexdigest()
    key = (id(store), form.criteria, form.alpha, heads)
    kept = _KEPT.reports
    if key in kept:
        kept.move_to_end(key)
        return kept[key]
    report = fairness_report(select_deals(store, form.criteria), form.criteria, form.alpha)
    kept[key] = report
    while len(kept) > KEPT:
        kept.popitem(last=False)
    return report


# ---- what the template shows --------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Shown:
    """One test as the page shows it, with its figure (or none)."""

    outcome: Outcome
    title: str
    method: str
    verdict: str
    p: str
    adjusted: str
    figure: str


@dataclass(frozen=True, slots=True)
class Section:
    """One battery of the page: the seeded deals, or the transcribed ones apart."""

    key: str
    heading: str
    report: BatteryReport
    tests: list[Shown]
    events: str
    wins: str
    runs: str


def _sections(report: FairnessReport) -> list[Section]:
    out = [_section("verified", gettext("Deals whose shuffle can be checked"), report.verified,
                    report.figures)]
    if report.transcribed.deals:
        out.append(_section("transcribed", gettext("Transcribed deals (hand-shuffled)"),
                            report.transcribed, report.transcribed_figures))
    return out


def _section(key: str, heading: str, battery: BatteryReport, figures: Figures) -> Section:
    drawn = _figures(figures)
    tests = [Shown(o, said(o.title), said(o.method), said(o.verdict),
                   p_text(o.p_value), p_text(o.adjusted), drawn.get(o.name, ""))
             for o in battery.outcomes if o.n > 0]
    event_labels = [row.label for row in figures.events]
    return Section(
        key, heading, battery, tests,
        _intervals(figures.events, event_labels, gettext("Suspected events"),
                   gettext("Each event's frequency as a multiple of its exact probability: "
                           "the grey band is where a fair shuffle keeps it."),
                   f"{key}-events", gettext("times the exact probability")),
        _intervals(figures.wins, [_win_label(row) for row in figures.wins],
                   gettext("Smazzate won"),
            gettext("The share of smazzate won beside one half: it depends on play, not a "
                    "test of the shuffle (the game need not give half)."),
            f"{key}-wins", gettext("share won")),
        _intervals(figures.runs, [gettext("runs test")], gettext("Runs across deals"),
                   gettext("The runs test's z, with the band a fair shuffle keeps it in."),
                   f"{key}-runs", "z"))


def _win_label(row: Interval) -> str:
    return str(gettext("the dealer's side") if row.test == "dealer-wins"
               else gettext("side 0"))


def _intervals(rows: tuple[Interval, ...], labels: list[str], title: str, desc: str,
               figure_id: str, axis: str) -> str:
    if not rows:
        return ""
    return str(intervals_svg(rows, labels, title, desc, figure_id, axis))


def _figures(figures: Figures) -> dict[str, str]:
    drawn: dict[str, str] = {}
    for heatmap in figures.heatmaps:
        across = gettext("deal slot") if heatmap.test == "slots" else gettext("receiver")
        labels = tuple(translate(label, gettext) for label in heatmap.columns)
        drawn[heatmap.test] = str(heatmap_svg(
            replace(heatmap, columns=labels),
            gettext("Cards by %(what)s: observed against expected", what=across),
            gettext("Each cell is (observed - expected) / sqrt(expected): red more often than "
                    "a fair shuffle, blue less."), across))
    for bars in figures.bars:
        drawn[bars.test] = str(bars_svg(
            bars, gettext("Chi-square per slot"),
            gettext("One chi-square per slot (or pair of slots): the dashed line is its "
                    "expectation, the red one the level a single slot must pass to flag."),
            (gettext("expected"), gettext("flags"))))
    return drawn
