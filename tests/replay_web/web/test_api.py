"""The JSON API on the demo store: each route's shape, filters and pagination, its JSON errors,
every answer valid against /api/openapi.json, and the JSON of a step agreeing with its page."""

from __future__ import annotations

import html
import re
from collections import Counter
from typing import Any
from uuid import UUID

import pytest
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from domain.cards import UNKNOWN_CODE, parse_card
from domain.events import SmazzataEnded
from domain.record.events import RulingRecorded
from projections.read_models.scores import match_scores
from replay_web.access import seat_token
from replay_web.svg_cards import default_title
from replay_web.web.api import openapi_document, scores_data
from replay_web.web.app import create_app
from replay_web.web.records import HeldReplays, Replay, replay_of
from tests.replacing import replace
from tests.replay_web.demo import Demo
from tests.replay_web.web.conftest import as_arbiter

DOCUMENT = "urn:verbale:openapi"
JSON = dict[str, Any]


def _validator(pointer: str) -> Draft202012Validator:
    """A validator of the schema at `pointer` in the OpenAPI document, its $refs resolved."""
    resource = Resource.from_contents(openapi_document(), default_specification=DRAFT202012)
    registry: Registry[Any] = Registry().with_resource(DOCUMENT, resource)
    return Draft202012Validator({"$ref": f"{DOCUMENT}#{pointer}"}, registry=registry)


def _response_schema(path: str, status: int) -> str:
    escaped = path.replace("~", "~0").replace("/", "~1")
    return f"/paths/{escaped}/get/responses/{status}/content/application~1json/schema"


def valid(body: Any, path: str, status: int = 200) -> Any:
    """`body` after checking it against the document's schema for `path` answering `status`."""
    _validator(_response_schema(path, status)).validate(body)
    return body


def get(client: FlaskClient, url: str, path: str, status: int = 200) -> Any:
    response = client.get(url)
    assert response.status_code == status, (url, response.get_data(as_text=True)[:300])
    assert response.mimetype == "application/json"
    return valid(response.get_json(), path, status)


LIST = "/api/matches"
SUMMARY = "/api/matches/{match}"
STEP = "/api/matches/{match}/steps/{step}"


def test_il_documento_openapi(client: FlaskClient, demo_app: Any) -> None:
    document = client.get("/api/openapi.json").get_json()
    assert document == openapi_document() and document["openapi"].startswith("3.1")
    routes = {re.sub(r"<(\w+:)?(\w+)>", r"{\2}", rule.rule).replace("{match_text}", "{match}")
              .replace("{step_text}", "{step}")
              for rule in demo_app.url_map.iter_rules() if rule.rule.startswith("/api/")}
    assert routes == set(document["paths"])
    for schema in document["components"]["schemas"].values():
        Draft202012Validator.check_schema(schema)
    view = next(p for p in document["paths"][STEP]["get"]["parameters"] if p["name"] == "view")
    assert view["schema"]["pattern"] == "^(public|arbiter|seat[1-4])$"


def test_la_lista(client: FlaskClient, web_demo: Demo) -> None:
    found = get(client, f"{LIST}?size=100", LIST)
    assert {row["id"] for row in found["matches"]} == set(web_demo.matches())
    assert found["total"] == found["stored"] == len(web_demo.matches()) and found["exact"]
    assert (found["page"], found["pages"], found["size"]) == (1, 1, 100)
    row = next(r for r in found["matches"] if r["id"] in web_demo.matches())
    created = web_demo.created(row["id"])
    assert row["players"] == list(created.players)
    assert row["sides"] == [s + 1 for s in created.sides]


def test_i_filtri(client: FlaskClient, web_demo: Demo) -> None:
    games = Counter(web_demo.created(s).game for s in web_demo.matches())
    for game, count in games.items():
        found = get(client, f"{LIST}?game={game}&size=100", LIST)
        assert found["total"] == count and {r["game"] for r in found["matches"]} == {game}
    ruled = {s for s, events in web_demo.matches().items()
             if any(isinstance(e, RulingRecorded) for e in events)}
    found = get(client, f"{LIST}?how=ruling&size=100", LIST)
    assert {r["id"] for r in found["matches"]} == ruled
    player = web_demo.created(next(iter(web_demo.matches()))).players[0]
    found = get(client, f"{LIST}?player={player.lower()}&size=100", LIST)
    assert found["matches"] and all(player in r["players"] for r in found["matches"])
    assert get(client, f"{LIST}?until=1999-01-01", LIST)["matches"] == []


