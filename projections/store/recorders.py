"""The library's SQLite and PostgreSQL application recorders, with the hash chain and guards.

In the same transaction as the events, the recorder checks that each new event's
`previous_hash` is the hash of the event before it (the stored head for the first one of a
stream) and moves the stream's head (`version`, `head_hash`) forward: a write that would fork or
skip the chain is refused and nothing is stored. The database itself refuses UPDATE and DELETE
on the events table and any backward move of a head (triggers, on both databases).
Built by the store's infrastructure factories (opening.py), which open the database, recognise
what it holds and create, upgrade or refuse it before the recorder is used.

The tables are `verbale_events` and `verbale_heads`, and the marker `verbale_store` says which
layout of verbale's tables the database holds (SCHEMA_VERSION). Version 1 (SQLite only, no
marker) was the library's default `stored_events` with `stream_heads`: opened for writing it is
renamed in place, in one transaction, without rewriting any event (LEGACY_SQLITE_UPGRADE).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteCursor

from domain.text import Said, say
from projections.store.canonical import GENESIS, event_hash, previous_hash_of
from projections.store.seed_registry import sqlite_create, sqlite_register

APPEND_ONLY = "the event store is append-only"
DDL_LOCK = 0x76657262616C65   # "verbale": the advisory lock key of the store's DDL

EVENTS_TABLE, HEADS_TABLE, MARKER_TABLE = "verbale_events", "verbale_heads", "verbale_store"
SCHEMA_VERSION = 2
LEGACY_EVENTS_TABLE, LEGACY_HEADS_TABLE = "stored_events", "stream_heads"
LEGACY_TRIGGERS = ("stored_events_no_update", "stored_events_no_delete",
                   "stream_heads_no_delete", "stream_heads_forward")
MARKER_COLUMNS = "(schema_version INTEGER NOT NULL, written_by TEXT NOT NULL)"
MARKER_ROW = f"'{EVENTS_TABLE}, {HEADS_TABLE} (verbale)'"


def sqlite_marker_statements() -> list[str]:
    return [f"CREATE TABLE IF NOT EXISTS {MARKER_TABLE} {MARKER_COLUMNS}",
            f"INSERT INTO {MARKER_TABLE} SELECT {SCHEMA_VERSION}, {MARKER_ROW} "
            f"WHERE NOT EXISTS (SELECT 1 FROM {MARKER_TABLE})"]


LEGACY_SQLITE_UPGRADE = [
    *(f"DROP TRIGGER IF EXISTS {name}" for name in LEGACY_TRIGGERS),
    f"ALTER TABLE {LEGACY_EVENTS_TABLE} RENAME TO {EVENTS_TABLE}",
    f"ALTER TABLE {LEGACY_HEADS_TABLE} RENAME TO {HEADS_TABLE}",
]
"""Version 1 to 2 on SQLite (then the guard statements and the marker, same transaction)."""


class ChainError(ValueError):
    """A write whose events do not continue their stream's hash chain (exit code 1: the store
    changed under the writer)."""

    exit_code = 1


Head = tuple[UUID, int, str]
Advance = tuple[UUID, int, str, int, str]   # stream, from version, from hash, to version, to hash


def chain_advances(stored_events: Sequence[StoredEvent]) -> list[Advance]:
    """Per stream in the batch: the head it must continue and the head it leaves."""
    by_stream: dict[UUID, list[StoredEvent]] = {}
    for stored in stored_events:
        by_stream.setdefault(_as_uuid(stored.originator_id), []).append(stored)
    return [_advance(stream, events) for stream, events in by_stream.items()]


def _advance(stream: UUID, events: list[StoredEvent]) -> Advance:
    first = events[0]
    expected = previous_hash_of(first.state) or ""
    start = (first.originator_version - 1, expected)
    if first.originator_version == 1 and expected != GENESIS:
        raise ChainError(say("stream {stream}: event 1 must have previous_hash {genesis}",
                             stream=str(stream), genesis=GENESIS))
    version = first.originator_version - 1
    for stored in events:
        if stored.originator_version != version + 1:
            raise ChainError(say("stream {stream}: event {version} follows event {previous}",
                                 stream=str(stream), version=stored.originator_version,
                                 previous=version))
        if previous_hash_of(stored.state) != expected:
            raise ChainError(say("stream {stream}: event {version} does not carry the hash of "
                                 "event {previous}", stream=str(stream),
                                 version=stored.originator_version, previous=version))
        expected = event_hash(stored.state)
        version = stored.originator_version
    return (stream, start[0], start[1], version, expected)


def stream_events(stream: UUID, rows: Iterable[tuple[int, str, bytes]]) -> list[StoredEvent]:
    """The rows (version, topic, state) of one stream as the library's StoredEvents, the same
    values built without the frozen dataclass's `__init__`: its four `object.__setattr__` a
    row were as much CPU as the database's read of the row (verify reads every stream)."""
    events = []
    for version, topic, state in rows:
        event = _new(StoredEvent)
        event.__dict__.update(originator_id=stream, originator_version=version, topic=topic,
                              state=state)
        events.append(event)
    return events


