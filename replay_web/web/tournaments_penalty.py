"""The arbiter's panel of a Tarocchi tournament page: a penalty of art. 7-8 against a player in
a smazzata (docs/tarocchi.md), for a logged-in arbiter only. The domain decides it
(domain/tarocchi/decide.py: the points from the catalogue, the fate its article allows); a
refusal is shown on the page with the form as it was sent (never the password), nothing stored.
The penalty is recorded with the arbiter's name and signed as a card game's ruling is
(replay_web/web/arbiter.py): the form asks the arbiter's password, which opens their key for this
one signature (wrong passwords slow the next ones as there: replay_web/web/login_gate.py)
and is kept nowhere; without it nothing is recorded."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from flask import abort, g, redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext, lazy_gettext
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    IntegerField,
    PasswordField,
    SelectChoice,
    SelectField,
    TextAreaField,
)
from wtforms.validators import DataRequired, Length, NumberRange, Optional

from domain.record.envelope import RecordedBy
from domain.tarocchi.commands import ImposePenalty
from domain.tarocchi.penalties import CATALOGUE, Fate
from projections.store.app import ConcurrencyConflict
from projections.store.tarocchi import execute_signed_penalty
from replay_web.i18n import translate_error
from replay_web.web.app import services
from replay_web.web.arbiter import signer_of
from replay_web.web.guard import logged_arbiter

REASON_MAX = 500


class PenaltyForm(FlaskForm):  # type: ignore[misc]
    player = IntegerField(lazy_gettext("Player no."), validators=[NumberRange(1, 10_000)])
    turn = IntegerField(lazy_gettext("Turn"), validators=[NumberRange(1, 4)])
    smazzata = IntegerField(lazy_gettext("Smazzata"), validators=[NumberRange(1, 4)])
    code = SelectField(lazy_gettext("Penalty"),
                       choices=[SelectChoice(k.code, f"{k.article} {k.name}")
                                for k in CATALOGUE.values()])
    fate = SelectField(lazy_gettext("The smazzata"),
                       choices=[SelectChoice(f.value, f.value) for f in Fate])
    extra = IntegerField(lazy_gettext("8.a: punti partita already lost"), default=0,
                         validators=[Optional(), NumberRange(0, 1000)])
    important = BooleanField(lazy_gettext("8.c/8.d: a Re, an Aria or the Picciotti"),
                             default=True)
    reason = TextAreaField(lazy_gettext("Reason"),
                           validators=[DataRequired(), Length(max=REASON_MAX)])
    sign_password = PasswordField(
        lazy_gettext("Your password, to sign the ruling"),
        validators=[DataRequired(message=lazy_gettext(
            "a ruling is recorded only signed: type your password")), Length(max=1000)])


def penalty_form() -> PenaltyForm | None:
    """The panel's form for a logged-in arbiter; None for anybody else."""
    return PenaltyForm() if logged_arbiter() is not None else None


def record_penalty(stream: str, page: dict[str, Any]) -> ResponseReturnValue:
    """POST: the penalty recorded and the page shown again at the penalties, or the page with
    the form and why it was refused (400)."""
    name = logged_arbiter()
    if name is None:
        abort(403)
    g.private = True
    store, engine = services().store, services().engine
    if store is None or engine is None:
        abort(404)
    form = PenaltyForm()
    if not form.validate_on_submit():
        return _refused(page, form, [f"{form[f].label.text}: {m}"
                                     for f, ms in form.errors.items() for m in ms])
    command = ImposePenalty(int(form.player.data), int(form.turn.data),
                            int(form.smazzata.data), str(form.code.data), str(form.fate.data),
                            name, str(form.reason.data).strip(), int(form.extra.data or 0),
                            bool(form.important.data))
    signer = signer_of(engine, name, str(form.sign_password.data))
    if isinstance(signer, str):
        return _refused(page, form, [signer])
    try:
        execute_signed_penalty(store, UUID(stream), command, signer, datetime.now(UTC),
                               RecordedBy("arbiter", name))
    except ConcurrencyConflict:
        return _refused(page, form, [gettext("The tournament changed meanwhile: look at it "
                                             "again and record the penalty again.")])
    except ValueError as error:   # TarocchiRefused: the domain's refusal
        return _refused(page, form, [translate_error(error, gettext)])
    from projections.read_models.project import catch_up
    catch_up(store, engine)
    return redirect(url_for("tournaments.tournament", tournament_text=stream,
                            _anchor="penalties"), 303)


def _refused(page: dict[str, Any], form: PenaltyForm, errors: list[str]) -> ResponseReturnValue:
    return render_template("tournament.html", penalty_form=form, penalty_errors=errors,
                           **page), 400
