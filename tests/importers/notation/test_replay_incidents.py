"""Incidents replayed with their written seconds: the clock chosen for the record justifies them;
the whole demo set of `verbale simulate matches` (every format, timeouts, abandons, rulings)
written down and validated gives back each match's result."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from domain.cards import parse_card
from domain.demo.matches import demo_set, play_demo
from domain.events import CardPlayed
from domain.game import PlayCard
from domain.record.commands import (
    CreateMatch,
    RecordAbandon,
    RecordIrregularPlay,
    RecordRuling,
    RecordTimeout,
)
from domain.record.decide import decide
from domain.record.events import MatchEnded, RulingRecorded, ScoreClaimed, SeedRevealed
from domain.record.match import MatchEvent
from domain.shuffle import Seed
from importers.notation.from_events import written_from_events
from importers.notation.model import (
    Pos,
    WrittenClaim,
    WrittenIncident,
    WrittenMatch,
    WrittenPlay,
)
from importers.notation.reader import read
from importers.notation.replay import validate
from importers.notation.writer import write
from tests.domain.record.test_transcribed_accuso import KNOCKING, dealt_events
from tests.importers.notation.test_replay import simulated, written_from
from tests.importers.notation.test_round_trip import imported, referred, refers_written
from tests.replacing import replace

DEMOS = demo_set(Seed(bytes(range(16))))


def _cut(written: WrittenMatch, plays: int, incident: WrittenIncident) -> WrittenMatch:
    """The first smazzata's first `plays` plays, then `incident`."""
    smazzata = written.smazzate[0]
    moves = (*smazzata.moves[:plays], incident)
    return replace(written, smazzate=(replace(smazzata, moves=moves),))


def _fifth_to_play(events: list[MatchEvent]) -> int:
    return [e for e in events if isinstance(e, CardPlayed)][4].seat


def test_a_timeout_with_its_seconds_ends_the_match() -> None:
    events = simulated("cirulla", "1smazzata", 2)
    written = written_from(events)
    timeout = WrittenIncident("timeout", seat=_fifth_to_play(events), elapsed_ms=75_500,
                              pos=Pos(50, 1))
    validation = validate(_cut(written, 4, timeout), "test")
    assert validation.report.of("error") == ()
    assert validation.actions is not None
    created = validation.actions[0][0]
    assert isinstance(created, CreateMatch) and created.time_control.per_move == 75
    (command, at, by), = [a for a in validation.actions if isinstance(a[0], RecordTimeout)]
    before = validation.actions[validation.actions.index((command, at, by)) - 1][1]
    assert at - before == timedelta(milliseconds=75_500)
    assert by.where == "sim.txt:50"
    assert validation.report.result_computed is not None


def test_an_abandon_for_absence_with_its_seconds() -> None:
    written = written_from(simulated("briscola", "1smazzata", 2))
    gone = WrittenIncident("abandon", seat=1, elapsed_ms=600_000, reason="assenza",
                           pos=Pos(60, 1))
    validation = validate(_cut(written, 3, gone), "test")
    assert validation.report.of("error") == ()
    assert validation.actions is not None
    (abandon,) = [c for c, _, _ in validation.actions if isinstance(c, RecordAbandon)]
    assert abandon.last_seen is not None and abandon.seat == 1


def test_a_play_after_the_match_ended_is_an_error() -> None:
    events = simulated("cirulla", "1smazzata", 2)
    written = written_from(events)
    timeout = WrittenIncident("timeout", seat=_fifth_to_play(events), elapsed_ms=61_000,
                              pos=Pos(50, 1))
    late = WrittenPlay(written.smazzate[0].moves[5].card, pos=Pos(51, 1))  # type: ignore[union-attr]
    cut = _cut(written, 4, timeout)
    smazzata = cut.smazzate[0]
    cut = replace(cut, smazzate=(replace(smazzata, moves=(*smazzata.moves, late)),))
    validation = validate(cut, "test")
    assert [(f.check, f.line) for f in validation.report.of("error")] == [("phase", 51)]
    assert validation.actions is None


def test_a_briscola_play_out_of_turn_stops_the_replay() -> None:
    written = written_from(simulated("briscola", "1smazzata", 2))
    smazzata = written.smazzate[0]
    first = smazzata.moves[0]
    assert isinstance(first, WrittenPlay)
    # The dealer leads only the second trick: seat to the dealer's right leads the first.
    to_move_other = replace(first, seat=smazzata.dealer, irregular="fuori-turno")
    moves = (to_move_other, *smazzata.moves[1:])
    validation = validate(replace(written, smazzate=(replace(smazzata, moves=moves),)), "t")
    found = validation.report.findings
    assert [f.check for f in found if f.severity == "error"] == ["turno"]
    assert found[-1].check == "replay" and found[-1].severity == "note"


