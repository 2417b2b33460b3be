"""Invariants of Cirulla over random seeds, random options, 2 and 4 players, random legal play.

Each example deals a smazzata from a random seed under a random ruleset (every option drawn,
tests/domain/cirulla/helpers.py `rulesets`), then plays random accusi and random legal plays to
the end through `decide` and `evolve`.
"""

from __future__ import annotations

import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.cards import DECK, MATTA
from domain.cirulla.accusi import DEALER_KINDS
from domain.cirulla.captures import legal_plays
from domain.cirulla.dealing import distribute
from domain.cirulla.decide import ENGINE
from domain.cirulla.engine import deal_events, follow_up, play_events, smazzata_score
from domain.cirulla.reference import reference_captures, reference_legal_plays
from domain.cirulla.ruleset import PresaObbligata, Ruleset
from domain.cirulla.state import PLAYS_PER_SMAZZATA, CirullaState, empty_state, taken
from domain.events import AccusoDeclared, CardPlayed, PlayEvent, SmazzataDealt, SmazzataEnded
from domain.game import PlayCard, RuleViolation, replay
from domain.seating import Seating
from domain.shuffle import Seed, shuffled_deck
from tests.domain.cirulla.helpers import Played, players, random_smazzata, rulesets, seeds

randoms = st.randoms(use_true_random=False)
MORE = settings(max_examples=settings().max_examples * 3)


def _played(ruleset: Ruleset, table: int, seed: Seed, rng: random.Random) -> Played:
    return random_smazzata(ruleset, table, seed, rng, dealer=rng.randrange(table))


def _every_card(state: CirullaState) -> list[int]:
    cards = [*state.table, *state.stock, *state.captured[0], *state.captured[1]]
    for hand in state.hands:
        cards.extend(hand)
    return sorted(cards)


def _before(played: Played) -> list[tuple[CirullaState, PlayEvent]]:
    """Each event with the state it was folded into."""
    previous = [played.initial, *played.states[:-1]]
    return list(zip(previous, played.events, strict=True))


@MORE
@given(rulesets, players, seeds, randoms)
def test_all_40_cards_are_accounted_for_at_every_step(ruleset: Ruleset, table: int, seed: Seed,
                                                      rng: random.Random) -> None:
    """000: "Si gioca con un mazzo di 40 carte": hands + table + stock + both piles, always; the
    dealer's 15/30 cards ("il mazziere prende tutte le carte scoperte in tavola") in his pile."""
    played = _played(ruleset, table, seed, rng)
    dealer_cards: list[tuple[int, tuple[int, ...]]] = []
    for state, event in zip(played.states, played.events, strict=True):
        assert _every_card(state) == list(DECK)
        if isinstance(event, AccusoDeclared) and event.kind in DEALER_KINDS:
            dealer_cards.append((state.seating.side_of(event.seat), event.cards))
        for side, shown in dealer_cards:
            assert set(shown) <= set(state.captured[side])
        assert state.table_values == tuple(state.value_of(c) for c in state.table)
    final = played.final
    assert final.finished and final.plays == PLAYS_PER_SMAZZATA
    assert not final.stock and not any(final.hands)


@MORE
@given(rulesets, players, seeds, randoms)
def test_legal_plays_equal_the_brute_force_of_the_text(ruleset: Ruleset, table: int,
                                                       seed: Seed, rng: random.Random) -> None:
    """"Ogni giocatore di mano deve giocare una carta tenendo presente che: a) ... b) ... c) ...
    d) ...": at every step `legal_plays` is exactly every subset of the table the rules allow
    (domain/cirulla/reference.py), each once."""
    played = _played(ruleset, table, seed, rng)
    for state in played.deciding:
        hand = state.hands[state.to_move]
        engine = legal_plays(state)
        assert len(engine) == len(set(engine))
        assert {(p[0], taken(p)) for p in engine} == reference_legal_plays(
            state.table, hand, ruleset, state.matta_value)


@given(rulesets, players, seeds, randoms)
def test_a_discard_only_where_the_rules_allow_it(ruleset: Ruleset, table: int, seed: Seed,
                                                 rng: random.Random) -> None:
    """"Se il giocatore può fare almeno un tipo di presa è costretto a prendere e non può quindi
    scartare la carta" (C16: the card under presa_obbligata=carta, any card under =mano)."""
    played = _played(ruleset, table, seed, rng)
    for state, event in _before(played):
        if not isinstance(event, CardPlayed) or event.capture:
            continue
        hand = state.hands[event.seat]
        can_take = {c for c in hand
                    if reference_captures(c, state.table, ruleset, state.matta_value)}
        if ruleset.presa_obbligata is PresaObbligata.CARTA:
            assert event.card not in can_take
        else:
            assert not can_take


