"""Briscola as people wrote it down: deals with unknown cards, plays checked as far as they can be.

A transcribed deal has no seed; hands and stock may hold cards nobody saw (UNKNOWN), the briscola
card is face up and named. A card becomes known when it is played; drawn cards are the stock's,
known or not. Any card of the hand may be played ("non vi è mai l'obbligo a giocare una carta",
004), so a play breaks a rule only by its turn or by a card the hand was written without.
A play out of turn is refused here: the trick's order decides who takes it, and a trick played
out of order has no reading in 004 to fold.
"""

from __future__ import annotations

from typing import NamedTuple

from domain.briscola.engine import events_of_play
from domain.briscola.state import HAND_SIZE, BriscolaState, dealt_state, play, trick_complete
from domain.cards import UNKNOWN, Card
from domain.events import CardPlayed, PlayEvent, SmazzataDealt, SmazzataEnded
from domain.game import RuleViolation
from domain.seating import Seating
from domain.text import say
from domain.transcript import Broken, PlayCheck, check_accounted, check_hands, not_elsewhere, reveal

TURN = "proseguendo in senso antiorario"


def deal_event(seating: Seating, number: int, dealer: int, attempt: int,
               hands: tuple[tuple[Card, ...], ...], table: tuple[Card, ...],
               stock: tuple[Card, ...], briscola: Card | None) -> SmazzataDealt:
    where = say("deal of smazzata {number}", number=number)
    players = seating.players
    check_hands(where, hands, players, HAND_SIZE)
    if table or briscola is None or briscola is UNKNOWN:
        raise RuleViolation("distribuzione", say("{where}: no table, and the briscola card is "
                                                 "face up, so a transcribed deal names it",
                                                 where=where))
    if (len(stock) + 1) % players:
        raise RuleViolation("distribuzione", say("{where}: the stock and the briscola card go "
                                                 "round a table of {players}", where=where,
                                                 players=players))
    check_accounted(where, (*hands, stock, (briscola,)))
    return SmazzataDealt(number=number, dealer=dealer, attempt=attempt, seed_commitment=None,
                         hands=hands, table=(), stock=stock, briscola=briscola)


def fold(state: BriscolaState, event: PlayEvent) -> BriscolaState:
    """The engine's fold of a transcribed event; unknown cards a play shows become known."""
    from domain.briscola.engine import evolve

    if isinstance(event, SmazzataDealt):
        # A deal with unknown cards is not 40 distinct cards yet: deal_event checked it.
        setup = state.setup
        assert event.briscola is not None
        return dealt_state(setup.rules, setup.seating, event.number, event.dealer, event.hands,
                           event.briscola, event.stock)
    if isinstance(event, CardPlayed):
        state = _reveal_play(state, event.seat, event.card)
    return evolve(state, event)


def _reveal_play(state: BriscolaState, seat: int, card: Card) -> BriscolaState:
    hand = state.hands[seat]
    if card not in hand:
        hand = reveal(hand, (card,)) or (card, *hand[1:])
    return state._replace(hands=(*state.hands[:seat], hand, *state.hands[seat + 1:]))


def check_play(state: BriscolaState, seat: int, card: Card, capture: tuple[Card, ...],
               matta_value: int | None) -> PlayCheck:
    state.setup.seating.check_seat(seat)
    if state.turn is None:
        raise RuleViolation("fine smazzata", say("no card can be played now"))
    if capture or matta_value is not None:
        raise RuleViolation("giocata", say("a Briscola play names only the card"))
    if card is UNKNOWN:
        raise RuleViolation("carta giocata", say("a played card is seen by everyone: name it"))
    if seat != state.turn:
        raise RuleViolation("turno", say("seat {seat} played out of turn (seat {to_move} was "
                                         "to play): a Briscola trick out of order is not "
                                         "recorded", seat=seat + 1, to_move=state.turn + 1))
    hand = state.hands[seat]
    if card in hand:
        return PlayCheck()
    others = [h for s, h in enumerate(state.hands) if s != seat]
    not_elsewhere(card, say("played by seat {seat}", seat=seat + 1),
                  [*others, state.stock, state.table, *state.taken])
    if UNKNOWN in hand:
        return PlayCheck()
    return PlayCheck((Broken("carta in mano", TURN, say(
        "{card} is not in seat {seat}'s hand as transcribed", card=card.code, seat=seat + 1)),))


def play_events(state: BriscolaState, seat: int, card: Card,
                capture: tuple[Card, ...]) -> tuple[tuple[PlayEvent, ...], PlayCheck]:
    probe = _reveal_play(state, seat, card)
    return events_of_play(probe, card, play(probe, card)), PlayCheck()


class Advanced(NamedTuple):
    """A play taken by `advance`: its events, the state right after the CardPlayed (with the
    trick it completes still on the table: state.trick_complete), and the state after all of
    them."""

    events: tuple[PlayEvent, ...]
    played: BriscolaState
    after: BriscolaState


def advance(state: BriscolaState, seat: int, card: Card, capture: tuple[Card, ...],
            matta_value: int | None) -> Advanced | None:
    """`check_play`, `play_events` and `fold` of their events at once, for the common play: the
    seat to move plays a card of its hand and the smazzata goes on. None for any other play,
    which the caller then takes the slow way (which says why)."""
    if state.turn is None or seat != state.turn or capture or matta_value is not None \
            or card is UNKNOWN:
        return None
    if card not in state.hands[seat]:
        # A card nobody saw before: an unseen card of the hand, if it is nowhere else.
        others = [h for s, h in enumerate(state.hands) if s != seat]
        if UNKNOWN not in state.hands[seat] or any(
                card in place for place in (*others, state.stock, state.table, *state.taken)):
            return None
        state = _reveal_play(state, seat, card)
    after = play(state, card)
    events = events_of_play(state, card, after)
    if isinstance(events[-1], SmazzataEnded):
        return None   # the smazzata ends: its outcome is the record's to add
    return Advanced(events, after if after.table else trick_complete(state, card, after), after)
