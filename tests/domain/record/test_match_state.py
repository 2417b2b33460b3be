"""The match state's two parts (domain/record/match.py): a play replaces only the per-play fields
(the game, the version, the clock) and keeps the steady part, the same object; the steady fields
read through the state as before, and `with_changes` changes either part by name.

Checked over whole demo matches folded event by event: every play event that does not end a
smazzata keeps the `Steady` it found, every other event may replace it, and the state always
reads as its parts say.
"""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from domain.demo.matches import demo_set, play_demo
from domain.events import PlayEvent, SmazzataEnded
from domain.record.catalog import CATALOG
from domain.record.match import MatchState, Steady, evolve, initial, with_changes
from domain.shuffle import Seed

START = datetime(2026, 12, 2, 6, 0, tzinfo=UTC)
DEMOS = demo_set(Seed(b"\x24" * 16), 12)
STEADY = tuple(f for f in Steady.__struct_fields__ if f != "cuts_short")   # read by the record
PER_PLAY = tuple(f for f in MatchState.__struct_fields__ if f != "steady")


def reads_as_its_parts(state: MatchState) -> None:
    for name in STEADY:
        if name != "transcribed":   # read as the provenance's
            assert getattr(state, name) is getattr(state.steady, name), name
    assert state.transcribed is state.steady.transcribed is state.provenance.transcribed


@given(st.sampled_from(range(len(DEMOS))))
def test_a_play_keeps_the_steady_part(index: int) -> None:
    recorded, last = play_demo(DEMOS[index], START)
    state = initial(CATALOG)
    kept = 0
    for event, at in recorded:
        after = evolve(state, event, at)
        reads_as_its_parts(after)
        if isinstance(event, PlayEvent.__args__) and not isinstance(event, SmazzataEnded) \
                and state.created is not None:
            assert after.steady is state.steady, type(event).__name__
            kept += 1
        state = after
    assert state == last   # the fold is the one the demo's play recorded
    assert kept > len(recorded) // 2   # most events are plays


@given(st.sampled_from(range(len(DEMOS))), st.data())
def test_with_changes_changes_the_field_named_in_either_part(index: int,
                                                             data: st.DataObject) -> None:
    _, state = play_demo(DEMOS[index], START)
    name = data.draw(st.sampled_from(STEADY[1:] + PER_PLAY))   # the catalog is the match's
    other = data.draw(st.sampled_from([n for n in STEADY[1:] + PER_PLAY if n != name]))
    value = getattr(initial(CATALOG), name)   # a value of the field's type, as a new match has
    changed = with_changes(state, **{name: value})
    assert getattr(changed, name) == value
    assert getattr(changed, other) == getattr(state, other)
    assert changed.steady.cuts_short is state.steady.cuts_short
    if name in PER_PLAY:
        assert changed.steady is state.steady
