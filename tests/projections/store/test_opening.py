"""Opening the store: its own table names and marker, the upgrade of the first layout, read-only
opening that creates and changes nothing, and every failure as one StoreUnavailable line."""

from __future__ import annotations

import hashlib
import itertools
import os
import sqlite3
import subprocess
import sys
import time
import uuid
from pathlib import Path

import psycopg
import pytest
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate

from domain.demo.matches import demo_set
from domain.record.catalog import CATALOG
from domain.shuffle import Seed
from projections.store.app import MatchStore
from projections.store.config import StoreConfigError, redact, store_env
from projections.store.opening import StoreUnavailable
from projections.store.recorders import (
    LEGACY_TRIGGERS,
    MARKER_TABLE,
    SCHEMA_VERSION,
    ChainedSQLiteRecorder,
)
from projections.verify.streams import verify_store
from tests.projections.conftest import PG_DSN, PG_URL, Backend, require_postgres

SEED = Seed.from_hex("5eed00000000000000000000000000a1")
FLOOD_SEED = Seed.from_hex("5eed00000000000000000000000000f1")


_RECORDED = itertools.count()
"""How many demo matches the tests recorded: each call records new ones, since the store refuses a
seed used twice (projections/store/seed_registry.py)."""


def _record(url: str, count: int = 2) -> None:
    from replay_web.cli_store import record_match

    store = MatchStore(url=url, catalog=CATALOG)
    first = next(_RECORDED)
    for _ in range(count - 1):
        next(_RECORDED)
    try:
        for demo in demo_set(SEED, first + count)[first:]:
            record_match(store, uuid.uuid4(), demo)
    finally:
        store.close()


