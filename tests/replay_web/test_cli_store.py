"""`verbale simulate matches --store`, `verbale verify` and `verbale export` end to end."""

from __future__ import annotations

import json

from tests.projections.conftest import Backend
from tests.projections.store.tampering import Tamperer
from tests.verbale_cli import run


def test_record_verify_export_and_a_tampering_found_by_the_command(backend: Backend) -> None:
    code, out = run("simulate", "matches", "--count", "5", "--store", "--database", backend.url)
    assert code == 0, out
    ids = [line.split()[0] for line in out.splitlines()]
    assert len(ids) == 5
    code, out = run("verify", "--database", backend.url)
    assert code == 0, out
    assert "0 failed" in out.splitlines()[-1]
    code, out = run("export", "--match", ids[2], "--format", "jsonl", "--database", backend.url)
    *lines, said = out.splitlines()   # the last line (stderr): the count and the head hash
    assert said.startswith(f"{len(lines)} events of match {ids[2]} written to standard output")
    assert code == 0 and json.loads(lines[0])["type"] == "MatchCreated"
    assert all(json.loads(line)["stream"] == ids[2] for line in lines)
    tamperer = Tamperer.open(backend)
    try:
        row = next(r for r in tamperer.rows() if str(r[1]) == ids[2] and r[2] == 5)
        tamperer.set_state(row[0], row[3], row[4].replace(b'"version":5', b'"version":6'))
    finally:
        tamperer.conn.close()
    code, out = run("verify", "--database", backend.url)
    assert code == 1
    assert f"match {ids[2]} event 5 [" in out and "1 failed" in out
    code, out = run("verify", "--match", ids[0], "--database", backend.url)
    assert code == 0 and "1 stream (" in out


def test_bad_arguments_are_named() -> None:
    code, out = run("verify", "--match", "not-a-uuid", "--database", "sqlite:///unused.db")
    assert code == 2 and "--match" in out
    code, out = run("verify", "--database", "mysql://nowhere")
    assert code == 2 and "--database" in out
