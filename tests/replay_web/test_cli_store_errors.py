"""Every way the store cannot be opened or written, through the `verbale` command: one line on
stderr naming the store and what went wrong, exit code 1 (environment) or 2 (usage), no
traceback, nothing created by a read-only command and nothing half-written."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate

from replay_web.cli import _register, cli
from tests.projections.conftest import PG_URL, require_postgres
from tests.projections.store.test_opening import _make_legacy, damage


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, list[str], str]:
    """Exit code, the lines on stderr, stdout."""
    _register()
    result = CliRunner().invoke(cli, list(args), env=env)
    return result.exit_code, result.stderr.splitlines(), result.stdout


def one_line(code: int, err: list[str], expected_code: int) -> str:
    assert code == expected_code, err
    assert len(err) == 1, err
    assert "Traceback" not in err[0] and "internal error" not in err[0]
    return err[0]


def _files(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


@pytest.fixture
def store_file(tmp_path: Path) -> Path:
    path = tmp_path / "verbale.db"
    code, _, out = run("simulate", "matches", "--count", "3", "--store", "--database",
                       f"sqlite:///{path}")
    assert code == 0, out
    return path


def test_verify_of_a_missing_store_creates_nothing(tmp_path: Path) -> None:
    target = tmp_path / "does" / "not" / "exist.db"
    line = one_line(*run("verify", "--database", f"sqlite:///{target}")[:2], 1)
    assert line == (f"verbale: store sqlite:///{target}: no store there: the file {target} does "
                    f"not exist (nor its directory {target.parent}); nothing was created")
    assert list(tmp_path.iterdir()) == []


def test_verify_and_export_leave_a_store_byte_for_byte(store_file: Path) -> None:
    before = _files(store_file.parent)
    assert list(before) == ["verbale.db"]
    code, err, _ = run("verify", "--database", f"sqlite:///{store_file}")
    assert code == 0, err
    code, _, out = run("matches", "--json", "--database", f"sqlite:///{store_file}")
    stream = next(line for line in out.split('"') if len(line) == 36 and line.count("-") == 4)
    code, err, _ = run("export", "--match", stream, "--database", f"sqlite:///{store_file}")
    assert code == 0, err
    assert _files(store_file.parent) == before


def test_an_empty_file(tmp_path: Path) -> None:
    (tmp_path / "empty.db").touch()
    line = one_line(*run("verify", "--database", f"sqlite:///{tmp_path}/empty.db")[:2], 1)
    assert line.endswith(f"the file {tmp_path}/empty.db is empty, not a verbale store")


def test_a_file_that_is_not_sqlite(tmp_path: Path) -> None:
    (tmp_path / "junk.db").write_bytes(bytes(range(256)) * 40)
    for command in (["verify"], ["simulate", "matches", "--count", "1", "--store"]):
        line = one_line(*run(*command, "--database", f"sqlite:///{tmp_path}/junk.db")[:2], 1)
        assert line == (f"verbale: store sqlite:///{tmp_path}/junk.db: not an SQLite database "
                        "(file is not a database)")


def test_a_damaged_store(store_file: Path) -> None:
    damage(store_file, 1, store_file.stat().st_size // 4096)
    line = one_line(*run("verify", "--database", f"sqlite:///{store_file}")[:2], 1)
    assert line == (f"verbale: store sqlite:///{store_file}: the store is damaged (database disk "
                    "image is malformed); restore it from a backup")


def test_a_database_of_another_application(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    app = Application[uuid.UUID](env={"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                                      "SQLITE_DBNAME": str(path)})
    app.save(Aggregate())
    app.close()
    before = _files(tmp_path)
    for command in (["verify"], ["simulate", "matches", "--count", "1", "--store"]):
        line = one_line(*run(*command, "--database", f"sqlite:///{path}")[:2], 1)
        assert line == (f"verbale: store sqlite:///{path}: not a verbale store (it has tables "
                        "stored_events)")
    assert _files(tmp_path) == before


def test_a_store_of_the_first_layout_verifies_unchanged_then_is_upgraded(
        store_file: Path) -> None:
    _make_legacy(store_file)
    before = _files(store_file.parent)
    code, err, _ = run("verify", "--database", f"sqlite:///{store_file}")
    assert code == 0, err
    assert _files(store_file.parent) == before
    code, err, _ = run("simulate", "matches", "--count", "4", "--store", "--database",
                       f"sqlite:///{store_file}")
    assert code == 0, err
    conn = sqlite3.connect(f"file:{store_file}?mode=ro", uri=True)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    conn.close()
    store_tables = {t for t in tables if not t.startswith("rm_")}   # not the read models
    assert store_tables == {"verbale_events", "verbale_heads", "verbale_store", "verbale_seeds"}
    code, err, _ = run("verify", "--database", f"sqlite:///{store_file}")
    assert code == 0, err


def test_a_missing_directory_is_made_by_a_writing_command(tmp_path: Path) -> None:
    code, err, _ = run("simulate", "matches", "--count", "1", "--store", "--database",
                       f"sqlite:///{tmp_path}/new/dir/verbale.db")
    assert code == 0, err
    assert (tmp_path / "new" / "dir" / "verbale.db").exists()


def test_a_directory_that_cannot_be_made_or_written(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    line = one_line(*run("simulate", "matches", "--count", "1", "--store", "--database",
                         f"sqlite:///{tmp_path}/file/sub/verbale.db")[:2], 1)
    assert line == (f"verbale: store sqlite:///{tmp_path}/file/sub/verbale.db: cannot create the "
                    f"directory {tmp_path}/file/sub: Not a directory")
    line = one_line(*run("simulate", "matches", "--count", "1", "--store", "--database",
                         "sqlite:////proc/verbale.db")[:2], 1)
    assert line == ("verbale: store sqlite:////proc/verbale.db: cannot open or create the "
                    "database file (is its directory there and writable?)")


@contextmanager
def read_only_directory(folder: Path) -> Iterator[None]:
    """`folder` made unwritable for this process: by its mode, or, for root (whom modes do not
    stop), by the file system's immutable attribute (chattr +i)."""
    folder.chmod(0o555)
    immutable = os.geteuid() == 0
    if immutable:
        subprocess.run(["chattr", "+i", str(folder)], check=True)
    try:
        yield
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
        folder.chmod(0o755)