def _files(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def _verified(url: str) -> int:
    store = MatchStore(url=url, catalog=CATALOG, read_only=True)
    try:
        verdicts = verify_store(store)
    finally:
        store.close()
    assert verdicts and all(v.ok for v in verdicts), [v for v in verdicts if not v.ok]
    return sum(v.events for v in verdicts)


def _sqlite_names(path: Path) -> set[tuple[str, str]]:
    conn = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
    try:
        return {(r[0], r[1]) for r in conn.execute(
            "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")}
    finally:
        conn.close()


# ---- names and marker -----------------------------------------------------------------------


def test_the_tables_have_verbale_names_and_the_marker_its_schema_version(
        backend: Backend) -> None:
    _record(backend.url, 1)
    conn = backend.connect()
    try:
        marker = MARKER_TABLE if backend.kind == "sqlite" else f"{backend.schema}.{MARKER_TABLE}"
        assert conn.execute(f"SELECT schema_version FROM {marker}").fetchall() == [
            (SCHEMA_VERSION,)]
        assert conn.execute(f"SELECT COUNT(*) FROM {backend.events_table}").fetchone()[0] > 0
        assert conn.execute(f"SELECT COUNT(*) FROM {backend.heads_table}").fetchone()[0] == 1
    finally:
        conn.close()
    if backend.kind == "sqlite":
        assert backend.path is not None
        names = _sqlite_names(backend.path)
        assert {n for t, n in names if t == "table"} == {"verbale_events", "verbale_heads",
                                                         "verbale_store", "verbale_seeds"}
        assert {n for t, n in names if t == "trigger"} == {
            "verbale_events_no_update", "verbale_events_no_delete", "verbale_heads_no_delete",
            "verbale_heads_forward", "verbale_seeds_no_update", "verbale_seeds_no_delete"}


# ---- the first layout (stored_events, stream_heads, no marker) -------------------------------


def _make_legacy(path: Path) -> None:
    """Turn a store into the layout the first verbale wrote: the library's `stored_events`,
    `stream_heads`, the same triggers under their old names, no marker, no seed registry."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("BEGIN")
        for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")\
                .fetchall():
            conn.execute(f"DROP TRIGGER {name}")
        conn.execute("DROP TABLE verbale_store")
        conn.execute("DROP TABLE verbale_seeds")   # the seed registry came later still
        conn.execute("ALTER TABLE verbale_events RENAME TO stored_events")
        conn.execute("ALTER TABLE verbale_heads RENAME TO stream_heads")
        old = ChainedSQLiteRecorder.__new__(ChainedSQLiteRecorder)
        old.events_table_name, old.heads_table = "stored_events", "stream_heads"
        for statement in old.guard_statements():
            conn.execute(statement)
        conn.execute("COMMIT")
    finally:
        conn.close()


def _rows(path: Path, table: str) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
    try:
        return conn.execute(f"SELECT rowid, * FROM {table} ORDER BY rowid").fetchall()
    finally:
        conn.close()


def test_a_store_of_the_first_layout_is_read_as_it_is_and_upgraded_when_written(
        tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    url = f"sqlite:///{path}"
    _record(url, 2)
    _make_legacy(path)
    assert {n for t, n in _sqlite_names(path) if t == "trigger"} == set(LEGACY_TRIGGERS)
    events = _rows(path, "stored_events")
    before = _files(tmp_path)
    count = _verified(url)
    assert _files(tmp_path) == before, "a read-only opening changed the old store"
    assert count == len(events)

    _record(url, 1)    # opened for writing: upgraded, then one more match
    names = _sqlite_names(path)
    assert {n for t, n in names if t == "table"} == {"verbale_events", "verbale_heads",
                                                     "verbale_store", "verbale_seeds"}
    # The registry indexed the old matches' seeds too: three match seeds, each once.
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        assert conn.execute("SELECT COUNT(*) FROM verbale_seeds WHERE kind = 'match seed'"
                            ).fetchone() == (3,)
    finally:
        conn.close()
    assert not {n for t, n in names if t == "trigger"} & set(LEGACY_TRIGGERS)
    assert _rows(path, "verbale_events")[:len(events)] == events, "an event was rewritten"
    assert _verified(url) > count
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute("DELETE FROM verbale_events")
    finally:
        conn.close()


def test_a_file_of_another_eventsourcing_application_is_refused_and_left_alone(
        tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    app = Application[uuid.UUID](env={"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                                      "SQLITE_DBNAME": str(path)})
    app.save(Aggregate())
    app.close()
    plain = tmp_path / "plain.db"     # not in WAL mode: a writable opening would change that
    conn = sqlite3.connect(plain)
    conn.execute("CREATE TABLE users (name TEXT)")
    conn.commit()
    conn.close()
    before = _files(tmp_path)
    for read_only in (True, False):
        with pytest.raises(StoreUnavailable, match=r"not a verbale store \(it has tables "
                                                   r"stored_events\)"):
            MatchStore(url=f"sqlite:///{path}", catalog=CATALOG, read_only=read_only)
        with pytest.raises(StoreUnavailable, match=r"plain\.db: not a verbale store \(it has "
                                                   r"tables users\)"):
            MatchStore(url=f"sqlite:///{plain}", catalog=CATALOG, read_only=read_only)
    assert _files(tmp_path) == before


def test_a_store_of_a_newer_verbale_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    _record(f"sqlite:///{path}", 1)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(f"UPDATE {MARKER_TABLE} SET schema_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(StoreUnavailable, match="newer verbale"):
        MatchStore(url=f"sqlite:///{path}", catalog=CATALOG, read_only=True)


# ---- read-only opening ------------------------------------------------------------------------


def test_a_read_only_opening_of_a_missing_store_creates_nothing(tmp_path: Path) -> None:
    for target in (tmp_path / "absent.db", tmp_path / "no" / "such" / "dir" / "x.db"):
        with pytest.raises(StoreUnavailable, match="does not exist"):
            MatchStore(url=f"sqlite:///{target}", catalog=CATALOG, read_only=True)
    assert list(tmp_path.iterdir()) == []


def test_a_read_only_opening_refuses_an_empty_file_and_a_database_without_tables(
        tmp_path: Path) -> None:
    (tmp_path / "empty.db").touch()
    with pytest.raises(StoreUnavailable, match="empty"):
        MatchStore(url=f"sqlite:///{tmp_path / 'empty.db'}", catalog=CATALOG, read_only=True)
    bare = tmp_path / "bare.db"
    sqlite3.connect(bare).execute("PRAGMA user_version = 7").connection.close()
    assert bare.stat().st_size > 0
    before = _files(tmp_path)
    with pytest.raises(StoreUnavailable, match="no verbale store there"):
        MatchStore(url=f"sqlite:///{bare}", catalog=CATALOG, read_only=True)
    assert _files(tmp_path) == before


def test_verify_leaves_the_bytes_of_a_store_unchanged(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'copy.db'}"
    _record(url, 3)
    before = _files(tmp_path)
    assert list(before) == ["copy.db"]
    _verified(url)
    assert _files(tmp_path) == before


def test_a_writer_opening_a_store_read_as_immutable_stops_the_reader(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'rest.db'}"
    _record(url, 1)
    reader = MatchStore(url=url, catalog=CATALOG, read_only=True)   # at rest: immutable
    try:
        assert reader.heads()
        writer = MatchStore(url=url, catalog=CATALOG)
        try:
            with pytest.raises(StoreUnavailable, match="a writer opened the store during"):
                reader.heads()
        finally:
            writer.close()
    finally:
        reader.close()
    reader = MatchStore(url=url, catalog=CATALOG, read_only=True)
    try:
        assert reader.heads()
        _record(url, 1)     # a writer came, wrote and went: its -wal file is gone
        assert not (tmp_path / "rest.db-wal").exists()
        with pytest.raises(StoreUnavailable, match="a writer opened the store during"):
            reader.heads()
    finally:
        reader.close()


def test_a_read_only_store_refuses_a_write(backend: Backend) -> None:
    _record(backend.url, 1)
    store = MatchStore(url=backend.url, catalog=CATALOG, read_only=True)
    try:
        (demo,) = demo_set(SEED, 1)
        from replay_web.cli_store import record_match
        with pytest.raises(StoreUnavailable, match="read-only"):
            record_match(store, uuid.uuid4(), demo)
    finally:
        store.close()


# ---- failures to open or write: SQLite ------------------------------------------------------


def test_a_file_that_is_not_sqlite_is_named(tmp_path: Path) -> None:
    path = tmp_path / "junk.db"
    path.write_bytes(bytes(range(256)) * 40)
    for read_only in (True, False):
        with pytest.raises(StoreUnavailable, match=r"junk\.db: not an SQLite database"):
            MatchStore(url=f"sqlite:///{path}", catalog=CATALOG, read_only=read_only)


def damage(path: Path, first: int, last: int) -> None:
    """Overwrite the start of pages first..last-1 (the store's b-tree pages) with 0xff."""
    with path.open("r+b") as f:
        for page in range(first, last):
            f.seek(page * 4096)
            f.write(b"\xff" * 64)


def test_a_damaged_store_is_one_line_whether_opening_or_reading(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 's.db'}"
    _record(url, 3)
    pages = (tmp_path / "s.db").stat().st_size // 4096
    damage(tmp_path / "s.db", pages // 2, pages)     # events pages: opening works, reading not
    store = MatchStore(url=url, catalog=CATALOG, read_only=True)
    try:
        with pytest.raises(StoreUnavailable, match="malformed"):
            verify_store(store)
    finally:
        store.close()
    damage(tmp_path / "s.db", 1, pages)               # the schema too: opening fails
    with pytest.raises(StoreUnavailable, match=r"damaged.*malformed"):
        MatchStore(url=url, catalog=CATALOG, read_only=True)


def test_a_writable_opening_makes_a_missing_directory(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'a' / 'b' / 'store.db'}"
    MatchStore(url=url, catalog=CATALOG).close()
    assert (tmp_path / "a" / "b" / "store.db").stat().st_size > 0


def test_a_directory_that_cannot_be_made_or_written_is_named(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(StoreUnavailable, match=r"cannot create the directory .*file/sub: "
                                               "Not a directory"):
        MatchStore(url=f"sqlite:///{tmp_path / 'file' / 'sub' / 'x.db'}", catalog=CATALOG)
    # /proc takes no new file, even from root.
    with pytest.raises(StoreUnavailable, match="cannot open or create the database file"):
        MatchStore(url="sqlite:////proc/verbale-test.db", catalog=CATALOG)


def test_a_full_disk_is_one_line_and_the_action_all_or_nothing(
        tmp_path: Path, tiny_disk: list[int]) -> None:
    from replay_web.cli_store import record_match

    path = tmp_path / "full.db"
    url = f"sqlite:///{path}"
    _record(url, 1)
    stored = _verified(url)
    tiny_disk[0] = path.stat().st_size // 4096 + 2
    store = MatchStore(url=url, catalog=CATALOG)
    try:
        with pytest.raises(StoreUnavailable, match=r"disk is full.*nothing of the action"):
            # Other demos than _record's: a seed used twice is refused before the disk fills.
            for demo in demo_set(FLOOD_SEED, 30):
                record_match(store, uuid.uuid4(), demo)
    finally:
        store.close()
    tiny_disk[0] = 0
    assert _verified(url) > stored     # what was written before is whole, the rest absent


# ---- PostgreSQL -----------------------------------------------------------------------------


def test_a_postgres_server_that_does_not_answer_is_named_quickly_without_password() -> None:
    started = time.monotonic()
    with pytest.raises(StoreUnavailable) as refused:
        MatchStore(url="postgresql://postgres:s3cret@127.0.0.1:1/test", catalog=CATALOG)
    assert time.monotonic() - started < 5
    assert "s3cret" not in str(refused.value)
    assert str(refused.value) == ("store postgresql://postgres@127.0.0.1:1/test: PostgreSQL "
                                  "does not answer: connection refused")


def test_a_postgres_database_that_does_not_exist_is_named() -> None:
    require_postgres()
    with pytest.raises(StoreUnavailable, match=r'postgres@127\.0\.0\.1:5432/no_such_db: '
                                               r'PostgreSQL answers but database '
                                               r'"no_such_db" does not exist'):
        MatchStore(url="postgresql://postgres:pw@127.0.0.1:5432/no_such_db", catalog=CATALOG)


def test_a_read_only_postgres_session_refuses_a_writer_in_one_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    require_postgres()
    monkeypatch.setenv("PGOPTIONS", "-c default_transaction_read_only=on")
    schema = f"t_{uuid.uuid4().hex[:16]}"
    with pytest.raises(StoreUnavailable, match="session is read-only"):
        MatchStore(url=f"{PG_URL}?schema={schema}", catalog=CATALOG)


def test_a_read_only_postgres_opening_refuses_a_schema_without_the_store() -> None:
    require_postgres()
    schema = f"t_{uuid.uuid4().hex[:16]}"
    with pytest.raises(StoreUnavailable, match=f"no verbale store in schema {schema}"):
        MatchStore(url=f"{PG_URL}?schema={schema}", catalog=CATALOG, read_only=True)
    with psycopg.connect(PG_DSN) as conn:
        assert conn.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s",
                            (schema,)).fetchone() is None, "a read-only opening made a schema"


_PROCESS = """
import sys, uuid
from domain.record.catalog import CATALOG
from domain.demo.matches import demo_set
from domain.shuffle import Seed
from projections.store.app import MatchStore
from replay_web.cli_store import record_match
store = MatchStore(url=sys.argv[1], catalog=CATALOG)
for demo in demo_set(Seed.from_hex("5eed00000000000000000000000000a2"), 6):
    record_match(store, uuid.uuid4(), demo)
print("ready", flush=True)
sys.stdin.readline()
store.close()
"""


@pytest.mark.parametrize("query,expected", [("", 1), ("&pool_size=3&max_overflow=0", 3)])
def test_a_process_holds_the_connections_it_is_configured_for(query: str,
                                                              expected: int) -> None:
    require_postgres()
    schema = f"t_{uuid.uuid4().hex[:16]}"
    name = f"verbale-test-{uuid.uuid4().hex[:8]}"
    writer = subprocess.Popen([sys.executable, "-c", _PROCESS, f"{PG_URL}?schema={schema}{query}"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PGAPPNAME": name}, cwd=os.getcwd())
    try:
        assert writer.stdout is not None and writer.stdout.readline().strip() == "ready"
        with psycopg.connect(PG_DSN) as conn:
            held = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE "
                                "application_name = %s", (name,)).fetchone()
    finally:
        writer.communicate("\n", timeout=30)
        with psycopg.connect(PG_DSN, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
    assert writer.returncode == 0
    assert held is not None and held[0] == expected


# ---- configuration ----------------------------------------------------------------------------


def test_pool_sizes_come_from_the_url_or_the_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    env = store_env("postgresql://u@h/db")
    assert (env["POSTGRES_POOL_SIZE"], env["POSTGRES_MAX_OVERFLOW"]) == ("1", "1")
    monkeypatch.setenv("VERBALE_POSTGRES_POOL_SIZE", "4")
    env = store_env("postgresql://u@h/db?max_overflow=0&schema=s")
    assert (env["POSTGRES_POOL_SIZE"], env["POSTGRES_MAX_OVERFLOW"],
            env["POSTGRES_SCHEMA"]) == ("4", "0", "s")
    with pytest.raises(StoreConfigError, match="pool_size='many'"):
        store_env("postgresql://u@h/db?pool_size=many")
    with pytest.raises(StoreConfigError, match="unknown parameter colour"):
        store_env("postgresql://u@h/db?colour=red")


def test_an_unsupported_url_names_where_it_came_from() -> None:
    with pytest.raises(StoreConfigError, match=r"^--database 'mysql://u@h/db': unsupported"):
        MatchStore(url="mysql://u:pw@h/db", origin="--database")
    with pytest.raises(StoreConfigError, match=r"^VERBALE_DATABASE_URL 'mysql://h/db'"):
        MatchStore(env={"VERBALE_DATABASE_URL": "mysql://h/db"})
    assert StoreConfigError("x").exit_code == 2 and StoreUnavailable("x").exit_code == 1


def test_redact_drops_the_password_only() -> None:
    assert redact("postgresql://me:pw@db.example:5433/x?schema=s") == \
        "postgresql://me@db.example:5433/x?schema=s"
    assert redact("sqlite:///var/verbale.db") == "sqlite:///var/verbale.db"


def test_a_connection_left_taken_by_ctrl_c_is_let_go_quietly(tmp_path: Path) -> None:
    """Ctrl-C between taking a connection and using it leaves its context open; once the store
    has closed its pool, collecting it must not print a traceback after "interrupted"."""
    import gc

    store = MatchStore(url=f"sqlite:///{tmp_path / 'verbale.db'}")
    taken = store.recorder.datastore.get_connection(commit=False)
    taken.__enter__()
    store.close()
    unraisable: list[object] = []
    hook, sys.unraisablehook = sys.unraisablehook, unraisable.append
    try:
        del taken
        gc.collect()
    finally:
        sys.unraisablehook = hook
    assert unraisable == []
