"""A VP table file (domain/vp_tables.toml and any table a tournament declares), parsed and checked.

`parse_vp_table(text, origin)` is pure: it takes the file's text, never a path, and either
returns a `VpTable` whose every column covers MP from 0 with no gap and no overlap once the
readings' corrections are applied, or raises `VpTableError` naming the file (`origin`), the
game, column and row, and what is wrong. The layout is described at the top of vp_tables.toml.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass, field
from typing import Any

from domain.match_format import MatchFormat, MatchFormatError
from domain.text import Said, say

VP_TOTAL = 20
OPEN = None  # the "+" of a top row
BOUNDS = ("da", "a")

Cell = tuple[int, int | None] | None  # (da MP, a MP or OPEN), None for an empty cell


class VpTableError(MatchFormatError):
    """A VP table file that is not one, or an MP or VP that cannot occur in a column."""


@dataclass(frozen=True, slots=True)
class VpRow:
    winner_vp: int
    mp_from: int
    mp_to: int | None  # None: "+", this MP and above


@dataclass(frozen=True, slots=True)
class Correction:
    """A printed cell a reading decides otherwise: `column` is one of the column's formats."""

    reading: str
    game: str
    column: str
    row: str
    bound: str  # "da" (from) or "a" (to)
    printed: int
    decided: int

    @property
    def winner_vp(self) -> int:
        return int(self.row.split("-")[0])


@dataclass(frozen=True, slots=True)
class Reading:
    id: str
    text: str
    correction: Correction | None


@dataclass(frozen=True, slots=True)
class VpColumn:
    label: str
    formats: tuple[str, ...]
    printed: tuple[Cell, ...]  # one per row of the table, as printed
    rows: tuple[VpRow, ...]  # the cells that can occur, corrected

    @property
    def key(self) -> str:
        """The column's name in messages and test ids: its first format ("21pt")."""
        return self.formats[0]


@dataclass(frozen=True, slots=True)
class GameTable:
    game: str
    source: str
    title: str
    mp_step: int
    columns: tuple[VpColumn, ...]


@dataclass(frozen=True, slots=True)
class VpTable:
    name: str
    version: int
    sha256: str  # of the file's text (UTF-8): two tables of one name are told apart by it
    origin: str
    row_labels: tuple[str, ...]
    games: tuple[GameTable, ...]
    readings: tuple[Reading, ...]
    text: str = field(repr=False, compare=False)  # the file's text, as parsed (sha256 is of it)

    def describe(self) -> Said:
        """E.g. "verbale standard v2 (000, 004; readings V1–V5)"."""
        sources = ", ".join(g.source for g in self.games)
        ids = [r.id for r in self.readings]
        if not ids:
            return say("{name} v{version} ({sources})", name=self.name, version=self.version,
                       sources=sources)
        return say("{name} v{version} ({sources}; readings {readings})", name=self.name,
                   version=self.version, sources=sources, readings=_ranged(ids))

    def game(self, game: str) -> GameTable:
        for table in self.games:
            if table.game == game:
                return table
        raise VpTableError(say("VP table {table}: no table for {game}", table=self.describe(),
                               game=game))

    def column(self, fmt: MatchFormat) -> VpColumn:
        _ = fmt.vp_column  # a format the sources give no column says so first
        for column in self.game(fmt.game).columns:
            if fmt.text in column.formats:
                return column
        raise VpTableError(say("VP table {table}: no {game} column for {format}",
                               table=self.describe(), game=fmt.game, format=fmt.text))

    def corrections(self) -> tuple[Correction, ...]:
        return tuple(r.correction for r in self.readings if r.correction is not None)


def _ranged(ids: list[str]) -> str:
    """"V1–V5" for V1, V2, ..., V5 in a row; else the ids listed."""
    numbers = [re.fullmatch(r"V(\d+)", i) for i in ids]
    values = [int(m.group(1)) for m in numbers if m is not None]
    if len(ids) > 2 and len(values) == len(ids) and values == list(
            range(values[0], values[0] + len(values))):
        return f"{ids[0]}–{ids[-1]}"
    return ", ".join(ids)


# --- parsing ---------------------------------------------------------------------------------

