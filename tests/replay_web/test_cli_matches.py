"""`verbale matches` and `--match` by a unique start of the id, on both databases.

The listing prints plain aligned columns when standard output is not a terminal (as here), a
JSON array with `--json`; it never writes to the store. `--match` takes a whole id or a start of
at least 4 hex digits that names one stream; none or several are a usage problem (exit 2).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from click.testing import CliRunner

from domain.record.envelope import RecordedBy
from projections.store.app import MatchStore
from replay_web.cli import UsageProblem, _register, cli
from replay_web.match_ids import resolve_match
from tests.projections.conftest import Backend, make_backend

SEED = "5eed0000000000000000000000000001"
HEADER = ["id", "game", "players", "format", "recorded", "state", "result", "rulings",
          "irregularities"]
TWINS = [UUID("abcd0000-0000-4000-8000-000000000001"),
         UUID("abcd0000-0000-4000-8000-000000000002")]


def run(*args: str) -> tuple[int, str, str]:
    _register()
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(params=["sqlite", "postgres"])
def recorded(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    """Six demo Cirulla matches in the demo tournament, one Briscola match, and two
    tournaments whose ids share their first 31 hex digits."""
    for backend in make_backend(request.param, tmp_path):
        for args in (["simulate", "matches", "--count", "6"],
                     ["simulate", "briscola", "--seed", SEED, "--players", "4"]):
            code, out, err = run(*args, "--store", "--database", backend.url)
            assert code == 0, out + err
        store = MatchStore(url=backend.url)
        try:
            for stream in TWINS:
                store.create_tournament("gemelli", "cirulla",
                                        datetime(2026, 11, 23, tzinfo=UTC),
                                        RecordedBy("simulator", "tests"), stream)
        finally:
            store.close()
        yield backend


def _json(backend: Backend, *args: str) -> list[dict[str, Any]]:
    code, out, err = run("matches", "--json", *args, "--database", backend.url)
    assert code == 0 and err == "", err
    listed: list[dict[str, Any]] = json.loads(out)
    return listed


def test_matches_prints_one_aligned_line_per_match(recorded: Backend) -> None:
    code, out, err = run("matches", "--database", recorded.url)
    assert code == 0 and err == "", err
    header, *rows = out.splitlines()
    assert header.split() == HEADER
    assert len(rows) == 7
    starts = [header.index(title) for title in HEADER[:7]]
    for row in rows:
        assert all(row[start - 2:start] == "  " for start in starts[1:])   # aligned columns
        assert re.fullmatch(r"[0-9a-f]{8}", row[:8]) and row[8] == " "
        assert row.split()[-2:] == ["0", "0"]   # rulings, irregularities
    assert sum(" briscola " in row for row in rows) == 1
    assert all(" simulated " in row and " ended: " in row for row in rows)
    assert any(", won by " in row for row in rows)
    assert any("ended: timeout" in row for row in rows)
    assert any("ended: abandon" in row for row in rows)


def test_matches_json_numbers_as_numbers_and_the_filters(recorded: Backend) -> None:
    every = _json(recorded)
    assert len(every) == 7
    first = every[0]
    assert set(first) == {"id", "prefix", "created", "game", "players", "format", "provenance",
                          "tournament", "events", "state", "ended_how", "scores", "unit",
                          "winners", "rulings", "irregularities"}
    for match in every:
        assert isinstance(match["events"], int) and match["events"] > 1
        assert all(isinstance(n, int) for n in match["scores"])
        assert isinstance(match["rulings"], int) and isinstance(match["irregularities"], int)
        assert isinstance(match["format"]["length"], int)
        assert UUID(match["id"]).hex.startswith(match["prefix"].replace("-", ""))
        assert match["state"] == "ended" and match["provenance"] == "simulated"
        assert set(match["winners"]) <= set(match["players"])
    (briscola,) = _json(recorded, "--game", "briscola")
    assert briscola["format"] == {"text": "3smazzate", "kind": "smazzate", "length": 3,
                                  "flags": []}
    assert briscola["tournament"] is None and len(briscola["players"]) == 4
    assert briscola["unit"] == "smazzate"
    in_tournament = _json(recorded, "--tournament", "dimostrativo")
    assert len(in_tournament) == 6
    assert {m["tournament"]["name"] for m in in_tournament} == {"Torneo dimostrativo di cirulla"}
    assert {(m["tournament"]["round"], m["tournament"]["table"]) for m in in_tournament} == {
        (1, 1), (1, 2), (1, 3), (1, 4), (2, 1), (2, 2)}
    assert _json(recorded, "--limit", "2") == every[:2]
    assert _json(recorded, "--state", "in-progress") == []
    assert _json(recorded, "--provenance", "transcribed") == []
    assert [m["id"] for m in _json(recorded, "--player", "elena")] == [
        m["id"] for m in every if "Elena" in m["players"]]
    code, out, _ = run("matches", "--provenance", "transcribed", "--database", recorded.url)
    assert code == 0 and out == "no match passes the filters (7 stored)\n"


def test_match_takes_the_listed_prefix_and_refuses_none_or_several(recorded: Backend) -> None:
    every = _json(recorded)
    match = every[0]
    for given in (match["prefix"], match["id"][:4], match["id"].upper(), match["id"][:13]):
        if sum(m["id"].startswith(given.lower()) for m in every) > 1:
            continue
        code, out, err = run("verify", "--match", given, "--database", recorded.url)
        assert code == 0, out + err
        assert out.startswith(match["id"])
    code, out, err = run("export", "--match", match["prefix"], "--database", recorded.url)
    assert code == 0 and json.loads(out.splitlines()[0])["stream"] == match["id"]

    code, out, err = run("verify", "--match", "abcd0000", "--database", recorded.url)
    assert code == 2 and out == ""
    assert "several matches start with abcd0000: " in err
    assert f"{TWINS[0]}, {TWINS[1]}" in err and len(err.splitlines()) == 1
    code, out, err = run("export", "--match", "abcd-0000-0000-4000-8000-00000000000",
                         "--database", recorded.url)
    assert code == 2 and "several matches start with" in err
    code, out, err = run("export", "--match", "abcd00000000400080000000000000002",
                         "--database", recorded.url)
    assert code == 2 and "is not a match id nor the start of one" in err
    free = next(f"{n:04x}" for n in range(1 << 16)
                if not any(m["id"].startswith(f"{n:04x}") for m in every)
                and f"{n:04x}" != "abcd")
    code, out, err = run("verify", "--match", free, "--database", recorded.url)
    assert code == 2 and err.strip().endswith(f"no match starts with {free}")
    for bad in ("abc", "xyz12345", "12-3"):
        code, out, err = run("export", "--match", bad, "--database", recorded.url)
        assert code == 2 and "at least 4 hex digits" in err, err


def test_resolve_match(recorded: Backend) -> None:
    store = MatchStore(url=recorded.url)
    try:
        assert resolve_match(store, str(TWINS[1])) == TWINS[1]
        assert resolve_match(store, TWINS[1].hex[:32]) == TWINS[1]
        assert resolve_match(store, "ABCD00000000400080000000000000 02".replace(" ", "")) \
            == TWINS[1]
        with pytest.raises(UsageProblem, match="no such match"):
            resolve_match(store, "abcd0000-0000-4000-8000-000000000003")
        many = [UUID(int=(0x1234 << 112) + n) for n in range(7)]
        for stream in many:
            store.create_tournament("t", "cirulla", datetime(2026, 11, 23, tzinfo=UTC),
                                    RecordedBy("simulator", "tests"), stream)
        with pytest.raises(UsageProblem) as refused:
            resolve_match(store, "1234")
        message = refused.value.format_message()
        assert ", ".join(map(str, many[:5])) + ", ..." in message
        assert str(many[5]) not in message
    finally:
        store.close()


@pytest.fixture(params=["sqlite", "postgres"])
def empty(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    for backend in make_backend(request.param, tmp_path):
        MatchStore(url=backend.url).close()
        yield backend


def test_an_empty_store_lists_nothing(empty: Backend) -> None:
    code, out, err = run("matches", "--database", empty.url)
    assert (code, out, err) == (0, "no match in the store\n", "")
    assert _json(empty) == []


def test_matches_never_writes_and_refuses_a_missing_store(tmp_path: Path) -> None:
    database = tmp_path / "v.db"
    code, out, err = run("simulate", "matches", "--count", "2", "--store", "--database",
                         f"sqlite:///{database}")
    assert code == 0, err
    before = hashlib.sha256(database.read_bytes()).hexdigest()
    files = sorted(p.name for p in tmp_path.iterdir())
    assert run("matches", "--database", f"sqlite:///{database}")[0] == 0
    assert run("matches", "--json", "--database", f"sqlite:///{database}")[0] == 0
    assert hashlib.sha256(database.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == files
    missing = tmp_path / "nothing" / "here.db"
    code, out, err = run("matches", "--database", f"sqlite:///{missing}")
    assert code == 1 and out == "" and len(err.splitlines()) == 1
    assert not missing.parent.exists()
    code, out, err = run("matches", "--limit", "0", "--database", f"sqlite:///{database}")
    assert code == 2 and "--limit" in err
