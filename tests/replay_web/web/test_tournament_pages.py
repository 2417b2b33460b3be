"""The viewer's Tarocchi tournament pages (replay_web/web/tournaments.py) with Flask's test
client, on SQLite and PostgreSQL: the standings after each turn and final as the domain ranks
them, the tables of each turn, each player's sheet with its findings, the paper forms as HTML
and PDF, in Italian and English."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from domain.tarocchi.standings import standings
from importers.sheets.tarocchi_import import import_sheets
from projections.accounts import add_arbiter
from projections.arbiter_signing import give_key
from replay_web.web.app import create_app
from tests.projections.conftest import Backend
from tests.replay_web.web.conftest import as_arbiter, close_app
from tests.verbale_cli import run

EXAMPLE = Path(__file__).parents[3] / "docs" / "examples" / "tarocchi" / "torneo-12.txt"
ARBITER, PASSWORD = "Arbitro Rossi", "una-password-lunga"


@pytest.fixture
def tarocchi(backend: Backend) -> Iterator[tuple[FlaskClient, str, Any]]:
    code, out = run("tournament", "import", str(EXAMPLE), "--database", backend.url)
    assert code == 0, out
    stream = out.strip().splitlines()[-1].split()[6]
    app = create_app(backend.url, config={"TESTING": True})
    services = app.extensions["verbale"]
    add_arbiter(services.engine, ARBITER, PASSWORD)
    give_key(services.store, services.engine, ARBITER, PASSWORD)
    imported = import_sheets([(EXAMPLE.name, EXAMPLE.read_text(encoding="utf-8"))])
    yield app.test_client(), stream, imported.state
    close_app(app)


def _text(html: bytes) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.decode("utf-8")))


def test_the_tournament_page_shows_standings_tables_sheets_and_findings(
        tarocchi: tuple[FlaskClient, str, Any]) -> None:
    client, stream, state = tarocchi
    listed = client.get("/tournaments?lang=en")
    assert listed.status_code == 200 and stream.encode() in listed.data
    page = client.get(f"/tournaments/{stream}?lang=en")
    assert page.status_code == 200
    html = page.data.decode("utf-8")
    for turn in range(1, 5):
        block = html.split(f'id="standings-table-{turn}"')[1].split("</table>")[0]
        numbers = [int(n) for n in re.findall(r'data-number="(\d+)"', block)]
        assert numbers == [line.number for line in standings(state, turn)]
    assert "Final standings" in html and "After turn III" in html
    for letter in ("A", "B", "C"):
        assert f"<th>{letter}</th>" in html
    assert html.count('class="badge" title="first dealer"') == 12   # 3 tables x 4 turns
    assert html.count("<tr><td>giocatore") + html.count("<tr><td>tavolo") == 7
    assert "DIFF is written 1" in html


def test_the_page_speaks_italian_through_the_catalogue(
        tarocchi: tuple[FlaskClient, str, Any]) -> None:
    client, stream, _state = tarocchi
    page = client.get(f"/tournaments/{stream}?lang=it")
    assert page.status_code == 200 and b'<html lang="it">' in page.data
    assert "Semi italiani" in page.data.decode("utf-8")   # the catalogue's Italian


def test_the_paper_forms_print_as_html_and_pdf(tarocchi: tuple[FlaskClient, str, Any]) -> None:
    client, stream, state = tarocchi
    form = client.get(f"/tournaments/{stream}/print?turn=2&lang=en")
    assert form.status_code == 200
    text = _text(form.data)
    assert "Standings after turn II" in text
    first = standings(state, 2)[0]
    assert f"{first.rank} {first.number} {first.name} {first.points}" in text
    sheet = client.get(f"/tournaments/{stream}/players/7/print?lang=en")
    assert sheet.status_code == 200
    written = _text(sheet.data)
    assert "Scheda Punteggio Giocatore" in written and state.name_of(7) in written
    assert "DIFF is written 1" in written   # line 10 of player 7, as the report says
    assert written.count("not written") == 0
    for url in (f"/tournaments/{stream}/print.pdf", f"/tournaments/{stream}/players/7/print.pdf"):
        pdf = client.get(url)
        assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
        assert pdf.data.startswith(b"%PDF")


def test_what_is_not_there_is_404(tarocchi: tuple[FlaskClient, str, Any]) -> None:
    client, stream, _state = tarocchi
    for path in ("/tournaments/nope", f"/tournaments/{stream}/print?turn=5",
                 f"/tournaments/{stream}/players/13/print",
                 "/tournaments/00000000-0000-4000-8000-000000000000"):
        assert client.get(path).status_code == 404, path


def _token(html: str) -> str:
    found = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html)
    assert found is not None
    return found.group(1)


def test_an_arbiter_records_a_signed_penalty_from_the_page(
        tarocchi: tuple[FlaskClient, str, Any], backend: Backend) -> None:
    client, stream, state = tarocchi
    anonymous = client.get(f"/tournaments/{stream}?lang=en").data.decode("utf-8")
    assert 'id="penalty-form"' not in anonymous
    assert client.post(f"/tournaments/{stream}/penalties",
                       data={"player": "5"}).status_code in (400, 403)
    as_arbiter(client, ARBITER)
    page = client.get(f"/tournaments/{stream}?lang=en").data.decode("utf-8")
    assert 'id="penalty-form"' in page and 'name="sign_password"' in page
    form = {"csrf_token": _token(page), "player": "5", "turn": "2", "smazzata": "3",
            "code": "scarto-errato", "fate": "prosegue", "extra": "0", "important": "y",
            "reason": "scarto di un Re", "sign_password": PASSWORD}
    refused = client.post(f"/tournaments/{stream}/penalties?lang=en", data=form)
    assert refused.status_code == 400
    assert 'id="penalty-errors"' in refused.data.decode("utf-8")
    ruled = page.count("<li>art. ")
    assert client.get(f"/tournaments/{stream}").data.decode("utf-8").count("<li>art. ") == ruled
    before = next(line.points for line in standings(state, 4) if line.number == 5)
    done = client.post(f"/tournaments/{stream}/penalties",
                       data={**form, "fate": "ripetuta"})
    assert done.status_code == 303 and done.headers["Location"].endswith("#penalties")
    after = client.get(f"/tournaments/{stream}?lang=en").data.decode("utf-8")
    assert after.count("<li>art. ") == ruled + 1 and "Arbitro Rossi: scarto di un Re" in after
    final = after.split('id="standings-table-4"')[1].split("</table>")[0]
    row = final.split('data-number="5"')[1].split("</tr>")[0]
    assert f'<td class="n strong">{before - 2}</td>' in row
    code, out = run("verify", "--database", backend.url)
    assert code == 0 and "nobody signed" not in out, out


@pytest.mark.parametrize("typed", ["", "una-password-sbagliata"])
def test_a_penalty_without_the_right_password_is_not_recorded(
        tarocchi: tuple[FlaskClient, str, Any], typed: str) -> None:
    """Issue 14: the penalty is the arbiter's ruling, signed as a card game's ruling is: the
    form asks the password that opens the arbiter's key, and without it stores nothing."""
    client, stream, _ = tarocchi
    as_arbiter(client, ARBITER)
    page = client.get(f"/tournaments/{stream}?lang=en").data.decode("utf-8")
    ruled = page.count("<li>art. ")
    form = {"csrf_token": _token(page), "player": "5", "turn": "2", "smazzata": "3",
            "code": "scarto-errato", "fate": "ripetuta", "extra": "0", "important": "y",
            "reason": "firma mancante", "sign_password": typed}
    refused = client.post(f"/tournaments/{stream}/penalties?lang=en", data=form)
    assert refused.status_code == 400
    shown = html.unescape(refused.data.decode("utf-8"))
    expected = ("a ruling is recorded only signed: type your password" if not typed
                else "wrong password: the signing key of arbiter Arbitro Rossi stays locked")
    assert expected in shown and "firma mancante" in shown
    assert not typed or typed not in shown   # the password is never sent back
    assert client.get(f"/tournaments/{stream}").data.decode("utf-8").count("<li>art. ") == ruled
