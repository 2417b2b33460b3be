"""The read models kept live (projections/read_models/follow.py): the library's ProjectionRunner
on PostgreSQL, polling on SQLite, and the one position both share with the batch catch-up."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import cast
from uuid import NAMESPACE_URL, uuid5

import pytest
from eventsourcing.persistence import Notification, Tracking
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.demo.matches import demo_set
from domain.shuffle import Seed
from projections.read_models.engine import writing
from projections.read_models.follow import ReadModelView, poll, runner, runner_env
from projections.read_models.project import (
    TrackingMoved,
    catch_up,
    fold_tracked,
    position,
    rebuild,
)
from projections.read_models.schema import ensure_schema, reset
from projections.store.app import MatchStore
from projections.store.facts import StoredFact
from replay_web.cli_store import record_match
from tests.projections.conftest import Backend, make_backend
from tests.projections.read_models.rows import opened, table_rows

SEED = "5eed00000000000000000000000000f1"




@pytest.fixture
def postgres(tmp_path: Path) -> Iterator[Backend]:
    yield from make_backend("postgres", tmp_path)


def _record(store: MatchStore, first: int, count: int) -> None:
    """Demo matches `first` to `first + count - 1` of SEED's set, through the store alone (no
    catch-up: what a writer that is not the CLI leaves behind)."""
    for index, demo in enumerate(demo_set(Seed.from_hex(SEED), first + count)[first:]):
        record_match(store, uuid5(NAMESPACE_URL, f"follow:{first + index}"), demo)


def _log(store: MatchStore) -> list[Notification]:
    return list(store.recorder.select_notifications(0, 1_000_000))


def _fact(store: MatchStore, notification: Notification) -> StoredFact:
    return cast(StoredFact, store.mapper.to_domain_event(notification))


def _until(done: Callable[[], bool], what: str, seconds: float = 60) -> None:
    """Wait for `done` (a timeout only keeps a broken follower from hanging the suite)."""
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            pytest.fail(f"still waiting for {what} after {seconds} s")
        time.sleep(0.05)


_STEPS = st.lists(st.one_of(st.tuples(st.just("runner"), st.integers(1, 25)),
                            st.tuples(st.just("again"), st.integers(0, 10_000)),
                            st.tuples(st.just("catch-up"), st.integers(1, 40))),
                  max_size=8)


def test_runner_and_catch_ups_interleaved_fold_each_event_once(backend: Backend) -> None:
    """Whatever the interleaving of single events (the runner's, from its own cursor, which a
    catch-up may overtake) and batch catch-ups, the tables end as a rebuild's, and an event at
    or before the position is never folded again."""
    with opened(backend.url) as (store, engine):
        _record(store, 0, 2)
        rebuild(store, engine)
        clean = table_rows(engine)
        events = _log(store)

        @settings(max_examples=12)
        @given(_STEPS)
        def check(steps: list[tuple[str, int]]) -> None:
            with writing(engine).begin() as conn:
                reset(conn)
            cursor = 0
            for kind, n in steps:
                if kind == "catch-up":
                    catch_up(store, engine, batch=n)
                elif kind == "again" and cursor:
                    seen = events[n % cursor]
                    assert not fold_tracked(engine, _fact(store, seen),
                                            Tracking(store.name, seen.id))
                elif kind == "runner":
                    for notification in events[cursor:cursor + n]:
                        before = position(engine, store.name)
                        folded = fold_tracked(engine, _fact(store, notification),
                                              Tracking(store.name, notification.id))
                        assert folded == (before is None or notification.id > before)
                    cursor = min(len(events), cursor + n)
            catch_up(store, engine)
            assert table_rows(engine) == clean

        check()


def test_polling_follows_what_is_recorded(backend: Backend) -> None:
    with opened(backend.url) as (store, engine):
        _record(store, 0, 1)
        ensure_schema(engine)   # the tables exist before the poll's first catch-up is looked at
        stop, reads = threading.Event(), list[int]()
        follower = threading.Thread(target=poll, args=(store, engine, stop, reads.append, 0.05,
                                                       40))
        follower.start()
        try:
            _record(store, 1, 2)
            last = store.recorder.max_notification_id()
            _until(lambda: position(engine, store.name) == last, "the poll to catch up")
        finally:
            stop.set()
            follower.join()
        assert sum(reads) == last and reads[0] > 0
        followed = table_rows(engine)
        assert len(followed["rm_partite"]) == 3
        rebuild(store, engine)
        assert table_rows(engine) == followed


def test_the_runner_follows_new_events_from_the_shared_position(postgres: Backend) -> None:
    with opened(postgres.url) as (store, engine):
        _record(store, 0, 1)
        catch_up(store, engine, batch=30)   # what `verbale project --follow` does first
        with runner(postgres.url) as running:
            try:
                _record(store, 1, 2)
                last = store.recorder.max_notification_id()
                _until(lambda: position(engine, store.name) == last, "the runner")
                running.wait(last, timeout=5)
                assert running.view.has_tracking_id(store.name, last)
            finally:
                running.view.dispose()
        followed = table_rows(engine)
        assert len(followed["rm_partite"]) == 3
        assert catch_up(store, engine) == 0
        assert table_rows(engine) == followed
        rebuild(store, engine)
        assert table_rows(engine) == followed


def test_the_view_keeps_the_batches_position(postgres: Backend) -> None:
    with opened(postgres.url) as (store, engine):
        _record(store, 0, 1)
        catch_up(store, engine)
        at = position(engine, store.name)
        assert at is not None
        with runner(postgres.url) as running:
            view = running.view
            try:
                assert isinstance(view, ReadModelView)
                assert view.max_tracking_id(store.name) == at
                view.insert_tracking(Tracking("elsewhere", 7))
                assert view.max_tracking_id("elsewhere") == 7
                with pytest.raises(TrackingMoved):   # compare and set: forward only
                    view.insert_tracking(Tracking("elsewhere", 5))
                assert view.has_tracking_id(store.name, at)
                assert not view.has_tracking_id(store.name, at + 1)
                view.wait(store.name, at, timeout=1)
                with pytest.raises(TimeoutError):
                    view.wait(store.name, at + 1, timeout=0.3)
            finally:
                view.dispose()


def test_the_runner_is_for_postgresql_only(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="PostgreSQL"):
        runner_env(f"sqlite:///{tmp_path / 'verbale.db'}")
