"""`verbale fairness` run by the store's owner and by anyone else, on both databases (issue 23
point 5): the owner sees the whole report; anyone else (`--public` too) gets the public's, which
shows nothing per position over fewer deals than the minimum population. The owner of a SQLite
store is the owner of its file; of a PostgreSQL store, the role that owns the events table."""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from projections.fairness.privacy import SETTING
from tests.projections.conftest import PG_DSN, Backend, make_backend
from tests.replay_web.demo import run

NOBODY = 65534


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def recorded(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
             ) -> Iterator[Backend]:
    """Three demo matches: fewer deals than the minimum population of 40."""
    folder: Path = tmp_path_factory.mktemp(f"cli-fairness-privacy-{request.param}")
    for backend in make_backend(request.param, folder):
        code, out, err = run("simulate", "matches", "--count", "3", "--store", "--database",
                             backend.url)
        assert code == 0, out + err
        yield backend


@pytest.fixture
def stranger(recorded: Backend) -> Iterator[str]:
    """A URL of the same store for someone who is not its owner: the SQLite file given to
    another user (read as root), or a PostgreSQL role that may only read the tables."""
    if recorded.kind == "sqlite":
        assert recorded.path is not None
        before = recorded.path.stat()
        os.chown(recorded.path, NOBODY, NOBODY)
        yield recorded.url
        os.chown(recorded.path, before.st_uid, before.st_gid)
        return
    role = f"reader_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN")
        conn.execute(f"GRANT USAGE ON SCHEMA {recorded.schema} TO {role}")
        conn.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA {recorded.schema} TO {role}")
    yield f"postgresql://{role}@127.0.0.1:5432/test?schema={recorded.schema}"
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.execute(f"DROP OWNED BY {role}")
        conn.execute(f"DROP ROLE {role}")


def _json(url: str, *args: str) -> Any:
    code, out, err = run("fairness", *args, "--json", "--database", url)
    assert code == 0 and err == "", (code, out, err)
    return json.loads(out)


def _shown_tests(data: Any) -> list[str]:
    return [t["name"] for t in data["verified"]["tests"] if t["n"] > 0]


def test_the_owner_sees_the_whole_report(recorded: Backend) -> None:
    data = _json(recorded.url)
    assert 0 < data["verified"]["deals"] < 40
    assert data["privacy"] == {"minimum_deals": 40, "gated": False, "withheld": []}
    assert "slots" in _shown_tests(data)


def test_anyone_else_gets_the_public_report(recorded: Backend, stranger: str) -> None:
    """Before issue 23: the same report as the owner's, every test and verdict (a card at a
    slot) over these few deals."""
    data = _json(stranger)
    deals = data["verified"]["deals"]
    assert 0 < deals < 40
    assert data["privacy"]["gated"] is True
    assert data["privacy"]["withheld"][0] == {"population": "seeded", "deals": deals,
                                              "whole": True, "tests": []}
    assert _shown_tests(data) == [] and data["verified"]["descriptive"] == []
    assert data["headline"].startswith(
        f"Too few deals for a public figure: {deals} selected, fewer than the minimum of 40.")
    code, out, err = run("fairness", "--database", stranger)
    assert code == 0, out + err
    assert "minimum of 40" in out and "standard deviations" not in out and "slot" not in out


def test_the_owner_can_see_what_the_public_sees(recorded: Backend) -> None:
    assert _json(recorded.url, "--public")["privacy"]["gated"] is True


def test_the_minimum_is_a_setting_and_a_bad_one_is_said(recorded: Backend) -> None:
    code, out, err = run("fairness", "--json", "--public", "--database", recorded.url,
                         env={SETTING: "2"})
    assert code == 0, out + err
    data = json.loads(out)
    assert data["privacy"]["minimum_deals"] == 2 and "slots" in _shown_tests(data)
    code, out, err = run("fairness", "--database", recorded.url, env={SETTING: "none"})
    assert code == 2 and SETTING in err and "'none'" in err
