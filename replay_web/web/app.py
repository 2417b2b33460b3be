"""`create_app`: the replay viewer as a Flask application (docs/viewer.md).

One blueprint per page family: `matches` (the list, a match step by step, the embeddable
variant), `api` (the JSON mirror and its OpenAPI file), `arbiter` (login, rulings), `verbale`
(the printable record). The views call the read-model queries (projections/read_models) and
the timeline's `observe` (replay_web/web/step.py); no SQL here.

What the app shares between requests lives in `Services` (app.extensions["verbale"]): the store,
the read models' engine, the folded matches, the site secret that signs seat links and the
session cookie. Languages come from the one message catalogue (replay_web/locale) through
Flask-Babel; CSRF protection from Flask-WTF.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, Response, current_app, g, request
from flask_babel import Babel
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError

from projections.store.app import MatchStore
from replay_web.i18n import DOMAIN, LANGUAGES, LOCALE_DIR
from replay_web.web.records import Replays, StoreReplays
from replay_web.web.rendered import KEPT_ANSWERS, KeptFindings, RecentRows, RenderedAnswers

DEFAULT_LANGUAGE = "it"
HSTS_SECONDS = 365 * 24 * 3600
SUITS = ("italian", "french")


@dataclass
class Services:
    """What every request of one app uses: built once by `create_app`."""

    replays: Replays
    engine: Engine | None
    """The read models' engine (None: an app over records held in memory, for tests)."""
    store: MatchStore | None
    secret: bytes
    """The site secret: seat link tokens and the session cookie's key derive from it."""
    answers: RenderedAnswers = field(default_factory=RenderedAnswers)
    """The public and seat answers already made (replay_web/web/rendered.py)."""
    rows: RecentRows = field(default_factory=RecentRows)
    """The read models' rows of the matches just shown (replay_web/web/rendered.py)."""
    findings: KeptFindings = field(default_factory=KeptFindings)
    """The audit's findings of the records just shown (replay_web/web/findings.py)."""
    clock: Callable[[], float] = time.time
    """Seconds since the epoch: logins' ages and the login brakes (tests set their own)."""
    logins: dict[str, str] = field(default_factory=dict)
    """An app over records held in memory keeps its logins here (token: arbiter); an app over
    a store keeps them in the store (projections/web_sessions.py)."""


def services() -> Services:
    from flask import current_app
    found: Services = current_app.extensions["verbale"]
    return found


def create_app(database: str | None = None, *, replays: Replays | None = None,
               secret: bytes | None = None, config: Mapping[str, Any] | None = None) -> Flask:
    """The viewer over the store at `database` (default: VERBALE_DATABASE_URL, else
    sqlite:///var/verbale.db); or, for tests, over `replays` held in memory with `secret`."""
    app = Flask(__name__)
    app.url_map.merge_slashes = False   # `a//b` is a 404, not a redirect to a guess
    app.config.update(TEMPLATES_AUTO_RELOAD=False, JSON_SORT_KEYS=False,
                      SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Lax",
                      WTF_CSRF_TIME_LIMIT=None)
    if config:
        app.config.update(config)
    _behind_proxy(app)
    from replay_web.web.login_gate import set_budgets
    set_budgets(app)
    app.extensions["verbale"] = _services(database, replays, secret)
    # VERBALE_KEPT_ANSWERS: megabytes of answers kept; 0 renders every answer (the benchmark
    # measures both ways)
    kept = app.config.get("VERBALE_KEPT_ANSWERS", os.environ.get("VERBALE_KEPT_ANSWERS"))
    app.extensions["verbale"].answers = RenderedAnswers(
        KEPT_ANSWERS if kept is None else int(kept))
    from replay_web.access import flask_secret_key
    app.secret_key = flask_secret_key(app.extensions["verbale"].secret)
    Babel(app, locale_selector=_language, default_domain=DOMAIN,
          default_translation_directories=str(LOCALE_DIR))
    CSRFProtect(app)
    _register(app)
    app.before_request(_preferences)
    app.after_request(_headers)
    return app


