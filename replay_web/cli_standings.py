"""`verbale standings --tournament ID-or-name` and `verbale player NAME`, from the read models
(projections/read_models/standings.py), caught up first when the store can be written
(replay_web/read_view.py).

Standings rank a tournament's lines (a player, or a pair at a table of 4) by VP, then MP, then
the tie-break order asked for (`--tiebreak`, default scontri,differenza,vittorie); lines still
level share their rank, shown `3=`. Then every round and table with its match's result and the
KO spareggi played. A player's record sums every match stored, with the latest ones.
"""

from __future__ import annotations

from typing import Any

import click

from projections.read_models.standings import (
    LineStanding,
    PlayerRecord,
    Standings,
    StandingsError,
    TableResult,
)
from replay_web.cli import UsageProblem, cli, database_option
from replay_web.cli_matches import as_record, headers, result_words, row, state_words
from replay_web.i18n import _, ngettext, translate_error
from replay_web.read_view import open_read_models
from replay_web.tables import Grid, echo_json, pair, show

_LINE_NUMERIC = (2, 3, 4, 5, 6, 7, 8, 9)
_TABLE_NUMERIC = (0, 1, 5, 6)


@cli.command("standings")
@click.option("--tournament", "tournament_text", required=True,
              help="The tournament: the start of its id, or part of its name.")
@click.option("--tiebreak", default=None,
              # A literal (the catalogue's extraction reads it): the keys of TIEBREAKS.
              help="The tie-break order after VP and MP, keys separated by commas: scontri "
                   "(VP won in the matches between the lines still level), differenza (points "
                   "made less points conceded), fatti (points made), vittorie (matches won). "
                   "Default: scontri,differenza,vittorie.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON object instead of tables.")
@database_option
def standings_command(tournament_text: str, tiebreak: str | None, as_json: bool,
                      database: str | None) -> None:
    """A tournament's standings (VP, then MP, then the tie-break order), its rounds and
    tables with each match's result, and the KO spareggi."""
    from projections.read_models.standings import (
        parse_tiebreak,
        resolve_tournament,
        standings,
        tournament_tables,
    )

    try:
        keys = parse_tiebreak(tiebreak)
    except StandingsError as error:
        raise UsageProblem(_("--tiebreak: {problem}").format(
            problem=translate_error(error))) from None
    with open_read_models(database) as engine:
        try:
            tournament, _name = resolve_tournament(engine, tournament_text)
            ranked = standings(engine, tournament, keys)
        except StandingsError as error:
            raise UsageProblem(_("--tournament: {problem}").format(
                problem=translate_error(error))) from None
        tables = tournament_tables(engine, tournament)
    if as_json:
        echo_json(standings_record(ranked, tables))
        return
    for line in standings_heading(ranked):
        click.echo(line)
    click.echo("")
    if ranked.lines:
        show(Grid(line_headers(), [line_cells(line) for line in ranked.lines], _LINE_NUMERIC))
    else:
        click.echo(_("no line has played an ended match yet"))
    if tables:
        click.echo("")
        show(Grid(table_headers(), [table_cells(t) for t in tables], _TABLE_NUMERIC,
                  title=_("rounds and tables")))


def standings_heading(ranked: Standings) -> list[str]:
    played = ngettext("{n} match", "{n} matches", ranked.matches).format(n=ranked.matches)
    return [
        _("{name} ({id}), {game}").format(name=ranked.name, id=ranked.tournament,
                                          game=ranked.game),
        _("VP table: {table}").format(table=ranked.vp_table),
        _("order: VP, MP, then {keys}").format(keys=", ".join(ranked.tiebreak) or "-"),
        _("{played}, {ended} ended").format(played=played, ended=ranked.ended),
    ]


def line_headers() -> list[str]:
    return [_("rank"), _("line"), _("played"), _("W"), _("D"), _("L"), _("VP"), _("MP"),
            _("for"), _("against")]


def rank_text(line: LineStanding) -> str:
    """`3`, or `3=` for a rank shared with another line (ex aequo)."""
    return f"{line.rank}=" if line.level else str(line.rank)


def line_cells(line: LineStanding) -> list[str]:
    return [rank_text(line), line.line, str(line.played), str(line.won), str(line.drawn),
            str(line.lost), str(line.vp), str(line.mp), str(line.points_for),
            str(line.points_against)]


