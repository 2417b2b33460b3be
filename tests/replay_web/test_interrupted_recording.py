"""An interrupted recording never leaves a match open forever (issue 9).

`simulate matches --store` is interrupted with SIGINT (Ctrl-C) and with SIGKILL at random
points, then run again to completion: the second run completes what the first left open (and
says so), every match ends, and `verify` passes with nothing in progress. A match scheduled in
its tournament and created are one transaction; a match scheduled by an older run that stopped
before creating it is created by the next run; a resumed match is byte for byte the match an
uninterrupted run records.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

import pytest

from domain.demo.matches import demo_set, play_demo
from domain.demo.seeds import demo_place
from domain.shuffle import Seed
from projections.store.app import MatchStore
from replay_web import cli_store
from tests.projections.conftest import Backend
from tests.verbale_cli import run

WRITER = "from replay_web.cli import main; main()"
SEED = "5eed000000000000000000000000c0de"
COUNT = 12
CTRL_C_SEED = "5eed000000000000000000000000c0e4"
"""A demo set whose third match plays two smazzate: a deal to stop before in its second half."""
RESUMED = re.compile(r"^resumed match (\S+) left open by an interrupted run$", re.MULTILINE)


def _events(backend: Backend) -> int:
    conn = backend.connect()
    try:
        return int(conn.execute(f"SELECT COUNT(*) FROM {backend.events_table}").fetchone()[0])
    except Exception:  # the writer has not created the tables yet, or holds a lock
        return -1
    finally:
        conn.close()


def _total_events(seed: str, count: int) -> int:
    """Every event the whole run records: its matches, and the two tournaments' events (each
    created and committed to its seeds, its matches scheduled, the rounds played revealed)."""
    demos = demo_set(Seed.from_hex(seed), count, tournaments=True)
    matches = sum(len(play_demo(demo, cli_store.START)[0]) for demo in demos)
    rounds = {(demo.setup.game, demo_place(index)[0]) for index, demo in enumerate(demos)
              if index < count - count % 4}   # the rounds whose four tables it fills
    signed = any(demo.incidents.ruling_after is not None for demo in demos)
    # ... and the demo arbiter's key, registered at the first ruling it signs.
    return matches + 2 + 2 + count + len(rounds) + (1 if signed else 0)


def _writer(backend: Backend) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-c", WRITER, "simulate", "matches", "--store", "--seed", SEED,
         "--count", str(COUNT), "--database", backend.url],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=os.getcwd())


def _interrupt(backend: Backend, sig: signal.Signals, after: int,
               pause: float) -> tuple[int, str]:
    """Start the writer, wait until the store holds `after` events, wait `pause` seconds more,
    and send `sig`; how the writer ended and what it printed."""
    writer = _writer(backend)
    deadline = time.monotonic() + 30
    try:
        while _events(backend) < after and writer.poll() is None:
            if time.monotonic() > deadline:
                break
            time.sleep(0.002)
        time.sleep(pause)
    finally:
        if writer.poll() is None:
            writer.send_signal(sig)
        out, err = writer.communicate(timeout=30)
    if sig is signal.SIGINT and writer.returncode not in (0, 130, -signal.SIGINT):
        pytest.fail(f"the writer ended with {writer.returncode}: {err.decode()}")
    if sig is signal.SIGINT and writer.returncode == 130:
        assert err.decode().strip() == "verbale: interrupted", err.decode()
    return writer.returncode, out.decode()


@pytest.mark.slow
def test_interrupted_runs_then_a_complete_one_leave_every_match_finished(
        backend: Backend) -> None:
    rng = random.Random(20261125)
    total = _total_events(SEED, COUNT)
    ended: list[int] = []
    printed: list[str] = []
    for sig in (signal.SIGINT, signal.SIGKILL, signal.SIGINT, signal.SIGKILL, signal.SIGINT):
        stored = max(_events(backend), 0)
        # Within the first half of what is left: the writer still has events to record when
        # the signal lands, however fast it runs (a point near the end let it finish first).
        after = stored + 1 + rng.randrange(max(1, (total - stored) // 2))
        code, out = _interrupt(backend, sig, after, rng.uniform(0, 0.02))
        ended.append(code)
        printed.append(out)
        code, out = run("verify", "--database", backend.url)
        assert code == 0, out
        assert "0 failed" in out.splitlines()[-1], out

    writer = _writer(backend)
    final, err = writer.communicate(timeout=60)
    assert writer.returncode == 0, err.decode()
    lines = final.decode().splitlines()
    printed.append(final.decode())
    assert sum(code != 0 for code in ended) >= 4, ended   # stopped before the end
    assert any(RESUMED.search(text) for text in printed[1:]), printed
    results = [line for line in lines if not RESUMED.match(line)]
    assert len(results) == COUNT, lines
    assert not any(re.search(r"in corso|in progress", line) for line in results), lines
    assert _events(backend) == total

    code, out = run("verify", "--database", backend.url)
    assert code == 0, out
    summary = out.splitlines()[-1]
    # The tournaments, the matches and the demo arbiter's keys (signed rulings).
    assert summary.startswith(f"{COUNT + 3} streams (2 tournaments, {COUNT} matches, "
                              f"1 arbiter's keys), "
                              f"{total} events: {COUNT} finished ok, 0 in progress, 0 failed")


class _Stop(KeyboardInterrupt):
    """Ctrl-C, at a chosen action."""


def _stopping_after(actions: int, monkeypatch: pytest.MonkeyPatch) -> None:
    real = MatchStore.execute
    done = [0]

    def execute(self: MatchStore, *args: object, **kwargs: object) -> object:
        done[0] += 1
        if done[0] > actions:
            raise _Stop()
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(MatchStore, "execute", execute)


def _heads(url: str) -> dict[UUID, tuple[int, str]]:
    store = MatchStore(url=url)
    try:
        return {stream: (version, head) for stream, version, head in store.heads()}
    finally:
        store.close()


def test_ctrl_c_mid_match_then_the_next_run_resumes_it_exactly(
        backend: Backend, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stopped in the middle of its third match, the run leaves complete actions only; the next
    run completes that match, says so, and the store is the one an uninterrupted run makes."""
    clean = f"sqlite:///{tmp_path}/clean.db"
    calls: list[tuple[UUID, str]] = []
    real = MatchStore.execute

    def counted(self: MatchStore, match: UUID, command: object, *args: object,
                **kwargs: object) -> object:
        calls.append((match, type(command).__name__))
        return real(self, match, command, *args, **kwargs)  # type: ignore[arg-type]

    with monkeypatch.context() as patched:
        patched.setattr(MatchStore, "execute", counted)
        code, out = run("simulate", "matches", "--store", "--count", "4", "--seed", CTRL_C_SEED,
                        "--database", clean)
    assert code == 0, out
    third = UUID(out.splitlines()[2].split()[0])
    in_third = [n for n, (match, _) in enumerate(calls) if match == third]
    # stopped just before a deal of its second half: committed to a seed not revealed yet
    stop = next(n for n in in_third[len(in_third) // 2:] if calls[n][1] == "DealSmazzata")

    with monkeypatch.context() as patched:
        _stopping_after(stop, patched)
        code, out = run("simulate", "matches", "--store", "--count", "4", "--seed", CTRL_C_SEED,
                        "--database", backend.url)
    assert code == 130 and out.strip().endswith("verbale: interrupted"), out
    code, out = run("verify", "--database", backend.url)
    assert code == 0, out
    assert "2 finished ok, 1 in progress, 0 failed" in out.splitlines()[-1], out
    assert "1 match in progress, its commitments not yet revealed:" in out
    assert re.search(r"^  \S+  cirulla 2p  in progress: smazzata \d+, phase 'deal'$", out,
                     re.MULTILINE), out
    assert re.search(r"^      commitment to the seed of smazzata \d+: [0-9a-f]{64}$", out,
                     re.MULTILINE), out
    assert re.search(r"^      commitment to the match seed: [0-9a-f]{64}$", out, re.MULTILINE)
    assert not re.search(r"^\s*(match )?seed", out, re.MULTILINE), out

    code, out = run("simulate", "matches", "--store", "--count", "4", "--seed", CTRL_C_SEED,
                    "--database", backend.url)
    assert code == 0, out
    assert RESUMED.findall(out) == [str(third)], out
    _, again = run("simulate", "matches", "--store", "--count", "4", "--seed", CTRL_C_SEED,
                   "--database", clean)
    assert [line for line in out.splitlines() if not RESUMED.match(line)] == again.splitlines()
    assert _heads(backend.url) == _heads(clean)
    code, out = run("verify", "--database", backend.url)
    assert code == 0 and "4 finished ok, 0 in progress, 0 failed" in out, out


def test_a_match_scheduled_but_never_created_fails_verify_and_the_next_run_creates_it(
        backend: Backend, tmp_path: Path) -> None:
    """What the two transactions of earlier versions left after a kill between them: the
    tournament names a match the store does not hold. verify fails the tournament, naming the
    match; the next run creates it (no TournamentRefused) and says so."""
    from domain.record.tournament import ScheduleMatch
    seed = Seed.from_hex(SEED)
    store = MatchStore(url=backend.url)
    try:
        tournaments = cli_store._tournaments(store, seed)
        first = demo_set(seed, 1, tournaments=True)[0]
        match = uuid5(NAMESPACE_URL, f"verbale:demo:{first.match_seed.hex}")
        tournament = tournaments[first.setup.game].stream
        store.schedule(tournament, ScheduleMatch(1, 1, str(match)), cli_store.START,
                       cli_store.simulator())
    finally:
        store.close()
    code, out = run("verify", "--database", backend.url)
    assert code == 1, out
    assert (f"tournament {tournament} stream [tournament] round 1, table 1: the scheduled "
            f"match {match} is not in the store") in out, out

    code, out = run("simulate", "matches", "--store", "--count", "1", "--seed", SEED,
                    "--database", backend.url)
    assert code == 0, out
    assert RESUMED.findall(out) == [str(match)], out
    code, out = run("verify", "--database", backend.url)
    assert code == 0 and "1 finished ok, 0 in progress, 0 failed" in out, out


def test_simulate_one_match_interrupted_then_resumed(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    database = f"sqlite:///{tmp_path}/v.db"
    args = ("simulate", "briscola", "--seed", SEED, "--players", "2", "--format", "3smazzate",
            "--store", "--database", database)
    with monkeypatch.context() as patched:
        _stopping_after(20, patched)
        code, out = run(*args)
    assert code == 130, out
    code, out = run(*args)
    assert code == 0, out
    match = RESUMED.search(out)
    assert match is not None, out
    code, out = run(*args)
    assert code == 0 and out.splitlines()[-1] == f"already recorded as match {match.group(1)}"
    code, out = run("verify", "--match", match.group(1), "--database", database)
    assert code == 0 and "1 finished ok, 0 in progress, 0 failed" in out, out


def test_a_half_recorded_transcription_is_completed_and_a_new_one_is_one_transaction(
        backend: Backend, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The demo's transcribed match is one import: all of it in one transaction. One left half
    recorded, an action per transaction (as earlier versions did), is completed from where it
    stopped, into the same bytes."""
    from domain.demo.transcribed import IMPORTER, SOURCE, transcribe
    from domain.record.envelope import importer
    seed = Seed.from_hex(SEED)
    stream = uuid5(NAMESPACE_URL, f"verbale:demo:{seed.hex}:transcribed")
    clean = MatchStore(url=f"sqlite:///{tmp_path}/clean.db")
    writes: list[int] = []
    real = MatchStore._insert

    def insert(self: MatchStore, rows: Any) -> None:
        writes.append(len(rows))
        real(self, rows)

    try:
        with monkeypatch.context() as patched:
            patched.setattr(MatchStore, "_insert", insert)
            (line,) = cli_store._record_transcribed(clean, seed)
        assert len(writes) == 1 and writes[0] == clean.load(stream).version
        assert cli_store._record_transcribed(clean, seed) == [line]   # nothing more to do
        expected = clean.chained.select_head(stream)
    finally:
        clean.close()

    store = MatchStore(url=backend.url)
    try:
        loaded = store.load(stream)
        for number, (command, at) in enumerate(transcribe().commands[:9], start=1):
            loaded = store.execute(stream, command, at, importer(IMPORTER, SOURCE, number),
                                   loaded)
        lines = cli_store._record_transcribed(store, seed)
        assert lines == [f"resumed match {stream} left open by an interrupted run", line]
        assert store.chained.select_head(stream) == expected
    finally:
        store.close()


def test_ctrl_c_inside_the_schedule_and_create_transaction_stores_neither(
        backend: Backend, monkeypatch: pytest.MonkeyPatch) -> None:
    """KeyboardInterrupt after the rows are written, before the transaction commits: neither
    the tournament's MatchScheduled nor the match's MatchCreated is stored; a retry stores
    both, in one transaction."""
    from dataclasses import replace

    from projections.store.recorders import ChainedSQLiteRecorder
    from projections.store.recorders_postgres import ChainedPostgresRecorder
    seed = Seed.from_hex(SEED)
    demo = demo_set(seed, 1, tournaments=True)[0]
    match = uuid5(NAMESPACE_URL, f"verbale:demo:{demo.match_seed.hex}")
    store = MatchStore(url=backend.url)
    try:
        tournament = cli_store._tournaments(store, seed)[demo.setup.game]
        setup = replace(demo.setup, tournament=str(tournament.stream), round=1, table=1)

        def interrupted(*args: object, **kwargs: object) -> None:
            raise KeyboardInterrupt

        real_rows = ChainedSQLiteRecorder._insert_rows

        def rows_then_interrupted(self: Any, *args: Any, **kwargs: Any) -> Any:
            real_rows(self, *args, **kwargs)
            raise KeyboardInterrupt

        with monkeypatch.context() as patched:
            patched.setattr(ChainedSQLiteRecorder, "_insert_rows", rows_then_interrupted)
            patched.setattr(ChainedPostgresRecorder, "_advance_heads", interrupted)
            with pytest.raises(KeyboardInterrupt):
                store.schedule_and_create(tournament.stream, match, setup, cli_store.START,
                                          cli_store.simulator(), tournament)
        assert store.load(match).version == 0
        assert store.load_tournament(tournament.stream).version == tournament.version
        after, created = store.schedule_and_create(tournament.stream, match, setup,
                                                   cli_store.START, cli_store.simulator())
        assert (after.version, created.version) == (tournament.version + 1, 1)
        assert store.load_tournament(tournament.stream).state.places[(1, 1)] == str(match)
    finally:
        store.close()
