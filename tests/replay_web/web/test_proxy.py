"""Issue 23, point 10: the viewer behind a TLS proxy (`verbale serve --behind-proxy`, the
VERBALE_BEHIND_PROXY setting): the client's address, scheme and host from the proxy's
X-Forwarded-* headers (Werkzeug's ProxyFix), Secure cookies, HSTS; none of it otherwise."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from projections.accounts import add_arbiter
from replay_web.web.app import create_app
from replay_web.web.records import HeldReplays
from tests.projections.conftest import make_backend
from tests.replay_web.demo import run
from tests.replay_web.web.conftest import close_app
from tests.replay_web.web.test_arbiter import _token

NAME, PASSWORD = "Rossi", "una-password-lunga"
FORWARDED = {"X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "https",
             "X-Forwarded-Host": "verbale.example"}
PROXY = "10.0.0.2"   # the proxy's own address: what the viewer sees without ProxyFix


def _memory_app(**config: Any) -> Flask:
    return create_app(replays=HeldReplays({}), secret=b"p" * 32,
                      config={"TESTING": True, **config})


def _get(client: FlaskClient, path: str, **headers: str) -> TestResponse:
    return client.get(path, headers={**FORWARDED, **headers},
                      environ_base={"REMOTE_ADDR": PROXY})


def _set_cookies(response: TestResponse) -> list[str]:
    return response.headers.getlist("Set-Cookie")


def test_behind_the_proxy_cookies_are_secure_and_hsts_is_sent() -> None:
    app = _memory_app(VERBALE_BEHIND_PROXY=True)
    response = _get(app.test_client(), "/preferences?lang=en&next=/")
    assert response.headers["Strict-Transport-Security"] == "max-age=31536000"
    cookies = _set_cookies(response)
    assert cookies and all("Secure" in c for c in cookies), cookies
    assert app.config["SESSION_COOKIE_SECURE"] is True


def test_without_the_setting_nothing_changes() -> None:
    app = _memory_app()
    response = _get(app.test_client(), "/preferences?lang=en&next=/")
    assert "Strict-Transport-Security" not in response.headers
    assert all("Secure" not in c for c in _set_cookies(response))
    assert not app.config.get("SESSION_COOKIE_SECURE")


def test_no_hsts_over_plain_http_even_behind_the_proxy() -> None:
    app = _memory_app(VERBALE_BEHIND_PROXY=True)
    response = _get(app.test_client(), "/preferences?next=/", **{"X-Forwarded-Proto": "http"})
    assert "Strict-Transport-Security" not in response.headers


def test_the_setting_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERBALE_BEHIND_PROXY", "1")
    monkeypatch.setenv("VERBALE_PROXY_HOPS", "2")
    app = _memory_app()
    assert (app.config["VERBALE_BEHIND_PROXY"], app.config["VERBALE_PROXY_HOPS"]) == (True, 2)
    monkeypatch.setenv("VERBALE_BEHIND_PROXY", "perhaps")
    with pytest.raises(ValueError, match="VERBALE_BEHIND_PROXY=perhaps"):
        _memory_app()
    monkeypatch.setenv("VERBALE_BEHIND_PROXY", "0")
    monkeypatch.setenv("VERBALE_PROXY_HOPS", "zero")
    assert _memory_app().config["VERBALE_BEHIND_PROXY"] is False


@pytest.fixture(params=["sqlite", "postgres"])
def store_app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, Flask]]:
    for backend in make_backend(request.param, tmp_path):
        code, out, err = run("simulate", "matches", "--store", "--count", "1",
                             "--database", backend.url)
        assert code == 0, out + err
        app = create_app(backend.url, config={"TESTING": True, "VERBALE_BEHIND_PROXY": True})
        add_arbiter(app.extensions["verbale"].engine, NAME, PASSWORD)
        yield backend.url, app
        close_app(app)


def _post_login(client: FlaskClient, address: str, password: str,
                referer: str = "https://verbale.example/arbiter/login") -> TestResponse:
    headers = {**FORWARDED, "X-Forwarded-For": address, "Referer": referer}
    page = client.get("/arbiter/login", headers=headers, environ_base={"REMOTE_ADDR": PROXY})
    return client.post("/arbiter/login", headers=headers, environ_base={"REMOTE_ADDR": PROXY},
                       data={"csrf_token": _token(page.get_data(as_text=True)), "name": NAME,
                             "password": password, "next": "/"})


def test_a_login_through_the_proxy(store_app: tuple[str, Flask]) -> None:
    """Over HTTPS at the proxy, the CSRF check's same-site Referer is the proxy's host; the
    login's cookies are Secure."""
    _url, app = store_app
    response = _post_login(app.test_client(), "203.0.113.7", PASSWORD)
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    cookies = _set_cookies(response)
    assert {c.split("=")[0] for c in cookies} >= {"session", "verbale_browser"}
    assert all("Secure" in c for c in cookies), cookies
    assert response.headers["Strict-Transport-Security"] == "max-age=31536000"
    refused = _post_login(app.test_client(), "203.0.113.7", PASSWORD,
                          referer="https://evil.example/arbiter/login")
    assert refused.status_code == 400