def test_a_read_only_directory(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    with read_only_directory(folder):
        line = one_line(*run("simulate", "matches", "--count", "1", "--store", "--database",
                             f"sqlite:///{folder}/verbale.db")[:2], 1)
    assert line == (f"verbale: store sqlite:///{folder}/verbale.db: cannot create the store: the "
                    f"directory {folder} is not writable")
    assert list(folder.iterdir()) == []


def test_an_unsupported_url_names_the_option_or_the_variable() -> None:
    line = one_line(*run("verify", "--database", "mysql://me:pw@db/x")[:2], 2)
    assert line == ("verbale: --database 'mysql://me@db/x': unsupported database URL, expected "
                    "sqlite:///path.db or postgresql://user@host:port/database")
    line = one_line(*run("verify", env={"VERBALE_DATABASE_URL": "mysql://db/x"})[:2], 2)
    assert line.startswith("verbale: VERBALE_DATABASE_URL 'mysql://db/x': unsupported")


def test_a_postgres_url_that_does_not_answer() -> None:
    started = time.monotonic()
    line = one_line(*run("verify", "--database",
                         "postgresql://postgres:s3cret@127.0.0.1:1/test")[:2], 1)
    assert time.monotonic() - started < 5
    assert line == ("verbale: store postgresql://postgres@127.0.0.1:1/test: PostgreSQL does not "
                    "answer: connection refused")


def test_a_postgres_database_that_does_not_exist() -> None:
    require_postgres()
    line = one_line(*run("simulate", "matches", "--count", "1", "--store", "--database",
                         "postgresql://postgres:s3cret@127.0.0.1:5432/no_such_db")[:2], 1)
    assert line == ("verbale: store postgresql://postgres@127.0.0.1:5432/no_such_db: PostgreSQL "
                    'answers but database "no_such_db" does not exist')


def test_a_read_only_postgres_session(monkeypatch: pytest.MonkeyPatch) -> None:
    require_postgres()
    monkeypatch.setenv("PGOPTIONS", "-c default_transaction_read_only=on")
    url = f"{PG_URL}?schema=t_{uuid.uuid4().hex[:16]}"
    line = one_line(*run("simulate", "matches", "--count", "1", "--store", "--database",
                         url)[:2], 1)
    assert line == (f"verbale: store {url}: the PostgreSQL session is read-only: cannot execute "
                    "CREATE SCHEMA in a read-only transaction")


def test_a_full_disk(store_file: Path, tiny_disk: list[int]) -> None:
    tiny_disk[0] = store_file.stat().st_size // 4096 + 2
    line = one_line(*run("simulate", "matches", "--count", "40", "--store", "--seed",
                         "5eed00000000000000000000000000f1", "--database",
                         f"sqlite:///{store_file}")[:2], 1)
    assert line == (f"verbale: store sqlite:///{store_file}: the disk is full (database or disk "
                    "is full); nothing of the action was recorded")
    tiny_disk[0] = 0
    code, err, out = run("verify", "--database", f"sqlite:///{store_file}")
    assert code == 0, (err, out)
