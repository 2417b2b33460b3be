"""The `rulings` check: each `RulingRecorded` is signed (docs/events.md: class_version 2, a
`signature` with a key id of 64 and a signature of 128 hex digits); a ruling nobody signed fails,
but for one a transcribed match's importer read from the paper (a note). Given the exports of
the arbiters' keys streams (`verbale audit --keys`), each signature is verified as well: by a key
of the ruling's arbiter valid at its moment, over the ruling, the match and the head it extends,
with the package's Ed25519 (`ed25519.py`)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from .chain import canonical, check_chain
from .ed25519 import ed25519_verify
from .report import MALFORMED, N_, OK, Check, Findings, Line, say


def _hex(text: Any, digits: int) -> bool:
    return isinstance(text, str) and len(text) == digits and all(
        c in "0123456789abcdef" for c in text)


def check_rulings(lines: Sequence[Line], keys: Sequence[Sequence[Line]] = ()) -> Check:
    """Each `RulingRecorded` carries its arbiter's signature (docs/events.md, RulingRecorded):
    a key id and an Ed25519 signature of the right shape. Unsigned: a failure, but for a
    ruling of a transcribed match written by its importer (the paper is signed: a note). With
    the exports of the arbiters' keys streams (`keys`), each signature is verified too: by a
    key of its arbiter's, valid at the ruling's moment, over the ruling, the match and the head
    it extends."""
    found = Findings()
    created = lines[0].data if lines else {}
    provenance = created.get("provenance") if isinstance(created, dict) else None
    transcribed = isinstance(provenance, dict) and provenance.get("kind") == "transcribed"
    keyring = _keyring(keys, found) if keys else None
    count = signed = 0
    for line in lines:
        if line.type != "RulingRecorded":
            continue
        count += 1
        try:
            signed += _signed(line, transcribed, keyring, found)
        except MALFORMED as error:
            found.malformed(line, error)
    if count == 0:
        return found.check("rulings", say(N_("no RulingRecorded in the export")), skipped=True)
    if keys:
        return found.check("rulings", say(N_("{signed} of {count} rulings signed by a key of "
                                             "their arbiter, the signatures verified"),
                                          signed=signed, count=count))
    return found.check("rulings", say(N_("{signed} of {count} rulings signed (whose key signed "
                                         "them: verbale verify, with the arbiters' keys)"),
                                      signed=signed, count=count))


def _signed(line: Line, transcribed: bool, keyring: Mapping[str, _Key] | None,
            found: Findings) -> bool:
    """Whether the ruling on `line` is signed (by a key of the `keyring`, when given); what is
    wrong with its signature, or the note that a transcribed one was signed on paper, else."""
    signature = line.data.get("signature")
    by = line.record.get("recorded_by")
    if signature is None and transcribed and isinstance(by, dict) \
            and by.get("kind") == "importer":
        found.note(N_("line {line}: a transcribed ruling of arbiter {arbiter}: signed "
                      "on the paper it was read from, not in the record"),
                   line=line.number, arbiter=line.data["arbiter"])
    elif signature is None:
        found.problem(N_("line {line}: nobody signed this ruling of arbiter {arbiter}"),
                      line=line.number, arbiter=line.data["arbiter"])
    elif not (_hex(signature["key"], 64) and _hex(signature["value"], 128)):
        found.problem(N_("line {line}: the signature is not a key id of 64 and a "
                         "signature of 128 lowercase hex digits"), line=line.number)
    else:
        return keyring is None or _signed_by(line, keyring, found)
    return False


# A key: (arbiter, raw public key, registered at, revoked at or None); timestamps as written
# (the record's fixed-width UTC form sorts as text).
_Key = tuple[str, bytes, str, str | None]


def _keyring(exports: Sequence[Sequence[Line]], found: Findings) -> dict[str, _Key]:
    """The keys registered and revoked in the exports of arbiters' keys streams (each checked
    as a chain first: a broken one gives no keys)."""
    keys: dict[str, _Key] = {}
    for lines in exports:
        if not lines or check_chain(lines).status != OK:
            found.problem(N_("a keys export whose chain does not hold: its keys are not used"))
            continue
        for line in lines:
            try:
                data, at = line.data, str(line.record["timestamp"])
                if line.type == "ArbiterKeyRegistered":
                    public = bytes.fromhex(data["public_key"])
                    if hashlib.sha256(public).hexdigest() == data["key"]:
                        keys[data["key"]] = (str(data["arbiter"]), public, at, None)
                elif line.type == "ArbiterKeyRevoked" and data["key"] in keys:
                    arbiter, public, since, _ = keys[data["key"]]
                    keys[data["key"]] = (arbiter, public, since, at)
            except MALFORMED as error:
                found.malformed(line, error)
    return keys


def _signed_by(line: Line, keyring: Mapping[str, _Key], found: Findings) -> bool:
    """The ruling on `line` is signed by a key of its arbiter's, valid at its moment, over
    what docs/events.md says is signed; else a problem is noted."""
    data, record = line.data, line.record
    signature = data["signature"]
    key = keyring.get(signature["key"])
    at = str(record["timestamp"])
    if key is None or key[0] != data["arbiter"] or at < key[2] or (
            key[3] is not None and at >= key[3]):
        found.problem(N_("line {line}: key {key} is not a key of arbiter {arbiter} at the "
                         "ruling's moment (in the keys exports given)"), line=line.number,
                      key=str(signature["key"])[:16], arbiter=data["arbiter"])
        return False
    ruling = {k: v for k, v in data.items() if k != "signature"}
    message = canonical({"head": record["previous_hash"], "match": record["stream"],
                         "purpose": "verbale/ruling-v1", "ruling": ruling})
    if not ed25519_verify(key[1], message, bytes.fromhex(signature["value"])):
        found.problem(N_("line {line}: the signature is not arbiter {arbiter}'s of this ruling "
                         "after this head in this match"), line=line.number,
                      arbiter=data["arbiter"])
        return False
    return True