@given(rulesets, players, seeds, randoms)
def test_each_smazzata_total_is_the_sum_of_its_breakdown(ruleset: Ruleset, table: int,
                                                         seed: Seed, rng: random.Random) -> None:
    """000 "Punteggi": the points of each side are the sum of its categories, and the record's
    SmazzataEnded carries the score of the final piles."""
    played = _played(ruleset, table, seed, rng)
    ended = played.events[-1]
    assert isinstance(ended, SmazzataEnded)
    assert ended.scores == (sum(r[1] for r in ended.breakdown), sum(r[2] for r in ended.breakdown))
    final = smazzata_score(played.final)
    assert ended.breakdown == final.rows and ended.scores == final.totals
    assert len(played.final.captured[0]) + len(played.final.captured[1]) + len(
        played.final.table) == 40


@given(rulesets, players, seeds, randoms)
def test_replaying_the_events_gives_the_live_state(ruleset: Ruleset, table: int, seed: Seed,
                                                   rng: random.Random) -> None:
    """A record replays as a fold: the events through `evolve` from the initial state give the
    state of live play; the fast path `play_events` gives the same CardPlayed events."""
    played = _played(ruleset, table, seed, rng)
    start = empty_state(ruleset, Seating(table, ruleset.direction))
    assert replay(ENGINE, start, played.events) == played.final
    for state, event in _before(played):
        if isinstance(event, CardPlayed):
            again, after = play_events(state, (event.card, event.capture))
            assert again == event
            following = follow_up(after)
            assert following is None or following in played.events


@given(rulesets, players, seeds, st.integers(0, 3), st.integers(0, 50))
def test_the_same_seed_gives_the_same_deal_byte_for_byte(ruleset: Ruleset, table: int,
                                                        seed: Seed, dealer: int,
                                                        number: int) -> None:
    """Chance is an actor: the deal is a function of the seed. The same seed gives identical
    SmazzataDealt events (pickled byte for byte), each re-derived from its shuffle attempt."""
    seating = Seating(table, ruleset.direction)
    dealer %= table
    first = deal_events(ruleset, seating, dealer, number, seed)
    second = deal_events(ruleset, seating, dealer, number, seed)
    assert pickle.dumps(first) == pickle.dumps(second)
    for deal in first:
        if isinstance(deal, SmazzataDealt):
            assert (deal.hands, deal.table, deal.stock) == distribute(
                shuffled_deck(seed, deal.attempt), ruleset, seating, dealer)


@given(rulesets, players, seeds, randoms)
def test_scopa_is_taking_the_whole_table_but_at_the_last_play(ruleset: Ruleset, table: int,
                                                              seed: Seed,
                                                              rng: random.Random) -> None:
    """"Se un giocatore prende tutte le carte in tavola (anche giocando un asso) "fa scopa" ad
    eccezione che ciò avvenga nell'ultima giocata dell'ultima mano di una smazzata"."""
    played = _played(ruleset, table, seed, rng)
    scope = [0, 0]
    for state, event in _before(played):
        if isinstance(event, CardPlayed):
            whole = bool(event.capture) and set(event.capture) == set(state.table)
            assert event.scopa == (whole and state.plays < PLAYS_PER_SMAZZATA - 1)
            scope[state.seating.side_of(event.seat)] += event.scopa
            assert event.seat == state.to_move
    assert played.final.scope == (scope[0], scope[1])


@given(rulesets, players, seeds, randoms)
def test_decide_accepts_exactly_the_plays_of_the_brute_force(ruleset: Ruleset, table: int,
                                                             seed: Seed,
                                                             rng: random.Random) -> None:
    """"Ogni giocatore di mano deve giocare una carta tenendo presente che: a) ... d) ..." and
    C16: at every step of a smazzata, `decide` accepts a card of the hand with a capture (in
    any order) exactly when the brute force of the text (domain/cirulla/reference.py) lists it,
    among every capture any card of the hand may make and the discard of each card."""
    played = _played(ruleset, table, seed, rng)
    for state in played.deciding:
        hand = state.hands[state.to_move]
        allowed = reference_legal_plays(state.table, hand, ruleset, state.matta_value)
        tried = {(card, ()) for card in hand} | {(card, capture) for _, capture in allowed
                                                  for card in hand}
        for card, capture in tried:
            command = PlayCard(state.to_move, card, tuple(reversed(capture)),
                               state.matta_value if card is MATTA else None)
            try:
                events = ENGINE.decide(state, command)
            except RuleViolation:
                assert (card, capture) not in allowed
            else:
                assert (card, capture) in allowed
                assert events[0] == CardPlayed(seat=state.to_move, card=card, capture=capture,
                                               matta_value=command.matta_value,
                                               scopa=events[0].scopa)
