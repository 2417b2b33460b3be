"""The arbiters' signing keys: one stream per arbiter, its events the keys registered and revoked.

An arbiter's ruling is theirs when it carries a signature by a key registered for them, and not
revoked, at the ruling's moment (docs/events.md, RulingRecorded). Keys are facts of the record,
not rows of an accounts table: each one is an event chained and anchored like every other
(docs/audit-log.md, "Signed rulings"). The stream of arbiter NAME has the id
`keys_stream(NAME)`, so the keys of the arbiter a ruling names are read by one key lookup.

Pure: the key id is a SHA-256 (hashlib), nothing here signs or checks a signature.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field, replace
from datetime import datetime
from uuid import UUID, uuid5

from domain.record.events import ArbiterKeyRegistered, ArbiterKeyRevoked, KeyFact
from domain.record.refusal import RecordRefused
from domain.text import say

KEYS_NAMESPACE = UUID("5b1e0d4c-6a43-5f0e-9c53-7a1f0f2c9e11")
"""The namespace of the arbiters' keys streams (uuid5 of the arbiter's name in it)."""
_HEX64 = re.compile(r"[0-9a-f]{64}")


def keys_stream(arbiter: str) -> UUID:
    """The id of arbiter `arbiter`'s keys stream."""
    return uuid5(KEYS_NAMESPACE, "verbale/arbiter-keys-v1/" + arbiter)


def key_id(public_key: str) -> str:
    """The id of an Ed25519 public key (32 bytes, hex): the SHA-256 of its bytes, hex."""
    return hashlib.sha256(bytes.fromhex(public_key)).hexdigest()


@dataclass(frozen=True, slots=True)
class ArbiterKey:
    """A key of the keyring: whose, the public key, when registered and (if so) revoked."""

    arbiter: str
    public_key: str
    registered: datetime
    revoked: datetime | None = None


@dataclass(frozen=True, slots=True)
class Keyring:
    """One arbiter's keys stream folded: the keys by id, and the moment of its last event."""

    arbiter: str | None = None
    keys: dict[str, ArbiterKey] = field(default_factory=dict)
    last_at: datetime | None = None

    def active(self) -> tuple[str, ...]:
        """The ids of the keys not revoked, in the order registered."""
        return tuple(k for k, v in self.keys.items() if v.revoked is None)

    def refusal(self, arbiter: str, key: str, at: datetime) -> str | None:
        """Why key `key` did not sign for `arbiter` at `at` (a Said), or None: it did."""
        found = self.keys.get(key)
        if found is None or found.arbiter != arbiter:
            return say("key {key} is not a key registered for arbiter {arbiter}",
                       key=key[:16], arbiter=arbiter)
        if at < found.registered:
            return say("key {key} of arbiter {arbiter} was registered only after this ruling",
                       key=key[:16], arbiter=arbiter)
        if found.revoked is not None and at >= found.revoked:
            return say("key {key} of arbiter {arbiter} was revoked before this ruling",
                       key=key[:16], arbiter=arbiter)
        return None


def decide_register(keyring: Keyring, arbiter: str, public_key: str,
                    at: datetime) -> tuple[ArbiterKeyRegistered]:
    """Register `public_key` (32 bytes, hex) for `arbiter`; refused if malformed or known."""
    _check_stream(keyring, arbiter, at)
    if not _HEX64.fullmatch(public_key):
        raise RecordRefused("arbiter-key", say("an Ed25519 public key is 64 lowercase hex "
                                               "digits (32 bytes)"))
    made = key_id(public_key)
    if made in keyring.keys:
        raise RecordRefused("arbiter-key", say("key {key} is registered already",
                                               key=made[:16]))
    return (ArbiterKeyRegistered(arbiter=arbiter, key=made, public_key=public_key),)


def decide_revoke(keyring: Keyring, arbiter: str, key: str, reason: str,
                  at: datetime) -> tuple[ArbiterKeyRevoked]:
    """Revoke `arbiter`'s key `key`; refused if it is not theirs or already revoked."""
    _check_stream(keyring, arbiter, at)
    found = keyring.keys.get(key)
    if found is None:
        raise RecordRefused("arbiter-key", say("arbiter {arbiter} has no key {key}",
                                               arbiter=arbiter, key=key[:16]))
    if found.revoked is not None:
        raise RecordRefused("arbiter-key", say("key {key} is revoked already", key=key[:16]))
    if not reason.strip():
        raise RecordRefused("arbiter-key", say("a revocation says why"))
    return (ArbiterKeyRevoked(arbiter=arbiter, key=key, reason=reason),)


def _check_stream(keyring: Keyring, arbiter: str, at: datetime) -> None:
    if not arbiter.strip():
        raise RecordRefused("arbiter-key", say("a key belongs to a named arbiter"))
    if keyring.arbiter is not None and keyring.arbiter != arbiter:
        raise RecordRefused("arbiter-key", say("this keys stream is arbiter {owner}'s, not "
                                               "{arbiter}'s", owner=keyring.arbiter,
                                               arbiter=arbiter))
    if keyring.last_at is not None and at < keyring.last_at:
        raise RecordRefused("clock", say("the record only goes forward"))


def evolve_keyring(keyring: Keyring, event: KeyFact, at: datetime) -> Keyring:
    """The keyring after `event`, recorded at `at`."""
    keys = dict(keyring.keys)
    if isinstance(event, ArbiterKeyRegistered):
        keys[event.key] = ArbiterKey(event.arbiter, event.public_key, at)
    else:
        keys[event.key] = replace(keys[event.key], revoked=at)
    return Keyring(event.arbiter, keys, at)


def decide_again(keyring: Keyring, event: KeyFact, at: datetime) -> tuple[KeyFact, ...]:
    """What `decide` gives for the command that recorded `event`: the audit of a keys stream
    (verify) compares it with the event."""
    if isinstance(event, ArbiterKeyRegistered):
        return decide_register(keyring, event.arbiter, event.public_key, at)
    return decide_revoke(keyring, event.arbiter, event.key, event.reason, at)
