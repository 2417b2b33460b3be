"""`verbale matches`: the stored matches, one line each, one page at a time, from the read
models (projections/read_models/queries.py `match_page`), caught up first when the store can be
written (replay_web/read_view.py).

A rich table when standard output is a terminal, plain aligned columns otherwise (a pipe, a
file, a test), or `--json`. Newest first; the footer says which page of how many.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import click

from domain.games import recorded_names
from domain.record.events import PROVENANCES
from projections.read_models.queries import (
    HOWS,
    LIST_STATES,
    PAGE_SIZE,
    MatchPage,
    MatchQuery,
    MatchRow,
)
from replay_web.cli import cli, database_option
from replay_web.cli_legal import reason_text
from replay_web.i18n import _, ngettext
from replay_web.read_view import open_read_models
from replay_web.tables import Grid, echo_json, pair, show

_NUMERIC = (7, 8, 9, 10)   # the columns right-aligned: MP, VP, rulings, irregularities


def _day(_ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value).isoformat()
    except ValueError:
        raise click.BadParameter(_("{value!r} is not a day YYYY-MM-DD").format(value=value),
                                 param=param) from None


@cli.command("matches")
@click.option("--game", type=click.Choice(recorded_names()), default=None,
              help="Only matches of this game.")
@click.option("--tournament", default=None,
              help="Only matches of this tournament: the start of its id, or part of its name.")
@click.option("--round", "round_", type=click.IntRange(min=1), default=None,
              help="Only matches of this round of their tournament.")
@click.option("--table", type=click.IntRange(min=1), default=None,
              help="Only matches at this table of their round.")
@click.option("--player", default=None, help="Only matches with a player whose name contains "
                                              "this (case-insensitive).")
@click.option("--since", default=None, callback=_day,
              help="Only matches created on this day (YYYY-MM-DD, UTC) or later.")
@click.option("--until", default=None, callback=_day,
              help="Only matches created on this day (YYYY-MM-DD, UTC) or earlier.")
@click.option("--provenance", type=click.Choice(PROVENANCES),
              default=None, help="Only matches recorded this way.")
@click.option("--state", type=click.Choice(LIST_STATES), default=None,
              help="Only matches in progress, or only those ended.")
@click.option("--how", type=click.Choice(HOWS), default=None,
              help="Only matches that ended this way ('ruling': a result restated by an "
                   "arbiter's ruling; 'spareggio': a KO tie-break was played).")
@click.option("--findings/--no-findings", default=None,
              help="Only matches with (or without) rulings, noted irregularities or findings "
                   "of 'verbale verify --record'.")
@click.option("--page", type=click.IntRange(min=1), default=1, show_default=True,
              help="Which page (newest matches on page 1).")
@click.option("--page-size", "--limit", "size", type=click.IntRange(min=1, max=10_000),
              default=PAGE_SIZE, show_default=True,
              help="Matches per page (--limit is the same).")
@click.option("--json", "as_json", is_flag=True,
              help="Print a JSON object: the page, the totals and the matches.")
@database_option
def matches(game: str | None, tournament: str | None, round_: int | None, table: int | None,
            player: str | None, since: str | None, until: str | None,
            provenance: str | None, state: str | None, how: str | None,
            findings: bool | None, page: int, size: int, as_json: bool,
            database: str | None) -> None:
    """List the stored matches, newest first, a page at a time: id (its shortest unique start,
    which --match accepts), game, players, format, how it was recorded, state, result, MP, VP,
    rulings, noted irregularities and the verdict of 'verbale verify --record'."""
    from projections.read_models.queries import match_page

    query = MatchQuery(game=game, tournament=tournament, round=round_, table=table,
                       player=player, since=since, until=until, provenance=provenance,
                       state=state, how=how.replace("-", " ") if how else None,
                       findings=findings, page=page, size=size)
    with open_read_models(database) as engine:
        listed = match_page(engine, query)
    if as_json:
        echo_json(page_record(listed))
    elif not listed.rows:
        click.echo(_empty(listed))
    else:
        show(Grid(headers(), [row(m) for m in listed.rows], _NUMERIC, footer=footer(listed)))


def _empty(listed: MatchPage) -> str:
    if listed.stored == 0:
        return _("no match in the store")
    if listed.total == 0:
        return _("no match passes the filters ({total} stored)").format(total=listed.stored)
    return _("page {page} is past the last ({pages})").format(page=listed.page,
                                                              pages=listed.pages)


def footer(listed: MatchPage) -> str:
    """`page 1 of 7, 35 matches` (and how many are stored when filters leave some out)."""
    count = ngettext("{n} match", "{n} matches", listed.total).format(n=listed.total)
    if not listed.exact:
        count = _("more than {n}").format(n=count)
    pages = str(listed.pages) if listed.exact else _("more than {n}").format(n=listed.pages)
    text = _("page {page} of {pages}, {count}").format(page=listed.page, pages=pages,
                                                       count=count)
    if listed.total != listed.stored:
        text = _("{text} ({stored} stored)").format(text=text, stored=listed.stored)
    return text


def headers() -> list[str]:
    return [_("id"), _("game"), _("players"), _("format"), _("recorded"), _("state"),
            _("result"), _("MP"), _("VP"), _("rulings"), _("irregularities"), _("verdict")]


def row(match: MatchRow) -> list[str]:
    flags = ",".join(flag.replace("_", "-") for flag in match.flags)
    return [match.prefix, match.game, ", ".join(match.players),
            match.match_format + (f" {flags}" if flags else ""),
            provenance_word(match.provenance), state_words(match), result_words(match),
            "" if match.mp is None else str(match.mp), pair(match.vp), str(match.rulings),
            str(match.irregularities), verdict_words(match)]


def provenance_word(provenance: str | None) -> str:
    words = {"live": _("live"), "simulated": _("simulated"), "transcribed": _("transcribed")}
    return _("not recorded") if provenance is None else words.get(provenance, provenance)


def state_words(match: MatchRow) -> str:
    if match.state != "ended" or match.how is None:
        return _("in progress")
    words = _("ended: {how}").format(how=reason_text(match.how))
    if match.spareggi:
        words = ngettext("{words}, after {n} spareggio", "{words}, after {n} spareggi",
                         match.spareggi).format(words=words, n=match.spareggi)
    return _("{words} (ruling)").format(words=words) if match.ruled else words


def result_words(match: MatchRow) -> str:
    winners = match.winners
    if match.scores is None or winners is None:
        return ""
    scores = pair(match.scores)
    if match.unit == "smazzate":
        scores = _("{scores} smazzate").format(scores=scores)
    if not winners:
        return _("{scores}, drawn").format(scores=scores)
    return _("{scores}, won by {names}").format(scores=scores, names=", ".join(winners))


def verdict_words(match: MatchRow) -> str:
    """What verify found at the match's last event; "-" when not checked as it now stands."""
    words = {"ok": _("ok"), "warning": _("warning"), "error": _("error")}
    if match.verdict is None:
        return "-"
    word = words.get(match.verdict, match.verdict)
    return f"{word} ({match.findings})" if match.findings else word


