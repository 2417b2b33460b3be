"""The state of one Briscola smazzata and the play of one card: the rules engine's hot path.

`play(state, card)` is the one transition of the game: it puts the card on the table and, when
the card completes the mano, gives the trick to its winner, lets every seat draw (the winner
first, then round the table) and ends the smazzata when the hands are empty or "vinco subito"
applies. Events (engine.py) are derived from it and folded through it, so the rules live here
once. A play that completes a mano is recorded as three events (CardPlayed, TrickTaken,
CardsDrawn), and the state after each is its own: `trick_complete` is the state after the
CardPlayed (the whole trick on the table, no hand refilled) and `trick_taken` the state after
the TrickTaken (the trick in its winner's pile, nobody has drawn yet); both carry in `resolved`
what `play` gave, which the events still to fold reach (engine.py `evolve`).

The state is a frozen msgspec Struct, not a frozen dataclass: a smazzata builds one state per
card played, and building a 10-field frozen slots dataclass costs four times as much (1.6 µs
against 0.4 µs, measured); msgspec builds it, and replaces its fields, in C.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import msgspec
from msgspec.structs import replace

from domain.briscola.values import POINTS, SUIT_NUMBER, TRICK_KEYS, WINNING_POINTS
from domain.cards import Card
from domain.dealing import deal_round_robin
from domain.game import RuleViolation
from domain.seating import Seating
from domain.text import say

HAND_SIZE = 3
"""'ne da 3 ad ogni giocatore'."""


@dataclass(frozen=True, slots=True)
class BriscolaRules:
    """The ruleset options that change play. 'Vinco subito' ends play at the winning trick."""

    vinco_subito: bool = False


@dataclass(frozen=True, slots=True)
class Setup:
    """What stays fixed for a whole smazzata, shared by reference by all its states.

    Besides the facts of the deal it carries the tables the hot path reads: the seat after each
    seat, the round of seats starting at each seat, each seat's side, and the trick keys of this
    briscola suit (values.TRICK_KEYS). Build it with `make_setup`.
    """

    rules: BriscolaRules
    seating: Seating
    number: int
    dealer: int
    briscola: Card | None
    keys: tuple[tuple[int, ...], ...]
    players: int
    after: tuple[int, ...]
    rounds: tuple[tuple[int, ...], ...]
    sides: tuple[int, ...]

    @property
    def dealt(self) -> bool:
        return self.briscola is not None


@cache
def _geometry(seating: Seating) -> tuple[int, tuple[int, ...], tuple[tuple[int, ...], ...],
                                         tuple[int, ...]]:
    seats = seating.seats
    return (seating.players, tuple(seating.next_seat(s) for s in seats),
            tuple(seating.order_from(s) for s in seats), tuple(seating.side_of(s) for s in seats))


def make_setup(rules: BriscolaRules, seating: Seating, number: int = -1, dealer: int = -1,
               briscola: Card | None = None) -> Setup:
    keys = TRICK_KEYS[0 if briscola is None else SUIT_NUMBER[briscola]]
    return Setup(rules, seating, number, dealer, briscola, keys, *_geometry(seating))


class BriscolaState(msgspec.Struct, frozen=True, gc=False):
    """One moment of a smazzata. `stock` is in draw order with the briscola card last.

    A frozen msgspec Struct, built and changed by field name in C (`replace`); it holds no cycle
    (`resolved` is a later state, never this one), so the collector never walks it.
    """

    # Fixed for the whole smazzata.
    setup: Setup
    # Changed when a mano is taken.
    stock: tuple[Card, ...]
    leader: int
    points: tuple[int, int]
    taken: tuple[tuple[Card, ...], tuple[Card, ...]]
    vinto_subito: int | None
    """The side that ended the smazzata by 'vinco subito', if one did."""
    resolved: BriscolaState | None
    """Between the play that completes a mano and the last event it causes: the state once
    they are all folded (what `play` gave); else None."""
    # Changed by every card played.
    hands: tuple[tuple[Card, ...], ...]
    table: tuple[Card, ...]
    turn: int | None

    def _replace(self, **changes: Any) -> BriscolaState:
        """This state with `changes` (the name a NamedTuple gives it, for positions built by
        hand: tests)."""
        return replace(self, **changes)


# The ways a card changes the state, by field name: one state is built per card played.

def _card_placed(state: BriscolaState, *, hands: tuple[tuple[Card, ...], ...],
                 table: tuple[Card, ...], turn: int | None) -> BriscolaState:
    """A card on the table that does not complete the mano."""
    return replace(state, hands=hands, table=table, turn=turn)


def _trick_closed(state: BriscolaState, *, hands: tuple[tuple[Card, ...], ...],
                  stock: tuple[Card, ...], leader: int, turn: int | None,
                  points: tuple[int, int], taken: tuple[tuple[Card, ...], tuple[Card, ...]],
                  vinto_subito: int | None) -> BriscolaState:
    """The mano taken, the draws made: an empty table, the winner leads."""
    return replace(state, hands=hands, stock=stock, leader=leader, turn=turn, points=points,
                   taken=taken, vinto_subito=vinto_subito, table=(), resolved=None)


def _trick_on_table(state: BriscolaState, *, hands: tuple[tuple[Card, ...], ...],
                    table: tuple[Card, ...], resolved: BriscolaState) -> BriscolaState:
    """The last card of the mano on the table: the trick not yet taken, nobody to move."""
    return replace(state, hands=hands, table=table, resolved=resolved, turn=None)


def _taken_not_drawn(state: BriscolaState, *, hands: tuple[tuple[Card, ...], ...],
                     stock: tuple[Card, ...], resolved: BriscolaState) -> BriscolaState:
    """The trick in its winner's pile, the hands and the stock as before the draws."""
    return replace(state, hands=hands, stock=stock, resolved=resolved, turn=None)