def parse_vp_table(text: str, origin: str) -> VpTable:
    """The VP table of `text` (a TOML file named `origin` in messages), checked whole."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as bad:
        raise VpTableError(say("{origin}: not a TOML file: {problem}", origin=origin,
                               problem=str(bad))) from None
    name = _field(data, "name", str, origin)
    version = _field(data, "version", int, origin)
    row_labels = _rows(_field(data, "rows", list, origin), origin)
    games = _field(data, "games", dict, origin)
    if not games:
        raise VpTableError(say("{origin}: no games", origin=origin))
    readings = tuple(_reading(r, origin, i) for i, r in
                     enumerate(_field(data, "readings", list, origin, required=False) or [], 1))
    tables = tuple(_game(game, body, row_labels, readings, origin)
                   for game, body in games.items())
    _all_corrections_used(tables, readings, row_labels, origin)
    return VpTable(name, version, hashlib.sha256(text.encode("utf-8")).hexdigest(), origin,
                   row_labels, tables, readings, text)


def _fail(origin: str, where: str, problem: Said) -> VpTableError:
    return VpTableError(say("{origin}: {where}: {problem}", origin=origin, where=where,
                            problem=problem))


def _field(data: Any, key: str, kind: type, origin: str, where: str = "",
           required: bool = True) -> Any:
    place = f"{where}.{key}" if where else key
    if not isinstance(data, dict) or key not in data:
        if not required:
            return None
        raise _fail(origin, place, say("missing"))
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise _fail(origin, place, say("expected {kind}, not {value}", kind=kind.__name__,
                                       value=repr(value)))
    return value


def _rows(labels: list[Any], origin: str) -> tuple[str, ...]:
    """The rows "10-10", "11-9", ...: each split sums to 20, the winner's VP grow by one."""
    winners = []
    for label in labels:
        match = re.fullmatch(r"(\d+)-(\d+)", label) if isinstance(label, str) else None
        if match is None:
            raise _fail(origin, "rows", say("{row} is not a split like 14-6", row=repr(label)))
        winner, loser = int(match.group(1)), int(match.group(2))
        if winner + loser != VP_TOTAL:
            raise _fail(origin, f"row {label}", say("the split sums to {total}, not 20",
                                                    total=winner + loser))
        winners.append(winner)
    if not winners or winners != list(range(VP_TOTAL // 2, VP_TOTAL // 2 + len(winners))):
        raise _fail(origin, "rows", say("the rows must grow by one from 10-10, not {rows}",
                                        rows=", ".join(map(str, labels))))
    return tuple(labels)


def _reading(data: Any, origin: str, index: int) -> Reading:
    where = f"readings[{index}]"
    ident = _field(data, "id", str, origin, where)
    text = _field(data, "text", str, origin, where)
    fix = _field(data, "correction", dict, origin, where, required=False)
    if fix is None:
        return Reading(ident, text, None)
    where = f"{where} ({ident}).correction"
    values = {key: _field(fix, key, kind, origin, where) for key, kind in (
        ("game", str), ("column", str), ("row", str), ("bound", str), ("printed", int),
        ("decided", int))}
    if values["bound"] not in BOUNDS:
        raise _fail(origin, where, say("bound must be da or a, not {bound}",
                                       bound=repr(values["bound"])))
    return Reading(ident, text, Correction(reading=ident, **values))


def vp_games() -> tuple[str, ...]:
    """The registered games with VP tables (domain/games.py)."""
    from domain.games import games  # the games' modules import the match formats, like this one

    return tuple(g.name for g in games() if g.vp_table)


def _game(game: str, body: Any, row_labels: tuple[str, ...], readings: tuple[Reading, ...],
          origin: str) -> GameTable:
    tabled = vp_games()
    if game not in tabled:
        raise _fail(origin, f"games.{game}", say("not a game: expected one of {games}",
                                                 games=", ".join(tabled)))
    where = f"games.{game}"
    step = _field(body, "mp_step", int, origin, where)
    if step < 1:
        raise _fail(origin, where, say("mp_step must be at least 1, not {step}", step=step))
    columns = _field(body, "columns", list, origin, where)
    fixes = [r.correction for r in readings if r.correction and r.correction.game == game]
    parsed = tuple(_column(game, c, row_labels, step, fixes, origin, i)
                   for i, c in enumerate(columns, 1))
    served = [f for column in parsed for f in column.formats]
    for text in served:
        if served.count(text) > 1:
            raise _fail(origin, where, say("format {format} is in two columns", format=text))
    if not parsed:
        raise _fail(origin, where, say("no columns"))
    return GameTable(game, _field(body, "source", str, origin, where),
                     _field(body, "title", str, origin, where), step, parsed)


def _column(game: str, data: Any, row_labels: tuple[str, ...], step: int,
            fixes: list[Correction], origin: str, index: int) -> VpColumn:
    where = f"games.{game}.columns[{index}]"
    label = _field(data, "label", str, origin, where)
    formats = tuple(_format(game, f, origin, where)
                    for f in _field(data, "formats", list, origin, where))
    if not formats:
        raise _fail(origin, where, say("a column serves at least one format"))
    place = f"{game} {formats[0]}"
    cells = _field(data, "cells", dict, origin, where)
    for row in cells:
        if row not in row_labels:
            raise _fail(origin, f"{place}, row {row}", say("not a row of the table ({rows})",
                                                         rows=", ".join(row_labels)))
    printed = tuple(_cell(cells.get(row, "missing"), origin, f"{place}, row {row}")
                    for row in row_labels)
    corrected = [_corrected(place, formats, row, cell, fixes, origin)
                 for row, cell in zip(row_labels, printed, strict=True)]
    rows = _partition(place, row_labels, corrected, step, origin)
    return VpColumn(label, formats, printed, rows)


def _format(game: str, text: Any, origin: str, where: str) -> str:
    try:
        fmt = _parsed(text, game) if isinstance(text, str) else None
    except MatchFormatError as bad:
        raise _fail(origin, f"{where}.formats", say("{problem}", problem=str(bad))) from None
    if fmt is None or fmt.text != text:
        raise _fail(origin, f"{where}.formats", say("write the format {format} as {canonical}",
                                                    format=repr(text),
                                                    canonical=fmt.text if fmt else "'21pt'"))
    return fmt.text


def _parsed(text: str, game: str) -> MatchFormat:
    """The format `text` names; a Briscola even count needs the option smazzate_pari."""
    try:
        return MatchFormat.parse(text, game)
    except MatchFormatError as plain:
        try:
            return MatchFormat.parse(text, game, smazzate_pari=True)
        except MatchFormatError:
            raise plain from None


def _cell(value: Any, origin: str, where: str) -> Cell:
    if value == []:
        return None
    if (isinstance(value, list) and len(value) == 2 and _mp(value[0])
            and (_mp(value[1]) or value[1] == "+")):
        return (value[0], OPEN if value[1] == "+" else value[1])
    problem = (say("missing (an empty cell is [])") if value == "missing" else
               say("a cell is [da MP, a MP], [da MP, \"+\"] or [], not {value}",
                   value=repr(value)))
    raise _fail(origin, where, problem)


def _mp(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _corrected(place: str, formats: tuple[str, ...], row: str, cell: Cell,
               fixes: list[Correction], origin: str) -> Cell:
    for fix in fixes:
        if fix.column not in formats or fix.row != row:
            continue
        where = f"{place}, row {row}, {fix.bound} MP ({fix.reading})"
        if cell is None:
            raise _fail(origin, where, say("corrects an empty cell"))
        low, high = cell
        value = low if fix.bound == "da" else high
        if value != fix.printed:
            raise _fail(origin, where, say("the reading says the table prints {printed}, the "
                                           "cell holds {value}", printed=fix.printed,
                                           value="+" if value is None else value))
        cell = (fix.decided, high) if fix.bound == "da" else (low, fix.decided)
    return cell


def _partition(place: str, row_labels: tuple[str, ...], cells: list[Cell], step: int,
               origin: str) -> tuple[VpRow, ...]:
    """Rows from 10-10 on, with no gap and no overlap of MP, the last one open ("+")."""
    rows: list[VpRow] = []
    for label, cell in zip(row_labels, cells, strict=True):
        where = f"{place}, row {label}"
        if cell is None:
            if rows and rows[-1].mp_to is not None:
                raise _fail(origin, where, say("empty, but the row below is not open (\"+\")"))
            continue
        if rows and rows[-1].mp_to is None:
            raise _fail(origin, where, say("the row below is open (\"+\"), this one cannot "
                                           "occur"))
        low, high = cell
        if low % step or (high is not None and high % step):
            raise _fail(origin, where, say("MP step by {step} in this game", step=step))
        if high is not None and high < low:
            raise _fail(origin, where, say("da MP {low} is above a MP {high}", low=low,
                                           high=high))
        previous = rows[-1].mp_to if rows else None  # an open row below was refused above
        expected = 0 if previous is None else previous + step
        if low > expected:
            raise _fail(origin, where, say("gap: MP {first}..{last} are in no row",
                                           first=expected, last=low - step))
        if low < expected:
            raise _fail(origin, where, say("overlap: MP {first}..{last} are also in the row "
                                           "below", first=low, last=expected - step))
        rows.append(VpRow(int(label.split("-")[0]), low, high))
    if not rows or rows[-1].mp_to is not None:
        raise _fail(origin, place, say("the top row must be open (\"+\")"))
    return tuple(rows)


def _all_corrections_used(tables: tuple[GameTable, ...], readings: tuple[Reading, ...],
                          row_labels: tuple[str, ...], origin: str) -> None:
    """A correction naming a cell no column prints is a mistake of the file, not a no-op."""
    known = {(t.game, f, row) for t in tables for c in t.columns for f in c.formats
             for row, cell in zip(row_labels, c.printed, strict=True) if cell is not None}
    for fix in (r.correction for r in readings):
        if fix is not None and (fix.game, fix.column, fix.row) not in known:
            raise _fail(origin, f"{fix.reading}.correction", say(
                "{game} {column}, row {row}: no such cell", game=fix.game, column=fix.column,
                row=fix.row))
