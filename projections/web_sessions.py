"""The arbiters' logins to the viewer, kept in the store's own database beside the accounts
(projections/accounts.py), so that ending one takes effect at once in every server process.

A login is a random token, given to the browser inside the viewer's signed cookie; `web_sessioni`
keeps only its SHA-256, the arbiter's name and when it began. Every request of a logged-in
arbiter looks its token up (one read by primary key): a logout deletes its row; removing an
arbiter, changing a password or rotating the site secret delete the rows concerned in the same
transaction as the change (accounts.py). A login lasts SESSION_SECONDS at most; rows past that
are deleted at the next login.

`web_sessioni` is its own table (its own metadata): a database made before it gets it when the
viewer starts or at the first change of the accounts, and the other tables are untouched.
"""

from __future__ import annotations

import hashlib
import secrets

from sqlalchemy import (
    Column,
    Connection,
    Engine,
    Float,
    MetaData,
    String,
    Table,
    delete,
    insert,
    select,
)
from sqlalchemy.exc import DBAPIError

from projections.read_models.engine import ensure_tables, writing

SESSION_SECONDS = 24 * 3600
"""How long a login lasts: a tournament day."""

metadata = MetaData()

sessioni = Table(
    "web_sessioni", metadata,
    Column("id", String(64), primary_key=True),           # SHA-256 of the token, hex
    Column("name", String(64), nullable=False, index=True),   # accounts.NAME_MAX
    Column("started", Float, nullable=False),              # seconds since the epoch, UTC
)


def ensure_sessions(engine: Engine) -> None:
    """Create `web_sessioni` where missing (two first runs at once: the loser finds it)."""
    ensure_tables(engine, metadata)


def _id(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def open_session(engine: Engine, name: str, now: float) -> str:
    """A new login of arbiter `name`: the token the browser keeps (43 URL-safe characters)."""
    token = secrets.token_urlsafe(32)
    ensure_sessions(engine)
    with writing(engine).begin() as conn:
        conn.execute(delete(sessioni).where(sessioni.c.started < now - SESSION_SECONDS))
        conn.execute(insert(sessioni).values(id=_id(token), name=name, started=now))
    return token


def session_arbiter(engine: Engine, token: object, now: float) -> str | None:
    """The arbiter whose login `token` is, if it is still open; else None (garbage, a token
    ended or expired, a store without the table: never raises for those)."""
    if not isinstance(token, str) or not 20 <= len(token) <= 100:
        return None
    try:
        with engine.connect() as conn:
            found = conn.execute(select(sessioni.c.name).where(
                sessioni.c.id == _id(token),
                sessioni.c.started >= now - SESSION_SECONDS)).scalar_one_or_none()
    except DBAPIError:
        return None
    return found


def close_session(engine: Engine, token: object) -> None:
    """End the login `token` (a logout); nothing if it is not open."""
    if isinstance(token, str):
        ensure_sessions(engine)
        with writing(engine).begin() as conn:
            conn.execute(delete(sessioni).where(sessioni.c.id == _id(token)))


def end_sessions(conn: Connection, name: str | None = None) -> None:
    """Inside a change of the accounts (`conn`, a writing transaction): end every login of
    arbiter `name`, or with None every login of every arbiter."""
    metadata.create_all(conn, checkfirst=True)
    query = delete(sessioni)
    conn.execute(query if name is None else query.where(sessioni.c.name == name))
