"""With CI=true a PostgreSQL that cannot be reached fails the run instead of skipping."""

from __future__ import annotations

import pytest

from tests.projections import conftest


def test_without_postgres_a_local_run_skips_and_ci_fails(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(conftest, "_pg_error", ["PostgreSQL at 127.0.0.1:5432 is unreachable"])
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="unreachable"):
        conftest.require_postgres()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI=true"):
        conftest.require_postgres()
