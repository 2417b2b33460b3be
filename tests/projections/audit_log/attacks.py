"""The five attacks of issue 13 on a store, as someone with write access to its database makes
them (plain SQL behind the library's back, hashes recomputed where the attack says so), or, for
the forged ruling, through the project's own `decide`. Shared by the library's tests
(test_attacks.py) and the command line's (tests/replay_web/test_cli_auditlog.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from uuid import UUID

from domain.record.commands import RecordRuling
from domain.record.envelope import RecordedBy
from projections.store.app import MatchStore
from projections.store.canonical import canonical_json, event_hash
from tests.projections.store.tampering import Tamperer

MALLORY = "mallory"


def cut_back(t: Tamperer, match: UUID, events: int = 3) -> int:
    """The last `events` events of `match` deleted and its head moved back onto the one left
    last (the match shows as in progress); the version left."""
    rows = t.rows(match)
    with t.batch():
        for row in rows[-events:]:
            t.delete(row[0])
        t.set_head(match, rows[-events - 1][2], event_hash(rows[-events - 1][4]))
    return int(rows[-events - 1][2])


def forget(t: Tamperer, match: UUID) -> None:
    """Every event of `match` and its head deleted."""
    with t.batch():
        for row in t.rows(match):
            t.delete(row[0])
        t.conn.execute(t._sql(f"DELETE FROM {t.backend.heads_table} WHERE stream_id = ?"),
                       (t._key(match),))


def rename_player(t: Tamperer, match: UUID, name: str = MALLORY) -> None:
    """The first player of `match` renamed in its MatchCreated, every later hash and the head
    recomputed (the chain holds again)."""
    first = t.rows(match)[0]
    record = json.loads(first[4])
    assert record["type"] == "MatchCreated"
    record["data"]["players"] = [name, *record["data"]["players"][1:]]
    with t.batch():
        t.set_state(first[0], first[3], canonical_json(record))
        t.rechain(match, 1)


def replace_match(t: Tamperer, match: UUID, record_another: Callable[[UUID], object]) -> None:
    """`match` deleted with its head, and another match recorded under its id by
    `record_another` (through the store: its chain is whole)."""
    forget(t, match)
    record_another(match)


def forge_ruling(store: MatchStore, match: UUID, at: datetime, by: RecordedBy,
                 adjustment: tuple[int, int] = (0, 100)) -> int:
    """A ruling on the ended `match` by someone who is no arbiter, through the store's own
    write path (`decide`): a RulingRecorded and a restated MatchEnded that gives the second
    side `adjustment`'s points; the number of events it appended."""
    loaded = store.load(match)
    assert loaded.state.ended
    ruling = RecordRuling(arbiter=MALLORY, reason="ripensamento", kind="adjust-score",
                          adjustment=adjustment, refers_to=loaded.state.version)
    return store.execute(match, ruling, at, by, loaded).version - loaded.version
