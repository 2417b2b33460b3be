"""`verbale fairness`: the fairness battery over a selection of stored deals
(projections/fairness, docs/fairness.md "The report").

Printed as a director reads it (cli_fairness_text.py, with rich, wrapped to the terminal's width
or to 100 columns): the headline first (the verdict per population and per dealer), then per
kind of test its question in plain words, its method and its figures. `--json` prints the
report's documented shape.

Exit code: 0 when the report was made, flagged or not. A flag is a finding for an arbiter to
read (a fair store flags about one report in a hundred at alpha = 0.01), not a failed check:
`verify` fails on a broken record, which is never chance. `--fail-on-flag` makes a flag of a
selected population (`--population`, default all: the seeded and the transcribed deals) exit 1,
for a script that watches a store.
"""

from __future__ import annotations

import sys
from datetime import date
from typing import TYPE_CHECKING

import click

from domain.games import recorded_names
from domain.record.events import PROVENANCES
from projections.fairness.choices import ALPHA, POPULATIONS
from projections.fairness.selection import Criteria, SelectionError, ruleset_option, select_deals
from projections.store.ownership import owns_store
from replay_web.cli import UsageProblem, cli, database_option
from replay_web.cli_database import open_store
from replay_web.i18n import _, translate_error
from replay_web.progress import progress
from replay_web.tables import echo_json

if TYPE_CHECKING:
    from projections.fairness.privacy import PublicReport
    from projections.fairness.report import FairnessReport


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
@click.option("--game", type=click.Choice(recorded_names()), default=None,
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
@click.option("--public", "as_public", is_flag=True,
              help="Show the report as the public sees it (no figure over fewer deals than "
                   "the minimum population), even to the store's owner.")
@database_option
def fairness(tournament: str | None, since: date | None, until: date | None,
             game: str | None, options: tuple[tuple[str, str], ...], dealer: str | None,
             provenance: str | None, alpha: float, as_json: bool, fail_on_flag: bool,
             population: str, as_public: bool, database: str | None) -> None:
    """Test whether the stored deals look like fair shuffles: card by deal slot and by seat,
    the events players suspect against their exact probabilities, runs across a table's deals,
    repeated seeds and decks; the dealer's and a side's win shares are shown as figures (they
    depend on play). Only ended matches are read; seeded and transcribed (hand-shuffled) deals
    are tested apart, each with its own verdict."""
    if since is not None and until is not None and since > until:
        raise UsageProblem(_("--since {since} is after --until {until}").format(
            since=since.isoformat(), until=until.isoformat()))
    # The battery (numpy, scipy) is imported when the command runs, never for its options or
    # for `verbale --help` (issue 24).
    from projections.fairness.privacy import PrivacyError, min_deals, public_report, whole_report
    from projections.fairness.report import fairness_report

    criteria = Criteria(tournament=tournament, since=since, until=until, game=game,
                        ruleset=options, dealer=dealer, provenance=provenance)
    try:
        minimum = min_deals()
    except PrivacyError as error:
        raise UsageProblem(translate_error(error)) from None
    store = open_store(database, read_only=True)
    try:
        # Anyone but the store's owner gets the public's report (docs/fairness.md, "What the
        # public sees").
        owner = owns_store(store) and not as_public
        selection = select_deals(store, criteria, lambda matches: progress(
            matches, len(matches), _("reading deals")))
    except SelectionError as error:
        raise UsageProblem(translate_error(error)) from None
    finally:
        store.close()
    whole = fairness_report(selection, criteria, alpha,
                            POPULATIONS if population == "all" else (population,))
    shown = whole_report(whole, minimum) if owner else public_report(whole, minimum)
    report = shown.report
    if as_json:
        echo_json(shown.as_dict())
    else:
        render(report, shown)
    if fail_on_flag and report.flagged:
        sys.exit(1)


def render(report: FairnessReport, shown: PublicReport | None = None) -> None:
    """The report as a director reads it (`shown`: what of it this reader may see): headline
    first, then each test's question, method and figures (cli_fairness_text.py)."""
    from replay_web import cli_fairness_text

    cli_fairness_text.render(report, shown)