def _behind_proxy(app: Flask) -> None:
    """Behind a TLS proxy (VERBALE_BEHIND_PROXY, `verbale serve --behind-proxy`): the client's
    address, scheme and host are the proxy's X-Forwarded-For, -Proto and -Host, as set by the
    last VERBALE_PROXY_HOPS proxies (Werkzeug's ProxyFix); every cookie is Secure and HTTPS
    answers carry HSTS (`_headers`). Otherwise those headers are anyone's to write: unread."""
    from werkzeug.middleware.proxy_fix import ProxyFix

    behind = app.config.get("VERBALE_BEHIND_PROXY")
    if behind is None:
        behind = _setting("VERBALE_BEHIND_PROXY", os.environ.get("VERBALE_BEHIND_PROXY", "0"))
    app.config["VERBALE_BEHIND_PROXY"] = bool(behind)
    if not behind:
        return
    hops = app.config.get("VERBALE_PROXY_HOPS", os.environ.get("VERBALE_PROXY_HOPS", "1"))
    if not str(hops).isdigit() or not 1 <= int(hops) <= 10:
        raise ValueError(f"VERBALE_PROXY_HOPS={hops}: expected a whole number from 1 to 10")
    app.config.update(VERBALE_PROXY_HOPS=int(hops), SESSION_COOKIE_SECURE=True,
                      PREFERRED_URL_SCHEME="https")
    app.wsgi_app = ProxyFix(app.wsgi_app, x_for=int(hops),  # type: ignore[method-assign]
                            x_proto=int(hops), x_host=int(hops))


def _setting(name: str, value: str) -> bool:
    """A yes/no setting from the environment; ValueError naming it for anything else."""
    if value.strip().lower() in ("1", "true", "yes", "on"):
        return True
    if value.strip().lower() in ("", "0", "false", "no", "off"):
        return False
    raise ValueError(f"{name}={value}: expected 1, true, yes, on, or 0, false, no, off")


def _services(database: str | None, replays: Replays | None,
              secret: bytes | None) -> Services:
    if replays is not None:
        return Services(replays, None, None, secret or b"\0" * 32)
    from projections.accounts import site_secret
    from projections.login_brakes import ensure_brakes
    from projections.read_models.engine import read_model_engine
    from projections.store.config import database_url
    from projections.web_sessions import ensure_sessions

    url = database or database_url()
    store = MatchStore(url=url)
    engine = read_model_engine(url)
    # A store made before the logins and their brakes were kept in it gets their tables; one
    # this viewer cannot write still shows its pages (nobody logs in).
    with suppress(DBAPIError):
        ensure_sessions(engine)
        ensure_brakes(engine)
    return Services(StoreReplays(store), engine, store, secret or site_secret(engine))


def _register(app: Flask) -> None:
    from replay_web.web import api, arbiter, errors, matches, verbale_page

    app.register_blueprint(matches.blueprint)
    app.register_blueprint(api.blueprint)
    app.register_blueprint(arbiter.blueprint)
    app.register_blueprint(verbale_page.blueprint)
    from replay_web.web import fairness, fairness_dealers
    app.register_blueprint(fairness.blueprint)
    app.register_blueprint(fairness_dealers.blueprint)
    from replay_web.web import tournaments
    app.register_blueprint(tournaments.blueprint)
    errors.register(app)
    from replay_web.web import read_state
    read_state.register(app)
    app.jinja_env.globals.update(matches.template_globals())


def _language() -> str:
    return str(g.get("language", DEFAULT_LANGUAGE))


def _preferences() -> None:
    """The language and the suits: `?lang=`/`?suits=` for this request, else the cookies the
    switches set, else Italian and Italian suits."""
    language = request.args.get("lang") or request.cookies.get("lang")
    g.language = language if language in LANGUAGES else DEFAULT_LANGUAGE
    suits = request.args.get("suits") or request.cookies.get("suits")
    g.suits = suits if suits in SUITS else SUITS[0]


def _headers(response: Response) -> Response:
    """No page is framed but the embeddable ones; nothing loads from elsewhere; a seat's or the
    arbiter's page is never kept by a proxy (nor by the browser: a shared computer at a club)."""
    headers = response.headers
    headers.setdefault("X-Content-Type-Options", "nosniff")
    # Seat links carry their token: never sent to another site. Same-origin requests keep their
    # Referer: over HTTPS, Flask-WTF refuses a POST without one (WTF_CSRF_SSL_STRICT).
    headers.setdefault("Referrer-Policy", "same-origin")
    framing = "*" if request.path.startswith("/embed/") else "'none'"
    headers.setdefault("Content-Security-Policy",
                       "default-src 'self'; img-src 'self' data:; style-src 'self'; "
                       f"script-src 'self'; object-src 'none'; frame-ancestors {framing}")
    if request.is_secure and current_app.config.get("VERBALE_BEHIND_PROXY"):
        headers.setdefault("Strict-Transport-Security", f"max-age={HSTS_SECONDS}")
    if g.get("private", False):
        headers["Cache-Control"] = "private, no-store"
        headers["Vary"] = "Cookie"
    else:
        headers.setdefault("Cache-Control", "no-cache")
    return response
