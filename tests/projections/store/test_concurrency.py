"""Two writers appending to the same match: one wins, the other gets a clear conflict error."""

from __future__ import annotations

import threading

import pytest

from domain.record.decide import decide
from domain.record.simulate import Incidents, Table, next_command
from domain.shuffle import Seed
from projections.store.app import ConcurrencyConflict, MatchStore
from projections.verify.streams import verify_store
from tests.domain.record.toy import TOY_CATALOG
from tests.projections.conftest import Backend
from tests.projections.store.recording import BY, START, record_toy_match, toy_bot


def test_the_second_writer_of_the_same_version_gets_a_conflict_and_nothing_doubles(
        store: MatchStore, backend: Backend) -> None:
    loaded = record_toy_match(store, 21, stop_after=3)
    other = MatchStore(url=backend.url, catalog=TOY_CATALOG)
    try:
        mine, theirs = store.load(loaded.stream), other.load(loaded.stream)
        table = Table(Seed(bytes([21, 0]) * 8), toy_bot, Incidents())
        step = next_command(mine.state, table, START.replace(hour=19))
        assert step is not None
        command, at, _ = step
        store.execute(loaded.stream, command, at, BY, mine)
        with pytest.raises(ConcurrencyConflict, match="another writer"):
            other.execute(loaded.stream, command, at, BY, theirs)
    finally:
        other.close()
    stored = store.stored(loaded.stream)
    assert [r.originator_version for r in stored] == list(range(1, len(stored) + 1))
    assert store.load(loaded.stream).version == mine.version + len(decide(mine.state, command,
                                                                         at))


def test_racing_writers_lose_nothing_and_double_nothing(store: MatchStore,
                                                        backend: Backend) -> None:
    loaded = record_toy_match(store, 22, stop_after=1)
    table = Table(Seed(bytes([22, 0]) * 8), toy_bot, Incidents())
    conflicts: list[str] = []
    applied: list[int] = []

    errors: list[BaseException] = []

    def writer() -> None:
        app = MatchStore(url=backend.url, catalog=TOY_CATALOG)
        try:
            _race(app, loaded.stream, table, conflicts, applied)
        except BaseException as error:  # surfaced below, in the test's thread
            errors.append(error)
        finally:
            app.close()

    threads = [threading.Thread(target=writer) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    final = store.load(loaded.stream)
    assert final.state.result is not None
    assert final.version == loaded.version + sum(applied)
    assert all(v.ok for v in verify_store(store))


def _race(app: MatchStore, stream: object, table: Table, conflicts: list[str],
          applied: list[int]) -> None:
    while True:
        current = app.load(stream)  # type: ignore[arg-type]
        at = current.state.last_at
        step = next_command(current.state, table, at)
        if step is None:
            return
        command, at, _ = step
        events = decide(current.state, command, at)
        try:
            app.execute(current.stream, command, at, BY, current)
            applied.append(len(events))
        except ConcurrencyConflict as conflict:
            conflicts.append(str(conflict))
