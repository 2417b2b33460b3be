"""The verbale: the arbiter's printable record of a match, as a page and as a PDF."""

from __future__ import annotations

import re
import sys
from uuid import UUID

import pytest
from flask import Flask
from flask.testing import FlaskClient

from domain.events import CardPlayed, SmazzataEnded
from projections.accounts import add_arbiter
from projections.arbiter_signing import give_key
from replay_web.access import seat_token
from replay_web.web.app import create_app
from replay_web.web.verbale_page import static_fetcher
from tests.replay_web.demo import Demo, run, stored_events
from tests.replay_web.web.conftest import as_arbiter, close_app

PLAYED = re.compile(r'<tr class="play" data-step="(\d+)">.*?data-card="([^"]+)"', re.S)


def _samples(demo: Demo) -> list[str]:
    """One match of each game and table size, and the transcribed one."""
    chosen: dict[tuple[str, int, str], str] = {}
    for stream in demo.matches():
        created = demo.created(stream)
        kind = "live" if created.provenance is None else created.provenance.kind
        chosen.setdefault((created.game, len(created.players), kind), stream)
    return list(chosen.values())


def _transcribed(demo: Demo) -> str:
    return next(s for s in demo.matches() if (p := demo.created(s).provenance) is not None
                and p.transcribed)


def test_senza_login_da_arbitro_403(client: FlaskClient, demo_app: Flask,
                                    web_demo: Demo) -> None:
    stream = next(iter(web_demo.matches()))
    token = seat_token(demo_app.extensions["verbale"].secret, UUID(stream), 0)
    for path in (f"/matches/{stream}/verbale", f"/matches/{stream}/verbale.pdf"):
        for query in ("", f"?view=seat1&token={token}", f"?token={token}"):
            response = client.get(path + query)
            assert response.status_code == 403, path + query
            assert "no-store" in response.headers["Cache-Control"]


def test_partita_sconosciuta_404(client: FlaskClient) -> None:
    as_arbiter(client)
    for match in ("00000000-0000-0000-0000-000000000000", "zzz"):
        assert client.get(f"/matches/{match}/verbale").status_code == 404
        assert client.get(f"/matches/{match}/verbale.pdf").status_code == 404


def test_ogni_giocata_in_ordine(client: FlaskClient, web_demo: Demo) -> None:
    as_arbiter(client)
    for stream in _samples(web_demo):
        response = client.get(f"/matches/{stream}/verbale?lang=en")
        assert response.status_code == 200
        assert "no-store" in response.headers["Cache-Control"]
        page = response.get_data(as_text=True)
        events = web_demo.events[stream]
        played = [(str(v), e.card.code) for v, e in enumerate(events, start=1)
                  if isinstance(e, CardPlayed)]
        assert played and PLAYED.findall(page) == played, stream
        for name in web_demo.created(stream).players:
            assert name in page
        assert f"{len(events)} events; head hash of the record:" in page


def test_hash_di_testa_come_verify(client: FlaskClient, web_demo: Demo) -> None:
    stream = next(iter(web_demo.matches()))
    code, out, err = run("verify", "--match", stream, "--database", web_demo.url)
    assert code == 0, out + err
    head = re.search(r"hash ([0-9a-f]{64})", out)
    assert head is not None, out
    page = as_arbiter(client).get(f"/matches/{stream}/verbale").get_data(as_text=True)
    assert f'<code class="hash head">{head.group(1)}</code>' in page


def test_trascritta_mescolata_non_verificabile(client: FlaskClient, web_demo: Demo) -> None:
    stream = _transcribed(web_demo)
    page = as_arbiter(client).get(f"/matches/{stream}/verbale?lang=en").get_data(as_text=True)
    smazzate = page.count('<section class="smazzata')
    assert smazzate >= 1
    assert page.count("transcribed: shuffle unverifiable") == smazzate
    assert "Seed commitment" not in page
    assert '<td class="n">' in page.split('<section class="findings">')[1]   # the audit's list


