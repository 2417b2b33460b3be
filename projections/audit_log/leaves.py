"""The audit log's leaves: every stored event, in commit order, as its canonical record.

The store's notification log is its commit order (the recorders number the rows as they commit:
SQLite's rowid, PostgreSQL's notification id under a table lock). Leaf i is the i-th stored
event in that order (counted, not its notification id, which PostgreSQL may skip), and its bytes
are the event's stored state: the canonical JSON record the hash chain covers
(projections/store/canonical.py), which names the stream, the version and the type. So the
leaf hash is SHA-256(0x00 ‖ record) and anyone holding an export line can recompute it.

The heads of a tree are, per stream, the last version among its leaves and that event's hash:
a checkpoint is published with them (checkpoint extension line `heads <sha256>`) so that
`verify --against` can say which stream changed when the root no longer matches.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from uuid import UUID

from domain.text import say
from projections.audit_log.merkle import MerkleTree, leaf_hash
from projections.store.app import MatchStore
from projections.store.canonical import event_hash

BATCH = 5000
HEADS_LINE = "heads "


class LeavesError(ValueError):
    """The store holds fewer events than a tree needs, or a heads list cannot be read (exit
    code 1: a failed check)."""

    exit_code = 1


@dataclass(frozen=True, slots=True)
class Leaf:
    index: int             # position in commit order, from 0
    notification_id: int
    stream: UUID
    version: int
    topic: str
    record: bytes          # the canonical record, as stored

    @property
    def hash(self) -> bytes:
        return leaf_hash(self.record)


def read_leaves(store: MatchStore, batch: int = BATCH) -> Iterator[Leaf]:
    """Every stored event in commit order, `batch` rows per query."""
    start: int | None = None
    index = 0
    while True:
        rows = store.recorder.select_notifications(start, batch, inclusive_of_start=False)
        for row in rows:
            stream = row.originator_id
            yield Leaf(index, row.id, stream if isinstance(stream, UUID) else UUID(stream),
                       row.originator_version, row.topic, bytes(row.state))
            index += 1
        if len(rows) < batch:
            return
        start = rows[-1].id


def tree_of(leaves: Iterable[Leaf], size: int | None = None) -> MerkleTree:
    """The tree of the first `size` leaves (all when None); LeavesError when there are fewer."""
    hashes = (leaf.hash for leaf in _first(leaves, size))
    tree = MerkleTree.of(hashes)
    if size is not None and tree.size < size:
        raise LeavesError(say("the store holds {held} events, fewer than the {size} of the "
                              "tree", held=tree.size, size=size))
    return tree


def _first(leaves: Iterable[Leaf], size: int | None) -> Iterator[Leaf]:
    for leaf in leaves:
        if size is not None and leaf.index >= size:
            return
        yield leaf


@dataclass(frozen=True, slots=True)
class StreamHead:
    stream: UUID
    version: int
    hash: str              # the event's SHA-256 (the chain's hash), hex

    def line(self) -> str:
        return f"{self.stream.hex} {self.version} {self.hash}\n"


def heads_of(leaves: Iterable[Leaf]) -> tuple[StreamHead, ...]:
    """Per stream, its last event among `leaves`, streams in id order."""
    last: dict[UUID, Leaf] = {}
    for leaf in leaves:
        last[leaf.stream] = leaf
    return tuple(StreamHead(stream, leaf.version, event_hash(leaf.record))
                 for stream, leaf in sorted(last.items(), key=lambda item: item[0].hex))


def heads_text(heads: Iterable[StreamHead]) -> str:
    """The heads as published beside a checkpoint: one `stream version hash` line each."""
    return "".join(head.line() for head in heads)


def heads_digest(text: str) -> str:
    """The checkpoint's extension line binding it to a heads text."""
    return HEADS_LINE + hashlib.sha256(text.encode("utf-8")).hexdigest()


def parse_heads(text: str) -> tuple[StreamHead, ...]:
    heads: list[StreamHead] = []
    for number, line in enumerate(text.splitlines(), start=1):
        parts = line.split(" ")
        try:
            stream, version = UUID(hex=parts[0]), int(parts[1])
            if len(parts) != 3 or len(parts[2]) != 64 or version < 1:
                raise ValueError(line)
            bytes.fromhex(parts[2])
        except (ValueError, IndexError):
            raise LeavesError(say("line {number} of the heads is not `stream version hash`: "
                                  "{line!r}", number=number, line=line)) from None
        heads.append(StreamHead(stream, version, parts[2]))
    return tuple(heads)
