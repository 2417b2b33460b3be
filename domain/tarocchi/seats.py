"""Tables, positions and the dealer's rotation of a 003 tournament.

003 art. 2: "i 4 trionfi più alti si siederanno al tavolo A in senso antiorario a partire dal più
alto (Nord), fino al più basso (Est) che sarà il primo mazziere". Counterclockwise from North is
North, West, South, East; the deal passes counterclockwise too, to the dealer's right, so the
dealers of a turn are East, North, West, South (docs/rules-interpretations.md, "Tarocchi (003)",
TQ3).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from domain.events import Fact
from domain.text import say

TURNS = 4
"""003 art. 3: "Il torneo si concluderà al completamento di n.4 Turni di gioco"."""
SMAZZATE_PER_TURN = 4
"""003 art. 3: "Ogni Turno sarà costituito da 4 smazzate"."""
TABLE_SIZE = 4


class Position(Enum):
    """A place at the table, in the counterclockwise order of art. 2."""

    NORD = "N"
    OVEST = "O"
    SUD = "S"
    EST = "E"


POSITIONS = (Position.NORD, Position.OVEST, Position.SUD, Position.EST)
DEALERS = (Position.EST, Position.NORD, Position.OVEST, Position.SUD)
"""The dealer of smazzata 1, 2, 3, 4 of every turn: East first, then counterclockwise."""

ROMAN = ("I", "II", "III", "IV")


def table_letter(index: int) -> str:
    """Table 0 is A, 1 is B, ... (003 art. 2: "denominati con lettere maiuscole A, B, C"); after
    Z come AA, AB, ... (003 is silent past 26 tables)."""
    if index < 0:
        raise ValueError(say("table {index} does not exist", index=index))
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def table_index(letter: str) -> int:
    """The inverse of table_letter: "A" is 0."""
    if not letter or not letter.isascii() or not letter.isalpha() or not letter.isupper():
        raise ValueError(say("table {letter!r}: a table is named by capital letters (A, B, ...)",
                             letter=letter))
    index = 0
    for char in letter:
        index = index * 26 + ord(char) - ord("A") + 1
    return index - 1


class TableSeating(Fact, frozen=True):   # stored inside Tarocchi events: strict like them
    """One table of one turn: the entrants' numbers at North, West, South and East."""

    letter: str
    players: tuple[int, int, int, int]

    def at(self, position: Position) -> int:
        return self.players[POSITIONS.index(position)]

    def position_of(self, number: int) -> Position:
        return POSITIONS[self.players.index(number)]

    def dealer(self, smazzata: int) -> int:
        """The dealer of smazzata `smazzata` (1..4) of the turn."""
        return self.at(DEALERS[smazzata - 1])


def seat_tables(groups: Sequence[tuple[int, ...]]) -> tuple[TableSeating, ...]:
    """Groups of four numbers, each in the order North, West, South, East, as tables A, B, ..."""
    return tuple(TableSeating(table_letter(k), (g[0], g[1], g[2], g[3]))
                 for k, g in enumerate(groups))
