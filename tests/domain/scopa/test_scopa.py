"""Scopa (docs/rules-interpretations.md, "Scopa"): the engine's rules and a seeded match.

The readings S1-S7 are the project's (no source of 000-004 is about Scopa); each test names the
one it checks.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.cards import DECK, SETTEBELLO, Card, parse_cards
from domain.events import CardPlayed, HandDealt, PlayEvent, SmazzataDealt, SmazzataEnded
from domain.game import Command, PlayCard, RuleViolation
from domain.games import game_named
from domain.match_driver import play_match, play_smazzata
from domain.match_format import MatchFormat, match_status
from domain.scopa.captures import captures_of
from domain.scopa.engine import ENGINE, decide, evolve, legal_commands, smazzata_result
from domain.scopa.scoring import breakdown
from domain.scopa.state import ScopaRules, ScopaState, empty_state, table_order
from domain.seating import Direction, Seating
from domain.shuffle import Seed
from tests.replacing import replace

RULES = ScopaRules()
seeds = st.binary(min_size=16, max_size=16).map(Seed)
players = st.sampled_from((2, 4))


def _random_chooser(rng: random.Random) -> Callable[[ScopaState], Command]:
    def choose(state: ScopaState) -> Command:
        return rng.choice(legal_commands(state))
    return choose


def _cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def _position(table: str, hand: str) -> ScopaState:
    state = empty_state(RULES, Seating(2, Direction.COUNTERCLOCKWISE), dealer=1)
    dealt = SmazzataDealt(number=0, dealer=1, attempt=0, seed_commitment=None,
                          hands=(_cards(hand), ()), table=_cards(table),
                          stock=())
    return evolve(state, dealt)


def test_s2_a_card_of_equal_value_on_the_table_is_taken_alone() -> None:
    """S2: with a 7 on the table a 7 takes it, never the 3 and 4 that sum to 7."""
    table = table_order(_cards("3c 4b 7s"))
    assert captures_of(table, _cards("7d")[0]) == (_cards("7s"),)


def test_s2_without_an_equal_card_a_card_takes_a_sum() -> None:
    table = table_order(_cards("3c 4b 5s 2d"))
    assert set(captures_of(table, _cards("7d")[0])) == {
        tuple(sorted(_cards("3c 4b"))), tuple(sorted(_cards("5s 2d")))}
    assert captures_of(table, _cards("1d")[0]) == ()
    assert captures_of(table, _cards("Rd")[0]) == (tuple(sorted(_cards("2d 3c 5s"))),)


def test_s3_a_card_that_can_capture_must_capture() -> None:
    state = _position("3c 4b", "7d 1s Rc")
    seat = state.to_move
    plays = {(c.card, c.capture) for c in legal_commands(state) if isinstance(c, PlayCard)}
    seven = _cards("7d")[0]
    assert (seven, ()) not in plays
    assert (seven, tuple(sorted(_cards("3c 4b")))) in plays
    with pytest.raises(RuleViolation, match="S2-S3"):
        decide(state, PlayCard(seat, seven, ()))


def test_s4_taking_every_table_card_is_a_scopa() -> None:
    state = _position("3c 4b", "7d 1s Rc")
    seven = _cards("7d")[0]
    played = decide(state, PlayCard(state.to_move, seven, tuple(sorted(_cards("3c 4b")))))[0]
    assert isinstance(played, CardPlayed)
    assert played.scopa


def test_s4_the_last_play_is_no_scopa_and_the_table_goes_to_the_last_taker() -> None:
    last = replace(_position("3c 4b", "7d"), plays=35)
    seven = _cards("7d")[0]
    played, ended = decide(last, PlayCard(last.to_move, seven, tuple(sorted(_cards("3c 4b")))))
    assert isinstance(played, CardPlayed) and not played.scopa
    assert isinstance(ended, SmazzataEnded) and ended.leftover_to is None
    before = replace(_position("3c 4b 5s", "Rd"), plays=35, last_capture_side=1)
    _, ended = decide(before, PlayCard(before.to_move, _cards("Rd")[0], ()))
    assert isinstance(ended, SmazzataEnded) and ended.leftover_to == 1
    after = ENGINE.evolve(ENGINE.evolve(before, _), ended)
    assert sorted(after.captured[1]) == sorted(_cards("3c 4b 5s Rd"))


def test_s5_the_points_of_a_smazzata() -> None:
    """Carte over 20, denari over 5, the settebello, primiera, and every scopa: one point each;
    a tie scores for nobody."""
    piles = (tuple(DECK[:20]), tuple(DECK[20:]))
    rows = dict((name, (a, b)) for name, a, b in breakdown(piles, (2, 1)))
    assert rows["scope"] == (2, 1)
    assert rows["carte"] == (0, 0)            # 20 each
    assert rows["denari"] == (1, 0)           # all ten in the first pile
    assert rows["settebello"] == (1, 0)
    assert SETTEBELLO in piles[0]
    assert rows["primiera"] == (0, 0)         # neither pile has all four suits


def _fold(events: tuple[PlayEvent, ...], seating: Seating) -> list[ScopaState]:
    state = ENGINE.initial(RULES, seating)
    states = []
    for event in events:
        state = ENGINE.evolve(state, event)
        states.append(state)
    return states


def _all_cards(state: ScopaState) -> list[Card]:
    return [*(c for hand in state.hands for c in hand), *state.table, *state.stock,
            *state.captured[0], *state.captured[1]]


@settings(max_examples=30, deadline=None)
@given(seeds, players, st.integers(0, 3), st.randoms(use_true_random=False))
def test_every_card_is_in_one_place_after_every_event(seed: Seed, count: int, dealer: int,
                                                      rng: random.Random) -> None:
    """Card conservation: hands, table, stock and piles always hold the 40 cards once each."""
    seating = Seating(count, Direction.COUNTERCLOCKWISE)
    events, final = play_smazzata(ENGINE, RULES, seating, dealer % count, 0, seed,
                                  _random_chooser(rng))
    for state in _fold(events, seating):
        cards = _all_cards(state)
        assert sorted(cards) == sorted(DECK)
    assert final.finished and not any(final.hands) and not final.table and not final.stock
    assert sum(isinstance(e, CardPlayed) for e in events) == 36
    assert sum(isinstance(e, HandDealt) for e in events) == 36 // (3 * count) - 1


@settings(max_examples=30, deadline=None)
@given(seeds, players, st.randoms(use_true_random=False))
def test_only_legal_plays_are_accepted_and_every_legal_one_is(seed: Seed, count: int,
                                                               rng: random.Random) -> None:
    seating = Seating(count, Direction.COUNTERCLOCKWISE)
    state = ENGINE.initial(RULES, seating)
    for event in ENGINE.deal(RULES, seating, 0, 0, seed):
        state = ENGINE.evolve(state, event)
    while not ENGINE.is_finished(state):
        legal = legal_commands(state)
        assert legal
        for command in legal:
            assert isinstance(command, PlayCard)
            played = decide(state, command)[0]
            assert isinstance(played, CardPlayed)
            assert (played.seat, played.card, played.capture) == (
                command.seat, command.card, tuple(sorted(command.capture)))
        hand = state.hands[state.to_move]
        wrong = next((PlayCard(state.to_move, c, ()) for c in hand
                      if PlayCard(state.to_move, c, ()) not in legal), None)
        if wrong is not None:
            with pytest.raises(RuleViolation):
                decide(state, wrong)
        with pytest.raises(RuleViolation, match="turn order"):
            decide(state, PlayCard(seating.next_seat(state.to_move), hand[0], ()))
        for event in decide(state, rng.choice(legal)):
            state = ENGINE.evolve(state, event)
    assert legal_commands(state) == ()


@settings(max_examples=20, deadline=None)
@given(seeds, players, st.integers(0, 2 ** 32))
def test_a_smazzata_is_the_same_from_the_same_seed(seed: Seed, count: int, choice: int) -> None:
    seating = Seating(count, Direction.COUNTERCLOCKWISE)
    first = play_smazzata(ENGINE, RULES, seating, 0, 0, seed,
                          _random_chooser(random.Random(choice)))
    again = play_smazzata(ENGINE, RULES, seating, 0, 0, seed,
                          _random_chooser(random.Random(choice)))
    assert first == again


@settings(max_examples=10, deadline=None)
@given(seeds, players, st.sampled_from(("11pt", "21pt", "3smazzate")))
def test_a_seeded_match_is_played_to_its_end_with_its_scores_summed(
        seed: Seed, count: int, text: str) -> None:
    """The shared match loop (domain/match_driver.py) plays Scopa like the other games."""
    game = game_named("scopa")
    fmt = MatchFormat.parse(text, "scopa")
    seating = game.rules.seating(RULES, count)
    rng = random.Random(seed.value)
    match = play_match(ENGINE, RULES, fmt, seating, seed, _random_chooser(rng), smazzata_result)
    assert match.status.over
    results = [p.result for p in match.smazzate]
    for played in match.smazzate:
        ended = played.events[-1]
        assert isinstance(ended, SmazzataEnded)
        assert ended.scores == played.result.points
    assert match_status(fmt, results).totals == (sum(r.points[0] for r in results),
                                                 sum(r.points[1] for r in results))
    if fmt.length in (11, 21) and match.status.winner is not None:
        assert max(match.status.totals) >= fmt.length
    again = play_match(ENGINE, RULES, fmt, seating, seed,
                       _random_chooser(random.Random(seed.value)), smazzata_result)
    assert again == match


def test_the_record_knows_scopa_through_the_registry() -> None:
    game = game_named("scopa")
    assert game.rules.ruleset({}) == RULES
    assert game.rules.options(RULES) == {}
    with pytest.raises(ValueError, match="expected none"):
        game.rules.ruleset({"asso": "piglia-tutto"})
    fmt = MatchFormat.parse("11pt", "scopa")
    awarded, standing = game.rules.forfeit(fmt, (), game.rules.engine.initial(RULES, Seating(
        2, Direction.COUNTERCLOCKWISE)), 0, (0, 0))
    assert awarded == (0, 4) and standing.winner == 1 and standing.reason == "forfeit"
