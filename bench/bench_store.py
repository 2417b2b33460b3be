"""Event store benchmarks (docs/benchmarks.md, section "Event store").

Run: .venv/bin/python -m bench.bench_store [--events N] [--big M] [--skip-postgres]

On SQLite (a file) and on PostgreSQL (127.0.0.1:5432, database test, a scratch schema), with
real events: the streams of bot matches of both games (domain/demo/matches.py).
1. Append, one event per transaction (live play): one chained fact at a time into the store's
   event store (MatchStore._save: what execute does after decide),
   against plain-SQL INSERT + COMMIT of the same rows into a plain table of the same columns.
2. Append in batches of 1,000 events per transaction (an import): MatchStore._record_decided
   (what execute_batch does after decide),
   against plain-SQL executemany of the same rows, 1,000 per transaction.
3. Matches reconstructed per second: MatchStore.load (select, decode, fold through the rules),
   against plain-SQL SELECT of the same matches' rows from the plain table.
4. The time to reconstruct one match with 1,000 and with M (100,000) matches in the store.
"""

from __future__ import annotations

import argparse
import os
import platform
import sqlite3
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from functools import partial
from typing import Any

import psycopg

from domain.demo.matches import demo_set, play_demo
from domain.record.catalog import CATALOG
from domain.record.envelope import RecordedBy
from domain.shuffle import Seed
from projections.store.app import MatchStore, chain_facts
from projections.store.canonical import GENESIS

PG_DSN = "host=127.0.0.1 port=5432 dbname=test user=postgres connect_timeout=3"
START = datetime(2026, 11, 22, 18, 0, tzinfo=UTC)
BY = RecordedBy("simulator", "verbale bench")
Stream = list[tuple[object, datetime, RecordedBy]]
BATCH = 1000


def demo_streams(count: int) -> list[Stream]:
    """`count` recorded bot matches, going round the demo set (both games, every format)."""
    streams = []
    for index, demo in enumerate(demo_set(Seed(b"\xbe" * 16), count)):
        streams.append([(e, at, BY) for e, at in play_demo(demo, START)[0]])
        if index and index % 50 == 0:
            print(f"  generated {index} matches", flush=True)
    return streams


class Place:
    """A scratch database: an SQLite file or a PostgreSQL schema, and plain SQL on it."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        if kind == "sqlite":
            self.dir = tempfile.mkdtemp(prefix="verbale-bench-")
            self.url = f"sqlite:///{self.dir}/store.db"
            self.conn: Any = sqlite3.connect(f"{self.dir}/plain.db", isolation_level=None)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.mark = "?"
        else:
            self.schema = f"bench_{uuid.uuid4().hex[:12]}"
            self.url = f"postgresql://postgres@127.0.0.1:5432/test?schema={self.schema}"
            self.conn = psycopg.connect(PG_DSN, autocommit=True)
            self.conn.execute(f"CREATE SCHEMA {self.schema}")
            self.mark = "%s"
        self.table = "plain_events" if kind == "sqlite" else f"{self.schema}.plain_events"
        kind_id = "TEXT" if kind == "sqlite" else "uuid"
        blob = "BLOB" if kind == "sqlite" else "bytea"
        self.conn.execute(f"CREATE TABLE {self.table} (originator_id {kind_id}, "
                          f"originator_version INTEGER, topic TEXT, state {blob}, "
                          "PRIMARY KEY (originator_id, originator_version))")

    def key(self, stream: uuid.UUID) -> Any:
        return stream.hex if self.kind == "sqlite" else stream

    def insert(self, rows: Sequence[tuple[Any, ...]]) -> None:
        statement = f"INSERT INTO {self.table} VALUES ({', '.join([self.mark] * 4)})"
        if self.kind == "sqlite":
            self.conn.execute("BEGIN")
            self.conn.executemany(statement, rows)
            self.conn.execute("COMMIT")
            return
        with self.conn.transaction(), self.conn.cursor() as cur:
            cur.executemany(statement, rows)

    def select(self, stream: uuid.UUID) -> list[Any]:
        cur = self.conn.execute(f"SELECT * FROM {self.table} WHERE originator_id = {self.mark} "
                                "ORDER BY originator_version", (self.key(stream),))
        return list(cur.fetchall())

    def drop(self) -> None:
        if self.kind == "postgres":
            self.conn.execute(f"DROP SCHEMA {self.schema} CASCADE")
        self.conn.close()


def _each(action: Callable[[Any], object], items: Sequence[Any]) -> None:
    for item in items:
        action(item)


def rate(count: int, seconds: float) -> float:
    return count / seconds if seconds else float("inf")


def timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def rows_of(store: MatchStore, place: Place, ids: Sequence[uuid.UUID]) -> list[tuple[Any, ...]]:
    """The stored rows of these matches, as the plain table stores them (same sizes)."""
    return [(place.key(i), r.originator_version, r.topic, r.state) for i in ids
            for r in store.stored(i)]


def bench_place(kind: str, streams: list[Stream], live_events: int, big: int) -> dict[str, float]:
    place = Place(kind)
    store = MatchStore(url=place.url, catalog=CATALOG)
    results: dict[str, float] = {}
    try:
        ids = [uuid.uuid4() for _ in streams]
        results.update(_live(store, place, streams[0:1] * 50, live_events))
        results.update(_batched(store, place, ids, streams))
        results.update(_rebuild(store, place, ids))
        results.update(_scaling(store, ids, streams, big))
    finally:
        store.close()
        place.drop()
    return results


def _live(store: MatchStore, place: Place, streams: list[Stream],
          limit: int) -> dict[str, float]:
    facts = []
    for stream in streams:
        sid, head = uuid.uuid4(), GENESIS
        for version, (event, at, _) in enumerate(stream):
            made, head = chain_facts(sid, version, head, (event,), at, BY)
            facts.extend(made)
    facts = facts[:limit]
    seconds = timed(lambda: [store._save([f]) for f in facts])
    stored = [(place.key(f.originator_id), f.originator_version, type(f).__name__,
               store.mapper.to_stored_event(f).state) for f in facts]
    plain = timed(lambda: _each(place.insert, [[row] for row in stored]))
    return {"live_store": rate(len(facts), seconds), "live_plain": rate(len(stored), plain)}


def _batches(ids: list[uuid.UUID],
             streams: list[Stream]) -> list[list[tuple[uuid.UUID, Stream]]]:
    """Whole matches, about BATCH events per transaction."""
    batches: list[list[tuple[uuid.UUID, Stream]]] = [[]]
    size = 0
    for sid, stream in zip(ids, streams, strict=True):
        if size >= BATCH:
            batches.append([])
            size = 0
        batches[-1].append((sid, stream))
        size += len(stream)
    return batches


def _batched(store: MatchStore, place: Place, ids: list[uuid.UUID],
             streams: list[Stream], rounds: int = 5) -> dict[str, float]:
    """Store and plain SQL interleaved round by round (a passing load hits both alike);
    medians. The first round's matches stay for the reconstruction benchmarks."""
    events = sum(len(s) for s in streams)
    stored, plain = [], []
    for round_ in range(rounds):
        these = ids if round_ == 0 else [uuid.uuid4() for _ in ids]
        batches = _batches(these, streams)
        stored.append(rate(events, timed(partial(_each, store._record_decided, batches))))
        rows = rows_of(store, place, these)
        chunks = [rows[i:i + BATCH] for i in range(0, len(rows), BATCH)]
        plain.append(rate(len(rows), timed(partial(_each, place.insert, chunks))))
    ratios = sorted(s / p for s, p in zip(stored, plain, strict=True))
    return {"batch_store": statistics.median(stored), "batch_plain": statistics.median(plain),
            "batch_ratio": statistics.median(ratios), "events": float(events)}


