"""Signed rulings: what an arbiter signs, the signing, the keys streams and the check.

A ruling (`RulingRecorded`, class_version 2) carries its arbiter's Ed25519 signature over the
canonical JSON (canonical.py) of

    {"head": <hash of the stream's last event before the ruling>, "match": <stream id>,
     "purpose": "verbale/ruling-v1", "ruling": <the ruling's data without `signature`>}

so it binds the ruling's content to the one place in the one match it extends: moved to another
match, after another head, or changed in any field, it no longer verifies. A Tarocchi penalty
(`PenaltyImposed`, an arbiter's ruling of art. 7-8) is signed the same way: its data without
`signature` as "ruling", the tournament's stream as "match". The key is one
registered for that arbiter in their keys stream (domain/record/arbiter_keys.py) and not revoked
at the ruling's moment. docs/events.md (RulingRecorded, ArbiterKeyRegistered) says it for an
auditor; docs/audit-log.md ("Signed rulings") says what it protects against.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TypeVar, cast
from uuid import UUID

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from msgspec import structs

from domain.record.arbiter_keys import (
    Keyring,
    decide_again,
    decide_register,
    decide_revoke,
    evolve_keyring,
    key_id,
    keys_stream,
)
from domain.record.clock import parse_stamp
from domain.record.commands import RecordRuling
from domain.record.envelope import RecordedBy
from domain.record.events import (
    ArbiterKeyRegistered,
    ArbiterKeyRevoked,
    KeyFact,
    RulingRecorded,
    RulingSignature,
)
from domain.tarocchi.events import PenaltyImposed
from domain.text import said_of, say
from projections.store.app import Loaded, MatchStore, chain_facts
from projections.store.canonical import GENESIS, canonical_json, event_hash
from projections.store.codec import encode
from projections.store.facts import StoredFact

PURPOSE = "verbale/ruling-v1"


Signed = TypeVar("Signed", RecordRuling, PenaltyImposed)
"""What an arbiter signs: a card game's ruling (as asked) or a Tarocchi penalty (as decided)."""


def signed_bytes(ruling: RulingRecorded | RecordRuling | PenaltyImposed, match: UUID | str,
                 head: str) -> bytes:
    """The bytes an arbiter signs for `ruling` recorded in `match` right after `head`."""
    if isinstance(ruling, PenaltyImposed):
        content = encode(structs.replace(ruling, signature=None))
    else:
        content = encode(RulingRecorded(arbiter=ruling.arbiter, reason=ruling.reason,
                                        kind=ruling.kind, smazzata=ruling.smazzata,
                                        adjustment=ruling.adjustment,
                                        refers_to=ruling.refers_to))
    del content["signature"]
    return canonical_json({"head": head, "match": str(match), "purpose": PURPOSE,
                           "ruling": content})


@dataclass(frozen=True, slots=True)
class Signer:
    """An arbiter's private key, in memory only for the moment of signing."""

    arbiter: str
    private_key: Ed25519PrivateKey

    @classmethod
    def from_seed(cls, arbiter: str, seed: bytes) -> Signer:
        """The key whose 32-byte private seed is `seed` (the demo's key: domain/demo/matches.py)."""
        return cls(arbiter, Ed25519PrivateKey.from_private_bytes(seed))

    @property
    def public_key(self) -> str:
        return self.private_key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()

    @property
    def key(self) -> str:
        return key_id(self.public_key)

    def sign(self, command: Signed, match: UUID | str, head: str) -> Signed:
        """`command` (of this arbiter) signed for the match `match` whose head is `head`."""
        if command.arbiter != self.arbiter:
            raise ValueError(say("arbiter {signer} cannot sign a ruling of arbiter {arbiter}",
                                 signer=self.arbiter, arbiter=command.arbiter))
        value = self.private_key.sign(signed_bytes(command, match, head)).hex()
        signature = RulingSignature(key=self.key, value=value)
        if isinstance(command, PenaltyImposed):   # an event: a msgspec Struct
            return structs.replace(command, signature=signature)
        return replace(command, signature=signature)


