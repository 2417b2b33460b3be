"""A projection process killed with SIGKILL mid-way, then restarted, ends in the same tables as
a clean run: each batch's rows and its tracking position are one transaction, and a restart
resumes after the last committed one (`verbale project`, `verbale rebuild`, and `verbale project
--follow`: on PostgreSQL the library's ProjectionRunner, on SQLite the poll)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from uuid import NAMESPACE_URL, uuid5

import pytest

from domain.demo.matches import demo_set
from domain.shuffle import Seed
from projections.read_models.project import rebuild
from projections.store.app import MatchStore
from replay_web.cli_store import record_match
from tests.projections.conftest import Backend
from tests.projections.read_models.rows import opened, table_rows

VERBALE = "from replay_web.cli import main; main()"




def _record(url: str, round_: int, count: int) -> int:
    """Record `count` demo matches of round `round_`'s seed through the store alone (nothing
    catches the read models up); the last notification id."""
    seed = Seed.from_hex(f"5eed{round_:028x}")
    store = MatchStore(url=url)
    try:
        for index, demo in enumerate(demo_set(seed, count)):
            record_match(store, uuid5(NAMESPACE_URL, f"sigkill:{round_}:{index}"), demo)
        last = store.recorder.max_notification_id()
    finally:
        store.close()
    assert last is not None
    return last


def _position(backend: Backend) -> int:
    table = "rm_tracking" if backend.kind == "sqlite" else f"{backend.schema}.rm_tracking"
    try:
        # mode=ro: a plain reader would create the -wal file, which the projection's
        # read-only check of a store at rest takes for a writer ("run it again").
        conn = (sqlite3.connect(f"file:{backend.path}?mode=ro", uri=True)
                if backend.kind == "sqlite" else backend.connect())
    except Exception:  # nothing to read yet
        return 0
    try:
        found = conn.execute(f"SELECT notification_id FROM {table}").fetchone()
        return int(found[0]) if found else 0
    except Exception:  # the projection has not created its tables yet
        return 0
    finally:
        conn.close()


def _verbale(backend: Backend, *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", VERBALE, *args, "--database", backend.url],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=os.getcwd())


def _until(backend: Backend, at: int, process: subprocess.Popen[bytes],
           seconds: float = 120) -> None:
    """Wait until the tracked position reaches `at` (the deadline only keeps a broken
    projection from hanging the suite)."""
    deadline = time.monotonic() + seconds
    while _position(backend) < at:
        if process.poll() is not None or time.monotonic() > deadline:
            _, err = process.communicate()
            pytest.fail(f"the projection stopped or stalled before notification {at}: "
                        f"{err.decode()}")
        time.sleep(0.002)


def _kill_at(backend: Backend, at: int, *command: str) -> int:
    """Run `verbale COMMAND` and SIGKILL it once it has folded up to notification `at`; the
    position it left."""
    process = _verbale(backend, *command, "--batch", "3")
    try:
        _until(backend, at, process)
    finally:
        process.send_signal(signal.SIGKILL)
        process.communicate()
    if process.returncode != -signal.SIGKILL:
        pytest.fail(f"verbale {' '.join(command)} ended before it could be killed")
    return _position(backend)


def _same_as_a_clean_run(url: str) -> None:
    with opened(url) as (store, engine):
        kept = table_rows(engine)
        assert kept["rm_partite"]
        rebuild(store, engine, batch=500)
        assert table_rows(engine) == kept


@pytest.mark.slow
def test_project_and_rebuild_killed_mid_way_end_as_a_clean_run(backend: Backend) -> None:
    start = 0
    for round_ in range(2):
        last = _record(backend.url, round_, 4)
        assert last - start > 150
        first = "rebuild" if round_ == 1 else "project"
        left = [_kill_at(backend, start + (last - start) * share // 10, command)
                for share, command in ((2, first), (5, "project"), (8, "project"))]
        assert all(at < last for at in left)
        resumed = _verbale(backend, "project", "--json")
        out, err = resumed.communicate(timeout=300)
        assert resumed.returncode == 0, err.decode()
        assert f'"position": {last}' in out.decode()
        _same_as_a_clean_run(backend.url)
        start = last


@pytest.mark.slow
def test_a_follower_killed_and_restarted_ends_as_a_clean_run(backend: Backend) -> None:
    first = _record(backend.url, 10, 1)
    follower = _verbale(backend, "project", "--follow", "--interval", "0.05")
    try:
        _until(backend, first, follower)
        writer = threading.Thread(target=_record, args=(backend.url, 11, 4))
        writer.start()
        try:
            _until(backend, first + 100, follower)   # it follows what is recorded after it
        finally:
            follower.send_signal(signal.SIGKILL)
            follower.communicate()
            writer.join()
    finally:
        if follower.poll() is None:
            follower.kill()
    with opened(backend.url) as (store, _engine):
        last = store.recorder.max_notification_id()
    assert last is not None
    restarted = _verbale(backend, "project", "--follow", "--interval", "0.05")
    try:
        _until(backend, last, restarted)
        _record(backend.url, 12, 1)   # and again what is recorded after the restart
        with opened(backend.url) as (store, _engine):
            later = store.recorder.max_notification_id()
        assert later is not None
        _until(backend, later, restarted)
    finally:
        restarted.send_signal(signal.SIGTERM)
        out, err = restarted.communicate(timeout=60)
    assert restarted.returncode == 0, err.decode()
    assert "stopped" in out.decode().splitlines()[-1]
    _same_as_a_clean_run(backend.url)
