"""The read models for a command that reads them (`scores`, `matches`, `standings`, `player`).

Before reading, the tables are brought up to date with the store: when they are behind and the
store can be written, the events recorded since are folded in (the same `catch_up` as after a
write command, replay_web/read_models.py). When the store cannot be written (a read-only file, a
read-only PostgreSQL session, a failing catch-up), the command reads what the tables hold and
says on standard error, in one line, how many events they are behind.

A command that finds them up to date writes nothing: the store is first looked at read-only
(nothing created: a missing store is one line, exit 1), and the SQLite file is then read
`mode=ro`, as the store's own read-only opening does.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import click
from sqlalchemy import Engine

from projections.read_models.engine import reading_engine, sqlite_path
from replay_web.cli import CommandFailed, classify
from replay_web.cli_database import open_store
from replay_web.i18n import _, ngettext


@dataclass(frozen=True, slots=True)
class Lag:
    """Where the read models stand against the store: the store's last notification, the
    last one folded (None: never), and whether their tables have this layout."""

    head: int
    folded: int | None
    current: bool

    @property
    def behind(self) -> int:
        return max(self.head - (self.folded or 0), 0) if self.current else self.head


@contextmanager
def open_read_models(database: str | None) -> Iterator[Engine]:
    """The engine of the read models of the store `--database` names, caught up when the store
    can be written; else as they stand (a line on standard error says how far behind)."""
    from projections.store.config import database_url

    url = database or database_url()
    lag = _lag(database, url)
    if lag.current and lag.behind == 0:
        engine = reading_engine(url)
    else:
        engine = _caught_up(database, url, lag)
    try:
        _say_disagreement(engine)
        yield engine
    finally:
        engine.dispose()


def _lag(database: str | None, url: str) -> Lag:
    """Looked at read-only: the store's log first (an immutable reader of a SQLite file must
    have done with it before another connection opens the file), then the read models."""
    store = open_store(database, read_only=True)
    try:
        head = store.recorder.max_notification_id() or 0
        name = store.name
    finally:
        store.close()
    engine = reading_engine(url)
    try:
        return _position(engine, name, head)
    finally:
        engine.dispose()


def _position(engine: Engine, name: str, head: int) -> Lag:
    from projections.read_models.project import position
    from projections.read_models.schema import SCHEMA_VERSION, stored_version

    with engine.connect() as conn:
        current = stored_version(conn) == SCHEMA_VERSION
    return Lag(head, position(engine, name) if current else None, current)


def _caught_up(database: str | None, url: str, lag: Lag) -> Engine:
    """The writable engine with every event folded in; else (the store cannot be written) the
    reading engine, once the lag is said. No tables at all cannot be read: exit 1."""
    from projections.read_models.engine import read_model_engine
    from projections.read_models.project import catch_up

    reason = _unwritable(url)
    if reason is None:
        try:
            store = open_store(database)
            try:
                engine = read_model_engine(url)
                try:
                    catch_up(store, engine)
                except BaseException:
                    engine.dispose()
                    raise
                return engine
            finally:
                store.close()
        except Exception as error:   # whatever it was, the tables as they stand are read
            reason = classify(error)[1]
    if not lag.current:
        raise CommandFailed(_("the read models are not built in this store and it cannot be "
                              "written ({reason}); run 'verbale project' where it can be")
                            .format(reason=reason))
    click.echo(ngettext(
        "the read models are {n} event behind the store, which cannot be written now "
        "({reason}); 'verbale project' catches them up",
        "the read models are {n} events behind the store, which cannot be written now "
        "({reason}); 'verbale project' catches them up", lag.behind).format(
            n=lag.behind, reason=reason), err=True)
    return reading_engine(url)


def _say_disagreement(engine: Engine) -> None:
    """One line on standard error when the last `verify --read-models` (or `--against`) found
    the read models not what the record gives (projections/read_models/verdicts.py)."""
    from projections.read_models.verdicts import last_comparison

    checked = last_comparison(engine)
    if checked is None or not checked.disagrees:
        return
    found = ngettext("{n} difference", "{n} differences", checked.differences).format(
        n=checked.differences)
    click.echo(_("verbale: the last check of the read models (verify --read-models, {when}) "
                 "found {found} with the record: what is shown may not be what was recorded; "
                 "'verbale rebuild' folds them again").format(when=checked.checked, found=found),
               err=True)


def _unwritable(url: str) -> str | None:
    """Why a SQLite store file cannot be written (its mode, an immutable file, a read-only
    file system: what `access` says, for root too), None when it can or is not a file."""
    path = sqlite_path(url)
    if path is None:
        return None
    if not os.access(path, os.W_OK):
        return _("the file {file} is read-only").format(file=path)
    if not os.access(path.parent, os.W_OK):
        return _("the directory {directory} is read-only").format(directory=path.parent)
    return None


def resolve_match(engine: Engine, text: str) -> str:
    """The match `--match TEXT` names among the read models (a whole id or a unique start, as
    `verbale matches` prints it); a usage problem if none or several."""
    from projections.read_models.queries import matches_starting
    from replay_web.match_ids import CANDIDATES_SHOWN, check_match_text, only_one

    given = text.strip()
    check_match_text(given)
    return only_one(given, matches_starting(engine, given.replace("-", "").lower(),
                                            CANDIDATES_SHOWN + 1))
