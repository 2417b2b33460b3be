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
What the late events say beyond their count (rulings' keys, the demo key, back-dating) is
judged in late.py. A stream whose checkpointed events are not what the store holds (gone, cut
back, changed, moved) is a failure: its later events are neither counted nor judged.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from uuid import UUID

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from domain.record.audit import Severity
from domain.record.clock import ClockError, parse_stamp
from domain.text import say
from projections.audit_log.checkpoint import Checkpoint, CheckpointError, Signed, verify
from projections.audit_log.late import (
    BackDated,
    Finding,
    Keys,
    LateSigner,
    demo_signed,
    imported,
    late_keys,
    timestamp_of,
    why_unanchored,
)
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
_KEY_REVOKED = TOPIC_OF["ArbiterKeyRevoked"]
_STREAM_KEY = b'"stream":"'

__all__ = ["Against", "Finding", "verify_against"]


@dataclass(frozen=True, slots=True)
class Against:
    checkpoint: Checkpoint
    held: int                   # events in the store now
    root_holds: bool
    appended: int               # events stored after the checkpoint's, in streams that hold
    # what it signed
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
    late_signers: list[LateSigner] = field(default_factory=list)   # each ruling past `upto`
    moved_from: tuple[int, str] | None = None   # the first event whose record names another
    # stream: (version, the stream it names)
    back_dated: BackDated = field(default_factory=BackDated)


def verify_against(store: MatchStore, signed: Signed, public: Ed25519PublicKey,
                   heads: str | None = None) -> Against:
    """The store compared with the signed checkpoint; CheckpointError when the signature or
    the heads do not hold."""
    verify(signed, public)
    checkpoint = signed.checkpoint
    listed = _heads(checkpoint, heads)
    keys = Keys()
    edge, held, trails = _scan(read_leaves(store), checkpoint, listed, keys)
    root_holds = held >= checkpoint.size and edge.root.hex() == checkpoint.root
    findings = [] if root_holds else _root_findings(checkpoint, held)
    if listed is not None:
        findings += _stream_findings(listed, trails)
    findings += _moved(trails)
    failed = {f.stream for f in findings if f.severity is Severity.FAILURE}
    sound = {stream: trail for stream, trail in trails.items() if stream not in failed}
    findings += _late_findings(sound, keys, checkpoint.time)
    findings += late_keys(keys)
    appended = sum(len(t.after) for t in sound.values())
    new = 0 if listed is None else len(set(trails) - set(listed))
    return Against(checkpoint, held, root_holds, appended, new, tuple(findings))


def _heads(checkpoint: Checkpoint, heads: str | None) -> dict[UUID, StreamHead] | None:
    if heads is None:
        return None
    lines = [line for line in checkpoint.extensions if line.startswith(HEADS_LINE)]
    if lines != [heads_digest(heads)]:
        raise CheckpointError(say("the heads given are not the ones the checkpoint signed"))
    return {head.stream: head for head in parse_heads(heads)}


def _scan(leaves: Iterable[Leaf], checkpoint: Checkpoint, listed: dict[UUID, StreamHead] | None,
          keys: Keys) -> tuple[Compact, int, dict[UUID, _Trail]]:
    """One pass: the root of the first `size` leaves, the count, and every stream's trail."""
    edge, pending, held, size = Compact(), [], 0, checkpoint.size
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
        _follow(trail, leaf, head, upto, keys)
        if not upto:
            _date(trail, leaf, checkpoint.time)
        if leaf.topic in (_KEY_REGISTERED, _KEY_REVOKED):
            keys.note(leaf.record, leaf.topic == _KEY_REGISTERED, upto, leaf.stream,
                      leaf.version)
    return edge.extend(pending), held, trails


def _date(trail: _Trail, leaf: Leaf, checkpoint_time: str) -> None:
    """Note `leaf`, stored after the checkpoint, if it is dated before it."""
    timestamp = timestamp_of(leaf.record)
    if timestamp is None:
        return
    try:
        earlier = parse_stamp(timestamp) < parse_stamp(checkpoint_time)
    except ClockError:
        return   # verify names a timestamp that is none
    if earlier:
        trail.back_dated.add(leaf.version, timestamp, imported(leaf.record))


def _named_stream(record: bytes) -> str | None:
    """The top-level `stream` of a canonical record (the last occurrence: keys are sorted, so
    it follows `data` and `recorded_by`)."""
    at = record.rfind(_STREAM_KEY)
    if at < 0:
        return None
    start = at + len(_STREAM_KEY)
    end = record.find(b'"', start)
    return record[start:end].decode("ascii", errors="replace") if end > 0 else None


def _follow(trail: _Trail, leaf: Leaf, head: StreamHead | None, upto: bool,
            keys: Keys) -> None:
    hashed = event_hash(leaf.record)
    if trail.broken_at is None and (leaf.version != trail.last_version + 1 or
                                    previous_hash_of(leaf.record) != trail.last_hash):
        trail.broken_at = leaf.version
    if trail.moved_from is None:
        named = _named_stream(leaf.record)
        if named is not None and named != str(leaf.stream):
            trail.moved_from = (leaf.version, named)
    if head is not None and leaf.version == head.version:
        trail.hash_at_head = hashed
    if not upto:
        trail.after.append((leaf.version, leaf.topic.rpartition(":")[2]))
        if leaf.topic == _RULING:
            trail.late_signers.append(keys.signer(leaf.record, leaf.version))
    elif leaf.topic == _ENDED and trail.ended_by is None:
        trail.ended_by = leaf.version
    elif leaf.topic == _RESUMED:
        trail.ended_by = None   # a ruling resumed it: in progress again at the checkpoint
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


def _moved(trails: dict[UUID, _Trail]) -> list[Finding]:
    return [Finding(stream, "moved", say(
        "stream {stream} holds events whose records name stream {named}, from event {version} "
        "on: events were moved between streams (their ids swapped or changed)",
        stream=str(stream), named=trail.moved_from[1], version=trail.moved_from[0]))
        for stream, trail in sorted(trails.items(), key=lambda item: item[0].hex)
        if trail.moved_from is not None]


def _late_findings(trails: dict[UUID, _Trail], keys: Keys, checkpoint_time: str
                   ) -> list[Finding]:
    """Per stream stored after the checkpoint: a match reopened, a ruling signed with the demo
    key, events back-dated."""
    found: list[Finding] = []
    for stream, trail in sorted(trails.items(), key=lambda item: item[0].hex):
        if trail.ended_by is not None and trail.after:
            found.append(_reopened_finding(stream, trail, keys))
        else:
            found += demo_signed(stream, trail.late_signers, keys)
        found += trail.back_dated.finding(stream, checkpoint_time)
    return found


def _before_resumption(after: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The events appended up to a MatchResumed: what follows one is the match going on after
    the ruling that resumed it (its own action), so it needs no ruling of its own."""
    kinds = [kind for _, kind in after]
    return after[:kinds.index("MatchResumed")] if "MatchResumed" in kinds else after


def _reopened_finding(stream: UUID, trail: _Trail, keys: Keys) -> Finding:
    """A note when every event appended is a ruling signed by a key the checkpoint held (or the
    result it restates); otherwise a finding naming the first event that is not."""
    where = {"stream": str(stream), "ended": trail.ended_by, "first": trail.after[0][0],
             "last": trail.after[-1][0],
             "types": ", ".join(kind for _, kind in trail.after)}
    reopening = _before_resumption(trail.after)
    last = reopening[-1][0] + 1 if reopening else 0
    others = [version for version, kind in reopening
              if kind not in ("RulingRecorded", "MatchEnded")]
    if not trail.late_signers or others:
        return Finding(stream, "reopened", say(
            "stream {stream} had ended at the checkpoint (event {ended}); events "
            "{first}-{last} ({types}) were stored after it without a signed ruling", **where),
            Severity.FINDING)
    for signer in trail.late_signers:
        why = why_unanchored(signer, keys) if signer.version <= last else None
        if why is not None:
            return Finding(stream, "reopened", say(
                "stream {stream} had ended at the checkpoint (event {ended}); events "
                "{first}-{last} ({types}) were stored after it: {why}", why=why, **where),
                Severity.FINDING)
    return Finding(stream, "reopened", say(
        "stream {stream} had ended at the checkpoint (event {ended}); events {first}-{last} "
        "({types}) were stored after it, each ruling signed by a key the checkpoint holds",
        **where), Severity.NOTE)
