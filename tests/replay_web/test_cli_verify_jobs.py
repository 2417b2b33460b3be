"""`verbale verify --jobs N` (issue 13): worker processes print the same report and exit with the
same code as one process, on a sound store and on a tampered one, SQLite and PostgreSQL; no bar
is drawn when standard error is not a terminal."""

from __future__ import annotations

import random

from tests.projections.conftest import Backend
from tests.projections.store.tampering import Tamperer, flip_byte
from tests.verbale_cli import run

SEED = "5eed0000000000000000000000000013"


def _same_with_jobs(backend: Backend) -> tuple[int, str]:
    alone = run("verify", "--database", backend.url)
    for jobs in ("2", "0"):
        assert run("verify", "--jobs", jobs, "--database", backend.url) == alone, jobs
    return alone


def test_jobs_print_the_same_report_and_exit_code(backend: Backend) -> None:
    code, out = run("simulate", "matches", "--store", "--count", "5", "--seed", SEED,
                    "--database", backend.url)
    assert code == 0, out
    code, out = _same_with_jobs(backend)
    assert code == 0 and "0 failed" in out and "verifying" not in out
    tamperer = Tamperer.open(backend)
    try:
        with tamperer.batch():
            stream, _ = flip_byte(tamperer, random.Random(13), tamperer.rows())
    finally:
        tamperer.conn.close()
    code, out = _same_with_jobs(backend)
    assert code == 1 and f"{stream}" in out and "FAILED" in out


def test_jobs_must_not_be_negative(backend: Backend) -> None:
    code, out = run("verify", "--jobs", "-1", "--database", backend.url)
    assert code == 2 and "--jobs" in out
