"""`verbale import` into a store, on SQLite and PostgreSQL: every example stored once, a second
import (even of the same record laid out otherwise) adds nothing, a refused file stores
nothing while the good files beside it are stored, a store failing mid-import keeps nothing of
the failing file, and what is stored says where it came from (the importer envelope, the
provenance, the header tags and content hash) and passes `verbale verify`."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from importers.notation.reader import read_bytes
from importers.notation.replay import content_hash
from projections.store.app import MatchStore
from projections.store.facts import StoredFact
from replay_web.importing import match_id
from tests.projections.conftest import Backend
from tests.replay_web.test_cli_import import (
    ACCEPTED,
    REFUSED,
    SHEET,
    TORNEO,
    position,
    relaid,
    run,
    write,
)

STORED = re.compile(r"1 match stored: ([0-9a-f-]{36})")
COPPIE = TORNEO.parent / "cirulla-4p-coppie.txt"
SHEET_HEADER = ("match,smazzata,side,scope,settebello,primiera,denari,carte,grande,piccola,"
                "accusi,claimed_by\n")


def snapshot(backend: Backend) -> tuple[int, list[tuple[Any, ...]]]:
    """The store's event count and its heads (stream, version, head hash), behind its back."""
    conn = backend.connect()
    try:
        count = conn.execute(f"SELECT count(*) FROM {backend.events_table}").fetchone()[0]
        heads = conn.execute(f"SELECT stream_id, version, head_hash FROM "
                             f"{backend.heads_table}").fetchall()
        return int(count), sorted(tuple(str(c) for c in h) for h in heads)
    finally:
        conn.close()


def facts(backend: Backend, stream: UUID) -> list[StoredFact]:
    store = MatchStore(url=backend.url, read_only=True)
    try:
        return store.facts(stream)
    finally:
        store.close()


def where(fact: StoredFact) -> str:
    """The envelope's `where` (FILE:LINE for an importer)."""
    return str((fact.recorded_by or {}).get("where"))


def imported(backend: Backend, *files: Path) -> str:
    result = run("import", *files, "--database", backend.url)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    return result.stdout


def ids_of(stdout: str) -> list[UUID]:
    return [UUID(found) for found in STORED.findall(stdout)]


def test_every_example_is_stored_once_with_the_sheets_claims(backend: Backend) -> None:
    out = imported(backend, *ACCEPTED, SHEET)
    ids = ids_of(out)
    assert len(ids) == len(set(ids)) == len(ACCEPTED)
    assert "3 claims recorded, in d8057a6b-9ab0-56cc-8814-10df48aa68cf, " \
           "beb7e392-4b2a-56f4-841b-f590602799ba" in out
    listed = run("matches", "--provenance", "transcribed", "--database", backend.url)
    assert listed.exit_code == 0, listed.output
    assert f"page 1 of 1, {len(ACCEPTED)} matches" in listed.stdout
    assert sorted(UUID(h[0]) for h in snapshot(backend)[1]) == sorted(ids)
    claims = {UUID(s): [(f.data["smazzata"], where(f)) for f in facts(backend, UUID(s))
                        if f.type == "ScoreClaimed"
                        and f.data["claimed_by"] == "Marisa (segnapunti)"]
              for s in ("d8057a6b-9ab0-56cc-8814-10df48aa68cf",
                        "beb7e392-4b2a-56f4-841b-f590602799ba")}
    assert list(claims.values()) == [[(0, "punteggi-circolo.csv:2"),
                                      (1, "punteggi-circolo.csv:4")],
                                     [(0, "punteggi-circolo.csv:6")]]


def test_a_second_import_of_the_same_files_adds_nothing(backend: Backend) -> None:
    imported(backend, *ACCEPTED, SHEET)
    before = snapshot(backend)
    again = imported(backend, *ACCEPTED, SHEET)
    assert snapshot(backend) == before
    assert again.count("1 match already imported: ") == len(ACCEPTED)
    assert "3 claims already recorded: " in again
    assert "stored" not in again.replace("nothing of this file was stored", "")


