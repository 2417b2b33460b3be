"""Who may open which view: the public needs nothing; a seat needs its link token (or an
arbiter's login); the arbiter's view needs a login. The check is the only way to a view: each
page and API answer of a step goes through `allowed_view`.

A seat's or the arbiter's answer is marked private (`g.private`): never kept by a proxy.
"""

from __future__ import annotations

from uuid import UUID

from flask import abort, g, request, session

from domain.viewing import ARBITER, PUBLIC
from replay_web.access import check_seat_token
from replay_web.web.app import services
from replay_web.web.step import ViewName, parse_view

ARBITER_KEY = "arbiter"
"""The session key holding the logged-in arbiter's name."""


def logged_arbiter() -> str | None:
    name = session.get(ARBITER_KEY)
    return name if isinstance(name, str) and name else None


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
    if not check_seat_token(services().secret, match_id, seat, token):
        abort(403)
    return view


def parse_match_id(text: str) -> UUID:
    """The match of a URL: a whole id (any case, with or without dashes); else 404."""
    try:
        return UUID(text)
    except ValueError:
        abort(404)
