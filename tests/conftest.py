"""Hypothesis profiles: the example count of heavy property runs scales by a setting.

VERBALE_HYPOTHESIS_PROFILE=dev (default) keeps `make test` within minutes here; `ci` is used when
CI=true; `deep` is for long local runs. Tests that need many examples multiply the
profile's max_examples.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from eventsourcing.sqlite import SQLiteConnection, SQLiteConnectionPool
from hypothesis import HealthCheck, settings

from tests.profile import profile_name
from tests.projections.conftest import Backend, make_backend

settings.register_profile("dev", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", max_examples=150, deadline=None, derandomize=False,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("deep", max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])

settings.load_profile(profile_name())


@pytest.fixture
def tiny_disk(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Every new SQLite connection may grow its database to `limit[0]` pages at most: a full
    disk, as SQLite reports it ("database or disk is full")."""
    limit = [0]
    create = SQLiteConnectionPool._create_connection

    def limited(self: SQLiteConnectionPool) -> SQLiteConnection:
        conn = create(self)
        if limit[0]:
            conn._sqlite_conn.execute(f"PRAGMA max_page_count = {limit[0]}")
        return conn

    monkeypatch.setattr(SQLiteConnectionPool, "_create_connection", limited)
    yield limit


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    """Each storage test once on SQLite and once on PostgreSQL (tests/projections/conftest.py)."""
    yield from make_backend(request.param, tmp_path)
