"""The data of the viewer benchmark (bench/bench_viewer.py): a SQLite store of 10,000 matches
with its read models caught up, cached under bench/.data/, and the step URLs the load asks for.

The matches are the read-model benchmark's (bench/read_models_data.py: the demo set's bot
matches played in memory, three in four in a tournament, written about 1,000 events a
transaction), cut at a number of matches rather than of events.
"""

from __future__ import annotations

import json
import os
import random
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from eventsourcing.persistence import StoredEvent
from sqlalchemy import Engine, select

from bench.read_models_data import (
    DATA,
    NAMESPACE,
    STORE_CODE,
    Log,
    _rows_of_matches,
    code_key,
    sqlite_url,
)
from domain.record.catalog import CATALOG
from projections.accounts import site_secret
from projections.read_models.engine import read_model_engine
from projections.read_models.project import catch_up
from projections.read_models.schema import Partita
from projections.store.app import MatchStore
from replay_web.access import seat_token

BATCH_ROWS = 1000


def viewer_store(matches: int) -> Path:
    key = code_key(*STORE_CODE, "projections/read_models", "bench/read_models_data.py")
    return DATA / f"viewer-{matches}-{key}.db"


def ensure_viewer_store(matches: int, log: Log) -> Path:
    """The cached store of `matches` matches, its read models caught up and its site secret
    made (the server and the bench must agree on the seat tokens)."""
    path = viewer_store(matches)
    if path.exists():
        return path
    DATA.mkdir(parents=True, exist_ok=True)
    for stale in DATA.glob(f"viewer-{matches}-*.db*"):
        stale.unlink()
    partial = path.with_suffix(".partial")
    for leftover in DATA.glob(partial.name + "*"):
        leftover.unlink()
    store = MatchStore(url=sqlite_url(partial), catalog=CATALOG)
    try:
        events = _write(store, matches, log)
        engine = read_model_engine(sqlite_url(partial))
        try:
            log(f"  {events:,} events written; folding the read models ...")
            catch_up(store, engine)
            site_secret(engine)
        finally:
            engine.dispose()
    finally:
        store.close()
    os.replace(partial, path)
    log(f"  store of {matches:,} matches: {path.name}")
    return path


def _write(store: MatchStore, matches: int, log: Log) -> int:
    batch: list[StoredEvent] = []
    written = 0
    for index, rows in enumerate(_rows_of_matches()):
        if index == matches:
            break
        batch.extend(rows)
        if len(batch) >= BATCH_ROWS:
            store._insert(batch)
            written += len(batch)
            batch = []
        if (index + 1) % 1000 == 0:
            log(f"  {index + 1:,} matches played and written")
    if batch:
        store._insert(batch)
        written += len(batch)
    return written


@dataclass(frozen=True, slots=True)
class Stored:
    match_id: uuid.UUID
    players: int
    last: int


def stored_matches(engine: Engine, count: int) -> list[Stored]:
    """The first `count` matches the store was written with (their ids are known), with their
    number of seats and of steps, from the read models."""
    wanted = {str(uuid.uuid5(NAMESPACE, f"match:{n}")): n for n in range(count)}
    found: list[tuple[int, Stored]] = []
    with engine.connect() as conn:
        rows = conn.execute(select(Partita.stream, Partita.players, Partita.version)
                            .where(Partita.stream.in_(wanted)))
        for stream, players, version in rows:
            found.append((wanted[stream], Stored(uuid.UUID(stream), len(json.loads(players)),
                                                 version)))
    return [s for _, s in sorted(found, key=lambda pair: pair[0])]


def step_paths(matches: Sequence[Stored], secret: bytes, count: int, seed: int = 11) -> list[str]:
    """`count` step URLs spread over `matches`: a random step of a random match, as the public
    (one in three) or one of its seats with that seat's link token, the HTML page."""
    rng = random.Random(seed)
    paths = []
    for n in range(count):
        match = matches[n % len(matches)] if n < len(matches) else rng.choice(matches)
        step = rng.randint(1, match.last)
        if rng.random() < 1 / 3:
            query = "view=public"
        else:
            seat = rng.randrange(match.players)
            query = f"view=seat{seat + 1}&token={seat_token(secret, match.match_id, seat)}"
        paths.append(f"/matches/{match.match_id}?step={step}&{query}")
    rng.shuffle(paths)
    return paths
