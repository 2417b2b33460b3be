"""What the event log alone says each seat holds, and what is still in the stock, after each
event: the oracle of the step-by-step draw (issue 23, point 6).

It reads only the recorded events, never a game state: a deal gives each seat its hand and
leaves the stock (Briscola: the briscola card drawn last); `HandDealt` (Cirulla) and
`CardsDrawn` (Briscola) move cards from the stock into hands; a `CardPlayed` takes its card
out of the seat's hand; `DealAnnulled` takes the deal back. A view at version v may show a seat
holding only what these events gave it by v, and the stock is what they left.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from domain.cards import Card
from domain.events import CardPlayed, CardsDrawn, DealAnnulled, HandDealt, SmazzataDealt
from domain.record.match import MatchEvent


@dataclass(frozen=True, slots=True)
class Dealt:
    """After one event: each seat's cards (as a multiset) and the stock, by the events only;
    `out` False when no deal of the smazzata in play has been recorded (or it was annulled)."""

    out: bool
    hands: tuple[Counter[Card], ...]
    stock: tuple[Card, ...]
    briscola: Card | None


def dealt_by_events(players: int, recorded: Sequence[MatchEvent]) -> list[Dealt]:
    """`found[v]`: what the first v events of a match gave out (v = 0: nothing)."""
    hands: list[Counter[Card]] = [Counter() for _ in range(players)]
    stock: list[Card] = []
    briscola: Card | None = None
    out = False
    found = [Dealt(False, tuple(Counter() for _ in range(players)), (), None)]
    for event in recorded:
        if isinstance(event, SmazzataDealt):
            hands = [Counter(hand) for hand in event.hands]
            briscola = event.briscola
            stock = [*event.stock, *(() if briscola is None else (briscola,))]
            out = True
        elif isinstance(event, DealAnnulled):
            hands, stock, briscola, out = [Counter() for _ in range(players)], [], None, False
        elif isinstance(event, HandDealt):
            for seat, hand in enumerate(event.hands):
                hands[seat].update(hand)
            del stock[:sum(map(len, event.hands))]
        elif isinstance(event, CardsDrawn):
            for seat, card in event.draws:
                hands[seat][card] += 1
            del stock[:len(event.draws)]
        elif isinstance(event, CardPlayed):
            hands[event.seat][event.card] -= 1
            assert hands[event.seat][event.card] >= 0, f"{event}: a card the seat was not given"
            hands[event.seat] += Counter()   # drops the zero counts
        found.append(Dealt(out, tuple(Counter(h) for h in hands), tuple(stock), briscola))
    return found
