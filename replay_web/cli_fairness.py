"""`verbale fairness`: the fairness battery over a selection of stored deals
(projections/fairness, docs/fairness.md "The report").

A rich table on a terminal (plain aligned columns otherwise): per test its method, n, statistic,
p-value, Benjamini-Hochberg adjusted p-value and the verdict sentence; then the headline. The
transcribed deals follow in a table of their own. `--json` prints the report's documented shape.

Exit code: 0 when the report was made, flagged or not. A flag is a finding for an arbiter to
read (a fair store flags about one report in a hundred at alpha = 0.01), not a failed check:
`verify` fails on a broken record, which is never chance. `--fail-on-flag` makes a flag of a
selected population (`--population`, default all: the seeded and the transcribed deals) exit 1,
for a script that watches a store.
"""

from __future__ import annotations

import sys
from datetime import date

import click

from domain.record.events import PROVENANCES
from projections.fairness.battery import ALPHA, BatteryReport, Outcome, p_text
from projections.fairness.report import (
    POPULATIONS,
    TRANSCRIBED,
    FairnessReport,
    fairness_report,
)
from projections.fairness.selection import Criteria, SelectionError, ruleset_option, select_deals
from replay_web.cli import UsageProblem, cli, database_option
from replay_web.cli_database import open_store
from replay_web.i18n import _, ngettext, translate, translate_error
from replay_web.progress import progress
from replay_web.tables import Grid, echo_json, show

_NUMERIC = (2, 3, 4, 5)


def _day(_ctx: click.Context, param: click.Parameter, value: str | None) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise click.BadParameter(_("{value!r} is not a day YYYY-MM-DD").format(value=value),
                                 param=param) from None


def _options(_ctx: click.Context, param: click.Parameter,
             value: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    try:
        return tuple(ruleset_option(text) for text in value)
    except SelectionError as error:
        raise click.BadParameter(translate_error(error), param=param) from None


@cli.command("fairness")
@click.option("--tournament", default=None,
              help="Only deals of this tournament: the start of its id, or part of its name.")
@click.option("--since", default=None, callback=_day,
              help="Only deals dealt on this day (YYYY-MM-DD, UTC) or later.")
@click.option("--until", default=None, callback=_day,
              help="Only deals dealt on this day (YYYY-MM-DD, UTC) or earlier.")
@click.option("--game", type=click.Choice(["cirulla", "briscola"]), default=None,
              help="Only deals of this game.")
@click.option("--ruleset", "options", multiple=True, callback=_options, metavar="OPT=VAL",
              help="Only deals of matches whose ruleset has this option (repeatable), e.g. "
                   "redeal=tre-re.")
@click.option("--dealer", default=None,
              help="Only deals by this dealer: a seat (1, 2, ...) or part of a player's name.")
@click.option("--provenance", type=click.Choice(PROVENANCES), default=None,
              help="Only deals of matches recorded this way.")
@click.option("--alpha", type=click.FloatRange(min=0, max=1, min_open=True, max_open=True),
              default=ALPHA, show_default=True,
              help="The level at which a test flags, after Benjamini-Hochberg over the battery.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the report as a JSON object (docs/fairness.md).")
@click.option("--fail-on-flag", is_flag=True,
              help="Exit 1 when a test flags a selected population of deals (default: exit "
                   "0, a flag is a finding to read).")
@click.option("--population", type=click.Choice([*POPULATIONS, "all"]), default="all",
              show_default=True,
              help="The populations whose flags decide the headline, the JSON 'flagged' and "
                   "--fail-on-flag: the seeded deals, the transcribed (hand-shuffled) ones, "
                   "or all.")
@database_option
def fairness(tournament: str | None, since: date | None, until: date | None,
             game: str | None, options: tuple[tuple[str, str], ...], dealer: str | None,
             provenance: str | None, alpha: float, as_json: bool, fail_on_flag: bool,
             population: str, database: str | None) -> None:
    """Test whether the stored deals look like fair shuffles: card by deal slot and by seat,
    the events players suspect against their exact probabilities, runs across a table's deals,
    repeated seeds and decks; the dealer's and a side's win shares are shown as figures (they
    depend on play). Only ended matches are read; seeded and transcribed (hand-shuffled) deals
    are tested apart, each with its own verdict."""
    if since is not None and until is not None and since > until:
        raise UsageProblem(_("--since {since} is after --until {until}").format(
            since=since.isoformat(), until=until.isoformat()))
    criteria = Criteria(tournament=tournament, since=since, until=until, game=game,
                        ruleset=options, dealer=dealer, provenance=provenance)
    store = open_store(database, read_only=True)
    try:
        selection = select_deals(store, criteria, lambda matches: progress(
            matches, len(matches), _("reading deals")))
    except SelectionError as error:
        raise UsageProblem(translate_error(error)) from None
    finally:
        store.close()
    report = fairness_report(selection, criteria, alpha,
                             POPULATIONS if population == "all" else (population,))
    if as_json:
        echo_json(report.as_dict())
    else:
        render(report)
    if fail_on_flag and report.flagged:
        sys.exit(1)


def render(report: FairnessReport) -> None:
    """The report as tables and sentences."""
    click.echo(scope(report))
    verified = report.verified
    if verified.deals:
        show(Grid(headers(), [row(o) for o in verified.outcomes if o.n > 0], _NUMERIC,
                  title=_("Deals whose shuffle can be checked (seeded)")))
        descriptive_lines(verified)
    click.echo(translate(report.headline()))
    click.echo(apart_line(report))
    if report.transcribed.deals:
        show(Grid(headers(), [row(o) for o in report.transcribed.outcomes if o.n > 0],
                  _NUMERIC, title=_("Transcribed deals (hand-shuffled): no seed to check, "
                                    "tested as written down")))
        descriptive_lines(report.transcribed)
        click.echo(translate(report.population(TRANSCRIBED).headline()))


def descriptive_lines(battery: BatteryReport) -> None:
    """The figures that depend on play (the win shares): described, never a test."""
    for outcome in battery.descriptive:
        if outcome.n > 0:
            click.echo(translate(outcome.verdict))


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
    return text


def apart_line(report: FairnessReport) -> str:
    return _("Apart: {transcribed} transcribed or unseeded deals with every card known, and "
             "{incomplete} with unknown cards (counted, not tested).").format(
        transcribed=report.transcribed.deals, incomplete=report.incomplete)


def headers() -> list[str]:
    return [_("test"), _("method"), _("n"), _("statistic"), _("p"), _("BH-adjusted p"),
            _("verdict")]


def row(outcome: Outcome) -> list[str]:
    return [outcome.name, translate(outcome.method), str(outcome.n),
            f"{outcome.statistic:.4g}", p_text(outcome.p_value), p_text(outcome.adjusted),
            translate(outcome.verdict)]
