"""DealRecord: the deck as dealt, rebuilt from the events, checked against the shuffle itself."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.briscola.engine import deal_event
from domain.cards import UNKNOWN_INDEX
from domain.cirulla.dealing import distribute
from domain.cirulla.ruleset import STANDARD, TAVERNA, Ruleset
from domain.demo.matches import demo_set, play_demo
from domain.demo.transcribed import transcribe
from domain.events import SmazzataDealt, SmazzataEnded
from domain.record.events import MatchSeedRevealed, SeedRevealed
from domain.seating import Seating
from domain.shuffle import Seed, shuffled_deck, shuffled_indices
from projections.fairness.deals import (
    BRISCOLA,
    STOCK,
    TABLE,
    DealLayout,
    DealRecord,
    DealRecordError,
    deal_records,
    deck_of,
)

SEEDS = st.binary(min_size=16, max_size=16).map(Seed)
CIRULLA_LAYOUTS = [(ruleset, players) for ruleset in (STANDARD, TAVERNA) for players in (2, 4)]


def cirulla_layout(ruleset: Ruleset, players: int) -> DealLayout:
    return DealLayout("cirulla", players, ruleset.deal_order.value, ruleset.direction.value)


@given(SEEDS, st.sampled_from(CIRULLA_LAYOUTS), st.integers(0, 3), st.integers(0, 3))
def test_a_cirulla_deck_is_rebuilt_from_its_deal(seed: Seed, layout: tuple[Ruleset, int],
                                                 dealer: int, attempt: int) -> None:
    ruleset, players = layout
    dealer %= players
    hands, table, stock = distribute(shuffled_deck(seed, attempt), ruleset,
                                     Seating(players, ruleset.direction), dealer)
    dealt = SmazzataDealt(3, dealer, attempt, "c", hands, table, stock)
    shape = cirulla_layout(ruleset, players)
    deck = deck_of(dealt, shape)
    assert tuple(deck) == shuffled_indices(seed, attempt)
    again = DealRecord("m", 3, attempt, shape, dealer, deck).dealt()
    assert (again.hands, again.table, again.stock) == (hands, table, stock)


@given(SEEDS, st.sampled_from([2, 4]), st.integers(0, 3))
def test_a_briscola_deck_is_rebuilt_from_its_deal(seed: Seed, players: int, dealer: int) -> None:
    dealer %= players
    dealt = deal_event(Seating(players), dealer, 0, seed)
    shape = DealLayout("briscola", players, "briscola")
    assert tuple(deck_of(dealt, shape)) == shuffled_indices(seed, 0)
    assert DealRecord("m", 0, 0, shape, dealer, deck_of(dealt, shape)).dealt() == \
        SmazzataDealt(0, dealer, 0, None, dealt.hands, (), dealt.stock, dealt.briscola)


@pytest.mark.parametrize(("ruleset", "players"), CIRULLA_LAYOUTS)
def test_every_cirulla_card_goes_to_a_seat_but_the_table(ruleset: Ruleset, players: int) -> None:
    shape = cirulla_layout(ruleset, players)
    for dealer in range(players):
        received = Counter(shape.receivers(dealer))
        assert received == {TABLE: 4, **{s: 36 // players for s in range(players)}}
        roles = shape.roles(dealer)
        first = Seating(players, ruleset.direction).rounds[dealer][0]
        assert [r for r, s in zip(roles, shape.receivers(dealer), strict=True) if s == first] \
            == [0] * (36 // players)


def test_briscola_receivers_are_hands_the_card_and_the_stock() -> None:
    shape = DealLayout("briscola", 4, "briscola")
    assert Counter(shape.receivers(2)) == {0: 3, 1: 3, 2: 3, 3: 3, BRISCOLA: 1, STOCK: 27}
    assert shape.roles(2)[:4] == (0, 1, 2, 3)
    assert shape.receivers(2)[:4] == (3, 0, 1, 2)


def test_a_deal_that_does_not_fit_its_layout_is_refused() -> None:
    dealt = deal_event(Seating(2), 0, 0, Seed(bytes(16)))
    with pytest.raises(DealRecordError):
        deck_of(dealt, DealLayout("briscola", 4, "briscola"))
    with pytest.raises(DealRecordError):
        DealRecord("m", 0, 0, DealLayout("briscola", 2, "briscola"), 0, bytes(39))


def _seed_of(events: list[tuple[object, datetime]], number: int) -> Seed:
    return Seed.from_hex(next(e.seed for e, _ in events
                              if isinstance(e, SeedRevealed) and e.smazzata == number))


@pytest.mark.parametrize("index", range(0, 34, 5))
def test_records_of_a_simulated_match_are_its_shuffles(index: int) -> None:
    demo = demo_set(Seed(bytes(range(16))))[index]
    events, _ = play_demo(demo, datetime(2026, 3, 1, tzinfo=UTC))
    records = list(deal_records("match-1", events))
    dealt = [e for e, _ in events if isinstance(e, SmazzataDealt)]
    assert len(records) == len(dealt) > 0
    revealed = any(isinstance(e, SeedRevealed) for e, _ in events)
    match_seed = next((e.seed for e, _ in events if isinstance(e, MatchSeedRevealed)), None)
    assert revealed or match_seed is not None
    ended = {e.number: e for e, _ in events if isinstance(e, SmazzataEnded)}
    last = {e.number: e.attempt for e in dealt}
    for record, event in zip(records, dealt, strict=True):
        assert record.seed is not None and not record.transcribed and record.complete
        assert tuple(record.deck) == shuffled_indices(Seed.from_hex(record.seed), record.attempt)
        assert (record.smazzata, record.attempt, record.dealer) == \
            (event.number, event.attempt, event.dealer)
        assert record.game == demo.setup.game and record.seats == len(demo.setup.players)
        assert record.provenance == "simulated" and record.dealt_at is not None
        scores = ended[record.smazzata].scores if record.smazzata in ended else (0, 0)
        if record.attempt < last[record.smazzata] or scores[0] == scores[1]:
            assert record.winner is None     # an annulled attempt, a tie, or not ended
        else:
            assert record.winner == (0 if scores[0] > scores[1] else 1)


def test_a_transcribed_deal_is_recorded_without_seed_and_with_its_unknown_cards() -> None:
    partial = transcribe().partial
    records = list(deal_records("t-1", partial))
    assert records and all(r.transcribed and r.seed is None for r in records)
    assert records[0].provenance == "transcribed"
    assert UNKNOWN_INDEX in records[0].deck and not records[0].complete
    assert "??" in records[0].codes


def test_deal_records_need_the_match_creation() -> None:
    with pytest.raises(DealRecordError):
        list(deal_records("x", []))
