"""What `verify --against` says of the events stored after a checkpoint (docs/audit-log.md).

Appending is what a log does, so most late events are only counted. Three things are not:
- a ruling on a match that had ended at the checkpoint is judged by its signature: a note when
  a key the checkpoint holds signed it, a finding when nobody did, or the public demo key, or a
  key no keys stream registers, or one registered after the checkpoint, or one revoked before
  the ruling was stored (`reopened`);
- a ruling signed with the demo key anywhere else (`demo-key`): anyone derives that key from
  the demo's public seed;
- an event stored after the checkpoint but dated before it (`back-dated`): an event's time
  cannot precede a checkpoint that does not hold it. A record the importer transcribed from
  paper carries its sheet's date (docs/notation.md, `Date`): when every such event of a stream
  was recorded by the importer, it is a note (`dated-on-paper`), not a finding.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from uuid import UUID

from domain.demo.matches import DEMO_ARBITER, DEMO_SEED, demo_key_seed
from domain.record.audit import Severity
from domain.text import Said, say
from projections.store.signatures import Signer

DEMO_KEY = Signer.from_seed(DEMO_ARBITER, demo_key_seed(DEMO_SEED)).key
"""The demo arbiter's key of the default demo set: public, whoever registered it."""
_TIMESTAMP_KEY = b'"timestamp":"'
_RECORDED_BY_KEY = b'"recorded_by":'
_IMPORTER = b'{"kind":"importer"'


@dataclass(frozen=True, slots=True)
class Finding:
    stream: UUID | None
    kind: str     # root, missing, vanished, truncated, changed, moved, chain, reopened,
    # demo-key, back-dated, dated-on-paper, new-key
    message: Said
    severity: Severity = Severity.FAILURE


@dataclass(frozen=True, slots=True)
class LateSigner:
    """A ruling stored after the checkpoint: where, the key that signed it (None: nobody),
    and whether that key's revocation was stored before it."""

    version: int
    key: str | None
    revoked: bool


@dataclass(slots=True)
class Keys:
    """Arbiters' keys as the scan met them: those the checkpoint holds, those registered after
    it (with where), the demo keys (registered by the simulator), and those revoked so far."""

    anchored: set[str] = field(default_factory=set)
    late: list[tuple[UUID, int, str, str]] = field(default_factory=list)  # stream, version,
    # arbiter, key
    demo: set[str] = field(default_factory=lambda: {DEMO_KEY})
    revoked: set[str] = field(default_factory=set)

    def note(self, record: bytes, registered: bool, upto: bool, stream: UUID,
             version: int) -> None:
        """An ArbiterKeyRegistered (`registered`) or ArbiterKeyRevoked met by the scan."""
        try:
            parsed = json.loads(record)
        except ValueError:
            return
        data = parsed.get("data") if isinstance(parsed, dict) else None
        if not isinstance(data, dict) or not isinstance(key := data.get("key"), str):
            return
        if not registered:
            self.revoked.add(key)
            return
        by = parsed.get("recorded_by")
        if isinstance(by, dict) and by.get("kind") == "simulator":
            self.demo.add(key)
        if upto:
            self.anchored.add(key)
        else:
            self.late.append((stream, version, str(data.get("arbiter")), key))

    def signer(self, record: bytes, version: int) -> LateSigner:
        key = _signing_key(record)
        return LateSigner(version, key, key is not None and key in self.revoked)


def _signing_key(record: bytes) -> str | None:
    try:
        parsed = json.loads(record)
    except ValueError:
        return None
    data = parsed.get("data") if isinstance(parsed, dict) else None
    signature = data.get("signature") if isinstance(data, dict) else None
    key = signature.get("key") if isinstance(signature, dict) else None
    return key if isinstance(key, str) else None


def imported(record: bytes) -> bool:
    """Whether a canonical record was recorded by the importer (its top-level envelope: keys are
    sorted, so `recorded_by` follows `data`, and a quote inside a string is escaped)."""
    at = record.rfind(_RECORDED_BY_KEY)
    return at >= 0 and record.startswith(_IMPORTER, at + len(_RECORDED_BY_KEY))


