"""The data of the read-model benchmarks (bench/bench_read_models.py): event stores of a given
size made of real simulated matches, cached on disk, and the rm_ tables of 100,000 matches.

Stores: the demo set's bot matches (domain/demo/matches.py), each from its own match seed (the
demo set goes round its formats with a new seed per index), three in four played in a tournament
(scheduled in it, as `verbale simulate matches --store` records them), started 20 minutes apart.
The matches are played in memory and their events written about 1,000 per transaction, the
same bytes the store writes (`stored_stream`, as an import does): minutes for a million events,
against hours action by action. A store is kept under bench/.data/ (gitignored), named by its
size and a hash of the files its bytes depend on (STORE_CODE: the events and how they are
stored), so a change to the stored events builds it again.

The match list: recording 100,000 matches (about 10 million events) would take hours, and the
list reads only rm_ tables. So the rm_ rows of a real store folded by `rebuild` are copied with
new match and tournament ids, players (up to 1,000 names), days (each match moved by its own number
of days, so a player's matches spread over a year) and provenance,
until the tables hold the wanted number of matches; every match gets a verdict of verify.
"""

from __future__ import annotations

import hashlib
import os
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, cast

from eventsourcing.persistence import StoredEvent
from sqlalchemy import Engine, Table, insert, select

from domain.demo.matches import NAMES, demo_set, play_demo
from domain.record.catalog import CATALOG
from domain.record.envelope import RecordedBy
from domain.record.events import MatchScheduled, TournamentCreated
from domain.shuffle import Seed
from projections.read_models.schema import FOLDED_TABLES, Verdetto, ensure_schema
from projections.read_models.tallies import STORED_MATCHES
from projections.store.app import MatchStore, stored_stream
from projections.store.canonical import GENESIS

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "bench" / ".data"
GENERATION = 2
"""Raise when the way the stores are made changes (the cache key includes it)."""
SEED = Seed(b"\x5e" * 16)
START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
BY = RecordedBy("simulator", "verbale bench")
PER_TOURNAMENT = 64
NAMESPACE = uuid.UUID("6f1c2a3e-5b7d-4e8f-9a0b-1c2d3e4f5a6b")
Log = Callable[[str], None]


def code_key(*parts: str) -> str:
    """A hash of the sources `parts` (files or folders of this checkout) and GENERATION."""
    digest = hashlib.sha256(str(GENERATION).encode())
    for part in parts:
        found = [ROOT / part] if (ROOT / part).is_file() else sorted((ROOT / part).rglob("*"))
        for path in found:
            if path.suffix in (".py", ".toml") and path.is_file():
                digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


STORE_CODE = ("domain/events.py", "domain/record/events.py", "projections/store/facts.py",
              "projections/store/codec.py", "projections/store/canonical.py")
"""What a store's bytes depend on: the events and how they are stored (the engines only change
which matches are played, and a store made with older engines reads the same)."""


def store_file(size: int) -> Path:
    return DATA / f"events-{size}-{code_key(*STORE_CODE)}.db"


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"


def ensure_stores(sizes: Sequence[int], log: Log) -> dict[int, Path]:
    """The cached store of each size, the missing ones built in one pass of the matches."""
    files = {size: store_file(size) for size in sizes}
    missing = sorted(size for size, path in files.items() if not path.exists())
    if missing:
        DATA.mkdir(parents=True, exist_ok=True)
        for size in missing:   # the same size made by older code
            for stale in DATA.glob(f"events-{size}-*.db*"):
                stale.unlink()
        _build(missing, {size: files[size] for size in missing}, log)
    return files


