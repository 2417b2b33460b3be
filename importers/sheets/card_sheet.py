"""A club's score sheet for Cirulla and Briscola: the per-smazzata scores written on paper, as CSV.

One row per smazzata and side (docs/notation.md "Score sheets"):

    match,smazzata,side,scope,settebello,primiera,denari,carte,grande,piccola,accusi
    5c319fbd,1,1,1,1,1,0,1,0,0,0
    5c319fbd,1,2,0,0,0,1,0,0,0,3

`match` is a stored match's id or a unique start of it, `smazzata` and `side` count from 1, and
the other columns are the categories of the game's breakdown (docs/events.md section 5.2; a sheet
may keep only some of them; Briscola's `vinco subito` is written `vinco_subito`). An optional
`claimed_by` column names who kept the sheet. Reading checks the sheet's own shape only: every
error names the file, line and column; matching the rows against the stored matches is the
caller's (the command line holds the store).
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from dataclasses import dataclass

from domain.games import games
from domain.text import Said, excerpt, say
from importers.notation.errors import NotationError

FIXED = ("match", "smazzata", "side")
OPTIONAL = ("claimed_by",)
KNOWN = frozenset(category.replace("_", " ") for game in games() if game.recorded
                  for category in game.categories)
"""The category columns a sheet may have: the breakdown rows of the games the match record
holds (each Game's `categories`), written with a space for an underscore (`vinco subito`)."""


@dataclass(frozen=True, slots=True)
class SheetClaim:
    """The two sides' rows of one smazzata of one match, as the sheet writes them: `smazzata`
    0-based, `rows` (category, side 0, side 1) in the sheet's column order, `line` the first of
    its two lines."""

    match: str
    smazzata: int
    rows: tuple[tuple[str, int, int], ...]
    claimed_by: str
    line: int


@dataclass(frozen=True, slots=True)
class _Row:
    match: str
    smazzata: int
    side: int
    values: tuple[tuple[str, int], ...]
    claimed_by: str
    line: int


def read_sheet_bytes(data: bytes, source: str) -> tuple[SheetClaim, ...]:
    """`read_sheet` of a file's bytes: UTF-8 (a byte-order mark is skipped); a byte that is not
    is an error at its line and column."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise NotationError(source, line, column,
                            say("byte {byte}", byte=f"0x{data[error.start]:02X}"),
                            say("UTF-8 text")) from None
    return read_sheet(text, source)


def read_sheet(text: str, source: str) -> tuple[SheetClaim, ...]:
    """The claims of a sheet, in the order of their first lines; NotationError at the first
    problem (file, line, column)."""
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or not lines[0].strip():
        raise NotationError(source, 1, 1, say("an empty file"), _header_words())
    header = _header(lines[0], source)
    rows = [_row(header, fields, number, lines[number - 1], source)
            for number, fields in _records(lines, source) if any(f.strip() for f in fields)]
    return _paired(rows, source)


def _records(lines: list[str], source: str) -> Iterator[tuple[int, list[str]]]:
    for number, line in enumerate(lines[1:], start=2):
        try:
            fields = next(csv.reader([line]), [])
        except csv.Error as error:
            raise NotationError(source, number, 1, excerpt(line), say("a CSV line"),
                                say("{reason}", reason=str(error))) from None
        yield number, fields


def _header_words() -> Said:
    return say("a header line: match,smazzata,side then the categories (e.g. scope,"
               "settebello,... or punti,prese,carte)")


def _header(line: str, source: str) -> tuple[str, ...]:
    names = tuple(n.strip().lower().replace("_", " ") for n in next(csv.reader([line]), []))
    for index, name in enumerate(names):
        wanted = name.replace(" ", "_")
        if wanted in FIXED or wanted in OPTIONAL or name in KNOWN:
            continue
        raise NotationError(source, 1, _column(line, index), excerpt(name), _header_words())
    missing = [f for f in FIXED if f not in names]
    if missing:
        raise NotationError(source, 1, 1, excerpt(line), _header_words(),
                            say("the header lacks {columns}", columns=", ".join(missing)))
    if len(set(names)) != len(names):
        raise NotationError(source, 1, 1, excerpt(line), _header_words(),
                            say("a column is named twice"))
    return tuple(n.replace(" ", "_") if n.replace(" ", "_") in (*FIXED, *OPTIONAL) else n
                 for n in names)


def _row(header: tuple[str, ...], fields: list[str], number: int, line: str,
         source: str) -> _Row:
    if len(fields) != len(header):
        raise NotationError(source, number, 1, say("{count} fields", count=len(fields)),
                            say("{count} fields, as in the header", count=len(header)))
    cells = dict(zip(header, (f.strip() for f in fields), strict=True))
    values: list[tuple[str, int]] = []
    for index, name in enumerate(header):
        if name in FIXED or name in OPTIONAL:
            continue
        values.append((name, _number(cells[name], source, number, _column(line, index))))
    return _Row(match=_match(cells["match"], source, number),
                smazzata=_counted(cells, "smazzata", header, line, source, number) - 1,
                side=_counted(cells, "side", header, line, source, number) - 1,
                values=tuple(values), claimed_by=cells.get("claimed_by", ""), line=number)


def _match(text: str, source: str, number: int) -> str:
    if not text:
        raise NotationError(source, number, 1, say("an empty match"),
                            say("a match id or a unique start of it"))
    return text


def _counted(cells: dict[str, str], name: str, header: tuple[str, ...], line: str,
             source: str, number: int) -> int:
    column = _column(line, header.index(name))
    value = _number(cells[name], source, number, column)
    if value < 1 or (name == "side" and value > 2):
        raise NotationError(source, number, column, excerpt(cells[name]),
                            say("a side, 1 or 2") if name == "side"
                            else say("a smazzata number from 1"))
    return value


def _number(text: str, source: str, line: int, column: int) -> int:
    if not text.isascii() or not text.isdigit() or len(text) > 6:
        raise NotationError(source, line, column, excerpt(text) or say("an empty field"),
                            say("a whole number of points, 0 or more"))
    return int(text)


def _column(line: str, index: int) -> int:
    """The 1-based character column where field `index` of `line` starts (commas counted
    outside quotes)."""
    quoted = False
    field = 0
    for position, char in enumerate(line, start=1):
        if field == index:
            return position
        if char == '"':
            quoted = not quoted
        elif char == "," and not quoted:
            field += 1
    return len(line) + 1


def _paired(rows: list[_Row], source: str) -> tuple[SheetClaim, ...]:
    """Each (match, smazzata) has exactly one line per side."""
    by_key: dict[tuple[str, int], dict[int, _Row]] = {}
    for row in rows:
        sides = by_key.setdefault((row.match, row.smazzata), {})
        if row.side in sides:
            raise NotationError(source, row.line, 1, excerpt(f"{row.match} {row.smazzata + 1}"),
                                say("one line per side"), say(
                                    "match {match} smazzata {smazzata} side {side} is written "
                                    "twice (line {first} too)", match=row.match,
                                    smazzata=row.smazzata + 1, side=row.side + 1,
                                    first=sides[row.side].line))
        sides[row.side] = row
    return tuple(_claim(key, sides, source) for key, sides in by_key.items())


def _claim(key: tuple[str, int], sides: dict[int, _Row], source: str) -> SheetClaim:
    first = min(sides.values(), key=lambda r: r.line)
    if len(sides) != 2:
        raise NotationError(source, first.line, 1, excerpt(f"{key[0]} {key[1] + 1}"),
                            say("a line for each side"), say(
                                "match {match} smazzata {smazzata} has a line for side {side} "
                                "only", match=key[0], smazzata=key[1] + 1,
                                side=first.side + 1))
    a, b = sides[0], sides[1]
    rows = tuple((name, value, dict(b.values)[name]) for name, value in a.values)
    return SheetClaim(key[0], key[1], rows, a.claimed_by or b.claimed_by, first.line)
