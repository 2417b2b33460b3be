"""Who may see what: the viewers, the visibility options, and one viewer's view of a smazzata.

A viewer is a seat, the PUBLIC (a spectator) or the ARBITER. Without options a seat sees its own
hand, the table (Cirulla) or the trick in progress (Briscola), the plays of the mano in progress
and the public facts (pile sizes, scope, points, accusi). The options of the "Regole opzionali"
of 000 and 004 widen that (docs/rules-interpretations.md, "Visibility"):

- carte viste: "le carte viste nelle precedenti mani della smazzata" stay shown (`seen`), and
  "Nelle partite testa a testa a carte viste, l'ultima mano si gioca a carte scoperte": with two
  players, once the stock is empty every hand is face up, to the spectators too.
- carte scoperte (pairs only): "i compagni, senza essere visti dagli avversari, giocano a carte
  scoperte": a seat also sees its partner's hand, never an opponent's; spectators see neither.

Cards known to be in a hand are public whatever the options (`shown`): a cirulla or decino is
declared "scoprendo le sue carte", and the Briscola card is drawn face up. The stock's order is
seen by the arbiter only.

Each game's engine builds the Observation from its own state (domain/cirulla/observe.py,
domain/briscola/observe.py): nothing here moves a card. What a state does not keep, the plays of
the smazzata so far, comes from the timeline (domain/record/timeline.py) as a list of events.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from domain.cards import Card
from domain.events import AccusoDeclared, CardPlayed
from domain.seating import Seating
from domain.text import say


class Role(Enum):
    PUBLIC = "public"
    ARBITER = "arbiter"


PUBLIC = Role.PUBLIC
ARBITER = Role.ARBITER
Viewer = int | Role
"""A seat number, or PUBLIC (a spectator), or ARBITER."""


class ObservationError(ValueError):
    """A view that cannot be given: names what is missing or inconsistent."""


@dataclass(frozen=True, slots=True)
class Visibility:
    """The optional rules of 000 and 004 that widen what a seat sees."""

    carte_viste: bool = False
    carte_scoperte: bool = False


NO_OPTIONS = Visibility()
"""The rules without the optional ones: a seat sees its own hand."""


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
    dealt: bool = True
    """False between smazzate, before a deal and after an annulled one: no cards are out."""


def check_viewer(seating: Seating, viewer: Viewer) -> None:
    """SeatingError when `viewer` is a seat the table does not have."""
    if not isinstance(viewer, Role):
        seating.check_seat(viewer)


def is_last_hand_face_up(visibility: Visibility, players: int, stock_empty: bool,
                      finished: bool) -> bool:
    """"testa a testa a carte viste": the last hand starts when the stock is empty (a dealt
    smazzata: the caller knows cards are out)."""
    return visibility.carte_viste and players == 2 and stock_empty and not finished


def visible_seats(seating: Seating, viewer: Viewer, visibility: Visibility,
                  last_hand_face_up: bool) -> frozenset[int]:
    """The seats whose hand `viewer` sees."""
    if viewer is ARBITER or last_hand_face_up:
        return frozenset(seating.seats)
    if isinstance(viewer, Role):
        return frozenset()
    partner = seating.partner_of(viewer) if visibility.carte_scoperte else None
    return frozenset({viewer} if partner is None else {viewer, partner})


def hands_seen(hands: Sequence[tuple[Card, ...]],
               seats: frozenset[int]) -> tuple[tuple[Card, ...] | None, ...]:
    """The hands as a viewer who sees `seats` has them: None for every other seat."""
    return tuple(hand if seat in seats else None for seat, hand in enumerate(hands))


def split_plays(plays: Sequence[CardPlayed], players: int,
                visibility: Visibility) -> tuple[tuple[CardPlayed, ...], tuple[CardPlayed, ...]]:
    """(the mano in progress, the earlier mani if carte viste): a mano is one play by every seat
    (000 "mano"), a trick in Briscola, so the mano in progress is the plays past a multiple."""
    done = len(plays) - len(plays) % players
    seen = tuple(plays[:done]) if visibility.carte_viste else ()
    return tuple(plays[done:]), seen


def no_smazzata(game: str, seating: Seating, viewer: Viewer, number: int,
                dealer: int) -> Observation:
    """The view with no cards out: before a deal, between smazzate, after an annulled deal.
    Hands are empty where the viewer could see them, None where it could not; `number` and
    `dealer` are those of the smazzata to be dealt."""
    check_viewer(seating, viewer)
    seats = visible_seats(seating, viewer, NO_OPTIONS, False)
    empty = ((),) * seating.players
    return Observation(
        game=game, viewer=viewer, number=number, dealer=dealer, hands=hands_seen(empty, seats),
        hand_sizes=(0,) * seating.players, shown=empty, table=(), briscola=None, stock_size=0,
        stock=() if viewer is ARBITER else None, captured_sizes=(0, 0), scope=(0, 0),
        points=(0, 0), accusi=(), mano=(), seen=(), last_hand_face_up=False, finished=False,
        dealt=False)


def check_plays(game: str, plays: Sequence[CardPlayed], expected: int) -> None:
    """The plays handed in must be the smazzata's so far: as many as the state has made."""
    if len(plays) != expected:
        raise ObservationError(say("{game}: {count} plays given for a state after {expected} "
                                   "plays of its smazzata", game=game, count=len(plays),
                                   expected=expected))