def test_le_pagine(client: FlaskClient, web_demo: Demo) -> None:
    seen: list[str] = []
    first = get(client, f"{LIST}?size=10", LIST)
    for page in range(1, first["pages"] + 1):
        found = get(client, f"{LIST}?size=10&page={page}", LIST)
        assert found["page"] == page and len(found["matches"]) <= 10
        seen += [r["id"] for r in found["matches"]]
    assert len(seen) == len(set(seen)) and set(seen) == set(web_demo.matches())
    assert first["pages"] == -(-len(seen) // 10)
    beyond = get(client, f"{LIST}?size=10&page={first['pages'] + 1}", LIST)
    assert beyond["matches"] == []


@pytest.mark.parametrize("query", ["game=poker", "size=7", "since=2026-13-01", "round=-1",
                                   "page=0", "findings=maybe", "player=" + "x" * 101,
                                   "how=forfeit", "state=paused", "until=ieri"])
def test_filtri_sbagliati_400(client: FlaskClient, query: str) -> None:
    found = get(client, f"{LIST}?{query}", LIST, 400)
    assert found["code"] == 400 and found["detail"].startswith(query.split("=")[0])


def test_il_riassunto(client: FlaskClient, web_demo: Demo) -> None:
    for stream, events in web_demo.matches().items():
        found = get(client, f"/api/matches/{stream}", SUMMARY)
        assert found["match"]["id"] == stream and found["steps"] == len(events)
        ended = web_demo.result(stream) is not None
        assert found["state"] == ("ended" if ended else "in-progress")
        assert len(found["smazzate"]) == sum(isinstance(e, SmazzataEnded) for e in events)
        rulings = [n for n, e in enumerate(events, start=1) if isinstance(e, RulingRecorded)]
        assert [r["step"] for r in found["rulings"]] == rulings
        assert (found["settled"] is not None) == ended
        assert [s["number"] for s in found["smazzate"]] == list(
            range(1, len(found["smazzate"]) + 1))


def test_il_riassunto_concorda_con_il_passo(client: FlaskClient, web_demo: Demo) -> None:
    for stream in list(web_demo.matches())[:5]:
        summary = get(client, f"/api/matches/{stream}", SUMMARY)
        last = get(client, f"/api/matches/{stream}/steps/last", STEP)
        assert last["match"] == summary["match"] and last["step"] == summary["steps"]
        regular = [s for s in summary["smazzate"] if not s["annulled"]]
        assert [s["points"] for s in regular] == [
            s["scores"] for s in last["smazzate"] if not s["annulled"]]
        winner = None if last["result"] is None else last["result"]["winner"]
        assert summary["row"]["winner"] == winner


def test_una_partita_in_corso_non_dice_il_risultato(demo_app: Any, web_demo: Demo) -> None:
    stream = next(s for s in web_demo.matches() if web_demo.result(s) is not None)
    with demo_app.app_context():
        scores = match_scores(demo_app.extensions["verbale"].engine, stream)
    assert scores is not None
    playing = scores_data(replace(scores, match=replace(scores.match, state="in-progress")),
                          ended=False)
    assert playing["settled"] is None and playing["row"]["state"] == "in-progress"
    for name in ("how", "scores", "winner", "mp", "vp", "mp_per_side", "verdict", "findings"):
        assert playing["row"][name] is None, name
    stale = scores_data(scores, ended=False)   # the read models ahead of the record read
    assert stale["settled"] is None and stale["row"]["mp"] is None


def test_in_memoria_e_in_corso(demo_app: Any, web_demo: Demo) -> None:
    """A viewer over records held in memory has no list; a match cut at half its record is
    in progress: no result, no read-model scores."""
    stream = next(iter(web_demo.matches()))
    full: Replay = demo_app.extensions["verbale"].replays.replay(UUID(stream))
    half = full.last // 2
    cut = replay_of(full.match_id, list(zip(full.events[:half], full.moments[:half],
                                            full.recorded_by[:half], strict=True)))
    app = create_app(replays=_held(cut), secret=b"s" * 32, config={"TESTING": True})
    client = app.test_client()
    assert get(client, LIST, LIST, 404)["code"] == 404
    found = get(client, f"/api/matches/{stream}", SUMMARY)
    assert (found["state"], found["steps"], found["row"], found["settled"]) == (
        "in-progress", half, None, None)
    step = get(client, f"/api/matches/{stream}/steps/last", STEP)
    assert step["result"] is None and step["last"] == half


def _held(replay: Replay) -> HeldReplays:
    return HeldReplays({replay.match_id: replay})


def _token(client: FlaskClient, stream: str, seat: int) -> str:
    app = client.application
    return seat_token(app.extensions["verbale"].secret, UUID(stream), seat - 1)


def test_i_passi(client: FlaskClient, web_demo: Demo) -> None:
    for stream, events in list(web_demo.matches().items())[:6]:
        players = len(web_demo.created(stream).players)
        for step in (1, 2, len(events) // 2, len(events)):
            public = get(client, f"/api/matches/{stream}/steps/{step}", STEP)
            assert (public["step"], public["view"], public["last"]) == (step, "public",
                                                                      len(events))
            assert "arbiter" not in public and len(public["events"]) == step
            assert all(s["hand"] is None for s in public["table"]["seats"])
            for seat in range(1, players + 1):
                url = (f"/api/matches/{stream}/steps/{step}?view=seat{seat}"
                       f"&token={_token(client, stream, seat)}")
                mine = get(client, url, STEP)
                assert mine["view"] == f"seat{seat}"
                assert mine["table"]["seats"][seat - 1]["hand"] is not None
        arbiter = get(as_arbiter(client), f"/api/matches/{stream}/steps/1?view=arbiter", STEP)
        assert len(arbiter["events"]) == len(events) and "head" in arbiter["arbiter"]


def test_errori_json_del_passo(client: FlaskClient, web_demo: Demo) -> None:
    stream, events = next(iter(web_demo.matches().items()))
    base = f"/api/matches/{stream}/steps"
    for url in (f"{base}/0", f"{base}/{len(events) + 1}", f"{base}/-1", f"{base}/uno",
                f"{base}/1?view=seat9", f"{base}/1?view=Public",
                "/api/matches/00000000-0000-0000-0000-000000000000/steps/1",
                "/api/matches/zzz", "/api/nowhere"):
        response = client.get(url)
        assert response.status_code == 404, url
        assert response.get_json()["code"] == 404
        _validator("/components/schemas/Error").validate(response.get_json())
    other = _token(client, stream, 2)
    for view, token in (("seat1", ""), ("seat1", "x"), ("seat1", other), ("seat2", "x"),
                        ("arbiter", ""), ("arbiter", other)):
        found = get(client, f"{base}/1?view={view}&token={token}", STEP, 403)
        assert found["code"] == 403
    response = client.post(f"{base}/1")
    assert response.status_code == 405 and response.get_json()["code"] == 405


def test_viste_private_mai_in_cache(client: FlaskClient, web_demo: Demo) -> None:
    stream = next(iter(web_demo.matches()))
    seat = client.get(f"/api/matches/{stream}/steps/1?view=seat1&token="
                      f"{_token(client, stream, 1)}")
    assert "no-store" in seat.headers["Cache-Control"]
    assert "private" in seat.headers["Cache-Control"]
    public = client.get(f"/api/matches/{stream}/steps/1")
    assert "no-store" not in public.headers["Cache-Control"]


_HAND = re.compile(r'data-seat="(\d)".*?<div class="hand" data-hidden="(true|false)">(.*?)</div>',
                   re.S)


def _page_hands(page: str) -> dict[int, tuple[bool, list[str]]]:
    """Per seat of a page: whether its hand is hidden, and the titles of the cards drawn."""
    return {int(seat): (hidden == "true", [html.unescape(t) for t in
                                          re.findall(r"<title>(.*?)</title>", body)])
            for seat, hidden, body in _HAND.findall(page)}


def test_pagina_e_json_mostrano_le_stesse_carte(client: FlaskClient, web_demo: Demo) -> None:
    for stream, events in list(web_demo.matches().items())[:4]:
        seat = 1
        query = f"view=seat{seat}&token={_token(client, stream, seat)}"
        for step in (2, len(events) // 3, len(events) // 2):
            data = get(client, f"/api/matches/{stream}/steps/{step}?{query}", STEP)
            page = client.get(f"/matches/{stream}?step={step}&{query}&suits=italian")
            hands = _page_hands(page.get_data(as_text=True))
            for shown in data["table"]["seats"]:
                hidden, titles = hands[shown["seat"]]
                assert hidden == (shown["hand"] is None)
                if shown["hand"] is not None:
                    assert titles == [c if c == UNKNOWN_CODE else default_title(
                        parse_card(c), "italian") for c in shown["hand"]]
                else:
                    assert len(titles) == shown["hand_size"]
