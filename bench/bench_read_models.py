"""Read-model benchmarks (docs/benchmarks.md, section "Read models", issue 10).

Run: .venv/bin/python -m bench.bench_read_models [--sizes 10000,100000,1000000] [--runs N]
     [--matches 100000] [--skip-postgres] [--quick]

1. Rebuild against the raw log: on stores of 10,000, 100,000 and 1,000,000 events (real bot
   matches, bench/read_models_data.py; cached under bench/.data/), events per second folded into
   the read models by `rebuild` (drop the tables, fold the whole notification log, 1,000
   notifications a transaction), against reading and decoding the same log alone in the same
   batches (`select_notifications`, then `to_domain_event(...).to_domain()` of every event),
   taking turns run by run; medians, their ratio, and each size's rate against the smallest's
   (linear: the rate holds). SQLite (the cached file); PostgreSQL (the same rows copied into a
   scratch schema) for the sizes up to --pg-max.
2. The match list with 100,000 matches in the rm_ tables (copied from a folded store, see
   read_models_data.py): `match_page` for the viewer's queries, median of many runs each, on
   SQLite (a cached file) and PostgreSQL (a scratch schema, analysed as autovacuum would).
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import time
import uuid
from collections.abc import Callable, Sequence
from datetime import date, timedelta
from pathlib import Path
from typing import Any, cast

import psycopg
from eventsourcing.persistence import StoredEvent
from sqlalchemy import Engine, text

from bench.machine import machine
from bench.read_models_data import (
    DATA,
    STORE_CODE,
    code_key,
    copy_rows,
    ensure_stores,
    load_rows,
    sqlite_url,
    store_file,
)
from domain.record.catalog import CATALOG
from projections.read_models.engine import read_model_engine
from projections.read_models.project import BATCH, catch_up, rebuild
from projections.read_models.queries import MatchQuery, match_page
from projections.store.app import MatchStore
from projections.store.facts import StoredFact

PG_DSN = "host=127.0.0.1 port=5432 dbname=test user=postgres connect_timeout=3"
SIZES = (10_000, 100_000, 1_000_000)


def log(line: str) -> None:
    print(line, flush=True)


def raw_read(store: MatchStore, batch: int = BATCH) -> int:
    """Read and decode every event of the log, in rebuild's batches; how many."""
    start: int | None = None
    count = 0
    while True:
        notifications = store.recorder.select_notifications(start, batch,
                                                            inclusive_of_start=False)
        if not notifications:
            return count
        for notification in notifications:
            cast(StoredFact, store.mapper.to_domain_event(notification)).to_domain()
        count += len(notifications)
        start = notifications[-1].id


def timed(action: Callable[[], int]) -> tuple[int, float]:
    start = time.perf_counter()
    count = action()
    return count, time.perf_counter() - start


def rates(store: MatchStore, engine: Engine, runs: int) -> dict[str, list[float]]:
    """Raw read and rebuild rates (events/s), run by run, taking turns (after one warm-up
    raw read); the rebuild counts the notifications it folded, which must be every event."""
    total = raw_read(store)
    raw: list[float] = []
    built: list[float] = []
    for run in range(runs):
        order = ((raw, lambda: raw_read(store)), (built, lambda: rebuild(store, engine)))
        for into, action in (order if run % 2 == 0 else order[::-1]):
            count, seconds = timed(action)
            if count != total:
                raise RuntimeError(f"{count} events read or folded of {total}")
            into.append(count / seconds)
    return {"raw": raw, "rebuild": built, "events": [float(total)]}


def pg_url(schema: str) -> str:
    return f"postgresql://postgres@127.0.0.1:5432/test?schema={schema}"


