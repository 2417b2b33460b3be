"""The timeline (domain/record/timeline.py): the states of a match by version, folded once.

Over random live matches (tests/domain/record/live.py): the state at every version is the fold
of the events up to it, every view shows exactly the hands the visibility rules allow and no
hidden card, and the legal commands are what the record's `decide` accepts."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from functools import reduce

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.briscola.state import BriscolaState
from domain.cards import Card
from domain.cirulla.state import CirullaState
from domain.demo.matches import demo_set, play_demo
from domain.events import CardPlayed, SmazzataDealt, TrickTaken
from domain.game import PlayCard, RuleViolation
from domain.record.catalog import CATALOG
from domain.record.decide import decide
from domain.record.match import MatchState, Phase, evolve, initial
from domain.record.timeline import Timeline, table_options, timeline
from domain.seating import SeatingError
from domain.shuffle import Seed
from domain.viewing import (
    ARBITER,
    PUBLIC,
    Observation,
    ObservationError,
    Viewer,
    Visibility,
)
from tests.domain.record.live import START, LiveMatch, Recorded, live_matches

visibilities = st.builds(Visibility, carte_viste=st.booleans(), carte_scoperte=st.booleans())
FEW = settings(max_examples=max(10, settings().max_examples // 2))


def fold(recorded: Recorded) -> MatchState:
    """The match after `recorded`, folded from nothing (what the timeline must have kept)."""
    return reduce(lambda state, item: evolve(state, *item), recorded, initial(CATALOG))


def viewers(state: MatchState) -> tuple[Viewer, ...]:
    assert state.seating is not None
    return (*state.seating.seats, PUBLIC, ARBITER)


def cards_in(value: object) -> Iterator[Card]:
    """Every card anywhere in an observation: its fields, tuples and the events it holds."""
    if isinstance(value, Card):
        yield value
    elif isinstance(value, tuple):
        for item in value:
            yield from cards_in(item)
    elif dataclasses.is_dataclass(value):
        for field in dataclasses.fields(value):
            yield from cards_in(getattr(value, field.name))
    elif isinstance(value, msgspec.Struct):   # an event
        for name in value.__struct_fields__:
            yield from cards_in(getattr(value, name))


def game_of(state: MatchState) -> CirullaState | BriscolaState:
    game = state.game
    assert isinstance(game, CirullaState | BriscolaState)
    return game


def allowed(state: MatchState, viewer: Viewer, visibility: Visibility) -> set[int]:
    """The seats whose hand `viewer` may see, read from the rules notes ("Visibility"), not
    from the code under test."""
    game, seating = game_of(state), state.seating
    assert seating is not None
    everyone = set(seating.seats)
    face_up = (visibility.carte_viste and seating.players == 2 and not game.stock
               and not state.engine.is_finished(game))
    if viewer is ARBITER or face_up:
        return everyone
    if viewer is PUBLIC:
        return set()
    assert isinstance(viewer, int)
    partner = {(viewer + 2) % 4} if visibility.carte_scoperte and seating.players == 4 else set()
    return {viewer} | partner


def check_view(state: MatchState, obs: Observation, viewer: Viewer,
               visibility: Visibility) -> None:
    if state.game is None or not obs.dealt:
        assert all(not h for h in obs.hands) and obs.stock == (() if viewer is ARBITER else None)
        assert set(cards_in(obs)) == set()
        return
    game = game_of(state)
    seats = allowed(state, viewer, visibility)
    hands = game.hands
    assert obs.hands == tuple(h if s in seats else None for s, h in enumerate(hands))
    assert obs.stock == (game.stock if viewer is ARBITER else None)
    assert obs.stock_size == len(game.stock) and obs.hand_sizes == tuple(map(len, hands))
    for seat, shown in enumerate(obs.shown):
        assert set(shown) <= set(hands[seat])
    hidden = set() if viewer is ARBITER else {c for c in game.stock if c is not obs.briscola}
    for seat, hand in enumerate(hands):
        if seat not in seats:
            hidden |= set(hand) - set(obs.shown[seat])
    assert not hidden & set(cards_in(obs)), f"{viewer} sees hidden cards"


@given(live_matches())
@FEW
def test_the_state_at_every_version_is_the_fold_up_to_that_version(match: LiveMatch) -> None:
    line = timeline(CATALOG, match.recorded)
    assert len(line) == len(match.recorded) + 1 and line.last == len(match.recorded)
    for version in range(len(line)):
        assert line.state(version) == fold(match.recorded[:version])
    for version, live in match.live:
        assert line.state(version) == live


def mani_over(match: LiveMatch, version: int, plays: tuple[CardPlayed, ...]) -> int:
    """How many of the smazzata's plays up to `version` belong to mani that are over: in
    Briscola the tricks taken (a complete trick stays on the table until its TrickTaken),
    in Cirulla each mano is one play by every seat."""
    if match.game != "briscola":
        return len(plays) - len(plays) % match.players
    events = [event for event, _ in match.recorded[:version]]
    deal = max(i for i, e in enumerate(events) if isinstance(e, SmazzataDealt))
    return match.players * sum(isinstance(e, TrickTaken) for e in events[deal:])


@given(live_matches(), visibilities)
@FEW
def test_observe_shows_exactly_the_hands_the_rules_allow_and_no_hidden_card(
        match: LiveMatch, visibility: Visibility) -> None:
    line = timeline(CATALOG, match.recorded)
    for version in range(1, len(line)):
        state = line.state(version)
        plays = line.smazzata_plays(version)
        for viewer in viewers(state):
            obs = line.observe(version, viewer, visibility)
            check_view(state, obs, viewer, visibility)
            own = line.observe(version, viewer)  # the options the match was created with
            check_view(state, own, viewer, table_options(state))
            if obs.dealt:
                done = mani_over(match, version, plays)
                assert obs.mano == plays[done:]
                assert obs.seen == (plays[:done] if visibility.carte_viste else ())


@given(live_matches())
@FEW
def test_the_legal_commands_are_the_moves_decide_accepts(match: LiveMatch) -> None:
    """At each point where the table decides (after every action): a seat to move has commands,
    each of them its own and accepted by the record's `decide`; nobody to move, none."""
    line = timeline(CATALOG, match.recorded)
    for version, _ in match.live:
        state = line.state(version)
        commands = line.legal_commands(version)
        to_move = state.to_move() if state.forfeit is None else None
        assert bool(commands) == (to_move is not None)
        for command in commands:
            assert command.seat == to_move
            assert state.last_at is not None
            decide(state, command, state.last_at)


