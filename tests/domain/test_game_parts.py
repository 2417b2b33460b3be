"""A Game's parts besides its match rules (domain/game.py): how it deals, its bot, the names the
registry gives the commands. Each must agree with the game's own engine, since the modules that
ask the registry for them (projections/fairness/deals.py, domain/demo, the command line) no
longer name the games."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.cirulla.ruleset import STANDARD, DealOrder
from domain.events import SmazzataDealt, SmazzataEnded
from domain.game import Game, RuleViolation
from domain.games import game_named, games, record_catalog, recorded_names
from domain.seating import Direction
from domain.shuffle import Seed, shuffled_deck

OPTIONS: dict[str, list[Mapping[str, str]]] = {
    "cirulla": [{**STANDARD.options(), "deal_order": order.value, "direction": direction.value}
                for order in DealOrder for direction in Direction],
    "briscola": [{"vinco_subito": "false"}, {"vinco_subito": "true"}],
    "scopa": [{}],
}
"""Rulesets of each game, as MatchCreated stores them (every deal order and direction)."""

SEEDS = st.binary(min_size=16, max_size=16).map(Seed)


def _dealing_games() -> list[str]:
    return [game.name for game in games() if game.dealing is not None]


def _setup(game: Game, options: Mapping[str, str], players: int) -> tuple[Any, Any]:
    ruleset = game.rules.ruleset(options)
    return ruleset, game.rules.seating(ruleset, players)


def test_the_games_that_deal_are_the_recorded_ones() -> None:
    """A stored match's deals are read back by its game's DealingParts (the fairness
    battery), so every game the record holds has them."""
    assert set(recorded_names()) <= set(_dealing_games())
    assert recorded_names() == tuple(record_catalog())
    assert set(OPTIONS) == {game.name for game in games()}


@pytest.mark.parametrize("name", _dealing_games())
@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, players=st.sampled_from((2, 4)), data=st.data())
def test_the_dealing_parts_deal_as_the_engine_does(name: str, seed: Seed, players: int,
                                                    data: st.DataObject) -> None:
    game = game_named(name)
    assert game.dealing is not None
    options = data.draw(st.sampled_from(OPTIONS[name]), label="options")
    dealer = data.draw(st.integers(0, players - 1), label="dealer")
    ruleset, seating = _setup(game, options, players)
    events = game.engine.deal(ruleset, seating, dealer, 1, seed)
    first = next(e for e in events if isinstance(e, SmazzataDealt))
    order, direction = game.dealing.order(options)
    assert direction == seating.direction.value
    dealt = game.dealing.deal(shuffled_deck(seed, 0), order, direction, seating, dealer)
    assert dealt == (first.hands, first.table, first.stock, first.briscola)


@pytest.mark.parametrize("name", _dealing_games())
@given(players=st.sampled_from((2, 4)), dealer=st.integers(0, 3), seed=SEEDS)
def test_the_stock_s_later_hands_share_it_evenly_or_not_at_all(name: str, players: int,
                                                                dealer: int,
                                                                seed: Seed) -> None:
    game = game_named(name)
    assert game.dealing is not None
    options = OPTIONS[name][0]
    _, seating = _setup(game, options, players)
    order, direction = game.dealing.order(options)
    _, _, stock, _ = game.dealing.deal(shuffled_deck(seed, 0), order, direction, seating,
                                       dealer % players)
    rounds = game.dealing.stock_hands(stock, seating, dealer % players)
    given_out = [card for hands in rounds for hand in hands for card in hand]
    assert sorted(given_out) == sorted(stock) or not rounds
    per_seat = Counter(seat for hands in rounds for seat, hand in enumerate(hands)
                       for _ in hand)
    assert len(set(per_seat.values())) <= 1


def _bots() -> list[str]:
    return [game.name for game in games() if game.bot is not None]


def _dealt(game: Game, players: int, seed: Seed) -> tuple[Any, Any]:
    """The game's engine and the state of smazzata 1 dealt from `seed`, seat 0 dealing."""
    ruleset, seating = _setup(game, OPTIONS[game.name][0], players)
    engine = game.engine
    state = engine.initial(ruleset, seating)
    for event in engine.deal(ruleset, seating, 0, 1, seed):
        state = engine.evolve(state, event)
    return engine, state


@pytest.mark.parametrize("name", _bots())
@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, players=st.sampled_from((2, 4)))
def test_a_game_s_bot_plays_a_whole_smazzata_the_rules_accept(name: str, seed: Seed,
                                                              players: int) -> None:
    game = game_named(name)
    assert game.bot is not None
    engine, state = _dealt(game, players, seed)
    moves = 0
    while not engine.is_finished(state):
        command = game.bot(state)
        try:
            events = engine.decide(state, command)
        except RuleViolation as refused:   # pragma: no cover - the failure's message
            pytest.fail(f"{name}'s bot played {command}, refused: {refused}")
        for event in events:
            state = engine.evolve(state, event)
        moves += 1
    assert moves >= 40 // players - 1


@pytest.mark.parametrize("name", _bots())
@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, players=st.sampled_from((2, 4)), choices=st.randoms(use_true_random=False))
def test_decide_folded_is_decide_then_its_events_folded(name: str, seed: Seed, players: int,
                                                        choices: Any) -> None:
    """The state `decide_folded` returns is the one the rules computed for the play: it must
    be what folding the events it returns gives (every legal command of every position of a
    smazzata, one of them played on)."""
    engine, state = _dealt(game_named(name), players, seed)
    checked = 0
    while not engine.is_finished(state):
        outcomes = []
        for command in engine.legal_commands(state):
            events, after = engine.decide_folded(state, command)
            folded = state
            for event in events:
                folded = engine.evolve(folded, event)
            assert events == engine.decide(state, command)
            assert SmazzataEnded not in map(type, events[:-1])   # the end comes last
            assert after == folded, (command, events)
            outcomes.append(after)
            checked += 1
        state = choices.choice(outcomes)
    assert checked >= 40 // players
