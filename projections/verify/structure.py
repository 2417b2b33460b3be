"""The stored record of one stream, checked from its bytes up, before any rule: the versions run
1..n without a gap; every event is canonical JSON of exactly the record's fields, agreeing with
its row (stream, version, type and topic); the envelope (`recorded_by`) decodes and, once
present, stays; a class_version 2 record holds its fields; the chain holds (each
`previous_hash` is the SHA-256 of the event before it, GENESIS for the first); the stored head
is the last event's hash; timestamps are UTC and never go back. Each row is parsed once: a
sound record of its newest layout is decoded straight from its bytes into a typed record and
checked on that (whole.py); any other row is checked on its parsed JSON (`_record`, which names
what is wrong) and decoded through the store's mapper and upcasters (`decode_row`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from msgspec import UNSET

from domain.record.clock import ClockError, parse_stamp
from domain.record.envelope import EnvelopeError, RecordedBy
from domain.text import say
from projections.store.app import MatchStore
from projections.store.canonical import GENESIS, canonical_json, event_hash
from projections.store.codec import CodecError, decode
from projections.store.facts import FACT_NAMED, TOPIC_OF, StoredFact
from projections.store.recorders import Head
from projections.verify.verdicts import Problem, message_of
from projections.verify.whole import V2_REQUIRED, whole, whole_read

RECORD_KEYS = {"class_version", "data", "previous_hash", "stream", "timestamp", "type",
               "version"}
ENVELOPE = "recorded_by"   # in every record written since the envelope (docs/events.md)


@dataclass(frozen=True, slots=True)
class Read:
    """A stream's rows, each parsed once: the problems of the stored record, the hash of its
    last event and, when there are no problems, its events decoded with their moments, or the
    first row that does not decode (`broken`)."""

    problems: tuple[Problem, ...]
    last_hash: str
    decoded: list[tuple[object, datetime]]
    broken: Problem | None = None


def read_stream(store: MatchStore, stream: UUID, stored: Sequence[StoredEvent],
                head: Head | None) -> Read:
    """Each row decoded once into its typed record (whole.py) and checked on that; a row that
    is not a sound record of its newest layout is checked by the exact route (`_record`),
    which names what is wrong, and decoded through the store's mapper and upcasters."""
    problems: list[Problem] = []
    decoded: list[tuple[object, datetime | None]] = []
    exact: list[int] = []   # the rows decoded through the mapper, if the record is sound
    previous_hash, enveloped, gap = GENESIS, False, None
    clock = _Clock()
    text, fast = str(stream), whole_read()
    for position, row in enumerate(stored, start=1):
        version = row.originator_version
        if version != position and gap is None:
            gap = _gap(position, version)
        typed = whole(row, text) if fast else None
        if typed is not None:
            previous, has, moment = typed.previous_hash, typed.recorded_by is not UNSET, \
                typed.timestamp
            event: object = typed.data
        else:
            record, found = _record(stream, row)
            problems.extend(found)
            event = None
            exact.append(position - 1)
            if record is None:
                decoded.append((None, None))
                previous_hash = event_hash(row.state)
                continue
            previous, has, moment = record.get("previous_hash"), ENVELOPE in record, \
                record["timestamp"]
        if has:
            enveloped = True
        elif enveloped:
            problems.append(_stripped(version))
        if previous != previous_hash:
            problems.append(_unchained(version))
        decoded.append((event, clock.read(version, moment, problems)))
        previous_hash = event_hash(row.state)
    problems.extend(_check_head(stored, head, previous_hash))
    if gap is not None:
        problems.insert(0, gap)
    if problems:
        return Read(tuple(problems), previous_hash, [])
    try:
        for index in exact:
            decoded[index] = (decode_row(store, stored[index])[0], decoded[index][1])
    except Broken as broken:
        return Read((), previous_hash, [], broken.problem)
    return Read((), previous_hash, cast(list[tuple[object, datetime]], decoded))


def _gap(position: int, version: int) -> Problem:
    return Problem(position, "sequence", say(
        "event {version} is missing: the next stored event is {found}",
        version=position, found=version))


class _Clock:
    """The stream's timestamps: each UTC in the record's one spelling, none before the one
    before it. The events of one action share their timestamp: parsed once (the same text is
    the same instant, which does not go back)."""

    __slots__ = ("at", "text")

    def __init__(self) -> None:
        self.text: object = None
        self.at: datetime | None = None

    def read(self, version: int, moment: object, problems: list[Problem]) -> datetime | None:
        if moment == self.text and isinstance(moment, str):
            return self.at
        try:
            at = parse_stamp(cast(str, moment))
        except ClockError as error:
            problems.append(Problem(version, "clock", message_of(error)))
            return None
        if self.at is not None and at < self.at:
            problems.append(Problem(version, "clock", say("the timestamp goes back in time")))
        self.text, self.at = moment, at
        return at


