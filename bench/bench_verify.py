"""Verify at scale (docs/benchmarks.md, section "Verify at scale (issue 13)").

Its last measurement: docs/benchmarks.md, "Verify after msgspec (issue 24)".

Run: .venv/bin/python -m bench.bench_verify [--matches N] [--runs R] [--jobs J]
     [--skip-postgres] [--profile] [--pieces]

A store of N bot matches of both games recorded by `verbale simulate matches --store` (its
tournaments, the arbiter's keys, signed rulings), built once and cached: the SQLite file
bench/.data/verify-N.db, and on PostgreSQL (127.0.0.1:5432, database test) the schema
bench_verify_N, filled from that file's rows. On each, alternating run by run:
  (a) json.loads: the stored bytes of every event (read once, before the runs) parsed by a
      plain `json.loads`, the floor any check of those rows pays;
  (b) verify of the whole store in this process (`verify_store`, what `verbale verify --jobs 1`
      runs): its CPU seconds against (a)'s, the issue's target being at most 3x; and the same
      with VERBALE_EXACT=1 (every row by the exact route, none read whole);
  (c) the command itself, `verbale verify --jobs 1` and `--jobs J`, each a fresh process,
      wall clock: the speed-up of J processes over one;
  (d) `verify_parallel` with J processes (this one and J - 1 workers) in this process, wall
      clock, and the CPU seconds this process spent: how the work was split.
Medians of R runs; the ratios are the medians of the runs' own ratios.
--profile prints where verify spends its time (cProfile). --pieces prints what each piece of
verify's reading costs against json.loads, without a profiler: the best of R runs of each,
taken in turn (reading the rows, `read_stream`, `signed_rulings`, `linked`; the rules' replay
is the rest).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from eventsourcing.persistence import StoredEvent

from bench.machine import machine
from domain.record.catalog import CATALOG
from projections.store.app import MatchStore
from projections.store.signatures import KeyringCache
from projections.verify.jobs import verify_parallel
from projections.verify.links import linked
from projections.verify.rules import audited, signed_rulings
from projections.verify.streams import verify_store, verify_stream
from projections.verify.structure import read_stream
from projections.verify.whole import EXACT

DATA = Path(__file__).parent / ".data"
SEED = "5eed0000000000000000000000000300"
VERBALE = str(Path(sys.executable).parent / "verbale")


def _sqlite_url(matches: int) -> str:
    return f"sqlite:///{DATA / f'verify-{matches}.db'}"


def _pg_url(matches: int) -> str:
    return f"postgresql://postgres@127.0.0.1:5432/test?schema=bench_verify_{matches}"


def _events(url: str) -> int | None:
    """The events of a cached store, None when there is none (or it cannot be read)."""
    try:
        store = MatchStore(url=url, catalog=CATALOG, read_only=True)
    except Exception:   # no cached store yet
        return None
    try:
        return sum(h[1] for h in store.heads()) or None
    finally:
        store.close()


def build_sqlite(matches: int) -> None:
    """`verbale simulate matches --store`: tournaments, signed rulings, the arbiter's keys."""
    if _events(_sqlite_url(matches)) is not None:
        return
    DATA.mkdir(exist_ok=True)
    print(f"building the SQLite store of {matches} matches (verbale simulate)", flush=True)
    subprocess.run([VERBALE, "simulate", "matches", "--store", "--count", str(matches),
                    "--seed", SEED, "--database", _sqlite_url(matches)],
                   check=True, stdout=subprocess.DEVNULL)


def build_postgres(matches: int) -> None:
    """The schema bench_verify_N, holding the same rows as the SQLite file."""
    expected = _events(_sqlite_url(matches))
    if _events(_pg_url(matches)) == expected:
        return
    import psycopg  # here: --jobs workers import this module again (forkserver, -m)

    from bench.bench_store import BATCH, PG_DSN
    print(f"copying the store of {matches} matches to PostgreSQL", flush=True)
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS bench_verify_{matches} CASCADE")
        conn.execute(f"CREATE SCHEMA bench_verify_{matches}")
    source = MatchStore(url=_sqlite_url(matches), catalog=CATALOG, read_only=True)
    target = MatchStore(url=_pg_url(matches), catalog=CATALOG)
    try:
        rows: list[StoredEvent] = []
        for stream in source.streams():
            rows.extend(source.stored(stream))
            if len(rows) >= BATCH:
                target._insert(rows)
                rows = []
        if rows:
            target._insert(rows)
    finally:
        source.close()
        target.close()


