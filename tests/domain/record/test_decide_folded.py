"""decide_folded: the events `decide_checked` gives, and the state they fold into, as `evolve`
folds them one by one (the end of a smazzata is folded once while its outcome is completed).

Checked at every action of whole matches: the bots' live matches of the demo set (seeds, deals,
timeouts, abandons, rulings, the end of every smazzata and of the match) and the demo transcript
(unseen cards, irregular plays), with plays changed at random into ones the rules may refuse:
then both refuse alike.
"""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from domain.cards import DECK
from domain.demo.matches import BOTS, demo_set, play_demo
from domain.demo.transcribed import transcribe
from domain.game import PlayCard
from domain.record.catalog import CATALOG
from domain.record.commands import MatchCommand
from domain.record.decide import Decided, decide_checked, decide_folded
from domain.record.match import MatchState, evolve, initial
from domain.record.simulate import Table, next_command
from domain.shuffle import Seed

START = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)
DEMOS = demo_set(Seed(b"\x29" * 16), 24)


def folded_by_hand(state: MatchState, command: MatchCommand,
                   at: datetime) -> tuple[Decided, MatchState] | str:
    try:
        decided = decide_checked(state, command, at)
    except ValueError as error:
        return f"{type(error).__name__}: {error}"
    for event in decided.events:
        state = evolve(state, event, at)
    return decided, state


def folded_at_once(state: MatchState, command: MatchCommand,
                   at: datetime) -> tuple[Decided, MatchState] | str:
    try:
        return decide_folded(state, command, at)
    except ValueError as error:
        return f"{type(error).__name__}: {error}"


def same_step(state: MatchState, command: MatchCommand, at: datetime) -> MatchState:
    """Both ways agree on `command`; the state after it (unchanged when refused)."""
    by_hand = folded_by_hand(state, command, at)
    assert folded_at_once(state, command, at) == by_hand
    return state if isinstance(by_hand, str) else by_hand[1]


@given(st.sampled_from(range(len(DEMOS))))
def test_a_live_match_folds_the_same(index: int) -> None:
    demo = DEMOS[index]
    table = Table(demo.match_seed, BOTS[demo.setup.game], demo.incidents)
    state = same_step(initial(CATALOG), demo.setup, START)
    at = START
    while (step := next_command(state, table, at)) is not None:
        command, at, table = step
        state = same_step(state, command, at)
    assert state.result is not None   # the match was checked to its end


def test_the_demo_set_ends_smazzate() -> None:
    """What makes the comparison above worth making: the matches end smazzate (whose end
    decide_folded folds once) and matches, not only plays."""
    assert sum(bool(play_demo(demo, START)[1].ended) for demo in DEMOS) >= len(DEMOS) // 2


@given(st.data())
def test_the_transcript_folds_the_same_with_changed_plays(data: st.DataObject) -> None:
    commands = list(transcribe().commands)
    plays = [i for i, (c, _) in enumerate(commands) if type(c) is PlayCard]
    for index in data.draw(st.lists(st.sampled_from(plays), max_size=3)):
        command, at = commands[index]
        assert isinstance(command, PlayCard)
        commands[index] = (data.draw(st.sampled_from([
            PlayCard(1 - command.seat, command.card, command.capture, command.matta_value),
            PlayCard(command.seat, data.draw(st.sampled_from(DECK)), command.capture,
                     command.matta_value)])), at)
    state = initial(CATALOG)
    for command, at in commands:
        state = same_step(state, command, at)   # asserts both ways agree, refusals included


def test_the_transcript_ends_its_smazzata() -> None:
    state = initial(CATALOG)
    for command, at in transcribe().commands:
        state = same_step(state, command, at)
    assert state.ended
