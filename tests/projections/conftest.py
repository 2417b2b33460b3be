"""Storage fixtures: every storage test runs on SQLite and on PostgreSQL.

PostgreSQL is 127.0.0.1:5432, database `test`, trust auth; each test gets its own schema, dropped
afterwards, so no test depends on another's leftovers. When PostgreSQL cannot be reached the
PostgreSQL variant is skipped with the reason, except with CI=true, where that is a failure.
"""

from __future__ import annotations

import os
import sqlite3
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest

from projections.store.app import MatchStore
from tests.domain.record.toy import TOY_CATALOG

PG_DSN = "host=127.0.0.1 port=5432 dbname=test user=postgres connect_timeout=3"
PG_URL = "postgresql://postgres@127.0.0.1:5432/test"
_pg_error: list[str] = []


def postgres_problem() -> str | None:
    """Why PostgreSQL cannot be used here, or None (probed once per session)."""
    if not _pg_error:
        try:
            with psycopg.connect(PG_DSN) as conn:
                conn.execute("SELECT 1")
            _pg_error.append("")
        except psycopg.Error as error:
            _pg_error.append(f"PostgreSQL at 127.0.0.1:5432 (database test) is unreachable: "
                             f"{str(error).strip().splitlines()[0]}")
    return _pg_error[0] or None


def require_postgres() -> None:
    problem = postgres_problem()
    if problem is None:
        return
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{problem} (CI=true: PostgreSQL is required)")
    pytest.skip(problem)


@dataclass(frozen=True)
class Backend:
    """A store location plus plain-SQL access behind the library's back (for the tamper and
    append-only tests)."""

    kind: str
    url: str
    path: Path | None = None
    schema: str | None = None

    @property
    def events_table(self) -> str:
        return "verbale_events" if self.kind == "sqlite" else f"{self.schema}.verbale_events"

    @property
    def heads_table(self) -> str:
        return "verbale_heads" if self.kind == "sqlite" else f"{self.schema}.verbale_heads"

    def connect(self) -> Any:
        if self.kind == "sqlite":
            return sqlite3.connect(str(self.path), isolation_level=None)
        return psycopg.connect(PG_DSN, autocommit=True)

    def placeholder(self) -> str:
        return "?" if self.kind == "sqlite" else "%s"


def make_backend(kind: str, tmp_path: Path) -> Iterator[Backend]:
    if kind == "sqlite":
        path = tmp_path / "verbale.db"
        yield Backend("sqlite", f"sqlite:///{path}", path=path)
        return
    require_postgres()
    schema = f"t_{uuid.uuid4().hex[:16]}"
    yield Backend("postgres", f"{PG_URL}?schema={schema}", schema=schema)
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


@pytest.fixture
def store(backend: Backend) -> Iterator[MatchStore]:
    app = MatchStore(url=backend.url, catalog=TOY_CATALOG)
    yield app
    app.close()
