"""Issue 23, point 8: logins and seat links are checked against the store on each request, so
a logout, an arbiter's removal, a password change and `rotate-secret` take effect at once, in
every server process over the store (two `create_app` on one store stand for two processes),
on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from uuid import UUID

import pytest
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text

from domain.record.events import MatchCreated
from projections.accounts import add_arbiter, site_secret
from projections.arbiter_signing import give_key
from replay_web.access import seat_token
from replay_web.cli import cli
from replay_web.web.app import create_app
from tests.replay_web.demo import run, stored_events
from tests.replay_web.web.conftest import close_app
from tests.replay_web.web.test_arbiter import _login, _token

NAME, PASSWORD, NEW = "Rossi", "una-password-lunga", "un'altra-password"
SESSION_COOKIE = "session"


@dataclass(frozen=True)
class Store:
    url: str
    match: str
    apps: tuple[Flask, Flask]
    """Two viewers over the one store: two server processes."""


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    from tests.projections.conftest import make_backend

    for backend in make_backend(request.param, tmp_path):
        code, out, err = run("simulate", "matches", "--store", "--count", "2",
                             "--database", backend.url)
        assert code == 0, out + err
        apps = (create_app(backend.url, config={"TESTING": True}),
                create_app(backend.url, config={"TESTING": True}))
        services = apps[0].extensions["verbale"]
        add_arbiter(services.engine, NAME, PASSWORD)
        give_key(services.store, services.engine, NAME, PASSWORD)
        match = next(s for s, events in stored_events(backend.url).items()
                     if isinstance(events[0], MatchCreated))
        yield Store(backend.url, match, apps)
        for app in apps:
            close_app(app)


def _arbiter_api(client: FlaskClient, store: Store) -> int:
    return client.get(f"/api/matches/{store.match}/steps/1?view=arbiter").status_code


def _logged_in(app: Flask) -> FlaskClient:
    client = app.test_client()
    code, _page, _location = _login(client)
    assert code == 303
    return client


def _saved_cookie(client: FlaskClient) -> str:
    cookie = client.get_cookie(SESSION_COOKIE)
    assert cookie is not None
    return cookie.value


def _with_cookie(app: Flask, value: str) -> FlaskClient:
    client = app.test_client()
    client.set_cookie(SESSION_COOKIE, value)
    return client


def _logout(client: FlaskClient, store: Store) -> None:
    page = client.get(f"/matches/{store.match}?view=arbiter").get_data(as_text=True)
    assert client.post("/arbiter/logout", data={"csrf_token": _token(page)}).status_code == 303


def test_a_cookie_saved_before_logout_is_refused_after(store: Store) -> None:
    client = _logged_in(store.apps[0])
    saved = _saved_cookie(client)
    assert _arbiter_api(client, store) == 200
    _logout(client, store)
    assert _arbiter_api(_with_cookie(store.apps[0], saved), store) == 403
    assert _arbiter_api(_with_cookie(store.apps[1], saved), store) == 403   # another process


def test_a_removed_arbiter_is_refused_at_once(store: Store) -> None:
    client = _logged_in(store.apps[0])
    other = _with_cookie(store.apps[1], _saved_cookie(client))
    assert _arbiter_api(client, store) == 200 and _arbiter_api(other, store) == 200
    code, out, err = run("arbiter", "remove", NAME, "--database", store.url)
    assert code == 0, out + err
    assert _arbiter_api(client, store) == 403
    assert _arbiter_api(other, store) == 403
    assert 'id="login-link"' in client.get("/").get_data(as_text=True)


def test_a_password_change_logs_out_every_session(store: Store) -> None:
    first, second = _logged_in(store.apps[0]), _logged_in(store.apps[1])
    result = CliRunner().invoke(cli, ["arbiter", "passwd", NAME, "--password-stdin",
                                      "--database", store.url],
                                input=f"{PASSWORD}\n{NEW}\n")
    assert result.exit_code == 0, result.output
    assert _arbiter_api(first, store) == 403
    assert _arbiter_api(second, store) == 403
    again = store.apps[1].test_client()
    assert _login(again, password=NEW)[0] == 303
    assert _arbiter_api(again, store) == 200


def test_after_rotate_secret_old_seat_links_are_refused_without_restart(store: Store) -> None:
    engine = store.apps[0].extensions["verbale"].engine
    old = seat_token(site_secret(engine), UUID(store.match), 0)
    link = f"/matches/{store.match}?view=seat1&token={old}"
    arbiter = _logged_in(store.apps[1])
    assert [app.test_client().get(link).status_code for app in store.apps] == [200, 200]
    code, out, err = run("arbiter", "rotate-secret", "--yes", "--database", store.url)
    assert code == 0, out + err
    assert [app.test_client().get(link).status_code for app in store.apps] == [403, 403]
    new = seat_token(site_secret(engine), UUID(store.match), 0)
    assert new != old
    fresh = f"/matches/{store.match}?view=seat1&token={new}"
    assert [app.test_client().get(fresh).status_code for app in store.apps] == [200, 200]
    assert _arbiter_api(arbiter, store) == 403   # every arbiter logged out too


def test_logging_out_in_one_process_logs_out_in_the_other(store: Store) -> None:
    client = _logged_in(store.apps[0])
    other = _with_cookie(store.apps[1], _saved_cookie(client))
    assert _arbiter_api(other, store) == 200
    _logout(client, store)
    assert _arbiter_api(other, store) == 403


def test_a_session_of_another_arbiter_is_not_touched(store: Store) -> None:
    """Logging out ends that session only; removing one arbiter leaves the others logged in."""
    services = store.apps[0].extensions["verbale"]
    add_arbiter(services.engine, "Bianchi", PASSWORD)
    rossi, bianchi = _logged_in(store.apps[0]), store.apps[0].test_client()
    assert _login(bianchi, name="Bianchi")[0] == 303
    rossi_elsewhere = _logged_in(store.apps[1])
    _logout(rossi, store)
    assert _arbiter_api(rossi_elsewhere, store) == 200
    code, out, err = run("arbiter", "remove", NAME, "--database", store.url)
    assert code == 0, out + err
    assert (_arbiter_api(rossi_elsewhere, store), _arbiter_api(bianchi, store)) == (403, 200)


def test_a_store_made_before_sessions_still_logs_in(store: Store) -> None:
    """The accounts' new tables are made where missing: a store from before them works."""
    engine = store.apps[0].extensions["verbale"].engine
    with engine.begin() as conn:
        for table in ("web_sessioni", "web_tentativi"):
            conn.execute(text(f"DROP TABLE IF EXISTS {table}"))
    app = create_app(store.url, config={"TESTING": True})
    try:
        client = _logged_in(app)
        assert _arbiter_api(client, store) == 200
    finally:
        close_app(app)


def test_a_login_lasts_a_day(store: Store) -> None:
    from projections.web_sessions import SESSION_SECONDS

    now = [1_800_000_000.0]
    for app in store.apps:
        app.extensions["verbale"].clock = lambda: now[0]
    client = _logged_in(store.apps[0])
    now[0] += SESSION_SECONDS - 1
    assert _arbiter_api(client, store) == 200
    now[0] += 2
    assert _arbiter_api(client, store) == 403
    assert _arbiter_api(_with_cookie(store.apps[1], _saved_cookie(client)), store) == 403
