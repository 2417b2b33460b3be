"""The PostgreSQL recorder of the store: the library's application recorder with the hash
chain, the stream heads and the append-only triggers (recorders.py describes the guarantees;
this module is imported only when a PostgreSQL URL is used, so that an SQLite run never loads
psycopg)."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from eventsourcing.postgres import PostgresAggregateRecorder, PostgresApplicationRecorder
from psycopg import Cursor
from psycopg.errors import DuplicateObject
from psycopg.rows import DictRow, tuple_row
from psycopg.sql import SQL, Composed, Identifier

from projections.store.recorders import (
    APPEND_ONLY,
    DDL_LOCK,
    MARKER_ROW,
    MARKER_TABLE,
    SCHEMA_VERSION,
    Advance,
    ChainError,
    Head,
    chain_advances,
    head_not_continued,
    stream_events,
)
from projections.store.seed_registry_postgres import postgres_create, postgres_register


class ChainedPostgresRecorder(PostgresApplicationRecorder):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.heads_table = self.events_table_name.removesuffix("_events") + "_heads"
        self.sql_create_statements.extend(self._guard_statements())
        self._whole_stream = SQL(
            "SELECT originator_version, topic, state FROM {schema}.{events} "
            "WHERE originator_id = %s ORDER BY originator_version").format(**self._names())

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
            "CREATE TABLE IF NOT EXISTS {schema}.{marker} (schema_version integer NOT NULL, "
            "written_by text NOT NULL)",
            "INSERT INTO {schema}.{marker} SELECT " + str(SCHEMA_VERSION) + ", " + MARKER_ROW
            + " WHERE NOT EXISTS (SELECT 1 FROM {schema}.{marker})",
        ]
        return [SQL(s).format(**names, marker=Identifier(MARKER_TABLE)) for s in statements]

    def create_table(self) -> None:
        # Processes starting together would deadlock on each other's DDL: one at a time, under
        # a session advisory lock, all on one connection (a process needs no second one).
        with self.datastore.get_connection() as conn:
            conn.execute("SELECT pg_advisory_lock(%s)", (DDL_LOCK,))
            try:
                with conn.transaction():
                    conn.execute(SQL("CREATE SCHEMA IF NOT EXISTS {0}").format(
                        Identifier(self.datastore.schema)))
                for statement in self.sql_create_statements:
                    if "CREATE TYPE" in statement.as_string():
                        # No IF NOT EXISTS for types: each in its own transaction.
                        with contextlib.suppress(DuplicateObject), conn.transaction():
                            conn.execute(statement, prepare=False)
                with conn.transaction(), conn.cursor() as curs:
                    self._create_table(curs)
                    postgres_create(curs, self.datastore.schema, self.events_table_name)
            finally:
                if not conn.closed:
                    conn.execute("SELECT pg_advisory_unlock(%s)", (DDL_LOCK,))
        self.datastore.register_type_adapters()

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
                postgres_register(curs, self.datastore.schema, self.events_table_name,
                                  stored_events)
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
                raise ChainError(head_not_continued(stream, from_version + 1))

    def select_events(self, originator_id: UUID | str, *, gt: int | None = None,
                      lte: int | None = None, desc: bool = False,
                      limit: int | None = None) -> Sequence[StoredEvent]:
        """The library's select; a whole stream is read without the column it is selected by,
        each row given the UUID asked for (as the SQLite recorder does, recorders.py), in
        PostgreSQL's binary format (a bytea comes as its bytes, not as hex to decode: half the
        CPU of the read here)."""
        if not isinstance(originator_id, UUID) or desc \
                or (gt, lte, limit) != (None, None, None):
            some: Sequence[StoredEvent] = super().select_events(originator_id, gt=gt, lte=lte,
                                                                desc=desc, limit=limit)
            return some
        with self.datastore.get_connection() as conn, \
                conn.cursor(row_factory=tuple_row, binary=True) as curs:
            curs.execute(self._whole_stream, (originator_id,), prepare=True)
            return stream_events(originator_id, curs.fetchall())

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

    # ---- listing and id prefixes (projections/store/listing.py, replay_web/match_ids.py) ----

    def select_streams_between(self, low: UUID, high: UUID, limit: int) -> list[UUID]:
        """The streams whose ids lie in [low, high] (the range of an id prefix), in id order,
        at most `limit`: a range of the primary key (uuid order is byte order)."""
        rows = self._select("SELECT DISTINCT originator_id FROM {schema}.{events} WHERE "
                            "originator_id BETWEEN %s AND %s ORDER BY originator_id LIMIT %s",
                            (low, high, limit))
        return [r["originator_id"] for r in rows]

    def select_first_events(self) -> list[tuple[StoredEvent, int]]:
        """Every stream's first event with the stream's head version: one primary-key lookup
        per head."""
        rows = self._select("SELECT h.stream_id, h.version, e.topic, e.state FROM "
                            "{schema}.{heads} AS h JOIN {schema}.{events} AS e ON "
                            "e.originator_id = h.stream_id AND e.originator_version = 1")
        return [(StoredEvent(r["stream_id"], 1, r["topic"], bytes(r["state"])), r["version"])
                for r in rows]

    def select_last_events(self, streams: Sequence[UUID], count: int,
                           topic: str) -> list[StoredEvent]:
        """The events of `topic` among the last `count` of each of `streams` (up to its head),
        in stream order."""
        # LATERAL ... OFFSET 0: a primary-key probe per stream; as a plain join the planner
        # prefers a scan of the whole events table for the topic.
        rows = self._select("SELECT e.originator_id, e.originator_version, e.topic, e.state "
                            "FROM {schema}.{heads} AS h CROSS JOIN LATERAL (SELECT * FROM "
                            "{schema}.{events} AS x WHERE x.originator_id = h.stream_id AND "
                            "x.originator_version > h.version - %s AND x.topic = %s OFFSET 0) "
                            "AS e WHERE h.stream_id = ANY(%s) "
                            "ORDER BY e.originator_id, e.originator_version",
                            (count, topic, list(streams)))
        return [StoredEvent(r["originator_id"], r["originator_version"], r["topic"],
                            bytes(r["state"])) for r in rows]

    def count_topics(self, streams: Sequence[UUID],
                     topics: Sequence[str]) -> dict[tuple[UUID, str], int]:
        """How many events of each of `topics` each of `streams` holds (absent: none); reads
        the topic column only."""
        # One primary-key range per stream (LATERAL), not a scan of the whole table.
        rows = self._select("SELECT s.id, n.topic, n.n FROM unnest(%s::uuid[]) AS s(id) CROSS "
                            "JOIN LATERAL (SELECT x.topic, COUNT(*) AS n FROM {schema}.{events} "
                            "AS x WHERE x.originator_id = s.id AND x.topic = ANY(%s) "
                            "GROUP BY x.topic) AS n", (list(streams), list(topics)))
        return {(r["id"], r["topic"]): r["n"] for r in rows}
