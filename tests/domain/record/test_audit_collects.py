"""The audit collects every finding (domain/record/audit.py): after a disagreement the replay goes
on from what was recorded, so two independent faults are both reported, in version order, each a
FAILURE; the verdict is the worst severity, and `ok` is False only with a failure.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from domain.cirulla.ruleset import STANDARD
from domain.demo.matches import NAMES, play_demo, seeded_match
from domain.demo.transcribed import Transcript, transcribe
from domain.events import CardPlayed, HandDealt
from domain.match_format import MatchFormat
from domain.record.audit import Audit, Finding, Severity, audit
from domain.record.catalog import CATALOG
from domain.record.match import MatchEvent, initial
from domain.shuffle import Seed
from tests.replacing import replace

START = datetime(2026, 11, 24, 23, 0, tzinfo=UTC)
Recorded = list[tuple[MatchEvent, datetime]]
TRANSCRIPT: Transcript = transcribe()


def _simulated() -> Recorded:
    demo = seeded_match("cirulla", MatchFormat.parse("2smazzate", "cirulla"), STANDARD,
                        NAMES[:2], Seed(b"\x4c" * 16))
    recorded: Recorded = play_demo(demo, START)[0]
    assert audit(CATALOG, recorded).findings == ()
    return recorded


SIMULATED = _simulated()


def _follow_ups(recorded: Recorded) -> list[int]:
    """Indexes of HandDealt events: each follows a CardPlayed in the same action."""
    found = [i for i, (e, _) in enumerate(recorded) if isinstance(e, HandDealt)]
    assert all(recorded[i][1] == recorded[i - 1][1] for i in found)
    return found


def _delayed(recorded: Recorded, indexes: list[int]) -> Recorded:
    """The events at `indexes` stamped one millisecond after the rest of their action."""
    changed = list(recorded)
    for index in indexes:
        event, at = changed[index]
        changed[index] = (event, at + timedelta(milliseconds=1))
    return changed


def _plays(recorded: Recorded) -> list[int]:
    return [i for i, (e, _) in enumerate(recorded) if isinstance(e, CardPlayed)]


def test_two_timestamps_changed_far_apart_are_both_reported_in_version_order() -> None:
    follow_ups = _follow_ups(SIMULATED)
    chosen = [follow_ups[0], follow_ups[-1]]
    report = audit(CATALOG, _delayed(SIMULATED, chosen))
    assert [(f.version, f.check, f.severity) for f in report.findings] == [
        (chosen[0] + 1, "clock", Severity.FAILURE), (chosen[1] + 1, "clock", Severity.FAILURE)]
    assert not report.ok and report.verdict is Severity.FAILURE
    # The replay went on to the end: the match is over, as the record says.
    assert report.pending is None and report.state.result is not None


def test_two_scopa_flags_flipped_are_both_reported_and_nothing_else() -> None:
    plays = _plays(SIMULATED)
    chosen = [plays[2], plays[-5]]
    changed = list(SIMULATED)
    for index in chosen:
        event, at = changed[index]
        assert isinstance(event, CardPlayed)
        changed[index] = (replace(event, scopa=not event.scopa), at)
    report = audit(CATALOG, changed)
    assert [(f.version, f.check) for f in report.findings] == [
        (chosen[0] + 1, "replay"), (chosen[1] + 1, "replay")]
    assert all(f.severity is Severity.FAILURE for f in report.findings)
    assert all("scopa" in f.message for f in report.findings)
    assert report.verdict is Severity.FAILURE and not report.ok
    assert report.state.result == audit(CATALOG, SIMULATED).state.result


def test_findings_come_in_version_order_whatever_order_the_faults_were_made_in() -> None:
    follow_ups = _follow_ups(SIMULATED)
    plays = _plays(SIMULATED)
    late_play = plays[-3]
    changed = _delayed(SIMULATED, [follow_ups[1]])
    event, at = changed[late_play]
    assert isinstance(event, CardPlayed)
    changed[late_play] = (replace(event, scopa=not event.scopa), at)
    report = audit(CATALOG, changed)
    versions = [f.version for f in report.findings]
    assert versions == sorted(versions) == [follow_ups[1] + 1, late_play + 1]
    assert [f.check for f in report.findings] == ["clock", "replay"]


def test_a_refused_command_stops_the_replay_there() -> None:
    """A play the rules refuse (here: made by the seat not to move) leaves the number of events of
    its action unknown: the replay stops, and later faults are not reached."""
    plays = _plays(SIMULATED)
    index = plays[4]
    changed = _delayed(SIMULATED, [_follow_ups(SIMULATED)[-1]])
    event, at = changed[index]
    assert isinstance(event, CardPlayed)
    changed[index] = (replace(event, seat=1 - event.seat), at)
    report = audit(CATALOG, changed)
    assert [(f.version, f.severity) for f in report.findings] == [(index + 1, Severity.FAILURE)]
    assert not report.ok


def test_the_transcript_with_only_findings_and_notes_is_ok_its_verdict_a_finding() -> None:
    report = audit(CATALOG, TRANSCRIPT.partial)
    assert report.ok and report.verdict is Severity.FINDING
    assert report.of(Severity.FINDING) and report.of(Severity.NOTE)
    assert report.of(Severity.FAILURE) == ()


def test_two_failures_in_a_transcript_are_reported_beside_its_findings_and_notes() -> None:
    follow_ups = _follow_ups(TRANSCRIPT.partial)
    chosen = [follow_ups[0], follow_ups[-1]]
    report = audit(CATALOG, _delayed(TRANSCRIPT.partial, chosen))
    failures = report.of(Severity.FAILURE)
    assert [(f.version, f.check) for f in failures] == [(chosen[0] + 1, "clock"),
                                                       (chosen[1] + 1, "clock")]
    assert not report.ok and report.verdict is Severity.FAILURE
    # The irregularities and the open checks are still all there.
    clean = audit(CATALOG, TRANSCRIPT.partial)
    assert report.of(Severity.FINDING) == clean.of(Severity.FINDING)
    assert report.of(Severity.NOTE) == clean.of(Severity.NOTE)
    assert len(report.findings) == len(clean.findings) + 2


def _audit_of(*severities: Severity) -> Audit:
    return Audit(tuple(Finding(n + 1, "x", "y", s) for n, s in enumerate(severities)),
                 initial(CATALOG))


@pytest.mark.parametrize("severities, verdict, ok", [
    ((), None, True),
    ((Severity.NOTE,), Severity.NOTE, True),
    ((Severity.NOTE, Severity.FINDING, Severity.NOTE), Severity.FINDING, True),
    ((Severity.FINDING, Severity.FAILURE, Severity.NOTE), Severity.FAILURE, False),
    ((Severity.FAILURE,), Severity.FAILURE, False),
])
def test_the_verdict_is_the_worst_severity_and_only_a_failure_is_not_ok(
        severities: tuple[Severity, ...], verdict: Severity | None, ok: bool) -> None:
    report = _audit_of(*severities)
    assert report.verdict is verdict
    assert report.ok is ok
    for severity in Severity:
        assert len(report.of(severity)) == severities.count(severity)
