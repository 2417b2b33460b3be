"""What the Tarocchi sheets say, read from either form (docs/tarocchi.md): the tournament's
header, the player sheets' lines, the table sheets' lines and the arbiters' penalties, each with
the Row it was read from."""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.tarocchi.commands import ImposePenalty
from domain.tarocchi.entrants import Entrant
from domain.tarocchi.events import PlayerLineWritten, TableLineWritten
from domain.text import say
from importers.notation.errors import NotationError
from importers.sheets.tarocchi_fields import Row


@dataclass(frozen=True, slots=True)
class Header:
    """The tournament as the tag-style header gives it."""

    name: str
    entrants: tuple[Entrant, ...]
    recomposition: str
    final: str
    seed: str
    sorteggio: str
    row: Row


@dataclass
class Sheets:
    """Everything read, in the order read; `errors`: what a lenient reading skipped."""

    header: Header | None = None
    players: list[tuple[PlayerLineWritten, Row]] = field(default_factory=list)
    tables: list[tuple[TableLineWritten, Row]] = field(default_factory=list)
    penalties: list[tuple[ImposePenalty, Row]] = field(default_factory=list)
    errors: list[NotationError] = field(default_factory=list)

    def merge(self, other: Sheets) -> None:
        if other.header is not None:
            if self.header is not None:
                raise NotationError(other.header.row.source, other.header.row.line, 1,
                                    say("a second tournament header"),
                                    say("one header for the whole import (first in {source})",
                                        source=self.header.row.source))
            self.header = other.header
        self.players += other.players
        self.tables += other.tables
        self.penalties += other.penalties
        self.errors += other.errors


def entrants_of(row: Row, name: str) -> tuple[Entrant, ...]:
    """`Anna, Bruno, Squadra Z (Zeta + Zoe)`: the places in registration order; a team is its
    name with its members in brackets, joined by +."""
    places = []
    for part in _split_places(row.needed(name)):
        if "(" in part:
            team, _, rest = part.partition("(")
            members = tuple(m.strip() for m in rest.rstrip(")").split("+") if m.strip())
            if not rest.endswith(")") or len(members) < 2:
                raise row.error(name, repr(part), say("a team as Name (Member + Member)"))
            places.append(Entrant(team.strip(), members))
        elif part:
            places.append(Entrant(part))
    return tuple(places)


def _split_places(text: str) -> list[str]:
    parts, depth, current = [], 0, ""
    for char in text:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += char
    parts.append(current.strip())
    return parts
