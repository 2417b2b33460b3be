"""Issue 7's transcribed match through the store: its events carry the importer's envelope,
`verify` passes its chain and reports the two noted irregularities and the unverifiable checks by
version, and the stored match replays to the score the known cards give. On both databases."""

from __future__ import annotations

from uuid import uuid4

from domain.demo.transcribed import transcribe
from domain.record.audit import Severity
from domain.record.catalog import CATALOG
from domain.record.envelope import importer
from domain.record.events import IrregularityNoted
from projections.store.app import MatchStore
from projections.store.export import export_jsonl
from projections.verify.streams import verify_store
from tests.projections.conftest import Backend

TRANSCRIPT = transcribe()


def test_a_transcribed_match_is_stored_verified_and_its_irregularities_reported(
        backend: Backend) -> None:
    store = MatchStore(url=backend.url, catalog=CATALOG)
    stream = uuid4()
    try:
        for line, (command, at) in enumerate(TRANSCRIPT.commands, start=1):
            store.execute(stream, command, at, importer("tests 1", "verbale-test.txt", line))
        loaded = store.load(stream)
        (verdict,) = verify_store(store, stream)
        facts = store.facts(stream)
        export = list(export_jsonl(store, stream))
    finally:
        store.close()
    assert [e for e, _ in TRANSCRIPT.partial] == [f.to_domain() for f in facts]
    assert verdict.ok and verdict.verdict is Severity.FINDING
    assert not verdict.of(Severity.FAILURE)
    assert [(p.version, p.check) for p in verdict.of(Severity.FINDING)] == [
        (TRANSCRIPT.out_of_turn, "irregularity: turn order"),
        (TRANSCRIPT.missed_capture, "irregularity: C16 presa obbligata")]
    notes = verdict.of(Severity.NOTE)
    assert notes[0].version == 2 and "shuffle unverifiable" in notes[0].message
    assert len(notes) > 1 and all(n.check == "unverifiable" for n in notes)
    assert loaded.state.result == TRANSCRIPT.known_state.result
    assert loaded.state.ended == TRANSCRIPT.known_state.ended
    noted = [f for f in facts if isinstance(f.to_domain(), IrregularityNoted)]
    assert [f.envelope().where for f in noted] == [  # type: ignore[union-attr]
        f"verbale-test.txt:{n}" for n, (c, _) in enumerate(TRANSCRIPT.commands, start=1)
        if type(c).__name__ == "RecordIrregularPlay"]
    assert all('"recorded_by":{"kind":"importer"' in line for line in export)
