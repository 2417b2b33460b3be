"""Imported hand records in the viewer (issue 12): the header says where a record came from and
what its header tags say; the findings panel lists the audit's findings, to a seat or the public
only those that tell nothing hidden at the step, each from the step that makes it known.

The records are docs/examples', imported with `verbale import` into a SQLite store of this
module (the score sheet adds claims to two of them), and one of them again with a wrong Result.
"""

from __future__ import annotations

import html
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from flask import Flask
from flask.testing import FlaskClient

from domain.cards import UNKNOWN_CODE, Card
from domain.record.events import IrregularityNoted, MatchEnded, ScoreClaimed
from domain.viewing import ARBITER, PUBLIC, Viewer
from replay_web.access import seat_token
from replay_web.web.app import Services, create_app
from replay_web.web.records import Replay, replay_of
from replay_web.web.step import ViewName, step_data
from tests.domain.test_observation import with_hidden_swapped
from tests.replacing import replace
from tests.replay_web.web.conftest import as_arbiter, close_app
from tests.replay_web.web.leak_tools import (
    MATCH_ID,
    MemoryReplays,
    check_answer,
    deal_step,
    hidden_at,
    urls,
    viewer_app,
    views,
    visible_at,
)
from tests.replay_web.web.test_api import STEP, SUMMARY, valid
from tests.verbale_cli import run

EXAMPLES = Path(__file__).resolve().parents[3] / "docs" / "examples"
IRREGOLARITA = "cirulla-irregolarita.txt"
PUNTEGGIO = "briscola-punteggio-sbagliato.txt"
TORNEO = "cirulla-2p-torneo.txt"           # the sheet claims a wrong primiera for it
COPPIE = "cirulla-4p-coppie.txt"
RISULTATO = "cirulla-risultato-sbagliato.txt"   # made here: IRREGOLARITA with Result 9-3
RECORDS = (IRREGOLARITA, PUNTEGGIO, TORNEO, COPPIE)


@dataclass(frozen=True)
class Imported:
    app: Flask
    ids: dict[str, str]
    """Each record's match id, by its source file."""

    def replay(self, source: str) -> Replay:
        found = services_of(self.app).replays.replay(UUID(self.ids[source]))
        assert found is not None
        return found


def services_of(app: Flask) -> Services:
    found: Services = app.extensions["verbale"]
    return found


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Imported]:
    directory = tmp_path_factory.mktemp("imported")
    wrong = (EXAMPLES / IRREGOLARITA).read_text(encoding="utf-8").replace(
        '[Result "3-9"]', '[Result "9-3"]')
    (directory / RISULTATO).write_text(wrong, encoding="utf-8")
    url = f"sqlite:///{directory / 'verbale.db'}"
    files = [str(EXAMPLES / name) for name in RECORDS]
    code, out = run("--lang", "en", "import", *files, str(EXAMPLES / "punteggi-circolo.csv"),
                    str(directory / RISULTATO), "--database", url)
    assert code == 0, out
    app = create_app(url, config={"TESTING": True})
    client = app.test_client()
    rows = client.get("/api/matches?size=100").get_json()["matches"]
    summaries = [valid(client.get(f"/api/matches/{row['id']}").get_json(), SUMMARY)
                 for row in rows]
    ids = {found["match"]["source"]: found["match"]["id"] for found in summaries}
    assert set(ids) == {*RECORDS, RISULTATO}
    yield Imported(app, ids)
    close_app(app)


def step_json(client: FlaskClient, match: str, step: int | str,
              query: str = "view=public") -> Any:
    response = client.get(f"/api/matches/{match}/steps/{step}?{query}")
    assert response.status_code == 200
    return valid(response.get_json(), STEP)   # as /api/openapi.json describes it


def page(client: FlaskClient, match: str, step: int | str, query: str = "view=public") -> str:
    response = client.get(f"/matches/{match}?step={step}&{query}&lang=en")
    assert response.status_code == 200
    return html.unescape(response.get_data(as_text=True))


