"""A stream's rows as verify's lean path reads them (issue 13): the version, topic and stored
bytes of each event, in version order, by the store's own connection, without the library's
StoredEvent and the UUID it makes of every row's stream id (a tenth of verify's time on the
lean path). The rows are those `MatchStore.stored` returns: the same table, the same stream
key, the same order; on a store of any other kind, `stored` itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from eventsourcing.postgres import PostgresAggregateRecorder
from eventsourcing.sqlite import SQLiteAggregateRecorder
from psycopg.rows import tuple_row
from psycopg.sql import SQL, Identifier

from projections.store.app import MatchStore


class Row(NamedTuple):
    """What verify reads of a stored event (the attributes of a StoredEvent it uses)."""

    originator_version: int
    topic: str
    state: bytes


Rows = Sequence[Row | StoredEvent]


def stream_rows(store: MatchStore, stream: UUID) -> Rows:
    recorder = store.recorder
    if isinstance(recorder, SQLiteAggregateRecorder):
        with recorder.datastore.transaction(commit=False) as cursor:
            cursor.execute(f"SELECT originator_version, topic, state FROM "
                           f"{recorder.events_table_name} WHERE originator_id=? "
                           f"ORDER BY originator_version ASC", [stream.hex])
            return [Row(*found) for found in cursor.fetchall()]
    if isinstance(recorder, PostgresAggregateRecorder):
        statement = SQL("SELECT originator_version, topic, state FROM {schema}.{table} WHERE "
                        "originator_id = %s ORDER BY originator_version ASC").format(
            schema=Identifier(recorder.datastore.schema),
            table=Identifier(recorder.events_table_name))
        with recorder.datastore.get_connection() as conn, \
                conn.cursor(row_factory=tuple_row) as cursor:
            cursor.execute(statement, [stream], prepare=True)
            return [Row(version, topic, bytes(state))
                    for version, topic, state in cursor.fetchall()]
    return store.stored(stream)
