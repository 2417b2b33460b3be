"""Briscola as people wrote it down: deals with unknown cards, plays checked as far as they can be.

A transcribed deal has no seed; hands and stock may hold cards nobody saw (UNKNOWN), the briscola
card is face up and named. A card becomes known when it is played; drawn cards are the stock's,
known or not. Any card of the hand may be played ("non vi è mai l'obbligo a giocare una carta",
004), so a play breaks a rule only by its turn or by a card the hand was written without.
A play out of turn is refused here: the trick's order decides who takes it, and a trick played
out of order has no reading in 004 to fold.
"""

from __future__ import annotations

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


def judge_play(state: BriscolaState, seat: int, card: Card, capture: tuple[Card, ...],
               matta_value: int | None, irregular: bool) -> tuple[PlayCheck, Played | None]:
    """The rule the play breaks, if the known cards show one (RuleViolation when it cannot
    have happened, or out of turn), and what the play leads to (`Played`) unless it breaks it
    and is not `irregular` (a play the table accepted, recorded as it happened)."""
    check = _check(state, seat, card, capture, matta_value)
    if check.broken and not irregular:
        return check, None
    return check, _played(state, seat, card)


def _check(state: BriscolaState, seat: int, card: Card, capture: tuple[Card, ...],
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
        return _NOTHING_LEFT_OPEN
    others = [h for s, h in enumerate(state.hands) if s != seat]
    not_elsewhere(card, say("played by seat {seat}", seat=seat + 1),
                  [*others, state.stock, state.table, *state.taken])
    if UNKNOWN in hand:
        return _NOTHING_LEFT_OPEN
    return PlayCheck((Broken("carta in mano", TURN, say(
        "{card} is not in seat {seat}'s hand as transcribed", card=card.code, seat=seat + 1)),))


Played = tuple[tuple[PlayEvent, ...], PlayCheck, BriscolaState, BriscolaState]
"""A play's events, what they leave open (nothing), the state right after its CardPlayed and
the state after all its events (the end of a smazzata not folded: its outcome is the
record's)."""


def _played(state: BriscolaState, seat: int, card: Card) -> Played:
    from domain.briscola.engine import evolve

    probe = _reveal_play(state, seat, card)
    after = play(probe, card)
    events = events_of_play(probe, card, after)
    played = after if after.table else trick_complete(probe, card, after)   # evolve's fold
    folded = played
    for event in events[1:]:
        if isinstance(event, SmazzataEnded):
            break
        folded = evolve(folded, event)
    return events, _NOTHING_LEFT_OPEN, played, folded


_NOTHING_LEFT_OPEN = PlayCheck()
