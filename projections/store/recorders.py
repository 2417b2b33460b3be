"""The library's SQLite and PostgreSQL application recorders, with the hash chain and guards.

In the same transaction as the events, the recorder checks that each new event's
`previous_hash` is the hash of the event before it (the stored head for the first one of a
stream) and moves the stream's head (`version`, `head_hash`) forward: a write that would fork or
skip the chain is refused and nothing is stored. The database itself refuses UPDATE and DELETE
on the events table and any backward move of a head (triggers, on both databases).
Selected by APPLICATION_RECORDER_TOPIC (app.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from eventsourcing.postgres import PostgresAggregateRecorder, PostgresApplicationRecorder
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteCursor
from psycopg import Cursor
from psycopg.rows import DictRow
from psycopg.sql import SQL, Composed, Identifier

from projections.store.canonical import GENESIS, event_hash, previous_hash_of

APPEND_ONLY = "the event store is append-only"
_DDL_LOCK = 0x76657262616C65   # "verbale": the advisory lock key of the store's DDL


class ChainError(ValueError):
    """A write whose events do not continue their stream's hash chain."""


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
        raise ChainError(f"stream {stream}: event 1 must have previous_hash {GENESIS}")
    version = first.originator_version - 1
    for stored in events:
        if stored.originator_version != version + 1:
            raise ChainError(f"stream {stream}: event {stored.originator_version} follows "
                             f"event {version}")
        if previous_hash_of(stored.state) != expected:
            raise ChainError(f"stream {stream}: event {stored.originator_version} does not "
                             f"carry the hash of event {version}")
        expected = event_hash(stored.state)
        version = stored.originator_version
    return (stream, start[0], start[1], version, expected)


def _as_uuid(value: UUID | str) -> UUID:
    return value if isinstance(value, UUID) else UUID(value)


