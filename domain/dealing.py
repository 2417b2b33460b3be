"""The deal order both games share: cards one at a time, round the table, from the dealer's right.

Sources 000 and 004 say the same words ("ne da 3 ad ogni giocatore distribuendole una alla volta,
in senso antiorario, partendo dal giocatore alla destra del mazziere"); what the rest of the deck
becomes (table cards, briscola card, stock) is each game's own business.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.cards import Card
from domain.seating import Seating
from domain.text import say


class DealError(ValueError):
    """A deal that asks for more cards than the deck holds."""


Hands = tuple[tuple[Card, ...], ...]


def deal_round_robin(deck: Sequence[Card], seating: Seating, dealer: int,
                     per_seat: int) -> tuple[Hands, tuple[Card, ...]]:
    """Hands indexed by seat and the undealt rest of `deck` (position 0 is the first card dealt).

    The k-th seat served (k = 0 at the dealer's right) gets deck positions k, k+n, k+2n, ...
    """
    players = seating.players
    dealt = players * per_seat
    if per_seat < 0 or dealt > len(deck):
        raise DealError(say("cannot deal {per_seat} cards to each of {players} seats from a "
                            "deck of {size}", per_seat=per_seat, players=players,
                            size=len(deck)))
    order = seating.rounds[seating.check_seat(dealer)]
    hands: list[tuple[Card, ...]] = [()] * players
    for served, seat in enumerate(order):
        hands[seat] = tuple(deck[served:dealt:players])
    return tuple(hands), tuple(deck[dealt:])
