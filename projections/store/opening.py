"""Opening the store: what the database holds, read-only or writable, and one-line errors.

The store's infrastructure factories (selected by config.py's PERSISTENCE_MODULE) look at the
database before the recorder is used:

- writable: the SQLite file and its directory are created if missing; an empty database gets
  verbale's tables and marker; a store of the first layout (`stored_events`, `stream_heads`, no
  marker) is upgraded in place in one transaction; anything else is refused.
- read-only (`verify`, `export`, listing): nothing is created or changed. A missing or empty file
  or a database without verbale's tables is refused; SQLite is opened `mode=ro` (and, for a store
  at rest with no -wal file, `immutable=1`, so that no -wal/-shm file is left behind;
  a writer opening the file meanwhile stops the reader with StoreUnavailable); PostgreSQL
  sessions are read-only (`default_transaction_read_only`), with no DDL.

Every failure to open, read or write becomes StoreUnavailable (exit code 1), one line naming the
store (its URL without the password) and what went wrong.
"""

from __future__ import annotations

import os
import sqlite3
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from eventsourcing.persistence import (
    ApplicationRecorder,
    ConnectionPoolClosedError,
    IntegrityError,
    PersistenceError,
)
from eventsourcing.sqlite import (
    SQLiteConnection,
    SQLiteConnectionPool,
    SQLiteCursor,
    SQLiteDatastore,
    SQLiteFactory,
)
from eventsourcing.utils import Environment, EnvType

from domain.text import Said, say
from projections.store.config import READ_ONLY, WHERE
from projections.store.recorders import (
    EVENTS_TABLE,
    HEADS_TABLE,
    LEGACY_EVENTS_TABLE,
    LEGACY_HEADS_TABLE,
    LEGACY_SQLITE_UPGRADE,
    MARKER_TABLE,
    SCHEMA_VERSION,
    ChainedSQLiteRecorder,
)

ENVIRONMENT = 1


class StoreUnavailable(RuntimeError):
    """The store cannot be opened, read or written: missing, damaged, not a verbale store,
    unreachable, read-only or full. A problem of the environment (exit code 1)."""

    exit_code = ENVIRONMENT


def _first_line(error: BaseException) -> str:
    text = " ".join(str(error).split("\n")[:1]).strip()
    return text or type(error).__name__


def _reason(error: BaseException) -> str:
    """The innermost database message of a (possibly wrapped) error."""
    inner: BaseException = error
    while inner.__cause__ is not None and isinstance(inner, PersistenceError):
        inner = inner.__cause__
    return _first_line(inner)


# (what the database says, lowercase; the message for it, given the database's own words)
Reason = Callable[[str], Said]

_SQLITE_REASONS: tuple[tuple[str, Reason], ...] = (
    ("file is not a database",
     lambda _reason: say("not an SQLite database (file is not a database)")),
    ("database disk image is malformed",
     lambda _reason: say("the store is damaged (database disk image is malformed); restore it "
                         "from a backup")),
    ("database or disk is full",
     lambda _reason: say("the disk is full (database or disk is full); nothing of the action "
                         "was recorded")),
    ("attempt to write a readonly database",
     lambda _reason: say("the database is read-only (attempt to write a readonly database)")),
    ("readonly database", lambda _reason: say("the database is read-only")),
    ("unable to open database file",
     lambda _reason: say("cannot open or create the database file (is its directory there and "
                         "writable?)")),
    ("database is locked",
     lambda _reason: say("the database is locked by another process (database is locked)")),
    ("disk i/o error", lambda _reason: say("disk I/O error")),
)

_POSTGRES_REASONS: tuple[tuple[str, Reason], ...] = (
    ("read-only transaction",
     lambda reason: say("the PostgreSQL session is read-only: {reason}", reason=reason)),
    ("could not extend file",
     lambda reason: say("the disk of the PostgreSQL server is full: {reason}", reason=reason)),
    ("no space left",
     lambda reason: say("the disk of the PostgreSQL server is full: {reason}", reason=reason)),
    ("does not exist", lambda reason: say("PostgreSQL answers but {reason}", reason=reason)),
    ("too many clients",
     lambda reason: say("PostgreSQL refuses more connections: {reason}", reason=reason)),
    ("couldn't get a connection",
     lambda _reason: say("PostgreSQL does not answer (no connection within the timeout)")),
    ("connection refused",
     lambda _reason: say("PostgreSQL does not answer: connection refused")),
    ("timeout", lambda reason: say("PostgreSQL does not answer: {reason}", reason=reason)),
    ("connection", lambda reason: say("cannot connect to PostgreSQL: {reason}", reason=reason)),
)


def store_problem(where: str, problem: str) -> StoreUnavailable:
    """StoreUnavailable for the store `where` (a redacted URL): `problem`, a message (or the
    database's own words), after the store's name."""
    return StoreUnavailable(say("store {where}: {problem}", where=where, problem=problem))