class ChainedSQLiteRecorder(SQLiteApplicationRecorder):
    heads_table = "stream_heads"

    def construct_create_table_statements(self) -> list[str]:
        events, heads = self.events_table_name, self.heads_table
        refuse = "SELECT RAISE(ABORT, 'verbale: {op} on {table} refused: " + APPEND_ONLY + "')"
        return [
            *super().construct_create_table_statements(),
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

    def _insert_events(self, c: SQLiteCursor, stored_events: Sequence[StoredEvent],
                       **kwargs: Any) -> Sequence[int] | None:
        advances = chain_advances(stored_events)
        ids = self._insert_rows(c, stored_events)
        for stream, from_version, from_hash, to_version, to_hash in advances:
            if from_version == 0:
                c.execute(f"INSERT INTO {self.heads_table} VALUES (?,?,?)",
                          (stream.hex, to_version, to_hash))
                continue
            c.execute(f"UPDATE {self.heads_table} SET version=?, head_hash=? "
                      "WHERE stream_id=? AND version=? AND head_hash=?",
                      (to_version, to_hash, stream.hex, from_version, from_hash))
            if c.sqlite_cursor.rowcount != 1:
                raise ChainError(f"stream {stream}: event {from_version + 1} does not continue "
                                 "the stored head of its stream")
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


class ChainedPostgresRecorder(PostgresApplicationRecorder):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.heads_table = self.events_table_name.removesuffix("_events") + "_heads"
        self.sql_create_statements.extend(self._guard_statements())

    def _names(self) -> dict[str, Identifier]:
        return {"schema": Identifier(self.datastore.schema),
                "events": Identifier(self.events_table_name),
                "heads": Identifier(self.heads_table)}

    def _guard_statements(self) -> list[Composed]:
        names = self._names()
        statements = [
            "CREATE TABLE IF NOT EXISTS {schema}.{heads} (stream_id uuid PRIMARY KEY, "
            "version bigint NOT NULL, head_hash text NOT NULL)",
            "CREATE OR REPLACE FUNCTION {schema}.verbale_refuse_change() RETURNS trigger "
            "LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'verbale: % on %.% refused: "
            + APPEND_ONLY + "', TG_OP, TG_TABLE_SCHEMA, TG_TABLE_NAME; END $$",
            "CREATE OR REPLACE FUNCTION {schema}.verbale_head_forward() RETURNS trigger "
            "LANGUAGE plpgsql AS $$ BEGIN IF NEW.version <= OLD.version OR "
            "NEW.stream_id <> OLD.stream_id THEN RAISE EXCEPTION 'verbale: backward UPDATE on "
            "%.% refused: " + APPEND_ONLY + "', TG_TABLE_SCHEMA, TG_TABLE_NAME; END IF; "
            "RETURN NEW; END $$",
            "CREATE OR REPLACE TRIGGER verbale_append_only BEFORE UPDATE OR DELETE ON "
            "{schema}.{events} FOR EACH ROW EXECUTE FUNCTION {schema}.verbale_refuse_change()",
            "CREATE OR REPLACE TRIGGER verbale_no_truncate BEFORE TRUNCATE ON {schema}.{events} "
            "FOR EACH STATEMENT EXECUTE FUNCTION {schema}.verbale_refuse_change()",
            "CREATE OR REPLACE TRIGGER verbale_head_no_delete BEFORE DELETE ON {schema}.{heads} "
            "FOR EACH ROW EXECUTE FUNCTION {schema}.verbale_refuse_change()",
            "CREATE OR REPLACE TRIGGER verbale_head_no_truncate BEFORE TRUNCATE ON "
            "{schema}.{heads} FOR EACH STATEMENT EXECUTE FUNCTION "
            "{schema}.verbale_refuse_change()",
            "CREATE OR REPLACE TRIGGER verbale_head_forward BEFORE UPDATE ON {schema}.{heads} "
            "FOR EACH ROW EXECUTE FUNCTION {schema}.verbale_head_forward()",
        ]
        return [SQL(s).format(**names) for s in statements]

    def create_table(self) -> None:
        # Processes starting together would deadlock on each other's DDL: one at a time, under
        # a session advisory lock held on its own connection while the DDL runs on others.
        with self.datastore.get_connection() as guard:
            guard.execute("SELECT pg_advisory_lock(%s)", (_DDL_LOCK,))
            try:
                with self.datastore.transaction(commit=True) as curs:
                    curs.execute(SQL("CREATE SCHEMA IF NOT EXISTS {0}").format(
                        Identifier(self.datastore.schema)))
                super().create_table()
            finally:
                guard.execute("SELECT pg_advisory_unlock(%s)", (_DDL_LOCK,))

    def insert_events(self, stored_events: Sequence[StoredEvent],
                      **kwargs: Any) -> Sequence[int] | None:
        if not stored_events:
            return []
        advances = chain_advances(stored_events)
        with self.datastore.get_connection() as conn, conn.transaction():
            with conn.cursor() as curs:
                self._lock_table(curs)
                self._notify_channel(curs)
                PostgresAggregateRecorder._insert_stored_events(self, curs, stored_events)
                ids = [row["notification_id"] for row in curs.fetchall()]
            with conn.cursor() as curs:
                self._advance_heads(curs, advances)
        return ids

    def _advance_heads(self, curs: Cursor[DictRow], advances: list[Advance]) -> None:
        names = self._names()
        insert = SQL("INSERT INTO {schema}.{heads} VALUES (%s, %s, %s)").format(**names)
        update = SQL("UPDATE {schema}.{heads} SET version = %s, head_hash = %s WHERE "
                     "stream_id = %s AND version = %s AND head_hash = %s").format(**names)
        for stream, from_version, from_hash, to_version, to_hash in advances:
            if from_version == 0:
                curs.execute(insert, (stream, to_version, to_hash))
                continue
            curs.execute(update, (to_version, to_hash, stream, from_version, from_hash))
            if curs.rowcount != 1:
                raise ChainError(f"stream {stream}: event {from_version + 1} does not continue "
                                 "the stored head of its stream")

    def _select(self, query: str, params: tuple[Any, ...] = ()) -> list[DictRow]:
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(SQL(query).format(**self._names()), params)
            return curs.fetchall()

    def select_heads(self) -> list[Head]:
        rows = self._select("SELECT stream_id, version, head_hash FROM {schema}.{heads}")
        return [(r["stream_id"], r["version"], r["head_hash"]) for r in rows]

    def select_stream_ids(self) -> list[UUID]:
        rows = self._select("SELECT DISTINCT originator_id FROM {schema}.{events}")
        return [r["originator_id"] for r in rows]

    def select_head(self, stream: UUID) -> Head | None:
        rows = self._select("SELECT stream_id, version, head_hash FROM {schema}.{heads} "
                            "WHERE stream_id = %s", (stream,))
        return None if not rows else (rows[0]["stream_id"], rows[0]["version"],
                                      rows[0]["head_hash"])
