"""The Tarocchi tournaments in the viewer (docs/tarocchi.md, "The viewer").

`/tournaments` lists them; `/tournaments/<id>` is a tournament's page: the standings after each
turn and the final ones (art. 9's columns), the tables of each turn, every player's sheet and
the checks' findings. The paper forms print: `/tournaments/<id>/print` the standings
(`?turn=N`, default the last) and `/tournaments/<id>/players/<n>/print` a player's Scheda
Punteggio Giocatore, each also as PDF (`.pdf`, WeasyPrint, as the verbale). A tournament's
sheets are public paper: no login; a logged-in arbiter also sees the form
that records a penalty (tournaments_penalty.py). Everything comes from the read models; no SQL here.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask import Blueprint, abort, render_template, request
from flask.typing import ResponseReturnValue
from sqlalchemy import Engine

from domain.tarocchi.seats import ROMAN, TURNS
from replay_web.web.app import services
from replay_web.web.tournaments_data import sheet_data, tournament_data
from replay_web.web.tournaments_penalty import penalty_form, record_penalty

blueprint = Blueprint("tournaments", __name__)


def _engine() -> Engine:
    engine = services().engine
    if engine is None:
        abort(404)
    return engine


def _stream(text: str) -> str:
    """A tournament of a URL: a whole id (any case, with or without dashes); else 404."""
    try:
        return str(UUID(text))
    except ValueError:
        abort(404)


def _data(text: str) -> dict[str, Any]:
    data = tournament_data(_engine(), _stream(text))
    if data is None:
        abort(404)
    return data


@blueprint.get("/tournaments")
def tournament_list() -> ResponseReturnValue:
    from projections.read_models.queries_tarocchi import tarocchi_tournaments
    return render_template("tournaments.html", tournaments=tarocchi_tournaments(_engine()))


@blueprint.get("/tournaments/<tournament_text>")
def tournament(tournament_text: str) -> ResponseReturnValue:
    return render_template("tournament.html", penalty_form=penalty_form(),
                           **_data(tournament_text))


@blueprint.post("/tournaments/<tournament_text>/penalties")
def penalty(tournament_text: str) -> ResponseReturnValue:
    """An arbiter's penalty (tournaments_penalty.py); 403 without the login."""
    return record_penalty(_stream(tournament_text), _data(tournament_text))


def _turn(data: dict[str, Any]) -> dict[str, Any]:
    """The standings `?turn=` asks for (default: the last seated); 404 if not seated."""
    text = request.args.get("turn", "")
    if not text:
        if not data["standings"]:
            abort(404)
        return dict(data["standings"][0])
    if not text.isdigit() or not 1 <= int(text) <= TURNS:
        abort(404)
    found = next((s for s in data["standings"] if s["turn"] == int(text)), None)
    if found is None:
        abort(404)
    return dict(found)


def _standings_page(tournament_text: str, pdf: bool) -> str:
    data = _data(tournament_text)
    return render_template("tournament_print.html", pdf=pdf, shown=_turn(data), **data)


@blueprint.get("/tournaments/<tournament_text>/print")
def standings_print(tournament_text: str) -> ResponseReturnValue:
    return _standings_page(tournament_text, False)


@blueprint.get("/tournaments/<tournament_text>/print.pdf")
def standings_pdf(tournament_text: str) -> ResponseReturnValue:
    html = _standings_page(tournament_text, True)
    turn = request.args.get("turn", "")
    return _pdf(html, f"classifica-{tournament_text[:8]}{'-' + turn if turn else ''}.pdf")


def _sheet_page(tournament_text: str, number: int, pdf: bool) -> str:
    data = sheet_data(_engine(), _stream(tournament_text), number)
    if data is None:
        abort(404)
    return render_template("tarocchi_sheet.html", pdf=pdf, roman=ROMAN, **data)


@blueprint.get("/tournaments/<tournament_text>/players/<int:number>/print")
def sheet_print(tournament_text: str, number: int) -> ResponseReturnValue:
    return _sheet_page(tournament_text, number, False)


@blueprint.get("/tournaments/<tournament_text>/players/<int:number>/print.pdf")
def sheet_pdf(tournament_text: str, number: int) -> ResponseReturnValue:
    html = _sheet_page(tournament_text, number, True)
    return _pdf(html, f"scheda-{tournament_text[:8]}-{number}.pdf")


def _pdf(html: str, filename: str) -> ResponseReturnValue:
    from replay_web.web.verbale_page import pdf_response
    return pdf_response(html, filename)
