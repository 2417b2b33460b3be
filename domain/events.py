"""Facts of play shared by every game: what the rules engines decide and fold.

Each event is a past-tense fact carrying what is needed to re-check it against the rules
(docs/events.md). They are pure values: the store (projections/store) wraps them with the
match id, position, timestamp and chain hash. Never rename a class or a field: add a new
version instead (the store's upcasters read old ones).
"""

from __future__ import annotations

import msgspec

from domain.cards import Card


class Fact(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """Base of every event: a frozen msgspec Struct, a pure value (msgspec is a value library
    with no I/O). The store decodes stored bytes straight into these (projections/store/codec.py):
    a field missing, a field unknown or a value of the wrong type is refused. `gc=False`: an event
    holds only numbers, strings, tuples and other events, never a cycle."""


class SmazzataDealt(Fact, frozen=True):
    """The cards of a deal, as they came out of the shuffle of `seed_commitment`, `attempt`.

    A transcribed deal (class_version 2) has no seed: `seed_commitment` None, "shuffle
    unverifiable"; its cards may be the unknown card (domain.cards.UNKNOWN, `??`).
    """

    number: int
    dealer: int
    attempt: int
    seed_commitment: str | None
    hands: tuple[tuple[Card, ...], ...]
    table: tuple[Card, ...]
    stock: tuple[Card, ...]
    briscola: Card | None = None


class DealAnnulled(Fact, frozen=True):
    """A deal that goes 'a monte' under the ruleset (Cirulla C1): the next attempt follows."""

    number: int
    attempt: int
    reason: str


class AccusoDeclared(Fact, frozen=True):
    """An accuso: the dealer's 15/30 on the table, or a player's cirulla/decino (cards shown)."""

    seat: int
    kind: str
    cards: tuple[Card, ...]
    points: int
    matta_value: int | None = None


class CardPlayed(Fact, frozen=True):
    """A card played; in Cirulla with the cards it captured (empty for a discard)."""

    seat: int
    card: Card
    capture: tuple[Card, ...] = ()
    matta_value: int | None = None
    scopa: bool = False


class HandDealt(Fact, frozen=True):
    """A new hand of cards from the stock to every seat (Cirulla, after each mano of 3)."""

    hands: tuple[tuple[Card, ...], ...]


class CardsDrawn(Fact, frozen=True):
    """Briscola: after a trick, one card from the stock to each seat, the trick winner first."""

    draws: tuple[tuple[int, Card], ...]


class TrickTaken(Fact, frozen=True):
    """Briscola: who took the trick just completed, and its card points."""

    seat: int
    cards: tuple[Card, ...]
    points: int


class SmazzataOutcome(Fact, frozen=True):
    """What read models need of a smazzata's end without replaying it. Sides, or None.

    `last_capture`: the side of the last capture (Cirulla) or of the last trick (Briscola);
    `cappotto`: the side that took all ten denari (Cirulla); `cappotto_ends_match`: the match
    format ends the match on it; `vinco_subito`: the side that ended play by reaching 61
    (Briscola, "vinco subito"); `unplayed`: the cards never played because a cappotto ended the
    smazzata and the match at the play that completed it (Cirulla, C11: the hands by seat, then
    the stock top first; empty for a smazzata played to its end).
    """

    last_capture: int | None
    cappotto: int | None
    cappotto_ends_match: bool
    vinco_subito: int | None
    unplayed: tuple[Card, ...] = ()


class SmazzataEnded(Fact, frozen=True):
    """The end of a smazzata with its score per side and breakdown per category.

    `breakdown` is a tuple of (category, side-0 points, side-1 points) rows; Cirulla's
    `scores` are their per-side sums, Briscola's the `punti` row (docs/events.md 5.2).
    `outcome` since class_version 2 (None in a version-1 record: not recorded).
    """

    number: int
    scores: tuple[int, int]
    breakdown: tuple[tuple[str, int, int], ...]
    leftover_to: int | None = None
    outcome: SmazzataOutcome | None = None


PlayEvent = SmazzataDealt | DealAnnulled | AccusoDeclared | CardPlayed | HandDealt | CardsDrawn \
    | TrickTaken | SmazzataEnded
