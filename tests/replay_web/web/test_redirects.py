"""Issue 23, point 7: every `next` the viewer redirects to stays on this site
(replay_web/web/redirects.py `safe_next`): the preference switches and the login form, over the
usual bypasses (tabs, backslashes, `//`, `%2f%2f`, schemes, CR/LF), never a 500.

What "stays on this site" means is checked against a model of what a browser does with a
`Location` (the WHATWG URL parser's steps that matter here): it drops every tab and newline,
strips C0 controls and spaces at both ends, reads a backslash as a slash, and reads a value that
then starts with `//` (or a scheme) as another site.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from projections.accounts import add_arbiter
from replay_web.web.app import create_app
from replay_web.web.records import HeldReplays
from replay_web.web.redirects import safe_next
from tests.projections.conftest import make_backend
from tests.replay_web.web.conftest import close_app
from tests.replay_web.web.test_arbiter import _login

NAME, PASSWORD = "Rossi", "una-password-lunga"

BYPASSES = [
    "//evil.example/", "///evil.example/", "////evil.example", "/\\evil.example",
    "\\/evil.example", "\\\\evil.example", "/\t/evil.example/", "/%09/evil.example/",
    "\t//evil.example", " //evil.example", "/\n/evil.example", "/\r\n/evil.example",
    "/%0d%0a/evil.example", "%2f%2fevil.example", "/%2f/evil.example", "/%2F%2Fevil.example",
    "/%5cevil.example", "%5c%5cevil.example", "javascript:alert(1)", "JavaScript:alert(1)",
    "java\tscript:alert(1)", "http://evil.example/", "https:evil.example", "http:/evil.example",
    "//evil.example@verbale", "evil.example", "/\x00/evil.example", "/\x7f/evil.example",
    "data:text/html,<script>alert(1)</script>", "/%252f%252fevil.example", "\u2028//evil",
    "/\u0085/evil.example",
]


def browser_target(location: str) -> tuple[str, str]:
    """What a browser makes of `location` sent from https://verbale.example/here: the scheme
    and host it goes to (the WHATWG parser's preprocessing, then its special-scheme rules)."""
    text = location.replace("\t", "").replace("\n", "").replace("\r", "")
    text = text.strip("".join(map(chr, range(0x21))))
    text = text.replace("\\", "/")
    parts = urlsplit(text)
    if parts.scheme:
        return parts.scheme.lower(), parts.netloc.lower()
    if text.startswith("//"):
        return "https", text.lstrip("/").split("/")[0].lower()
    return "https", "verbale.example"


HOME = ("https", "verbale.example")


def _local(location: str) -> bool:
    """A Location a browser keeps on this site, and that no decoding turns into another."""
    return (browser_target(location) == HOME and location.startswith("/")
            and browser_target(unquote(unquote(location))) == HOME)


@pytest.fixture(scope="module")
def memory_app() -> Iterator[Flask]:
    app = create_app(replays=HeldReplays({}), secret=b"r" * 32, config={"TESTING": True})
    yield app


def _preferences(client: FlaskClient, target: str) -> tuple[int, str]:
    response = client.get("/preferences?lang=en&next=" + quote(target, safe=""))
    return response.status_code, str(response.headers.get("Location"))


@pytest.mark.parametrize("target", BYPASSES)
def test_preferences_never_leave_the_site(memory_app: Flask, target: str) -> None:
    code, location = _preferences(memory_app.test_client(), target)
    assert (code, location) == (302, "/"), target
    assert safe_next(target) == "/"


def test_the_issues_own_example(memory_app: Flask) -> None:
    """`/preferences?next=/%09/evil.example/` answered `Location: //evil.example/`."""
    response = memory_app.test_client().get("/preferences?next=/%09/evil.example/")
    assert response.status_code == 302
    assert response.headers["Location"] == "/"


def test_cr_lf_is_not_a_500(memory_app: Flask) -> None:
    for target in ("/%0d%0aSet-Cookie:%20x=1", "/%0aX:1", "/%0d"):
        response = memory_app.test_client().get("/preferences?next=" + target)
        assert (response.status_code, response.headers["Location"]) == (302, "/"), target


@pytest.mark.parametrize("target", ["/", "/matches/abc?view=seat1&token=xyz&step=3",
                                    "/?player=Mario%20Rossi&page=2", "/api/openapi.json",
                                    "/matches/x?next=//evil.example"])
def test_paths_of_this_site_are_kept(memory_app: Flask, target: str) -> None:
    assert safe_next(target) == target
    assert _preferences(memory_app.test_client(), target) == (302, target)


def test_a_fallback_is_given_back() -> None:
    assert safe_next("//evil.example", "/arbiter/login") == "/arbiter/login"
    assert safe_next(None, "/x") == "/x"
    assert safe_next("", "/x") == "/x"


PIECES = st.sampled_from([
    "/", "//", "\\", "\t", "\n", "\r", " ", "\x00", "\x0b", "\x7f", "%2f", "%2F", "%5c",
    "%09", "%0a", "%25", ".", "..", ":", "@", "?", "#", "evil.example", "javascript",
    "http", "https", "data", "a", "é", "\u3002", "\uff0f", "\u2028", "\u0085", "%00",
])


@settings(max_examples=10 * settings().max_examples)   # cheap: a pure function
@given(st.lists(PIECES, max_size=8).map("".join))
def test_safe_next_is_always_local(text: str) -> None:
    found = safe_next(text, "/")
    assert found == "/" or found == text
    assert _local(found), (text, found)


@settings(max_examples=2 * settings().max_examples)
@given(st.lists(PIECES, max_size=8).map("".join))
def test_the_switches_redirect_only_here(memory_app: Flask, text: str) -> None:
    code, location = _preferences(memory_app.test_client(), text)
    assert code == 302
    assert _local(location), (text, location)


@pytest.fixture(params=["sqlite", "postgres"])
def store_app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Flask]:
    for backend in make_backend(request.param, tmp_path):
        app = create_app(backend.url, config={"TESTING": True,
                                               "VERBALE_LOGIN_HASHES_PER_SECOND": 1000})
        add_arbiter(app.extensions["verbale"].engine, NAME, PASSWORD)
        yield app
        close_app(app)


def test_login_never_leaves_the_site(store_app: Flask) -> None:
    for target in BYPASSES[::4]:   # each login hashes a password: a sample of the list
        client = store_app.test_client()
        code, _page, location = _login(client, NAME, PASSWORD, next_path=target)
        assert (code, location) == (303, "/"), target
        page = client.get("/arbiter/login", query_string={"next": target})
        assert page.status_code == 200
        assert 'name="next" type="hidden" value="/"' in page.get_data(as_text=True)
    code, _page, location = _login(store_app.test_client(), NAME, PASSWORD,
                                   next_path="/api/openapi.json")
    assert (code, location) == (303, "/api/openapi.json")