def _build(sizes: list[int], files: dict[int, Path], log: Log) -> None:
    partial = {size: files[size].with_suffix(".partial") for size in sizes}
    for path in partial.values():
        for leftover in path.parent.glob(path.name + "*"):
            leftover.unlink()
    stores = {size: MatchStore(url=sqlite_url(partial[size]), catalog=CATALOG)
              for size in sizes}
    written = dict.fromkeys(sizes, 0)
    try:
        for rows in _batches(_rows_of_matches(), 1000):
            open_sizes = [size for size in sizes if written[size] < size]
            if not open_sizes:
                break
            for size in open_sizes:
                stores[size]._insert(rows)
                written[size] += len(rows)
            if written[sizes[-1]] % 50_000 < len(rows):
                log(f"  {written[sizes[-1]]:,} events written")
    finally:
        for store in stores.values():
            store.close()
    for size in sizes:
        os.replace(partial[size], files[size])
        log(f"  store of {size:,} events: {written[size]:,} events, {files[size].name}")


def _batches(rows: Iterator[list[StoredEvent]], at_least: int) -> Iterator[list[StoredEvent]]:
    """Whole matches (with their tournaments' events), at least `at_least` rows a batch."""
    batch: list[StoredEvent] = []
    for match_rows in rows:
        batch.extend(match_rows)
        if len(batch) >= at_least:
            yield batch
            batch = []
    if batch:
        yield batch


def _rows_of_matches() -> Iterator[list[StoredEvent]]:
    """The stored rows of match after match, each after its tournament's schedule row."""
    heads: dict[uuid.UUID, tuple[int, str]] = {}
    counters = {"cirulla": 0, "briscola": 0}
    index = 0
    while True:
        for demo in demo_set(SEED, index + 500)[index:]:
            game = demo.setup.game
            start = START + timedelta(minutes=20 * index)
            stream = uuid.uuid5(NAMESPACE, f"match:{index}")
            rows: list[StoredEvent] = []
            setup = demo.setup
            if index % 4 != 3:
                number, counters[game] = counters[game], counters[game] + 1
                tournament = uuid.uuid5(NAMESPACE, f"tournament:{game}:{number // PER_TOURNAMENT}")
                place = number % PER_TOURNAMENT
                setup = replace(setup, tournament=str(tournament), round=place // 8 + 1,
                                table=place % 8 + 1)
                rows.extend(_scheduled(heads, tournament, game, number // PER_TOURNAMENT,
                                       MatchScheduled(place // 8 + 1, place % 8 + 1,
                                                      str(stream)), start))
            events, _state = play_demo(replace(demo, setup=setup), start)
            rows.extend(stored_stream(stream, 0, GENESIS, [(e, at, BY) for e, at in events])[0])
            index += 1
            yield rows


def _scheduled(heads: dict[uuid.UUID, tuple[int, str]], tournament: uuid.UUID, game: str,
               number: int, event: MatchScheduled, at: datetime) -> list[StoredEvent]:
    """The tournament's rows for this match: its creation first if it is new."""
    events: list[object] = []
    if tournament not in heads:
        events.append(TournamentCreated(name=f"Torneo di prova {game} {number + 1}", game=game))
    events.append(event)
    version, head = heads.get(tournament, (0, GENESIS))
    rows, head = stored_stream(tournament, version, head, [(e, at, BY) for e in events])
    heads[tournament] = (version + len(rows), head)
    return rows


