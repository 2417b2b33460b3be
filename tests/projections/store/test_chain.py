"""The hash chain and the stream heads, written by the recorder in the events' transaction."""

from __future__ import annotations

import hashlib
import json

import pytest

from domain.record.events import SeedCommitted
from projections.store.app import MatchStore, chain_facts
from projections.store.canonical import GENESIS
from projections.store.recorders import ChainError
from tests.projections.conftest import Backend
from tests.projections.store.recording import BY, START, record_toy_match


def test_each_event_carries_the_hash_of_the_one_before_and_the_head_is_the_last(
        store: MatchStore) -> None:
    loaded = record_toy_match(store, 7)
    stored = store.stored(loaded.stream)
    previous = GENESIS
    for row in stored:
        record = json.loads(row.state)
        assert record["previous_hash"] == previous
        previous = hashlib.sha256(row.state).hexdigest()
    assert store.chained.select_head(loaded.stream) == (loaded.stream, len(stored), previous)
    assert loaded.head == previous


def test_a_write_that_does_not_continue_the_chain_is_refused_and_nothing_is_stored(
        store: MatchStore) -> None:
    loaded = record_toy_match(store, 8, stop_after=2)
    forged, _ = chain_facts(loaded.stream, loaded.version, "f" * 64,
                            (SeedCommitted(smazzata=9, commitment="a" * 64),), START, BY)
    with pytest.raises(ChainError, match=r"does not continue|carry the hash"):
        store._save(forged)
    assert len(store.stored(loaded.stream)) == loaded.version
    assert store.chained.select_head(loaded.stream) == (loaded.stream, loaded.version,
                                                       loaded.head)


def test_a_new_stream_must_start_from_genesis(store: MatchStore) -> None:
    loaded = record_toy_match(store, 9, stop_after=1)
    import uuid
    other = uuid.uuid4()
    forged, _ = chain_facts(other, 0, loaded.head, (SeedCommitted(smazzata=1,
                                                                  commitment="b" * 64),), START, BY)
    with pytest.raises(ChainError, match="previous_hash"):
        store._save(forged)
    assert store.stored(other) == []


def test_the_head_moves_only_forward_in_the_database(store: MatchStore,
                                                    backend: Backend) -> None:
    loaded = record_toy_match(store, 10)
    p = backend.placeholder()
    conn = backend.connect()
    try:
        with pytest.raises(Exception, match="append-only"):
            conn.execute(f"UPDATE {backend.heads_table} SET version = 1 WHERE version = {p}",
                         (loaded.version,))
        with pytest.raises(Exception, match="append-only"):
            conn.execute(f"DELETE FROM {backend.heads_table}")
    finally:
        conn.close()
    assert store.chained.select_head(loaded.stream) == (loaded.stream, loaded.version,
                                                       loaded.head)
