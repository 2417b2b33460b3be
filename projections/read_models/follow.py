"""Keeping the read models live: the library's ProjectionRunner on PostgreSQL, polling on SQLite.

On PostgreSQL the store's recorder is subscribed to (LISTEN/NOTIFY on the events table: each
insert notifies), and the runner hands each new event to `ReadModelProjection.process_event`,
which folds it and moves the tracking position to it in one transaction (project.py
`fold_tracked`). The position is the one `catch_up` moves (rm_tracking, compare and set): the
runner and any batch catch-up (a write command of the CLI, `verbale project`) share it, so an
event is folded by whichever moves the position past it first, and only once. The subscription is
not filtered by topic: an event that changes no row still moves its match's `version` and the
position, so that the runner's tables are a rebuild's and `wait(last notification)` returns.

SQLite has no subscription: `poll` catches up in batches, then waits, until asked to stop.
"""

from __future__ import annotations

from collections.abc import Callable
from threading import Event
from typing import Any, cast
from urllib.parse import quote, urlencode

from eventsourcing.dispatch import singledispatchmethod
from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresDatastore, PostgresTrackingRecorder
from eventsourcing.projection import Projection, ProjectionRunner
from sqlalchemy import Engine
from sqlalchemy.orm import Session

from domain.text import say
from projections.read_models.engine import read_model_engine, writing
from projections.read_models.project import (
    BATCH,
    Each,
    advance,
    catch_up,
    fold_tracked,
    position,
)
from projections.read_models.schema import ensure_schema
from projections.store.app import MatchStore
from projections.store.config import store_env
from projections.store.facts import StoredFact

INTERVAL = 0.5
"""Seconds between two catch-ups when polling (SQLite), and between two reports when following
with the runner."""


class ReadModelView(PostgresTrackingRecorder):
    """The runner's view: the read-model tables and their tracking position (rm_tracking), through
    a SQLAlchemy engine on the same database as the library's datastore. The library's own
    tracking table is never created: the position is the batches' one."""

    def __init__(self, datastore: PostgresDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        self.engine = read_model_engine(_url_of(datastore))

    def create_table(self) -> None:
        ensure_schema(self.engine)

    def insert_tracking(self, tracking: Tracking) -> None:
        start = position(self.engine, tracking.application_name)
        with Session(writing(self.engine)) as session, session.begin():
            advance(session, start, tracking)   # compare and set: from the position read

    def max_tracking_id(self, application_name: str) -> int | None:
        return position(self.engine, application_name)

    def fold(self, fact: StoredFact, tracking: Tracking) -> bool:
        """Fold one event and move the position to it (False: already folded)."""
        return fold_tracked(self.engine, fact, tracking)

    def dispose(self) -> None:
        self.engine.dispose()


class ReadModelProjection(Projection[ReadModelView]):
    """The read models as a projection of the store, for the library's ProjectionRunner."""

    name = "verbale_read_models"
    topics = ()   # every event: see the module's docstring

    @singledispatchmethod
    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        # The store's mapper decodes every notification to a StoredFact (projections/store).
        self.view.fold(cast(StoredFact, domain_event), tracking)


def _url_of(datastore: PostgresDatastore) -> str:
    """The store URL of the database a library datastore connects to (read_model_engine's)."""
    params = cast(dict[str, Any], datastore.pool.kwargs)
    user, password = quote(str(params["user"]), safe=""), str(params.get("password") or "")
    secret = f":{quote(password, safe='')}" if password else ""
    query = urlencode({"schema": datastore.schema,
                       "connect_timeout": int(params.get("connect_timeout") or 3),
                       "pool_size": 1, "max_overflow": 1})
    return (f"postgresql://{user}{secret}@{params['host']}:{params['port']}/"
            f"{quote(str(params['dbname']), safe='')}?{query}")


def runner_env(url: str | None) -> dict[str, str]:
    """The environment of the store at `url` for a ProjectionRunner. The subscription keeps one
    connection listening and reads with another: at least two in the store's pool."""
    env = store_env(url)
    if "POSTGRES_DBNAME" not in env:
        raise ValueError(say("the projection runner follows a PostgreSQL store only; an "
                             "SQLite store is polled"))
    env["POSTGRES_MAX_OVERFLOW"] = str(max(1, int(env["POSTGRES_MAX_OVERFLOW"])))
    return env


def runner(url: str | None) -> ProjectionRunner[MatchStore, ReadModelView]:
    """The library's runner of the read models over the PostgreSQL store at `url`, started:
    it follows from the tracked position (use it as a context manager: leaving stops it)."""
    return ProjectionRunner(application_class=MatchStore, projection_class=ReadModelProjection,
                            view_class=ReadModelView, env=runner_env(url))


Report = Callable[[int | None], None]
"""Called with the tracked position after each wait of a follow."""


def follow_runner(url: str | None, stop: Event, report: Report,
                  interval: float = INTERVAL) -> None:
    """Run the runner until `stop` is set; report the position at each interval. An error of
    the runner's processing (the database gone) is raised here."""
    with runner(url) as running:
        try:
            while not stop.is_set():
                running.run_forever(timeout=interval)
                if running.is_interrupted.is_set():
                    break   # its subscription ended: stop (an error was raised above)
                report(running.view.max_tracking_id(running.app_name))
        finally:
            running.view.dispose()


Folded = Callable[[int], None]
"""Called with how many notifications each catch-up of a poll folded."""


class Stopped(Exception):
    """A catch-up was asked to stop: the batch in hand was dropped whole (rolled back)."""


def unless_stopped(stop: Event) -> Each:
    """A catch-up's `each` that stops it, before the commit of its batch, once `stop` is set:
    a long catch-up answers Ctrl-C within one batch."""
    def each(_tracking: Tracking) -> None:
        if stop.is_set():
            raise Stopped
    return each


def poll(store: MatchStore, engine: Engine, stop: Event, folded: Folded,
         interval: float = INTERVAL, batch: int = BATCH) -> None:
    """Catch up, wait `interval`, again, until `stop` is set (SQLite: no subscription)."""
    while not stop.is_set():
        try:
            folded(catch_up(store, engine, batch, unless_stopped(stop)))
        except Stopped:
            return
        stop.wait(interval)
