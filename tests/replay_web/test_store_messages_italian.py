"""The store's messages in the chosen language (issue 9, docs/i18n.md): a store that cannot be
opened and a finding of `verify` are built in projections/store with `domain.text.say` and
shown by the command line through `replay_web.i18n.translate`, Italian with `--lang it`."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from replay_web import i18n
from replay_web.cli import _register, cli


@pytest.fixture(autouse=True)
def _language_of_the_locale_afterwards() -> Iterator[None]:
    yield
    i18n.choose_language()
    i18n.localize(cli)


def _run(*args: str) -> Result:
    _register()
    return CliRunner().invoke(cli, list(args))


@pytest.fixture
def store_with_a_wrong_head(tmp_path: Path) -> str:
    """A store whose first stream's stored head hash is not its last event's hash."""
    path = tmp_path / "verbale.db"
    made = _run("simulate", "matches", "--count", "1", "--store", "--database",
                f"sqlite:///{path}")
    assert made.exit_code == 0, made.output
    conn = sqlite3.connect(path)
    try:
        conn.execute("DROP TRIGGER verbale_heads_forward")
        stream = conn.execute("SELECT stream_id FROM verbale_heads LIMIT 1").fetchone()[0]
        conn.execute("UPDATE verbale_heads SET head_hash = ? WHERE stream_id = ?",
                     ("0" * 64, stream))
        conn.commit()
    finally:
        conn.close()
    return f"sqlite:///{path}"


def test_a_missing_store_in_italian(tmp_path: Path) -> None:
    target = tmp_path / "does" / "not" / "exist.db"
    result = _run("--lang", "it", "verify", "--database", f"sqlite:///{target}")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"verbale: archivio sqlite:///{target}: nessun archivio qui: il file {target} non esiste "
        f"(né la sua cartella {target.parent}); non è stato creato nulla"]
    assert list(tmp_path.iterdir()) == []


def test_a_verify_finding_in_english(store_with_a_wrong_head: str) -> None:
    result = _run("--lang", "en", "verify", "--database", store_with_a_wrong_head)
    assert result.exit_code == 1
    assert any(re.fullmatch(r"    (match|tournament) \S+ event \d+ \[head\] the stored head hash "
                            r"is not the hash of the last event", line)
               for line in result.stdout.splitlines()), result.stdout
    assert result.stdout.splitlines()[-1].endswith(", 1 failed")


def test_a_verify_finding_in_italian(store_with_a_wrong_head: str) -> None:
    result = _run("--lang", "it", "verify", "--database", store_with_a_wrong_head)
    assert result.exit_code == 1
    assert any(re.fullmatch(r"    (partita|torneo) \S+ evento \d+ \[head\] l'hash di testa "
                            r"archiviato non è l'hash dell'ultimo evento", line)
               for line in result.stdout.splitlines()), result.stdout
    assert result.stdout.splitlines()[-1].endswith(", con errori 1")