def panel(text: str) -> str:
    """The findings panel of a page."""
    return text.split('<section class="findings-panel"')[1].split("</section>")[0]


def versions_of(replay: Replay, kind: type) -> list[int]:
    return [v for v, e in enumerate(replay.events, start=1) if isinstance(e, kind)]


def test_l_intestazione_dice_da_dove_viene_il_record(imported: Imported) -> None:
    client = imported.app.test_client()
    match = imported.ids[IRREGOLARITA]
    shown = page(client, match, "last")
    head = shown.split('<header class="match-head">')[1].split("</header>")[0]
    for text in ("Torneo sociale d'autunno", "Circolo ARCI Sovigliana, Vinci", "2026.11.21",
                 "Rossi", f"Transcribed from {IRREGOLARITA}", "imported by verbale-import"):
        assert text in head, text
    assert "claimed 3-9 · computed 3–9" in head   # the paper's Result beside the computed one
    data = step_json(client, match, "last")
    assert data["match"]["source"] == IRREGOLARITA
    assert data["match"]["importer"].startswith("verbale-import")
    assert {k: data["tags"][k] for k in ("Event", "Site", "Round", "Table")} == {
        "Event": "Torneo sociale d'autunno", "Site": "Circolo ARCI Sovigliana, Vinci",
        "Round": "5", "Table": "1"}
    # The tags are recorded at step 2: step 1 (the match created) does not have them yet.
    assert step_json(client, match, 1)["tags"] == {}
    early = page(client, match, 3).split('id="tag-result"')[1].split("</div>")[0]
    assert "claimed 3-9" in early and "computed" not in early   # the result only at the end


def test_il_punteggio_dichiarato_sbagliato_al_suo_passo(imported: Imported) -> None:
    client = imported.app.test_client()
    match = imported.ids[PUNTEGGIO]
    claimed = versions_of(imported.replay(PUNTEGGIO), ScoreClaimed)[0]
    seat = f"view=seat2&token={seat_token(services_of(imported.app).secret, UUID(match), 1)}"
    for query in ("view=public", seat):
        assert step_json(client, match, claimed - 1, query)["findings"]["shown"] == []
        text = panel(page(client, match, claimed, query))
        assert f"step={claimed}&" in text and "claimed score" in text
        assert "claimed punti 67–53, computed 57–63" in text
    found = step_json(client, match, claimed)["findings"]
    assert found["shown"] == [{
        "step": claimed, "severity": "finding", "check": "claimed score",
        "message": "smazzata 1: claimed punti 67–53, computed 57–63 (claimed by hand record)"}]
    assert found["open_checks"] == 1   # the first deal's shuffle: the second is not dealt yet
    assert step_json(client, match, "last")["findings"]["open_checks"] == 2
    assert "1 check the unknown cards leave open" in page(client, match, claimed)


def test_le_irregolarita_dal_passo_in_cui_sono_annotate(imported: Imported) -> None:
    client = imported.app.test_client()
    match = imported.ids[IRREGOLARITA]
    replay = imported.replay(IRREGOLARITA)
    noted = versions_of(replay, IrregularityNoted)
    assert len(noted) == 2
    plays = [e.refers_to for e in replay.events if isinstance(e, IrregularityNoted)]
    assert step_json(client, match, plays[0])["findings"]["shown"] == []
    for count, at in enumerate(noted, start=1):
        data = step_json(client, match, at)
        shown = data["findings"]["shown"]
        assert [f["step"] for f in shown] == plays[:count]
        assert all(f["severity"] == "finding" and f["check"].startswith("irregularity: ")
                   for f in shown)
        # The words are the ones the public timeline already shows for the noted event.
        entry = next(e for e in data["events"] if e["step"] == at)
        assert shown[-1]["message"].startswith(entry["message"])
    text = panel(page(client, match, "last"))
    assert "irregularity: turn order" in text and "irregularity: C16 presa obbligata" in text
    assert "seat 1 played out of turn" in text and "Ac discarded although it had to capture" in text


