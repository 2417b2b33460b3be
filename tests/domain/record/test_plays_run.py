"""decide_plays: a run of plays decided and folded at once reads as the plays decided one by one.

The demo transcript (domain/demo/transcribed.py: 20 cards nobody saw, a play out of turn,
a missed capture) is replayed twice: each command alone through decide_checked and evolve, and
with every stretch of PlayCards offered to decide_plays first. The events, their moments and the
final state must be the same; plays the run leaves are decided alone. The importer's own
comparison over random records is tests/importers/notation/test_replay_runs.py.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone, tzinfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.cards import DECK, Card
from domain.demo.transcribed import transcribe
from domain.game import PlayCard
from domain.record.catalog import CATALOG
from domain.record.commands import MatchCommand
from domain.record.decide import decide_checked
from domain.record.match import MatchEvent, MatchState, evolve, initial
from domain.record.plays_run import decide_plays

Recorded = list[tuple[MatchEvent, datetime]]
ONE_SECOND = timedelta(seconds=1)


def one_by_one(commands: list[tuple[MatchCommand, datetime]],
               state: MatchState | None = None) -> tuple[MatchState, Recorded]:
    """Each command decided alone; a refused one records nothing, as the store would do."""
    state = initial(CATALOG) if state is None else state
    recorded: Recorded = []
    for command, at in commands:
        try:
            events = decide_checked(state, command, at).events
        except ValueError:
            continue
        for event in events:
            state = evolve(state, event, at)
            recorded.append((event, at))
    return state, recorded


def evenly(stretch: list[tuple[PlayCard, datetime]]) -> list[tuple[PlayCard, datetime]]:
    """The longest start of a stretch whose moments are evenly spaced, as decide_plays takes
    them (the first moment and the step)."""
    if len(stretch) < 2:
        return stretch
    step = stretch[1][1] - stretch[0][1]
    kept = 2
    while kept < len(stretch) and stretch[kept][1] - stretch[kept - 1][1] == step:
        kept += 1
    return stretch[:kept]


def in_runs(commands: list[tuple[MatchCommand, datetime]]) -> tuple[MatchState, Recorded, int]:
    """Each stretch of evenly spaced plays offered to decide_plays; what it leaves decided
    alone."""
    recorded: Recorded = []
    state, taken, index = initial(CATALOG), 0, 0
    while index < len(commands):
        stretch: list[tuple[PlayCard, datetime]] = []
        for command, at in commands[index:]:
            if type(command) is not PlayCard:
                break
            stretch.append((command, at))
        stretch = evenly(stretch)
        if stretch:
            step = stretch[1][1] - stretch[0][1] if len(stretch) > 1 else timedelta(seconds=1)
            run = decide_plays(state, [(c.seat, c.card, c.capture, c.matta_value)
                                       for c, _ in stretch], stretch[0][1], step)
            for (_, events), (_, at) in zip(run.taken, stretch, strict=False):
                recorded.extend((event, at) for event in events)
            state, taken, index = run.state, taken + len(run.taken), index + len(run.taken)
        if index < len(commands):
            state, alone = one_by_one([commands[index]], state)
            recorded.extend(alone)
            index += 1
    return state, recorded, taken


@pytest.fixture(scope="module")
def demo_commands() -> list[tuple[MatchCommand, datetime]]:
    return list(transcribe().commands)


def test_the_demo_transcript_reads_the_same_in_runs(
        demo_commands: list[tuple[MatchCommand, datetime]]) -> None:
    state, recorded = one_by_one(demo_commands)
    fast, fast_recorded, taken = in_runs(demo_commands)
    assert fast_recorded == recorded
    assert fast == state
    plays = sum(type(c) is PlayCard for c, _ in demo_commands)
    assert taken >= plays // 2, (taken, plays)   # the run does take plays, not only leave them


@given(st.data())
def test_changed_plays_are_refused_or_taken_alike(
        demo_commands: list[tuple[MatchCommand, datetime]], data: st.DataObject) -> None:
    commands = list(demo_commands)
    plays = [i for i, (c, _) in enumerate(commands) if type(c) is PlayCard]
    for index in data.draw(st.lists(st.sampled_from(plays), max_size=4)):
        command, at = commands[index]
        assert isinstance(command, PlayCard)
        card: Card = data.draw(st.sampled_from(DECK))
        capture = tuple(sorted(data.draw(st.lists(st.sampled_from(DECK), max_size=2,
                                                   unique=True))))
        seat = data.draw(st.integers(0, 1))
        commands[index] = (data.draw(st.sampled_from([
            PlayCard(seat, command.card, command.capture, command.matta_value),
            PlayCard(command.seat, card, command.capture, command.matta_value),
            PlayCard(command.seat, command.card, capture, command.matta_value)])), at)
    state, recorded = one_by_one(commands)
    fast, fast_recorded, _ = in_runs(commands)
    assert fast_recorded == recorded
    assert fast == state


@given(st.timedeltas(min_value=timedelta(0), max_value=timedelta(seconds=90)),
       st.timedeltas(min_value=timedelta(0), max_value=timedelta(minutes=5)),
       st.sampled_from([UTC, timezone(timedelta(hours=1)), timezone(timedelta(hours=-7))]))
def test_the_clock_in_whole_milliseconds_reads_the_same(
        demo_commands: list[tuple[MatchCommand, datetime]], step: timedelta, pause: timedelta,
        zone: tzinfo) -> None:
    """decide_plays keeps the clock in milliseconds inside a run: over any step (microseconds
    included, zero too), a pause before the first play and a zone other than UTC, the thinking
    time and the last moments read as evolve gives them play by play."""
    commands, at = [], demo_commands[0][1]
    for index, (command, _) in enumerate(demo_commands):
        at = at + (pause if index == 2 else step if type(command) is PlayCard else ONE_SECOND)
        commands.append((command, at.astimezone(zone)))
    state, recorded = one_by_one(commands)
    fast, fast_recorded, taken = in_runs(commands)
    assert fast_recorded == recorded
    assert fast == state
    assert taken > 0
