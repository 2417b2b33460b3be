"""The brakes on password guessing at the viewer's login (issue 23, point 9), kept in the
store's own database so that every server process over it brakes the same guesser.

A brake is a count of recent attempts under a key, and a delay that grows with it: after `free`
attempts, the next waits 1 s, then 2, 4, 8... up to `cap` seconds after the last. An attempt is
counted *before* its password is checked (so parallel requests cannot all slip through one
opening) and a login that succeeds takes its count back. A key not tried for FORGET_SECONDS
starts from nothing again. The keys themselves are SHA-256 digests: the table holds no name and
no address.

Which keys an attempt is braked under is the viewer's choice (replay_web/web/login_gate.py):
the name with the address (PAIR), the address alone (ADDRESS: many names from one place), the
name alone (ACCOUNT: one name from many places), or the name with a browser that logged in as it
before (DEVICE). Every delay is capped, so no one else's failures keep the arbiter out for
longer than a cap.

`web_tentativi` is its own table (its own metadata), made where missing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy import (
    Column,
    Connection,
    Engine,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.exc import DBAPIError, IntegrityError

from projections.read_models.engine import ensure_tables, writing

FORGET_SECONDS = 3600.0


@dataclass(frozen=True, slots=True)
class Brake:
    """Attempts allowed without delay, and the longest delay (seconds)."""

    free: int
    cap: float


PAIR = Brake(free=3, cap=60.0)
ADDRESS = Brake(free=10, cap=60.0)
ACCOUNT = Brake(free=10, cap=60.0)
DEVICE = Brake(free=3, cap=60.0)
SIGNING = Brake(free=3, cap=60.0)

metadata = MetaData()

tentativi = Table(
    "web_tentativi", metadata,
    Column("key", String(64), primary_key=True),        # SHA-256 of the key's text, hex
    Column("attempts", Integer, nullable=False),
    Column("last", Float, nullable=False, index=True),  # seconds since the epoch, UTC
)

Keys = Mapping[str, Brake]
"""An attempt's keys (their text) and the brake of each."""


def delay(attempts: int, brake: Brake) -> float:
    """Seconds the next attempt waits after the last, `attempts` having been counted."""
    if attempts < brake.free:
        return 0.0
    return float(min(brake.cap, 2.0 ** min(attempts - brake.free, 32)))


def ensure_brakes(engine: Engine) -> None:
    """Create `web_tentativi` where missing (two first runs at once: the loser finds it)."""
    ensure_tables(engine, metadata)


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _counts(conn: Connection, keys: Keys, now: float, lock: bool = False
            ) -> dict[str, tuple[int, float]]:
    digests = {_digest(k): k for k in keys}
    query = select(tentativi.c.key, tentativi.c.attempts, tentativi.c.last).where(
        tentativi.c.key.in_(list(digests)), tentativi.c.last > now - FORGET_SECONDS)
    rows = conn.execute(query.with_for_update() if lock else query).all()
    return {digests[d]: (n, last) for d, n, last in rows}


def _wait(counts: Mapping[str, tuple[int, float]], keys: Keys, now: float) -> float:
    return max([0.0] + [last + delay(n, keys[k]) - now for k, (n, last) in counts.items()])


def wait_for(engine: Engine, keys: Keys, now: float) -> float:
    """Seconds before an attempt under `keys` is let through (0: now). Only reads."""
    try:
        with engine.connect() as conn:
            return _wait(_counts(conn, keys, now), keys, now)
    except DBAPIError:   # a store from before the brakes: nothing counted yet (`admit` makes
        return 0.0       # the table, or fails for good)


def admit(engine: Engine, keys: Keys, now: float) -> float:
    """Let an attempt through under `keys` and count it (0), or the seconds it must wait
    (nothing counted). Two processes admitting at once are serialised by the row locks."""
    ensure_brakes(engine)
    for tries in range(2):
        try:
            with writing(engine).begin() as conn:
                return _admit(conn, keys, now)
        except IntegrityError:   # another process counted a new key first: count again
            if tries:
                raise
    raise AssertionError("unreachable")


def _admit(conn: Connection, keys: Keys, now: float) -> float:
    counts = _counts(conn, keys, now, lock=True)
    wait = _wait(counts, keys, now)
    if wait > 0:
        return wait
    conn.execute(delete(tentativi).where(tentativi.c.last <= now - FORGET_SECONDS))
    for key in keys:
        attempts = counts.get(key, (0, now))[0] + 1
        digest = _digest(key)
        if key in counts:
            conn.execute(update(tentativi).where(tentativi.c.key == digest)
                         .values(attempts=attempts, last=now))
        else:
            conn.execute(insert(tentativi).values(key=digest, attempts=attempts, last=now))
    return 0.0


def succeeded(engine: Engine, cleared: Keys, taken_back: Keys) -> None:
    """A login succeeded: the counts of `cleared` start from nothing, the attempt is taken
    back from those of `taken_back` (someone else's failures there stay counted)."""
    with writing(engine).begin() as conn:
        if cleared:
            conn.execute(delete(tentativi).where(
                tentativi.c.key.in_([_digest(k) for k in cleared])))
        if taken_back:
            conn.execute(update(tentativi).where(
                tentativi.c.key.in_([_digest(k) for k in taken_back]),
                tentativi.c.attempts > 0).values(attempts=tentativi.c.attempts - 1))
