"""A simple Briscola player for simulations: take the trick as cheaply as possible, else throw
the cheapest card. Cheap means: not a briscola, then fewest points, then lowest in trick order.
"""

from __future__ import annotations

from domain.briscola.state import BriscolaState, legal_plays, seat_of_position
from domain.briscola.values import POINTS, STRENGTH, SUIT_NUMBER, winning_position
from domain.cards import Card
from domain.game import PlayCard
from domain.text import say


def cost(state: BriscolaState, card: Card) -> tuple[bool, int, int]:
    briscola = state.setup.briscola
    is_briscola = briscola is not None and SUIT_NUMBER[card] == SUIT_NUMBER[briscola]
    return (is_briscola, POINTS[card], STRENGTH[card])


def choose_card(state: BriscolaState) -> Card:
    """The bot's card for the seat to move; the cheapest winning card, else the cheapest."""
    hand = sorted(legal_plays(state), key=lambda c: cost(state, c))
    if not hand:
        raise ValueError(say("{function}: nobody is to move", function="choose_card"))
    table = state.table
    if not table:
        return hand[0]
    setup = state.setup
    keys = setup.keys[SUIT_NUMBER[table[0]]]
    taking = seat_of_position(state, winning_position(table, keys))
    if state.turn is not None and setup.sides[taking] == setup.sides[state.turn]:
        return hand[0]  # the partner already takes it
    winners = [c for c in hand if winning_position((*table, c), keys) == len(table)]
    return winners[0] if winners else hand[0]


def choose_command(state: BriscolaState) -> PlayCard:
    if state.turn is None:
        raise ValueError(say("{function}: nobody is to move", function="choose_command"))
    return PlayCard(seat=state.turn, card=choose_card(state))
