"""`WrittenPlay` and `Pos` are frozen msgspec Structs: a play is equal (and hashes equal) whatever
its position, as the dataclasses beside it are; every other field tells plays apart; a play
changed with `msgspec.structs.replace` keeps its position."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.cards import DECK
from importers.notation.model import NOWHERE, Pos, WrittenPlay

positions = st.builds(Pos, st.integers(0, 999), st.integers(0, 999))
plays = st.builds(WrittenPlay, st.sampled_from(DECK), st.none() | st.integers(0, 3),
                  st.lists(st.sampled_from(DECK), max_size=3).map(tuple),
                  st.none() | st.integers(1, 10), st.booleans(),
                  st.none() | st.sampled_from(["fuori-turno", "presa-mancata"]), positions)


@given(plays, positions)
def test_a_play_is_equal_whatever_its_position(play: WrittenPlay, pos: Pos) -> None:
    moved = msgspec.structs.replace(play, pos=pos)
    assert moved == play and hash(moved) == hash(play) and moved.pos == pos


@given(plays, plays)
def test_plays_differing_in_what_was_written_are_not_equal(one: WrittenPlay,
                                                           two: WrittenPlay) -> None:
    written = [(p.card, p.seat, p.capture, p.matta_value, p.scopa, p.irregular)
               for p in (one, two)]
    assert (one == two) is (written[0] == written[1])


def test_a_play_is_frozen_and_not_equal_to_other_types() -> None:
    play = WrittenPlay(DECK[0])
    assert play.pos is NOWHERE and play != (DECK[0],) and play != NOWHERE
    with pytest.raises(AttributeError):
        play.card = DECK[1]  # type: ignore[misc]
    assert str(Pos(3, 7)) == "3:7" and Pos(3, 7) == Pos(3, 7) != Pos(3, 8)
