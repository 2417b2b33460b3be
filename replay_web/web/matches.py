"""The pages of matches: `/` the list, `/matches/<id>` a match at a step as a viewer saw it,
`/embed/matches/<id>` the same without the site's chrome, and the preference switches.

Every page works without JavaScript: stepping is links, the filters a GET form, the switches
links. static/viewer.js adds the keyboard and the slider.
"""

from __future__ import annotations

import re
import time
from datetime import date
from typing import Any
from uuid import UUID

from flask import Blueprint, Response, abort, g, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from markupsafe import Markup

from domain.cards import UNKNOWN_CODE, parse_card
from domain.games import game_named
from domain.record.catalog import CATALOG
from domain.record.events import PROVENANCES
from domain.viewing import ARBITER
from projections.read_models.queries import (
    HOWS,
    LIST_STATES,
    PAGE_SIZE,
    MatchPage,
    MatchQuery,
    MatchRow,
    match_page,
    one_match,
)
from replay_web.web.app import services
from replay_web.web.glossary import term
from replay_web.web.guard import allowed_view, logged_arbiter, parse_match_id, seat_secret
from replay_web.web.read_state import read_notice
from replay_web.web.records import RecordHead, Replay
from replay_web.web.step import JSON, ViewName, smazzata_starts, step_data

blueprint = Blueprint("matches", __name__)

GAMES = tuple(CATALOG)
STATES = LIST_STATES
PAGE_SIZES = (10, 20, 50, 100)


@blueprint.get("/")
def match_list() -> ResponseReturnValue:
    query, found = listed()
    return render_template("list.html", page=found, query=query, args=_kept_args(),
                           games=GAMES, provenances=PROVENANCES, states=STATES, hows=HOWS)


def listed() -> tuple[MatchQuery, MatchPage]:
    """The page of the list the query string asks for (the HTML list and the API's)."""
    query = list_query(request.args)
    engine = services().engine
    if engine is None:
        abort(404)   # an app over records held in memory has no read models
    return query, match_page(engine, query)


def list_query(args: Any) -> MatchQuery:
    """The list's filters from the query string; 400 naming the parameter when one is bad."""
    return MatchQuery(
        game=_choice(args, "game", GAMES), tournament=_text(args, "tournament"),
        round=_number(args, "round"), table=_number(args, "table"),
        player=_text(args, "player"), since=_day(args, "since"), until=_day(args, "until"),
        provenance=_choice(args, "provenance", PROVENANCES),
        state=_choice(args, "state", STATES),
        how=(_choice(args, "how", HOWS) or "").replace("-", " ") or None,
        findings={"yes": True, "no": False, None: None}[_choice(args, "findings",
                                                                ("yes", "no"))],
        page=_number(args, "page") or 1,
        size=_number(args, "size", PAGE_SIZES) or PAGE_SIZE)


def _text(args: Any, name: str) -> str | None:
    value = (args.get(name) or "").strip()
    if len(value) > 100:
        abort(400, description=f"{name}: at most 100 characters")
    return value or None


def _choice(args: Any, name: str, allowed: tuple[str, ...]) -> str | None:
    value = _text(args, name)
    if value is not None and value not in allowed:
        abort(400, description=f"{name}={value}: expected one of {', '.join(allowed)}")
    return value


def _number(args: Any, name: str, allowed: tuple[int, ...] | None = None) -> int | None:
    value = _text(args, name)
    if value is None:
        return None
    if not (value.isascii() and value.isdigit()) or not 1 <= int(value) <= 1_000_000 or (
            allowed is not None and int(value) not in allowed):
        abort(400, description=f"{name}={value}: expected a whole number"
              + (f" among {', '.join(map(str, allowed))}" if allowed else " from 1"))
    return int(value)


def _day(args: Any, name: str) -> str | None:
    value = _text(args, name)
    if value is None:
        return None
    try:
        return date.fromisoformat(value).isoformat() if re.fullmatch(
            r"\d{4}-\d{2}-\d{2}", value) else _bad_day(name, value)
    except ValueError:
        return _bad_day(name, value)


