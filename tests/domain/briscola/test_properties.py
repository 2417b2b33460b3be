"""Invariants of Briscola over random seeds and random legal play (hypothesis)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from domain.briscola.engine import ENGINE, deal_event
from domain.briscola.scoring import breakdown, unawarded_points
from domain.briscola.state import BriscolaState, play
from domain.briscola.values import WINNING_POINTS, card_points
from domain.cards import DECK
from domain.events import CardPlayed, CardsDrawn, TrickTaken
from domain.game import replay
from domain.seating import Seating
from domain.shuffle import Seed, shuffled_deck
from tests.domain.briscola.helpers import brute_force_winner, random_smazzata, seeds, table_sizes


def _all_cards(state: BriscolaState) -> Counter[int]:
    cards = [*state.stock, *state.table, *state.taken[0], *state.taken[1]]
    for hand in state.hands:
        cards.extend(hand)
    return Counter(cards)


@given(seeds, table_sizes, st.randoms(use_true_random=False))
def test_the_40_cards_are_accounted_for_at_every_step(seed: Seed, players: int,
                                                      rng: random.Random) -> None:
    played = random_smazzata(seed, players, rng)
    for state in played.states:
        assert _all_cards(state) == Counter(DECK)
        assert sum(state.points) + unawarded_points(state) == 120


@given(seeds, table_sizes, st.randoms(use_true_random=False))
def test_card_points_of_a_smazzata_total_120(seed: Seed, players: int,
                                             rng: random.Random) -> None:
    final = random_smazzata(seed, players, rng).final
    assert sum(final.points) == 120
    assert all(not hand for hand in final.hands) and not final.stock
    rows = {name: (a, b) for name, a, b in breakdown(final)}
    assert rows["punti"] == final.points
    assert sum(rows["prese"]) == 40 // players and sum(rows["carte"]) == 40


@given(seeds, table_sizes, st.randoms(use_true_random=False))
def test_trick_winner_is_the_highest_briscola_else_the_highest_of_the_suit_led(
        seed: Seed, players: int, rng: random.Random) -> None:
    played = random_smazzata(seed, players, rng)
    briscola = played.final.setup.briscola
    assert briscola is not None
    trick: list[CardPlayed] = []
    for event in played.events:
        if isinstance(event, CardPlayed):
            trick.append(event)
        elif isinstance(event, TrickTaken):
            cards = tuple(p.card for p in trick)
            assert event.cards == cards
            assert event.seat == trick[brute_force_winner(cards, briscola.suit)].seat
            assert event.points == card_points(cards)
            trick = []


@given(seeds, table_sizes, st.randoms(use_true_random=False))
def test_draws_start_at_the_trick_winner_and_go_counterclockwise(
        seed: Seed, players: int, rng: random.Random) -> None:
    played = random_smazzata(seed, players, rng)
    winner = None
    stock = played.states[0].stock
    for before, event in zip(played.states, played.events[1:], strict=False):
        if isinstance(event, CardPlayed):
            stock = before.stock
        elif isinstance(event, TrickTaken):
            winner = event.seat
        elif isinstance(event, CardsDrawn):
            assert winner is not None
            assert [s for s, _ in event.draws] == [(winner + k) % players
                                                    for k in range(players)]
            assert [c for _, c in event.draws] == list(stock[:players])


@given(seeds, table_sizes, st.randoms(use_true_random=False))
def test_vinco_subito_ends_at_the_first_trick_that_brings_a_side_to_61(
        seed: Seed, players: int, rng: random.Random) -> None:
    choices = rng.random()
    full = random_smazzata(seed, players, random.Random(choices))
    quick = random_smazzata(seed, players, random.Random(choices), vinco_subito=True)
    tricks = [s.points for s, e in zip(full.states[1:], full.events[1:], strict=True)
              if isinstance(e, TrickTaken)]
    first = next((k for k, p in enumerate(tricks) if max(p) >= WINNING_POINTS), None)
    quick_tricks = [e for e in quick.events if isinstance(e, TrickTaken)]
    if first is None:  # 60-60: nobody reaches 61
        assert quick.final.points == full.final.points == (60, 60)
        assert quick.final.vinto_subito is None
        return
    assert len(quick_tricks) == first + 1
    assert quick.final.points == tricks[first]
    side = quick.final.setup.sides[quick_tricks[-1].seat]
    assert quick.final.vinto_subito == side and quick.final.points[side] >= WINNING_POINTS
    assert ENGINE.is_finished(quick.final) and ENGINE.to_move(quick.final) is None


@given(seeds, table_sizes, st.randoms(use_true_random=False))
def test_replaying_the_events_gives_the_same_state(seed: Seed, players: int,
                                                   rng: random.Random) -> None:
    played = random_smazzata(seed, players, rng)
    start = ENGINE.initial(played.final.setup.rules, Seating(players))
    assert replay(ENGINE, start, played.events) == played.final


@given(seeds, table_sizes, st.randoms(use_true_random=False))
def test_play_is_the_fold_of_the_events_decide_reports(seed: Seed, players: int,
                                                       rng: random.Random) -> None:
    """`play` is one card and all it causes: the state once the CardPlayed and the events
    that follow it (TrickTaken, CardsDrawn, SmazzataEnded) are folded, each to its own state."""
    played = random_smazzata(seed, players, rng)
    expected = None
    for event, before in zip(played.events[1:], played.states, strict=False):
        if isinstance(event, CardPlayed):
            assert expected is None or before == expected
            expected = play(before, event.card)
    assert played.final == expected


@given(seeds, table_sizes, st.integers(0, 3))
def test_the_same_seed_gives_the_same_deal_through_the_shared_shuffle(
        seed: Seed, players: int, dealer: int) -> None:
    dealer %= players
    first, second = deal_event(Seating(players), dealer, 0, seed), \
        deal_event(Seating(players), dealer, 0, seed)
    assert first == second
    deck = shuffled_deck(seed, 0)
    dealt = 3 * players
    order = [(dealer + 1 + k) % players for k in range(players)]
    assert [first.hands[s][r] for r in range(3) for s in order] == list(deck[:dealt])
    assert (first.briscola, *first.stock) == deck[dealt:]
