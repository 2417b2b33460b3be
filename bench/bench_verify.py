"""Verify at scale (docs/benchmarks.md, section "Verify at scale (issue 13)").

Run: .venv/bin/python -m bench.bench_verify [--matches N] [--runs R] [--jobs J]
     [--skip-postgres] [--profile]

A store of N bot matches of both games recorded by `verbale simulate matches --store` (its
tournaments, the arbiter's keys, signed rulings), built once and cached: the SQLite file
bench/.data/verify-N.db, and on PostgreSQL (127.0.0.1:5432, database test) the schema
bench_verify_N, filled from that file's rows. On each,
alternating run by run:
  (a) raw decode: every stream read through the store's own read path and every event decoded
      (mapper, upcasters, to_domain, timestamp): no hashing, no rules;
  (b) verify of the whole store, as `verbale verify` runs it (--jobs 1, in this process): the
      lean path (projections/store/verify_lean.py), the exact path for what it does not confirm;
  (c) the same without the lean path (verify_fast.py's `without_lean`: verify as it was
      before it);
  (d) the same without any fast path (verify_fast.py's `exact`);
  (e) verify --jobs J (worker processes), when J > 1.
Medians of R runs: events per wall-clock second, and per CPU second of this process (events per
second per core, what a shared, loaded machine still measures); the ratio of verify to raw
decode per CPU second, and to (c) and (d); for --jobs, the wall-clock rate and its speed-up
over --jobs 1. Also how many streams the lean path confirms (the others: the exact path).
--profile prints where verify spends its time (cProfile).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import psycopg
from eventsourcing.persistence import StoredEvent

from bench.bench_store import BATCH, PG_DSN
from bench.machine import machine
from domain.record.catalog import CATALOG
from domain.record.clock import parse_stamp
from projections.store.app import MatchStore
from projections.store.verify import lean_verdict, verify_store
from projections.store.verify_fast import exact, without_lean
from projections.store.verify_jobs import verify_parallel
from projections.store.verify_rows import stream_rows

DATA = Path(__file__).parent / ".data"
SEED = "5eed0000000000000000000000000300"


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
    subprocess.run([str(Path(sys.executable).parent / "verbale"), "simulate", "matches",
                    "--store", "--count", str(matches), "--seed", SEED, "--database",
                    _sqlite_url(matches)], check=True, stdout=subprocess.DEVNULL)


def build_postgres(matches: int) -> None:
    """The schema bench_verify_N, holding the same rows as the SQLite file."""
    expected = _events(_sqlite_url(matches))
    if _events(_pg_url(matches)) == expected:
        return
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


def raw_decode(store: MatchStore) -> int:
    """Every stored event read and decoded by the store's read path: the baseline."""
    count = 0
    for stream in store.streams():
        for fact in store.facts(stream):
            fact.to_domain()
            parse_stamp(fact.timestamp)
            count += 1
    return count


def verify_once(store: MatchStore) -> int:
    verdicts = verify_store(store)
    assert all(v.ok for v in verdicts), "the benchmark's store must verify"
    return sum(v.events for v in verdicts)


def verify_exact(store: MatchStore) -> int:
    """verify without its fast path (projections/store/verify_fast.py)."""
    with exact():
        return verify_once(store)


def verify_before(store: MatchStore) -> int:
    """verify without its lean path: as it ran before it."""
    with without_lean():
        return verify_once(store)


def lean_confirmed(store: MatchStore) -> tuple[int, int]:
    """How many streams the lean path confirms, of how many."""
    heads = {h[0]: h for h in store.heads()}
    return sum(lean_verdict(store, s, stream_rows(store, s), h, None) is not None
               for s, h in heads.items()), len(heads)


def timed(action: Callable[[], int]) -> tuple[int, float, float]:
    """The events, the wall-clock seconds and this process's CPU seconds of `action`."""
    start, cpu = time.perf_counter(), time.process_time()
    count = action()
    return count, time.perf_counter() - start, time.process_time() - cpu


def bench_place(name: str, url: str, runs: int, jobs: int) -> dict[str, float]:
    store = MatchStore(url=url, catalog=CATALOG, read_only=True)
    cases: dict[str, Callable[[], int]] = {"decode": lambda: raw_decode(store),
                                           "verify": lambda: verify_once(store),
                                           "before": lambda: verify_before(store),
                                           "exact": lambda: verify_exact(store)}
    if jobs > 1:
        cases["jobs"] = lambda: sum(v.events for v in verify_parallel(url, jobs))
    rates: dict[str, list[float]] = {case: [] for case in
                                     [*cases, "decode_cpu", "verify_cpu", "before_cpu",
                                      "exact_cpu"]}
    ratios: list[float] = []
    events = 0
    try:
        for run in range(runs):
            for case, action in cases.items():   # alternating: a passing load hits each alike
                events, seconds, cpu = timed(action)
                rates[case].append(events / seconds)
                if case != "jobs":
                    rates[f"{case}_cpu"].append(events / cpu)
            ratios.append(rates["verify_cpu"][-1] / rates["decode_cpu"][-1])
            print(f"  {name} run {run + 1}: " + ", ".join(
                f"{case} {r[-1]:,.0f} ev/s" for case, r in rates.items()), flush=True)
    finally:
        store.close()
    found = {case: statistics.median(r) for case, r in rates.items()}
    found["ratio"] = statistics.median(ratios)
    found["fast"] = statistics.median(v / e for v, e in zip(rates["verify_cpu"],
                                                            rates["exact_cpu"], strict=True))
    found["lean"] = statistics.median(v / e for v, e in zip(rates["verify_cpu"],
                                                            rates["before_cpu"], strict=True))
    if "jobs" in rates:
        found["jobs_x"] = statistics.median(j / v for j, v in zip(rates["jobs"], rates["verify"],
                                                                   strict=True))
    found["events"] = float(events)
    confirmed, streams = lean_confirmed(MatchStore(url=url, catalog=CATALOG, read_only=True))
    found["confirmed"], found["streams"] = float(confirmed), float(streams)
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


def report(name: str, r: dict[str, float], jobs: int) -> None:
    print(f"\n{name}: {int(r['events']):,} events, median of the runs")
    print(f"  raw decode          : {r['decode']:>9,.0f} ev/s  (per CPU second "
          f"{r['decode_cpu']:,.0f})")
    print(f"  verify --jobs 1     : {r['verify']:>9,.0f} ev/s  (per CPU second "
          f"{r['verify_cpu']:,.0f}); verify / raw decode, CPU {r['ratio']:.1%}; the lean path "
          f"confirmed {int(r['confirmed'])} of {int(r['streams'])} streams")
    print(f"  verify, no lean path: {r['before']:>9,.0f} ev/s  (per CPU second "
          f"{r['before_cpu']:,.0f}); lean path x{r['lean']:.2f} (median of the runs' ratios)")
    print(f"  verify, no fast path: {r['exact']:>9,.0f} ev/s  (per CPU second "
          f"{r['exact_cpu']:,.0f}); verify x{r['fast']:.2f} of it")
    if "jobs" in r:
        print(f"  verify --jobs {jobs:<5} : {r['jobs']:>9,.0f} ev/s  (x{r['jobs_x']:.2f} of "
              f"--jobs 1 in wall clock, median of the runs' ratios)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=300, help="bot matches in the store")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2, help="worker processes of case (c)")
    parser.add_argument("--skip-postgres", action="store_true")
    parser.add_argument("--profile", action="store_true", help="profile verify (SQLite)")
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
    for name, url in places:
        report(name, bench_place(name, url, args.runs, args.jobs), args.jobs)


if __name__ == "__main__":
    main()
