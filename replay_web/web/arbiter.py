"""The arbiter's pages: log in and out, and record a ruling from the arbiter's view.

A ruling goes where every fact of a match goes: the store decides it (domain/record/decide.py
`_ruling`) and appends its event, recorded by the arbiter (`RecordedBy` "arbiter") and signed with
the arbiter's Ed25519 key over the ruling, the match and the head it extends: the form asks the
arbiter's password, which opens the key sealed under it (projections/arbiter_signing.py) for
this one signature and is kept nowhere; without it nothing is recorded. Then the read
models catch up and the cached timeline of the match is dropped, so the next page shows the
original and the adjusted scores. A ruling the domain refuses is written nowhere: the form comes
back with the domain's own words (post/redirect/get, the draft kept in the session for one page).

Every POST here carries the CSRF token (Flask-WTF's CSRFProtect answers 400 without it).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from flask import (
    Blueprint,
    abort,
    g,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext, lazy_gettext, ngettext
from flask_wtf import FlaskForm
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup
from werkzeug.datastructures import ImmutableMultiDict
from wtforms import (
    HiddenField,
    IntegerField,
    PasswordField,
    RadioField,
    SelectChoice,
    StringField,
)
from wtforms.fields import TextAreaField
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional

from domain.record.commands import RecordRuling
from domain.record.decide import RULING_KINDS
from domain.record.envelope import arbiter as by_arbiter
from projections.accounts import AccountError, check_login
from projections.arbiter_signing import signer_for
from projections.store.app import ConcurrencyConflict
from projections.store.signatures import Signer, execute_signed
from replay_web.i18n import translate_error
from replay_web.web.app import services
from replay_web.web.guard import log_in, log_out, logged_arbiter
from replay_web.web.login_gate import (
    let_through,
    login_attempt,
    passed,
    remember_browser,
    retry_after,
    signing_attempt,
)
from replay_web.web.matches import load_replay
from replay_web.web.redirects import safe_next

blueprint = Blueprint("arbiter", __name__)

REASON_MAX = 500
DRAFT_KEY = "ruling_draft"


class LoginForm(FlaskForm):  # type: ignore[misc]
    name = StringField(lazy_gettext("Name"), validators=[DataRequired(), Length(max=100)])
    password = PasswordField(lazy_gettext("Password"),
                             validators=[DataRequired(), Length(max=1000)])
    next = HiddenField()


def _kind_labels() -> dict[str, Any]:
    return {"adjust-score": lazy_gettext("adjust the score (also: uphold or penalise a noted "
                                         "irregularity, naming its event)"),
            "annul-smazzata": lazy_gettext("annul a smazzata")}


class RulingForm(FlaskForm):  # type: ignore[misc]
    reason = TextAreaField(lazy_gettext("Reason"),
                           validators=[DataRequired(), Length(max=REASON_MAX)])
    kind = RadioField(lazy_gettext("Effect"), validators=[InputRequired()],
                      default=RULING_KINDS[0],
                      choices=[SelectChoice(k, _kind_labels()[k]) for k in RULING_KINDS])
    side1 = IntegerField(lazy_gettext("Adjustment, side 1"), default=0,
                         validators=[Optional(), NumberRange(-1000, 1000)])
    side2 = IntegerField(lazy_gettext("Adjustment, side 2"), default=0,
                         validators=[Optional(), NumberRange(-1000, 1000)])
    smazzata = IntegerField(lazy_gettext("Smazzata"),
                            validators=[Optional(), NumberRange(1, 999)])
    refers_to = IntegerField(lazy_gettext("About event (step)"),
                             validators=[Optional(), NumberRange(1, 10**9)])
    sign_password = PasswordField(
        lazy_gettext("Your password, to sign the ruling"),
        validators=[DataRequired(message=lazy_gettext(
            "a ruling is recorded only signed: type your password")), Length(max=1000)])


# --- log in and out ---------------------------------------------------------------------------

@blueprint.before_app_request
def _arbiter_pages_are_private() -> None:
    """Whatever an arbiter is shown carries their name and a CSRF token: kept by no proxy."""
    if logged_arbiter() is not None:
        g.private = True


@blueprint.route("/arbiter/login", methods=["GET", "POST"])
def login() -> ResponseReturnValue:
    """The login form. A wrong name and a wrong password get the same answer: 200 and the form
    again (not 401, which belongs to HTTP authentication and its WWW-Authenticate challenge);
    an attempt the brakes or the hash budget hold back: 429 with Retry-After, nothing hashed
    (replay_web/web/login_gate.py)."""
    g.private = True
    form = LoginForm()
    if request.method == "GET":
        form.next.data = safe_next(request.args.get("next"))
    if not form.validate_on_submit():
        return render_template("login.html", form=form, error=None), 200
    name, engine = str(form.name.data), services().engine
    attempt = login_attempt(name)
    wait = let_through(attempt)
    if wait > 0:
        return _wait_page(form, wait)
    if engine is None or not check_login(engine, name, str(form.password.data)):
        return render_template("login.html", form=form,
                               error=gettext("wrong name or password")), 200
    passed(attempt)
    log_in(name)
    response = redirect(safe_next(form.next.data), 303)
    remember_browser(response, name)
    return response


def _wait_page(form: LoginForm, wait: float) -> ResponseReturnValue:
    seconds = retry_after(wait)
    return render_template("login.html", form=form, error=_wait_words(seconds)), 429, {
        "Retry-After": str(seconds)}


def _wait_words(seconds: int) -> str:
    return str(ngettext("Too many attempts: try again in %(num)s second.",
                        "Too many attempts: try again in %(num)s seconds.", seconds))


@blueprint.post("/arbiter/logout")
def logout() -> ResponseReturnValue:
    log_out()
    return redirect(url_for("matches.match_list"), 303)


# --- rulings ----------------------------------------------------------------------------------

@blueprint.post("/matches/<match_text>/rulings")
def ruling(match_text: str) -> ResponseReturnValue:
    name = logged_arbiter()
    if name is None:
        abort(403)
    g.private = True
    replay = load_replay(match_text)
    store, engine = services().store, services().engine
    if store is None or engine is None:
        abort(404)   # a record held in memory takes no ruling
    form = RulingForm()
    if not form.validate_on_submit():
        return _back_with(replay.match_id, [f"{form[f].label.text}: {m}"
                                            for f, ms in form.errors.items() for m in ms])
    signer = signer_of(engine, name, str(form.sign_password.data))
    if isinstance(signer, str):
        return _back_with(replay.match_id, [signer])
    try:
        loaded = execute_signed(store, replay.match_id, _command(form, name), signer,
                                at=datetime.now(UTC), by=by_arbiter(name))
    except ConcurrencyConflict:
        return _back_with(replay.match_id, [gettext(
            "The match changed meanwhile: look at it again and record the ruling again.")])
    except ValueError as error:   # RuleViolation, RecordRefused: the domain's refusal
        return _back_with(replay.match_id, [translate_error(error, gettext)])
    from projections.read_models.project import catch_up
    catch_up(store, engine)
    forget = getattr(services().replays, "forget", None)
    if callable(forget):
        forget(replay.match_id)
    return redirect(url_for("matches.match", match_text=str(replay.match_id), view="arbiter",
                            step=loaded.version, _anchor="scores"), 303)


def signer_of(engine: Any, name: str, password: str) -> Signer | str:
    """The arbiter's key opened with the password typed, or why not (wrong passwords slow the
    next ones, as at the login: replay_web/web/login_gate.py)."""
    attempt = signing_attempt(name)
    wait = let_through(attempt)
    if wait > 0:
        return _wait_words(retry_after(wait))
    try:
        signer = signer_for(engine, name, password)
    except AccountError as error:
        return str(translate_error(error, gettext))
    passed(attempt)
    return signer


def _command(form: RulingForm, name: str) -> RecordRuling:
    """The form as the domain's command: smazzate are numbered from 1 on the page, from 0 in
    the domain."""
    number = form.smazzata.data
    return RecordRuling(arbiter=name, reason=str(form.reason.data).strip(),
                        kind=str(form.kind.data),
                        smazzata=None if number is None else int(number) - 1,
                        adjustment=(int(form.side1.data or 0), int(form.side2.data or 0)),
                        refers_to=form.refers_to.data)


def _back_with(match_id: object, errors: list[str]) -> ResponseReturnValue:
    """To the arbiter's view of the match, the form filled as it was sent, with `errors`."""
    values = {k: v[:REASON_MAX + 100] for k, v in request.form.items()
              if k not in ("csrf_token", "sign_password")}   # never keep the password
    session[DRAFT_KEY] = {"match": str(match_id), "values": values,
                          "errors": [e[:1000] for e in errors]}
    return redirect(url_for("matches.match", match_text=str(match_id), view="arbiter",
                            _anchor="ruling"), 303)


@blueprint.app_template_global()
@pass_context
def ruling_form(context: Context) -> Markup:
    """The ruling form of the arbiter's panel: only on a match page, for a logged-in arbiter."""
    data = context.get("data")
    view_args = request.view_args or {}
    if (request.endpoint != "matches.match" or logged_arbiter() is None
            or not isinstance(data, Mapping) or "match_text" not in view_args):
        return Markup("")
    match_id = str(data["match"]["id"])
    draft = session.get(DRAFT_KEY)
    errors: list[str] = []
    form = RulingForm(formdata=None)
    if isinstance(draft, dict) and draft.get("match") == match_id:
        session.pop(DRAFT_KEY, None)
        form = RulingForm(formdata=ImmutableMultiDict(draft.get("values") or {}))
        errors = [str(e) for e in draft.get("errors") or []]
    return Markup(render_template("_ruling_form.html", form=form, errors=errors,
                                  match_id=match_id, data=data))