def _bad_day(name: str, value: str) -> str:
    abort(400, description=f"{name}={value}: expected a day YYYY-MM-DD")


def _kept_args() -> dict[str, str]:
    return {k: v for k, v in request.args.items() if v and k != "page"}


@blueprint.get("/matches/<match_text>")
def match(match_text: str) -> ResponseReturnValue:
    return _step_page(match_text, "match.html")


@blueprint.get("/embed/matches/<match_text>")
def embed(match_text: str) -> ResponseReturnValue:
    return _step_page(match_text, "embed.html")


def load_replay(match_text: str) -> Replay:
    replay = services().replays.replay(parse_match_id(match_text))
    if replay is None:
        abort(404)
    return replay


def load_head(match_text: str) -> RecordHead:
    head = services().replays.record_head(parse_match_id(match_text))
    if head is None:
        abort(404)
    return head


def parse_step(last: int, text: str | None = None) -> int:
    """`?step=` (or `text`): a number 1..last (step 1: the match created), or `last` (the
    default); else 404."""
    text = text if text is not None else request.args.get("step", "last")
    if text == "last":
        return last
    return parse_step_arg(text, last)


def step_request(match_text: str, step_text: str | None = None
                 ) -> tuple[RecordHead, ViewName, int]:
    """The record's head, the view and the step a page or the API answers with, access
    checked: all an answer already made needs (the match is folded only to make one)."""
    head = load_head(match_text)
    view = allowed_view(head.match_id, head.players)
    return head, view, parse_step(head.last, step_text)


def step_for_request(match_text: str, step_text: str | None = None) -> tuple[Replay, JSON]:
    """The replay and the step data a page or the API answers with, access checked."""
    head, view, step = step_request(match_text, step_text)
    replay = folded(head)
    return replay, step_data(replay, step, view)


def folded(head: RecordHead) -> Replay:
    """The match folded, as recorded up to `head` at least (404 if it went away meanwhile)."""
    replay = services().replays.replay(head.match_id)
    if replay is None or replay.last < head.last:
        abort(404)
    return replay


def _step_page(match_text: str, template: str) -> ResponseReturnValue:
    head, view, step = step_request(match_text)
    row = _verdict(head)
    key = None
    if view.viewer is not ARBITER and logged_arbiter() is None:
        # Everything the page is made from (replay_web/web/rendered.py); not an arbiter's page,
        # which holds the CSRF token of a session.
        key = ("page", template, head, step, view.text, request.full_path, g.language,
               g.suits, row, read_notice())
        found = services().answers.get(key)
        if found is not None:
            return Response(found, mimetype="text/html")
    replay = folded(head)
    page = render_template(template, data=step_data(replay, step, view),
                           token=request.args.get("token"), verdict=row)
    if key is not None and replay.last == head.last:   # else grown meanwhile: not its answer
        services().answers.put(key, page.encode())
    return page


def _verdict(head: RecordHead) -> MatchRow | None:
    """The read models' row of the match (its verdict, VP), read at most every ROW_SECONDS for
    the record as it stands: None for a record held in memory."""
    engine = services().engine
    if engine is None:
        return None
    rows, now = services().rows, time.monotonic()
    found, row = rows.get(head, now)
    if not found:
        row = one_match(engine, str(head.match_id))
        rows.put(head, row, now)
    assert row is None or isinstance(row, MatchRow)
    return row


@blueprint.get("/matches/<match_text>/go")
def go(match_text: str) -> ResponseReturnValue:
    """↑ ↓: to the next or previous smazzata's deal from `?at=`. A redirect, so that a seat's
    page never holds where later smazzate begin (their length depends on hidden cards)."""
    replay = load_replay(match_text)
    allowed_view(replay.match_id, len(replay.created.players))
    start = parse_step_arg(request.args.get("at"), replay.last)
    starts = smazzata_starts(replay)
    if request.args.get("to") == "next":
        target = next((s for s in starts if s > start), replay.last)
    elif request.args.get("to") == "previous":
        target = next((s for s in reversed(starts) if s < start), 1)
    else:
        abort(404)
    return redirect(step_url(replay.match_id, target))