def test_the_same_record_laid_out_otherwise_is_the_same_match(backend: Backend,
                                                              tmp_path: Path) -> None:
    [original] = ids_of(imported(backend, TORNEO))
    before = snapshot(backend)
    copy = write(tmp_path / "ricopiato.txt", relaid(TORNEO.read_text(encoding="utf-8")))
    again = imported(backend, copy)
    assert f"1 match already imported: {original}" in again
    assert snapshot(backend) == before


def test_the_refused_example_stores_nothing_and_the_good_file_beside_it_is_stored(
        backend: Backend) -> None:
    good = ACCEPTED[0]
    result = run("import", REFUSED, good, "--database", backend.url)
    assert result.exit_code == 1
    assert result.stderr == "verbale: 1 file refused: nothing of it was stored\n"
    refused_part, good_part = result.stdout.split(str(good))
    assert "rejected" in refused_part and "refused: nothing of this file was stored" in \
        refused_part
    assert len(ids_of(good_part)) == 1
    assert [UUID(h[0]) for h in snapshot(backend)[1]] == ids_of(good_part)


def test_a_file_whose_second_match_is_refused_stores_neither_match(backend: Backend,
                                                                  tmp_path: Path) -> None:
    """All or nothing per file: the good first match of a file is not stored when the second
    is refused, while another good file of the same command is stored."""
    both = write(tmp_path / "due-partite.txt", TORNEO.read_text(encoding="utf-8") + "\n"
                 + REFUSED.read_text(encoding="utf-8"))
    other = ACCEPTED[0]
    result = run("import", both, other, "--database", backend.url)
    assert result.exit_code == 1
    assert "due-partite.txt, match 1: Giulia, Luca" in result.stdout
    assert "due-partite.txt, match 2: Anna, Bruno (Amichevole): rejected" in result.stdout
    heads = [UUID(h[0]) for h in snapshot(backend)[1]]
    assert heads == ids_of(result.stdout) and len(heads) == 1
    assert match_id_of(TORNEO) not in heads


def match_id_of(record: Path) -> UUID:
    """The id the first match of `record` is stored under: from its content hash."""
    return match_id(content_hash(read_bytes(record.read_bytes(), record.name).matches[0]))


def test_a_syntax_error_is_refused_and_stores_nothing(backend: Backend, tmp_path: Path) -> None:
    text = TORNEO.read_text(encoding="utf-8").replace("9. Fd 2s", "9. Fd 2z")
    bad = write(tmp_path / "sbagliato.txt", text)
    line, column = position(text, "2z")
    result = run("import", bad, "--database", backend.url)
    assert result.exit_code == 1
    assert f"sbagliato.txt:{line}:{column}: found '2z'" in result.stdout
    assert snapshot(backend) == (0, [])


def test_a_store_failing_mid_import_keeps_nothing_of_the_failing_file(
        backend: Backend, monkeypatch: pytest.MonkeyPatch) -> None:
    """The second file's insert fails inside its transaction (a row the database refuses goes
    with it): its events are rolled back, the first file stays, one line on stderr, exit 1."""
    real = MatchStore._insert
    calls: list[int] = []

    def failing(self: MatchStore, rows: Sequence[Any]) -> None:
        calls.append(len(rows))
        if len(calls) == 2:
            rows = [*rows, self.stored(self.streams()[0])[0]]   # already stored: refused
        real(self, rows)

    monkeypatch.setattr(MatchStore, "_insert", failing)
    first, second, third = ACCEPTED[:3]
    result = run("import", first, second, third, "--database", backend.url)
    assert result.exit_code == 1
    assert len(result.stderr.splitlines()) == 1 and "nothing was recorded" in result.stderr
    assert "Traceback" not in result.output
    heads = [UUID(h[0]) for h in snapshot(backend)[1]]
    assert len(heads) == 1 and len(calls) == 2
    assert ids_of(result.stdout) == heads   # the file stored before the failure is said


