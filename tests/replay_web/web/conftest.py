"""The viewer's fixtures: the demo store (SQLite and PostgreSQL, recorded once per session,
verified so its verdicts are in the read models), an app over it and a test client.

`demo_app` only reads; a test that writes (a ruling) records its own store with `fresh_store`.
`as_arbiter` logs a client in (a login opened in the store, or in memory, and its token in the
session), as the login form does after checking the password.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from replay_web.web.app import create_app
from replay_web.web.guard import ARBITER_KEY, open_login
from tests.replay_web.demo import Demo, record_demo, run


@pytest.fixture(scope="session", params=["sqlite", "postgres"])
def web_demo(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
             ) -> Iterator[Demo]:
    """The demo store, verified (`verify --record`): tests only read it."""
    for demo in record_demo(request.param, tmp_path_factory.mktemp(f"web-{request.param}")):
        code, out, err = run("verify", "--record", "--database", demo.url)
        assert code == 0, out + err
        yield demo


@pytest.fixture(scope="session")
def demo_app(web_demo: Demo) -> Iterator[Flask]:
    app = create_app(web_demo.url, config={"TESTING": True})
    yield app
    close_app(app)


@pytest.fixture
def client(demo_app: Flask) -> FlaskClient:
    return demo_app.test_client()


def close_app(app: Flask) -> None:
    services = app.extensions["verbale"]
    if services.engine is not None:
        services.engine.dispose()
    if services.store is not None:
        services.store.close()


def as_arbiter(client: FlaskClient, name: str = "Arbitro") -> FlaskClient:
    token = open_login(client.application.extensions["verbale"], name)
    with client.session_transaction() as session:
        session[ARBITER_KEY] = token
    return client


@pytest.fixture
def fresh_store(tmp_path: Path) -> Iterator[str]:
    """A small SQLite store of its own (five demo matches, one of three smazzate), for a test
    that writes."""
    url = f"sqlite:///{tmp_path / 'verbale.db'}"
    code, out, err = run("simulate", "matches", "--store", "--count", "5", "--database", url)
    assert code == 0, out + err
    yield url
