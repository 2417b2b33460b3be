"""Who may see what: one viewer's view of a smazzata, folded from its events (000 and 004).

A viewer is a seat, the PUBLIC (a spectator) or the ARBITER. Without options a seat sees its own
hand, the table (Cirulla) or the trick in progress (Briscola), the plays of the mano in progress
and the public facts (pile sizes, scope, points, accusi). The options of the "Regole opzionali"
widen that (docs/rules-interpretations.md, "Visibility"):

- carte viste: "le carte viste nelle precedenti mani della smazzata" stay shown (`seen`), and
  "Nelle partite testa a testa a carte viste, l'ultima mano si gioca a carte scoperte": with two
  players, once the stock is empty every hand is face up, to the spectators too.
- carte scoperte (pairs only): "i compagni, senza essere visti dagli avversari, giocano a carte
  scoperte": a seat also sees its partner's hand, never an opponent's; spectators see neither.

Cards known to be in a hand are public whatever the options (`shown`): a cirulla or decino is
declared "scoprendo le sue carte", and the Briscola card is drawn face up. The stock's order is
seen by the arbiter only. The per-viewer view is its own object (docs/style.md, observers).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from domain.cards import Card
from domain.cirulla.accusi import DEALER_KINDS
from domain.events import (
    AccusoDeclared,
    CardPlayed,
    CardsDrawn,
    DealAnnulled,
    HandDealt,
    PlayEvent,
    SmazzataDealt,
    SmazzataEnded,
    TrickTaken,
)
from domain.seating import Seating

GAMES = ("cirulla", "briscola")


class Role(Enum):
    PUBLIC = "public"
    ARBITER = "arbiter"


PUBLIC = Role.PUBLIC
ARBITER = Role.ARBITER
Viewer = int | Role
"""A seat number, or PUBLIC (a spectator), or ARBITER."""


class ObservationError(ValueError):
    """Events that cannot be folded into a view: names the event and what is wrong."""


@dataclass(frozen=True, slots=True)
class Visibility:
    """The optional rules of 000 and 004 that widen what a seat sees."""

    carte_viste: bool = False
    carte_scoperte: bool = False


@dataclass(frozen=True, slots=True)
class Observation:
    """What `viewer` sees of a smazzata. Sides index the pairs; seats index the per-seat rows."""

    game: str
    viewer: Viewer
    number: int
    dealer: int
    hands: tuple[tuple[Card, ...] | None, ...]
    """Each seat's hand when the viewer may see it, else None."""
    hand_sizes: tuple[int, ...]
    shown: tuple[tuple[Card, ...], ...]
    """Per seat, the cards publicly known to be in its hand (accusi shown, the Briscola card)."""
    table: tuple[Card, ...]
    """Cirulla: the cards on the table, in deck order. Briscola: the trick, in play order."""
    briscola: Card | None
    stock_size: int
    stock: tuple[Card, ...] | None
    """The stock top first: the arbiter only. Briscola: the face-up briscola card last."""
    captured_sizes: tuple[int, int]
    scope: tuple[int, int]
    points: tuple[int, int]
    """Cirulla: accusi points. Briscola: card points of the tricks taken."""
    accusi: tuple[AccusoDeclared, ...]
    mano: tuple[CardPlayed, ...]
    """The plays of the mano in progress (one play by every seat; a trick in Briscola)."""
    seen: tuple[CardPlayed, ...]
    """Carte viste: the plays of the previous mani of the smazzata, in order; else empty."""
    last_hand_face_up: bool
    finished: bool