_new = object.__new__


def head_not_continued(stream: UUID, version: int) -> Said:
    """A write whose first event of `stream` is `version` but the stored head moved meanwhile."""
    return say("stream {stream}: event {version} does not continue the stored head of its "
               "stream", stream=str(stream), version=version)


def _as_uuid(value: UUID | str) -> UUID:
    return value if isinstance(value, UUID) else UUID(value)


class ChainedSQLiteRecorder(SQLiteApplicationRecorder):
    def __init__(self, datastore: Any, events_table_name: str = EVENTS_TABLE,
                 heads_table: str = HEADS_TABLE) -> None:
        self.heads_table = heads_table
        super().__init__(datastore, events_table_name)

    def construct_create_table_statements(self) -> list[str]:
        return [*super().construct_create_table_statements(), *self.guard_statements(),
                *sqlite_marker_statements()]

    def guard_statements(self) -> list[str]:
        """The heads table and the append-only triggers (idempotent)."""
        events, heads = self.events_table_name, self.heads_table
        refuse = "SELECT RAISE(ABORT, 'verbale: {op} on {table} refused: " + APPEND_ONLY + "')"
        return [
            f"CREATE TABLE IF NOT EXISTS {heads} (stream_id TEXT PRIMARY KEY, "
            "version INTEGER NOT NULL, head_hash TEXT NOT NULL) WITHOUT ROWID",
            f"CREATE TRIGGER IF NOT EXISTS {events}_no_update BEFORE UPDATE ON {events} "
            f"BEGIN {refuse.format(op='UPDATE', table=events)}; END",
            f"CREATE TRIGGER IF NOT EXISTS {events}_no_delete BEFORE DELETE ON {events} "
            f"BEGIN {refuse.format(op='DELETE', table=events)}; END",
            f"CREATE TRIGGER IF NOT EXISTS {heads}_no_delete BEFORE DELETE ON {heads} "
            f"BEGIN {refuse.format(op='DELETE', table=heads)}; END",
            f"CREATE TRIGGER IF NOT EXISTS {heads}_forward BEFORE UPDATE ON {heads} "
            "WHEN NEW.version <= OLD.version OR NEW.stream_id <> OLD.stream_id "
            f"BEGIN {refuse.format(op='backward UPDATE', table=heads)}; END",
        ]

    def _create_table(self, c: SQLiteCursor) -> None:
        super()._create_table(c)
        sqlite_create(c, self.events_table_name)

    def _insert_events(self, c: SQLiteCursor, stored_events: Sequence[StoredEvent],
                       **kwargs: Any) -> Sequence[int] | None:
        advances = chain_advances(stored_events)
        ids = self._insert_rows(c, stored_events)
        sqlite_register(c, stored_events)
        for stream, from_version, from_hash, to_version, to_hash in advances:
            if from_version == 0:
                c.execute(f"INSERT INTO {self.heads_table} VALUES (?,?,?)",
                          (stream.hex, to_version, to_hash))
                continue
            c.execute(f"UPDATE {self.heads_table} SET version=?, head_hash=? "
                      "WHERE stream_id=? AND version=? AND head_hash=?",
                      (to_version, to_hash, stream.hex, from_version, from_hash))
            if c.sqlite_cursor.rowcount != 1:
                raise ChainError(head_not_continued(stream, from_version + 1))
        return ids

    def _insert_rows(self, c: SQLiteCursor, stored_events: Sequence[StoredEvent]) -> list[int]:
        """One executemany instead of the library's statement per row. Within the write
        transaction SQLite gives each new row the largest rowid plus one, so the notification
        ids are the last n rowids."""
        hexes: dict[UUID | str, str] = {}
        for s in stored_events:
            if s.originator_id not in hexes:
                hexes[s.originator_id] = _as_uuid(s.originator_id).hex
        c.executemany(self.insert_events_statement, [
            (hexes[s.originator_id], s.originator_version, s.topic, s.state)
            for s in stored_events])
        c.execute(self.select_max_notification_id_statement)
        last = int(c.fetchone()[0])
        return list(range(last - len(stored_events) + 1, last + 1))

    def select_events(self, originator_id: UUID | str, *, gt: int | None = None,
                      lte: int | None = None, desc: bool = False,
                      limit: int | None = None) -> Sequence[StoredEvent]:
        """The library's select; a whole stream (every load and verify asks for one) is read
        without the column it is selected by, each row given the UUID asked for rather than
        one parsed again from its text."""
        if not isinstance(originator_id, UUID) or desc \
                or (gt, lte, limit) != (None, None, None):
            return super().select_events(originator_id, gt=gt, lte=lte, desc=desc, limit=limit)
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT originator_version, topic, state FROM {self.events_table_name} "
                      "WHERE originator_id=? ORDER BY originator_version", (originator_id.hex,))
            return stream_events(originator_id, c.fetchall())

    def select_heads(self) -> list[Head]:
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT stream_id, version, head_hash FROM {self.heads_table}")
            return [(UUID(r[0]), r[1], r[2]) for r in c.fetchall()]

    def select_stream_ids(self) -> list[UUID]:
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT DISTINCT originator_id FROM {self.events_table_name}")
            return [UUID(r[0]) for r in c.fetchall()]

    def select_head(self, stream: UUID) -> Head | None:
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT stream_id, version, head_hash FROM {self.heads_table} "
                      "WHERE stream_id=?", (stream.hex,))
            row = c.fetchone()
            return None if row is None else (UUID(row[0]), row[1], row[2])

    # ---- listing and id prefixes (projections/store/listing.py, replay_web/match_ids.py) ----

    def select_streams_between(self, low: UUID, high: UUID, limit: int) -> list[UUID]:
        """The streams whose ids lie in [low, high] (the range of an id prefix), in id order,
        at most `limit`: a range of the primary key."""
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT DISTINCT originator_id FROM {self.events_table_name} "
                      "WHERE originator_id BETWEEN ? AND ? ORDER BY originator_id LIMIT ?",
                      (low.hex, high.hex, limit))
            return [UUID(r[0]) for r in c.fetchall()]

    def select_first_events(self) -> list[tuple[StoredEvent, int]]:
        """Every stream's first event with the stream's head version: one primary-key lookup
        per head."""
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT h.stream_id, h.version, e.topic, e.state FROM {self.heads_table} "
                      f"AS h CROSS JOIN {self.events_table_name} AS e ON e.originator_id = "
                      "h.stream_id AND e.originator_version = 1")
            return [(StoredEvent(UUID(r[0]), 1, r[2], r[3]), r[1]) for r in c.fetchall()]

    def select_last_events(self, streams: Sequence[UUID], count: int,
                           topic: str) -> list[StoredEvent]:
        """The events of `topic` among the last `count` of each of `streams` (up to its head),
        in stream order."""
        found: list[StoredEvent] = []
        for chunk in _chunks(streams):
            marks = ",".join("?" * len(chunk))
            with self.datastore.transaction(commit=False) as c:
                c.execute(f"SELECT e.originator_id, e.originator_version, e.topic, e.state FROM "
                          f"{self.heads_table} AS h CROSS JOIN {self.events_table_name} AS e "
                          "ON e.originator_id = h.stream_id AND e.originator_version > "
                          f"h.version - ? WHERE h.stream_id IN ({marks}) AND e.topic = ? "
                          "ORDER BY e.originator_id, e.originator_version",
                          (count, *(s.hex for s in chunk), topic))
                found.extend(StoredEvent(UUID(r[0]), r[1], r[2], r[3]) for r in c.fetchall())
        return found

    def count_topics(self, streams: Sequence[UUID],
                     topics: Sequence[str]) -> dict[tuple[UUID, str], int]:
        """How many events of each of `topics` each of `streams` holds (absent: none); reads
        the topic column only."""
        counts: dict[tuple[UUID, str], int] = {}
        kinds = ",".join("?" * len(topics))
        for chunk in _chunks(streams):
            marks = ",".join("?" * len(chunk))
            with self.datastore.transaction(commit=False) as c:
                c.execute(f"SELECT originator_id, topic, COUNT(*) FROM {self.events_table_name} "
                          f"WHERE originator_id IN ({marks}) AND topic IN ({kinds}) "
                          "GROUP BY originator_id, topic",
                          (*(s.hex for s in chunk), *topics))
                counts.update(((UUID(r[0]), r[1]), r[2]) for r in c.fetchall())
        return counts


def _chunks(streams: Sequence[UUID], size: int = 500) -> list[Sequence[UUID]]:
    """`streams` in slices small enough for SQLite's limit on bound parameters."""
    return [streams[i:i + size] for i in range(0, len(streams), size)]