def unavailable(error: BaseException, where: str) -> StoreUnavailable:
    """The one-line error for a database failure at the store `where` (a redacted URL)."""
    if isinstance(error, StoreUnavailable):
        return error
    reason = _reason(error)
    low = reason.lower()
    postgres = where.startswith("postgres")
    for needle, message in (_POSTGRES_REASONS if postgres else _SQLITE_REASONS):
        if needle in low:
            return store_problem(where, message(_pg_reason(reason)))
    if isinstance(error, OSError) and error.strerror:
        target = f"{error.filename}: " if error.filename else ""
        return store_problem(where, f"{target}{error.strerror}")   # the system's own words
    return store_problem(where, reason)


def newer_schema(found: object) -> Said:
    """A store whose marker names a layout newer than this verbale's."""
    return say("written by a newer verbale (store schema {found}; this verbale knows up to "
               "{known}): upgrade verbale", found=found, known=SCHEMA_VERSION)


def _pg_reason(reason: str) -> str:
    """libpq's message without its 'connection to server at ... failed:' preamble."""
    tail = reason.rsplit(" failed: ", 1)[-1]
    return " ".join(tail.replace("FATAL:", "").split())


def database_errors() -> tuple[type[BaseException], ...]:
    """The database's own errors: psycopg's only once a PostgreSQL store has loaded it (an
    SQLite run never imports it)."""
    psycopg = sys.modules.get("psycopg")
    return (PersistenceError, sqlite3.Error, *((psycopg.Error,) if psycopg else ()))


def open_errors() -> tuple[type[BaseException], ...]:
    """What building the store may raise that is the database's or the file system's doing."""
    return (*database_errors(), OSError, StoreUnavailable)


def is_yes(env: Environment, key: str) -> bool:
    """Whether the setting `key` of `env` says yes (yes, y, true, t, on, 1; any case)."""
    return (env.get(key) or "no").lower() in ("yes", "y", "true", "t", "on", "1")


@contextmanager
def guarded(where: str) -> Iterator[None]:
    """Database failures (not a conflict between writers) as StoreUnavailable."""
    try:
        yield
    except IntegrityError:
        raise
    except database_errors() as error:
        raise unavailable(error, where) from None


# ---- SQLite ---------------------------------------------------------------------------------


class _GuardedSQLiteDatastore(SQLiteDatastore):
    """Every read and write of the recorder goes through these two: a failure of the
    database there is one line naming the store."""

    where = "the store"

    @contextmanager
    def transaction(self, *, commit: bool) -> Iterator[SQLiteCursor]:
        with guarded(self.where), super().transaction(commit=commit) as cursor:
            yield cursor

    @contextmanager
    def get_connection(self, *, commit: bool) -> Iterator[SQLiteConnection]:
        try:
            with guarded(self.where), super().get_connection(commit=commit) as conn:
                yield conn
        except ConnectionPoolClosedError as error:
            # Ctrl-C between taking a connection and using it leaves this generator open until
            # it is collected, after the store closed its pool: giving the connection back
            # then fails, and Python would print that after "verbale: interrupted". The
            # connection went with its pool; only that late close is let through.
            if not isinstance(error.__context__, GeneratorExit):
                raise


class _ReadOnlyPool(SQLiteConnectionPool):
    """Connections opened `mode=ro`: no journal mode change, nothing created."""

    def _create_connection(self) -> SQLiteConnection:
        c = sqlite3.connect(database=self.db_name, uri=True, check_same_thread=False,
                            isolation_level=None, cached_statements=True,
                            timeout=self.lock_timeout or 5)
        c.row_factory = sqlite3.Row
        return SQLiteConnection(sqlite_conn=c, max_age=self.max_age)


class _ReadOnlyDatastore(_GuardedSQLiteDatastore):
    def __init__(self, db_name: str, lock_timeout: int | None, path: Path) -> None:
        super().__init__(db_name, lock_timeout=lock_timeout)
        self.pool = _ReadOnlyPool(db_name=db_name, lock_timeout=lock_timeout)
        self.path = path
        self.wal = path.with_name(path.name + "-wal") if "immutable=1" in db_name else None
        self.seen = self._stamp()

    def _stamp(self) -> tuple[int, int, int]:
        found = self.path.stat()
        return found.st_ino, found.st_size, found.st_mtime_ns

    @contextmanager
    def transaction(self, *, commit: bool) -> Iterator[SQLiteCursor]:
        # Read as immutable, the file must not change under the reader: a writer that opened
        # it since (its -wal file appeared, or the file changed) could have written into it.
        if self.wal is not None and (self.wal.exists() or self._stamp() != self.seen):
            raise store_problem(self.where, say("a writer opened the store during this "
                                                "read-only run; run it again"))
        with super().transaction(commit=commit) as cursor:
            yield cursor


