"""A fuzz of the viewer's URLs: every route with random and hostile path segments and query
parameters (unicode, huge and negative numbers, empty and repeated parameters, path traversal,
NUL, very long strings), as the public and as an arbiter. No answer is a 500 or any status
but 200/302/400/403/404/405; no page shows a traceback; an error under /api/ is JSON; a
redirect never leaves the site. The example count is the hypothesis profile's (tests/conftest.py).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, unquote_to_bytes, urlsplit
from uuid import UUID

import pytest
from flask import Flask
from hypothesis import event, example, given
from hypothesis import strategies as st

from replay_web.access import seat_token
from tests.replay_web.demo import Demo
from tests.replay_web.web.conftest import as_arbiter

ROUTES = (
    "/", "/matches/{m}", "/embed/matches/{m}", "/matches/{m}/go", "/preferences",
    "/api/matches", "/api/matches/{m}", "/api/matches/{m}/steps/{s}", "/api/openapi.json",
    "/matches/{m}/verbale", "/matches/{x}/verbale.pdf", "/matches/{m}/rulings",
    "/arbiter/login", "/arbiter/logout", "/{x}", "/api/{x}", "/static/{x}",
)
"""Every route (one that is missing answers 404). The PDF's match is never a stored one:
drawing a PDF takes seconds, and its parameters are the printable page's."""

ALLOWED = {200, 302, 400, 403, 404, 405}

NAMES = ("step", "view", "token", "to", "at", "lang", "suits", "next", "game", "tournament",
         "round", "table", "player", "since", "until", "provenance", "state", "how",
         "findings", "page", "size", "format", "pdf")

HOSTILE = (
    "", " ", "0", "-1", "1", "2", "3", "last", "99999999999999999999", "1e3", "0x10", "+5",
    " 7 ", "١٢", "²", "٣", "½", "NaN", "inf", "../../etc/passwd", "..%2f..%2fetc", "%00",
    "\x00", "a\x00b", "\u202e", "😀", "é", "x" * 5000, "9" * 400, "2026-02-30", "9999-99-99",
    "2026-1-1", "<script>alert(1)</script>", "'; DROP TABLE partita;--", "//evil.example",
    "\\\\evil", "/\\evil", "https://evil.example/", "javascript:alert(1)", "/matches/x",
    "seat0", "seat1", "seat2", "seat4", "seat5", "seat", "seat01", "seat²", "Seat1",
    "public", "arbiter", "ARBITER", "next", "previous", "italian", "french", "en", "it",
    "cirulla", "briscola", "live", "ended", "in-progress", "ruling", "yes", "no", "10", "100",
    "REAL", "TOKEN",
)

MATCHES = ("REAL", "REAL_UPPER", "REAL_HEX", "00000000-0000-0000-0000-000000000000",
           "{REAL}", "urn:uuid:REAL", "REAL/..", "..", ".", "%2e%2e", "REAL%00", "REAL\x00")

value = st.one_of(st.sampled_from(HOSTILE), st.text(max_size=40),
                  st.integers(min_value=-10**30, max_value=10**30).map(str))
segment = st.one_of(st.just("REAL"), st.sampled_from(MATCHES), value)   # often a real match
params = st.lists(st.tuples(st.one_of(st.sampled_from(NAMES), st.text(max_size=10)), value),
                  max_size=6)
raw_query = st.lists(st.sampled_from(("step=%ff", "view=%00", "&&", "=", "a", "step=1&step=2",
                                      "%zz=1", "view=seat1&view=arbiter", "token=%c3%28",
                                      "next=%2f%2fevil.example", "page=1%00", "lang=%e9")),
                     max_size=4).map("&".join)


@st.composite
def requests(draw: st.DrawFn) -> tuple[str, str, Any]:
    """A method, a path (its segments quoted, or sometimes raw) and a query string."""
    route = draw(st.sampled_from(ROUTES))
    raw = draw(st.booleans())
    path = route
    for hole in ("{m}", "{s}", "{x}"):
        text = draw(segment.filter(lambda t: "REAL" not in t) if ".pdf" in route else segment)
        path = path.replace(hole, quote(text, safe="/%" if raw else ""))
    query = draw(st.one_of(params, raw_query))
    method = draw(st.sampled_from(("GET", "GET", "GET", "HEAD", "POST")))
    return method, path, query


def _real(text: str, stream: str, token: str) -> str:
    hex_digits = stream.replace("-", "")
    return (text.replace("REAL_UPPER", stream.upper()).replace("REAL_HEX", hex_digits)
            .replace("REAL", stream).replace("TOKEN", token))


@pytest.fixture(scope="module")
def real(demo_app: Flask, web_demo: Demo) -> tuple[str, str]:
    """A stored match and its seat 1's link token (the fuzz's REAL and TOKEN)."""
    stream = next(iter(web_demo.matches()))
    return stream, seat_token(demo_app.extensions["verbale"].secret, UUID(stream), 0)


@pytest.mark.parametrize("who", ["public", "arbiter"])
@given(request=requests())
# Digits that str.isdigit accepts and int() refuses (found by this fuzz: they were 500s), and
# a doubled slash (the router's redirect to a guessed page, now a 404).
@example(request=("GET", "/matches/REAL", [("view", "seat²")]))
@example(request=("GET", "/matches/REAL", [("step", "²")]))
@example(request=("GET", "/api/matches/REAL/steps/%C2%B2", []))
@example(request=("GET", "/matches/REAL/go", [("at", "²"), ("to", "next")]))
@example(request=("GET", "/", [("round", "²")]))
@example(request=("GET", "/api/matches", [("page", "١٢")]))
@example(request=("GET", "/matches//verbale", []))
@example(request=("GET", "//%5Cevil", []))
@example(request=("GET", "//evil.example/x", []))
def test_nessun_url_da_500(demo_app: Flask, real: tuple[str, str], who: str,
                           request: tuple[str, str, Any]) -> None:
    stream, token = real
    client = demo_app.test_client()
    if who == "arbiter":
        as_arbiter(client)
    method, path, query = request
    path = _real(path, stream, token)
    query = (_real(query, stream, token) if isinstance(query, str)
             else [(name, _real(v, stream, token)) for name, v in query])
    # A path starting with // is what a browser or proxy sends as a path, but the test client
    # would read it as //host/...: hand it to the app the way a WSGI server does.
    raw = {"PATH_INFO": unquote_to_bytes(path).decode("latin-1")} if path.startswith("//") else {}
    response = client.open(path if not raw else "/", method=method, query_string=query,
                           environ_overrides=raw)
    where = f"{method} {path} {query!r}"
    event(f"{response.status_code}")   # --hypothesis-show-statistics: how deep the fuzz went
    assert response.status_code in ALLOWED, (response.status_code, where)
    _check_body(response, path, where)


def _check_body(response: Any, path: str, where: str) -> None:
    if not (response.mimetype.startswith("text/") or response.is_json):
        return   # a PDF, an image
    body = response.get_data(as_text=True)
    assert "Traceback" not in body and 'File "/' not in body, where
    if response.status_code >= 400 and path.startswith("/api/") and response.data:
        assert response.mimetype == "application/json", where
        assert response.get_json()["code"] == response.status_code, where
    if response.status_code == 302:
        target = urlsplit(response.headers["Location"])
        assert target.netloc in ("", "localhost") and target.scheme in ("", "http"), where
