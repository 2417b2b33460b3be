"""A recording process killed with SIGKILL leaves a store that verify passes: a transaction is
all or nothing, and the chain link and the head are written in the events' transaction."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from domain.record.catalog import CATALOG
from projections.store.app import MatchStore
from projections.verify.streams import verify_store
from tests.projections.conftest import Backend

WRITER = "from replay_web.cli import main; main()"


def _count(backend: Backend) -> int:
    conn = backend.connect()
    try:
        return int(conn.execute(f"SELECT COUNT(*) FROM {backend.events_table}").fetchone()[0])
    except Exception:  # the writer has not created the table yet
        return 0
    finally:
        conn.close()


def _kill_after(backend: Backend, seed: str, events: int) -> None:
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, "simulate", "matches", "--store", "--seed", seed,
         "--database", backend.url], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        cwd=os.getcwd())
    deadline = time.monotonic() + 60
    try:
        while _count(backend) < events:
            if writer.poll() is not None or time.monotonic() > deadline:
                break
            time.sleep(0.005)
    finally:
        writer.send_signal(signal.SIGKILL)
        _, err = writer.communicate()
    if writer.returncode != -signal.SIGKILL:
        pytest.fail(f"the writer stopped before {events} events: {err.decode()}")


@pytest.mark.slow
def test_a_writer_killed_mid_recording_leaves_a_store_that_verifies(backend: Backend) -> None:
    for round_, events in enumerate((150, 700, 1300)):
        _kill_after(backend, f"5eed{round_:028x}", events)
        store = MatchStore(url=backend.url, catalog=CATALOG)
        try:
            verdicts = verify_store(store)
        finally:
            store.close()
        assert verdicts and all(v.ok for v in verdicts), [v for v in verdicts if not v.ok]
        assert sum(v.events for v in verdicts) >= events
