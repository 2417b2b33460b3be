"""`verify --against CHECKPOINT`: does the store still hold what the checkpoint signed?

The checkpoint's signature is checked with the log's public key; then the store's events are
read once in commit order: the first `size` of them must hash to the checkpoint's root (any
event changed, removed, inserted or reordered before the checkpoint breaks it). With the heads
published beside the checkpoint (their digest is a line of it) each stream is compared with its
head at the checkpoint, which names what happened to it: gone, cut back, or changed (its
events rewritten, even with every hash recomputed, or another match stored under its id).
Events stored after the checkpoint are counted per stream; events added to a match that had
already ended at the checkpoint (a ruling and a new result) are reported: only the ruling's
signature can tell a real late ruling from a forged one. `verify` checks that signature against
the keys registered in the store; the checkpoint adds what the store alone cannot say, whether
the key was registered before it. A late ruling signed by a key the checkpoint already held is a
note; one signed by a key registered since, or by nobody, or anything else appended to an ended
match, is a finding for the arbiter (someone with write access can register a key of their own).
"""

from __future__ import annotations

import json
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
_RESUMED = TOPIC_OF["MatchResumed"]
_RULING = TOPIC_OF["RulingRecorded"]
_KEY_REGISTERED = TOPIC_OF["ArbiterKeyRegistered"]


@dataclass(frozen=True, slots=True)
class Finding:
    stream: UUID | None
    kind: str              # root, missing, vanished, truncated, changed, chain, reopened, new-key
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

    @property
    def flagged(self) -> bool:
        """A failure, or a finding the arbiter must look at (`verify --against` exits 1); notes
        only are not."""
        return any(f.severity >= Severity.FINDING for f in self.findings)


@dataclass(slots=True)
class _Trail:
    """One stream as the scan met it (a private accumulator)."""

    last_version: int = 0
    last_hash: str = GENESIS
    broken_at: int | None = None
    hash_at_head: str | None = None    # the hash of its event at the checkpoint's head version
    ended_by: int | None = None        # the first MatchEnded's version
    after: list[tuple[int, str]] = field(default_factory=list)   # (version, type) past `upto`
    late_signers: list[tuple[int, str | None]] = field(default_factory=list)
    """(version, signing key id or None) of each ruling past `upto`."""


@dataclass(slots=True)
class _Keys:
    """Arbiters' keys as the scan met their registrations: those the checkpoint holds, and
    those registered after it, with where."""

    anchored: set[str] = field(default_factory=set)
    late: list[tuple[UUID, int, str, str]] = field(default_factory=list)  # stream, version,
    # arbiter, key


def verify_against(store: MatchStore, signed: Signed, public: Ed25519PublicKey,
                   heads: str | None = None) -> Against:
    """The store compared with the signed checkpoint; CheckpointError when the signature or
    the heads do not hold."""
    verify(signed, public)
    checkpoint = signed.checkpoint
    listed = _heads(checkpoint, heads)
    keys = _Keys()
    edge, held, trails = _scan(read_leaves(store), checkpoint.size, listed, keys)
    root_holds = held >= checkpoint.size and edge.root.hex() == checkpoint.root
    findings = [] if root_holds else _root_findings(checkpoint, held)
    if listed is not None:
        findings += _stream_findings(listed, trails)
    findings += _reopened(trails, keys.anchored)
    findings += _late_keys(keys)
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


def _scan(leaves: Iterable[Leaf], size: int, listed: dict[UUID, StreamHead] | None,
          keys: _Keys) -> tuple[Compact, int, dict[UUID, _Trail]]:
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
        if leaf.topic == _KEY_REGISTERED:
            _note_key(keys, leaf, upto)
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
        if leaf.topic == _RULING:
            trail.late_signers.append((leaf.version, _signing_key(leaf.record)))
    elif leaf.topic == _ENDED and trail.ended_by is None:
        trail.ended_by = leaf.version
    elif leaf.topic == _RESUMED:
        trail.ended_by = None   # a ruling resumed it: in progress again at the checkpoint
    trail.last_version, trail.last_hash = leaf.version, hashed