def _rebuild(store: MatchStore, place: Place, ids: list[uuid.UUID]) -> dict[str, float]:
    sample = ids[:200]
    stored, plain = [], []
    for _ in range(3):
        stored.append(rate(len(sample), timed(lambda: [store.load(i) for i in sample])))
        plain.append(rate(len(sample), timed(lambda: [place.select(i) for i in sample])))
    return {"rebuild_store": statistics.median(stored),
            "rebuild_plain": statistics.median(plain)}


def _one_match_ms(store: MatchStore, ids: list[uuid.UUID]) -> float:
    """Median over 7 rounds of the mean time to reconstruct one of the sample matches."""
    sample = ids[:100]
    rounds = [timed(lambda: [store.load(i) for i in sample]) / len(sample) for _ in range(7)]
    return statistics.median(rounds) * 1000


def _scaling(store: MatchStore, ids: list[uuid.UUID], streams: list[Stream],
             big: int) -> dict[str, float]:
    filler = streams[0][:6]   # a short stream: creation, commitment, deal, first plays
    _fill(store, 1000 - len(store.streams()), filler)
    small = _one_match_ms(store, ids)
    _fill(store, big - len(store.streams()), filler)
    large = _one_match_ms(store, ids)
    return {"one_match_ms_1k": small, "one_match_ms_big": large, "big": float(big)}


def _fill(store: MatchStore, matches: int, filler: Stream) -> None:
    per_batch = max(1, BATCH // len(filler))
    for start in range(0, matches, per_batch):
        count = min(per_batch, matches - start)
        store._record_decided([(uuid.uuid4(), filler) for _ in range(count)])


def report(kind: str, r: dict[str, float]) -> None:
    print(f"\n{kind}: {int(r['events'])} events in the batched run")
    print(f"  append, 1 event/transaction : {r['live_store']:>9,.0f} ev/s  plain SQL "
          f"{r['live_plain']:>9,.0f}  ({r['live_store'] / r['live_plain']:.0%})")
    print(f"  append, {BATCH} events/tx     : {r['batch_store']:>9,.0f} ev/s  plain SQL "
          f"{r['batch_plain']:>9,.0f}  (median ratio of 5 rounds {r['batch_ratio']:.0%})")
    print(f"  matches reconstructed        : {r['rebuild_store']:>9,.0f} /s    plain SQL "
          f"select {r['rebuild_plain']:>9,.0f}  ({r['rebuild_store'] / r['rebuild_plain']:.0%})")
    print(f"  one match, 1,000 matches     : {r['one_match_ms_1k']:.2f} ms; "
          f"{int(r['big']):,} matches: {r['one_match_ms_big']:.2f} ms "
          f"(x{r['one_match_ms_big'] / r['one_match_ms_1k']:.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=150, help="bot matches recorded")
    parser.add_argument("--events", type=int, default=3000, help="events of the live run")
    parser.add_argument("--big", type=int, default=100_000, help="matches in the big store")
    parser.add_argument("--skip-postgres", action="store_true")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores, {platform.processor() or platform.machine()}, "
          f"Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}")
    streams = demo_streams(args.matches)
    kinds = ["sqlite"] + ([] if args.skip_postgres else ["postgres"])
    for kind in kinds:
        report(kind, bench_place(kind, streams, args.events, args.big))


if __name__ == "__main__":
    main()
