"""The seed registry (seed_registry.py) on PostgreSQL: the same table, its guards and its
checks, on the recorder's connection (imported only with a PostgreSQL store)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import StoredEvent
from psycopg import Cursor
from psycopg.rows import DictRow
from psycopg.sql import SQL, Identifier

from projections.store.seed_registry import (
    FIELDS,
    SEEDS_TABLE,
    SeedReused,
    entries,
    entries_of,
    topics_indexed,
)


def _names(schema: str, events: str) -> dict[str, Identifier]:
    return {"schema": Identifier(schema), "seeds": Identifier(SEEDS_TABLE),
            "events": Identifier(events)}


def postgres_create(curs: Cursor[DictRow], schema: str, events: str) -> None:
    """Create the registry and its append-only guards if missing (under the store's DDL lock);
    a new registry indexes the events already stored, oldest first."""
    names = _names(schema, events)
    curs.execute("SELECT to_regclass(%s) AS found", (f"{schema}.{SEEDS_TABLE}",))
    row = curs.fetchone()
    if row is not None and row["found"] is not None:
        return
    curs.execute(SQL("CREATE TABLE {schema}.{seeds} (commitment text PRIMARY KEY, stream_id "
                     "text NOT NULL, version bigint NOT NULL, kind text NOT NULL)"
                     ).format(**names))
    curs.execute(SQL("CREATE OR REPLACE TRIGGER verbale_seeds_append_only BEFORE UPDATE OR "
                     "DELETE ON {schema}.{seeds} FOR EACH ROW EXECUTE FUNCTION "
                     "{schema}.verbale_refuse_change()").format(**names))
    curs.execute(SQL("CREATE OR REPLACE TRIGGER verbale_seeds_no_truncate BEFORE TRUNCATE ON "
                     "{schema}.{seeds} FOR EACH STATEMENT EXECUTE FUNCTION "
                     "{schema}.verbale_refuse_change()").format(**names))
    curs.execute(SQL("SELECT originator_id, originator_version, topic, state FROM "
                     "{schema}.{events} WHERE topic = ANY(%s) ORDER BY notification_id"
                     ).format(**names), (topics_indexed(),))
    old = [e for r in curs.fetchall() for e in entries_of(r["originator_id"],
                                                          r["originator_version"], r["state"],
                                                          r["topic"])]
    if old:
        curs.executemany(SQL("INSERT INTO {schema}.{seeds} VALUES (%s, %s, %s, %s) ON CONFLICT "
                             "DO NOTHING").format(**names), old)


def postgres_register(curs: Cursor[DictRow], schema: str, events: str,
                      stored_events: Sequence[StoredEvent]) -> None:
    """Register the commitments of `stored_events` in the transaction that inserts them; one
    already registered (by a committed writer, or earlier in the batch) raises SeedReused."""
    names = _names(schema, events)
    insert = SQL("INSERT INTO {schema}.{seeds} VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING"
                 ).format(**names)
    for entry in entries(stored_events):
        curs.execute(insert, entry)
        if curs.rowcount != 1:
            curs.execute(SQL("SELECT commitment, stream_id, version, kind FROM {schema}.{seeds} "
                             "WHERE commitment = %s").format(**names), (entry[0],))
            row: Any = curs.fetchone()
            raise SeedReused(entry, (row["commitment"], row["stream_id"], int(row["version"]),
                                     row["kind"]))


__all__ = ["FIELDS", "postgres_create", "postgres_register"]
