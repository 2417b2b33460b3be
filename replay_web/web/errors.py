"""Error pages: a clear page (or JSON under /api/) for 400, 403, 404, 405 and 500, never a
stack trace. A 500 is logged with its traceback for the operator; the page only says sorry."""

from __future__ import annotations

from flask import Flask, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from werkzeug.exceptions import HTTPException, InternalServerError


def register(app: Flask) -> None:
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _unexpected)


def _titles() -> dict[int, str]:
    return {400: gettext("Bad request"), 403: gettext("Not allowed"),
            404: gettext("Not found"), 405: gettext("Method not allowed"),
            500: gettext("Internal error")}


def _explanations() -> dict[int, str]:
    return {
        400: gettext("The address holds a value the viewer does not accept."),
        403: gettext("This view needs a seat's link or an arbiter's login."),
        404: gettext("There is no such match, step or page."),
        405: gettext("This address does not accept that method."),
        500: gettext("Something went wrong in verbale: the error is logged."),
    }


def _http_error(error: HTTPException) -> ResponseReturnValue:
    code = error.code or 500
    title = _titles().get(code, error.name)
    detail = error.description if code == 400 else _explanations().get(code, "")
    if request.path.startswith("/api/"):
        return jsonify(error=title, code=code, detail=detail), code
    return render_template("error.html", code=code, title=title, detail=detail), code


def _unexpected(error: Exception) -> ResponseReturnValue:
    from flask import current_app
    current_app.logger.exception("unexpected error on %s", request.path)
    return _http_error(InternalServerError())
