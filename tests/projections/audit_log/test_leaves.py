"""The leaves are the stored events in commit order with their stored bytes, on SQLite and
PostgreSQL; the heads they give are the store's own; proofs are refused from a changed store."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path
from uuid import uuid4

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from domain.record.simulate import Incidents, Table, next_command
from domain.shuffle import Seed
from projections.audit_log.checkpoint import Checkpoint, read_checkpoint
from projections.audit_log.leaves import (
    LeavesError,
    heads_of,
    heads_text,
    parse_heads,
    read_leaves,
    tree_of,
)
from projections.audit_log.merkle import leaf_hash, verify_inclusion
from projections.audit_log.proofs import (
    ProofError,
    checkpoint_store,
    consistency_proof,
    match_proof,
    read_heads,
    write_checkpoint,
)
from projections.audit_log.verify_against import verify_against
from projections.store.app import MatchStore
from projections.store.canonical import canonical_json
from projections.store.export import export_jsonl
from tests.projections.conftest import Backend
from tests.projections.store.recording import BY, START, toy_bot, toy_setup
from tests.projections.store.tampering import Tamperer

AT = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)
KEY = Ed25519PrivateKey.from_private_bytes(bytes(32))


def _interleaved(store: MatchStore) -> list[tuple[str, int]]:
    """Two matches created, then played one action each in turn until both end: the commit
    order mixes them. Returns (stream, version) in the order they were written."""
    playing = []
    for n in (1, 2):
        stream = store.create_match(toy_setup(), START, BY)
        playing.append((stream, store.load(stream), Table(Seed(bytes([n]) * 16), toy_bot,
                                                          Incidents()), START))
    while playing:
        stream, loaded, table, at = playing.pop(0)
        step = next_command(loaded.state, table, at)
        if step is not None:
            command, at, table = step
            playing.append((stream, store.execute(stream, command, at, BY, loaded), table, at))
    return [(str(s.originator_id), s.originator_version)
            for s in store.recorder.select_notifications(None, 10_000)]


def test_the_leaves_are_the_stored_events_in_commit_order(store: MatchStore) -> None:
    written = _interleaved(store)
    leaves = list(read_leaves(store))
    assert [(str(leaf.stream), leaf.version) for leaf in leaves] == written
    assert [leaf.index for leaf in leaves] == list(range(len(written)))
    assert len({str(leaf.stream) for leaf in leaves[:6]}) == 2, "the order must mix the matches"
    for leaf in leaves:
        assert leaf.record == store.stored(leaf.stream)[leaf.version - 1].state
        assert leaf.hash == leaf_hash(leaf.record)
    assert list(read_leaves(store, batch=4)) == leaves


def test_the_heads_of_the_leaves_are_the_stored_heads(store: MatchStore) -> None:
    _interleaved(store)
    heads = heads_of(read_leaves(store))
    assert {(h.stream, h.version, h.hash) for h in heads} == set(store.heads())
    assert parse_heads(heads_text(heads)) == heads


@pytest.mark.parametrize("line", ["x 1 " + "0" * 64, "00" * 16 + " 0 " + "0" * 64,
                                  "00" * 16 + " 1 zz", "00" * 16 + " 1"])
def test_a_bad_heads_line_is_named(line: str) -> None:
    with pytest.raises(LeavesError, match="line 2"):
        parse_heads(f"{'00' * 16} 1 {'ab' * 32}\n{line}\n")


def test_a_tree_larger_than_the_store_is_refused(store: MatchStore) -> None:
    _interleaved(store)
    held = len(list(read_leaves(store)))
    assert tree_of(read_leaves(store), held - 1).size == held - 1
    with pytest.raises(LeavesError, match=f"holds {held} events"):
        tree_of(read_leaves(store), held + 1)


def test_every_event_of_a_match_is_proved_in_the_checkpoint(store: MatchStore) -> None:
    _interleaved(store)
    made = checkpoint_store(store, KEY, AT)
    match = next(read_leaves(store)).stream
    proof = match_proof(store, made.signed.checkpoint, match)
    stored = store.stored(match)
    assert [e["version"] for e in proof["events"]] == list(range(1, len(stored) + 1))
    root = bytes.fromhex(made.signed.checkpoint.root)
    for event, row in zip(proof["events"], stored, strict=True):
        assert event["record"].encode() == row.state
        assert verify_inclusion(leaf_hash(row.state), event["index"], proof["tree_size"],
                                [bytes.fromhex(p) for p in event["path"]], root)
    with pytest.raises(ProofError, match="no event among"):
        match_proof(store, made.signed.checkpoint, uuid4())


def test_no_proof_from_a_store_changed_since_the_checkpoint(store: MatchStore,
                                                            backend: Backend) -> None:
    _interleaved(store)
    made = checkpoint_store(store, KEY, AT)
    later = checkpoint_store(store, KEY, AT)
    with pytest.raises(ProofError, match="more events"):
        consistency_proof(store, Checkpoint("o", later.signed.checkpoint.size + 1, "00" * 32,
                                            "t"), made.signed.checkpoint)
    t = Tamperer.open(backend)
    try:
        row = t.rows()[0]
        t.set_state(row[0], row[3], row[4].replace(b'"anna"', b'"anny"'))
    finally:
        t.conn.close()
    with pytest.raises(ProofError, match="no longer hash"):
        match_proof(store, made.signed.checkpoint, row[1])
    with pytest.raises(ProofError, match="no longer hash"):
        consistency_proof(store, made.signed.checkpoint, later.signed.checkpoint)


def test_a_checkpoint_is_written_with_its_heads_and_never_overwritten(store: MatchStore,
                                                                     tmp_path: Path) -> None:
    _interleaved(store)
    made = checkpoint_store(store, KEY, AT)
    path = tmp_path / "cp.txt"
    assert read_heads(path) is None
    assert write_checkpoint(made, path) == tmp_path / "cp.txt.heads"
    assert read_checkpoint(path) == made.signed
    assert read_heads(path) == made.heads
    with pytest.raises(ProofError, match="never overwritten"):
        write_checkpoint(made, path)
    found = verify_against(store, read_checkpoint(path), KEY.public_key(), read_heads(path))
    assert found.root_holds and not found.findings


def test_a_leaf_is_an_export_line_without_its_hash(store: MatchStore) -> None:
    """Issue 23, 13: docs/audit-log.md said a leaf's bytes are exactly a line of `verbale
    export`; the line carries one more key, `hash`. Without it, canonical again, it is the leaf,
    and `hash` is SHA-256 of those bytes."""
    match = store.create_match(toy_setup(), START, BY)
    store.execute(match, next_command(store.load(match).state, Table(
        Seed(bytes(16)), toy_bot, Incidents()), START)[0], START, BY)   # type: ignore[index]
    leaves = [leaf for leaf in read_leaves(store) if leaf.stream == match]
    lines = list(export_jsonl(store, match))
    assert len(lines) == len(leaves) == 2
    for line, leaf in zip(lines, leaves, strict=True):
        assert line.encode("utf-8") != leaf.record
        record = json.loads(line)
        told = record.pop("hash")
        assert canonical_json(record) == leaf.record
        assert told == hashlib.sha256(leaf.record).hexdigest()
        assert leaf.hash == hashlib.sha256(b"\x00" + leaf.record).digest()
    docs = (Path(__file__).parents[3] / "docs" / "audit-log.md").read_text(encoding="utf-8")
    assert "exactly a line of `verbale export`" not in docs
    assert "a line of `verbale export` without its `hash` key" in docs
