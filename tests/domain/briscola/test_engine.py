"""The Briscola engine's commands and events: what it refuses, naming the rule."""

from __future__ import annotations

import random

import pytest

from domain.briscola.engine import ENGINE, deal_event
from domain.briscola.scoring import unawarded_points
from domain.briscola.state import BriscolaRules, BriscolaState
from domain.cards import parse_card
from domain.events import (
    CardPlayed,
    CardsDrawn,
    HandDealt,
    PlayEvent,
    SmazzataDealt,
    SmazzataEnded,
    TrickTaken,
)
from domain.game import DeclareAccuso, PlayCard, RuleViolation, replay
from domain.seating import Seating
from domain.shuffle import Seed
from tests.domain.briscola.helpers import random_smazzata
from tests.replacing import replace

SEED = Seed.from_hex("5eed0000000000000000000000000009")
SEATING = Seating(2)


def _fresh() -> BriscolaState:
    return ENGINE.initial(BriscolaRules(), SEATING)


def _rule(state: BriscolaState, events: list[PlayEvent]) -> str:
    with pytest.raises(RuleViolation) as refused:
        replay(ENGINE, state, events)
    return refused.value.rule


def _played() -> list[PlayEvent]:
    return list(random_smazzata(SEED, 2, random.Random(5)).events)


def test_nothing_is_played_before_the_deal() -> None:
    with pytest.raises(RuleViolation) as refused:
        ENGINE.decide(_fresh(), PlayCard(1, parse_card("Ad")))
    assert refused.value.rule == "distribuzione"
    assert unawarded_points(_fresh()) == 120


def test_nothing_is_played_after_the_end() -> None:
    events = _played()
    final = replay(ENGINE, _fresh(), events)
    assert ENGINE.is_finished(final)
    with pytest.raises(RuleViolation) as refused:
        ENGINE.decide(final, PlayCard(0, parse_card("Ad")))
    assert refused.value.rule == "fine smazzata"


def test_briscola_has_no_accuso_and_no_capture() -> None:
    state = ENGINE.evolve(_fresh(), deal_event(SEATING, 0, 0, SEED))
    card = state.hands[1][0]
    with pytest.raises(RuleViolation):
        ENGINE.decide(state, DeclareAccuso(1, "cirulla"))
    with pytest.raises(RuleViolation):
        ENGINE.decide(state, PlayCard(1, card, capture=(state.hands[0][0],)))
    assert _rule(state, [CardPlayed(1, card, capture=(state.hands[0][0],))]) == "giocata"
    assert _rule(state, [CardPlayed(0, state.hands[0][0])]) == "turno"
    assert _rule(state, [HandDealt(hands=((), ()))]) == "evento"


def test_a_deal_must_hold_the_40_cards_three_each() -> None:
    dealt = deal_event(SEATING, 0, 0, SEED)
    assert _rule(_fresh(), [dealt, dealt]) == "distribuzione"
    short = replace(dealt, stock=dealt.stock[:-2])
    assert _rule(_fresh(), [short]) == "distribuzione"
    twice = replace(dealt, stock=(dealt.hands[0][0], *dealt.stock[1:]))
    assert _rule(_fresh(), [twice]) == "distribuzione"
    uneven = replace(dealt, hands=(dealt.hands[0][:2], (*dealt.hands[1], dealt.hands[0][2])))
    assert _rule(_fresh(), [uneven]) == "distribuzione"
    no_briscola = replace(dealt, briscola=None)
    assert _rule(_fresh(), [no_briscola]) == "distribuzione"


def _first(events: list[PlayEvent], kind: type) -> int:
    return next(k for k, e in enumerate(events) if isinstance(e, kind))


def test_a_trick_given_to_the_wrong_seat_is_refused() -> None:
    events = _played()
    at = _first(events, TrickTaken)
    taken = events[at]
    assert isinstance(taken, TrickTaken)
    events[at] = replace(taken, seat=1 - taken.seat)
    assert _rule(_fresh(), events[:at + 1]) == "presa"
    events[at] = replace(taken, points=taken.points + 1)
    assert _rule(_fresh(), events[:at + 1]) == "presa"


def test_draws_in_the_wrong_order_are_refused() -> None:
    events = _played()
    at = _first(events, CardsDrawn)
    drawn = events[at]
    assert isinstance(drawn, CardsDrawn)
    events[at] = CardsDrawn(draws=tuple(reversed(drawn.draws)))
    assert _rule(_fresh(), events[:at + 1]) == "pesca"


def test_a_wrong_final_score_is_refused() -> None:
    events = _played()
    ended = events[-1]
    assert isinstance(ended, SmazzataEnded)
    events[-1] = replace(ended, scores=(ended.scores[1], ended.scores[0] + 1))
    assert _rule(_fresh(), events) == "fine smazzata"


def test_the_deal_event_names_the_seed_by_its_commitment() -> None:
    (dealt,) = ENGINE.deal(BriscolaRules(), SEATING, 1, 7, SEED)
    assert isinstance(dealt, SmazzataDealt)
    assert dealt.seed_commitment == SEED.commitment()
    assert (dealt.number, dealt.dealer, dealt.attempt, dealt.table) == (7, 1, 0, ())


def test_unawarded_points_are_the_points_in_hands_table_and_stock() -> None:
    played = random_smazzata(SEED, 4, random.Random(6))
    for state in played.states:
        assert unawarded_points(state) == 120 - sum(state.points)