def timestamp_of(record: bytes) -> str | None:
    """The top-level `timestamp` of a canonical record, found without parsing it (keys are
    sorted: the top-level key follows `data`, so its last occurrence is the one)."""
    at = record.rfind(_TIMESTAMP_KEY)
    if at < 0:
        return None
    start = at + len(_TIMESTAMP_KEY)
    end = record.find(b'"', start)
    return record[start:end].decode("ascii", errors="replace") if end > 0 else None


def why_unanchored(signer: LateSigner, keys: Keys) -> Said | None:
    """Why a late ruling is not vouched for by a key the checkpoint holds (None: it is)."""
    key = signer.key
    where = {"version": signer.version}
    if key is None:
        return say("the ruling at event {version} is signed by nobody", **where)
    if key in keys.demo:
        return say("the ruling at event {version} is signed by the demo key {key}, which anyone "
                   "can derive from the demo's public seed", key=key[:16], **where)
    if key in keys.anchored and signer.revoked:
        return say("the ruling at event {version} is signed by key {key}, revoked before the "
                   "ruling was stored", key=key[:16], **where)
    if key in keys.anchored:
        return None
    if any(late == key for *_, late in keys.late):
        return say("the ruling at event {version} is signed by key {key}, registered after the "
                   "checkpoint: ask who registered it", key=key[:16], **where)
    return say("the ruling at event {version} is signed by key {key}, which no arbiter's keys "
               "stream registers", key=key[:16], **where)


def demo_signed(stream: UUID, signers: list[LateSigner], keys: Keys) -> list[Finding]:
    """A finding for the first late ruling of `stream` signed with a demo key."""
    for signer in signers:
        if signer.key is not None and signer.key in keys.demo:
            return [Finding(stream, "demo-key", say(
                "stream {stream}: the ruling at event {version}, stored after the checkpoint, "
                "is signed by the demo key {key}, which anyone can derive from the demo's "
                "public seed: it is no arbiter's signature", stream=str(stream),
                version=signer.version, key=signer.key[:16]), Severity.FINDING)]
    return []


def late_keys(keys: Keys) -> list[Finding]:
    return [Finding(stream, "new-key", say(
        "arbiter {arbiter}'s key {key} was registered after the checkpoint (event {version} "
        "of stream {stream}): a ruling it signs on a match ended before the checkpoint is "
        "reported", arbiter=arbiter, key=key[:16], version=version, stream=str(stream)),
        Severity.NOTE)
        for stream, version, arbiter, key in keys.late]


@dataclass(slots=True)
class BackDated:
    """A stream's events stored after the checkpoint but dated before it."""

    count: int = 0
    first: tuple[int, str] | None = None    # version, timestamp
    on_paper: bool = True    # every such event recorded by the importer (dated by its sheet)

    def add(self, version: int, timestamp: str, imported: bool) -> None:
        self.count += 1
        self.on_paper = self.on_paper and imported
        if self.first is None:
            self.first = (version, timestamp)

    def finding(self, stream: UUID, checkpoint_time: str) -> list[Finding]:
        if self.first is None:
            return []
        if self.on_paper:
            return [Finding(stream, "dated-on-paper", say(
                "stream {stream}: a record transcribed after the checkpoint ({checkpoint}), "
                "dated by its paper before it: {count} events, the first event {version} at "
                "{time}; a transcription carries the date written on its sheet",
                stream=str(stream), checkpoint=checkpoint_time, count=self.count,
                version=self.first[0], time=self.first[1]), Severity.NOTE)]
        return [Finding(stream, "back-dated", say(
            "stream {stream}: events stored after the checkpoint ({checkpoint}) but dated "
            "before it: {count}, the first event {version} at {time}; an event cannot precede "
            "a checkpoint that does not hold it (back-dated, or a record transcribed from "
            "paper after it)", stream=str(stream), checkpoint=checkpoint_time,
            count=self.count, version=self.first[0], time=self.first[1]), Severity.FINDING)]