def read_only_uri(path: Path) -> str:
    """`mode=ro`; for a store at rest (no -wal file: no connection is open on it) also
    `immutable=1`, since a read-only connection to a WAL database would otherwise leave -wal
    and -shm files behind."""
    wal = path.with_name(path.name + "-wal")
    flags = "mode=ro" if wal.exists() else "mode=ro&immutable=1"
    return f"{path.resolve().as_uri()}?{flags}"


class VerbaleSQLiteFactory(SQLiteFactory):
    def __init__(self, env: Environment | EnvType | None) -> None:
        super().__init__(env)
        self.read_only = is_yes(self.env, READ_ONLY)
        self.path = Path(self.env.get(self.SQLITE_DBNAME) or "")
        self.where = self.env.get(WHERE) or f"sqlite:///{self.path}"
        lock_timeout = self.datastore.pool.lock_timeout
        self.datastore.close()
        if self.read_only:
            self._check_file()
            self.datastore = _ReadOnlyDatastore(read_only_uri(self.path), lock_timeout,
                                                self.path)
        else:
            self._prepare_directory()
            self.datastore = _GuardedSQLiteDatastore(str(self.path), lock_timeout=lock_timeout)
        self.datastore.where = self.where

    def _fail(self, problem: Said) -> StoreUnavailable:
        return store_problem(self.where, problem)

    def _check_file(self) -> None:
        if not self.path.exists():
            if self.path.parent.is_dir():
                raise self._fail(say("no store there: the file {file} does not exist; nothing "
                                     "was created", file=str(self.path)))
            raise self._fail(say("no store there: the file {file} does not exist (nor its "
                                 "directory {directory}); nothing was created",
                                 file=str(self.path), directory=str(self.path.parent)))
        if self.path.is_dir():
            raise self._fail(say("{path} is a directory, not a store file", path=str(self.path)))
        if self.path.stat().st_size == 0:
            raise self._fail(say("the file {file} is empty, not a verbale store",
                                 file=str(self.path)))

    def _prepare_directory(self) -> None:
        parent = self.path.parent
        if self.path.is_dir():
            raise self._fail(say("{path} is a directory, not a store file", path=str(self.path)))
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise self._fail(say("cannot create the directory {directory}: {reason}",
                                 directory=str(parent),
                                 reason=error.strerror or str(error))) from None
        if not self.path.exists() and not os.access(parent, os.W_OK):
            raise self._fail(say("cannot create the store: the directory {directory} is not "
                                 "writable", directory=str(parent)))

    def application_recorder(self) -> ApplicationRecorder:
        if self.read_only:
            with self.datastore.transaction(commit=False) as c:
                tables = self._layout(c)
            if tables == "legacy":
                return ChainedSQLiteRecorder(self.datastore, LEGACY_EVENTS_TABLE,
                                             LEGACY_HEADS_TABLE)
            return ChainedSQLiteRecorder(self.datastore)
        if self.path.exists() and self.path.stat().st_size > 0:
            self._peek()
        recorder = ChainedSQLiteRecorder(self.datastore)
        with self._immediate() as c:
            if self._layout(c) == "legacy":
                for statement in LEGACY_SQLITE_UPGRADE:
                    c.execute(statement)
            recorder._create_table(c)
        return recorder

    def _peek(self) -> None:
        """Refuse a file that is not a verbale store before a writable connection touches it
        (the library's connection would switch it to WAL mode)."""
        try:
            conn = sqlite3.connect(read_only_uri(self.path), uri=True)
            try:
                self._layout(conn.cursor())
            finally:
                conn.close()
        except sqlite3.Error as error:
            raise unavailable(error, self.where) from None

    @contextmanager
    def _immediate(self) -> Iterator[SQLiteCursor]:
        """One write transaction that takes the write lock at once: the look at the tables
        and what follows from it (create, upgrade) cannot be overtaken by another process."""
        with self.datastore.get_connection(commit=True) as conn:
            cursor = conn.cursor()
            cursor.execute("BEGIN IMMEDIATE")
            try:
                yield cursor
            except BaseException:
                conn.rollback()
                raise
            conn.commit()

    def _layout(self, c: SQLiteCursor | sqlite3.Cursor) -> str:
        """'new', 'current' or 'legacy'; refuses anything else."""
        c.execute("SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
        rows = c.fetchall()
        tables = {row[1] for row in rows if row[0] == "table"}
        if not tables:
            if self.read_only:
                raise self._fail(say("no verbale store there: the database has no tables"))
            return "new"
        if MARKER_TABLE in tables:
            c.execute(f"SELECT max(schema_version) FROM {MARKER_TABLE}")
            found = c.fetchone()[0]
            if found is not None and int(found) > SCHEMA_VERSION:
                raise self._fail(newer_schema(found))
        if {EVENTS_TABLE, HEADS_TABLE} <= tables:
            return "current"
        if {LEGACY_EVENTS_TABLE, LEGACY_HEADS_TABLE} <= tables and MARKER_TABLE not in tables:
            return "legacy"
        raise self._fail(say("not a verbale store (it has tables {tables})",
                             tables=", ".join(sorted(tables))))