def stored_bytes(store: MatchStore) -> list[bytes]:
    """The stored bytes of every event, read once."""
    return [row.state for stream in store.streams() for row in store.stored(stream)]


def loads(states: list[bytes]) -> int:
    for state in states:
        json.loads(state)
    return len(states)


def verify_once(store: MatchStore) -> int:
    verdicts = verify_store(store)
    assert all(v.ok for v in verdicts), "the benchmark's store must verify"
    return sum(v.events for v in verdicts)


def verify_exact(store: MatchStore) -> int:
    """verify with VERBALE_EXACT=1: every row by the exact route (parsed as JSON, checked,
    decoded through the mapper), not read whole (projections/verify/whole.py)."""
    os.environ[EXACT] = "1"
    try:
        return verify_once(store)
    finally:
        del os.environ[EXACT]


def parallel_once(url: str, store: MatchStore, jobs: int) -> int:
    verdicts = verify_parallel(url, jobs, store=store)
    assert all(v.ok for v in verdicts), "the benchmark's store must verify"
    return sum(v.events for v in verdicts)


def command(url: str, jobs: int) -> int:
    """`verbale verify --jobs J`, a fresh process (its exit code must be 0)."""
    subprocess.run([VERBALE, "verify", "--database", url, "--jobs", str(jobs)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return 0


def timed(action: Callable[[], int]) -> tuple[int, float, float]:
    """The result, the wall-clock seconds and this process's CPU seconds of `action`."""
    start, cpu = time.perf_counter(), time.process_time()
    count = action()
    return count, time.perf_counter() - start, time.process_time() - cpu


def bench_place(name: str, url: str, runs: int, jobs: int) -> dict[str, float]:
    store = MatchStore(url=url, catalog=CATALOG, read_only=True)
    try:
        states = stored_bytes(store)
        cases: dict[str, Callable[[], int]] = {
            "loads": lambda: loads(states), "verify": lambda: verify_once(store),
            "exact": lambda: verify_exact(store),
            "jobs1": lambda: command(url, 1), f"jobs{jobs}": lambda: command(url, jobs),
            "parallel": lambda: parallel_once(url, store, jobs)}
        cpu: dict[str, list[float]] = {case: [] for case in cases}
        wall: dict[str, list[float]] = {case: [] for case in cases}
        for run in range(runs):
            for case, action in cases.items():   # alternating: a passing load hits each alike
                _, seconds, used = timed(action)
                wall[case].append(seconds)
                cpu[case].append(used)
            print(f"  {name} run {run + 1}: " + ", ".join(
                f"{case} {wall[case][-1]:.2f} s wall, {cpu[case][-1]:.2f} s CPU"
                for case in ("loads", "verify", "exact")) + ", " + ", ".join(
                f"verbale verify --jobs {case[4:]} {wall[case][-1]:.2f} s"
                for case in cases if case.startswith("jobs")) + f", verify_parallel "
                f"{wall['parallel'][-1]:.2f} s wall, {cpu['parallel'][-1]:.2f} s CPU here",
                flush=True)
    finally:
        store.close()
    found = {f"{case}_{kind}": statistics.median(values[case])
             for kind, values in (("cpu", cpu), ("wall", wall)) for case in cases}
    found["ratio"] = statistics.median(v / j for v, j in zip(cpu["verify"], cpu["loads"],
                                                              strict=True))
    found["exact_ratio"] = statistics.median(v / j for v, j in zip(cpu["exact"], cpu["loads"],
                                                                    strict=True))
    found["speedup"] = statistics.median(one / many for one, many in zip(
        wall["jobs1"], wall[f"jobs{jobs}"], strict=True))
    found["events"] = float(len(states))
    return found


def profile(url: str, top: int = 25) -> None:
    store = MatchStore(url=url, catalog=CATALOG, read_only=True)
    try:
        profiler = cProfile.Profile()
        profiler.runcall(verify_store, store)
    finally:
        store.close()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out).strip_dirs()
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    print(out.getvalue())


def pieces(name: str, url: str, runs: int) -> None:
    """CPU of each piece of verify's reading over the whole store, best of `runs`."""
    store = MatchStore(url=url, catalog=CATALOG, read_only=True)
    try:
        heads = {h[0]: h for h in store.heads()}
        streams = sorted(set(store.streams()) | set(heads), key=str)
        rows = {s: store.stored(s) for s in streams}
        states = [row.state for s in streams for row in rows[s]]
        reads = {s: read_stream(store, s, rows[s], heads.get(s)) for s in streams}
        keyrings = KeyringCache(store)
        verdicts = {s: verify_stream(store, s, heads.get(s), keyrings) for s in streams}
        audits = {s: audited(store, s, reads[s].decoded) for s in streams
                  if not reads[s].problems and reads[s].broken is None and reads[s].decoded}
        cases: dict[str, Callable[[], object]] = {
            "json.loads": lambda: loads(states),
            "rows (store.stored)": lambda: [store.stored(s) for s in streams],
            "read_stream": lambda: [read_stream(store, s, rows[s], heads.get(s))
                                    for s in streams],
            "signed_rulings": lambda: [signed_rulings(v, rows[s], reads[s].decoded, keyrings)
                                       for s, v in audits.items()
                                       if v.category in ("match", "tarocchi")],
            "linked": lambda: linked(store, list(verdicts.values()))}
        best = dict.fromkeys(cases, float("inf"))
        for _ in range(runs):
            for case, action in cases.items():
                start = time.process_time()
                action()
                best[case] = min(best[case], time.process_time() - start)
    finally:
        store.close()
    print(f"\n{name}: {len(states):,} events, the best of {runs} runs, CPU")
    floor = best["json.loads"]
    for case, seconds in best.items():
        print(f"  {case:20s} {seconds:6.3f} s {seconds / len(states) * 1e6:6.2f} us a row "
              f"x{seconds / floor:.2f} of json.loads")
    read = sum(best.values()) - floor
    print(f"  {'the reading':20s} {read:6.3f} s {read / len(states) * 1e6:6.2f} us a row "
          f"x{read / floor:.2f} of json.loads")


def report(name: str, r: dict[str, float], jobs: int) -> None:
    events = r["events"]
    print(f"\n{name}: {int(events):,} events, medians of the runs")
    print(f"  json.loads of the rows : {r['loads_cpu']:6.2f} s CPU "
          f"({events / r['loads_cpu']:,.0f} ev per CPU s)")
    print(f"  verify (this process)  : {r['verify_cpu']:6.2f} s CPU "
          f"({events / r['verify_cpu']:,.0f} ev per CPU s): x{r['ratio']:.2f} of json.loads")
    print(f"  verify, VERBALE_EXACT=1: {r['exact_cpu']:6.2f} s CPU "
          f"({events / r['exact_cpu']:,.0f} ev per CPU s): x{r['exact_ratio']:.2f} of json.loads")
    print(f"  verbale verify --jobs 1: {r['jobs1_wall']:6.2f} s wall")
    print(f"  verbale verify --jobs {jobs}: {r[f'jobs{jobs}_wall']:6.2f} s wall "
          f"(x{r['speedup']:.2f} of --jobs 1)")
    print(f"  verify_parallel, {jobs} processes: {r['parallel_wall']:6.2f} s wall "
          f"(x{r['verify_wall'] / r['parallel_wall']:.2f} of verify in this process), "
          f"{r['parallel_cpu']:.2f} s CPU in this process "
          f"({r['parallel_cpu'] / r['verify_cpu']:.0%} of verify's)")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--matches", type=int, default=300, help="bot matches in the store")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2, help="worker processes of case (c)")
    parser.add_argument("--skip-postgres", action="store_true")
    parser.add_argument("--profile", action="store_true", help="profile verify (SQLite)")
    parser.add_argument("--pieces", action="store_true", help="the CPU of each piece of the "
                        "reading against json.loads")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    build_sqlite(args.matches)
    places = [("SQLite", _sqlite_url(args.matches))]
    if not args.skip_postgres:
        build_postgres(args.matches)
        places.append(("PostgreSQL", _pg_url(args.matches)))
    if args.profile:
        profile(places[0][1])
        return
    if args.pieces:
        for name, url in places:
            pieces(name, url, args.runs)
        return
    for name, url in places:
        report(name, bench_place(name, url, args.runs, args.jobs), args.jobs)


if __name__ == "__main__":
    main()
