"""One viewer's view of a Cirulla smazzata, read off the engine's state (domain/viewing.py).

The state holds the hands, the table, the stock, the piles, the scope and the accusi; the plays
of the smazzata (for the mano in progress and, with carte viste, the earlier mani) are not kept
by the state and are handed in. Cards are passed through, never asked for their value or suit,
so a transcribed record's unknown card (`??`) is shown like any other.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.cards import Card
from domain.cirulla.accusi import PLAYER_KINDS
from domain.cirulla.state import CirullaState
from domain.events import AccusoDeclared, CardPlayed
from domain.viewing import Declared, Observation, Viewer, Visibility, table_view

GAME = "cirulla"


def observe(state: CirullaState, viewer: Viewer, visibility: Visibility,
            plays: Sequence[CardPlayed]) -> Observation:
    """`viewer`'s view of `state`; `plays` are the CardPlayed of its smazzata so far."""
    declared = Declared(shown(state), accusi_points(state), declared_accusi(state)) \
        if state.dealt else Declared()
    return table_view(GAME, state, viewer, visibility, plays, declared)


def shown(state: CirullaState) -> tuple[tuple[Card, ...], ...]:
    """Per seat, the cards of the accuso made with its current hand still in it: 000, "le carte
    in mano agli altri giocatori in base alle dichiarazioni effettuate". A new hand from the
    stock has been shown by nobody until its own accuso (the state's `declared` is reset)."""
    cards: list[tuple[Card, ...]] = [()] * state.seating.players
    for record in state.accusi:
        if record.kind in PLAYER_KINDS and state.declared[record.seat]:
            # The latest accuso of the seat is the one of its current hand: it overwrites.
            hand = state.hands[record.seat]
            cards[record.seat] = tuple(c for c in record.cards if c in hand)
    return tuple(cards)


def accusi_points(state: CirullaState) -> tuple[int, int]:
    points = [0, 0]
    for record in state.accusi:
        points[state.seating.side_of(record.seat)] += record.points
    return (points[0], points[1])


def declared_accusi(state: CirullaState) -> tuple[AccusoDeclared, ...]:
    """The accusi of the smazzata as their events: public, the cards were shown to declare."""
    return tuple(AccusoDeclared(seat=r.seat, kind=r.kind, cards=r.cards, points=r.points,
                                matta_value=r.matta_value) for r in state.accusi)
