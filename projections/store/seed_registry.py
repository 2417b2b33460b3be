"""The seed registry: no seed is used twice anywhere in the store.

A seed's commitment is a hash of the seed (docs/shuffle.md section 3), so a seed used twice is a
commitment recorded twice. The table `verbale_seeds` holds every commitment the store has
recorded, keyed by it (a primary key: the database itself refuses a second row), with the stream
and event that recorded it first and what it commits to: a smazzata's seed (SeedCommitted), a
match seed (MatchCreated.match_seed_commitment), a tournament's root (TournamentSeedsCommitted)
or a revealed session's secret (SessionSeedRevealed). The recorders (recorders.py,
recorders_postgres.py) insert the rows in the same transaction as the events, so a refused seed
leaves nothing stored, and two writers racing with the same seed cannot both win. A store
written before the registry existed is indexed once, when it is first opened for writing
(commitments it already holds twice stay as they were: the record is never changed).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent

from domain.text import say

SEEDS_TABLE = "verbale_seeds"
FIELDS: dict[str, tuple[str, str]] = {
    "SeedCommitted": ("commitment", "smazzata seed"),
    "MatchCreated": ("match_seed_commitment", "match seed"),
    "TournamentSeedsCommitted": ("root", "tournament seed root"),
    "SessionSeedRevealed": ("commitment", "session secret"),
}
"""Event type: the field of its `data` that holds a commitment, and what it commits to."""

Entry = tuple[str, str, int, str]
"""commitment, stream (its UUID as text), event version, what it commits to."""


class SeedReused(ValueError):
    """A seed (its commitment) already used elsewhere in the store: nothing was recorded. A
    problem of the input for the command line (exit code 2)."""

    exit_code = 2

    def __init__(self, entry: Entry, first: Entry) -> None:
        commitment, stream, version, kind = entry
        super().__init__(say(
            "seed commitment {commitment} ({kind}, stream {stream}, event {version}) is already "
            "used by stream {first}, event {first_version} ({first_kind}): a seed is used once "
            "in the whole store; nothing was recorded", commitment=commitment, kind=kind,
            stream=stream, version=version, first=first[1], first_version=first[2],
            first_kind=first[3]))
        self.entry, self.first = entry, first


def entries(stored_events: Iterable[StoredEvent]) -> list[Entry]:
    """The commitments `stored_events` record (only the events of FIELDS' types are read)."""
    found: list[Entry] = []
    for stored in stored_events:
        field = FIELDS.get(stored.topic.rpartition(":")[2])
        if field is not None:
            found.extend(entries_of(stored.originator_id, stored.originator_version,
                                    stored.state, stored.topic))
    return found


def entries_of(stream: object, version: int, state: bytes | memoryview,
               topic: str) -> list[Entry]:
    """The entries of one stored record (its stream, version, state and topic)."""
    name, kind = FIELDS[topic.rpartition(":")[2]]
    try:
        data = json.loads(bytes(state)).get("data")
    except (ValueError, AttributeError):
        return []   # not the store's JSON: verify reports it; nothing to index
    value = data.get(name) if isinstance(data, dict) else None
    if not isinstance(value, str):
        return []
    return [(value, str(stream if isinstance(stream, UUID) else UUID(str(stream))), version, kind)]


def topics_indexed() -> list[str]:
    """The topics (stored class paths) whose events carry a commitment."""
    return [f"projections.store.facts:{name}" for name in FIELDS]


def sqlite_create(c: Any, events_table: str) -> None:
    """Create the registry (and its append-only guards) if missing; a new registry indexes the
    events already stored, oldest first. `c` is the cursor of the store's creating
    transaction."""
    c.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (SEEDS_TABLE,))
    if c.fetchone() is not None:
        return
    refuse = "SELECT RAISE(ABORT, 'verbale: {op} on " + SEEDS_TABLE + " refused: the seed " \
             "registry is append-only')"
    c.execute(f"CREATE TABLE {SEEDS_TABLE} (commitment TEXT PRIMARY KEY, stream_id TEXT NOT "
              "NULL, version INTEGER NOT NULL, kind TEXT NOT NULL) WITHOUT ROWID")
    for op in ("UPDATE", "DELETE"):
        c.execute(f"CREATE TRIGGER IF NOT EXISTS {SEEDS_TABLE}_no_{op.lower()} BEFORE {op} ON "
                  f"{SEEDS_TABLE} BEGIN {refuse.format(op=op)}; END")
    c.execute(f"PRAGMA table_info({events_table})")
    columns = {row[1] for row in c.fetchall()}
    order = "notification_id" if "notification_id" in columns else "rowid"   # oldest first
    marks = ",".join("?" * len(FIELDS))
    c.execute(f"SELECT originator_id, originator_version, topic, state FROM {events_table} "
              f"WHERE topic IN ({marks}) ORDER BY {order}", topics_indexed())
    old = [e for row in c.fetchall() for e in entries_of(row[0], row[1], row[3], row[2])]
    c.executemany(f"INSERT INTO {SEEDS_TABLE} VALUES (?,?,?,?) ON CONFLICT DO NOTHING", old)


def sqlite_register(c: Any, stored_events: Sequence[StoredEvent]) -> None:
    """Register the commitments of `stored_events`, in the transaction that inserts them; a
    commitment already registered (or twice in the batch) raises SeedReused."""
    for entry in entries(stored_events):
        c.execute(f"INSERT INTO {SEEDS_TABLE} VALUES (?,?,?,?) ON CONFLICT DO NOTHING", entry)
        if c.sqlite_cursor.rowcount != 1:
            c.execute(f"SELECT commitment, stream_id, version, kind FROM {SEEDS_TABLE} WHERE "
                      "commitment = ?", (entry[0],))
            row = c.fetchone()
            raise SeedReused(entry, (row[0], row[1], row[2], row[3]))


def registered(rows: Iterable[Sequence[Any]]) -> dict[str, Entry]:
    """The registry's rows by commitment (for tests and verify)."""
    return {r[0]: (r[0], r[1], int(r[2]), r[3]) for r in rows}
