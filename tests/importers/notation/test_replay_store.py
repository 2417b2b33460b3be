"""The actions of a validation are what the store takes: stored in one batch, they verify, and
the audit replays them without a failure. `from_events` writes the stored record back, and it
validates to the same scores."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from uuid import uuid4

from domain.demo.transcribed import transcribe
from domain.events import SmazzataEnded
from domain.record.audit import Severity, audit
from domain.record.catalog import CATALOG
from domain.record.decide import decide
from domain.record.events import ScoreClaimed
from domain.record.match import MatchEvent, evolve, initial
from importers.notation.from_events import written_from_events
from importers.notation.model import Pos, WrittenClaim, WrittenPlay
from importers.notation.replay import Validation, validate
from projections.store.app import MatchStore
from projections.verify.streams import verify_store
from tests.importers.notation.test_replay import demo_written, simulated, written_from
from tests.replacing import replace


def _stored(tmp_path: Path, validation: Validation) -> list[str]:
    """The types of the events stored, in order; the store verifies them."""
    assert validation.actions is not None
    store = MatchStore(url=f"sqlite:///{tmp_path / 'verbale.db'}", catalog=CATALOG)
    stream = uuid4()
    try:
        store.execute_batch([(stream, validation.actions)])
        (verdict,) = verify_store(store, stream)
        events = [json.loads(row.state)["type"] for row in store.stored(stream)]
    finally:
        store.close()
    assert verdict.ok
    assert [p for p in verdict.problems if p.severity is Severity.FAILURE] == []
    return events


def _decided(validation: Validation) -> list[tuple[MatchEvent, datetime]]:
    """The events the actions cause, each with its moment; the audit finds no failure."""
    assert validation.actions is not None
    state = initial(CATALOG)
    recorded: list[tuple[MatchEvent, datetime]] = []
    for command, at, _ in validation.actions:
        for event in decide(state, command, at):
            state = evolve(state, event, at)
            recorded.append((event, at))
    assert audit(CATALOG, recorded).of(Severity.FAILURE) == ()
    return recorded


def test_a_partial_record_is_stored_and_verifies(tmp_path: Path) -> None:
    validation = validate(demo_written(transcribe()), "verbale-import test")
    events = _stored(tmp_path, validation)
    assert events[:2] == ["MatchCreated", "TagsTranscribed"]
    assert events.count("IrregularityNoted") == 2


def test_a_seeded_record_with_a_claim_is_stored_and_audits_clean(tmp_path: Path) -> None:
    match = simulated("cirulla", "1smazzata", 2)
    ended = next(e for e in match if isinstance(e, SmazzataEnded))
    written = written_from(match)
    smazzata = replace(written.smazzate[0], claim=WrittenClaim(ended.breakdown, Pos(99, 1)))
    validation = validate(replace(written, smazzate=(smazzata,)), "verbale-import test")
    assert validation.report.of("finding") == ()
    events = [e for e, _ in _decided(validation)]
    claims = [e for e in events if isinstance(e, ScoreClaimed)]
    assert [c.rows for c in claims] == [ended.breakdown]
    stored = _stored(tmp_path, validation)
    assert stored == [type(e).__name__ for e in events]
    assert "SeedRevealed" in stored and "ScoreClaimed" in stored


def test_written_from_events_validates_to_the_same_scores() -> None:
    written = demo_written(transcribe())
    validation = validate(written, "verbale-import test")
    again = written_from_events([e for e, _ in _decided(validation)])
    replayed = validate(again, "verbale-import test")
    assert replayed.report.accepted
    assert replayed.report.result_computed == validation.report.result_computed

    def plays(moves: tuple[object, ...]) -> list[tuple[object, ...]]:
        return [(m.card, m.capture, m.scopa, m.irregular) for m in moves
                if isinstance(m, WrittenPlay)]

    assert plays(again.smazzate[0].moves) == plays(written.smazzate[0].moves)
    assert [f.check for f in replayed.report.of("finding")] == \
        [f.check for f in validation.report.of("finding")]
