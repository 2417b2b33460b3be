"""The frozen state of one Scopa smazzata (docs/rules-interpretations.md, "Scopa").

The table is kept sorted by value, then deck order, like Cirulla's (domain/cirulla/state.py), so
its value pattern is a multiset and the sum captures of domain/cirulla/captures.py are looked up
per pattern. Captures are recorded in deck order (CardPlayed).
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.cards import Card
from domain.seating import Seating

HAND_SIZE = 3
TABLE_SIZE = 4
PLAYS_PER_SMAZZATA = 36
"""Every card dealt to the players is played: 40 less the 4 first laid on the table."""


@dataclass(frozen=True, slots=True)
class ScopaRules:
    """The Scopa ruleset: the classic game has no options here (S1-S5 are fixed readings)."""


@dataclass(frozen=True, slots=True)
class ScopaState:
    """Everything about a smazzata in play. Sides index `captured` and `scope`."""

    ruleset: ScopaRules
    seating: Seating
    number: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    table: tuple[Card, ...]
    stock: tuple[Card, ...]
    captured: tuple[tuple[Card, ...], tuple[Card, ...]]
    scope: tuple[int, int]
    last_capture_side: int | None
    to_move: int
    plays: int
    dealt: bool = False
    finished: bool = False

    @property
    def is_last_play(self) -> bool:
        """The play about to be made is the last of the smazzata."""
        return self.plays == PLAYS_PER_SMAZZATA - 1


def empty_state(ruleset: ScopaRules, seating: Seating, dealer: int = 0,
                number: int = 0) -> ScopaState:
    seats = seating.players
    return ScopaState(ruleset=ruleset, seating=seating, number=number, dealer=dealer,
                      hands=((),) * seats, table=(), stock=(), captured=((), ()), scope=(0, 0),
                      last_capture_side=None, to_move=seating.first_after_dealer(dealer),
                      plays=0)


def table_order(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """The table's order: by value, then deck order."""
    return tuple(sorted(cards, key=lambda c: c.value * 64 + c))
