"""Cirulla as a fold: `deal` and `decide` return events, `evolve` applies one.

`apply_play` is the one place a play changes the state; `evolve` and the simulator both use it,
so the fast path of the benchmark is the path of the record.
"""

from __future__ import annotations

import operator
from bisect import bisect_left
from itertools import compress

from domain.cards import MATTA, Card
from domain.cirulla.accusi import (
    DEALER_KINDS,
    AccusoOption,
    best_accuso,
    dealer_accuso,
    player_accusi,
)
from domain.cirulla.captures import captures_of
from domain.cirulla.dealing import distribute, next_hands, redeal_reason
from domain.cirulla.ruleset import MattaDurata, Ruleset
from domain.cirulla.scoring import Breakdown, score
from domain.cirulla.state import AccusoRecord, CirullaState, Play, empty_state
from domain.events import (
    AccusoDeclared,
    CardPlayed,
    DealAnnulled,
    HandDealt,
    PlayEvent,
    SmazzataDealt,
    SmazzataEnded,
)
from domain.seating import Direction, Seating
from domain.shuffle import Seed, commitment, shuffled_deck

_FOREVER = 1 << 30


def deal_events(ruleset: Ruleset, seating: Seating, dealer: int, number: int,
                seed: Seed) -> tuple[PlayEvent, ...]:
    """The deal of smazzata `number`: every attempt until one stands, then the dealer's accuso."""
    events: list[PlayEvent] = []
    promise = commitment(seed)
    attempt = 0
    while True:
        hands, table, stock = distribute(shuffled_deck(seed, attempt), ruleset, seating, dealer)
        events.append(SmazzataDealt(number=number, dealer=dealer, attempt=attempt,
                                    seed_commitment=promise, hands=hands, table=table,
                                    stock=stock))
        reason = redeal_reason(table, ruleset)
        if reason is None:
            break
        events.append(DealAnnulled(number=number, attempt=attempt, reason=reason))
        attempt += 1
    option = dealer_accuso(table)
    if option is not None:
        events.append(_accuso_event(dealer, option, table))
    return tuple(events)


def _accuso_event(seat: int, option: AccusoOption, cards: tuple[Card, ...]) -> AccusoDeclared:
    return AccusoDeclared(seat=seat, kind=option.kind, cards=cards, points=option.points,
                          matta_value=option.matta_value)


def auto_accuso(state: CirullaState, seat: int) -> AccusoDeclared | None:
    """The accuso the system declares for `seat` now, if its hand has one and none was made."""
    if state.declared[seat]:
        return None
    hand = state.hands[seat]
    option = best_accuso(player_accusi(hand, state.ruleset))
    return None if option is None else _accuso_event(seat, option, hand)


# ---- evolve -----------------------------------------------------------------------------------

def evolve(state: CirullaState, event: PlayEvent) -> CirullaState:
    if isinstance(event, CardPlayed):
        return apply_play(state, event.card, event.capture, event.scopa)
    if isinstance(event, SmazzataDealt):
        return _dealt(state, event)
    if isinstance(event, AccusoDeclared):
        return _accuso(state, event)
    if isinstance(event, HandDealt):
        return state._replace(hands=event.hands, stock=state.stock[sum(map(len, event.hands)):],
                       declared=(False,) * state.players)
    if isinstance(event, DealAnnulled):
        return state._replace(dealt=False)
    if isinstance(event, SmazzataEnded):
        return _ended(state, event)
    raise TypeError(f"Cirulla does not fold {type(event).__name__}")


def _dealt(state: CirullaState, event: SmazzataDealt) -> CirullaState:
    fresh = empty_state(state.ruleset, state.seating, event.dealer, event.number)
    table = tuple(sorted(event.table))
    return fresh._replace(hands=event.hands, table=table,
                   table_values=tuple(c.value for c in table), stock=event.stock, dealt=True)


def _accuso(state: CirullaState, event: AccusoDeclared) -> CirullaState:
    record = AccusoRecord(event.seat, event.kind, event.cards, event.points, event.matta_value)
    if event.kind in DEALER_KINDS:
        side = state.seating.side_of(event.seat)
        captured = _add_to_side(state.captured, side, state.table)
        return state._replace(table=(), table_values=(), captured=captured,
                       accusi=(*state.accusi, record), last_capture_side=side)
    declared = tuple(True if s == event.seat else d for s, d in enumerate(state.declared))
    matta = event.matta_value if MATTA in event.cards else state.matta_value
    return state._replace(accusi=(*state.accusi, record), declared=declared, matta_value=matta)


def _ended(state: CirullaState, event: SmazzataEnded) -> CirullaState:
    captured = state.captured
    if event.leftover_to is not None and state.table:
        captured = _add_to_side(captured, event.leftover_to, state.table)
        return state._replace(captured=captured, table=(), table_values=(), finished=True)
    return state._replace(finished=True)


