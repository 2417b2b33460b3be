"""`verify --against CHECKPOINT`: does the store still hold what the checkpoint signed?

The checkpoint's signature is checked with the log's public key; then the store's events are
read once in commit order: the first `size` of them must hash to the checkpoint's root (any
event changed, removed, inserted or reordered before the checkpoint breaks it). With the heads
published beside the checkpoint (their digest is a line of it) each stream is compared with its
head at the checkpoint, which names what happened to it: gone, cut back, or changed (its
events rewritten, even with every hash recomputed, or another match stored under its id).
Events stored after the checkpoint are counted per stream; events added to a match that had
already ended at the checkpoint (a ruling and a new result) are reported for the arbiter: only
the ruling's signature can tell a real late ruling from a forged one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from uuid import UUID

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from domain.record.audit import Severity
from domain.text import Said, say
from projections.audit_log.checkpoint import Checkpoint, CheckpointError, Signed, verify
from projections.audit_log.leaves import (
    HEADS_LINE,
    Leaf,
    StreamHead,
    heads_digest,
    parse_heads,
    read_leaves,
)
from projections.audit_log.merkle import Compact
from projections.store.app import MatchStore
from projections.store.canonical import GENESIS, event_hash, previous_hash_of
from projections.store.facts import TOPIC_OF

_ENDED = TOPIC_OF["MatchEnded"]


@dataclass(frozen=True, slots=True)
class Finding:
    stream: UUID | None
    kind: str              # root, missing, vanished, truncated, changed, chain, reopened
    message: Said
    severity: Severity = Severity.FAILURE


@dataclass(frozen=True, slots=True)
class Against:
    checkpoint: Checkpoint
    held: int                   # events in the store now
    root_holds: bool
    appended: int               # events stored after the checkpoint's
    new_streams: int            # streams the heads did not list (0 without heads)
    findings: tuple[Finding, ...]

    @property
    def failed(self) -> bool:
        return any(f.severity is Severity.FAILURE for f in self.findings)


@dataclass(slots=True)
class _Trail:
    """One stream as the scan met it (a private accumulator)."""

    last_version: int = 0
    last_hash: str = GENESIS
    broken_at: int | None = None
    hash_at_head: str | None = None    # the hash of its event at the checkpoint's head version
    ended_by: int | None = None        # the first MatchEnded's version
    after: list[tuple[int, str]] = field(default_factory=list)   # (version, type) past `upto`


def verify_against(store: MatchStore, signed: Signed, public: Ed25519PublicKey,
                   heads: str | None = None) -> Against:
    """The store compared with the signed checkpoint; CheckpointError when the signature or
    the heads do not hold."""
    verify(signed, public)
    checkpoint = signed.checkpoint
    listed = _heads(checkpoint, heads)
    edge, held, trails = _scan(read_leaves(store), checkpoint.size, listed)
    root_holds = held >= checkpoint.size and edge.root.hex() == checkpoint.root
    findings = [] if root_holds else _root_findings(checkpoint, held)
    if listed is not None:
        findings += _stream_findings(listed, trails)
    findings += _reopened(trails)
    appended = sum(len(t.after) for t in trails.values())
    new = 0 if listed is None else len(set(trails) - set(listed))
    return Against(checkpoint, held, root_holds, appended, new, tuple(findings))


def _heads(checkpoint: Checkpoint, heads: str | None) -> dict[UUID, StreamHead] | None:
    if heads is None:
        return None
    lines = [line for line in checkpoint.extensions if line.startswith(HEADS_LINE)]
    if lines != [heads_digest(heads)]:
        raise CheckpointError(say("the heads given are not the ones the checkpoint signed"))
    return {head.stream: head for head in parse_heads(heads)}


def _scan(leaves: Iterable[Leaf], size: int, listed: dict[UUID, StreamHead] | None
          ) -> tuple[Compact, int, dict[UUID, _Trail]]:
    """One pass: the root of the first `size` leaves, the count, and every stream's trail."""
    edge, pending, held = Compact(), [], 0
    trails: dict[UUID, _Trail] = {}
    for leaf in leaves:
        held += 1
        if leaf.index < size:
            pending.append(leaf.hash)
            if len(pending) == 4096:
                edge, pending = edge.extend(pending), []
        trail = trails.get(leaf.stream)
        if trail is None:
            trail = trails[leaf.stream] = _Trail()
        head = None if listed is None else listed.get(leaf.stream)
        upto = leaf.index < size if head is None else leaf.version <= head.version
        _follow(trail, leaf, head, upto)
    return edge.extend(pending), held, trails


def _follow(trail: _Trail, leaf: Leaf, head: StreamHead | None, upto: bool) -> None:
    hashed = event_hash(leaf.record)
    if trail.broken_at is None and (leaf.version != trail.last_version + 1 or
                                    previous_hash_of(leaf.record) != trail.last_hash):
        trail.broken_at = leaf.version
    if head is not None and leaf.version == head.version:
        trail.hash_at_head = hashed
    if not upto:
        trail.after.append((leaf.version, leaf.topic.rpartition(":")[2]))
    elif leaf.topic == _ENDED and trail.ended_by is None:
        trail.ended_by = leaf.version
    trail.last_version, trail.last_hash = leaf.version, hashed


def _root_findings(checkpoint: Checkpoint, held: int) -> list[Finding]:
    found = [Finding(None, "root", say(
        "the store's first {size} events do not hash to the checkpoint's root {root}: events "
        "stored before {time} were changed, removed, inserted or reordered",
        size=checkpoint.size, root=checkpoint.root, time=checkpoint.time))]
    if held < checkpoint.size:
        found.append(Finding(None, "missing", say(
            "the store holds {held} events, the checkpoint signed {size}", held=held,
            size=checkpoint.size)))
    return found


def _stream_findings(listed: dict[UUID, StreamHead], trails: dict[UUID, _Trail]
                     ) -> list[Finding]:
    found: list[Finding] = []
    for stream, head in listed.items():
        trail = trails.get(stream)
        if trail is None:
            found.append(Finding(stream, "vanished", say(
                "stream {stream} had {version} events at the checkpoint and is gone from the "
                "store", stream=str(stream), version=head.version)))
        elif trail.last_version < head.version:
            found.append(Finding(stream, "truncated", say(
                "stream {stream} had {version} events at the checkpoint, the store now holds "
                "{held}: its last events were removed", stream=str(stream),
                version=head.version, held=trail.last_version)))
        elif trail.hash_at_head != head.hash:
            found.append(Finding(stream, "changed", say(
                "stream {stream}: its events up to {version} are not the ones checkpointed "
                "(rewritten or replaced, whatever their hashes say)", stream=str(stream),
                version=head.version)))
        if trail is not None and trail.broken_at is not None:
            found.append(Finding(stream, "chain", say(
                "stream {stream}: the hash chain breaks at event {version}",
                stream=str(stream), version=trail.broken_at)))
    return found


def _reopened(trails: dict[UUID, _Trail]) -> list[Finding]:
    return [Finding(stream, "reopened", say(
        "stream {stream} had ended at the checkpoint (event {ended}); events {first}-{last} "
        "({types}) were stored after it: check who signed them",
        stream=str(stream), ended=trail.ended_by, first=trail.after[0][0],
        last=trail.after[-1][0], types=", ".join(kind for _, kind in trail.after)),
        Severity.FINDING)
        for stream, trail in sorted(trails.items(), key=lambda item: item[0].hex)
        if trail.ended_by is not None and trail.after]
