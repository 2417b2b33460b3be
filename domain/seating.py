"""Seats, sides and turn order, the same for every game at a table of 2 or 4.

Seats are numbered so that seat s+1 (mod n) sits at the right of seat s: counterclockwise
order is increasing seat number, the order of source 000 and 004 ("in senso antiorario ...
partendo dal giocatore alla destra del mazziere"). With 4 players partners sit opposite, so
seats 0 and 2 are side 0, seats 1 and 3 side 1. With 2 players a seat is its own side.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from domain.text import say


class Direction(Enum):
    COUNTERCLOCKWISE = "counterclockwise"
    CLOCKWISE = "clockwise"


class SeatingError(ValueError):
    """A table size or seat number that does not exist."""


@dataclass(frozen=True, slots=True)
class Seating:
    players: int
    direction: Direction = Direction.COUNTERCLOCKWISE
    after: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """after[s] is the seat that plays after s: a table, since the rules engines ask per play."""
    rounds: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    """rounds[d]: every seat once, from the right of dealer d round the table (deal order)."""

    def __post_init__(self) -> None:
        if self.players not in (2, 4):
            raise SeatingError(say("a table has 2 or 4 players, not {players}",
                                   players=self.players))
        step = 1 if self.direction is Direction.COUNTERCLOCKWISE else -1
        after = tuple((s + step) % self.players for s in range(self.players))
        object.__setattr__(self, "after", after)
        rounds = tuple(tuple((after[d] + step * k) % self.players for k in range(self.players))
                       for d in range(self.players))
        object.__setattr__(self, "rounds", rounds)

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(range(self.players))

    @property
    def sides(self) -> tuple[int, int]:
        return (0, 1)

    def check_seat(self, seat: int) -> int:
        if not 0 <= seat < self.players:
            raise SeatingError(say("seat {seat} does not exist at a table of {players}",
                                   seat=seat, players=self.players))
        return seat

    def next_seat(self, seat: int) -> int:
        return self.after[seat]

    def side_of(self, seat: int) -> int:
        return seat % 2

    def seats_of(self, side: int) -> tuple[int, ...]:
        return tuple(s for s in self.seats if s % 2 == side)

    def partner_of(self, seat: int) -> int | None:
        return (seat + 2) % 4 if self.players == 4 else None

    def order_from(self, first: int) -> tuple[int, ...]:
        """Every seat once, starting at `first` and going round in the direction of play."""
        order = [self.check_seat(first)]
        while len(order) < self.players:
            order.append(self.next_seat(order[-1]))
        return tuple(order)

    def first_after_dealer(self, dealer: int) -> int:
        """The giocatore di mano: the first to receive cards and to play."""
        return self.next_seat(self.check_seat(dealer))

    def next_dealer(self, dealer: int) -> int:
        """'il mazziere gira in senso antiorario': the seat at the dealer's right deals next."""
        return self.next_seat(self.check_seat(dealer))


def opponent_side(side: int) -> int:
    return 1 - side
