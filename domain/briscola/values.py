"""Briscola card values (source 004), as tables indexed by Card.index for the engine's hot loop.

"dall'alto al basso: Asso, tre, re, cavallo, fante, 7, 6, 5, 4, 2" gives STRENGTH (9 for the
ace down to 0 for the 2); the points table gives POINTS (11, 10, 4, 3, 2, 0 ...; 120 in all).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from domain.cards import DECK, SUITS, Card, Rank, Suit
from domain.text import say

TRICK_ORDER: tuple[Rank, ...] = (Rank.ASSO, Rank.TRE, Rank.RE, Rank.CAVALLO, Rank.FANTE,
                                 Rank.SETTE, Rank.SEI, Rank.CINQUE, Rank.QUATTRO, Rank.DUE)
"""From the highest to the lowest card in a trick."""

RANK_POINTS: dict[Rank, int] = {Rank.ASSO: 11, Rank.TRE: 10, Rank.RE: 4, Rank.CAVALLO: 3,
                                Rank.FANTE: 2}
TOTAL_POINTS = 120
WINNING_POINTS = 61
"""'totalizzando 61 punti si ha la certezza di fare più punti dell'avversario'."""

STRENGTH: tuple[int, ...] = tuple(len(TRICK_ORDER) - 1 - TRICK_ORDER.index(c.rank) for c in DECK)
POINTS: tuple[int, ...] = tuple(RANK_POINTS.get(c.rank, 0) for c in DECK)
SUIT_NUMBER: tuple[int, ...] = tuple(SUITS.index(c.suit) for c in DECK)


def _trick_keys(briscola: int, lead: int) -> tuple[int, ...]:
    # One number per card such that the trick goes to the highest: a briscola beats the suit led,
    # which beats every other suit; within those, the trick order.
    def key(index: int) -> int:
        suit = SUIT_NUMBER[index]
        if suit == briscola:
            return 20 + STRENGTH[index]
        return 10 + STRENGTH[index] if suit == lead else -1
    return tuple(key(i) for i in range(len(DECK)))


TRICK_KEYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_trick_keys(briscola, lead) for lead in range(len(SUITS))) for briscola in
    range(len(SUITS)))
"""TRICK_KEYS[briscola suit][suit led][card index]."""


def card_points(cards: Iterable[Card]) -> int:
    points = POINTS
    return sum([points[c] for c in cards])


def trick_winner(cards: Sequence[Card], briscola: Suit) -> int:
    """Position in `cards` (play order, the lead first) of the card that takes the trick."""
    if not cards:
        raise ValueError(say("a trick needs at least one card"))
    return winning_position(cards, TRICK_KEYS[SUITS.index(briscola)][SUIT_NUMBER[cards[0]]])


def winning_position(cards: Sequence[Card], keys: Sequence[int]) -> int:
    best = 0
    best_key = keys[cards[0]]
    for position in range(1, len(cards)):
        key = keys[cards[position]]
        if key > best_key:
            best, best_key = position, key
    return best


def beats(challenger: Card, holder: Card, lead: Suit, briscola: Suit) -> bool:
    """Whether `challenger` would take a trick that `holder` is taking, with `lead` the suit led."""
    keys = TRICK_KEYS[SUITS.index(briscola)][SUITS.index(lead)]
    return keys[challenger] > keys[holder]
