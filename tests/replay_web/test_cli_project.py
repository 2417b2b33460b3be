"""`verbale project` and `verbale rebuild`, and the read models kept up to date by the commands
that write (`simulate ... --store`), on both databases."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from projections.read_models import project as project_module
from projections.read_models.project import position
from projections.read_models.schema import ensure_schema
from tests.projections.conftest import Backend
from tests.projections.read_models.rows import opened, table_rows
from tests.verbale_cli import run


def _json(output: str) -> dict[str, Any]:
    return dict(json.loads(output.strip().splitlines()[-1]))


def test_simulate_matches_leaves_every_match_in_the_tables(backend: Backend) -> None:
    code, matches = run("simulate", "matches", "--count", "5", "--store", "--database",
                        backend.url)
    assert code == 0, matches
    code, seeded = run("simulate", "cirulla", "--players", "2", "--format", "21pt", "--store",
                       "--database", backend.url)
    assert code == 0, seeded
    recorded = set(re.findall(r"[0-9a-f]{8}-[0-9a-f-]{27}", matches + seeded))
    with opened(backend.url) as (store, engine):
        with engine.connect() as conn:
            streams = set(conn.execute(text("SELECT stream FROM rm_partite")).scalars())
        assert len(recorded) == 6 and streams == recorded
        assert position(engine, store.name) == store.recorder.max_notification_id()


def test_project_folds_what_was_recorded_since_and_rebuild_gives_the_same_rows(
        backend: Backend, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(project_module, "catch_up", _failing)
    code, output = run("simulate", "matches", "--count", "3", "--store", "--database",
                       backend.url)
    monkeypatch.undo()
    assert code == 1
    lines = output.strip().splitlines()
    assert "read models" in lines[-1] and "verbale project" in lines[-1]
    assert len(lines) == 4   # the three matches were recorded and said, then the one line
    with opened(backend.url) as (store, engine):
        last = store.recorder.max_notification_id()
        ensure_schema(engine)   # (the failed catch-up made none)
        assert last is not None and position(engine, store.name) is None
    code, output = run("project", "--json", "--batch", "50", "--database", backend.url)
    assert code == 0, output
    assert (_json(output)["folded"], _json(output)["position"]) == (last, last)
    with opened(backend.url) as (_store, engine):
        kept = table_rows(engine)
    assert len(kept["rm_partite"]) == 3
    code, output = run("project", "--database", backend.url)
    assert code == 0 and "0 events folded" in output and f"notification {last}" in output
    code, output = run("rebuild", "--json", "--database", backend.url)
    assert code == 0, output
    assert _json(output)["folded"] == last and _json(output)["event"] == "rebuilt"
    with opened(backend.url) as (_store, engine):
        assert table_rows(engine) == kept


def _failing(*_args: object, **_kwargs: object) -> int:
    raise OSError(28, "No space left on device")


def test_a_store_that_is_not_there_is_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.db"
    for command in ("project", "rebuild"):
        code, output = run(command, "--database", f"sqlite:///{missing}")
        assert code == 1
        assert len(output.strip().splitlines()) == 1 and str(missing) in output
    assert not missing.exists()


def test_rebuild_says_how_fast(backend: Backend) -> None:
    assert run("simulate", "matches", "--count", "2", "--store", "--database",
               backend.url)[0] == 0
    code, output = run("rebuild", "--database", backend.url)
    assert code == 0
    assert "events folded in" in output and "events/s" in output