class _Fold:
    """The facts of one smazzata so far; private and local to `observe`, so mutable."""

    def __init__(self, game: str, players: int) -> None:
        self.game = game
        self.players = players
        self.reset(-1, -1)

    def reset(self, number: int, dealer: int) -> None:
        self.number, self.dealer = number, dealer
        self.dealt = self.finished = False
        self.hands: list[list[Card]] = [[] for _ in range(self.players)]
        self.shown: list[list[Card]] = [[] for _ in range(self.players)]
        self.table: list[Card] = []
        self.stock: list[Card] = []
        self.briscola: Card | None = None
        self.captured, self.scope, self.points = [0, 0], [0, 0], [0, 0]
        self.accusi: list[AccusoDeclared] = []
        self.plays: list[CardPlayed] = []

    def dealt_(self, event: SmazzataDealt) -> None:
        if len(event.hands) != self.players:
            raise ObservationError(f"{len(event.hands)} hands dealt at a table of {self.players}")
        self.reset(event.number, event.dealer)
        self.dealt = True
        self.hands = [list(hand) for hand in event.hands]
        self.table = list(event.table)
        self.stock = list(event.stock)
        self.briscola = event.briscola
        if event.briscola is not None:
            # The face-up card under the stock is drawn last (engine state: stock's last card).
            self.stock.append(event.briscola)

    def accuso(self, event: AccusoDeclared) -> None:
        side = event.seat % 2
        self.accusi.append(event)
        self.points[side] += event.points
        if event.kind in DEALER_KINDS:
            self.captured[side] += len(self.table)
            self.table = []
        else:
            self.shown[event.seat] = list(event.cards)

    def played(self, event: CardPlayed) -> None:
        hand = self.hands[event.seat]
        if event.card not in hand:
            raise ObservationError(f"seat {event.seat} plays {event.card.code}, not in its hand")
        hand.remove(event.card)
        if event.card in self.shown[event.seat]:
            self.shown[event.seat].remove(event.card)
        self.plays.append(event)
        if self.game == "briscola":
            self.table.append(event.card)
            return
        side = event.seat % 2
        if not event.capture:
            self.table.append(event.card)
            return
        missing = [c.code for c in event.capture if c not in self.table]
        if missing:
            raise ObservationError(f"seat {event.seat} captures {missing}, not on the table")
        self.table = [c for c in self.table if c not in event.capture]
        self.captured[side] += len(event.capture) + 1
        self.scope[side] += 1 if event.scopa else 0

    def hand_dealt(self, event: HandDealt) -> None:
        dealt = sum(map(len, event.hands))
        if dealt > len(self.stock) or len(event.hands) != self.players:
            raise ObservationError(f"{dealt} cards dealt from a stock of {len(self.stock)}")
        self.hands = [list(hand) for hand in event.hands]
        self.shown = [[] for _ in range(self.players)]
        self.stock = self.stock[dealt:]

    def drawn(self, event: CardsDrawn) -> None:
        for seat, card in event.draws:
            if not self.stock or self.stock[0] is not card:
                raise ObservationError(f"seat {seat} draws {card.code}, not the top of the stock")
            self.stock.pop(0)
            self.hands[seat].append(card)
            if card is self.briscola:
                self.shown[seat].append(card)

    def trick(self, event: TrickTaken) -> None:
        self.captured[event.seat % 2] += len(event.cards)
        self.points[event.seat % 2] += event.points
        self.table = []

    def ended(self, event: SmazzataEnded) -> None:
        if event.leftover_to is not None:
            self.captured[event.leftover_to] += len(self.table)
            self.table = []
        self.finished = True

    def fold(self, index: int, event: PlayEvent) -> None:
        try:
            self._apply(event)
        except (ObservationError, IndexError) as error:
            raise ObservationError(f"event {index} ({type(event).__name__}): {error}") from None

    def _apply(self, event: PlayEvent) -> None:
        if isinstance(event, SmazzataDealt):
            self.dealt_(event)
        elif not self.dealt:
            raise ObservationError("the smazzata has not been dealt")
        elif isinstance(event, DealAnnulled):
            self.reset(self.number, self.dealer)
        elif isinstance(event, AccusoDeclared):
            self.accuso(event)
        elif isinstance(event, CardPlayed):
            self.played(event)
        elif isinstance(event, HandDealt):
            self.hand_dealt(event)
        elif isinstance(event, CardsDrawn):
            self.drawn(event)
        elif isinstance(event, TrickTaken):
            self.trick(event)
        else:
            self.ended(event)


def _check(game: str, seating: Seating, viewer: Viewer) -> None:
    if game not in GAMES:
        raise ObservationError(f"observe: unknown game {game!r}, not one of {GAMES}")
    if not isinstance(viewer, Role):
        seating.check_seat(viewer)


def visible_seats(seating: Seating, viewer: Viewer, visibility: Visibility,
                  last_hand_face_up: bool) -> frozenset[int]:
    """The seats whose hand `viewer` sees."""
    if viewer is ARBITER or last_hand_face_up:
        return frozenset(seating.seats)
    if isinstance(viewer, Role):
        return frozenset()
    partner = seating.partner_of(viewer) if visibility.carte_scoperte else None
    return frozenset({viewer} if partner is None else {viewer, partner})


def observe(game: str, events: Sequence[PlayEvent], seating: Seating, viewer: Viewer,
            visibility: Visibility = Visibility()) -> Observation:
    """`viewer`'s view after `events`, the events of one smazzata from its deal on."""
    _check(game, seating, viewer)
    state = _Fold(game, seating.players)
    for index, event in enumerate(events):
        state.fold(index, event)
    # "testa a testa": the last hand starts when the stock is empty (the last hands are dealt).
    face_up = (visibility.carte_viste and seating.players == 2 and state.dealt
               and not state.stock and not state.finished)
    seats = visible_seats(seating, viewer, visibility, face_up)
    done = len(state.plays) - len(state.plays) % seating.players
    table = state.table if game == "briscola" else sorted(state.table)
    return Observation(
        game=game, viewer=viewer, number=state.number, dealer=state.dealer,
        hands=tuple(tuple(h) if s in seats else None for s, h in enumerate(state.hands)),
        hand_sizes=tuple(len(h) for h in state.hands),
        shown=tuple(tuple(s) for s in state.shown), table=tuple(table),
        briscola=state.briscola, stock_size=len(state.stock),
        stock=tuple(state.stock) if viewer is ARBITER else None,
        captured_sizes=(state.captured[0], state.captured[1]),
        scope=(state.scope[0], state.scope[1]), points=(state.points[0], state.points[1]),
        accusi=tuple(state.accusi), mano=tuple(state.plays[done:]),
        seen=tuple(state.plays[:done]) if visibility.carte_viste else (),
        last_hand_face_up=face_up, finished=state.finished)