def initial_state(rules: BriscolaRules, seating: Seating) -> BriscolaState:
    """The table before the deal: nobody holds a card and nobody is to move."""
    setup = make_setup(rules, seating)
    empty = tuple(() for _ in seating.seats)
    return BriscolaState(setup=setup, hands=empty, stock=(), table=(), leader=-1, turn=None,
                         points=(0, 0), taken=((), ()), vinto_subito=None, resolved=None)


def dealt_state(rules: BriscolaRules, seating: Seating, number: int, dealer: int,
                hands: tuple[tuple[Card, ...], ...], briscola: Card,
                stock: Sequence[Card]) -> BriscolaState:
    """The state right after the deal; `stock` is the face-down pile, top first."""
    if (len(stock) + 1) % seating.players:
        # Draws go round the whole table each time: a stock that is not a multiple of the
        # table cannot come from a deal.
        raise RuleViolation("distribuzione", say(
            "{count} stock cards and the briscola card do not go round a table of {players}",
            count=len(stock), players=seating.players))
    setup = make_setup(rules, seating, number, dealer, briscola)
    first = seating.first_after_dealer(dealer)
    return BriscolaState(setup=setup, hands=hands, stock=(*stock, briscola), table=(),
                         leader=first, turn=first, points=(0, 0), taken=((), ()),
                         vinto_subito=None, resolved=None)


def deal_deck(rules: BriscolaRules, seating: Seating, number: int, dealer: int,
              deck: Sequence[Card]) -> BriscolaState:
    """Deal a shuffled deck: 3 each, then the next card face up as the briscola, the rest stock."""
    hands, rest = deal_round_robin(deck, seating, dealer, HAND_SIZE)
    return dealt_state(rules, seating, number, dealer, hands, rest[0], rest[1:])


def legal_plays(state: BriscolaState) -> tuple[Card, ...]:
    """Every card of the seat to move: 'non vi è mai l'obbligo a giocare una carta'."""
    turn = state.turn
    return () if turn is None else state.hands[turn]


def play(state: BriscolaState, card: Card) -> BriscolaState:
    """The seat to move plays `card`; raises RuleViolation if it cannot."""
    seat = state.turn
    if seat is None:
        raise _not_playing(state)
    hands = state.hands
    hand = hands[seat]
    # Cards are singletons: a hand of at most three is cut without searching it, mostly.
    if hand and hand[0] is card:
        rest = hand[1:]
    elif hand and hand[-1] is card:
        rest = hand[:-1]
    else:
        try:
            position = hand.index(card)
        except ValueError:
            raise RuleViolation("carta in mano", say(
                "seat {seat} does not hold {card}: its hand is {hand}", seat=seat, card=card,
                hand=" ".join(c.code for c in hand))) from None
        rest = hand[:position] + hand[position + 1:]
    setup = state.setup
    table = state.table + (card,)
    if len(table) == setup.players:
        return _close_trick(state, setup, hands, seat, rest, table)
    if len(hands) == 2:
        hands = (rest, hands[1]) if seat == 0 else (hands[0], rest)
        turn = 1 - seat   # two seats alternate whichever the direction of play
    else:
        hands = (*hands[:seat], rest, *hands[seat + 1:])
        turn = setup.after[seat]
    return _card_placed(state, hands=hands, table=table, turn=turn)


