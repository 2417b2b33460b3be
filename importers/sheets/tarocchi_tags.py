"""Tarocchi sheets in the tag style of the notation (docs/tarocchi.md, docs/notation.md 2.1):

    [Torneo "Torneo di prova"]          the header: Torneo, Iscritti, Ricomposizione, Finale,
    [Iscritti "Anna, Bruno, ..."]       Seme (the seating seed), SemeSorteggio
    [Scheda "7"]                        player 7's sheet: lines TURN.SMAZZATA name=value ...
    I.1 piu="RIM VAN" meno=RE diff=1 molt=1 pen=0 parz=1 tot=1 ruolo=chiamante validato=3
    [Tavolo "I A"]                      table A of turn I: lines SMAZZATA name=value ...
    1 mazziere=4 chiamante=1 compagno=2 totali="1:1 2:1 3:-1 4:-1" compilatore=1 validato=3
    [Penalita "7"]                      penalties against player 7: TURN.SMAZZATA name=value ...

A line reader: `;` starts a comment outside quotes. Every error names file, line and column.
"""

from __future__ import annotations

import re

from domain.tarocchi.seats import table_index
from domain.text import say
from importers.notation.errors import NotationError
from importers.sheets import tarocchi_fields as fields
from importers.sheets.tarocchi_fields import Row, read_turn
from importers.sheets.tarocchi_read import Header, Sheets, entrants_of

_TAG = re.compile(r'\[\s*(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
_PAIR = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|[^\s"]+)\s*')
HEADER_TAGS = {"torneo": "name", "iscritti": "entrants", "ricomposizione": "recomposition",
               "finale": "final", "seme": "seed", "semesorteggio": "sorteggio"}
SECTIONS = ("scheda", "tavolo", "penalita")


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source
        self.sheets = Sheets()
        self.section: tuple[str, Row] | None = None
        self.header: dict[str, tuple[str, int]] = {}
        self.header_line = 0

    def line(self, number: int, text: str) -> None:
        body = _strip_comment(text)
        if not body.strip():
            return
        indent = len(body) - len(body.lstrip())
        tag = _TAG.match(body.strip())
        if tag:
            self.tag(number, indent + 1, tag.group(1).lower(), tag.group(2).replace('\\"', '"'))
        elif body.lstrip().startswith("["):
            raise NotationError(self.source, number, indent + 1, repr(body.strip()[:40]),
                                say('a tag [Name "value"]'))
        else:
            self.data(number, indent, body)

    def tag(self, number: int, column: int, name: str, value: str) -> None:
        if name in HEADER_TAGS:
            if self.section is not None or name in self.header:
                raise NotationError(self.source, number, column, repr(name),
                                    say("the header's tags once each, before any sheet"))
            self.header[name] = (value, column)
            self.header_line = self.header_line or number
        elif name in SECTIONS:
            self.section = (name, Row(self.source, number, {name: (value, column + 2
                                                                   + len(name))}))
        else:
            raise NotationError(self.source, number, column, repr(name), say(
                "a tag of the header ({header}) or a section ({sections})",
                header=", ".join(HEADER_TAGS),
                sections=", ".join(SECTIONS)))

    def data(self, number: int, indent: int, body: str) -> None:
        if self.section is None:
            raise NotationError(self.source, number, indent + 1, repr(body.strip()[:40]),
                                say('a [Scheda "N"], [Tavolo "TURN TABLE"] or [Penalita "N"] '
                                    'section first'))
        head = body.strip().partition(" ")[0]
        found: dict[str, tuple[str, int]] = {"head": (head, indent + 1)}
        at = indent + len(head) + 1
        while at < len(body) and body[at] == " ":
            at += 1
        for match in _PAIR.finditer(body, at):
            if match.start() != at:
                break
            value = match.group(2)
            found[match.group(1).lower()] = (value[1:-1].replace('\\"', '"')
                                             if value.startswith('"') else value, at + 1)
            at = match.end()
        if at < len(body.rstrip()):
            raise NotationError(self.source, number, at + 1, repr(body[at:at + 20]),
                                say("name=value pairs"))
        self.record(Row(self.source, number, found))

    def record(self, row: Row) -> None:
        assert self.section is not None
        kind, section = self.section
        allowed = {"scheda": fields.PLAYER_FIELDS, "tavolo": fields.TABLE_FIELDS,
                   "penalita": fields.PENALTY_FIELDS}[kind]
        for name, (_, column) in row.fields.items():
            if name != "head" and name not in allowed:
                raise NotationError(row.source, row.line, column, repr(name), say(
                    "a field of this section: {fields}", fields=", ".join(allowed)))
        if kind == "tavolo":
            turn, table = _table_of(section, kind)
            head = row.text("head")
            if not head.isdigit():
                raise row.error("head", repr(head), say("the smazzata's number, 1 to 4"))
            smazzata = int(head)
            self.sheets.tables.append((fields.table_line(row, turn, table, smazzata), row))
            return
        player = section.integer(kind, signed=False)
        turn, smazzata = _turn_smazzata(row)
        if kind == "scheda":
            self.sheets.players.append((fields.player_line(row, player, turn, smazzata), row))
        else:
            self.sheets.penalties.append((fields.penalty(row, player, turn, smazzata), row))

    def finish(self) -> Sheets:
        if self.header:
            self.sheets.header = _header(Row(self.source, self.header_line, self.header))
        return self.sheets


def read_tags(text: str, source: str, *, lenient: bool = False) -> Sheets:
    """The header and rows of one tag-style file. Strict: the first error raises NotationError;
    lenient: an unreadable line is skipped and its error kept (a tag error still raises)."""
    reader = _Reader(source)
    for number, line in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        try:
            reader.line(number, line)
        except NotationError as error:
            if not lenient:
                raise
            reader.sheets.errors.append(error)
    return reader.finish()


def _strip_comment(text: str) -> str:
    quoted = False
    for at, char in enumerate(text):
        if char == '"' and (at == 0 or text[at - 1] != "\\"):
            quoted = not quoted
        elif char == ";" and not quoted:
            return text[:at]
    return text


def _table_of(section: Row, kind: str) -> tuple[int, str]:
    value = section.needed(kind)
    parts = value.split()
    if len(parts) != 2:
        raise section.error(kind, repr(value), say('a turn and a table, as "II B"'))
    turn = read_turn(section, kind, parts[0])
    try:
        table_index(parts[1].upper())
    except ValueError:
        raise section.error(kind, repr(parts[1]), say("a table letter")) from None
    return turn, parts[1].upper()


def _turn_smazzata(row: Row) -> tuple[int, int]:
    head = row.text("head")
    turn_text, dot, smazzata = head.partition(".")
    if not dot or not smazzata.isdigit():
        raise row.error("head", repr(head), say("TURN.SMAZZATA, as II.3"))
    return read_turn(row, "head", turn_text), int(smazzata)


def _header(row: Row) -> Header:
    missing = [t for t in ("torneo", "iscritti", "ricomposizione", "finale", "seme")
               if t not in row.fields]
    if missing:
        raise NotationError(row.source, row.line, 1, say("no {tag} tag", tag=missing[0]),
                            say("the header's tags Torneo, Iscritti, Ricomposizione, Finale, "
                                "Seme"))
    return Header(row.needed("torneo"), entrants_of(row, "iscritti"),
                  row.needed("ricomposizione"), row.needed("finale"), row.needed("seme"),
                  row.text("semesorteggio"), row)
