"""The frozen state of one Cirulla smazzata, and the value of a card in it.

The table is a set of face-up cards (their arrival order is in the events); it is kept sorted by
value, then deck order, and `table_values` runs parallel to it with each card's value for
captures (the matta's may differ from 7: source 000, "Il 7 di cuori (coppe)"). Sorted values
make the table's value pattern a multiset, so the capture lookups of captures.py are cached per
multiset and nearly always hit. Captures therefore come out in table order; records and output
list them in deck order (`notation`, CardPlayed).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import msgspec
from msgspec.structs import replace

from domain.cards import MATTA, Card
from domain.cirulla.ruleset import Ruleset
from domain.seating import Seating

PLAYS_PER_SMAZZATA = 36
"""Every card dealt to the players is played: 40 less the 4 first laid on the table."""


Play = tuple[Card, tuple[Card, ...]]
"""A card played and the table cards it takes (empty: a discard), in table order.

A plain (card, capture) tuple: legal_plays builds thousands per second, and a tuple literal costs
a third of a NamedTuple's construction. `taken` and `notation` give the deck-ordered view.
"""


def taken(play: Play) -> tuple[Card, ...]:
    """The captured cards in deck order, as records and the arbiter's check list them."""
    return tuple(sorted(play[1]))


def notation(play: Play) -> str:
    """`4d x 4c 7b` for a capture, `4d` for a discard (the notation of `verbale legal`)."""
    card, capture = play
    if not capture:
        return card.code
    return f"{card.code} x {' '.join(c.code for c in taken(play))}"


@dataclass(frozen=True, slots=True)
class AccusoRecord:
    seat: int
    kind: str
    cards: tuple[Card, ...]
    points: int
    matta_value: int | None


class CirullaState(msgspec.Struct, frozen=True, gc=False):
    """Everything about a smazzata in play. Sides index `captured` and `scope`.

    A frozen msgspec Struct, like the events: a new state per play must cost little
    (docs/benchmarks.md), and msgspec builds it and replaces fields in C. Change it only through
    the engine's functions, which build it by field name. It holds no cycle (gc=False: the
    collector never walks the states of a replay).
    """

    # Fixed for the whole smazzata.
    ruleset: Ruleset
    seating: Seating
    number: int
    dealer: int
    # Changed by a new hand from the stock, an accuso, a play of the matta.
    stock: tuple[Card, ...]
    accusi: tuple[AccusoRecord, ...]
    declared: tuple[bool, ...]  # per seat: an accuso was declared with the current 3 cards
    matta_until_mano: int      # the mano after which a matta on the table goes back to 7
    matta_value: int | None    # the matta's value for captures, None when it is a plain 7
    # Changed by a scopa, by a capture.
    scope: tuple[int, int]
    captured: tuple[tuple[Card, ...], tuple[Card, ...]]
    last_capture_side: int | None
    # Changed by every play.
    hands: tuple[tuple[Card, ...], ...]
    table: tuple[Card, ...]
    table_values: tuple[int, ...]
    to_move: int
    plays: int                 # plays made so far in this smazzata
    dealt: bool = False
    finished: bool = False

    @property
    def players(self) -> int:
        return self.seating.players

    @property
    def mano(self) -> int:
        """0-based number of the mano in progress: a mano is one play by every seat (000)."""
        return self.plays // self.seating.players

    @property
    def is_last_play(self) -> bool:
        """The play about to be made is the last of the smazzata."""
        return self.plays == PLAYS_PER_SMAZZATA - 1

    def value_of(self, card: Card) -> int:
        if card is MATTA and self.matta_value is not None:
            return self.matta_value
        return card.value

    def hand_of(self, seat: int) -> tuple[Card, ...]:
        return self.hands[seat]

    def _replace(self, **changes: Any) -> CirullaState:
        """This state with `changes` (the name a NamedTuple gives it, for positions built by
        hand: the transcribed fold, the arbiter's what-if, tests)."""
        return replace(self, **changes)


def table_order(table: Iterable[Card], value_of: Callable[[Card], int]) -> tuple[Card, ...]:
    """Cards in the table's order: by value for captures, then by deck order."""
    return tuple(sorted(table, key=lambda c: value_of(c) * 64 + c))


def empty_state(ruleset: Ruleset, seating: Seating, dealer: int = 0,
                number: int = 1) -> CirullaState:
    seats = seating.players
    return CirullaState(
        ruleset=ruleset, seating=seating, number=number, dealer=dealer,
        hands=((),) * seats, table=(), table_values=(), stock=(), captured=((), ()),
        scope=(0, 0), accusi=(), to_move=seating.first_after_dealer(dealer), plays=0,
        matta_value=None, matta_until_mano=-1, declared=(False,) * seats,
        last_capture_side=None)
