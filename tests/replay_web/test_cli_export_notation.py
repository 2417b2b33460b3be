"""`verbale export --match ID --format notation`: a stored match as a hand record in the strict
export form, on SQLite and PostgreSQL. An imported example comes back as its own strict form and
re-imports as the same match; a simulated match's record imports and exports again unchanged;
-o FILE is written whole; a tournament or --all is refused as a usage problem."""

from __future__ import annotations

import os
import re
from pathlib import Path
from uuid import UUID

import pytest

from importers.notation.reader import read_bytes
from importers.notation.writer import write
from tests.projections.conftest import Backend, make_backend
from tests.replay_web.test_cli_import import ACCEPTED, SHEET, TORNEO, run
from tests.replay_web.test_cli_import_store import ids_of, imported, snapshot


def exported(backend: Backend, match: str | UUID, *more: str) -> str:
    result = run("export", "--match", str(match), "--format", "notation", *more,
                 "--database", backend.url)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    return result.stdout


@pytest.fixture
def simulated(backend: Backend) -> str:
    """The id of one simulated match (the first of the demo set)."""
    result = run("simulate", "matches", "--count", "1", "--store", "--database", backend.url)
    assert result.exit_code == 0, result.output
    return result.stdout.split()[0]


@pytest.mark.parametrize("example", ACCEPTED, ids=lambda p: p.stem)
def test_an_imported_example_exports_as_its_strict_form_and_reimports_as_itself(
        backend: Backend, tmp_path: Path, example: Path) -> None:
    [stream] = ids_of(imported(backend, example))
    text = exported(backend, stream)
    assert text == write(read_bytes(example.read_bytes(), example.name).matches[0])
    before = snapshot(backend)
    copy = tmp_path / example.name
    copy.write_text(text, encoding="utf-8")
    again = imported(backend, copy)
    assert f"1 match already imported: {stream}" in again
    assert snapshot(backend) == before


def test_a_score_sheets_claims_do_not_change_the_exported_record(backend: Backend,
                                                                 tmp_path: Path) -> None:
    [stream] = ids_of(imported(backend, TORNEO))
    plain = exported(backend, stream)
    imported(backend, TORNEO.parent / "cirulla-4p-coppie.txt", SHEET)
    assert exported(backend, stream) == plain


def test_a_simulated_match_exports_imports_and_exports_again_unchanged(
        backend: Backend, simulated: str, tmp_path: Path) -> None:
    text = exported(backend, simulated)
    assert text.startswith('[Game "') and re.search(r"^Seed [0-9a-f]{64}$", text, re.MULTILINE)
    record = tmp_path / "simulata.txt"
    record.write_text(text, encoding="utf-8")
    # Into another store: the record carries the match's seeds, and a store refuses a seed used
    # twice (docs/shuffle.md section 15).
    (tmp_path / "other").mkdir()
    for other in make_backend(backend.kind, tmp_path / "other"):
        [copy] = ids_of(imported(other, record))
        assert copy != UUID(simulated)   # a transcription is a match of its own, with its own id
        assert exported(other, copy) == text


def test_to_a_file_it_is_written_whole_and_said_on_stdout(backend: Backend, simulated: str,
                                                          tmp_path: Path) -> None:
    target = tmp_path / "out" / "partita.txt"
    target.parent.mkdir()
    result = run("export", "--match", simulated[:8], "--format", "notation", "-o", str(target),
                 "--database", backend.url)
    assert result.exit_code == 0, result.output
    whole = UUID(simulated)
    assert result.stdout == f"match {whole} written to {target} in the notation\n"
    assert target.read_text(encoding="utf-8") == exported(backend, simulated)
    assert os.listdir(target.parent) == ["partita.txt"]


def test_a_missing_directory_is_one_line_and_exit_1(backend: Backend, simulated: str,
                                                   tmp_path: Path) -> None:
    target = tmp_path / "manca" / "partita.txt"
    result = run("export", "--match", simulated, "--format", "notation", "-o", str(target),
                 "--database", backend.url)
    assert result.exit_code == 1
    assert result.stderr == f"verbale: cannot write {target}: No such file or directory\n"
    assert not target.parent.exists()


def test_all_with_the_notation_is_a_usage_problem(backend: Backend, simulated: str,
                                                  tmp_path: Path) -> None:
    target = tmp_path / "tutte"
    result = run("export", "--all", "--format", "notation", "-o", str(target),
                 "--database", backend.url)
    assert result.exit_code == 2
    assert result.stderr == ("verbale: --format notation writes one match: give --match ID\n")
    assert not target.exists()


def test_a_tournament_is_not_a_match_to_write(backend: Backend, simulated: str) -> None:
    """The demo's tournaments are streams too: naming one is a usage problem, not a crash."""
    conn = backend.connect()
    try:
        rows = conn.execute(f"SELECT originator_id FROM {backend.events_table} WHERE topic LIKE "
                            "'%Tournament%'").fetchall()
    finally:
        conn.close()
    tournament = str(UUID(str(rows[0][0])))
    result = run("export", "--match", tournament, "--format", "notation", "--database",
                 backend.url)
    assert result.exit_code == 2
    assert result.stderr == (f"verbale: --match {tournament}: {tournament} is a tournament, not "
                             "a match: the notation writes one match\n")
    assert result.stdout == ""


def test_an_unknown_match_is_a_usage_problem(backend: Backend, simulated: str) -> None:
    result = run("export", "--match", "ffffffff", "--format", "notation", "--database",
                 backend.url)
    assert result.exit_code == 2
    assert result.stderr == "verbale: --match ffffffff: no match starts with ffffffff\n"
