"""Tarocchi sheets as CSV (docs/tarocchi.md): a file of player-sheet lines, of table-sheet
lines or of penalties, told apart by its header. Every error names file, line and column."""

from __future__ import annotations

import csv
import io

from domain.text import say
from importers.notation.errors import NotationError
from importers.sheets import tarocchi_fields as fields
from importers.sheets.tarocchi_fields import Row
from importers.sheets.tarocchi_read import Sheets

KINDS = {"giocatore": fields.PLAYER_FIELDS, "tavolo": fields.TABLE_FIELDS,
         "penalita": fields.PENALTY_FIELDS}


def read_csv(text: str, source: str, *, lenient: bool = False) -> Sheets:
    """The rows of one CSV file. Strict: the first unreadable row raises NotationError;
    lenient: it is skipped and its error kept in `Sheets.errors`."""
    reader = csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline=""))
    try:
        lines = list(reader)
    except csv.Error as bad:
        raise NotationError(source, reader.line_num, 1, say("unreadable CSV ({reason})",
                                                            reason=str(bad)),
                            say("comma-separated cells, quoted with \"")) from None
    header_at = next((k for k, cells in enumerate(lines) if any(c.strip() for c in cells)), None)
    if header_at is None:
        raise NotationError(source, 1, 1, say("an empty file"), say("a header line"))
    header = [cell.strip().lower() for cell in lines[header_at]]
    kind = _kind(header, source, header_at + 1)
    sheets = Sheets()
    for number, cells in enumerate(lines[header_at + 1:], start=header_at + 2):
        if not any(cell.strip() for cell in cells):
            continue
        row = Row(source, number, _fields(header, cells))
        try:
            _one(sheets, kind, row, len(header), len(cells))
        except NotationError as error:
            if not lenient:
                raise
            sheets.errors.append(error)
    return sheets


def _kind(header: list[str], source: str, line: int) -> str:
    allowed = KINDS["giocatore"] if "piu" in header else (
        KINDS["tavolo"] if "totali" in header else KINDS["penalita"])
    kind = next(k for k, v in KINDS.items() if v is allowed)
    for column, name in enumerate(header, start=1):
        if name not in allowed:
            raise NotationError(source, line, column, repr(name), say(
                "a column of a {kind} sheet: {columns}", kind=kind, columns=", ".join(allowed)))
    return kind


def _fields(header: list[str], cells: list[str]) -> dict[str, tuple[str, int]]:
    found, column = {}, 1
    for name, cell in zip(header, cells, strict=False):
        found[name] = (cell, column)
        column += len(cell) + 1
    return found


def _one(sheets: Sheets, kind: str, row: Row, width: int, cells: int) -> None:
    if cells != width:
        raise NotationError(row.source, row.line, 1, say("{cells} cells", cells=cells),
                            say("{width} cells, as the header", width=width))
    if kind == "giocatore":
        sheets.players.append((fields.player_line(row), row))
    elif kind == "tavolo":
        sheets.tables.append((fields.table_line(row), row))
    else:
        sheets.penalties.append((fields.penalty(row), row))
