"""`verbale project [--follow]` and `verbale rebuild`: the read models folded from the store.

`project` folds what was recorded since the tracked position (a restart resumes there: each
batch's rows and position are one transaction); with `--follow` it keeps them live until Ctrl-C
or SIGTERM: on PostgreSQL through the eventsourcing library's ProjectionRunner (a subscription to
new events), on SQLite by catching up again every `--interval` seconds. `rebuild` drops the
tables and folds the whole log again, with a progress bar on a terminal.
"""

from __future__ import annotations

import json
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from threading import Event
from types import FrameType

import click
from sqlalchemy import Engine

from projections.read_models.engine import read_model_engine
from projections.read_models.follow import (
    INTERVAL,
    Stopped,
    follow_runner,
    poll,
    unless_stopped,
)
from projections.read_models.project import BATCH, catch_up, position, rebuild
from projections.store.app import MatchStore
from projections.store.config import database_url
from replay_web.cli import cli, database_option
from replay_web.cli_database import open_store
from replay_web.i18n import _, ngettext
from replay_web.progress import bar

batch_option = click.option(
    "--batch", type=click.IntRange(min=1), default=BATCH, show_default=True,
    help="Notifications folded per transaction.")
json_option = click.option("--json", "as_json", is_flag=True,
                           help="Print JSON (with --follow: one object per line).")


@cli.command("project")
@click.option("--follow", is_flag=True,
              help="Keep the read models live until Ctrl-C or SIGTERM.")
@click.option("--interval", type=click.FloatRange(min=0.01), default=INTERVAL, show_default=True,
              help="With --follow on SQLite: seconds between two catch-ups.")
@batch_option
@json_option
@database_option
def project(follow: bool, interval: float, batch: int, as_json: bool,
            database: str | None) -> None:
    """Fold the events recorded since the last run into the read models (the tables of the
    match list, scores and standings); with --follow, keep folding new events as they are
    recorded."""
    with _opened(database) as (store, engine), _stopping_on_signals(follow) as stop:
        started = time.monotonic()
        try:
            read = catch_up(store, engine, batch, unless_stopped(stop))
        except Stopped:
            _report(as_json, "stopped", 0, position(engine, store.name), started)
            return
        _report(as_json, "caught-up", read, position(engine, store.name), started)
        if not follow:
            return
        if engine.dialect.name == "sqlite":   # no subscription: catch up again and again
            poll(store, engine, stop, _printing_polls(as_json, engine, store.name), interval,
                 batch)
        else:
            follow_runner(database, stop, _printing_moves(as_json, position(engine, store.name)))
        _report(as_json, "stopped", 0, position(engine, store.name), started)


@cli.command("rebuild")
@batch_option
@json_option
@database_option
def rebuild_command(batch: int, as_json: bool, database: str | None) -> None:
    """Drop the read models and fold the whole event log again, from its first event: the same
    rows as the ones kept up to date, row for row."""
    with _opened(database) as (store, engine):
        started = time.monotonic()
        with bar(store.recorder.max_notification_id(),
                 _("rebuilding the read models")) as done:
            read = rebuild(store, engine, batch,
                           lambda tracking: done(tracking.notification_id))
        _report(as_json, "rebuilt", read, position(engine, store.name), started)


@contextmanager
def _opened(database: str | None) -> Iterator[tuple[MatchStore, Engine]]:
    # A read-only opening first: a missing or foreign store is one line, and nothing is created.
    open_store(database, read_only=True).close()
    store = open_store(database)
    engine = read_model_engine(database or database_url())
    try:
        yield store, engine
    finally:
        engine.dispose()
        store.close()


def _report(as_json: bool, what: str, read: int, at: int | None, started: float) -> None:
    seconds = time.monotonic() - started
    rate = read / seconds if seconds > 0 else 0.0
    if as_json:
        click.echo(json.dumps({"event": what, "folded": read, "position": at,
                               "seconds": round(seconds, 3), "events_per_second": round(rate)}))
        return
    where = _("at notification {at}").format(at=at) if at is not None else _("empty log")
    if what == "stopped":
        click.echo(_("stopped; the read models are {where}").format(where=where))
        return
    done = ngettext("{n} event folded", "{n} events folded", read).format(n=read)
    click.echo(_("{done} in {seconds:.1f} s ({rate:.0f} events/s); the read models are "
                 "{where}").format(done=done, seconds=seconds, rate=rate, where=where))


def _printing_polls(as_json: bool, engine: Engine, name: str) -> Callable[[int], None]:
    def folded(read: int) -> None:
        if read:
            _moved(as_json, read, position(engine, name))
    return folded


def _printing_moves(as_json: bool, start: int | None) -> Callable[[int | None], None]:
    last = [start]

    def moved(at: int | None) -> None:
        if at != last[0] and at is not None:
            _moved(as_json, None, at)
            last[0] = at
    return moved


def _moved(as_json: bool, read: int | None, at: int | None) -> None:
    if as_json:
        click.echo(json.dumps({"event": "folded", "folded": read, "position": at}))
    elif read is None:
        click.echo(_("the read models are at notification {at}").format(at=at))
    else:
        click.echo(ngettext("{n} event folded; the read models are at notification {at}",
                            "{n} events folded; the read models are at notification {at}",
                            read).format(n=read, at=at))


@contextmanager
def _stopping_on_signals(following: bool) -> Iterator[Event]:
    """When `following`, Ctrl-C and SIGTERM set the event instead of interrupting the process
    anywhere: the batch in hand is dropped whole, or the runner's event in hand committed, and
    the command ends (exit 0). Else Ctrl-C interrupts (exit 130), as in every command."""
    stop = Event()

    def handler(_signum: int, _frame: FrameType | None) -> None:
        stop.set()

    if not following:
        yield stop
        return
    previous = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield stop
    finally:
        for number, was in previous.items():
            signal.signal(number, was)