def signature_refusal(ruling: RulingRecorded | PenaltyImposed, match: UUID | str, head: str,
                      keyring: Keyring, at: datetime) -> str | None:
    """Why `ruling`, recorded at `at` in `match` after `head`, is not its arbiter's signed
    ruling (a Said), or None: it is."""
    signed = ruling.signature
    if signed is None:
        return say("nobody signed this ruling of arbiter {arbiter}", arbiter=ruling.arbiter)
    refused = keyring.refusal(ruling.arbiter, signed.key, at)
    if refused is not None:
        return refused
    public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(
        keyring.keys[signed.key].public_key))
    try:
        public.verify(bytes.fromhex(signed.value), signed_bytes(ruling, match, head))
    except (InvalidSignature, ValueError):
        return say("the signature by key {key} is not arbiter {arbiter}'s signature of this "
                   "ruling after this head in this match: the ruling, its place or the match "
                   "was changed", key=signed.key[:16], arbiter=ruling.arbiter)
    return None


# ---- the keys streams -------------------------------------------------------------------------

def load_keyring(store: MatchStore, arbiter: str) -> Loaded:
    """Arbiter `arbiter`'s keys stream folded (an empty keyring if they have none)."""
    stream = keys_stream(arbiter)
    stored = store.stored(stream)
    keyring = Keyring()
    for row in stored:
        fact = cast(StoredFact, store.mapper.to_domain_event(row))
        keyring = evolve_keyring(keyring, fact.to_domain(), parse_stamp(fact.timestamp))
    return Loaded(stream, keyring, len(stored), event_hash(stored[-1].state) if stored
                  else GENESIS)


def register_key(store: MatchStore, arbiter: str, public_key: str, at: datetime,
                 by: RecordedBy) -> str:
    """Append ArbiterKeyRegistered to `arbiter`'s keys stream; the key's id."""
    loaded = load_keyring(store, arbiter)
    events = decide_register(cast(Keyring, loaded.state), arbiter, public_key, at)
    _append(store, loaded, events, at, by)
    return events[0].key


def revoke_keys(store: MatchStore, arbiter: str, reason: str, at: datetime,
                by: RecordedBy, keep: str | None = None,
                only: Collection[str] | None = None) -> tuple[str, ...]:
    """Revoke every active key of `arbiter` but `keep` (of those in `only`, when given), in one
    transaction; their ids."""
    loaded = load_keyring(store, arbiter)
    keyring = cast(Keyring, loaded.state)
    events: list[KeyFact] = []
    for key in keyring.active():
        if key != keep and (only is None or key in only):
            (event,) = decide_revoke(keyring, arbiter, key, reason, at)
            keyring = evolve_keyring(keyring, event, at)
            events.append(event)
    if events:
        _append(store, loaded, events, at, by)
    return tuple(e.key for e in events)


def demo_keys(store: MatchStore, arbiter: str) -> tuple[str, ...]:
    """The keys of `arbiter` that the simulator registered: demo keys, which anyone derives
    from the demo's public seed (domain/demo/matches.py)."""
    found = []
    for row in store.stored(keys_stream(arbiter)):
        fact = cast(StoredFact, store.mapper.to_domain_event(row))
        event, by = fact.to_domain(), fact.recorded_by
        if isinstance(event, ArbiterKeyRegistered) and isinstance(by, dict) and \
                by.get("kind") == "simulator":
            found.append(event.key)
    return tuple(found)


def ensure_registered(store: MatchStore, signer: Signer, at: datetime, by: RecordedBy) -> None:
    """Register `signer`'s key unless it is registered already (a demo run again adds nothing).
    The registration is dated `at`, or the keys stream's last moment if that is later."""
    loaded = load_keyring(store, signer.arbiter)
    keyring = cast(Keyring, loaded.state)
    if signer.key in keyring.keys:
        return
    moment = at if keyring.last_at is None or keyring.last_at <= at else keyring.last_at
    register_key(store, signer.arbiter, signer.public_key, moment, by)


