"""Every example of docs/examples imports (or is refused) with exactly the report docs/notation.md
shows for it; and the grammar docs/notation.md prints is the one the reader uses.

The reports are those of `verbale --lang en import` into a new store, the examples in the order
the document shows them (the score sheet after the records it names). After a deliberate change
of the reports, `python -m tests.importers.test_examples --write` rewrites the document's report
blocks; review the diff.
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from replay_web.cli import _register, cli

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "notation.md"
GRAMMAR = ROOT / "importers" / "notation" / "grammar.lark"
BLOCK = re.compile(r"```text report (?P<file>\S+)\n(?P<body>.*?)```\n", re.DOTALL)
GRAMMAR_BLOCK = re.compile(r"```lark\n(?P<body>.*?)```\n", re.DOTALL)


def documented() -> dict[str, str]:
    """docs/notation.md's report of each example, by the example's path."""
    return {m["file"]: m["body"] for m in BLOCK.finditer(DOC.read_text(encoding="utf-8"))}


def reports(files: list[str]) -> dict[str, str]:
    """What `verbale import FILES` prints for each file, into a new SQLite store."""
    _register()
    with tempfile.TemporaryDirectory() as directory:
        url = f"sqlite:///{directory}/examples.db"
        result = CliRunner().invoke(cli, ["--lang", "en", "import", *files, "--database", url])
    blocks: dict[str, str] = {}
    current = None
    for line in result.stdout.splitlines(keepends=True):
        if line.rstrip("\n") in files:
            current = line.rstrip("\n")
            blocks[current] = ""
        elif current is not None:
            blocks[current] += line
    return blocks


def example_files() -> list[str]:
    examples = ROOT / "docs" / "examples"
    found = sorted(examples.glob("*.txt")) + sorted(examples.glob("rifiutati/*.txt")) \
        + sorted(examples.glob("*.csv"))
    return [str(p.relative_to(ROOT)) for p in found]


def test_every_example_is_documented_with_its_exact_report(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)   # the reports name the files as the document does: from the top
    shown = documented()
    files = example_files()
    assert len([f for f in files if f.endswith(".txt")]) >= 10 and any(
        f.endswith(".csv") for f in files)
    assert sorted(shown) == sorted(files), "docs/notation.md shows a report for each example"
    made = reports(list(shown))
    for file in shown:
        assert made[file] == shown[file], f"the report of {file} differs from docs/notation.md"


def test_the_documented_grammar_is_the_readers() -> None:
    found = GRAMMAR_BLOCK.search(DOC.read_text(encoding="utf-8"))
    assert found is not None
    assert found["body"] == GRAMMAR.read_text(encoding="utf-8")


def _write() -> None:
    import os
    os.chdir(ROOT)
    text = DOC.read_text(encoding="utf-8")
    made = reports(list(documented()))
    text = BLOCK.sub(lambda m: f"```text report {m['file']}\n{made[m['file']]}```\n", text)
    text = GRAMMAR_BLOCK.sub(lambda m: "```lark\n" + GRAMMAR.read_text(encoding="utf-8")
                             + "```\n", text)
    DOC.write_text(text, encoding="utf-8")


if __name__ == "__main__" and "--write" in sys.argv:
    _write()