def _data(record: bytes) -> dict[str, object]:
    """The `data` of a stored record; empty when it cannot be read (verify reports that)."""
    try:
        data = json.loads(record).get("data")
    except (ValueError, AttributeError):
        return {}
    return data if isinstance(data, dict) else {}


def _signing_key(record: bytes) -> str | None:
    signature = _data(record).get("signature")
    key = signature.get("key") if isinstance(signature, dict) else None
    return key if isinstance(key, str) else None


def _note_key(keys: _Keys, leaf: Leaf, upto: bool) -> None:
    data = _data(leaf.record)
    key, arbiter = data.get("key"), data.get("arbiter")
    if not isinstance(key, str):
        return
    if upto:
        keys.anchored.add(key)
    else:
        keys.late.append((leaf.stream, leaf.version, str(arbiter), key))


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


def _reopened(trails: dict[UUID, _Trail], anchored: set[str]) -> list[Finding]:
    return [_reopened_finding(stream, trail, anchored)
            for stream, trail in sorted(trails.items(), key=lambda item: item[0].hex)
            if trail.ended_by is not None and trail.after]


def _before_resumption(after: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The events appended up to a MatchResumed: what follows one is the match going on after
    the ruling that resumed it (its own action), so it needs no ruling of its own."""
    kinds = [kind for _, kind in after]
    return after[:kinds.index("MatchResumed")] if "MatchResumed" in kinds else after


def _reopened_finding(stream: UUID, trail: _Trail, anchored: set[str]) -> Finding:
    """A note when every event appended is a ruling signed by a key the checkpoint held (or the
    result it restates); otherwise a finding naming the first event that is not."""
    where = {"stream": str(stream), "ended": trail.ended_by, "first": trail.after[0][0],
             "last": trail.after[-1][0],
             "types": ", ".join(kind for _, kind in trail.after)}
    reopening = _before_resumption(trail.after)
    last = reopening[-1][0] + 1 if reopening else 0
    unanchored = [(version, key) for version, key in trail.late_signers
                  if (key is None or key not in anchored) and version <= last]
    others = [version for version, kind in reopening
              if kind not in ("RulingRecorded", "MatchEnded")]
    if not trail.late_signers or others:
        return Finding(stream, "reopened", say(
            "stream {stream} had ended at the checkpoint (event {ended}); events "
            "{first}-{last} ({types}) were stored after it without a signed ruling", **where),
            Severity.FINDING)
    if unanchored:
        version, key = unanchored[0]
        if key is None:
            return Finding(stream, "reopened", say(
                "stream {stream} had ended at the checkpoint (event {ended}); events "
                "{first}-{last} ({types}) were stored after it: the ruling at event {version} "
                "is signed by nobody", version=version, **where), Severity.FINDING)
        return Finding(stream, "reopened", say(
            "stream {stream} had ended at the checkpoint (event {ended}); events "
            "{first}-{last} ({types}) were stored after it: the ruling at event {version} is "
            "signed by key {key}, registered after the checkpoint: ask who registered it",
            version=version, key=key[:16], **where), Severity.FINDING)
    return Finding(stream, "reopened", say(
        "stream {stream} had ended at the checkpoint (event {ended}); events {first}-{last} "
        "({types}) were stored after it, each ruling signed by a key the checkpoint holds",
        **where), Severity.NOTE)


def _late_keys(keys: _Keys) -> list[Finding]:
    return [Finding(stream, "new-key", say(
        "arbiter {arbiter}'s key {key} was registered after the checkpoint (event {version} "
        "of stream {stream}): a ruling it signs on a match ended before the checkpoint is "
        "reported", arbiter=arbiter, key=key[:16], version=version, stream=str(stream)),
        Severity.NOTE)
        for stream, version, arbiter, key in keys.late]