def test_pdf(client: FlaskClient, web_demo: Demo) -> None:
    stream = _transcribed(web_demo)
    response = as_arbiter(client).get(f"/matches/{stream}/verbale.pdf")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/pdf"
    assert response.headers["Content-Disposition"] == (
        f'inline; filename="verbale-{stream[:8]}.pdf"')
    assert response.data.startswith(b"%PDF-")
    assert len(response.data) > 10_000


def test_pdf_senza_weasyprint_503(client: FlaskClient, web_demo: Demo,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "weasyprint", None)   # import fails as when not installed
    stream = next(iter(web_demo.matches()))
    response = as_arbiter(client).get(f"/matches/{stream}/verbale.pdf?lang=en")
    assert response.status_code == 503
    assert "WeasyPrint" in response.get_data(as_text=True)


def test_il_pdf_legge_solo_i_nostri_file_statici(demo_app: Flask) -> None:
    import weasyprint
    with demo_app.test_request_context("/matches/x/verbale.pdf"):
        fetch = static_fetcher(weasyprint)
        found = fetch("http://localhost/static/verbale.css")
        body = found.read() if hasattr(found, "read") else found["string"]
        assert b"@page" in body
        for url in ("http://example.org/static/verbale.css", "file:///etc/passwd",
                    "http://localhost/static/../app.py", "http://localhost/static/none.css",
                    "http://localhost/matches/x/verbale"):
            with pytest.raises(ValueError):
                fetch(url)


def _annulled_by_arbiter(store: str, stream: str, reason: str, smazzata: int) -> dict[str, str]:
    """Rossi annuls `smazzata` (counted from 1) of `stream` through the web form, signing it;
    the verbale page after it, in English and Italian."""
    app = create_app(store, config={"TESTING": True})
    services = app.extensions["verbale"]
    add_arbiter(services.engine, "Rossi", "una-password-lunga")
    give_key(services.store, services.engine, "Rossi", "una-password-lunga")
    try:
        client = as_arbiter(app.test_client(), "Rossi")
        page = client.get(f"/matches/{stream}?view=arbiter&lang=en").get_data(as_text=True)
        token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page)
        assert token is not None
        response = client.post(f"/matches/{stream}/rulings?lang=en", data={
            "csrf_token": token.group(1), "sign_password": "una-password-lunga",
            "reason": reason, "kind": "annul-smazzata", "smazzata": str(smazzata),
            "side1": "0", "side2": "0"})
        assert response.status_code == 303
        return {lang: client.get(f"/matches/{stream}/verbale?lang={lang}").get_data(as_text=True)
                for lang in ("en", "it")}
    finally:
        close_app(app)


def test_le_decisioni_nel_verbale(fresh_store: str) -> None:
    stream = next(s for s, events in stored_events(fresh_store).items()
                  if sum(isinstance(e, SmazzataEnded) for e in events) >= 2)
    page = _annulled_by_arbiter(fresh_store, stream, "mazzo incompleto", 1)["en"]
    rulings = page.split('<section class="rulings">')[1].split("</section>")[0]
    assert "Rossi" in rulings and "mazzo incompleto" in rulings and "annul-smazzata" in rulings
    assert re.findall(r'<section class="smazzata( annulled)?" data-smazzata="(\d+)"',
                      page)[:2] == [(" annulled", "1"), ("", "2")]
    assert "smazzata</abbr> 1</td><td>mazzo incompleto" in rulings


def test_una_partita_ripresa_dopo_la_decisione(fresh_store: str) -> None:
    """The arbiter annuls the smazzata that decided the match: the timeline says the match is
    resumed (MatchResumed), in both languages."""
    stream, ended = next((s, [e for e in events if isinstance(e, SmazzataEnded)])
                         for s, events in stored_events(fresh_store).items()
                         if sum(isinstance(e, SmazzataEnded) for e in events) >= 2)
    pages = _annulled_by_arbiter(fresh_store, stream, "carte viste", ended[-1].number + 1)
    assert "Match resumed after the ruling" in pages["en"]
    assert "Partita ripresa dopo la decisione" in pages["it"]
