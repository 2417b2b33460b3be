"""The viewer's accounts and its site secret, in the store's own database (the read models'
engine, projections/read_models/engine.py).

`web_arbitri` holds the arbiters who may log in to the viewer: a name and a password hash
(werkzeug's `generate_password_hash`, scrypt by default: never the password itself).
`web_segreti` holds one random secret, made on first use: the key of the seats' link tokens
and the basis of the viewer's cookie key (replay_web/access.py). Rotating it voids every seat
link and every login at once: the viewer reads it for each seat link it checks. The logins
themselves are in `web_sessioni` (projections/web_sessions.py): a password change, a removal
and a rotation end them in the same transaction.

These tables are not read models: they are not folded from the log, and a `verbale rebuild`
(which drops only the `rm_` tables) leaves them as they are.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache

from sqlalchemy import (
    Column,
    Connection,
    Engine,
    MetaData,
    String,
    Table,
    delete,
    insert,
    inspect,
    select,
    update,
)
from sqlalchemy.exc import DBAPIError, IntegrityError
from werkzeug.security import check_password_hash, generate_password_hash

from domain.text import say
from projections.read_models.engine import ensure_tables as ensure_metadata
from projections.read_models.engine import writing
from projections.web_sessions import end_sessions

NAME_MAX = 64
PASSWORD_MIN = 8
PASSWORD_MAX = 1024   # scrypt takes any length; the cap keeps a login request cheap
SECRET_BYTES = 32
_SITE = "site"

metadata = MetaData()

arbitri = Table(
    "web_arbitri", metadata,
    Column("name", String(NAME_MAX), primary_key=True),
    Column("password_hash", String(512), nullable=False),
    Column("created", String(32), nullable=False),   # UTC, ISO 8601: sorts as text
)

segreti = Table(
    "web_segreti", metadata,
    Column("name", String(32), primary_key=True),
    Column("value", String(256), nullable=False),   # hex
)


class AccountError(ValueError):
    """A refused change of the accounts: a bad name or password, a name taken or unknown."""


@dataclass(frozen=True, slots=True)
class ArbiterAccount:
    """An arbiter who may log in: the name and when the account was made (UTC, ISO 8601)."""

    name: str
    created: str


def ensure_tables(engine: Engine) -> None:
    """Create the accounts' tables where missing."""
    ensure_metadata(engine, metadata)


def _have_tables(conn: Connection) -> bool:
    found = inspect(conn)
    return all(found.has_table(name) for name in metadata.tables)


def check_name(name: str) -> None:
    """An arbiter's name: 1 to 64 printable characters, no space at either end."""
    if not 1 <= len(name) <= NAME_MAX or not name.isprintable() or name != name.strip():
        raise AccountError(say("the arbiter's name must be 1 to {most} printable characters, "
                               "with no space at either end", most=NAME_MAX))


def check_password(password: str) -> None:
    """A password: at least 8 characters (and at most 1024)."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise AccountError(say("the password must be {least} to {most} characters long",
                               least=PASSWORD_MIN, most=PASSWORD_MAX))


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def add_arbiter(engine: Engine, name: str, password: str) -> None:
    """A new arbiter's account; AccountError if the name is taken or name or password bad."""
    check_name(name)
    check_password(password)
    hashed = generate_password_hash(password)
    ensure_tables(engine)
    try:
        with writing(engine).begin() as conn:
            conn.execute(insert(arbitri).values(name=name, password_hash=hashed,
                                                created=_now()))
    except IntegrityError:
        raise AccountError(say("the arbiter {name} exists already", name=name)) from None


def set_password(engine: Engine, name: str, password: str) -> None:
    """A new password for the arbiter `name`; AccountError if unknown or the password bad."""
    check_password(password)
    hashed = generate_password_hash(password)
    ensure_tables(engine)
    with writing(engine).begin() as conn:
        changed = conn.execute(update(arbitri).where(arbitri.c.name == name)
                               .values(password_hash=hashed)).rowcount
        end_sessions(conn, name)   # every login of the old password ends with it
    if changed != 1:
        raise _unknown(name)


def remove_arbiter(engine: Engine, name: str) -> None:
    """Remove the arbiter `name` and end their logins; AccountError if there is none."""
    ensure_tables(engine)
    with writing(engine).begin() as conn:
        removed = conn.execute(delete(arbitri).where(arbitri.c.name == name)).rowcount
        end_sessions(conn, name)
    if removed != 1:
        raise _unknown(name)


def _unknown(name: str) -> AccountError:
    return AccountError(say("no arbiter is named {name}", name=name))


def arbiters(engine: Engine) -> list[ArbiterAccount]:
    """Every arbiter, by name (none while the tables are not made: nothing is written)."""
    with engine.connect() as conn:
        if not _have_tables(conn):
            return []
        rows = conn.execute(select(arbitri.c.name, arbitri.c.created)
                            .order_by(arbitri.c.name)).all()
    return [ArbiterAccount(name, created) for name, created in rows]


@cache
def _dummy_hash() -> str:
    return generate_password_hash(secrets.token_hex(16))


def check_login(engine: Engine, name: str, password: str) -> bool:
    """Whether `password` is the arbiter `name`'s. An unknown name costs a hash check too, so
    that the time taken does not tell which names exist."""
    stored = _stored_hash(engine, name)
    matches = check_password_hash(stored or _dummy_hash(), password[:PASSWORD_MAX + 1])
    return stored is not None and matches


def _stored_hash(engine: Engine, name: str) -> str | None:
    with engine.connect() as conn:
        if not _have_tables(conn):
            return None
        found = conn.execute(select(arbitri.c.password_hash)
                             .where(arbitri.c.name == name)).scalar_one_or_none()
    return found


def site_secret(engine: Engine) -> bytes:
    """The site's secret (32 random bytes), made on first use; the same on every call, from
    any engine on this database, until rotated."""
    found = _read_secret(engine)
    if found is not None:
        return found
    ensure_tables(engine)
    try:
        with writing(engine).begin() as conn:
            conn.execute(insert(segreti).values(name=_SITE, value=_fresh()))
    except IntegrityError:
        pass   # another process made it first: theirs is the one
    made = _read_secret(engine)
    assert made is not None   # written or found written, in this very function
    return made


def rotate_site_secret(engine: Engine) -> None:
    """A new site secret: every seat link given so far stops working and every arbiter is
    logged out."""
    ensure_tables(engine)
    with writing(engine).begin() as conn:
        conn.execute(delete(segreti).where(segreti.c.name == _SITE))
        conn.execute(insert(segreti).values(name=_SITE, value=_fresh()))
        end_sessions(conn)


def current_secret(engine: Engine) -> bytes | None:
    """The site secret as the store holds it now (one read by primary key, for each request
    that needs it: a rotation by another process counts at once); None if there is none."""
    try:
        with engine.connect() as conn:
            value = conn.execute(select(segreti.c.value)
                                 .where(segreti.c.name == _SITE)).scalar_one_or_none()
    except DBAPIError:
        return None
    return None if value is None else bytes.fromhex(value)


def _fresh() -> str:
    return secrets.token_bytes(SECRET_BYTES).hex()


def _read_secret(engine: Engine) -> bytes | None:
    with engine.connect() as conn:
        if not _have_tables(conn):
            return None
        value = conn.execute(select(segreti.c.value)
                             .where(segreti.c.name == _SITE)).scalar_one_or_none()
    return None if value is None else bytes.fromhex(value)
