"""plain_plays: plain plays taken at once are what `advance` takes, play by play.

Random smazzate (every ruleset option, 2 and 4 players) are played through the engine; from a
random point, the plays that followed, some changed (another card, another capture, another
seat, a matta value written, cards nobody saw), are taken by `plain_plays` and, one at a time, by
`advance`. Every play `plain_plays` takes must be one `advance` takes with its CardPlayed as its
only event, the same CardPlayed, and the state after the last one the same; and it may stop
before a play `advance` takes that way only for a reason it names (the matta with a value,
`presa_obbligata=mano`, a matta value written, a card the hand shows only as unseen).
"""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.cards import DECK, UNKNOWN, Card
from domain.cirulla.plain_run import PlainMove, plain_plays
from domain.cirulla.ruleset import STANDARD, Accuso, PresaObbligata, Ruleset
from domain.cirulla.state import CirullaState
from domain.cirulla.transcribed import advance
from domain.events import CardPlayed
from domain.shuffle import Seed
from tests.domain.cirulla.helpers import (
    cards,
    players,
    position,
    random_smazzata,
    rulesets,
    seeds,
)

randoms = st.randoms(use_true_random=False)
MORE = settings(max_examples=settings().max_examples * 3)


def _changed(move: PlainMove, state: CirullaState, rng: random.Random) -> PlainMove:
    """The play, or another one the rules may refuse."""
    seat, card, capture, matta_value = move
    roll = rng.random()
    if roll < 0.05:
        return ((state.to_move + 1) % state.players, card, capture, matta_value)
    if roll < 0.10:
        return (seat, rng.choice(DECK), capture, matta_value)
    if roll < 0.15 and state.table:
        taken = rng.sample(state.table, rng.randint(1, len(state.table)))
        return (seat, card, tuple(sorted(taken)), matta_value)
    if roll < 0.18:
        return (seat, card, (), matta_value)
    if roll < 0.21:
        return (seat, card, capture, rng.randint(1, 10))
    if roll < 0.24:
        return (state.to_move, card, capture, matta_value)
    return move


def _unseen(state: CirullaState, rng: random.Random) -> CirullaState:
    """Some cards of the hands nobody saw, as in a transcribed deal."""
    if rng.random() < 0.5:
        return state
    hands = tuple(tuple(UNKNOWN if rng.random() < 0.3 else c for c in hand)
                  for hand in state.hands)
    return state._replace(hands=hands)


def _by_advance(state: CirullaState, moves: list[PlainMove]
                ) -> tuple[list[CardPlayed], list[CirullaState]]:
    """`advance` play by play, while it takes a play with its CardPlayed alone: the CardPlayed
    and the state after each."""
    played: list[CardPlayed] = []
    states: list[CirullaState] = []
    for written_seat, card, capture, matta_value in moves:
        seat = state.to_move if written_seat is None else written_seat
        advanced = advance(state, seat, card, capture, matta_value)
        if advanced is None or len(advanced.events) != 1:
            break
        (event,) = advanced.events
        assert isinstance(event, CardPlayed)
        played.append(event)
        states.append(advanced.after)
        state = advanced.after
    return played, states


def _why_stopped(state: CirullaState, move: PlainMove) -> bool:
    """A reason plain_plays leaves a play `advance` takes alone."""
    _, card, _, matta_value = move
    return (state.matta_value is not None or matta_value is not None
            or state.ruleset.presa_obbligata is PresaObbligata.MANO
            or card not in state.hands[state.to_move])


@MORE
@given(rulesets, players, seeds, randoms, st.integers(0, 40))
def test_plain_plays_are_advances_plays(ruleset: Ruleset, table: int, seed: Seed,
                                        rng: random.Random, start: int) -> None:
    played = random_smazzata(ruleset, table, seed, rng, dealer=rng.randrange(table))
    plays = [(before, event) for before, event in zip(
        [played.initial, *played.states[:-1]], played.events, strict=True)
        if isinstance(event, CardPlayed)]
    at = min(start, len(plays) - 1)
    if rng.random() < 0.5:   # often a hand's first play: a fresh hand's accuso comes next
        fresh = [i for i, (before, _) in enumerate(plays) if all(len(h) == 3 for h in before.hands)]
        at = fresh[start % len(fresh)]
    state = _unseen(plays[at][0], rng)
    moves: list[PlainMove] = []
    for before, event in plays[at:]:
        move = (None if rng.random() < 0.8 else event.seat, event.card, event.capture,
                event.matta_value)
        moves.append(_changed(move, before, rng))
    offset = rng.randrange(3)
    moves = [*moves[:offset], *moves]   # plays before `start` not taken
    taken, after = plain_plays(state, moves, offset)
    expected, states = _by_advance(state, moves[offset:])
    assert taken == expected[:len(taken)]
    assert after == (states[len(taken) - 1] if taken else state)
    if len(taken) < len(expected):
        assert _why_stopped(after, moves[offset + len(taken)])


def test_a_hand_of_plain_plays_is_taken_whole() -> None:
    """Not vacuous: a smazzata of the standard rules has runs of plain plays taken at once."""
    played = random_smazzata(STANDARD, 2, Seed(b"\x07" * 16), random.Random(7))
    first = next(i for i, e in enumerate(played.events) if isinstance(e, CardPlayed))
    state = played.states[first - 1] if first else played.initial
    moves: list[PlainMove] = [(None, e.card, e.capture, None) for e in played.events
                              if isinstance(e, CardPlayed)]
    taken, _ = plain_plays(state, moves, 0)
    assert len(taken) >= 2
    assert all(isinstance(c, Card) for c in (t.card for t in taken))


def test_it_stops_before_a_play_that_opens_an_automatic_accuso() -> None:
    """Seat 2's turn opens with a cirulla (A, 2, 3 of denari) under the automatic accuso: the
    play before it is `advance`'s to take (its AccusoDeclared follows), so none is taken."""
    ruleset = replace(STANDARD, accuso=Accuso.AUTOMATICO)
    state = position(["Rc Rb Rs", "Ad 2d 3d"], "Fd Fb Cs Cb", ruleset)
    moves: list[PlainMove] = [(None, cards("Rc")[0], (), None)]
    advanced = advance(state, 0, cards("Rc")[0], (), None)
    assert advanced is not None and len(advanced.events) == 2
    assert plain_plays(state, moves, 0) == ([], state)
    facoltativo = replace(ruleset, accuso=Accuso.FACOLTATIVO)
    taken, _ = plain_plays(position(["Rc Rb Rs", "Ad 2d 3d"], "Fd Fb Cs Cb", facoltativo),
                           moves, 0)
    assert len(taken) == 1