def parse_step_arg(text: str | None, last: int) -> int:
    if text is None or not (text.isascii() and text.isdigit()) or len(text) > 9 \
            or not 1 <= int(text) <= last:
        abort(404)
    return int(text)


def step_url(match_id: UUID | str, step: int, endpoint: str = "matches.match") -> str:
    """The permalink of a step in the view (and with the token) of this request."""
    keep: dict[str, Any] = {k: request.args[k] for k in ("view", "token")
                            if request.args.get(k)}
    return url_for(endpoint, match_text=str(match_id), step=step, **keep)


@blueprint.get("/preferences")
def preferences() -> ResponseReturnValue:
    """The language and suit switches: set the cookie, go back where the user was."""
    from flask import current_app

    from replay_web.web.redirects import safe_next
    response = redirect(safe_next(request.args.get("next")))
    secure = bool(current_app.config.get("SESSION_COOKIE_SECURE"))   # behind a TLS proxy
    for name, allowed in (("lang", ("it", "en")), ("suits", ("italian", "french"))):
        value = request.args.get(name)
        if value in allowed:
            response.set_cookie(name, value, max_age=365 * 24 * 3600, samesite="Lax",
                                httponly=True, secure=secure)
    return response


def card(code: str, css_class: str = "card") -> Markup:
    """A card drawn in the suits the user chose; the `??` of a transcribed record too."""
    from replay_web.svg_cards import card_svg, unknown_svg
    if code == UNKNOWN_CODE:
        return unknown_svg(title="??")
    return card_svg(parse_card(code), g.get("suits", "italian"), css_class=css_class)


def card_name(code: str) -> str:
    """A card in words of the suits the user chose: `7d` or `7♦` (`??` stays `??`)."""
    if code == UNKNOWN_CODE or g.get("suits", "italian") != "french":
        return code
    return parse_card(code).render("french")


def card_back(css_class: str = "card back") -> Markup:
    from flask_babel import gettext

    from replay_web.svg_cards import back_svg
    return back_svg(css_class=css_class, title=gettext("face-down card"))


def running_chart(data: JSON) -> Markup:
    """The running totals after each smazzata, drawn server-side."""
    from flask_babel import gettext

    from replay_web.svg_chart import running_totals_svg
    sides = [[s["player"] for s in data["table"]["seats"] if s["side"] == side]
             for side in (1, 2)]
    labels = (" – ".join(sides[0]), " – ".join(sides[1]))
    target = data["match"]["format"].get("target")
    return running_totals_svg(
        [(a, b) for a, b in data["running"]], labels,
        target=int(target) if isinstance(target, str) and target.isdigit() else None,
        title=gettext("Running totals"), empty_text=gettext("No smazzata ended yet."))


def seat_links(match_id: str, players: int) -> list[str]:
    """Each seat's link (with its token), for the arbiter to hand out: empty for anyone else."""
    from replay_web.access import seat_token
    secret = seat_secret()
    if logged_arbiter() is None or secret is None:
        return []
    uuid = parse_match_id(match_id)
    return [url_for("matches.match", match_text=match_id, view=f"seat{seat + 1}",
                    token=seat_token(secret, uuid, seat), _external=True)
            for seat in range(players)]


def said(text: object) -> str:
    """A message of the domain (a finding's check or words) in the request's language."""
    from flask_babel import gettext

    from replay_web.i18n import translate
    return translate(text, gettext)


def captures(game: str) -> bool:
    """Whether a play of `game` takes cards from the table (its Game's `captures`): the
    viewer shows its captures and scope."""
    return game_named(game).captures


def template_globals() -> dict[str, Any]:
    return {"card": card, "card_name": card_name, "card_back": card_back, "term": term,
            "step_url": step_url, "logged_arbiter": logged_arbiter, "running_chart": running_chart,
            "seat_links": seat_links, "said": said, "captures": captures}
