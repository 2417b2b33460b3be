"""The arbiter's login and rulings, through HTTP with CSRF on, on SQLite and PostgreSQL: a ruling
becomes an event signed by the arbiter, the read models follow, the page shows both scores; a
ruling the domain refuses, a POST without its token or without a login, write nothing."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from uuid import UUID

import pytest
from flask import Flask
from flask.testing import FlaskClient

from domain.events import SmazzataEnded
from domain.record.events import MatchCreated, MatchEnded, RulingRecorded
from projections.accounts import add_arbiter
from projections.arbiter_signing import give_key
from projections.store.app import MatchStore
from replay_web.web.app import create_app
from replay_web.web.guard import ARBITER_KEY
from replay_web.web.redirects import safe_next
from tests.projections.conftest import make_backend
from tests.replay_web.demo import run, stored_events
from tests.replay_web.web.conftest import close_app

NAME, PASSWORD = "Rossi", "una-password-lunga"


@dataclass(frozen=True)
class Site:
    app: Flask
    url: str
    match: str
    """An ended two-player match of two smazzate or more, ended by its format."""


@pytest.fixture(params=["sqlite", "postgres"])
def site(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Site]:
    for backend in make_backend(request.param, tmp_path):
        code, out, err = run("simulate", "matches", "--store", "--count", "8",
                             "--database", backend.url)
        assert code == 0, out + err
        app = create_app(backend.url, config={"TESTING": True})
        services = app.extensions["verbale"]
        add_arbiter(services.engine, NAME, PASSWORD)
        give_key(services.store, services.engine, NAME, PASSWORD)
        yield Site(app, backend.url, _ended_match(backend.url))
        close_app(app)


def _ended_match(url: str) -> str:
    for stream, events in stored_events(url).items():
        ended = [e for e in events if isinstance(e, MatchEnded)]
        if (isinstance(events[0], MatchCreated) and len(events[0].players) == 2 and ended
                and ended[-1].reason not in ("timeout", "abandon")
                and sum(isinstance(e, SmazzataEnded) for e in events) >= 2):
            return stream
    raise AssertionError("the simulated store has no ended two-player match")


def _client(site: Site) -> FlaskClient:
    """A browser in English: the words the tests look for are the catalogue's sources."""
    client = site.app.test_client()
    client.set_cookie("lang", "en")
    return client


def _token(page: str) -> str:
    found = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page)
    assert found is not None, "no CSRF token on the page"
    return found.group(1)


def _login(client: FlaskClient, name: str = NAME, password: str = PASSWORD,
           next_path: str = "/") -> tuple[int, str, str | None]:
    token = _token(client.get("/arbiter/login").get_data(as_text=True))
    response = client.post("/arbiter/login", data={"csrf_token": token, "name": name,
                                                   "password": password, "next": next_path})
    return response.status_code, response.get_data(as_text=True), response.location


def _events(site: Site) -> list[object]:
    return stored_events(site.url)[site.match]


def _arbiter_page(client: FlaskClient, site: Site) -> str:
    response = client.get(f"/matches/{site.match}?view=arbiter")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def _rule(client: FlaskClient, site: Site, **fields: str) -> tuple[int, str | None]:
    """Post the ruling form; signed with the arbiter's password unless `sign_password` is
    given (empty: not typed)."""
    token = _token(_arbiter_page(client, site))
    signing = {"sign_password": PASSWORD, **fields}
    if not signing["sign_password"]:
        del signing["sign_password"]
    response = client.post(f"/matches/{site.match}/rulings",
                           data={"csrf_token": token, **signing})
    return response.status_code, response.location


def test_login_giusto_sbagliato_sconosciuto(site: Site) -> None:
    client = _client(site)
    wrong = _login(client, password="sbagliata")
    unknown = _login(client, name="Nessuno")
    for code, page, location in (wrong, unknown):
        assert (code, location) == (200, None)
        assert "wrong name or password" in page
    with client.session_transaction() as session:
        assert ARBITER_KEY not in session
    code, _, location = _login(client, next_path=f"/matches/{site.match}?view=arbiter")
    assert (code, location) == (303, f"/matches/{site.match}?view=arbiter")
    page = _arbiter_page(client, site)
    assert f"arbiter {NAME}" in page and 'id="ruling"' in page