def _append(store: MatchStore, loaded: Loaded, events: Iterable[KeyFact], at: datetime,
            by: RecordedBy) -> None:
    facts, _ = chain_facts(loaded.stream, loaded.version, loaded.head, list(events), at, by)
    store._save(facts)   # the store's one way to save chained facts (a ConcurrencyConflict)


def execute_signed(store: MatchStore, match: UUID, command: RecordRuling, signer: Signer,
                   at: datetime, by: RecordedBy) -> Loaded:
    """Sign `command` over the match's current head and record it, on exactly the state it
    was signed for: another writer's append in between is a ConcurrencyConflict."""
    loaded = store.load(match)
    return store.execute(match, signer.sign(command, match, loaded.head), at, by, loaded)


def audit_keys(stream: UUID, decoded: Iterable[tuple[object, datetime]]) -> list[tuple[int, str]]:
    """A keys stream replayed: each event is what deciding it again gives, in the stream of
    the arbiter it names. (version, message) of the first that is not; nothing: sound."""
    keyring = Keyring()
    for version, (event, at) in enumerate(decoded, start=1):
        if not isinstance(event, ArbiterKeyRegistered | ArbiterKeyRevoked):
            return [(version, say("a keys stream holds only the keys registered and revoked, "
                                  "not {type}", type=type(event).__name__))]
        if keys_stream(event.arbiter) != stream:
            return [(version, say("a key of arbiter {arbiter} recorded outside their keys "
                                  "stream", arbiter=event.arbiter))]
        try:
            expected = decide_again(keyring, event, at)
        except ValueError as error:
            return [(version, said_of(error) or str(error))]
        if expected != (event,):
            return [(version, say("recorded {event}, expected {expected}", event=str(event),
                                  expected=str(expected)))]
        keyring = evolve_keyring(keyring, event, at)
    return []


class KeyringCache:
    """The keyrings verify reads, each arbiter's once per run."""

    def __init__(self, store: MatchStore) -> None:
        self._store = store
        self._found: dict[str, Keyring] = {}

    def __call__(self, arbiter: str) -> Keyring:
        found = self._found.get(arbiter)
        if found is None:
            try:
                found = cast(Keyring, load_keyring(self._store, arbiter).state)
            except Exception:   # a broken keys stream: its own verdict says why; no keys here
                found = Keyring()
            self._found[arbiter] = found
        return found


@dataclass(frozen=True, slots=True)
class RulingRow:
    """What the check of one ruling needs of its stored record."""

    version: int
    previous_hash: str
    recorded_by: str | None   # the envelope's kind; None: a record before the envelope
    event: object
    at: datetime


def ruling_problems(rows: Iterable[RulingRow], match: UUID, keyrings: KeyringCache,
                    transcribed: bool) -> list[tuple[int, str, bool]]:
    """(version, message, failure) for each ruling of a match (or penalty of a Tarocchi
    tournament) that is not its arbiter's signed ruling. In a transcribed match (every Tarocchi
    tournament), an unsigned ruling the importer wrote from the paper is a note (False), not a
    failure: its arbiter signed the paper, not the record."""
    found: list[tuple[int, str, bool]] = []
    for row in rows:
        event = row.event
        if not isinstance(event, RulingRecorded | PenaltyImposed):
            continue
        if event.signature is None and transcribed and row.recorded_by == "importer":
            found.append((row.version, say("a transcribed ruling of arbiter {arbiter}: it is "
                                           "signed on the paper it was read from, not in the "
                                           "record", arbiter=event.arbiter), False))
            continue
        refused = signature_refusal(event, match, row.previous_hash, keyrings(event.arbiter),
                                    row.at)
        if refused is not None:
            found.append((row.version, refused, True))
    return found
