"""Partial records replay to the same scores: a stored match written down with cards nobody saw
(hands and stock unknown, no seed) still imports, and the rules compute every smazzata's
breakdown and the result it had. The played, captured and shown cards, which the scores depend
on, are always named in a record (docs/events.md section 2)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from domain.cards import UNKNOWN, Card
from domain.events import SmazzataEnded
from domain.record.events import MatchEnded
from importers.notation.from_events import written_from_events
from importers.notation.model import Move, WrittenIncident, WrittenLayout, WrittenMatch
from importers.notation.replay import validate
from importers.notation.writer import write
from tests.importers.notation.match_strategies import StoredEvent, stored_matches
from tests.importers.notation.test_round_trip import read_back


def _unseen(draw: st.DrawFn, cards: tuple[Card, ...]) -> tuple[Card, ...]:
    return tuple(UNKNOWN if draw(st.booleans()) else card for card in cards)


@st.composite
def unseen_cards(draw: st.DrawFn, match: WrittenMatch) -> WrittenMatch:
    """The record with no seed, no stock, and each hand's cards unknown at random (a hand may
    be left out whole)."""
    smazzate = []
    for smazzata in match.smazzate:
        attempts = []
        for layout in smazzata.attempts:
            hands = None if layout.hands is None or draw(st.booleans()) else tuple(
                None if hand is None or draw(st.booleans()) else _unseen(draw, hand)
                for hand in layout.hands)
            attempts.append(WrittenLayout(layout.table, layout.briscola, hands, None))
        smazzate.append(replace(smazzata, seed=None, attempts=tuple(attempts),
                                moves=tuple(_unseeded(m) for m in smazzata.moves)))
    return replace(match, smazzate=tuple(smazzate),
                   after=tuple(_unseeded(m) for m in match.after))


def _unseeded(move: Move) -> Move:
    """A ruling that referred to a seed's event refers to nothing once the seeds are gone."""
    if isinstance(move, WrittenIncident) and move.refers is not None and move.refers[0] in (
            "SeedCommitted", "SeedRevealed"):
        return replace(move, refers=None)
    return move


@given(stored_matches(), st.data())
def test_a_partial_record_replays_to_the_same_scores(events: tuple[StoredEvent, ...],
                                                     data: st.DataObject) -> None:
    partial = data.draw(unseen_cards(written_from_events(events)))
    (record,) = read_back(write(partial))
    validation = validate(record, "partial round trip")
    assert validation.actions is not None, validation.report.as_text_lines()
    assert not validation.report.of("error")
    computed = {s.number - 1: tuple((r.category, *r.computed) for r in s.rows
                                    if r.computed is not None)
                for s in validation.report.smazzate if s.ended}
    ended = {e.number: e.breakdown for e in events if isinstance(e, SmazzataEnded)}
    assert computed == ended
    results = [e for e in events if isinstance(e, MatchEnded)]
    if results:
        assert validation.report.result_computed == results[-1].scores