def test_the_brakes_count_the_client_not_the_proxy(store_app: tuple[str, Flask]) -> None:
    """Behind the proxy, one client's failures do not slow another client (all come from the
    proxy's address)."""
    _url, app = store_app
    app.extensions["verbale"].clock = lambda: 1_800_000_000.0
    codes = [_post_login(app.test_client(), "203.0.113.7", "sbagliata").status_code
             for _ in range(4)]
    assert codes[-1] == 429
    assert _post_login(app.test_client(), "198.51.100.9", PASSWORD).status_code == 303


def test_without_the_setting_a_forged_header_does_not_dodge_the_brakes(tmp_path: Path) -> None:
    """Not behind a proxy, X-Forwarded-For is anyone's to write: it is not read."""
    for backend in make_backend("sqlite", tmp_path):
        app = create_app(backend.url, config={"TESTING": True})
        app.extensions["verbale"].clock = lambda: 1_800_000_000.0
        add_arbiter(app.extensions["verbale"].engine, NAME, PASSWORD)
        codes = [_post_login(app.test_client(), f"198.51.100.{n}", "sbagliata",
                             referer="").status_code for n in range(4)]
        assert codes == [200, 200, 200, 429]
        close_app(app)


def test_hops_count_the_proxies(tmp_path: Path) -> None:
    """With two proxies in front (VERBALE_PROXY_HOPS=2), the client is the second address from
    the right of X-Forwarded-For, and what a client wrote before it is not believed."""
    seen: list[str | None] = []
    app = _memory_app(VERBALE_BEHIND_PROXY=True, VERBALE_PROXY_HOPS=2)

    @app.get("/_address")
    def _address() -> str:
        from flask import request
        seen.append(request.remote_addr)
        return ""

    _get(app.test_client(), "/_address",
         **{"X-Forwarded-For": "6.6.6.6, 203.0.113.7, 10.0.0.1",
            "X-Forwarded-Proto": "https, https", "X-Forwarded-Host": "verbale.example, x"})
    assert seen == ["203.0.113.7"]


def test_serve_behind_proxy_option(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """`verbale serve --behind-proxy --proxy-hops 2` gives the app the setting."""
    made: list[Flask] = []

    class Server:
        effective_port = 8650

        def run(self) -> None:
            return None

        def close(self) -> None:
            return None

    def create_server(app: Flask, **kwargs: object) -> Server:
        made.append(app)
        assert kwargs["clear_untrusted_proxy_headers"] is False   # left to ProxyFix
        return Server()

    monkeypatch.setattr("waitress.server.create_server", create_server)
    for backend in make_backend("sqlite", tmp_path):
        code, out, err = run("simulate", "matches", "--store", "--count", "1",
                             "--database", backend.url)
        assert code == 0, out + err
        code, out, err = run("serve", "--behind-proxy", "--proxy-hops", "2", "--port", "8650",
                             "--database", backend.url)
        assert code == 0, out + err
        assert [(a.config["VERBALE_BEHIND_PROXY"], a.config["VERBALE_PROXY_HOPS"])
                for a in made] == [(True, 2)]
        close_app(made[0])


def test_through_the_real_server(tmp_path: Path) -> None:
    """`verbale serve --behind-proxy` itself (waitress in a process of its own, any free port):
    the proxy's headers reach the app (waitress drops them unless told not to) and the answer
    is HTTPS's: Secure cookie, HSTS. Without the option, the same headers change nothing."""
    for backend in make_backend("sqlite", tmp_path):
        code, out, err = run("simulate", "matches", "--store", "--count", "1",
                             "--database", backend.url)
        assert code == 0, out + err
        for option, secure in (("--behind-proxy", True), (None, False)):
            headers = _served(backend.url, option)
            assert ("Strict-Transport-Security" in headers) is secure, headers
            assert ("Secure" in headers.get("Set-Cookie", "")) is secure, headers


def _served(url: str, option: str | None) -> dict[str, str]:
    import http.client
    import re
    import subprocess
    import sys

    command = [sys.executable, "-c", "from replay_web.cli import main; main()", "serve",
               "--port", "0", "--database", url] + ([option] if option else [])
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as server:
        try:
            assert server.stdout is not None
            line = server.stdout.readline()   # printed once the socket listens
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            assert found is not None, line
            conn = http.client.HTTPConnection("127.0.0.1", int(found.group(1)), timeout=30)
            conn.request("GET", "/preferences?lang=en&next=/", headers=FORWARDED)
            answer = conn.getresponse()
            conn.close()
            return dict(answer.getheaders())
        finally:
            server.terminate()
