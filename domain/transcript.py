"""What a rules check of a transcribed play finds: rules broken, and what cannot be checked.

A match written up by people may hold cards nobody saw (domain.cards.UNKNOWN) and plays the table
accepted although the rules refuse them. Each game's `transcribed` module checks a play as far as
the known cards allow and answers with a PlayCheck: every rule the play breaks (with the source
sentence), and every check the unknown cards leave open. Shared by the games; no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from domain.cards import UNKNOWN, Card
from domain.game import RuleViolation
from domain.text import say


@dataclass(frozen=True, slots=True)
class Broken:
    """A rule a play breaks: its name, the sentence of the source that states it, and how."""

    rule: str
    source: str
    message: str


@dataclass(frozen=True, slots=True)
class PlayCheck:
    broken: tuple[Broken, ...] = ()
    unverifiable: tuple[str, ...] = ()

    @property
    def legal(self) -> bool:
        return not self.broken

    def __add__(self, other: PlayCheck) -> PlayCheck:
        return PlayCheck(self.broken + other.broken, self.unverifiable + other.unverifiable)


def known(cards: Iterable[Card]) -> list[Card]:
    return [c for c in cards if c is not UNKNOWN]


def check_hands(where: str, hands: Sequence[Sequence[Card]], players: int, size: int) -> None:
    """Every seat of the table got its hand of `size` cards."""
    if len(hands) != players or any(len(h) != size for h in hands):
        raise RuleViolation("distribuzione", say(
            "{where}: each of the {players} seats gets {size} cards, got {sizes}", where=where,
            players=players, size=size, sizes=[len(h) for h in hands]))


def check_accounted(where: str, places: Sequence[Sequence[Card]], total: int = 40) -> None:
    """The 40 cards are all there: `total` positions, and no known card twice."""
    cards = [c for place in places for c in place]
    if len(cards) != total:
        raise RuleViolation("40 carte", say("{where}: {count} cards, a deal holds {total}",
                                            where=where, count=len(cards), total=total))
    seen: set[Card] = set()
    for card in known(cards):
        if card in seen:
            raise RuleViolation("40 carte", say("{where}: {card} is written twice; a known "
                                                "card is in one place only", where=where,
                                                card=card.code))
        seen.add(card)


def reveal(cards: tuple[Card, ...], shown: Sequence[Card]) -> tuple[Card, ...] | None:
    """`cards` (a hand) with unknown cards taken to be the `shown` ones it does not hold, in
    order; None when there are not enough unknown cards for them."""
    missing = [c for c in shown if c not in cards]
    if not missing:
        return cards
    slots = [i for i, c in enumerate(cards) if c is UNKNOWN]
    if len(slots) < len(missing):
        return None
    revealed = list(cards)
    for slot, card in zip(slots, missing, strict=False):
        revealed[slot] = card
    return tuple(revealed)


def not_elsewhere(card: Card, where: str, places: Iterable[Iterable[Card]]) -> None:
    """A card that becomes known must not be known somewhere else already."""
    if any(card in place for place in places):
        raise RuleViolation("40 carte", say("{card} ({where}) is already known elsewhere in "
                                            "the record: a known card is in one place only",
                                            card=card.code, where=where))
