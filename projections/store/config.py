"""Where the store lives: VERBALE_DATABASE_URL, or the SQLite file ./var/verbale.db.

`sqlite:///relative/path.db`, `sqlite:////absolute/path.db`, or
`postgresql://user[:password]@host[:port]/database[?schema=name&pool_size=N&max_overflow=M]`.
The tables are `verbale_events` and `verbale_heads`, with the marker table `verbale_store` (the
store's schema version), in the SQLite file or in the PostgreSQL schema (default `public`).

Opening for writing creates what is missing (the SQLite file and its directory, the tables);
opening read-only (`verify`, `export`, listing) creates nothing and refuses a missing file, an
empty file or a database without verbale's tables (projections/store/opening.py).

PostgreSQL connections: each process opens one connection when it first needs it and keeps it
(`pool_size`, default 1), plus at most `max_overflow` more (default 1) while two are in use at
once; on a server with many clients, raise them per URL (`?pool_size=4&max_overflow=4`) or for
every process with VERBALE_POSTGRES_POOL_SIZE and VERBALE_POSTGRES_MAX_OVERFLOW. A connection
attempt gives up after VERBALE_POSTGRES_CONNECT_TIMEOUT seconds (default 3). The sessions are
named `verbale` (application_name, visible in pg_stat_activity; libpq's PGAPPNAME
overrides it).
"""

from __future__ import annotations

import os
from urllib.parse import parse_qs, unquote, urlsplit, urlunsplit

from domain.text import say

DEFAULT_URL = "sqlite:///var/verbale.db"
URL_VARIABLE = "VERBALE_DATABASE_URL"
POOL_SIZE_VARIABLE = "VERBALE_POSTGRES_POOL_SIZE"
MAX_OVERFLOW_VARIABLE = "VERBALE_POSTGRES_MAX_OVERFLOW"
CONNECT_TIMEOUT_VARIABLE = "VERBALE_POSTGRES_CONNECT_TIMEOUT"
APPLICATION_NAME = "verbale"
# Keys of the store's environment that are verbale's own (the library ignores them).
READ_ONLY = "VERBALE_READ_ONLY"
WHERE = "VERBALE_STORE_WHERE"
_OPENING = "projections.store.opening"
_QUERY_KEYS = ("schema", "pool_size", "max_overflow", "connect_timeout")


class StoreConfigError(ValueError):
    """A database URL the store cannot use: a usage problem (exit code 2)."""

    exit_code = 2


def database_url() -> str:
    return os.environ.get(URL_VARIABLE) or DEFAULT_URL


def url_origin(url: str | None) -> str:
    """Where the URL in use came from, for messages."""
    if url is not None:
        return "--database"
    return URL_VARIABLE if os.environ.get(URL_VARIABLE) else say("the default")


def redact(url: str) -> str:
    """The URL without its password (for messages)."""
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        user = f"{parts.username}@" if parts.username else ""
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port else ""
        return urlunsplit(parts._replace(netloc=f"{user}{host}{port}"))
    except ValueError:
        return url.split("@", 1)[-1] if "@" in url else url


def store_env(url: str | None = None, *, read_only: bool = False,
              origin: str | None = None) -> dict[str, str]:
    """The eventsourcing environment of the store at `url` (or VERBALE_DATABASE_URL's).
    `origin` names where the URL came from in an error (default: guessed)."""
    target = url or database_url()
    origin = origin or url_origin(url)
    scheme = target.split(":", 1)[0].lower()
    if scheme == "sqlite":
        env = _sqlite_env(target, origin)
    elif scheme in ("postgresql", "postgres"):
        env = _postgres_env(target, origin)
    else:
        raise StoreConfigError(say("{origin} {url!r}: unsupported database URL, expected "
                                   "sqlite:///path.db or postgresql://user@host:port/database",
                                   origin=origin, url=redact(target)))
    env[WHERE] = redact(target)
    env[READ_ONLY] = "yes" if read_only else "no"
    return env


def _sqlite_env(url: str, origin: str) -> dict[str, str]:
    path = url.removeprefix("sqlite:///")
    if not path or path == url:
        raise StoreConfigError(say("{origin} {url!r}: expected sqlite:///relative/path.db or "
                                   "sqlite:////absolute/path.db", origin=origin, url=url))
    # The directory is made, if need be, only by a writable opening (opening.py).
    return {"PERSISTENCE_MODULE": f"{_OPENING}:VerbaleSQLiteFactory", "SQLITE_DBNAME": path,
            "SQLITE_LOCK_TIMEOUT": "30"}


def _postgres_env(url: str, origin: str) -> dict[str, str]:
    try:
        parts = urlsplit(url)
        hostname, port = parts.hostname, parts.port
    except ValueError as error:
        raise StoreConfigError(say("{origin} {url!r}: {reason}", origin=origin,
                                   url=redact(url), reason=str(error))) from None
    database = parts.path.lstrip("/")
    if not hostname or not database:
        raise StoreConfigError(say("{origin} {url!r}: expected "
                                   "postgresql://user@host:port/database", origin=origin,
                                   url=redact(url)))
    query = parse_qs(parts.query)
    unknown = sorted(set(query) - set(_QUERY_KEYS))
    if unknown:
        raise StoreConfigError(say("{origin} {url!r}: unknown parameter {unknown} (known: "
                                   "{known})", origin=origin, url=redact(url),
                                   unknown=", ".join(unknown), known=", ".join(_QUERY_KEYS)))

    def number(key: str, variable: str, default: str, least: int) -> str:
        text = query.get(key, [os.environ.get(variable) or default])[0]
        if not text.isdigit() or int(text) < least:
            raise StoreConfigError(say("{origin} {url!r}: {key}={value!r} is not a whole number "
                                       "of at least {least}", origin=origin, url=redact(url),
                                       key=key, value=text, least=least))
        return text

    return {"PERSISTENCE_MODULE": f"{_OPENING}_postgres:VerbalePostgresFactory",
            "POSTGRES_DBNAME": database,
            "POSTGRES_HOST": hostname, "POSTGRES_PORT": str(port or 5432),
            "POSTGRES_USER": unquote(parts.username or "postgres"),
            "POSTGRES_PASSWORD": unquote(parts.password or ""),
            "POSTGRES_SCHEMA": query.get("schema", ["public"])[0],
            "POSTGRES_CONNECT_TIMEOUT": number("connect_timeout", CONNECT_TIMEOUT_VARIABLE,
                                               "3", 1),
            "POSTGRES_POOL_SIZE": number("pool_size", POOL_SIZE_VARIABLE, "1", 1),
            "POSTGRES_MAX_OVERFLOW": number("max_overflow", MAX_OVERFLOW_VARIABLE, "1", 0)}