def _close_trick(state: BriscolaState, setup: Setup, before: tuple[tuple[Card, ...], ...],
                 seat: int, rest: tuple[Card, ...], table: tuple[Card, ...]) -> BriscolaState:
    """The last card of the mano is on the table: the trick, the draws and maybe the end."""
    # Cards are ints (their deck index): they index the tables directly.
    keys = setup.keys[SUIT_NUMBER[table[0]]]
    stock = state.stock
    if len(table) == 2:  # head to head, the common case: no loops
        first, second = table
        best = 1 if keys[second] > keys[first] else 0
        points = POINTS[first] + POINTS[second]
        winner = setup.rounds[state.leader][best]
        hand0, hand1 = (rest, before[1]) if seat == 0 else (before[0], rest)
        if stock:
            # The winner draws the top card, the other seat the next one.
            if winner == 0:
                hand0, hand1 = hand0 + stock[:1], hand1 + stock[1:2]
            else:
                hand0, hand1 = hand0 + stock[1:2], hand1 + stock[:1]
            stock = stock[2:]
        hands: tuple[tuple[Card, ...], ...] = (hand0, hand1)
    else:
        best = best_key = -2
        points = 0
        for position, card in enumerate(table):
            points += POINTS[card]
            if keys[card] > best_key:
                best, best_key = position, keys[card]
        winner = setup.rounds[state.leader][best]
        drawing = list(before)
        drawing[seat] = rest
        if stock:
            # The winner draws the top card, the others follow round the table; the stock
            # always holds a multiple of the players (34 or 28 with the briscola card), so it
            # runs out exactly at the end of a round.
            for drawn, drawer in enumerate(setup.rounds[winner]):
                drawing[drawer] += (stock[drawn],)
            stock = stock[setup.players:]
        hands = tuple(drawing)
    p0, p1 = state.points
    t0, t1 = state.taken
    if setup.sides[winner]:
        side, side_points = 1, p1 + points
        totals, taken = (p0, side_points), (t0, t1 + table)
    else:
        side, side_points = 0, p0 + points
        totals, taken = (side_points, p1), (t0 + table, t1)
    vinto = side if side_points >= WINNING_POINTS and setup.rules.vinco_subito else None
    turn = winner if hands[winner] and vinto is None else None
    return _trick_closed(state, hands=hands, stock=stock, leader=winner, turn=turn,
                         points=totals, taken=taken, vinto_subito=vinto)


def _not_playing(state: BriscolaState) -> RuleViolation:
    if not state.setup.dealt:
        return RuleViolation("distribuzione", say("no card can be played before the deal"))
    return RuleViolation("fine smazzata", say("smazzata {number} is over: no more plays",
                                              number=state.setup.number))


def trick_complete(before: BriscolaState, card: Card, resolved: BriscolaState) -> BriscolaState:
    """The state right after the CardPlayed of `card`, which completes the mano on `before`
    (`resolved` = play(before, card)): the whole trick on the table, the card out of its seat's
    hand, no hand refilled, nobody to move until the trick is taken and the draws made."""
    seat = before.turn
    assert seat is not None   # `play` accepted the card
    hand = before.hands[seat]
    position = hand.index(card)
    hands = (*before.hands[:seat], hand[:position] + hand[position + 1:], *before.hands[seat + 1:])
    return _trick_on_table(before, hands=hands, table=(*before.table, card), resolved=resolved)


def trick_taken(state: BriscolaState) -> BriscolaState:
    """The state right after the TrickTaken of the trick on the table of `state` (a
    `trick_complete` state): the trick in its winner's pile, the winner to lead once the draws
    are made; with no cards left to draw, the state `play` gave."""
    resolved = state.resolved
    assert resolved is not None
    if len(resolved.stock) == len(state.stock):
        return resolved
    return _taken_not_drawn(resolved, hands=state.hands, stock=state.stock, resolved=resolved)


def is_over(state: BriscolaState) -> bool:
    return state.turn is None and state.setup.dealt and state.resolved is None


def seat_of_position(state: BriscolaState, position: int) -> int:
    """The seat that played the `position`-th card of the current mano."""
    return state.setup.rounds[state.leader][position]