def _add_to_side(captured: tuple[tuple[Card, ...], tuple[Card, ...]], side: int,
                 cards: tuple[Card, ...]) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    if side == 0:
        return (captured[0] + cards, captured[1])
    return (captured[0], captured[1] + cards)


def apply_play(state: CirullaState, card: Card, capture: tuple[Card, ...],
               scopa: bool) -> CirullaState:
    """The state after the seat to move plays `card` taking `capture` (already checked legal)."""
    seat = state.to_move
    seating = state.seating
    players = seating.players
    hands = state.hands
    hand = hands[seat]
    at = hand.index(card)
    hands = hands[:seat] + (hand[:at] + hand[at + 1:],) + hands[seat + 1:]
    matta_value = state.matta_value
    matta_until = state.matta_until_mano
    table = state.table
    if capture:
        side = seat & 1
        kept = list(map(_not, map(capture.__contains__, table)))
        values = tuple(compress(state.table_values, kept))
        table = tuple(compress(table, kept))
        pile = state.captured[side] + capture + (card,)
        captured = (pile, state.captured[1]) if side == 0 else (state.captured[0], pile)
        if matta_value is not None and (card is MATTA or MATTA in capture):
            matta_value = None
        scope = state.scope
        if scopa:
            scope = (scope[0] + 1, scope[1]) if side == 0 else (scope[0], scope[1] + 1)
        last_capture_side: int | None = side
    else:
        value = matta_value if card is MATTA and matta_value else card.value
        at = bisect_left(table, card)
        values = state.table_values[:at] + (value,) + state.table_values[at:]
        table = table[:at] + (card,) + table[at:]
        captured, scope, last_capture_side = state.captured, state.scope, state.last_capture_side
        if card is MATTA and matta_value is not None:
            keep_value = state.ruleset.matta_durata is MattaDurata.SMAZZATA
            matta_until = _FOREVER if keep_value else state.plays // players
    plays = state.plays + 1
    if matta_value is not None and plays // players > matta_until and MATTA in table:
        # "alla mano successiva torna a valere 7" (C18): the next mano starts with this play.
        values = tuple(7 if c is MATTA else v for c, v in zip(table, values, strict=True))
        matta_value, matta_until = None, -1
    step = 1 if seating.direction is Direction.COUNTERCLOCKWISE else -1
    return _new_state(CirullaState, (
        state.ruleset, seating, state.number, state.dealer, hands, table, values,
        state.stock, captured, scope, state.accusi, (seat + step) % players, plays,
        matta_value, matta_until, state.declared, last_capture_side, True, False))


_new_state = tuple.__new__   # all 19 fields given: skip the NamedTuple's Python-level __new__
_not = operator.not_


# ---- after a play -----------------------------------------------------------------------------

def follow_up(state: CirullaState) -> PlayEvent | None:
    """What happens by itself after a play: a new hand from the stock, or the end."""
    if any(state.hands):
        return None
    if state.stock:
        hands, _ = next_hands(state.stock, state.seating, state.dealer)
        return HandDealt(hands=hands)
    return end_event(state)


def end_event(state: CirullaState) -> SmazzataEnded:
    """C9: the cards left on the table go to the side of the last capture; not a scopa."""
    leftover_to = state.last_capture_side if state.table else None
    piles = state.captured
    if leftover_to is not None:
        piles = _add_to_side(piles, leftover_to, state.table)
    breakdown = smazzata_score(state, piles)
    return SmazzataEnded(number=state.number, scores=breakdown.totals, breakdown=breakdown.rows,
                         leftover_to=leftover_to)


def smazzata_score(state: CirullaState,
                   piles: tuple[tuple[Card, ...], tuple[Card, ...]] | None = None) -> Breakdown:
    accusi = [0, 0]
    for record in state.accusi:
        accusi[state.seating.side_of(record.seat)] += record.points
    return score(piles if piles is not None else state.captured, state.scope,
                 (accusi[0], accusi[1]), state.ruleset)


def is_scopa(state: CirullaState, capture: tuple[Card, ...]) -> bool:
    """'Se un giocatore prende tutte le carte in tavola ... fa scopa ad eccezione che ciò avvenga
    nell'ultima giocata dell'ultima mano di una smazzata.'"""
    return bool(capture) and len(capture) == len(state.table) and not state.is_last_play


def captures_for(state: CirullaState, card: Card) -> list[tuple[Card, ...]]:
    return captures_of(state.value_of(card), state.table, state.table_values,
                       state.ruleset.asso_su_asso)


def play_events(state: CirullaState, play: Play) -> tuple[CardPlayed, CirullaState]:
    """The CardPlayed event of an already-checked play and the state after it."""
    scopa = is_scopa(state, play.capture)
    matta_value = state.matta_value if play.card is MATTA else None
    event = CardPlayed(seat=state.to_move, card=play.card, capture=play.capture,
                       matta_value=matta_value, scopa=scopa)
    return event, apply_play(state, play.card, play.capture, scopa)
