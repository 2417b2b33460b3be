"""How a Cirulla smazzata is dealt from the shuffled deck, and when a deal goes 'a monte'.

000: "ne da 3 ad ogni giocatore distribuendole una alla volta, in senso antiorario, partendo dal
giocatore alla destra del mazziere. Quindi vengono poste 4 carte scoperte in tavola."
002 (option DealOrder.ALTERNATA): "you put a card down, uncovered, then you give one to each of
the players ... Repeat until everyone's got three cards (and three are on the table) then put
another one uncovered on the table".
Later hands: 3 each from the stock, one at a time, in the same order as the first (000 is silent
on the manner; the first deal's manner is the natural reading).
"""

from __future__ import annotations

from domain.cards import Card, Rank
from domain.cirulla.ruleset import DealOrder, Redeal, Ruleset
from domain.dealing import Hands, deal_round_robin
from domain.seating import Seating

HAND_SIZE = 3
TABLE_SIZE = 4


def distribute(deck: tuple[Card, ...], ruleset: Ruleset, seating: Seating,
               dealer: int) -> tuple[Hands, tuple[Card, ...], tuple[Card, ...]]:
    """Hands by seat, the four table cards in the order laid, and the stock (top first)."""
    if ruleset.deal_order is DealOrder.UNO_ALLA_VOLTA:
        hands, rest = deal_round_robin(deck, seating, dealer, HAND_SIZE)
        return hands, rest[:TABLE_SIZE], rest[TABLE_SIZE:]
    return _interleaved(deck, seating, dealer)


def _interleaved(deck: tuple[Card, ...], seating: Seating,
                 dealer: int) -> tuple[Hands, tuple[Card, ...], tuple[Card, ...]]:
    players = seating.players
    per_round = players + 1
    table: list[Card] = []
    round_cards: list[Card] = []
    for r in range(HAND_SIZE):
        chunk = deck[r * per_round:(r + 1) * per_round]
        table.append(chunk[0])
        round_cards.extend(chunk[1:])
    hands, _ = deal_round_robin(round_cards, seating, dealer, HAND_SIZE)
    used = HAND_SIZE * per_round
    table.append(deck[used])
    return hands, tuple(table), deck[used + 1:]


def next_hands(stock: tuple[Card, ...], seating: Seating,
               dealer: int) -> tuple[Hands, tuple[Card, ...]]:
    """The next 3 cards each from the stock, one at a time from the dealer's right."""
    return deal_round_robin(stock, seating, dealer, HAND_SIZE)


def redeal_reason(table: tuple[Card, ...], ruleset: Ruleset) -> str | None:
    """Why the deal goes 'a monte', or None (C1)."""
    ranks = [c.rank for c in table]
    if ruleset.redeal is Redeal.DUE_ASSI:
        aces = ranks.count(Rank.ASSO)
        if aces >= 2:
            return f"{aces} assi in tavola"
    elif ruleset.redeal is Redeal.TRE_RE:
        kings = ranks.count(Rank.RE)
        if kings >= 3:
            return f"{kings} re in tavola"
    return None
