"""`verbale matches`: the stored matches, one line each (projections/store/listing.py).

A rich table when standard output is a terminal, plain aligned columns otherwise (a pipe, a
file, a test), or `--json`. The store is opened read-only: listing never writes.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import Any, TypeVar

import click

from projections.store.listing import Filters, Listing, MatchSummary, list_matches
from replay_web.cli import cli, database_option
from replay_web.cli_database import open_store
from replay_web.cli_legal import reason_text
from replay_web.i18n import _, ngettext
from replay_web.progress import progress

_NUMERIC = (7, 8)   # the columns right-aligned: rulings, irregularities
T = TypeVar("T")


@cli.command("matches")
@click.option("--game", type=click.Choice(["cirulla", "briscola"]), default=None,
              help="Only matches of this game.")
@click.option("--tournament", default=None,
              help="Only matches of this tournament: the start of its id, or part of its name.")
@click.option("--player", default=None, help="Only matches with a player whose name contains "
                                              "this (case-insensitive).")
@click.option("--provenance", type=click.Choice(["live", "simulated", "transcribed"]),
              default=None, help="Only matches recorded this way.")
@click.option("--state", type=click.Choice(["in-progress", "ended"]), default=None,
              help="Only matches in progress, or only those ended.")
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help="At most this many matches (the newest first).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array instead of a table.")
@database_option
def matches(game: str | None, tournament: str | None, player: str | None,
            provenance: str | None, state: str | None, limit: int | None, as_json: bool,
            database: str | None) -> None:
    """List the stored matches, newest first: id (its shortest unique start, which --match
    accepts), game, players, format, how it was recorded, state, result, rulings and noted
    irregularities."""
    filters = Filters(game=game, tournament=tournament, player=player, provenance=provenance,
                      state=state, limit=limit)
    store = open_store(database, read_only=True)
    try:
        listing = list_matches(store, filters, each=_progress)
    finally:
        store.close()
    if listing.unreadable:
        n = len(listing.unreadable)
        click.echo(ngettext("{n} stream could not be read (run verbale verify): {ids}",
                            "{n} streams could not be read (run verbale verify): {ids}",
                            n).format(n=n, ids=", ".join(map(str, listing.unreadable[:5]))),
                   err=True)
    if as_json:
        click.echo(json.dumps([as_record(m) for m in listing.matches], ensure_ascii=False,
                              indent=2))
        return
    if not listing.matches:
        click.echo(_("no match in the store") if listing.total == 0 else
                   _("no match passes the filters ({total} stored)").format(
                       total=listing.total))
        return
    rows = [row(m) for m in listing.matches]
    if sys.stdout.isatty():
        _rich_table(rows, listing)
    else:
        for line in aligned([headers(), *rows]):
            click.echo(line)


def _progress(items: Iterable[T], total: int | None, step: str) -> Iterable[T]:
    """A bar on standard error (when it is a terminal) over a long step of the listing."""
    steps = {"matches": _("reading the matches"), "results": _("reading their results"),
             "counts": _("counting rulings and irregularities")}
    return progress(items, total, steps.get(step, step))


def headers() -> list[str]:
    return [_("id"), _("game"), _("players"), _("format"), _("recorded"), _("state"),
            _("result"), _("rulings"), _("irregularities")]


def row(match: MatchSummary) -> list[str]:
    fmt = match.match_format
    flags = ",".join(flag.replace("_", "-") for flag in fmt.flags)
    return [match.prefix, match.game, ", ".join(match.players),
            fmt.text + (f" {flags}" if flags else ""), provenance_word(match.provenance),
            state_words(match), result_words(match), str(match.rulings),
            str(match.irregularities)]


def provenance_word(provenance: str | None) -> str:
    words = {"live": _("live"), "simulated": _("simulated"), "transcribed": _("transcribed")}
    return _("not recorded") if provenance is None else words.get(provenance, provenance)


def state_words(match: MatchSummary) -> str:
    if match.ending is None:
        return _("in progress")
    return _("ended: {how}").format(how=reason_text(match.ending.how))


def result_words(match: MatchSummary) -> str:
    ending, winners = match.ending, match.winners
    if ending is None or winners is None:
        return ""
    scores = f"{ending.scores[0]}-{ending.scores[1]}"
    if ending.unit == "smazzate":
        scores = _("{scores} smazzate").format(scores=scores)
    if not winners:
        return _("{scores}, drawn").format(scores=scores)
    return _("{scores}, won by {names}").format(scores=scores, names=", ".join(winners))


def aligned(lines: list[list[str]]) -> list[str]:
    """Columns padded to their widest cell, two spaces apart; numbers to the right."""
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    return ["  ".join(cell.rjust(w) if i in _NUMERIC else cell.ljust(w)
                      for i, (cell, w) in enumerate(zip(line, widths, strict=True))).rstrip()
            for line in lines]


def _rich_table(rows: list[list[str]], listing: Listing) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    for index, title in enumerate(headers()):
        table.add_column(title, justify="right" if index in _NUMERIC else "left",
                         no_wrap=index == 0)
    for cells in rows:
        table.add_row(*cells)
    console = Console()
    console.print(table)
    console.print(_("{shown} of {total} stored matches").format(
        shown=len(listing.matches), total=listing.total), style="dim")


def as_record(match: MatchSummary) -> dict[str, Any]:
    """One match for `--json`: numbers as numbers; players in seat order (seat 1 first), the
    scores with the side of seat 1 first."""
    ending, fmt = match.ending, match.match_format
    tournament = None if match.tournament is None else {
        "id": match.tournament, "name": match.tournament_name, "round": match.round,
        "table": match.table}
    return {
        "id": str(match.stream), "prefix": match.prefix, "created": match.created,
        "game": match.game, "players": list(match.players),
        "format": {"text": fmt.text, "kind": fmt.kind, "length": fmt.length,
                   "flags": list(fmt.flags)},
        "provenance": match.provenance, "tournament": tournament, "events": match.events,
        "state": match.state,
        "ended_how": None if ending is None else ending.how,
        "scores": None if ending is None else list(ending.scores),
        "unit": None if ending is None else ending.unit,
        "winners": None if match.winners is None else list(match.winners),
        "rulings": match.rulings, "irregularities": match.irregularities,
    }
