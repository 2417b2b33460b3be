"""`verbale matches` and `--match` by a unique start of the id, on both databases.

The listing is served by the read models (caught up first when the store can be written; read
as they stand, with one line saying how far behind, when it cannot). It prints plain aligned
columns when standard output is not a terminal (as here), with a footer naming the page, or a
JSON object with `--json`. `--match` takes a whole id or a start of at least 4 hex digits that
names one stream; none or several are a usage problem (exit 2). `verify --record` writes each
match's verdict beside the read models, and the listing shows it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
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
HEADER = ["id", "game", "players", "format", "recorded", "state", "result", "MP", "VP",
          "rulings", "irregularities", "verdict"]
RECORD_KEYS = {"id", "prefix", "created", "game", "players", "sides", "format", "flags",
               "provenance",
               "tournament", "state", "ended_how", "ruled", "scores", "unit", "winners", "mp",
               "vp", "mp_per_side", "smazzate", "spareggi", "rulings", "irregularities",
               "verdict", "findings"}
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


def _page(backend: Backend, *args: str) -> dict[str, Any]:
    code, out, err = run("matches", "--json", *args, "--database", backend.url)
    assert code == 0 and err == "", err
    page: dict[str, Any] = json.loads(out)
    assert set(page) == {"page", "pages", "size", "total", "total_exact", "stored", "matches"}
    return page


def _json(backend: Backend, *args: str) -> list[dict[str, Any]]:
    listed: list[dict[str, Any]] = _page(backend, *args)["matches"]
    return listed


def test_matches_prints_one_aligned_line_per_match(recorded: Backend) -> None:
    code, out, err = run("matches", "--database", recorded.url)
    assert code == 0 and err == "", err
    header, *rows, footer = out.splitlines()
    assert header.split() == HEADER
    assert len(rows) == 7 and footer == "page 1 of 1, 7 matches"
    starts = [header.index(title) for title in HEADER[:7]]
    for row in rows:
        assert all(row[start - 2:start] == "  " for start in starts[1:])   # aligned columns
        assert re.fullmatch(r"[0-9a-f]{8}", row[:8]) and row[8] == " "
        assert row.split()[-3:] == ["0", "0", "-"]   # rulings, irregularities, not verified
    assert sum(" briscola " in row for row in rows) == 1
    assert all(" simulated " in row and " ended: " in row for row in rows)
    assert any(", won by " in row for row in rows)
    assert any("ended: timeout" in row for row in rows)
    assert any("ended: abandon" in row for row in rows)


def test_matches_json_numbers_as_numbers_and_the_filters(recorded: Backend) -> None:
    every = _json(recorded)
    assert len(every) == 7
    for match in every:
        assert set(match) == RECORD_KEYS
        assert isinstance(match["smazzate"], int) and match["smazzate"] >= 0
        assert all(isinstance(n, int) for n in match["scores"])
        assert isinstance(match["rulings"], int) and isinstance(match["irregularities"], int)
        assert isinstance(match["mp"], int) and match["verdict"] is None
        assert UUID(match["id"]).hex.startswith(match["prefix"].replace("-", ""))
        assert match["state"] == "ended" and match["provenance"] == "simulated"
        assert set(match["winners"]) <= set(match["players"])
        assert set(match["flags"]) <= {"ko", "cappotto_ends", "vinco_subito", "target_strict",
                                       "vinco_subito_ends_smazzata_only", "smazzate_pari", "vp",
                                       "cappotto_waits_end"}
    (briscola,) = _json(recorded, "--game", "briscola")
    assert briscola["format"] == "3smazzate"
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


def test_pages_and_the_filters_of_the_read_models(recorded: Backend) -> None:
    every = _json(recorded)
    pages = [_page(recorded, "--page-size", "3", "--page", str(n)) for n in (1, 2, 3)]
    assert [(p["page"], p["pages"], p["total"], p["stored"]) for p in pages] == [
        (n, 3, 7, 7) for n in (1, 2, 3)]
    assert [m for p in pages for m in p["matches"]] == every
    code, out, err = run("matches", "--page-size", "3", "--page", "2", "--database",
                         recorded.url)
    assert code == 0 and out.splitlines()[-1] == "page 2 of 3, 7 matches"
    code, out, err = run("matches", "--page", "4", "--page-size", "3", "--database",
                         recorded.url)
    assert code == 0 and out == "page 4 is past the last (3)\n"
    code, out, err = run("matches", "--game", "cirulla", "--database", recorded.url)
    assert out.splitlines()[-1] == "page 1 of 1, 6 matches (7 stored)"
    placed = [m for m in every if m["tournament"] is not None]
    assert _json(recorded, "--round", "1") == [m for m in placed
                                               if m["tournament"]["round"] == 1]
    assert _json(recorded, "--round", "1", "--table", "2") == [
        m for m in placed if (m["tournament"]["round"], m["tournament"]["table"]) == (1, 2)]
    for how in ("timeout", "abandon", "target"):
        assert _json(recorded, "--how", how) == [m for m in every if m["ended_how"] == how]
    assert _json(recorded, "--how", "ruling") == [m for m in every if m["ruled"]]
    day = every[0]["created"][:10]
    assert _json(recorded, "--since", day, "--until", day) == [
        m for m in every if m["created"].startswith(day)]
    assert _json(recorded, "--until", "2000-01-01") == []
    assert _json(recorded, "--no-findings") == every   # no ruling, irregularity or verdict
    assert _json(recorded, "--findings") == []
    code, out, err = run("matches", "--since", "2026-02-30", "--database", recorded.url)
    assert code == 2 and "--since" in err and "YYYY-MM-DD" in err


def test_verify_record_writes_the_verdicts_the_listing_shows(recorded: Backend) -> None:
    code, out, err = run("verify", "--database", recorded.url)
    assert code == 0 and "recorded" not in out
    assert {m["verdict"] for m in _json(recorded)} == {None}   # verify alone writes nothing
    code, out, err = run("verify", "--record", "--database", recorded.url)
    assert code == 0 and out.splitlines()[-1] == "7 verdicts recorded in the read models"
    every = _json(recorded)
    assert {m["verdict"] for m in every} == {"ok"} and {m["findings"] for m in every} == {0}
    code, out, err = run("matches", "--database", recorded.url)
    assert all(row.endswith("  ok") for row in out.splitlines()[1:-1])
    code, out, err = run("verify", "--record", "--match", every[0]["prefix"], "--database",
                         recorded.url)
    assert code == 0 and err == "" and "1 verdict recorded in the read models" in out


@contextmanager
def _read_only(backend: Backend, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The store made unwritable: a PostgreSQL session read-only; a SQLite file by its mode,
    or, for root (whom modes do not stop), by the immutable attribute (chattr +i)."""
    if backend.path is None:
        monkeypatch.setenv("PGOPTIONS", "-c default_transaction_read_only=on")
        yield
        monkeypatch.delenv("PGOPTIONS")
        return
    backend.path.chmod(0o444)
    immutable = os.geteuid() == 0
    if immutable:
        subprocess.run(["chattr", "+i", str(backend.path)], check=True)
    try:
        yield
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(backend.path)], check=True)
        backend.path.chmod(0o644)


