"""`verbale import` without writing a store: where a file's errors are (file:line:column), every
error with --lenient, the --dry-run and --json reports, and no progress bar off a terminal.

The tests that write a store, on SQLite and PostgreSQL, are in test_cli_import_store.py; the
helpers here (`run`, `EXAMPLES`, the re-laid-out record) are shared with it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner, Result

from replay_web.cli import _register, cli

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
ACCEPTED = sorted(EXAMPLES.glob("*.txt"))
SHEET = EXAMPLES / "punteggi-circolo.csv"
REFUSED = EXAMPLES / "rifiutati" / "cirulla-presa-non-fatta.txt"
TORNEO = EXAMPLES / "cirulla-2p-torneo.txt"


def run(*args: str | Path, env: dict[str, str] | None = None) -> Result:
    _register()
    return CliRunner().invoke(cli, ["--lang", "en", *map(str, args)], env=env)


def no_store(tmp_path: Path) -> dict[str, str]:
    """An environment whose default store does not exist (a dry run must not create it)."""
    return {"VERBALE_DATABASE_URL": f"sqlite:///{tmp_path / 'absent.db'}"}


def write(path: Path, text: str, encoding: str = "utf-8") -> Path:
    path.write_bytes(text.encode(encoding))
    return path


def position(text: str, needle: str) -> tuple[int, int]:
    """1-based line and column of the first `needle` in `text`."""
    before = text[:text.index(needle)]
    return before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1


def relaid(text: str) -> str:
    """The same record as people might write it: English keywords for the Italian ones and the
    other way round, captures without spaces around `x` and with spaces around `+`, comments
    (line and brace), blank lines, CRLF line ends."""
    swaps = {"Smazzata": "Deal", "Dealer": "Mazziere", "Seed": "Seme", "Table": "Tavola",
             "Hand": "Mano", "Stock": "Tallone"}
    lines = []
    for line in text.splitlines():
        word, _, rest = line.partition(" ")
        if word in swaps:
            line = f"{swaps[word]}  {rest}"
        elif re.match(r"\d+\. ", line):
            line = line.replace(" x ", "x").replace("+", " + ") + "  ; a margin note"
            line = line.replace(". ", ". {seen by the arbiter} ", 1)
        lines += [line, ""] if line.startswith("[") else [line]
    return "; copied out again by hand\r\n\r\n" + "\r\n".join(lines) + "\r\n\r\n"


def test_a_syntax_error_names_file_line_and_column_and_the_command_fails(
        tmp_path: Path) -> None:
    text = TORNEO.read_text(encoding="utf-8").replace("5. 7s Rs", "5. 7s Zz")
    bad = write(tmp_path / "torneo-sbagliato.txt", text)
    line, column = position(text, "Zz")
    result = run("import", bad, env=no_store(tmp_path))
    assert result.exit_code == 1
    assert f"  torneo-sbagliato.txt:{line}:{column}: found 'Zz'" in result.stdout
    assert "refused: nothing of this file was stored" in result.stdout
    assert result.stderr == "verbale: 1 file refused: nothing of it was stored\n"


def test_an_undecodable_file_is_refused_at_the_line_and_column_of_its_first_bad_byte(
        tmp_path: Path) -> None:
    text = TORNEO.read_text(encoding="utf-8")
    bad = write(tmp_path / "latin1.txt", text, encoding="latin-1")
    line, column = position(text, "è")
    result = run("import", bad, env=no_store(tmp_path))
    assert result.exit_code == 1
    assert f"latin1.txt:{line}:{column}: found byte 0xE8, expected UTF-8 text" in result.stdout
    assert "Traceback" not in result.output


def test_lenient_lists_every_error_of_a_file_strict_only_the_first(tmp_path: Path) -> None:
    text = (TORNEO.read_text(encoding="utf-8").replace("5. 7s Rs", "5. 7s Zz")
            .replace("9. Fd 2s", "9. Fd Zy"))
    bad = write(tmp_path / "due-errori.txt", text)
    first, second = position(text, "Zz"), position(text, "Zy")
    strict = run("import", bad, env=no_store(tmp_path))
    lenient = run("import", "--lenient", bad, env=no_store(tmp_path))
    assert strict.exit_code == lenient.exit_code == 1
    wheres = [f"due-errori.txt:{line}:{column}:" for line, column in (first, second)]
    assert wheres[0] in strict.stdout and wheres[1] not in strict.stdout
    assert all(where in lenient.stdout for where in wheres)


def test_a_dry_run_without_a_store_judges_reports_and_creates_nothing(tmp_path: Path) -> None:
    result = run("import", "--dry-run", *ACCEPTED, env=no_store(tmp_path))
    assert result.exit_code == 0, result.output
    assert result.stdout.count("dry run: nothing stored") == len(ACCEPTED)
    assert "stored:" not in result.stdout
    assert "result: claimed 12-14, computed 12-14" in result.stdout
    assert list(tmp_path.iterdir()) == []


def test_a_dry_run_naming_a_store_that_does_not_exist_judges_without_it(tmp_path: Path) -> None:
    absent = tmp_path / "nuovo.db"
    result = run("import", "--dry-run", TORNEO, "--database", f"sqlite:///{absent}")
    assert result.exit_code == 0, result.output
    assert "dry run: nothing stored" in result.stdout
    assert not absent.exists()


def test_the_json_report_has_the_documented_keys(tmp_path: Path) -> None:
    bad = write(tmp_path / "rotto.txt", '[Game "cirulla"\n')
    result = run("import", "--dry-run", "--json", TORNEO, REFUSED, bad, env=no_store(tmp_path))
    assert result.exit_code == 1
    files = json.loads(result.stdout)["files"]
    assert [f["accepted"] for f in files] == [True, False, False]
    assert all(f["dry_run"] and f["stored"] == [] for f in files)
    torneo, refused, broken = files
    assert broken["errors"][0]["line"] == 1 and broken["errors"][0]["column"] == 16
    assert {"source", "found", "expected", "message"} <= broken["errors"][0].keys()
    match = torneo["matches"][0]
    assert match["accepted"] and match["findings"] == []
    assert [s["number"] for s in match["smazzate"]] == [1, 2]
    assert all(isinstance(s["rows"], list) for s in match["smazzate"])
    errors = [f for f in refused["matches"][0]["findings"] if f["severity"] == "error"]
    assert errors and errors[0]["check"] == "C16 presa obbligata"
    line = REFUSED.read_text(encoding="utf-8").splitlines()[errors[0]["line"] - 1]
    assert line[errors[0]["column"] - 1:].startswith("Cc")   # the discard that had to capture


def test_no_progress_bar_off_a_terminal(tmp_path: Path) -> None:
    result = run("import", "--dry-run", *ACCEPTED, env=no_store(tmp_path))
    assert result.exit_code == 0
    assert result.stderr == ""


def test_a_progress_bar_on_a_terminal_and_the_report_unchanged(tmp_path: Path) -> None:
    """Standard error a terminal (a pty): the bar is drawn there, counting the files; the
    report on standard output is the same as without a terminal."""
    master, slave = os.openpty()
    command = [str(Path(sys.executable).parent / "verbale"), "--lang", "en", "import",
               "--dry-run", *map(str, ACCEPTED)]
    env = {**os.environ, **no_store(tmp_path), "TERM": "xterm", "COLUMNS": "100"}
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=slave, env=env, check=False,
                          timeout=120)
    os.close(slave)
    drawn = _drain(master)
    assert done.returncode == 0
    assert b"importing" in drawn and f"{len(ACCEPTED)}/{len(ACCEPTED)}".encode() in drawn
    assert done.stdout.decode("utf-8") == run("import", "--dry-run", *ACCEPTED,
                                              env=no_store(tmp_path)).stdout


def _drain(master: int) -> bytes:
    data = b""
    try:
        while chunk := os.read(master, 4096):
            data += chunk
    except OSError:   # the pty's other end closed
        pass
    finally:
        os.close(master)
    return data


def test_lenient_reports_a_bad_table_line_once(tmp_path: Path) -> None:
    text = TORNEO.read_text(encoding="utf-8").replace("Table Ab 7d 2d 3c", "Table Ab 7d 2d Zq")
    bad = write(tmp_path / "tavola.txt", text)
    line, column = position(text, "Zq")
    result = run("import", "--lenient", bad, env=no_store(tmp_path))
    assert result.exit_code == 1
    errors = [ln for ln in result.stdout.splitlines() if ln.startswith("  tavola.txt:")]
    assert errors == [f"  tavola.txt:{line}:{column}: found 'Zq', expected a card such as 7d "
                      "or ??, the end of the line or matta"]


def test_the_relaid_record_reads_as_the_same_match(tmp_path: Path) -> None:
    """The re-laid-out copy (used by the store tests) really differs in layout and still
    parses, so a test that finds it 'already imported' proves the content hash at work."""
    copy = write(tmp_path / "copia.txt", relaid(TORNEO.read_text(encoding="utf-8")))
    assert b"\r\n" in copy.read_bytes() and "Deal  1" in copy.read_text("utf-8")
    assert "7dxFs" in copy.read_text("utf-8")
    result = run("import", "--dry-run", "--json", copy, env=no_store(tmp_path))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["files"][0]["accepted"]