def table_headers() -> list[str]:
    return [_("round"), _("table"), _("match"), _("players"), _("result"), _("MP"), _("VP"),
            _("spareggi")]


def table_cells(table: TableResult) -> list[str]:
    match = table.match
    result = result_words(match) if match.state == "ended" else state_words(match)
    return [_number(table.round), _number(table.table), match.prefix, _versus(match.players,
                                                                             match.sides),
            result, "" if match.mp is None else str(match.mp), pair(match.vp),
            spareggi_text(table.spareggi)]


def _number(value: int | None) -> str:
    return "-" if value is None else str(value)


def _versus(players: tuple[str, ...], sides: tuple[int, ...]) -> str:
    return " - ".join(", ".join(n for n, s in zip(players, sides, strict=True) if s == side)
                      for side in (0, 1))


def spareggi_text(spareggi: tuple[tuple[int, int, int], ...]) -> str:
    """`1: 5-3; 2: 4-4`: each KO tie-break smazzata with its points."""
    return "; ".join(f"{n}: {a}-{b}" for n, a, b in spareggi)


def standings_record(ranked: Standings, tables: tuple[TableResult, ...]) -> dict[str, Any]:
    """`--json`: the tournament, the VP table and tie-break order used, the ranked lines and
    every match by round and table (as `verbale matches --json` lists it) with its spareggi."""
    return {
        "tournament": {"id": ranked.tournament, "name": ranked.name, "game": ranked.game},
        "vp_table": ranked.vp_table, "tiebreak": list(ranked.tiebreak),
        "matches": ranked.matches, "ended": ranked.ended,
        "lines": [line_record(line) for line in ranked.lines],
        "tables": [{"round": t.round, "table": t.table, "match": as_record(t.match),
                    "spareggi": [{"spareggio": n, "points": [a, b]}
                                 for n, a, b in t.spareggi]} for t in tables],
    }


def line_record(line: LineStanding) -> dict[str, Any]:
    return {"rank": line.rank, "level": line.level, "line": line.line,
            "played": line.played, "won": line.won, "drawn": line.drawn, "lost": line.lost,
            "vp": line.vp, "mp": line.mp, "points_for": line.points_for,
            "points_against": line.points_against, "head_to_head": line.head_to_head}


@cli.command("player")
@click.argument("name")
@click.option("--recent", type=click.IntRange(min=0, max=1000), default=10, show_default=True,
              help="How many of their latest matches to list.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON object instead of tables.")
@database_option
def player_command(name: str, recent: int, as_json: bool, database: str | None) -> None:
    """A player's record over every stored match (the whole name, or a part of it that names
    one player): matches, wins, smazzate, VP and MP, accusi, scope, timeouts and abandons; then
    their latest matches."""
    from projections.read_models.standings import player_record

    with open_read_models(database) as engine:
        try:
            record = player_record(engine, name, recent)
        except StandingsError as error:
            raise UsageProblem(translate_error(error)) from None
    if as_json:
        echo_json(player_json(record))
        return
    show(Grid([_("player"), record.name], record_rows(record), (1,), no_wrap=()))
    click.echo("")
    if record.recent:
        show(Grid(headers(), [row(m) for m in record.recent], (7, 8, 9, 10),
                  title=_("latest matches")))
    else:
        click.echo(_("no match listed"))


def record_rows(record: PlayerRecord) -> list[list[str]]:
    return [[_("matches"), str(record.matches)], [_("ended"), str(record.ended)],
            [_("won"), str(record.won)], [_("drawn"), str(record.drawn)],
            [_("lost"), str(record.lost)], [_("smazzate"), str(record.smazzate)],
            [_("VP"), str(record.vp)], [_("MP"), str(record.mp)],
            [_("accusi"), str(record.accusi)], [_("accusi points"), str(record.accusi_points)],
            [_("scope"), str(record.scope)], [_("timeouts"), str(record.timeouts)],
            [_("abandons"), str(record.abandons)]]


PLAYER_COUNTS = ("matches", "ended", "won", "drawn", "lost", "smazzate", "vp", "mp", "accusi",
                 "accusi_points", "scope", "timeouts", "abandons")


def player_json(record: PlayerRecord) -> dict[str, Any]:
    """`--json`: {player, the counts of PLAYER_COUNTS, recent: [as `matches --json`]}."""
    return {"player": record.name,
            **{key: getattr(record, key) for key in PLAYER_COUNTS},
            "recent": [as_record(m) for m in record.recent]}