def test_uscita(site: Site) -> None:
    client = _client(site)
    _login(client)
    assert client.post("/arbiter/logout").status_code == 400   # no token: still logged in
    token = _token(_arbiter_page(client, site))
    assert client.post("/arbiter/logout", data={"csrf_token": token}).status_code == 303
    assert client.get(f"/matches/{site.match}?view=arbiter").status_code == 403
    assert 'id="login-link"' in client.get(f"/matches/{site.match}").get_data(as_text=True)


def test_troppi_tentativi_429(site: Site) -> None:
    """Wrong passwords slow the next attempts: 429 with Retry-After, for seconds, not a lock
    (tests/replay_web/web/test_login_throttle.py has the rest, with a clock of its own)."""
    client = _client(site)
    site.app.extensions["verbale"].clock = lambda: 1_800_000_000.0   # every attempt at once
    codes = [_login(client, password="sbagliata")[0] for _ in range(5)]
    assert codes == [200, 200, 200, 429, 429]
    token = _token(client.get("/arbiter/login").get_data(as_text=True))
    response = client.post("/arbiter/login", data={"csrf_token": token, "name": NAME,
                                                   "password": PASSWORD, "next": "/"})
    assert response.status_code == 429 and response.headers["Retry-After"] == "1"
    assert "Too many attempts: try again in 1 second." in response.get_data(as_text=True)


@pytest.mark.parametrize("target", ["//evil.example/x", "https://evil.example/", "/\\evil.example",
                                    "/\t/evil.example", "javascript:alert(1)", "evil.example"])
def test_next_non_esce_dal_sito(site: Site, target: str) -> None:
    client = _client(site)
    assert _login(client, next_path=target)[2] == "/"
    assert safe_next(target) == "/"
    login_page = client.get("/arbiter/login", query_string={"next": target})
    assert 'name="next" type="hidden" value="/"' in login_page.get_data(as_text=True)


def test_una_decisione_diventa_un_evento(site: Site) -> None:
    client = _client(site)
    before = _events(site)
    recorded = [e for e in before if isinstance(e, MatchEnded)][-1].scores
    _login(client)
    code, location = _rule(client, site, reason="carta scoperta per errore",
                           kind="adjust-score", side1="3", side2="-1")
    assert code == 303 and location is not None
    assert location.startswith(f"/matches/{site.match}?view=arbiter&step={len(before) + 2}")
    store = MatchStore(url=site.url, read_only=True)
    try:
        facts = store.facts(UUID(site.match))[len(before):]
    finally:
        store.close()
    assert [f.type for f in facts] == ["RulingRecorded", "MatchEnded"]
    assert facts[0].recorded_by == {"kind": "arbiter", "name": NAME, "where": None}
    assert facts[0].data["adjustment"] == [3, -1] and facts[0].data["arbiter"] == NAME
    code, out, err = run("scores", "--match", site.match, "--json", "--database", site.url)
    assert code == 0, err
    scores = json.loads(out)
    assert scores["adjustment"] == [3, -1]
    assert scores["match"]["scores"] == [recorded[0] + 3, recorded[1] - 1]
    page = html.unescape(client.get(location).get_data(as_text=True))
    assert (f"recorded {recorded[0]}–{recorded[1]}, after rulings "
            f"{recorded[0] + 3}–{recorded[1] - 1}") in page
    assert "carta scoperta per errore" in page


def test_la_decisione_e_firmata_e_verify_la_controlla(site: Site) -> None:
    """With the password the ruling carries the arbiter's signature, which verify accepts."""
    client = _client(site)
    _login(client)
    code, _location = _rule(client, site, reason="carta vista", kind="adjust-score",
                            side1="1", side2="0")
    assert code == 303
    ruling = [e for e in _events(site) if isinstance(e, RulingRecorded)][-1]
    assert ruling.signature is not None and len(ruling.signature.value) == 128
    code, out, err = run("verify", "--match", site.match, "--database", site.url)
    assert code == 0 and "[signature]" not in out, out + err


