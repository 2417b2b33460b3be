"""Who may open which view: the public needs nothing; a seat needs its link token (or an
arbiter's login); the arbiter's view needs a login. The check is the only way to a view: each
page and API answer of a step goes through `allowed_view`.

Both are checked against the store on each request (issue 23, point 8): a login is a token of
`web_sessioni` (projections/web_sessions.py), looked up once per request; a seat link's token is
checked under the site secret the store holds now (`current_secret`). So a logout, an
arbiter's removal, a password change and `verbale arbiter rotate-secret` take effect at once,
in every server process. An app over records held in memory keeps its logins in memory.

A seat's or the arbiter's answer is marked private (`g.private`): never kept by a proxy.
"""

from __future__ import annotations

import secrets
from uuid import UUID

from flask import abort, g, request, session

from domain.viewing import ARBITER, PUBLIC
from projections.accounts import current_secret
from projections.web_sessions import close_session, open_session, session_arbiter
from replay_web.access import check_seat_token
from replay_web.web.app import Services, services
from replay_web.web.step import ViewName, parse_view

ARBITER_KEY = "arbiter_login"
"""The session key holding the token of the arbiter's login (never the name: the name is what
the store says the token is, on each request)."""
_NOBODY = ""


def logged_arbiter() -> str | None:
    """The arbiter logged in by this request's cookie, as the store has it now (looked up once
    per request)."""
    found = g.get("arbiter_name")
    if found is None:
        token = session.get(ARBITER_KEY)
        found = (_arbiter_of(services(), token) or _NOBODY) if token is not None else _NOBODY
        g.arbiter_name = found
    return found or None


def _arbiter_of(found: Services, token: object) -> str | None:
    if found.engine is None:
        return found.logins.get(token) if isinstance(token, str) else None
    return session_arbiter(found.engine, token, found.clock())


def open_login(found: Services, name: str) -> str:
    """A new login of arbiter `name`: its token, for the session cookie."""
    if found.engine is None:
        token = secrets.token_urlsafe(32)
        found.logins[token] = name
        return token
    return open_session(found.engine, name, found.clock())


def log_in(name: str) -> None:
    """Log this browser in as `name`: nothing of the anonymous session survives."""
    token = open_login(services(), name)
    session.clear()
    session[ARBITER_KEY] = token
    session.permanent = False
    g.arbiter_name = name


def log_out() -> None:
    """End this browser's login, in the store: a copy of the cookie opens nothing after."""
    token, found = session.get(ARBITER_KEY), services()
    if found.engine is not None:
        close_session(found.engine, token)
    elif isinstance(token, str):
        found.logins.pop(token, None)
    session.clear()
    g.arbiter_name = _NOBODY


def seat_secret() -> bytes | None:
    """The key of the seats' link tokens now: the store's site secret, read for each check."""
    found = services()
    return found.secret if found.engine is None else current_secret(found.engine)


def allowed_view(match_id: UUID, players: int) -> ViewName:
    """The view `?view=` asks for, if this request may see it: 404 for a view this table
    does not have, 403 without the token or login it needs."""
    view = parse_view(request.args.get("view"), players)
    if view is None:
        abort(404)
    if view.viewer is PUBLIC:
        return view
    g.private = True
    if logged_arbiter() is not None:
        return view
    if view.viewer is ARBITER:
        abort(403)
    token = request.args.get("token")
    seat = view.viewer
    assert isinstance(seat, int)
    secret = seat_secret()
    if secret is None or not check_seat_token(secret, match_id, seat, token):
        abort(403)
    return view


def parse_match_id(text: str) -> UUID:
    """The match of a URL: a whole id (any case, with or without dashes); else 404."""
    try:
        return UUID(text)
    except ValueError:
        abort(404)
