"""Each play of a replayed record is decided and folded at once (`decide_folded`: the game's
step gives the states its events lead to, and the match state is built once); the state it gives
is the one `evolve` folds from the same events one by one, and a refusal is the same refusal.

Over random recorded matches written in the notation (both games, 2 and 4 players, incidents,
rulings, cappotto cut short), their partial records (cards nobody saw, no seed), and plays
changed at random into ones the rules may refuse: every action the replay hands to the store,
and each changed play, is decided both ways.
"""

from __future__ import annotations

from datetime import datetime

from hypothesis import given
from hypothesis import strategies as st

from domain.cards import DECK
from domain.game import PlayCard
from domain.record.catalog import CATALOG
from domain.record.commands import MatchCommand
from domain.record.decide import Decided, decide_checked, decide_folded
from domain.record.match import MatchState, evolve, initial
from importers.notation import replay
from importers.notation.from_events import StoredEvent, written_from_events
from tests.importers.notation.match_strategies import stored_matches
from tests.importers.notation.test_round_trip_partial import unseen_cards
from tests.replacing import replace


def by_hand(state: MatchState, command: MatchCommand,
            at: datetime) -> tuple[Decided, MatchState] | str:
    try:
        decided = decide_checked(state, command, at)
    except ValueError as error:
        return f"{type(error).__name__}: {error}"
    for event in decided.events:
        state = evolve(state, event, at)
    return decided, state


def at_once(state: MatchState, command: MatchCommand,
            at: datetime) -> tuple[Decided, MatchState] | str:
    try:
        return decide_folded(state, command, at)
    except ValueError as error:
        return f"{type(error).__name__}: {error}"


@given(stored_matches(), st.data())
def test_every_play_folds_as_its_events_one_by_one(events: tuple[StoredEvent, ...],
                                                    data: st.DataObject) -> None:
    match = written_from_events(events)
    if data.draw(st.booleans()):
        match = data.draw(unseen_cards(match))
    replayed = replay._Replay(match, "folds")
    replayed.run()
    actions = replayed.validation(1).actions
    assert actions is not None   # a recorded match reads back accepted
    state = initial(CATALOG)
    for command, at, _ in actions:
        if type(command) is PlayCard and data.draw(st.integers(0, 9)) == 0:
            changed = data.draw(st.sampled_from([
                replace(command, seat=data.draw(st.integers(0, 3))),
                replace(command, card=data.draw(st.sampled_from(DECK))),
                replace(command, capture=tuple(sorted(data.draw(st.lists(
                    st.sampled_from(DECK), max_size=3, unique=True)))))]))
            assert at_once(state, changed, at) == by_hand(state, changed, at)
        expected = by_hand(state, command, at)
        assert not isinstance(expected, str), expected
        assert at_once(state, command, at) == expected
        state = expected[1]
    assert state == replayed.state   # the whole record, folded the same
