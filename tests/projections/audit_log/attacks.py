"""The attacks on the record that the audit log must catch, as someone with write access to its
database makes them (plain SQL behind the library's back, hashes recomputed where the attack
says so), or through the project's own `decide`: the five of issue 13, and those of issue 23
(a match's ids swapped with another's, a ruling signed with the public demo key, a match
back-dated before the checkpoint, a proof cut short). Shared by the library's tests
(test_attacks.py, test_verifier.py) and the command line's (tests/replay_web/
test_cli_auditlog.py); docs/audit-log.md's table of attacks names each test."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any
from uuid import UUID

from domain.demo.matches import DEMO_ARBITER, DEMO_SEED, demo_key_seed
from domain.record.commands import RecordRuling
from domain.record.envelope import RecordedBy
from projections.store.app import MatchStore
from projections.store.canonical import canonical_json, event_hash
from projections.store.signatures import Signer, ensure_registered, execute_signed
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


def swap_ids(t: Tamperer, first: UUID, second: UUID) -> None:
    """The events and heads of two matches exchanged: each id now holds the other's match
    (the records themselves, and their order in the log, unchanged)."""
    heads = {match: t.head(match) for match in (first, second)}
    aside = UUID(int=0)
    move = t._sql(f"UPDATE {t.backend.events_table} SET originator_id = ? WHERE "
                  "originator_id = ?")
    with t.batch():
        for source, target in ((first, aside), (second, first), (aside, second)):
            t.conn.execute(move, (t._key(target), t._key(source)))
        t.set_head(first, *heads[second])
        t.set_head(second, *heads[first])


def demo_signer() -> Signer:
    """The demo arbiter's key: anyone derives it from the demo's public seed (domain/record/
    demo.py), and `make run` registers it for `arbitro`."""
    return Signer.from_seed(DEMO_ARBITER, demo_key_seed(DEMO_SEED))


def register_demo_key(store: MatchStore, at: datetime, by: RecordedBy) -> Signer:
    """The demo key registered as `verbale simulate matches --store` registers it (`by` the
    simulator)."""
    signer = demo_signer()
    ensure_registered(store, signer, at, by)
    return signer


def demo_ruling(store: MatchStore, match: UUID, at: datetime, by: RecordedBy,
                adjustment: tuple[int, int] = (0, 100)) -> int:
    """A ruling on the ended `match` signed with the demo key (which the record holds), through
    `decide`, with the restated MatchEnded; the number of events it appended."""
    loaded = store.load(match)
    assert loaded.state.ended
    ruling = RecordRuling(arbiter=DEMO_ARBITER, reason="ripensamento", kind="adjust-score",
                          adjustment=adjustment, refers_to=loaded.state.version)
    return execute_signed(store, match, ruling, demo_signer(), at, by).version - loaded.version


def cut_proof(proof: dict[str, Any], events: int = 2) -> dict[str, Any]:
    """The inclusion proof of a match without its last `events` events (a late ruling and the
    result it restated): every event left is still in the tree, and still one chain."""
    cut = dict(proof)
    cut["events"] = proof["events"][:-events]
    return cut