def test_a_full_disk_mid_import_keeps_nothing_of_the_failing_file(
        tmp_path: Path, tiny_disk: list[int]) -> None:
    path = tmp_path / "verbale.db"
    url = f"sqlite:///{path}"
    imported(Backend("sqlite", url, path=path), ACCEPTED[0])
    size = path.stat().st_size
    tiny_disk[0] = size // 4096 + 1
    result = run("import", TORNEO, "--database", url)
    assert result.exit_code == 1
    assert result.stderr == (f"verbale: store {url}: the disk is full (database or disk is "
                             "full); nothing of the action was recorded\n")
    tiny_disk[0] = 0
    assert len(snapshot(Backend("sqlite", url, path=path))[1]) == 1


def test_the_stored_events_say_where_they_came_from(backend: Backend) -> None:
    [stream] = ids_of(imported(backend, TORNEO))
    stored = facts(backend, stream)
    lines = TORNEO.read_text(encoding="utf-8").splitlines()
    for fact in stored:
        by = fact.recorded_by or {}
        assert by["kind"] == "importer" and str(by["name"]).startswith("verbale-import")
        file, _, line = str(by["where"]).rpartition(":")
        assert file == TORNEO.name and 1 <= int(line) <= len(lines)
    created, tags = stored[0].to_domain(), stored[1].to_domain()
    assert where(stored[0]) == f"{TORNEO.name}:3"    # [Game "cirulla"]
    assert created.provenance.kind == "transcribed"
    assert created.provenance.source == TORNEO.name
    assert dict(tags.tags)["Result"] == "12-14" and ("Round", "2") in tags.tags
    assert match_id(tags.content_hash) == stream
    plays = [f for f in stored if f.type == "CardPlayed"]
    first_play = lines.index("1. 7d x Fs Ad x Cd+Cc+3s#") + 1
    assert [where(p) for p in plays[:2]] == [f"{TORNEO.name}:{first_play}"] * 2
    assert where(plays[2]) == f"{TORNEO.name}:{first_play + 1}"
    second = lines.index("1. 3b x 2d+7d+3c Ad x Ab#") + 1
    assert plays[36].data["card"] == "3b"
    assert where(plays[36]) == f"{TORNEO.name}:{second}"


def test_verify_passes_on_the_imported_store_and_lists_the_findings(backend: Backend) -> None:
    imported(backend, *ACCEPTED, SHEET)
    result = run("verify", "--database", backend.url)
    assert result.exit_code == 0, result.output
    assert "[irregularity: turn order] for the arbiter: seat 1 played out of turn" in \
        result.stdout
    assert "[claimed score] for the arbiter: smazzata 2: claimed primiera 1–0, computed " \
           "0–1 (claimed by Marisa (segnapunti))" in result.stdout
    assert "[claimed score] for the arbiter: smazzata 1: claimed punti 67–53" in result.stdout
    assert f"{len(ACCEPTED)} matches" in result.stdout and "0 failed" in result.stdout


def test_a_dry_run_stores_nothing_and_knows_what_is_already_imported(backend: Backend) -> None:
    imported(backend, TORNEO, COPPIE)
    before = snapshot(backend)
    result = run("import", "--dry-run", TORNEO, ACCEPTED[0], SHEET, "--database", backend.url)
    assert result.exit_code == 0, result.output
    assert snapshot(backend) == before
    assert "1 match already imported: d8057a6b" in result.stdout
    assert result.stdout.count("dry run: nothing stored") == 3
    assert "match stored" not in result.stdout and "claims recorded" not in result.stdout
    assert "primiera: claimed 1-0, computed 0-1" in result.stdout


# ---- score sheets ----------------------------------------------------------------------------

def sheet(tmp_path: Path, *rows: str) -> Path:
    return write(tmp_path / "foglio.csv", SHEET_HEADER + "".join(r + "\n" for r in rows))


def refused_sheet(backend: Backend, path: Path) -> str:
    """The sheet is refused (exit 1) and the store is as it was; its report."""
    before = snapshot(backend)
    result = run("import", path, "--database", backend.url)
    assert result.exit_code == 1, result.output
    assert result.stderr == "verbale: 1 file refused: nothing of it was stored\n"
    assert "refused: nothing of this file was stored" in result.stdout
    assert snapshot(backend) == before
    return result.stdout


