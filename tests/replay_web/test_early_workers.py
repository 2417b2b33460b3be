"""replay_web/early_workers.py: `verbale verify --jobs N` starts its workers' forkserver before
the command's imports, and no other command does."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from replay_web.early_workers import start_early, workers_wanted


@pytest.mark.parametrize(("argv", "wanted"), [
    (["verify", "--jobs", "2"], 2),
    (["verify", "--database", "x", "--jobs=3"], 3),
    (["verify", "--jobs", "0"], os.cpu_count() or 1),
    (["verify"], 1),
    (["verify", "--jobs"], 1),
    (["verify", "--jobs", "many"], 1),
    (["matches", "--jobs", "2"], 1),
    ([], 1),
])
def test_the_processes_verify_will_run_with_are_read_from_its_arguments(
        argv: list[str], wanted: int) -> None:
    assert workers_wanted(argv) == wanted


def test_only_verify_with_workers_starts_the_forkserver() -> None:
    """In a fresh interpreter: `matches` imports no multiprocessing; `verify --jobs 2` leaves a
    forkserver running, which the pool of projections/verify/jobs.py then uses."""
    code = ("import sys; from replay_web.early_workers import start_early; "
            "print(start_early(sys.argv[1:]), 'multiprocessing' in sys.modules); "
            "from multiprocessing import forkserver; "
            "print(forkserver._forkserver._forkserver_pid is not None)")
    quiet = subprocess.run([sys.executable, "-c", code, "matches"], capture_output=True,
                           text=True, check=True).stdout.split()
    assert quiet[:2] == ["False", "False"]
    started = subprocess.run([sys.executable, "-c", code, "verify", "--jobs", "2"],
                             capture_output=True, text=True, check=True).stdout.split()
    assert started == ["True", "True", "True"]
    assert start_early(["export"]) is False
