"""The viewer's pages answer: the list, a match at a step, 404 and 403 pages."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from tests.replay_web.demo import Demo
from tests.replay_web.web.conftest import as_arbiter


def test_la_lista_mostra_le_partite(client: FlaskClient, web_demo: Demo) -> None:
    page = client.get("/?size=50").get_data(as_text=True)
    listed = set(re.findall(r'data-match="([0-9a-f-]+)"', page))
    assert listed == set(web_demo.matches())


def test_una_partita_a_ogni_passo(client: FlaskClient, web_demo: Demo) -> None:
    stream, events = next(iter(web_demo.matches().items()))
    for step in (1, 2, len(events) // 2, len(events)):
        response = client.get(f"/matches/{stream}?step={step}")
        assert response.status_code == 200
        assert f'data-step="{step}"' in response.get_data(as_text=True)


def test_passi_e_partite_sconosciute_sono_404(client: FlaskClient, web_demo: Demo) -> None:
    stream, events = next(iter(web_demo.matches().items()))
    for path in (f"/matches/{stream}?step={len(events) + 1}", f"/matches/{stream}?step=-1",
                 f"/matches/{stream}?step=0",
                 "/matches/00000000-0000-0000-0000-000000000000", "/matches/zzz",
                 f"/matches/{stream}?view=seat9", "/nowhere"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert "404" in response.get_data(as_text=True)


def test_senza_token_o_login_403(client: FlaskClient, web_demo: Demo) -> None:
    stream = next(iter(web_demo.matches()))
    for view in ("seat1", "seat2", "arbiter"):
        assert client.get(f"/matches/{stream}?view={view}").status_code == 403
        assert client.get(f"/matches/{stream}?view={view}&token=x").status_code == 403
    assert as_arbiter(client).get(f"/matches/{stream}?view=arbiter").status_code == 200


def test_viste_private_mai_in_cache(client: FlaskClient, web_demo: Demo) -> None:
    stream = next(iter(web_demo.matches()))
    response = as_arbiter(client).get(f"/matches/{stream}?view=seat1")
    assert "no-store" in response.headers["Cache-Control"]
    assert "private" in response.headers["Cache-Control"]


def test_una_risposta_tenuta_e_quella_rifatta(web_demo: Demo, client: FlaskClient) -> None:
    """replay_web/web/rendered.py: a kept answer is byte for byte the answer made again."""
    from replay_web.web.app import create_app
    from tests.replay_web.web.conftest import close_app

    stream, events = next(iter(web_demo.matches().items()))
    paths = [f"/matches/{stream}?step={len(events) // 2}",
             f"/api/matches/{stream}/steps/{len(events) // 3}?view=public",
             f"/embed/matches/{stream}?step=3&lang=en"]
    fresh_app = create_app(web_demo.url, config={"TESTING": True, "VERBALE_KEPT_ANSWERS": 0})
    try:
        fresh = fresh_app.test_client()
        for path in paths:
            first, again = client.get(path), client.get(path)
            assert first.status_code == 200
            assert first.data == again.data == fresh.get(path).data
        assert len(fresh_app.extensions["verbale"].answers) == 0
    finally:
        close_app(fresh_app)


def test_senza_carte_viste_le_mani_precedenti_non_si_vedono(
        client: FlaskClient, web_demo: Demo) -> None:
    """000, Regole opzionali: only with "carte viste" do "le carte viste nelle precedenti mani
    della smazzata" stay shown. Without it, the timeline of a seat or the public keeps who
    played in the earlier mani of the smazzata in play, not which card; the arbiter sees all."""
    from domain.events import CardPlayed, SmazzataDealt, SmazzataEnded

    checked = {False: 0, True: 0}
    for stream, events in web_demo.matches().items():
        created = web_demo.created(stream)
        viste = bool(created.visibility and created.visibility.carte_viste)
        players = len(created.players)
        deal = next(i for i, e in enumerate(events) if isinstance(e, SmazzataDealt))
        plays = [i for i, e in enumerate(events[deal:], start=deal) if isinstance(e, CardPlayed)]
        end = next((i for i, e in enumerate(events) if isinstance(e, SmazzataEnded)), 0)
        step = plays[players] + 1   # a mano done, the next one begun: still in the smazzata
        if step > end or checked[viste] >= 2:
            continue
        data = client.get(f"/api/matches/{stream}/steps/{step}?view=public").get_json()
        shown = [e["card"] for e in data["events"] if e["kind"] == "play"]
        if viste:
            assert None not in shown
        else:
            assert shown[:players] == [None] * players and None not in shown[players:]
        checked[viste] += 1
    assert checked[False] > 0


def test_la_cronologia_scrive_le_carte_nei_semi_scelti(
        client: FlaskClient, web_demo: Demo) -> None:
    """The timeline's cards follow the suits switch; `data-card` keeps the compact code."""
    stream = next(iter(web_demo.matches()))
    names = re.compile(r'<span class="cardname" data-card="([^"]+)">([^<]+)</span>')
    italian = names.findall(client.get(f"/matches/{stream}").get_data(as_text=True))
    french = names.findall(client.get(f"/matches/{stream}?suits=french").get_data(as_text=True))
    assert italian and all(code == text for code, text in italian)
    assert [code for code, _ in french] == [code for code, _ in italian]
    assert all(text[-1] in "♦♥♣♠" for _, text in french)