def test_il_risultato_dichiarato_solo_a_partita_finita(imported: Imported) -> None:
    client = imported.app.test_client()
    match = imported.ids[RISULTATO]
    ended = versions_of(imported.replay(RISULTATO), MatchEnded)[-1]
    assert not any(f["check"] == "claimed result"
                   for f in step_json(client, match, ended - 1)["findings"]["shown"])
    result = [f for f in step_json(client, match, ended)["findings"]["shown"]
              if f["check"] == "claimed result"]
    assert result == [{"step": ended, "severity": "finding", "check": "claimed result",
                       "message": "the Result tag says 9–3, the match ended 3–9 (the final "
                                  "scores, side 1 - side 2)"}]
    # The arbiter sees it where the audit puts it: at the header, step 2, from any step.
    arbiter = as_arbiter(imported.app.test_client())
    found = step_json(arbiter, match, 1, "view=arbiter")["findings"]["shown"]
    assert {"step": 2, "severity": "finding", "check": "claimed result",
            "message": result[0]["message"]} in found


def test_l_arbitro_vede_tutto(imported: Imported) -> None:
    arbiter = as_arbiter(imported.app.test_client())
    match = imported.ids[IRREGOLARITA]
    shown = step_json(arbiter, match, 3, "view=arbiter")["findings"]["shown"]
    severities = [f["severity"] for f in shown]
    assert severities.count("note") == 7 and severities.count("finding") == 2
    assert [f["step"] for f in shown] == sorted(f["step"] for f in shown)
    text = panel(page(arbiter, match, 3, "view=arbiter"))
    assert 'class="finding severity-note later"' in text   # after the step: marked later
    assert "open-checks" not in text   # the notes are listed, not only counted


def test_la_distinta_del_circolo(imported: Imported) -> None:
    """The club's score sheet claimed a wrong primiera for the second smazzata of TORNEO."""
    client = imported.app.test_client()
    match = imported.ids[TORNEO]
    claims = versions_of(imported.replay(TORNEO), ScoreClaimed)
    assert len(claims) == 2   # the sheet's two smazzate, after the end of the match
    shown = step_json(client, match, "last")["findings"]["shown"]
    assert shown == [{"step": claims[1], "severity": "finding", "check": "claimed score",
                      "message": "smazzata 2: claimed primiera 1–0, computed 0–1 (claimed by "
                                 "Marisa (segnapunti))"}]
    assert step_json(client, match, claims[0])["findings"]["shown"] == []
    coppie = step_json(client, imported.ids[COPPIE], "last")["findings"]
    assert coppie["shown"] == [] and coppie["open_checks"] == 9


def _viewers(replay: Replay) -> list[ViewName]:
    return [ViewName(v) for v in (*range(len(replay.created.players)), PUBLIC)]


def _upto(replay: Replay, step: int) -> Replay:
    """The record as it stood after `step` events (its own head: kept apart from the whole)."""
    recorded = list(zip(replay.events, replay.moments, replay.recorded_by, strict=True))
    return replay_of(replay.match_id, recorded[:step], head=f"{replay.head}:{step}")


@pytest.mark.parametrize("source", [*RECORDS, RISULTATO])
def test_ogni_passo_dipende_solo_dal_record_fin_li(imported: Imported, source: str) -> None:
    """A seat's or the public's findings and tags at a step are the same whether the record
    goes on or stops there: nothing of a later step shows, and each listed finding is at or
    before the step."""
    replay = imported.replay(source)
    with imported.app.app_context():
        for step in range(1, replay.last + 1):
            cut = _upto(replay, step)
            for view in _viewers(replay):
                whole, then = step_data(replay, step, view), step_data(cut, step, view)
                assert whole["findings"] == then["findings"], (source, step, view.text)
                assert whole["tags"] == then["tags"]
                assert all(f["step"] <= step for f in whole["findings"]["shown"])
                assert {f["severity"] for f in whole["findings"]["shown"]} <= {"finding"}