@pytest.mark.parametrize("index", range(len(DEMOS)))
def test_every_demo_match_written_down_validates_to_its_result(index: int) -> None:
    recorded, _ = play_demo(DEMOS[index], datetime(2026, 1, 1, tzinfo=UTC))
    events = [event for event, _ in recorded]
    written = written_from_events(events)
    validation = validate(written, "test")
    assert validation.report.of("error") == ()
    result = [e for e in events if isinstance(e, MatchEnded)][-1]
    assert validation.report.result_computed == result.scores
    assert validation.report.of("finding") == ()
    # A ruling refers to the same event in the import, numbered otherwise.
    assert referred(imported(validation.actions)) == refers_written(written) == referred(events)


def test_a_ruling_between_smazzate_about_the_seed_just_revealed() -> None:
    # The simulator's ruling between two smazzate refers to the reveal of the one just ended;
    # the record writes it after that smazzata's plays, before its Seed is revealed by a
    # reading, so the import reveals the seed first.
    found = 0
    for demo in DEMOS:
        events = [event for event, _ in play_demo(demo, datetime(2026, 1, 1, tzinfo=UTC))[0]]
        written = written_from_events(events)
        for smazzata in written.smazzate:
            rulings = [m for m in smazzata.moves if isinstance(m, WrittenIncident)
                       and m.refers == ("SeedRevealed", smazzata.number + 1)]
            if rulings:
                found += 1
                named = referred(imported(validate(written, "test").actions))
                assert ("SeedRevealed", smazzata.number + 1) in named
    assert found
def _ruling(refers: tuple[str, int], line: int) -> WrittenIncident:
    return WrittenIncident("ruling", arbiter="Rossi", ruling="adjust-score", adjustment=(1, 0),
                           refers=refers, reason="carta vista", pos=Pos(line, 1))


def test_a_ruling_about_an_event_not_yet_recorded_is_an_error_at_its_line() -> None:
    written = written_from(simulated("cirulla", "1smazzata", 2))
    validation = validate(_cut(written, 4, _ruling(("CardPlayed", 40), 77)), "test")
    assert [(f.check, f.line, f.message) for f in validation.report.of("error")] == [
        ("ruling", 77, "refers to CardPlayed 40, which the record does not have before this "
                       "ruling")]
    assert validation.actions is None


def test_a_ruling_refers_to_the_event_of_its_type_and_ordinal() -> None:
    written = written_from(simulated("cirulla", "1smazzata", 2))
    validation = validate(_cut(written, 4, _ruling(("CardPlayed", 3), 77)), "test")
    assert validation.actions is not None
    events = imported(validation.actions)
    (ruling,) = [c for c, _, _ in validation.actions if isinstance(c, RecordRuling)]
    assert ruling.refers_to is not None
    assert [e for e in events[:ruling.refers_to] if isinstance(e, CardPlayed)][-1] == \
        events[ruling.refers_to - 1]
    assert referred(events) == [("CardPlayed", 3)]


def test_a_ruling_after_the_plays_about_the_claim_comes_after_it() -> None:
    written = written_from(simulated("briscola", "1smazzata", 2), seeds=True)
    smazzata = written.smazzate[0]
    claim = WrittenClaim((("punti", 60, 60),), Pos(90, 1))
    smazzata = replace(smazzata, claim=claim,
                       moves=(*smazzata.moves, _ruling(("ScoreClaimed", 1), 80),
                              _ruling(("SeedRevealed", 1), 81)))
    validation = validate(replace(written, smazzate=(smazzata,)), "test")
    assert validation.report.of("error") == ()
    events = imported(validation.actions)
    assert referred(events) == [("ScoreClaimed", 1), ("SeedRevealed", 1)]
    kinds = [type(e) for e in events]
    assert kinds.index(SeedRevealed) < kinds.index(ScoreClaimed) < kinds.index(RulingRecorded)


def test_a_hand_played_without_its_accuso_is_written_and_read_with_its_marker() -> None:
    """C8 accuso obbligatorio: the record writes `!accuso-mancato` on the play, and reading it
    back notes the same irregularity (tests/domain/record/test_transcribed_accuso.py)."""
    state, at, events = dealt_events("obbligatorio", tuple(map(parse_card, KNOCKING)))
    played = decide(state, RecordIrregularPlay(PlayCard(1, parse_card("4b"), ()),
                                               noted_by="Rossi (arbitro)"), at)
    text = write(written_from_events((*events, *played)))
    assert "4b!accuso-mancato" in text
    (record,) = read(text, "accuso.txt").matches
    validation = validate(record, "accuso.txt")
    assert validation.actions is not None, validation.report.as_text_lines()
    noted = [line for line in validation.report.as_text_lines() if "C8 accuso" in line]
    assert noted and "without declaring the cirulla" in noted[0]