class TableOfCaptures(Protocol):
    """What a fishing game's state (Cirulla, Scopa) holds that its view reads: hands, the table,
    the stock, the piles and the scope."""

    @property
    def seating(self) -> Seating: ...
    @property
    def dealt(self) -> bool: ...
    @property
    def number(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def plays(self) -> int: ...
    @property
    def finished(self) -> bool: ...
    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]: ...
    @property
    def table(self) -> tuple[Card, ...]: ...
    @property
    def stock(self) -> tuple[Card, ...]: ...
    @property
    def captured(self) -> tuple[tuple[Card, ...], tuple[Card, ...]]: ...
    @property
    def scope(self) -> tuple[int, int]: ...


@dataclass(frozen=True, slots=True)
class Declared:
    """What a game's accusi make public (none in Scopa): the cards shown per seat, the points
    per side, the accusi as their events."""

    shown: tuple[tuple[Card, ...], ...] | None = None
    points: tuple[int, int] = (0, 0)
    accusi: tuple[AccusoDeclared, ...] = ()


def table_view(game: str, state: TableOfCaptures, viewer: Viewer, visibility: Visibility,
               plays: Sequence[CardPlayed], declared: Declared = Declared()) -> Observation:
    """`viewer`'s view of a fishing game's smazzata: the hands it may see, the table in deck
    order, the stock's size (its order to the arbiter only), the piles' sizes, the scope and
    what the accusi made public; `plays` are the CardPlayed of the smazzata so far."""
    seating = state.seating
    check_viewer(seating, viewer)
    if not state.dealt:
        return no_smazzata(game, seating, viewer, state.number, state.dealer)
    check_plays(game, plays, state.plays)
    face_up = is_last_hand_face_up(visibility, seating.players, not state.stock, state.finished)
    seats = visible_seats(seating, viewer, visibility, face_up)
    mano, seen = split_plays(plays, seating.players, visibility)
    shown = declared.shown if declared.shown is not None else ((),) * seating.players
    return Observation(
        game=game, viewer=viewer, number=state.number, dealer=state.dealer,
        hands=hands_seen(state.hands, seats), hand_sizes=tuple(map(len, state.hands)),
        shown=shown, table=tuple(sorted(state.table)), briscola=None,
        stock_size=len(state.stock), stock=state.stock if viewer is ARBITER else None,
        captured_sizes=(len(state.captured[0]), len(state.captured[1])), scope=state.scope,
        points=declared.points, accusi=declared.accusi, mano=mano, seen=seen,
        last_hand_face_up=face_up, finished=state.finished)