class Scratch:
    """A scratch PostgreSQL schema, dropped on exit."""

    def __init__(self) -> None:
        self.schema = f"bench_rm_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(PG_DSN, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {self.schema}")
        self.url = pg_url(self.schema)

    def __enter__(self) -> Scratch:
        return self

    def __exit__(self, *_exc: object) -> None:
        with psycopg.connect(PG_DSN, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {self.schema} CASCADE")


def copy_log(source: MatchStore, target: MatchStore) -> None:
    """Every stored row of `source`, in its log's order, into `target` (1,000 a transaction)."""
    start: int | None = None
    while True:
        rows = source.recorder.select_notifications(start, BATCH, inclusive_of_start=False)
        if not rows:
            return
        target._insert([StoredEvent(r.originator_id, r.originator_version, r.topic, r.state)
                        for r in rows])
        start = rows[-1].id


def bench_rebuild(files: dict[int, Path], runs: int, pg_max: int,
                  postgres: bool) -> list[tuple[str, int, dict[str, list[float]]]]:
    results = []
    for size, path in sorted(files.items()):
        store = MatchStore(url=sqlite_url(path), catalog=CATALOG)
        engine = read_model_engine(sqlite_url(path))
        try:
            log(f"SQLite, {size:,} events ...")
            results.append(("SQLite", size, rates(store, engine, _runs(size, runs))))
            if postgres and size <= pg_max:
                log(f"PostgreSQL, {size:,} events ...")
                results.append(("PostgreSQL", size, _pg_rates(store, _runs(size, runs))))
        finally:
            engine.dispose()
            store.close()
    return results


def _runs(size: int, runs: int) -> int:
    return max(3, runs // 2) if size >= 1_000_000 else runs


def _pg_rates(source: MatchStore, runs: int) -> dict[str, list[float]]:
    with Scratch() as scratch:
        store = MatchStore(url=scratch.url, catalog=CATALOG)
        engine = read_model_engine(scratch.url)
        try:
            copy_log(source, store)
            return rates(store, engine, runs)
        finally:
            engine.dispose()
            store.close()


def report_rebuild(results: Sequence[tuple[str, int, dict[str, list[float]]]]) -> None:
    log("\nrebuild against reading and decoding the raw log (events/s, median of the runs):")
    log(f"  {'database':<10} {'events':>10} {'raw read':>10} {'rebuild':>10} {'ratio':>6}  "
        f"{'rate / smallest':>15}  runs raw | rebuild")
    first: dict[str, float] = {}
    for kind, _size, r in results:
        raw, built = statistics.median(r["raw"]), statistics.median(r["rebuild"])
        first.setdefault(kind, built)
        log(f"  {kind:<10} {int(r['events'][0]):>10,} {raw:>10,.0f} {built:>10,.0f} "
            f"{built / raw:>6.1%}  {built / first[kind]:>15.2f}  {_span(r['raw'])} | "
            f"{_span(r['rebuild'])}")


def _span(values: Sequence[float]) -> str:
    return f"{min(values):,.0f}...{max(values):,.0f}"


def queries(engine: Engine) -> list[tuple[str, MatchQuery]]:
    """The viewer's queries, their values taken from the stored rows."""
    with engine.connect() as conn:
        player = conn.execute(text("SELECT name FROM rm_giocatori ORDER BY name LIMIT 1 "
                                   "OFFSET 500")).scalar_one()
        tournament = conn.execute(text("SELECT name FROM rm_tornei ORDER BY created DESC "
                                       "LIMIT 1 OFFSET 200")).scalar_one()
        day = conn.execute(text("SELECT day FROM rm_partite ORDER BY day LIMIT 1 OFFSET "
                                "50000")).scalar_one()
    until = (date.fromisoformat(day) + timedelta(days=6)).isoformat()
    return [
        ("first page, no filter", MatchQuery()),
        ("game", MatchQuery(game="briscola")),
        (f"player ({player})", MatchQuery(player=player)),
        (f"tournament ({tournament})", MatchQuery(tournament=tournament)),
        (f"days {day}..{until}", MatchQuery(since=day, until=until)),
        ("how it ended (timeout)", MatchQuery(how="timeout")),
        ("game + days + ended", MatchQuery(game="cirulla", since=day, until=until,
                                           state="ended")),
        ("page 500, no filter", MatchQuery(page=500)),
        ("page 50, game", MatchQuery(game="cirulla", page=50)),
    ]


def time_queries(engine: Engine, runs: int) -> list[tuple[str, str, list[float]]]:
    """Each query's times; with what it found ("> 10,000": a filtered count stops at the cap,
    queries.COUNT_CAP)."""
    out = []
    for name, query in queries(engine):
        match_page(engine, query)   # warm: the pool's connection, the statement caches
        times = []
        found = ""
        for _ in range(runs):
            start = time.perf_counter()
            page = match_page(engine, query)
            times.append((time.perf_counter() - start) * 1000)
            found = f"{page.total:,}" if page.exact else f"> {page.total:,}"
        out.append((name, found, times))
    return out


def match_list_sqlite(matches: int, runs: int) -> list[tuple[str, str, list[float]]]:
    """The match list on a cached SQLite file of `matches` matches' rm_ rows."""
    key = code_key(*STORE_CODE, "projections/read_models/schema.py", "bench/read_models_data.py")
    path = DATA / f"matchlist-{matches}-{key}.db"
    if not path.exists():
        for stale in DATA.glob(f"matchlist-{matches}-*.db"):
            stale.unlink()
        rows = _copied(matches)
        partial = path.with_suffix(".partial")
        partial.unlink(missing_ok=True)
        engine = read_model_engine(sqlite_url(partial))
        load_rows(engine, rows)
        engine.dispose()
        partial.replace(path)
    engine = read_model_engine(sqlite_url(path))
    try:
        return time_queries(engine, runs)
    finally:
        engine.dispose()


def match_list_postgres(matches: int, runs: int) -> list[tuple[str, str, list[float]]]:
    with Scratch() as scratch:
        engine = read_model_engine(scratch.url)
        try:
            load_rows(engine, _copied(matches))
            _vacuum(scratch.schema)
            return time_queries(engine, runs)
        finally:
            engine.dispose()


def _vacuum(schema: str) -> None:
    """VACUUM ANALYZE the schema's tables, as autovacuum does after a bulk insert (PostgreSQL
    13 on): statistics for the planner, and the visibility map for index-only scans."""
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        tables = conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = %s",
                              (schema,)).fetchall()
        for (table,) in tables:
            conn.execute(f"VACUUM ANALYZE {schema}.{table}")


def _copied(matches: int) -> dict[str, list[dict[str, Any]]]:
    """The rm_ rows of the 100,000-event store, folded, copied up to `matches` matches."""
    path = ensure_stores([100_000], log)[100_000]
    store = MatchStore(url=sqlite_url(path), catalog=CATALOG)
    engine = read_model_engine(sqlite_url(path))
    try:
        catch_up(store, engine)
        return copy_rows(engine, matches)
    finally:
        engine.dispose()
        store.close()


def report_list(kind: str, results: Sequence[tuple[str, str, list[float]]]) -> None:
    log(f"\n{kind}: match_page (20 rows), ms, median | p90 | slowest of the runs:")
    for name, total, times in results:
        p90 = sorted(times)[int(len(times) * 0.9) - 1]
        log(f"  {name:<46} {total:>8} found  {statistics.median(times):7.2f} | "
            f"{p90:7.2f} | {max(times):7.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(str(s) for s in SIZES),
                        help="store sizes in events, comma-separated")
    parser.add_argument("--quick", action="store_true", help="sizes 10,000 and 100,000 only")
    parser.add_argument("--runs", type=int, default=5, help="runs per size (half at 1M)")
    parser.add_argument("--pg-max", type=int, default=100_000,
                        help="the largest size also measured on PostgreSQL")
    parser.add_argument("--matches", type=int, default=100_000, help="matches in the list")
    parser.add_argument("--list-runs", type=int, default=30, help="runs per list query")
    parser.add_argument("--skip-postgres", action="store_true")
    parser.add_argument("--skip-rebuild", action="store_true")
    parser.add_argument("--skip-list", action="store_true")
    args = parser.parse_args()
    sizes = [10_000, 100_000] if args.quick else [int(s) for s in args.sizes.split(",")]
    log(f"machine: {machine()}, SQLite {sqlite3.sqlite_version}")
    if not args.skip_rebuild:
        log(f"stores: {', '.join(store_file(s).name for s in sizes)} (bench/.data/)")
        files = ensure_stores(sizes, log)
        report_rebuild(bench_rebuild(files, args.runs, args.pg_max, not args.skip_postgres))
    if not args.skip_list:
        report_list("SQLite", match_list_sqlite(args.matches, args.list_runs))
        if not args.skip_postgres:
            report_list("PostgreSQL", match_list_postgres(args.matches, args.list_runs))


if __name__ == "__main__":
    main()
