"""A record's header (TagsTranscribed) and claimed scores (ScoreClaimed) through the store, on
both databases: stored under their own topics and chained, read back as the same facts, checked
by `verify` (a claim that differs from the breakdown and a wrong Result are findings for the
arbiter, not failures), exported, and accepted by the outside auditor, which notes the claimed
category that differs and refuses a claim for a smazzata that has not ended."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timedelta
from uuid import uuid4

from domain.demo.transcribed import transcribe
from domain.record.audit import Severity
from domain.record.catalog import CATALOG
from domain.record.commands import ClaimScore, MatchCommand, TranscribeTags
from domain.record.envelope import importer
from domain.record.events import ScoreClaimed, TagsTranscribed
from projections.auditor.audit import audit_lines
from projections.auditor.chain import canonical
from projections.store.app import MatchStore
from projections.store.export import export_jsonl
from projections.store.facts import TOPIC_OF
from projections.verify.streams import verify_store
from tests.projections.conftest import Backend

TRANSCRIPT = transcribe()
HASH = "7a" * 32
TAGS = (("Event", "Coppa del Circolo"), ("Site", "Firenze"), ("Result", "9-3"))
SCORER = "Rossi (segnapunti)"
ENDED = TRANSCRIPT.partial_state.ended[0]
COMPUTED = dict((name, (a, b)) for name, a, b in ENDED.breakdown)
WRONG_SCOPE = (COMPUTED["scope"][0] + 1, COMPUTED["scope"][1])


def _commands() -> list[tuple[MatchCommand, datetime]]:
    commands: list[tuple[MatchCommand, datetime]] = list(TRANSCRIPT.commands)
    commands.insert(1, (TranscribeTags(tags=TAGS, content_hash=HASH), commands[0][1]))
    last = TRANSCRIPT.commands[-1][1]
    claims = [ClaimScore(0, ENDED.breakdown, SCORER),
              ClaimScore(0, (("scope", *WRONG_SCOPE), ("carte", *COMPUTED["carte"])),
                         "the club's sheet")]
    commands += [(c, last + timedelta(minutes=n + 1)) for n, c in enumerate(claims)]
    return commands


def _rechained(lines: list[str]) -> list[str]:
    """The export re-hashed line by line: a forgery the chain alone does not show."""
    previous = "0" * 64
    out = []
    for line in lines:
        record = json.loads(line)
        record.pop("hash")
        record["previous_hash"] = previous
        previous = hashlib.sha256(canonical(record)).hexdigest()
        out.append(json.dumps({**record, "hash": previous}, ensure_ascii=False))
    return out


def test_header_and_claims_are_stored_verified_exported_and_audited_outside(
        backend: Backend) -> None:
    store = MatchStore(url=backend.url, catalog=CATALOG)
    stream = uuid4()
    try:
        for line, (command, at) in enumerate(_commands(), start=1):
            store.execute(stream, command, at, importer("tests 1", "verbale-test.txt", line))
        loaded = store.load(stream)
        (verdict,) = verify_store(store, stream)
        facts = store.facts(stream)
        topics = [row.topic for row in store.stored(stream)]
        export = list(export_jsonl(store, stream))
    finally:
        store.close()
    events = [f.to_domain() for f in facts]
    assert events[1] == TagsTranscribed(tags=TAGS, content_hash=HASH)
    assert [type(e) for e in events[-2:]] == [ScoreClaimed, ScoreClaimed]
    assert loaded.state.tags == TAGS and loaded.state.content_hash == HASH
    assert [v for v, _ in loaded.state.claims] == [len(events) - 1, len(events)]
    assert loaded.state.result == TRANSCRIPT.partial_state.result

    assert verdict.ok and not verdict.of(Severity.FAILURE)
    claimed = [(p.version, p.check, p.message) for p in verdict.of(Severity.FINDING)
               if p.check.startswith("claimed")]
    scope = COMPUTED["scope"]
    assert claimed == [
        (2, "claimed result", "the Result tag says 9–3, the match ended 3–9 (the final scores, "
                              "side 1 - side 2)"),
        (len(events), "claimed score",
         f"smazzata 1: claimed scope {WRONG_SCOPE[0]}–{WRONG_SCOPE[1]}, computed "
         f"{scope[0]}–{scope[1]} (claimed by the club's sheet)")]

    records = [json.loads(line) for line in export]
    assert [r["type"] for r in records if r["type"] in ("TagsTranscribed", "ScoreClaimed")] == [
        "TagsTranscribed", "ScoreClaimed", "ScoreClaimed"]
    assert records[1]["class_version"] == 1 and records[1]["data"] == {
        "content_hash": HASH, "tags": [list(t) for t in TAGS]}
    assert records[-1]["data"]["rows"] == [["scope", *WRONG_SCOPE],
                                           ["carte", *COMPUTED["carte"]]]
    assert topics[1] == TOPIC_OF["TagsTranscribed"] == "projections.store.facts:TagsTranscribed"
    assert topics[-1] == "projections.store.facts:ScoreClaimed"

    report = audit_lines(export)
    assert report.ok, "\n".join(report.render())
    assert report.check("chain").status == "OK" and report.check("scores").status == "OK"
    assert report.check("scores").notes == (
        f"line {len(events)}: smazzata 1: claimed scope {WRONG_SCOPE[0]}–{WRONG_SCOPE[1]}, "
        f"computed {scope[0]}–{scope[1]} (claimed by the club's sheet)",)

    # A claim moved before the smazzata's end, re-chained: the outside auditor refuses it.
    moved = [export[0], export[1], export[-2], *export[2:-2], export[-1]]
    for number, text in enumerate(moved, start=1):
        moved[number - 1] = text.replace(f'"version":{json.loads(text)["version"]}',
                                         f'"version":{number}')
    forged = audit_lines(_rechained(moved))
    assert forged.check("chain").status == "OK"
    assert forged.check("scores").problems == (
        "line 3: a score claimed for smazzata 1, which has not ended before it",)
