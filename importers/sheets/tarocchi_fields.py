"""The fields of the Tarocchi sheets (docs/tarocchi.md), as both forms write them: a CSV column
or a tag-style `name=value`. Each value is read with its place (file, line, column), and a value
that cannot be read raises NotationError naming that place."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from domain.tarocchi.commands import ImposePenalty
from domain.tarocchi.events import PlayerLineWritten, TableLineWritten
from domain.tarocchi.seats import ROMAN
from domain.tarocchi.sheet import KINDS, Games
from domain.text import say
from importers.notation.errors import NotationError

PLAYER_FIELDS = ("giocatore", "turno", "smazzata", "tavolo", "pos", "piu", "meno", "diff",
                 "molt", "pen", "parz", "tot", "ruolo", "validato", "socio")
TABLE_FIELDS = ("turno", "tavolo", "smazzata", "mazziere", "chiamante", "compagno", "solista",
                "carte", "totali", "compilatore", "validato")
PENALTY_FIELDS = ("giocatore", "turno", "smazzata", "tipo", "esito", "arbitro", "motivo",
                  "extra", "carta")
_GAME = re.compile(r"([A-Za-z]+)(\d*)$")
_TOTAL = re.compile(r"(\d+):([+-]?\d+)$")


@dataclass(frozen=True, slots=True)
class Row:
    """One written line: its fields (name -> text and the column it starts at)."""

    source: str
    line: int
    fields: Mapping[str, tuple[str, int]]

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line}"

    def error(self, name: str, found: str, expected: str) -> NotationError:
        column = self.fields[name][1] if name in self.fields else 1
        return NotationError(self.source, self.line, column, found, expected)

    def text(self, name: str) -> str:
        return self.fields.get(name, ("", 0))[0].strip()

    def needed(self, name: str) -> str:
        value = self.text(name)
        if not value:
            raise self.error(name, say("no {field}", field=name),
                             say("a value for {field}", field=name))
        return value

    def integer(self, name: str, *, signed: bool = True) -> int:
        value = self.needed(name)
        digits = value.lstrip("+-") if signed else value
        if not digits.isdigit() or (not signed and value != digits):
            raise self.error(name, repr(value), say("a whole number for {field}", field=name))
        return int(value)

    def optional(self, name: str) -> int | None:
        return self.integer(name, signed=False) if self.text(name) else None

    def turn(self, name: str = "turno") -> int:
        return read_turn(self, name, self.needed(name))

    def games(self, name: str) -> Games:
        read = []
        for token in self.text(name).replace(",", " ").split():
            match = _GAME.match(token)
            kind = match.group(1).upper() if match else ""
            if not match or kind not in KINDS:
                raise self.error(name, repr(token), say(
                    "a kind of game of the legend ({known}) with its count, as RE2",
                    known=", ".join(KINDS)))
            read.append((kind, int(match.group(2) or 1)))
        return tuple(read)


def read_turn(row: Row, name: str, value: str) -> int:
    upper = value.upper()
    if upper in ROMAN:
        return ROMAN.index(upper) + 1
    if value.isdigit() and 1 <= int(value) <= len(ROMAN):
        return int(value)
    raise row.error(name, repr(value), say("a turn, I to IV (or 1 to 4)"))


def player_line(row: Row, player: int | None = None, turn: int | None = None,
                smazzata: int | None = None) -> PlayerLineWritten:
    return PlayerLineWritten(
        player=row.integer("giocatore", signed=False) if player is None else player,
        turn=row.turn() if turn is None else turn,
        smazzata=row.integer("smazzata", signed=False) if smazzata is None else smazzata,
        plus=row.games("piu"), minus=row.games("meno"), diff=row.integer("diff"),
        molt=row.integer("molt", signed=False),
        penalty=row.integer("pen", signed=False) if row.text("pen") else 0,
        parz=row.integer("parz"), tot=row.integer("tot"), role=row.text("ruolo") or None,
        validator=row.optional("validato"), member=row.text("socio") or None, source=row.where)


def table_line(row: Row, turn: int | None = None, table: str | None = None,
               smazzata: int | None = None) -> TableLineWritten:
    totals = []
    for token in row.text("totali").replace(",", " ").split():
        match = _TOTAL.match(token)
        if not match:
            raise row.error("totali", repr(token), say("player:TOT pairs, as 5:-3"))
        totals.append((int(match.group(1)), int(match.group(2))))
    return TableLineWritten(
        turn=row.turn() if turn is None else turn,
        table=row.needed("tavolo").upper() if table is None else table,
        smazzata=row.integer("smazzata", signed=False) if smazzata is None else smazzata,
        dealer=row.optional("mazziere"), caller=row.optional("chiamante"),
        partner=row.optional("compagno"), solista=row.optional("solista"),
        solista_cards=row.optional("carte"), totals=tuple(totals),
        compiler=row.optional("compilatore"), validator=row.optional("validato"),
        source=row.where)


def penalty(row: Row, player: int | None = None, turn: int | None = None,
            smazzata: int | None = None) -> ImposePenalty:
    card = row.text("carta").lower()
    if card not in ("", "si", "sì", "no"):
        raise row.error("carta", repr(card), say("si or no: was the card a Re, an Aria or the "
                                                 "Picciotti?"))
    return ImposePenalty(
        player=row.integer("giocatore", signed=False) if player is None else player,
        turn=row.turn() if turn is None else turn,
        smazzata=row.integer("smazzata", signed=False) if smazzata is None else smazzata,
        code=row.needed("tipo"), fate=row.needed("esito"), arbiter=row.needed("arbitro"),
        reason=row.needed("motivo"),
        extra=row.integer("extra", signed=False) if row.text("extra") else 0,
        important_card=card != "no")