def page_record(listed: MatchPage) -> dict[str, Any]:
    """`--json`: {page, pages, size, total, total_exact, stored, matches: [as_record ...]}
    (`total_exact` false: at least `total` matches pass the filters, not counted further)."""
    return {"page": listed.page, "pages": listed.pages, "size": listed.size,
            "total": listed.total, "total_exact": listed.exact, "stored": listed.stored,
            "matches": [as_record(m) for m in listed.rows]}


def as_record(match: MatchRow) -> dict[str, Any]:
    """One match for `--json`: numbers as numbers; players in seat order (seat 1 first) with
    their sides (0: the side of seat 1), pairs of scores, VP and MP with that side first."""
    tournament = None if match.tournament is None else {
        "id": match.tournament, "name": match.tournament_name, "round": match.round,
        "table": match.table}
    return {
        "id": match.stream, "prefix": match.prefix, "created": match.created,
        "game": match.game, "players": list(match.players), "sides": list(match.sides),
        "format": match.match_format, "flags": list(match.flags), "provenance": match.provenance,
        "tournament": tournament, "state": match.state, "ended_how": match.how,
        "ruled": match.ruled, "scores": _list(match.scores), "unit": match.unit,
        "winners": None if match.winners is None else list(match.winners),
        "mp": match.mp, "vp": _list(match.vp), "mp_per_side": _list(match.mp_per_side),
        "smazzate": match.smazzate, "spareggi": match.spareggi, "rulings": match.rulings,
        "irregularities": match.irregularities, "verdict": match.verdict,
        "findings": match.findings,
    }


def _list(values: tuple[int, int] | None) -> list[int] | None:
    return None if values is None else list(values)