@pytest.fixture
def torneo(backend: Backend) -> Backend:
    imported(backend, TORNEO)
    return backend


def test_a_sheet_naming_an_unknown_match_is_refused_at_its_line(torneo: Backend,
                                                                tmp_path: Path) -> None:
    """Not a usage problem that stops the command: the sheet is a file with an error, and
    the other files of the command are still imported."""
    path = sheet(tmp_path, "d8057a6b,1,1,1,1,0,0,0,0,0,0,X", "d8057a6b,1,2,5,0,1,0,1,0,0,3,X",
                 "ffffffff,1,1,1,1,0,0,0,0,0,0,X", "ffffffff,1,2,1,1,0,0,0,0,0,0,X")
    out = refused_sheet(torneo, path)
    assert ("foglio.csv:4:1: found 'ffffffff', expected the id of a stored match, or a start "
            "of it that names one match only") in out
    result = run("import", path, ACCEPTED[0], "--database", torneo.url)
    assert result.exit_code == 1
    assert len(ids_of(result.stdout)) == 1


def test_a_sheet_claiming_a_smazzata_not_played_is_refused(torneo: Backend,
                                                           tmp_path: Path) -> None:
    out = refused_sheet(torneo, sheet(tmp_path, "d8057a6b,5,1,1,1,0,0,0,0,0,0,X",
                                      "d8057a6b,5,2,1,1,0,0,0,0,0,0,X"))
    assert "2:1 (smazzata 5) error [smazzata]: smazzata 5 has not ended in the stored match" \
        in out


def test_a_sheet_with_a_malformed_number_is_refused_at_its_column(torneo: Backend,
                                                                  tmp_path: Path) -> None:
    out = refused_sheet(torneo, sheet(tmp_path, "d8057a6b,1,1,1,uno,0,0,0,0,0,0,X",
                                      "d8057a6b,1,2,5,0,1,0,1,0,0,3,X"))
    assert "foglio.csv:2:16: found 'uno', expected a whole number of points, 0 or more" in out


def test_a_sheet_writing_a_side_twice_is_refused(torneo: Backend, tmp_path: Path) -> None:
    out = refused_sheet(torneo, sheet(tmp_path, "d8057a6b,1,1,1,1,0,0,0,0,0,0,X",
                                      "d8057a6b,1,1,1,1,0,0,0,0,0,0,X"))
    assert "foglio.csv:3:1: match d8057a6b smazzata 1 side 1 is written twice (line 2 too)" \
        in out


def test_the_same_match_twice_in_one_file_is_stored_once(backend: Backend,
                                                         tmp_path: Path) -> None:
    once = ACCEPTED[0].read_text(encoding="utf-8")
    twice = write(tmp_path / "doppio.txt", once + "\n" + relaid(once))
    out = imported(backend, twice)
    [stream] = ids_of(out)
    assert f"1 match stored: {stream}; 1 match already imported: {stream}" in out
    assert [UUID(h[0]) for h in snapshot(backend)[1]] == [stream]


def test_a_sheet_naming_a_tournament_is_refused_at_its_line(backend: Backend,
                                                            tmp_path: Path) -> None:
    """A tournament's id resolves like a match's: the sheet is refused, not a crash."""
    made = run("simulate", "matches", "--count", "1", "--store", "--database", backend.url)
    assert made.exit_code == 0, made.output
    store = MatchStore(url=backend.url, read_only=True)
    try:
        [tournament, *_] = [s for s in store.streams()
                            if store.facts(s)[0].type == "TournamentCreated"]
    finally:
        store.close()
    short = tournament.hex[:8]
    out = refused_sheet(backend, sheet(tmp_path, f"{short},1,1,1,1,0,0,0,0,0,0,X",
                                       f"{short},1,2,1,1,0,0,0,0,0,0,X"))
    assert f"foglio.csv:2:1: found '{short}', expected the id of a stored match" in out