def test_a_store_that_cannot_be_written_is_read_as_it_stands(
        backend: Backend, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = run("simulate", "briscola", "--seed", SEED, "--players", "2", "--store",
                         "--database", backend.url)
    assert code == 0, out + err
    (match,) = _json(backend)
    store = MatchStore(url=backend.url)
    try:   # one event the read models have not seen
        store.create_tournament("dopo", "briscola", datetime(2026, 11, 24, tzinfo=UTC),
                                RecordedBy("simulator", "tests"))
    finally:
        store.close()
    before = backend.path.read_bytes() if backend.path is not None else b""
    with _read_only(backend, monkeypatch):
        for args in (["matches"], ["scores", "--match", match["prefix"]],
                     ["player", match["players"][0]]):
            code, out, err = run(*args, "--database", backend.url)
            assert code == 0 and match["prefix"] in out, (args, out, err)
            assert len(err.splitlines()) == 1 and err.startswith(
                "the read models are 1 event behind the store, which cannot be written now ("), err
            assert err.rstrip().endswith("'verbale project' catches them up")
        code, out, err = run("verify", "--record", "--database", backend.url)
        if backend.path is not None:   # a PostgreSQL session's option is the store's own
            assert code == 1 and "the verdicts could not be recorded" in err
    if backend.path is not None:
        assert backend.path.read_bytes() == before
    code, out, err = run("matches", "--database", backend.url)
    assert code == 0 and err == ""   # writable again: caught up, silently
