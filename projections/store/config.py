"""Where the store lives: VERBALE_DATABASE_URL, or the SQLite file ./var/verbale.db.

`sqlite:///relative/path.db`, `sqlite:////absolute/path.db`, or
`postgresql://user[:password]@host[:port]/database[?schema=name]`; the PostgreSQL tables are
`verbale_events` and `verbale_heads` in that schema (default `public`).
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

DEFAULT_URL = "sqlite:///var/verbale.db"
URL_VARIABLE = "VERBALE_DATABASE_URL"
_RECORDERS = "projections.store.recorders"


class StoreConfigError(ValueError):
    """A database URL the store cannot use."""


def database_url() -> str:
    return os.environ.get(URL_VARIABLE) or DEFAULT_URL


def store_env(url: str | None = None) -> dict[str, str]:
    target = url or database_url()
    scheme = target.split(":", 1)[0].lower()
    if scheme == "sqlite":
        return _sqlite_env(target)
    if scheme in ("postgresql", "postgres"):
        return _postgres_env(target)
    raise StoreConfigError(f"{URL_VARIABLE}={target!r}: expected sqlite:///path or "
                           "postgresql://user@host:port/database")


def _sqlite_env(url: str) -> dict[str, str]:
    path = url.removeprefix("sqlite:///")
    if not path or path == url:
        raise StoreConfigError(f"{url!r}: expected sqlite:///relative/path.db or "
                               "sqlite:////absolute/path.db")
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": path,
            "SQLITE_LOCK_TIMEOUT": "30",
            "APPLICATION_RECORDER_TOPIC": f"{_RECORDERS}:ChainedSQLiteRecorder"}


def _postgres_env(url: str) -> dict[str, str]:
    parts = urlsplit(url)
    database = parts.path.lstrip("/")
    if not parts.hostname or not database:
        raise StoreConfigError(f"{url!r}: expected postgresql://user@host:port/database")
    query = parse_qs(parts.query)
    return {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": database,
            "POSTGRES_HOST": parts.hostname, "POSTGRES_PORT": str(parts.port or 5432),
            "POSTGRES_USER": unquote(parts.username or "postgres"),
            "POSTGRES_PASSWORD": unquote(parts.password or ""),
            "POSTGRES_SCHEMA": query.get("schema", ["public"])[0],
            "POSTGRES_CONNECT_TIMEOUT": "5",
            "APPLICATION_RECORDER_TOPIC": f"{_RECORDERS}:ChainedPostgresRecorder"}