@given(live_matches())
@FEW
def test_the_plays_of_a_version_are_its_smazzata_s_so_far(match: LiveMatch) -> None:
    line = timeline(CATALOG, match.recorded)
    events = [event for event, _ in match.recorded]
    for version in range(1, len(line)):
        plays = line.smazzata_plays(version)
        if line.state(version).game is None:
            assert plays == ()
            continue
        # Back to the deal of the smazzata in play: every CardPlayed since, in order.
        deal = max(i for i, e in enumerate(events[:version]) if isinstance(e, SmazzataDealt))
        assert plays == tuple(e for e in events[deal:version] if isinstance(e, CardPlayed))


# ---- examples -----------------------------------------------------------------------------------

def demo_timeline(index: int = 0) -> Timeline:
    demo = demo_set(Seed(b"\x7e" * 16))[index]
    return timeline(CATALOG, play_demo(demo, START)[0])


def test_before_creation_there_is_nothing_to_see_and_versions_are_checked() -> None:
    line = demo_timeline()
    with pytest.raises(ObservationError, match="version 0: the match has not been created"):
        line.observe(0, PUBLIC)
    assert line.legal_commands(0) == ()
    for bad in (-1, len(line)):
        with pytest.raises(IndexError, match=f"version {bad} is not in this timeline"):
            line.state(bad)
    with pytest.raises(SeatingError, match="seat 7"):
        line.observe(1, 7)


def test_between_smazzate_the_view_has_no_cards_out() -> None:
    line = demo_timeline()
    waiting = [v for v in range(1, len(line)) if line.state(v).phase is Phase.COMMIT]
    assert waiting
    for version in waiting:
        state = line.state(version)
        obs = line.observe(version, 0)
        assert not obs.dealt and obs.number == state.smazzata and obs.dealer == state.dealer
        assert obs.hands[0] == () and all(h is None for h in obs.hands[1:])
        assert line.observe(version, ARBITER).stock == ()


def test_a_timeline_is_immutable() -> None:
    line = demo_timeline()
    with pytest.raises(dataclasses.FrozenInstanceError):
        line.states = ()  # type: ignore[misc]
    assert isinstance(line.states, tuple) and isinstance(line.plays, tuple)


def test_a_refused_command_stays_refused_at_its_version() -> None:
    """legal_commands is what decide accepts, and nothing else: a card from another hand is not
    offered and decide refuses it at that version too."""
    line = demo_timeline(1)
    version = next(v for v in range(len(line)) if line.legal_commands(v))
    state = line.state(version)
    seat = state.to_move()
    assert seat is not None and state.seating is not None
    other = game_of(state).hands[state.seating.next_seat(seat)][0]
    offered = {c.card for c in line.legal_commands(version) if isinstance(c, PlayCard)}
    assert other not in offered and state.last_at is not None
    with pytest.raises(RuleViolation):
        decide(state, PlayCard(seat, other), state.last_at)