def _stripped(version: int) -> Problem:
    """Once a stream's records carry the envelope, every later one does: a record without it
    after one with it was stripped. (A match begun before the envelope existed and continued
    since has records without it, then records with it.)"""
    return Problem(version, "envelope", say(
        "this record has no recorded_by, although an earlier record of the stream has one"))


def _unchained(version: int) -> Problem:
    before = version - 1
    return Problem(version, "chain", say(
        "previous_hash is not the hash of event {before}: event {before} was changed, or one "
        "was removed, inserted or moved here", before=before)
        if before else say("the first event does not start from the genesis hash"))


def _check_head(stored: Sequence[StoredEvent], head: Head | None,
                last_hash: str) -> Iterable[Problem]:
    last = stored[-1].originator_version if stored else 0
    if head is None:
        if stored:
            yield Problem(last, "head", say("the stream has no stored head"))
        return
    if head[1] != last:
        yield Problem(min(head[1], last) + 1, "head",
                      say("the stored head is event {version}, the last stored event is "
                          "{last}", version=head[1], last=last))
    elif head[2] != last_hash:
        yield Problem(last, "head",
                      say("the stored head hash is not the hash of the last event"))


def _record(stream: UUID, row: StoredEvent) -> tuple[dict[str, Any] | None, list[Problem]]:
    version = row.originator_version
    try:
        record = json.loads(row.state.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None, [Problem(version, "decode", say("the stored state is not JSON"))]
    if not isinstance(record, dict) or set(record) - {ENVELOPE} != RECORD_KEYS:
        return None, [Problem(version, "fields", say(
            "the record does not have exactly the fields {fields} (and {envelope})",
            fields=sorted(RECORD_KEYS), envelope=ENVELOPE))]
    problems = envelope_problems(version, record) + _v2_fields(version, record)
    if canonical_json(record, checked=False) != row.state:
        problems.append(Problem(version, "canonical", say(
            "the stored bytes are not the canonical JSON of their record")))
    if record["stream"] != str(stream) or record["version"] != version:
        problems.append(Problem(version, "identity", say(
            "the record says stream {stream} event {version}", stream=record["stream"],
            version=record["version"])))
    if not isinstance(record["type"], str) or TOPIC_OF.get(record["type"]) != row.topic:
        problems.append(Problem(version, "type", say(
            "type {type!r} stored with topic {topic!r}", type=record["type"], topic=row.topic)))
    return record, problems


def _v2_fields(version: int, record: dict[str, Any]) -> list[Problem]:
    """The fields a class_version 2 (or later) record of its type holds that are null here."""
    required = V2_REQUIRED.get(record["type"], ()) if isinstance(record["type"], str) else ()
    class_version = record["class_version"]
    if not required or not isinstance(class_version, int) or class_version < 2 \
            or not isinstance(record["data"], dict):
        return []
    missing = [name for name in required if record["data"].get(name) is None]
    if not missing:
        return []
    return [Problem(version, "fields", say(
        "a class_version {class_version} {type} holds {fields}: it is null here",
        class_version=record["class_version"], type=record["type"],
        fields=", ".join(missing)))]


def envelope_problems(version: int, record: dict[str, Any]) -> list[Problem]:
    if ENVELOPE not in record:
        return []
    try:
        decode(RecordedBy, record[ENVELOPE], f"event {version} {ENVELOPE}")
    except (CodecError, EnvelopeError) as error:
        return [Problem(version, "envelope", message_of(error))]
    return []


class Broken(Exception):
    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


def decode_row(store: MatchStore, row: StoredEvent) -> tuple[object, datetime]:
    try:
        fact = cast(StoredFact, store.mapper.to_domain_event(row))
        fact_class = FACT_NAMED[fact.type]
        if fact.type != type(fact).__name__ or fact_class.class_version < 1:
            raise ValueError(say("type {type} stored as {stored}", type=fact.type,
                                 stored=type(fact).__name__))
        return fact.to_domain(), parse_stamp(fact.timestamp)
    except Exception as error:  # any decoding failure is a finding about this event
        raise Broken(Problem(row.originator_version, "decode", message_of(error))) from None


def kind_of(row: StoredEvent) -> str:
    return row.topic.rpartition(":")[2]


def category_of(row: StoredEvent) -> str:
    return {"MatchCreated": "match", "TournamentCreated": "tournament",
            "ArbiterKeyRegistered": "keys",
            "TarocchiTournamentCreated": "tarocchi"}.get(kind_of(row), "?")


def envelope_kind(row: StoredEvent) -> str | None:
    envelope = json.loads(row.state).get(ENVELOPE)
    return envelope.get("kind") if isinstance(envelope, dict) else None
