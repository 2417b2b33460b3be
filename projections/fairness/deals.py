"""What the fairness battery needs of one stored deal, and how to read it off a match's events.

A `DealRecord` is one shuffle as it was dealt: every attempt of a smazzata is one (an attempt
annulled under C1 is a shuffle too, and leaving it out would condition the deals on the table
that decided the redeal). Its deck is the shuffle's output, position 0 first dealt, rebuilt
from the hands, table, briscola and stock of `SmazzataDealt` by the inverse of the game's own
dealing functions (domain/dealing.py, domain/cirulla/dealing.py, domain/briscola/engine.py):
the "deal slot" of a card is its position in that order, its receiver the seat that gets it.

The deck is kept as 40 bytes (deck indices, domain.cards.DECK; UNKNOWN_INDEX for a card a
transcription does not know) rather than 40 card objects: a million records fit in about
200 MB instead of 600.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from domain.cards import DECK, UNKNOWN_INDEX, Card, card_at
from domain.events import SmazzataDealt, SmazzataEnded
from domain.game import DealingParts
from domain.games import games
from domain.match_seed import smazzata_seed
from domain.record.events import MatchCreated, MatchSeedRevealed, SeedRevealed
from domain.seating import Direction, Seating
from domain.shuffle import Seed
from domain.text import say

DECK_SIZE = len(DECK)
TABLE, BRISCOLA, STOCK = 4, 5, 6
"""Receivers beyond the seats 0-3: the Cirulla table, the Briscola card, the Briscola stock
(drawn in an order play decides). Cirulla's stock is dealt round the table in hands of three
(`next_hands`), so each of its cards has a seat."""
RECEIVERS = 7


class DealRecordError(ValueError):
    """A deal whose cards do not fit its layout."""


@dataclass(frozen=True, slots=True)
class DealLayout:
    """How a deck becomes hands at a table: game, seats, deal order (the game's DealingParts:
    C2's for Cirulla, "briscola" for Briscola), direction of play."""

    game: str
    seats: int
    order: str
    direction: str = Direction.COUNTERCLOCKWISE.value

    def locations(self, dealer: int) -> tuple[tuple[str, int, int], ...]:
        """Per deck position: (where, seat, index): ("hand", seat, i), ("table", -1, i),
        ("stock", -1, i) or ("briscola", -1, 0)."""
        return _locations(self, dealer)

    def receivers(self, dealer: int) -> tuple[int, ...]:
        """Per deck position, the seat that receives the card, or TABLE, BRISCOLA, STOCK."""
        return _receivers(self, dealer)

    def roles(self, dealer: int) -> tuple[int, ...]:
        """Per deck position, the receiver relative to the dealer: 0 the first seat served
        (the dealer's right), seats-1 the dealer; TABLE, BRISCOLA, STOCK as in `receivers`."""
        served = {seat: k for k, seat in enumerate(self.seating().rounds[dealer])}
        return tuple(served[r] if r < TABLE else r for r in self.receivers(dealer))

    def seating(self) -> Seating:
        return Seating(self.seats, Direction(self.direction))


def layout_of(created: MatchCreated) -> DealLayout:
    """The layout of a match's deals from its MatchCreated (its game's DealingParts)."""
    order, direction = _dealing(created.game).order(created.ruleset)
    return DealLayout(created.game, len(created.players), order, direction)


def _dealing(game: str) -> DealingParts:
    """The game's DealingParts; DealRecordError naming the games that have them."""
    dealing = {g.name: g.dealing for g in games() if g.dealing is not None}
    if game not in dealing:
        raise DealRecordError(say("game {game}: expected one of {games}", game=repr(game),
                                  games=", ".join(dealing)))
    return dealing[game]


@lru_cache(maxsize=64)
def _locations(layout: DealLayout, dealer: int) -> tuple[tuple[str, int, int], ...]:
    # The game's own dealing functions applied to DECK, whose card at position p has index p:
    # where each index lands is where position p of any deck lands.
    hands, table, stock, face_up = _dealing(layout.game).deal(
        DECK, layout.order, layout.direction, layout.seating(), dealer)
    where: dict[int, tuple[str, int, int]] = {}
    if face_up is not None:
        where[int(face_up)] = ("briscola", -1, 0)
    where.update((int(card), ("table", -1, i)) for i, card in enumerate(table))
    for seat, hand in enumerate(hands):
        where.update((int(card), ("hand", seat, i)) for i, card in enumerate(hand))
    where.update((int(card), ("stock", -1, i)) for i, card in enumerate(stock))
    return tuple(where[p] for p in range(DECK_SIZE))


@lru_cache(maxsize=64)
def _receivers(layout: DealLayout, dealer: int) -> tuple[int, ...]:
    locations = layout.locations(dealer)
    stock_at = {i: p for p, (where, _, i) in enumerate(locations) if where == "stock"}
    stock = tuple(card_at(stock_at[i]) for i in range(len(stock_at)))
    seat_of_stock = {int(card): seat
                     for hands in _dealing(layout.game).stock_hands(stock, layout.seating(),
                                                                    dealer)
                     for seat, hand in enumerate(hands) for card in hand}
    kinds = {"table": TABLE, "briscola": BRISCOLA, "stock": STOCK}
    out = []
    for position, (where, seat, _) in enumerate(locations):
        if where == "hand":
            out.append(seat)
        elif where == "stock" and position in seat_of_stock:
            out.append(seat_of_stock[position])
        else:
            out.append(kinds[where])
    return tuple(out)


def deck_of(dealt: SmazzataDealt, layout: DealLayout) -> bytes:
    """The deck as dealt (deck indices, position 0 first), rebuilt from the deal's layout."""
    parts = {"hand": dealt.hands, "table": (dealt.table,), "stock": (dealt.stock,),
             "briscola": ((dealt.briscola,),)}
    try:
        cards = [parts[where][max(seat, 0)][i]
                 for where, seat, i in layout.locations(dealt.dealer)]
    except (IndexError, TypeError):
        raise DealRecordError(say("smazzata {number} attempt {attempt} does not fit a {game} "
                                  "deal of {seats} seats", number=dealt.number,
                                  attempt=dealt.attempt, game=layout.game,
                                  seats=layout.seats)) from None
    return bytes(UNKNOWN_INDEX if c is None else int(c) for c in cards)


@dataclass(frozen=True, slots=True)
class DealRecord:
    """One shuffle as dealt: its match, smazzata and attempt, its table, seed and deck."""

    match: str
    smazzata: int
    attempt: int
    layout: DealLayout
    dealer: int
    deck: bytes
    table: str | None = None
    seed: str | None = None
    provenance: str | None = None
    dealt_at: datetime | None = None
    winner: int | None = None
    """The side that made more points in the smazzata (None: a tie, not known, an annulled
    attempt)."""
    ruleset: tuple[tuple[str, str], ...] = ()
    """The match's ruleset options as stored (MatchCreated.ruleset), sorted by name."""
    dealer_name: str | None = None
    """The dealer's name as the match records it (MatchCreated.players), None when it records
    none: the per-dealer view (dealers.py) then names him by his seat in the match."""

    def __post_init__(self) -> None:
        if len(self.deck) != DECK_SIZE:
            raise DealRecordError(say("a deck has {size} cards, not {got}", size=DECK_SIZE,
                                      got=len(self.deck)))

    @property
    def codes(self) -> tuple[str, ...]:
        """The deck as card codes (`??` for an unknown card), first dealt first."""
        return tuple(card_at(i).code for i in self.deck)

    @property
    def game(self) -> str:
        return self.layout.game

    @property
    def seats(self) -> int:
        return self.layout.seats

    @property
    def transcribed(self) -> bool:
        """Its shuffle cannot be checked: transcribed, or dealt with no seed."""
        return self.provenance == "transcribed" or self.seed is None

    @property
    def complete(self) -> bool:
        """Every card known and each once: a permutation of the deck."""
        return len(set(self.deck)) == DECK_SIZE and max(self.deck) < DECK_SIZE

    def cards(self) -> tuple[Card, ...]:
        return tuple(card_at(i) for i in self.deck)

    def dealt(self) -> SmazzataDealt:
        """The SmazzataDealt this deck makes (seed commitment left out): the inverse of
        `deck_of`, for the classifiers that read hands and table."""
        hands: list[list[Card]] = [[] for _ in range(self.seats)]
        table: list[Card] = []
        stock: list[Card] = []
        briscola = None
        for (where, seat, _), card in zip(self.layout.locations(self.dealer), self.cards(),
                                          strict=True):
            if where == "hand":
                hands[seat].append(card)
            elif where == "table":
                table.append(card)
            elif where == "stock":
                stock.append(card)
            else:
                briscola = card
        return SmazzataDealt(number=self.smazzata, dealer=self.dealer, attempt=self.attempt,
                             seed_commitment=None, hands=tuple(map(tuple, hands)),
                             table=tuple(table), stock=tuple(stock), briscola=briscola)


Timed = tuple[object, datetime | None]


def deal_records(match: str, events: Iterable[Timed]) -> Iterator[DealRecord]:
    """The deals of one match from its events in stream order (each with its timestamp, or
    None): every SmazzataDealt, with the seed revealed for it (SeedRevealed, or derived from
    MatchSeedRevealed) and the side that won the smazzata (SmazzataEnded)."""
    stream = list(events)
    created = next((e for e, _ in stream if isinstance(e, MatchCreated)), None)
    if created is None:
        raise DealRecordError(say("match {match} has no MatchCreated", match=match))
    layout = layout_of(created)
    seeds = _seeds(stream)
    winners = {e.number: _winner(e) for e, _ in stream if isinstance(e, SmazzataEnded)}
    last = {e.number: e.attempt for e, _ in stream if isinstance(e, SmazzataDealt)}
    table = (f"{created.tournament}/{created.table}"
             if created.tournament is not None and created.table is not None else None)
    kind = created.provenance.kind if created.provenance is not None else None
    ruleset = tuple(sorted(created.ruleset.items()))
    for event, at in stream:
        if isinstance(event, SmazzataDealt):
            yield DealRecord(
                match=match, smazzata=event.number, attempt=event.attempt, layout=layout,
                dealer=event.dealer, deck=deck_of(event, layout), table=table,
                seed=seeds(event.number) if event.seed_commitment is not None else None,
                provenance=kind, dealt_at=at, ruleset=ruleset,
                dealer_name=_name(created.players, event.dealer),
                winner=winners.get(event.number) if last[event.number] == event.attempt
                else None)


def _name(players: Sequence[str], seat: int) -> str | None:
    name = players[seat].strip() if 0 <= seat < len(players) else ""
    return name or None


def _seeds(stream: Sequence[Timed]) -> _SeedLookup:
    revealed = {e.smazzata: e.seed for e, _ in stream if isinstance(e, SeedRevealed)}
    match_seed = next((e.seed for e, _ in stream if isinstance(e, MatchSeedRevealed)), None)
    return _SeedLookup(revealed, match_seed)


@dataclass(frozen=True, slots=True)
class _SeedLookup:
    revealed: dict[int, str]
    match_seed: str | None

    def __call__(self, number: int) -> str | None:
        if number in self.revealed:
            return self.revealed[number]
        if self.match_seed is None:
            return None
        return smazzata_seed(Seed.from_hex(self.match_seed), number).hex


def _winner(ended: SmazzataEnded) -> int | None:
    a, b = ended.scores
    return None if a == b else (0 if a > b else 1)


def order_key(record: DealRecord) -> tuple[str, str, int, int]:
    """How deals of one table follow each other: time dealt, then match, smazzata, attempt."""
    at = record.dealt_at.isoformat() if record.dealt_at is not None else ""
    return (at, record.match, record.smazzata, record.attempt)


__all__ = ["BRISCOLA", "DECK_SIZE", "RECEIVERS", "STOCK", "TABLE", "DealLayout", "DealRecord",
           "DealRecordError", "deal_records", "deck_of", "layout_of", "order_key"]
