"""`verbale verify`: re-check every stream of the store from its stored bytes up.

For each stream: the versions run 1..n without a gap; every event is canonical JSON whose
fields agree with its row (stream, version, type and topic); the chain holds (each
`previous_hash` is the SHA-256 of the event before it, GENESIS for the first); the stored head
is the last event's hash; timestamps are UTC and never go back. Then the events are decoded
(through the upcasters) and a match is audited by the rules (domain/record/audit.py): every
deal against its revealed seed and commitment, every play, timeout and ruling, and the result.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast
from uuid import UUID

from eventsourcing.persistence import StoredEvent

from domain.record.audit import Audit, Severity, audit
from domain.record.clock import ClockError, parse_stamp
from domain.record.envelope import EnvelopeError, RecordedBy
from domain.record.events import MatchCreated, TournamentCreated
from domain.record.tournament import (
    ScheduleMatch,
    TournamentState,
    decide_creation,
    decide_schedule,
    evolve_tournament,
)
from projections.store.app import MatchStore
from projections.store.canonical import GENESIS, canonical_json, event_hash
from projections.store.codec import CodecError, decode
from projections.store.facts import FACT_NAMED, TOPIC_OF, StoredFact
from projections.store.recorders import Head

RECORD_KEYS = {"class_version", "data", "previous_hash", "stream", "timestamp", "type",
               "version"}
ENVELOPE = "recorded_by"   # in every record written since the envelope (docs/events.md)


@dataclass(frozen=True, slots=True)
class Problem:
    version: int | None
    check: str
    message: str
    severity: Severity = Severity.FAILURE

    def __str__(self) -> str:
        where = f"event {self.version}" if self.version is not None else "stream"
        label = "" if self.severity is Severity.FAILURE else f"{self.severity}: "
        return f"{where} [{self.check}] {label}{self.message}"


@dataclass(frozen=True, slots=True)
class Verdict:
    stream: UUID
    kind: str
    events: int
    problems: tuple[Problem, ...]
    note: str | None = None

    @property
    def ok(self) -> bool:
        """Nothing failed; noted irregularities and notes leave a record sound."""
        return all(p.severity is not Severity.FAILURE for p in self.problems)

    @property
    def verdict(self) -> Severity | None:
        return max((p.severity for p in self.problems), default=None)

    def of(self, severity: Severity) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity is severity)


def verify_store(store: MatchStore, only: UUID | None = None) -> list[Verdict]:
    heads = {h[0]: h for h in store.heads()}
    streams = set(store.streams()) | set(heads)
    if only is not None:
        streams = {only}
    return [verify_stream(store, s, heads.get(s) if only is None else store.chained.select_head(s))
            for s in sorted(streams, key=str)]


def verify_stream(store: MatchStore, stream: UUID, head: Head | None) -> Verdict:
    stored = store.stored(stream)
    problems = list(check_structure(stream, stored, head))
    if not stored:
        return Verdict(stream, "?", 0, tuple(problems) or (Problem(None, "stream", "no events"),))
    if problems:
        return Verdict(stream, _kind_of(stored[0]), len(stored), tuple(problems),
                       "rules not checked: the stored record is broken")
    try:
        decoded = [_decode(store, s) for s in stored]
    except _Broken as broken:
        return Verdict(stream, _kind_of(stored[0]), len(stored), (broken.problem,))
    return _audit(store, stream, decoded)


def check_structure(stream: UUID, stored: Sequence[StoredEvent],
                    head: Head | None) -> Iterable[Problem]:
    previous_hash, previous_at = GENESIS, None
    for position, row in enumerate(stored, start=1):
        if row.originator_version != position:
            yield Problem(position, "sequence", f"event {position} is missing: the next stored "
                                                f"event is {row.originator_version}")
            break
    enveloped: bool | None = None
    for row in stored:
        record, found = _record(stream, row)
        if record is not None:
            enveloped = _same_envelope(row.originator_version, record, enveloped, found)
        yield from found
        if record is not None:
            if record.get("previous_hash") != previous_hash:
                before = row.originator_version - 1
                yield Problem(row.originator_version, "chain", (
                    f"previous_hash is not the hash of event {before}: event {before} was "
                    "changed, or one was removed, inserted or moved here") if before else
                    "the first event does not start from the genesis hash")
            at, clock = _timestamp(row.originator_version, record, previous_at)
            yield from clock
            previous_at = at or previous_at
        previous_hash = event_hash(row.state)
    yield from _check_head(stored, head, previous_hash)


def _check_head(stored: Sequence[StoredEvent], head: Head | None,
                last_hash: str) -> Iterable[Problem]:
    last = stored[-1].originator_version if stored else 0
    if head is None:
        if stored:
            yield Problem(last, "head", "the stream has no stored head")
        return
    if head[1] != last:
        yield Problem(min(head[1], last) + 1, "head",
                      f"the stored head is event {head[1]}, the last stored event is {last}")
    elif head[2] != last_hash:
        yield Problem(last, "head", "the stored head hash is not the hash of the last event")


def _record(stream: UUID, row: StoredEvent) -> tuple[dict[str, Any] | None, list[Problem]]:
    version = row.originator_version
    try:
        record = json.loads(row.state.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None, [Problem(version, "decode", "the stored state is not JSON")]
    if not isinstance(record, dict) or set(record) - {ENVELOPE} != RECORD_KEYS:
        return None, [Problem(version, "fields", "the record does not have exactly the fields "
                                                 f"{sorted(RECORD_KEYS)} (and {ENVELOPE})")]
    problems = _envelope(version, record) + _v2_fields(version, record)
    if canonical_json(record, checked=False) != row.state:
        problems.append(Problem(version, "canonical", "the stored bytes are not the canonical "
                                                      "JSON of their record"))
    if record["stream"] != str(stream) or record["version"] != version:
        problems.append(Problem(version, "identity", f"the record says stream "
                                                     f"{record['stream']} event "
                                                     f"{record['version']}"))
    if TOPIC_OF.get(record["type"]) != row.topic:
        problems.append(Problem(version, "type", f"type {record['type']!r} stored with topic "
                                                 f"{row.topic!r}"))
    return record, problems


def _same_envelope(version: int, record: dict[str, Any], enveloped: bool | None,
                   found: list[Problem]) -> bool:
    """Once a stream's records carry the envelope, every later one does: a record without it
    after one with it was stripped. (A match begun before the envelope existed and continued
    since has records without it, then records with it.)"""
    has = ENVELOPE in record
    if enveloped and not has:
        found.append(Problem(version, "envelope", "this record has no recorded_by, although an "
                                                  "earlier record of the stream has one"))
    return bool(enveloped) or has


# A record of class_version 2 holds these fields (docs/events.md section 6): null there is not
# "not recorded", as in a version-1 record, but a record stripped of them.
_V2_REQUIRED = {"MatchCreated": ("provenance", "visibility"), "SmazzataEnded": ("outcome",),
                "MatchEnded": ("settlement",)}


def _v2_fields(version: int, record: dict[str, Any]) -> list[Problem]:
    required = _V2_REQUIRED.get(record.get("type", ""), ())
    if record.get("class_version") != 2 or not isinstance(record.get("data"), dict):
        return []
    missing = [name for name in required if record["data"].get(name) is None]
    if not missing:
        return []
    return [Problem(version, "fields", f"a class_version 2 {record['type']} holds "
                                       f"{', '.join(missing)}: it is null here")]


def _envelope(version: int, record: dict[str, Any]) -> list[Problem]:
    if ENVELOPE not in record:
        return []
    try:
        decode(RecordedBy, record[ENVELOPE], f"event {version} {ENVELOPE}")
    except (CodecError, EnvelopeError) as error:
        return [Problem(version, "envelope", str(error))]
    return []


def _timestamp(version: int, record: dict[str, Any],
               previous: datetime | None) -> tuple[datetime | None, list[Problem]]:
    try:
        at = parse_stamp(record["timestamp"])
    except ClockError as error:
        return None, [Problem(version, "clock", str(error))]
    if previous is not None and at < previous:
        return at, [Problem(version, "clock", "the timestamp goes back in time")]
    return at, []


class _Broken(Exception):
    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


def _decode(store: MatchStore, row: StoredEvent) -> tuple[object, datetime]:
    try:
        fact = cast(StoredFact, store.mapper.to_domain_event(row))
        fact_class = FACT_NAMED[fact.type]
        if fact.type != type(fact).__name__ or fact_class.class_version < 1:
            raise ValueError(f"type {fact.type} stored as {type(fact).__name__}")
        return fact.to_domain(), parse_stamp(fact.timestamp)
    except Exception as error:  # any decoding failure is a finding about this event
        raise _Broken(Problem(row.originator_version, "decode", str(error))) from None


def _kind_of(row: StoredEvent) -> str:
    return row.topic.rpartition(":")[2]


def _audit(store: MatchStore, stream: UUID, decoded: list[tuple[object, datetime]]) -> Verdict:
    first = decoded[0][0]
    if isinstance(first, TournamentCreated):
        problems = _audit_tournament([e for e, _ in decoded])
        return Verdict(stream, f"tournament {first.name}", len(decoded), problems)
    if not isinstance(first, MatchCreated):
        return Verdict(stream, "?", len(decoded),
                       (Problem(1, "order", f"a stream starts with MatchCreated or "
                                            f"TournamentCreated, not {type(first).__name__}"),))
    if first.game not in store.catalog:
        return Verdict(stream, first.game, len(decoded),
                       (Problem(1, "game", f"unknown game {first.game!r}"),))
    result: Audit = audit(store.catalog, cast(Any, decoded))
    problems = tuple(Problem(f.version, f.check, f.message, f.severity)
                     for f in result.findings)
    kind = f"{first.game} {len(first.players)}p"
    return Verdict(stream, kind, len(decoded), problems, result.pending)


def _audit_tournament(events: list[object]) -> tuple[Problem, ...]:
    state = TournamentState()
    for version, event in enumerate(events, start=1):
        try:
            if isinstance(event, TournamentCreated):
                expected = decide_creation(state, event.name, event.game)
            else:
                command = ScheduleMatch(**{k: getattr(event, k) for k in ("round", "table",
                                                                          "match")})
                expected = decide_schedule(state, command)
        except (ValueError, TypeError, AttributeError) as error:
            return (Problem(version, "tournament", str(error)),)
        if expected != (event,):
            return (Problem(version, "tournament", f"recorded {event}, expected {expected}"),)
        state = evolve_tournament(state, expected[0])
    return ()


def summary(verdicts: Sequence[Verdict]) -> str:
    failed = [v for v in verdicts if not v.ok]
    events = sum(v.events for v in verdicts)
    text = (f"{len(verdicts)} streams, {events} events: {len(verdicts) - len(failed)} ok, "
            f"{len(failed)} failed")
    noted = sum(len(v.of(Severity.FINDING)) for v in verdicts)
    notes = sum(len(v.of(Severity.NOTE)) for v in verdicts)
    if noted or notes:
        text += f"; {noted} irregularities for the arbiter, {notes} unverifiable checks"
    return text
