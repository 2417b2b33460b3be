"""UPDATE and DELETE on the event table fail in the database itself, on both databases."""

from __future__ import annotations

import pytest

from projections.store.app import MatchStore
from tests.projections.conftest import Backend
from tests.projections.store.recording import record_toy_match


@pytest.mark.parametrize("statement", [
    "UPDATE {table} SET topic = 'x'",
    "UPDATE {table} SET state = state",
    "DELETE FROM {table}",
    "DELETE FROM {table} WHERE originator_version = 1",
])
def test_changing_or_removing_stored_events_is_refused(store: MatchStore, backend: Backend,
                                                       statement: str) -> None:
    loaded = record_toy_match(store, 3)
    before = [(r.originator_version, r.topic, r.state) for r in store.stored(loaded.stream)]
    conn = backend.connect()
    try:
        with pytest.raises(Exception, match="append-only"):
            conn.execute(statement.format(table=backend.events_table))
    finally:
        conn.close()
    after = [(r.originator_version, r.topic, r.state) for r in store.stored(loaded.stream)]
    assert after == before


def test_emptying_the_whole_table_is_refused(store: MatchStore, backend: Backend) -> None:
    """PostgreSQL's TRUNCATE bypasses row triggers, so it has a statement trigger of its own;
    SQLite has no TRUNCATE, and its way of emptying a table is a DELETE without WHERE."""
    loaded = record_toy_match(store, 4)
    empty = (f"TRUNCATE {backend.events_table}" if backend.kind == "postgres"
             else f"DELETE FROM {backend.events_table}")
    conn = backend.connect()
    try:
        with pytest.raises(Exception, match="append-only"):
            conn.execute(empty)
    finally:
        conn.close()
    assert len(store.stored(loaded.stream)) == loaded.version
