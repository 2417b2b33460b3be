"""Issue 23, point 12: the viewer says when the read models lag or disagree with the record, on
SQLite and PostgreSQL (replay_web/web/read_state.py): nothing on a clean store; after a winner
changed with SQL and `verify --read-models`, a warning on every page and, on that match's page,
the difference itself; events recorded with no catch-up, a neutral line with how many. In
Italian and English."""

from __future__ import annotations

from collections.abc import Iterator
from uuid import UUID

import pytest
from flask import Flask

from replay_web.web import read_state
from replay_web.web.app import create_app
from tests.projections.conftest import Backend
from tests.projections.read_models.match_plans import record_unprojected
from tests.projections.read_models.tampering import flip_winner
from tests.replay_web.test_cli_auditlog import run, simulate
from tests.replay_web.web.conftest import close_app


@pytest.fixture
def stored(backend: Backend, monkeypatch: pytest.MonkeyPatch) -> list[UUID]:
    monkeypatch.setattr(read_state, "NOTICE_SECONDS", 0.0)   # each request looks again
    return simulate(backend, 2)


@pytest.fixture
def app(backend: Backend, stored: list[UUID]) -> Iterator[Flask]:
    made = create_app(backend.url, config={"TESTING": True})
    yield made
    close_app(made)


def page(app: Flask, path: str, lang: str = "en") -> str:
    answer = app.test_client().get(f"{path}?lang={lang}")
    assert answer.status_code == 200
    return answer.get_data(as_text=True)


def test_a_clean_store_says_nothing(app: Flask, stored: list[UUID]) -> None:
    for path in ("/", f"/matches/{stored[0]}"):
        text = page(app, path)
        assert 'id="read-models-disagree"' not in text and 'id="read-models-behind"' not in text


def test_read_model_tamper_shown_on_every_page_and_on_its_match(
        app: Flask, backend: Backend, stored: list[UUID]) -> None:
    match, other = stored
    was, now = flip_winner(backend, str(match))
    assert 'id="read-models-disagree"' not in page(app, "/")   # not checked yet: not known
    code, out, _ = run("verify", "--read-models", "--database", backend.url)
    assert code == 1, out
    listed = page(app, "/")
    assert 'id="read-models-disagree"' in listed
    assert "found 1 difference: the lists, scores and standings may not say" in listed
    assert "read-models-differences" not in listed
    mine = page(app, f"/matches/{match}")
    assert (f"<code>rm_partite</code> stream={match}: winner is {now}, the record gives {was}"
            in mine)
    theirs = page(app, f"/matches/{other}")
    assert 'id="read-models-disagree"' in theirs and "read-models-differences" not in theirs
    italiano = page(app, f"/matches/{match}", "it")
    assert "ha trovato 1 differenza" in italiano
    assert f"winner è {now}, la registrazione dà {was}" in italiano


def test_read_model_lag_shown_as_a_neutral_line(app: Flask, backend: Backend) -> None:
    behind = record_unprojected(backend.url)
    text = page(app, "/")
    assert (f"The lists are {behind} events behind the record: 'verbale project' catches "
            f"them up.") in text.replace("&#39;", "'")
    assert 'id="read-models-disagree"' not in text
    assert f"sono indietro di {behind} eventi" in page(app, "/", "it")