@pytest.mark.parametrize("typed", ["", "una-password-sbagliata"])
def test_senza_la_password_giusta_niente_firma_e_niente_scritto(site: Site, typed: str) -> None:
    client = _client(site)
    _login(client)
    before = len(_events(site))
    code, location = _rule(client, site, reason="firma mancante", kind="adjust-score",
                           side1="1", sign_password=typed)
    assert code == 303 and location is not None and location.endswith("#ruling")
    page = html.unescape(client.get(location).get_data(as_text=True))
    expected = ("a ruling is recorded only signed: type your password" if not typed
                else "wrong password: the signing key of arbiter Rossi stays locked")
    assert expected in page
    assert "firma mancante" in page   # the form comes back as it was sent...
    assert not typed or typed not in page   # ...but for the password, never shown again
    assert len(_events(site)) == before
    with client.session_transaction() as session:
        assert typed == "" or typed not in json.dumps(dict(session))


def test_annullare_una_smazzata(site: Site) -> None:
    client = _client(site)
    _login(client)
    code, location = _rule(client, site, reason="mazzo incompleto", kind="annul-smazzata",
                           smazzata="1", side1="0", side2="0")
    assert code == 303 and location is not None
    ruling = [e for e in _events(site) if isinstance(e, RulingRecorded)]
    assert [(r.kind, r.smazzata) for r in ruling] == [("annul-smazzata", 0)]
    assert "(annulled)" in client.get(location).get_data(as_text=True)


def test_senza_token_csrf_400_e_niente_scritto(site: Site) -> None:
    client = _client(site)
    _login(client)
    before = len(_events(site))
    response = client.post(f"/matches/{site.match}/rulings",
                           data={"reason": "x", "kind": "adjust-score", "side1": "1"})
    assert response.status_code == 400
    assert len(_events(site)) == before


def test_senza_login_403_e_niente_scritto(site: Site) -> None:
    client = _client(site)
    before = len(_events(site))
    token = _token(client.get("/arbiter/login").get_data(as_text=True))
    response = client.post(f"/matches/{site.match}/rulings", data={
        "csrf_token": token, "reason": "x", "kind": "adjust-score", "side1": "1"})
    assert response.status_code == 403
    assert len(_events(site)) == before


def test_decisione_rifiutata_dal_dominio(site: Site) -> None:
    client = _client(site)
    _login(client)
    before = len(_events(site))
    code, location = _rule(client, site, reason="smazzata inesistente",
                           kind="annul-smazzata", smazzata="99")
    assert code == 303 and location is not None and location.endswith("#ruling")
    page = html.unescape(client.get(location).get_data(as_text=True))
    assert "smazzata 99 is not a finished, counted smazzata" in page
    assert "smazzata inesistente" in page   # the form comes back as it was sent
    assert len(_events(site)) == before
    client.set_cookie("lang", "it")   # the domain's words in the page's language
    italian = _rule(client, site, reason="di nuovo", kind="annul-smazzata", smazzata="99")[1]
    assert "la smazzata 99 non" in html.unescape(client.get(italian or "").get_data(as_text=True))
    again = client.get(location).get_data(as_text=True)   # the message is shown once
    assert "not a finished, counted smazzata" not in again


def test_modulo_non_valido(site: Site) -> None:
    client = _client(site)
    _login(client)
    before = len(_events(site))
    code, location = _rule(client, site, reason="", kind="adjust-score", side1="uno")
    assert code == 303 and location is not None
    page = client.get(location).get_data(as_text=True)
    assert 'id="ruling-errors"' in page and "Reason" in page
    assert len(_events(site)) == before


def test_il_modulo_solo_nella_vista_arbitro(site: Site) -> None:
    client = _client(site)
    _login(client)
    assert 'id="ruling"' not in client.get(
        f"/matches/{site.match}?view=public").get_data(as_text=True)
    assert 'id="ruling"' not in client.get(
        f"/embed/matches/{site.match}?view=arbiter").get_data(as_text=True)


def test_login_su_https(site: Site) -> None:
    """Over HTTPS Flask-WTF wants a same-site Referer on a POST: the pages let the browser send
    it to this site (and to no other)."""
    client = site.app.test_client()
    page = client.get("/arbiter/login", base_url="https://localhost")
    assert page.headers["Referrer-Policy"] == "same-origin"
    response = client.post("/arbiter/login", base_url="https://localhost",
                           headers={"Referer": "https://localhost/arbiter/login"},
                           data={"csrf_token": _token(page.get_data(as_text=True)),
                                 "name": NAME, "password": PASSWORD, "next": "/"})
    assert (response.status_code, response.location) == (303, "/")
