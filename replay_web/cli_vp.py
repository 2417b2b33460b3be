"""`verbale vp`: the VP split a match format's column gives an MP, or the whole column.

`verbale vp --game cirulla --format 21pt --mp 13` prints `16-4` (winner-loser); without `--mp`
the column as a table; `--table FILE` reads another table (the layout of domain/vp_tables.toml,
the one `verbale simulate matches --vp-table` lets a tournament declare); `--json` for programs.
A bad input is one line naming what is wrong, exit 2.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from domain.match_format import MatchFormat, MatchFormatError
from domain.record.events import DeclaredVpTable
from domain.vp_table import (
    STANDARD,
    VP_TOTAL,
    Correction,
    VpColumn,
    VpRow,
    VpTable,
    VpTableError,
    parse_vp_table,
    row_for_mp,
)
from domain.vp_table_data import vp_games
from replay_web.cli import UsageProblem, cli
from replay_web.i18n import _, translate, translate_error


def read_vp_table(path: str) -> tuple[DeclaredVpTable, VpTable]:
    """The table in the file at `path`, as a tournament declares it and parsed; a file that is
    not one is a UsageProblem naming the file and the line, column or cell."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise UsageProblem(_("{file}: not UTF-8 text ({problem})").format(
            file=path, problem=error.reason)) from None
    except OSError as error:
        raise UsageProblem(f"{path}: {error.strerror or error}") from None
    try:
        table = parse_vp_table(text, path)
    except VpTableError as error:
        raise UsageProblem(translate_error(error)) from None
    return DeclaredVpTable(name=Path(path).name, text=text), table


def declared_for_both_games(path: str) -> DeclaredVpTable:
    """The table of `path` as the demo's tournaments (one per game) declare it: it must have a
    table for Cirulla and one for Briscola (each game with VP tables, domain/games.py)."""
    declared, table = read_vp_table(path)
    for game in vp_games():
        try:
            table.game(game)
        except VpTableError as error:
            raise UsageProblem(f"{path}: {translate_error(error)}") from None
    return declared


def match_format(game: str, text: str) -> MatchFormat:
    """The format named `text`, scored by VP; a Briscola even count implies smazzate_pari."""
    try:
        return replace(_plain_format(game, text), vp=True)
    except MatchFormatError as error:
        raise UsageProblem(translate_error(error)) from None


def _plain_format(game: str, text: str) -> MatchFormat:
    try:
        return MatchFormat.parse(text, game)
    except MatchFormatError:
        try:
            return MatchFormat.parse(text, game, smazzate_pari=True)
        except MatchFormatError:
            pass  # not an even count either: the first refusal says why
        raise


def _bound(value: int | None) -> str:
    return "+" if value is None else str(value)


def _split(winner_vp: int) -> str:
    return f"{winner_vp}-{VP_TOTAL - winner_vp}"


@cli.command("vp")
@click.option("--game", type=click.Choice(vp_games()), required=True,
              help="The game whose VP table to read.")
@click.option("--format", "format_text", required=True,
              help="The match format: 7pt … 51pt or 1..6 smazzate (Cirulla); punti, 1, 2 or 3 "
                   "smazzate (Briscola).")
@click.option("--mp", type=int, default=None,
              help="The match's MP (winner's points less the loser's); without it, the whole "
                   "column.")
@click.option("--table", "table_file", type=click.Path(exists=True, dir_okay=False),
              default=None, help="Another VP table file (the layout of domain/vp_tables.toml).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def vp(game: str, format_text: str, mp: int | None, table_file: str | None,
       as_json: bool) -> None:
    """The VP split (winner-loser) the VP table gives a match won by MP points, or the whole
    column of the format."""
    table = STANDARD if table_file is None else read_vp_table(table_file)[1]
    fmt = match_format(game, format_text)
    try:
        column = table.column(fmt)
        row = None if mp is None else row_for_mp(fmt, mp, table=table)
    except (VpTableError, MatchFormatError) as error:
        raise UsageProblem(translate_error(error)) from None
    if row is None:
        _print_column(fmt, table, column, as_json)
        return
    if as_json:
        click.echo(json.dumps({"game": game, "format": fmt.text, "mp": mp,
                               "vp": [row.winner_vp, VP_TOTAL - row.winner_vp],
                               "table": _table_json(table), "row": _row_json(row)},
                              ensure_ascii=False))
        return
    click.echo(_split(row.winner_vp))


def _table_json(table: VpTable) -> dict[str, Any]:
    return {"name": table.name, "version": table.version, "sha256": table.sha256}


def _row_json(row: VpRow) -> dict[str, Any]:
    """The row's bounds: "a" null is the open top row ("+", this MP and above)."""
    return {"split": _split(row.winner_vp), "da": row.mp_from, "a": row.mp_to}


def _print_column(fmt: MatchFormat, table: VpTable, column: VpColumn, as_json: bool) -> None:
    fixes = {(c.row, c.bound): c for c in table.corrections()
             if c.game == fmt.game and c.column in column.formats}
    if as_json:
        click.echo(json.dumps({"game": fmt.game, "format": fmt.text, "column": column.label,
                               "table": _table_json(table),
                               "rows": [_row_json(r) for r in column.rows]},
                              ensure_ascii=False, indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    grid = Table(title=_("{table}: {game}, {column}").format(
        table=translate(table.describe()), game=fmt.game, column=column.label),
        show_edge=False, pad_edge=False, header_style="bold")
    for title, justify in ((_("VP"), "left"), (_("da MP"), "right"), (_("a MP"), "right"),
                           (_("reading"), "left")):
        grid.add_column(title, justify=justify)  # type: ignore[arg-type]
    for row in column.rows:
        grid.add_row(_split(row.winner_vp), str(row.mp_from), _bound(row.mp_to),
                     _readings(row, fixes))
    Console().print(grid)


def _readings(row: VpRow, fixes: dict[tuple[str, str], Correction]) -> str:
    """The corrections of this row's cells, e.g. "V5: da MP printed 23"."""
    said = [_("{reading}: {bound} MP printed {printed}").format(
        reading=fix.reading, bound=bound, printed=fix.printed)
        for bound in ("da", "a") if (fix := fixes.get((_split(row.winner_vp), bound)))]
    return "; ".join(said)
