"""Plain-SQL tampering behind the library's back, and putting things back afterwards.

The tamperer is the database's owner: it bypasses the append-only triggers (PostgreSQL:
session_replication_role = replica; SQLite: it drops them) and may even recompute the chain
after its change, as someone who read docs/events.md would. Each tampering returns the stream
it touched and the versions a correct report may name.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from projections.store.canonical import canonical_json
from tests.projections.conftest import Backend

Row = tuple[Any, UUID, int, str, bytes]   # notification id, stream, version, topic, state


@dataclass
class Tamperer:
    backend: Backend
    conn: Any

    @classmethod
    def open(cls, backend: Backend) -> Tamperer:
        conn = backend.connect()
        if backend.kind == "postgres":
            conn.execute("SET session_replication_role = replica")
        else:
            for name in ("verbale_events_no_update", "verbale_events_no_delete",
                         "verbale_heads_no_delete", "verbale_heads_forward"):
                conn.execute(f"DROP TRIGGER IF EXISTS {name}")
        return cls(backend, conn)

    @contextmanager
    def batch(self) -> Iterator[None]:
        """One transaction (one sync to disk) for a tampering or a restore."""
        if self.backend.kind == "postgres":
            with self.conn.transaction():
                yield
            return
        self.conn.execute("BEGIN")
        yield
        self.conn.execute("COMMIT")

    @property
    def _id(self) -> str:
        return "rowid" if self.backend.kind == "sqlite" else "notification_id"

    def _key(self, stream: UUID) -> Any:
        return stream.hex if self.backend.kind == "sqlite" else stream

    def _sql(self, text: str) -> str:
        return text.replace("?", self.backend.placeholder())

    def rows(self, stream: UUID | None = None) -> list[Row]:
        where = " WHERE originator_id = ?" if stream else ""
        cur = self.conn.execute(self._sql(
            f"SELECT {self._id}, originator_id, originator_version, topic, state FROM "
            f"{self.backend.events_table}{where} ORDER BY originator_id, originator_version"),
            (self._key(stream),) if stream else ())
        return [(r[0], r[1] if isinstance(r[1], UUID) else UUID(r[1]), r[2], r[3], bytes(r[4]))
                for r in cur.fetchall()]

    def head(self, stream: UUID) -> tuple[int, str]:
        row = self.conn.execute(self._sql(f"SELECT version, head_hash FROM "
                                          f"{self.backend.heads_table} WHERE stream_id = ?"),
                                (self._key(stream),)).fetchone()
        return int(row[0]), str(row[1])

    def set_state(self, row_id: Any, topic: str, state: bytes) -> None:
        self.conn.execute(self._sql(f"UPDATE {self.backend.events_table} SET topic = ?, "
                                    f"state = ? WHERE {self._id} = ?"), (topic, state, row_id))

    def delete(self, row_id: Any) -> None:
        self.conn.execute(self._sql(f"DELETE FROM {self.backend.events_table} "
                                    f"WHERE {self._id} = ?"), (row_id,))

    def insert(self, stream: UUID, version: int, topic: str, state: bytes,
               row_id: Any = None) -> None:
        if row_id is None:
            self.conn.execute(self._sql(
                f"INSERT INTO {self.backend.events_table} (originator_id, originator_version, "
                "topic, state) VALUES (?, ?, ?, ?)"), (self._key(stream), version, topic, state))
            return
        self.conn.execute(self._sql(
            f"INSERT INTO {self.backend.events_table} ({self._id}, originator_id, "
            "originator_version, topic, state) VALUES (?, ?, ?, ?, ?)"),
            (row_id, self._key(stream), version, topic, state))

    def set_head(self, stream: UUID, version: int, head: str) -> None:
        self.conn.execute(self._sql(f"DELETE FROM {self.backend.heads_table} "
                                    "WHERE stream_id = ?"), (self._key(stream),))
        self.conn.execute(self._sql(f"INSERT INTO {self.backend.heads_table} VALUES (?, ?, ?)"),
                          (self._key(stream), version, head))

    def restore(self, stream: UUID, rows: list[Row], head: tuple[int, str]) -> None:
        self.conn.execute(self._sql(f"DELETE FROM {self.backend.events_table} "
                                    "WHERE originator_id = ?"), (self._key(stream),))
        statement = self._sql(
            f"INSERT INTO {self.backend.events_table} ({self._id}, originator_id, "
            "originator_version, topic, state) VALUES (?, ?, ?, ?, ?)")
        params = [(row_id, self._key(stream), version, topic, state)
                  for row_id, _, version, topic, state in rows]
        if self.backend.kind == "postgres":
            with self.conn.cursor() as cursor:
                cursor.executemany(statement, params)
        else:
            self.conn.executemany(statement, params)
        self.set_head(stream, *head)

    def rechain(self, stream: UUID, from_version: int) -> None:
        """Recompute every previous_hash from `from_version` on, and the head: a careful forger."""
        rows = self.rows(stream)
        previous = _hash(rows[from_version - 2][4]) if from_version > 1 else "0" * 64
        for row_id, _, _, topic, state in rows[from_version - 1:]:
            record = json.loads(state)
            record["previous_hash"] = previous
            new_state = canonical_json(record)
            self.set_state(row_id, topic, new_state)
            previous = _hash(new_state)
        self.set_head(stream, rows[-1][2], previous)


def _hash(state: bytes) -> str:
    return hashlib.sha256(state).hexdigest()


def _replace_field(state: bytes, key: str, value: str) -> bytes:
    record = json.loads(state)
    record["data"][key] = value
    return canonical_json(record)


Tampering = Callable[[Tamperer, random.Random, list[Row]], tuple[UUID, set[int]]]


def flip_byte(t: Tamperer, rng: random.Random, rows: list[Row]) -> tuple[UUID, set[int]]:
    row_id, stream, version, topic, state = rng.choice(rows)
    if rng.random() < 0.1:
        at = rng.randrange(len(topic))
        changed = chr((ord(topic[at]) + rng.randrange(1, 26) - 97) % 26 + 97)
        t.set_state(row_id, topic[:at] + changed + topic[at + 1:], state)
        return stream, {version}
    at = rng.randrange(len(state))
    new = (state[at] + rng.randrange(1, 256)) % 256
    t.set_state(row_id, topic, state[:at] + bytes([new]) + state[at + 1:])
    return stream, {version, version + 1}


def delete_event(t: Tamperer, rng: random.Random, rows: list[Row]) -> tuple[UUID, set[int]]:
    row_id, stream, version, _, _ = rng.choice(rows)
    t.delete(row_id)
    return stream, {version, version + 1}


def swap_events(t: Tamperer, rng: random.Random, rows: list[Row]) -> tuple[UUID, set[int]]:
    stream = rng.choice(rows)[1]
    mine = [r for r in rows if r[1] == stream]
    a, b = rng.sample(mine, 2)
    t.set_state(a[0], b[3], b[4])
    t.set_state(b[0], a[3], a[4])
    return stream, {a[2], b[2], min(a[2], b[2]) + 1}


def insert_event(t: Tamperer, rng: random.Random, rows: list[Row]) -> tuple[UUID, set[int]]:
    """A well-formed, correctly chained copy of an event appended after the head."""
    stream = rng.choice(rows)[1]
    mine = [r for r in rows if r[1] == stream]
    copied = json.loads(rng.choice(mine)[4])
    last = mine[-1]
    copied.update(version=last[2] + 1, previous_hash=_hash(last[4]))
    t.insert(stream, last[2] + 1, rng.choice(mine)[3], canonical_json(copied))
    return stream, {last[2] + 1}


def _typed(rows: list[Row], name: str) -> list[Row]:
    return [r for r in rows if r[3].endswith(":" + name)]


def change_seed(t: Tamperer, rng: random.Random, rows: list[Row]) -> tuple[UUID, set[int]]:
    row_id, stream, version, topic, state = rng.choice(_typed(rows, "SeedRevealed"))
    forged = bytes(rng.randrange(256) for _ in range(16)).hex()
    t.set_state(row_id, topic, _replace_field(state, "seed", forged))
    if rng.random() < 0.5:
        t.rechain(stream, version + 1)
        return stream, {version}
    return stream, {version, version + 1}


def change_commitment(t: Tamperer, rng: random.Random,
                      rows: list[Row]) -> tuple[UUID, set[int]]:
    revealed = {(r[1], json.loads(r[4])["data"]["smazzata"])
                for r in _typed(rows, "SeedRevealed")}
    choices = [r for r in _typed(rows, "SeedCommitted")
               if (r[1], json.loads(r[4])["data"]["smazzata"]) in revealed]
    row_id, stream, version, topic, state = rng.choice(choices)
    forged = bytes(rng.randrange(256) for _ in range(32)).hex()
    t.set_state(row_id, topic, _replace_field(state, "commitment", forged))
    if rng.random() < 0.5:
        t.rechain(stream, version + 1)
        smazzata = json.loads(state)["data"]["smazzata"]
        reveal = next(r[2] for r in _typed(rows, "SeedRevealed") if r[1] == stream
                      and json.loads(r[4])["data"]["smazzata"] == smazzata)
        return stream, {version, reveal}
    return stream, {version, version + 1}


TAMPERINGS: tuple[Tampering, ...] = (flip_byte, delete_event, swap_events, insert_event,
                                     change_seed, change_commitment)