def _known(cards: list[Card] | set[Card]) -> set[Card]:
    """The unknown card of a transcribed record names no card: nothing to leak or show."""
    return {c for c in cards if c.code != UNKNOWN_CODE}


@pytest.mark.parametrize("source", [IRREGOLARITA, PUNTEGGIO, COPPIE])
def test_nessuna_carta_nascosta_nei_record_importati(imported: Imported, source: str) -> None:
    """test_no_leak.py's first property over the imported records: every step, every seat and
    the public, the page and the JSON."""
    replay = replace(imported.replay(source), match_id=MATCH_ID)
    client = viewer_app(MemoryReplays({MATCH_ID: replay})).test_client()
    for step in range(1, replay.last + 1):
        start = deal_step(replay, step)
        for viewer in views(len(replay.created.players)):
            hidden = _known(hidden_at(replay.line, start, step, viewer))
            shown = _known(visible_at(replay.line, step, viewer))
            for kind, url in urls(step, viewer, (("italian", "french")[step % 2],)):
                response = client.get(url)
                assert response.status_code == 200, url
                check_answer(kind, response.get_data(as_text=True),
                           response.get_json(silent=True), start, hidden, shown, url)


@dataclass(frozen=True)
class _Recorded:
    """What with_hidden_swapped reads of a match: its recorded events."""

    recorded: tuple[tuple[Any, Any], ...]


def test_le_carte_nascoste_non_cambiano_la_risposta(imported: Imported) -> None:
    """test_no_leak.py's second property over the briscola record, whose every card is known:
    rotating the cards hidden from a viewer at a step leaves its answers byte-identical, the
    findings panel with them (the arbiter's JSON changes)."""
    whole = imported.replay(PUNTEGGIO)
    match = _Recorded(tuple(zip(whole.events, whole.moments, strict=True)))
    dealt = [v for v in range(1, whole.last + 1) if deal_step(whole, v) is not None]
    replays = MemoryReplays()
    app = viewer_app(replays)
    client, arbiter = app.test_client(), as_arbiter(app.test_client())
    swaps = 0
    for step in dealt[::5] + versions_of(whole, ScoreClaimed):
        original = _held(match.recorded[:step], "original")
        for viewer in views(2):
            hidden = sorted(_known(hidden_at(original.line, deal_step(original, step), step,
                                             viewer)))
            if len(hidden) < 2:
                continue
            mapping = dict(zip(hidden, hidden[1:] + hidden[:1], strict=True))
            swapped = _held(with_hidden_swapped(match, step, mapping), "swapped")  # type: ignore[arg-type]
            one, other = (_answers(client, arbiter, replays, r, step, viewer)
                          for r in (original, swapped))
            assert one[0] == other[0], f"step {step}, {viewer}"
            assert one[1] != other[1], "the arbiter sees the cards swapped"
            swaps += 1
    assert swaps >= 10


def _held(recorded: Any, name: str) -> Replay:
    return replay_of(MATCH_ID, [(e, at, "") for e, at in recorded],
                     head=f"{name}:{len(recorded)}")


def _answers(client: FlaskClient, arbiter: FlaskClient, replays: MemoryReplays, replay: Replay,
             step: int, viewer: Viewer) -> tuple[list[bytes], Any]:
    replays.held[MATCH_ID] = replay
    found = []
    for _, url in urls(step, viewer):
        response = client.get(url)
        assert response.status_code == 200, url
        found.append(response.get_data())
    data = arbiter.get(f"/api/matches/{MATCH_ID}/steps/{step}?view=arbiter").get_json()
    del data["arbiter"]["head"]
    assert viewer is not ARBITER
    return found, data


def test_le_pagine_valgono_anche_in_italiano(imported: Imported) -> None:
    """The panel and the header are made in Italian too (the default language)."""
    client = imported.app.test_client()
    response = client.get(f"/matches/{imported.ids[PUNTEGGIO]}?view=public")
    assert response.status_code == 200
    text = response.get_data(as_text=True)
    assert 'id="findings"' in text and 'id="record-tags"' in text
    assert "67–53" in panel(html.unescape(text))
