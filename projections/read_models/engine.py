"""The SQLAlchemy engine of the read models: the store's own database (its URL, read by
projections/store/config.py), so that the tables sit beside the events, in the same SQLite file
or the same PostgreSQL schema (`?schema=`).

`reading_engine` is the engine of a command that only reads (SQLite opened `mode=ro`).

SQLite transactions are made explicit (the driver's own transaction handling switched off), so
that a batch of the projection with its tracking position, or a drop-and-create of the tables,
commits whole or not at all; a transaction of `writing(engine)` begins `BEGIN IMMEDIATE` (it
takes the write lock at once: two catch-ups cannot interleave, and a read never has to be
upgraded to a write), any other a plain `BEGIN` (readers take no write lock).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import URL, Engine, MetaData, create_engine, event, inspect
from sqlalchemy.exc import DBAPIError

from projections.store.config import APPLICATION_NAME, store_env
from projections.store.opening import read_only_uri

_WRITE = "verbale_write"


def writing(engine: Engine) -> Engine:
    """The engine for transactions that write (the same pool): SQLite takes the write lock
    when they begin."""
    return engine.execution_options(**{_WRITE: True})


def ensure_tables(engine: Engine, metadata: MetaData) -> None:
    """Create `metadata`'s tables where missing. Two first runs at once: the loser's
    CREATE fails, and it goes on when it finds them made (else the error stands)."""
    try:
        with writing(engine).begin() as conn:
            metadata.create_all(conn, checkfirst=True)
    except DBAPIError:
        with engine.connect() as conn:
            found = inspect(conn)
            if not all(found.has_table(table.name, schema=table.schema)
                       for table in metadata.tables.values()):
                raise


def read_model_engine(url: str) -> Engine:
    """The engine of the read models of the store at `url` (a store URL, e.g.
    `sqlite:///var/verbale.db` or `postgresql://user@host/db?schema=s`)."""
    env = store_env(url)
    if "SQLITE_DBNAME" in env:
        return _sqlite(env["SQLITE_DBNAME"], float(env.get("SQLITE_LOCK_TIMEOUT", "30")))
    return _postgres(env)


def _sqlite(path: str, timeout: float) -> Engine:
    engine = create_engine(URL.create("sqlite+pysqlite", database=path),
                           connect_args={"timeout": timeout})

    @event.listens_for(engine, "connect")
    def _no_driver_transactions(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None

    @event.listens_for(engine, "begin")
    def _begin(conn: Any) -> None:
        write = conn.get_execution_options().get(_WRITE, False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


def _postgres(env: dict[str, str]) -> Engine:
    url = URL.create("postgresql+psycopg", username=env["POSTGRES_USER"],
                     password=env["POSTGRES_PASSWORD"] or None, host=env["POSTGRES_HOST"],
                     port=int(env["POSTGRES_PORT"]), database=env["POSTGRES_DBNAME"])
    schema = env["POSTGRES_SCHEMA"]
    return create_engine(url, pool_size=int(env["POSTGRES_POOL_SIZE"]),
                         max_overflow=int(env["POSTGRES_MAX_OVERFLOW"]),
                         connect_args={"options": f"-c search_path={schema}",
                                       "connect_timeout": int(env["POSTGRES_CONNECT_TIMEOUT"]),
                                       "application_name": APPLICATION_NAME})


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite store URL; None for PostgreSQL."""
    env = store_env(url)
    return Path(env["SQLITE_DBNAME"]) if "SQLITE_DBNAME" in env else None


def reading_engine(url: str) -> Engine:
    """An engine that only reads: for SQLite the file opened `mode=ro` (`immutable=1` when no
    writer has it open, as the store's read-only opening does: no -wal or -shm file left
    behind); for PostgreSQL the read models' own engine."""
    path = sqlite_path(url)
    if path is None:
        return read_model_engine(url)
    engine = create_engine(URL.create("sqlite+pysqlite", database=read_only_uri(path),
                                      query={"uri": "true"}))

    @event.listens_for(engine, "connect")
    def _autocommit(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None   # a reader opens no write transaction

    return engine