def copy_rows(source: Engine, matches: int) -> dict[str, list[dict[str, Any]]]:
    """The folded rm_ rows of `source`, copied until they hold `matches` matches."""
    with source.connect() as conn:
        base = {table.name: [dict(row._mapping) for row in conn.execute(select(table))]
                for table in FOLDED_TABLES}
    per_copy = len(base["rm_partite"])
    copies = -(-matches // per_copy)
    out: dict[str, list[dict[str, Any]]] = {name: [] for name in base}
    players: dict[str, dict[str, Any]] = {}
    for k in range(copies):
        keep = matches - k * per_copy   # the last copy only in part
        kept = {row["stream"] for row in base["rm_partite"][:keep]}
        _copy(base, k, kept, out, players)
    out["rm_giocatori"] = list(players.values())
    out["rm_conteggi"] = [{"name": STORED_MATCHES, "value": len(out["rm_partite"])}]
    out["rm_verdetti"] = [{"stream": row["stream"], "version": row["version"],
                           "verdict": "finding" if n % 20 == 7 else "ok",
                           "findings": 1 if n % 20 == 7 else 0, "checked": row["created"]}
                          for n, row in enumerate(out["rm_partite"])]
    return out


def _copy(base: dict[str, list[dict[str, Any]]], k: int, kept: set[str],
          out: dict[str, list[dict[str, Any]]], players: dict[str, dict[str, Any]]) -> None:
    def ident(old: str) -> str:
        return str(uuid.uuid5(NAMESPACE, f"{old}:{k}"))

    def name(old: str) -> str:
        if old not in NAMES:
            return old
        return f"{old} {(k * 7 + NAMES.index(old) * 13) % 125 + 1:03d}"

    def line(old: str) -> str:
        return " e ".join(name(part) for part in old.split(" e "))

    # Each match of the copy moved by its own number of days (over a year), so that a player's
    # or a tournament's matches are spread over the year as in a real store.
    days = {row["stream"]: (3 * k + 7 * n) % 364 for n, row in enumerate(base["rm_partite"])}

    def moment(old: str, stream: str | None = None) -> str:
        shift = 3 * k if stream is None else days[stream]
        shifted = datetime.fromisoformat(old[:-1]) + timedelta(days=shift)
        return shifted.isoformat(timespec="microseconds") + "Z"

    provenance = ("live", "live", "live", "simulated", "transcribed")[k % 5]
    for row in base["rm_partite"]:
        if row["stream"] in kept:
            created = moment(row["created"], row["stream"])
            out["rm_partite"].append({
                **row, "stream": ident(row["stream"]), "created": created, "day": created[:10],
                "tournament": None if row["tournament"] is None else ident(row["tournament"]),
                "players": _json_names(row["players"], name), "provenance": provenance})
    for table in ("rm_posti", "rm_smazzate", "rm_andamento", "rm_decisioni"):
        for row in base[table]:
            if row["stream"] in kept:
                new = {**row, "stream": ident(row["stream"])}
                if table == "rm_posti":
                    new.update(player=name(row["player"]),
                               created=moment(row["created"], row["stream"]))
                if table == "rm_decisioni":
                    new["recorded"] = moment(row["recorded"], row["stream"])
                out[table].append(new)
    for row in base["rm_tornei"]:
        out["rm_tornei"].append({**row, "stream": ident(row["stream"]),
                                 "name": f"{row['name']} ({k + 1})",
                                 "created": moment(row["created"])})
    for row in base["rm_linee"]:
        out["rm_linee"].append({**row, "tournament": ident(row["tournament"]),
                                "line": line(row["line"])})
    for row in base["rm_giocatori"]:
        new_name = name(row["name"])
        held = players.setdefault(new_name, {**row, "name": new_name, **{
            column: 0 for column, value in row.items() if isinstance(value, int)}})
        for column, value in row.items():
            if isinstance(value, int):
                held[column] += value


def _json_names(players: str, name: Callable[[str], str]) -> str:
    import json

    return json.dumps([name(p) for p in json.loads(players)], ensure_ascii=False,
                      separators=(",", ":"))


def load_rows(engine: Engine, rows: dict[str, list[dict[str, Any]]], chunk: int = 20_000) -> None:
    """Empty rm_ tables of this layout, then every row, in one transaction per table."""
    ensure_schema(engine)
    tables = {table.name: table for table in (*FOLDED_TABLES, cast(Table, Verdetto.__table__))}
    for name, table_rows in rows.items():
        with engine.begin() as conn:
            for start in range(0, len(table_rows), chunk):
                conn.execute(insert(tables[name]), table_rows[start:start + chunk])
