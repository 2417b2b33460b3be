"""Check a verbale audit-log checkpoint and a proof against it, with the standard library only.

    python3 verify_checkpoint.py --key audit.key.pub --checkpoint cp.txt [--proof proof.json]
    python3 verify_checkpoint.py --key audit.key.pub --checkpoint new.txt \\
        --old-checkpoint old.txt --proof consistency.json

The checkpoint's Ed25519 signature is checked with the public key (RFC 8032 section 5.1, written
out in projections/auditor/ed25519.py), then the proof: an inclusion proof shows that each listed
event (its canonical record) is a leaf of the signed tree (RFC 9162 section 2.1.3.2) and that
they form an unbroken hash chain up to the match's signed head; a consistency proof shows that
the old checkpoint's tree is a prefix of the new one's (RFC 9162 section 2.1.4.2,
projections/auditor/merkle.py). Exit status 0 and a line starting "OK" when everything holds, 1
and what failed otherwise, 2 for a usage error. Formats: docs/audit-log.md. It imports nothing
of verbale, on purpose: docs/verify_checkpoint.py is this module with the two it uses, in one
file an auditor copies (`python -m projections.auditor.standalone` writes it; a test checks it).
"""

from __future__ import annotations

import argparse
import base64
import binascii
import hashlib
import json
import sys
from typing import Any

from .ed25519 import ed25519_verify
from .merkle import consistent, inclusion_root, leaf_hash

# ---- the files ----

class Failed(Exception):
    """What did not hold (exit status 1)."""


def read_text(path: str, what: str) -> str:
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as error:
        raise Failed(f"cannot read the {what} {path}: {error}") from None


def read_public_key(path: str) -> bytes:
    text = read_text(path, "public key").strip()
    try:
        raw = bytes.fromhex(text) if len(text) == 64 else base64.b64decode(text, validate=True)
    except (ValueError, binascii.Error):
        raw = b""
    if len(raw) != 32:
        raise Failed(f"{path} is not an Ed25519 public key (32 bytes in base64 or hex)")
    return raw


def read_checkpoint(path: str, public: bytes) -> dict[str, Any]:
    """The checkpoint's fields, once its signature by `public` is checked."""
    body, sep, signatures = read_text(path, "checkpoint").partition("\n\n")
    lines = body.split("\n")
    if not sep or len(lines) < 4 or not lines[1].isdigit() or len(lines[2]) != 64:
        raise Failed(f"{path} is not a checkpoint (origin, size, root, time, empty line, "
                     "signature)")
    origin = lines[0]
    wanted = hashlib.sha256(public).digest()[:4]
    for line in signatures.split("\n"):
        if not line.startswith(f"\u2014 {origin} "):
            continue
        try:
            mark = base64.b64decode(line[len(origin) + 3:], validate=True)
        except binascii.Error:
            continue
        if len(mark) == 68 and mark[:4] == wanted:
            if not ed25519_verify(public, (body + "\n").encode("utf-8"), mark[4:]):
                raise Failed(f"{path}: the signature does not match the checkpoint's text")
            try:
                root = bytes.fromhex(lines[2])
            except ValueError:
                raise Failed(f"{path}: the root is not hex") from None
            heads = [line[len("heads "):] for line in lines[4:] if line.startswith("heads ")]
            return {"origin": origin, "size": int(lines[1]), "root": root, "time": lines[3],
                    "heads": heads}
    raise Failed(f"{path}: no signature by this public key (key id {wanted.hex()})")


def hashes(values: Any, where: str) -> list[bytes]:
    if not isinstance(values, list):
        raise Failed(f"{where} is not a list of hashes")
    try:
        found = [bytes.fromhex(v) for v in values]
    except (TypeError, ValueError):
        raise Failed(f"{where} is not a list of hex hashes") from None
    if any(len(h) != 32 for h in found):
        raise Failed(f"{where} holds a hash that is not 32 bytes")
    return found


def check_inclusion(proof: dict[str, Any], checkpoint: dict[str, Any]) -> str:
    size = proof.get("tree_size")
    if not isinstance(size, int) or size != checkpoint["size"]:
        raise Failed(f"the proof is for a tree of {size} leaves, the checkpoint's has "
                     f"{checkpoint['size']}")
    head = match_head(proof, checkpoint)
    events = proof.get("events")
    if not isinstance(events, list) or not events:
        raise Failed("the proof lists no events")
    records: list[bytes] = []
    for number, event in enumerate(events):
        where = f"event {number + 1} of the proof"
        if not isinstance(event, dict):
            raise Failed(f"{where} is not an object")
        if "record" not in event:
            raise Failed(f"{where} carries no record: the chain and the match's head cannot "
                         "be checked")
        data = str(event["record"]).encode("utf-8")
        records.append(data)
        index = event.get("index")
        if not isinstance(index, int):
            raise Failed(f"{where} has no leaf index")
        if inclusion_root(leaf_hash(data), index, size, hashes(event.get("path"), where)) \
                != checkpoint["root"]:
            raise Failed(f"{where} (leaf {index}) is not in the signed tree")
    told = check_chain(records, proof.get("match"))
    check_whole(records, proof.get("match"), head)
    return f"{len(events)} leaves{told}, the whole match up to its head"


def match_head(proof: dict[str, Any], checkpoint: dict[str, Any]) -> tuple[int, str]:
    """The match's version and last event hash in the heads the checkpoint signed."""
    if proof.get("format") != "verbale-inclusion-proof/2":
        raise Failed(f"a proof of format {proof.get('format')} cannot show that it holds every "
                     "event of the match (it has no heads): make it again with 'verbale prove'")
    heads = proof.get("heads")
    if not isinstance(heads, str):
        raise Failed("the proof carries no heads")
    if checkpoint["heads"] != [hashlib.sha256(heads.encode("utf-8")).hexdigest()]:
        raise Failed("the proof's heads are not the ones the checkpoint signed")
    match = str(proof.get("match")).replace("-", "").lower()
    for line in heads.splitlines():
        parts = line.split(" ")
        if len(parts) == 3 and parts[0] == match and parts[1].isdigit():
            return int(parts[1]), parts[2]
    raise Failed(f"the checkpoint's heads do not list match {proof.get('match')}")


def check_whole(records: list[bytes], match: Any, head: tuple[int, str]) -> None:
    """The chain (checked already) starts at event 1 and ends at the match's head."""
    first, last = json.loads(records[0]), json.loads(records[-1])
    if first.get("version") != 1:
        raise Failed(f"the proof starts at event {first.get('version')} of {match}, not at its "
                     "first")
    if last.get("version") != head[0]:
        raise Failed(f"the proof ends at event {last.get('version')} of {match}; the "
                     f"checkpoint's heads say the match had {head[0]} events: its last events "
                     "are missing")
    if hashlib.sha256(records[-1]).hexdigest() != head[1]:
        raise Failed(f"event {head[0]} of the proof is not the match's head at the checkpoint")


def check_chain(records: list[bytes], match: Any) -> str:
    """The records, in order, are one stream's consecutive events, each carrying the hash of
    the one before it."""
    parsed = []
    for data in records:
        try:
            record = json.loads(data)
        except ValueError:
            raise Failed("a record of the proof is not JSON") from None
        canonical = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        if not isinstance(record, dict) or canonical.encode("utf-8") != data:
            raise Failed("a record of the proof is not canonical JSON")
        parsed.append(record)
    first = parsed[0]
    if match is not None and first.get("stream") != match:
        raise Failed(f"the records are of stream {first.get('stream')}, not {match}")
    if first.get("version") == 1 and first.get("previous_hash") != "0" * 64:
        raise Failed("event 1 does not start the chain")
    for before, after, data in zip(parsed, parsed[1:], records, strict=False):
        if after.get("stream") != first.get("stream") or \
                after.get("version") != before.get("version", 0) + 1:
            raise Failed(f"the records skip from event {before.get('version')} to "
                         f"{after.get('version')}")
        if after.get("previous_hash") != hashlib.sha256(data).hexdigest():
            raise Failed(f"event {after.get('version')} does not carry the hash of the event "
                         "before it")
    last = parsed[-1]
    return (f" (events {first.get('version')}-{last.get('version')} of {first.get('stream')},"
            f" chain intact, last {last.get('type')})")


def check(args: argparse.Namespace) -> str:
    public = read_public_key(args.key)
    new = read_checkpoint(args.checkpoint, public)
    said = f"checkpoint of {new['origin']}: {new['size']} leaves at {new['time']}"
    if args.proof is None:
        return said
    try:
        proof = json.loads(read_text(args.proof, "proof"))
    except ValueError:
        raise Failed(f"{args.proof} is not JSON") from None
    kind = proof.get("format") if isinstance(proof, dict) else None
    if kind in ("verbale-inclusion-proof/1", "verbale-inclusion-proof/2"):
        return f"{check_inclusion(proof, new)}, in the {said}"
    if kind != "verbale-consistency-proof/1":
        raise Failed(f"{args.proof} is not a verbale proof (format {kind!r})")
    if args.old_checkpoint is None:
        raise Failed("a consistency proof needs --old-checkpoint")
    old = read_checkpoint(args.old_checkpoint, public)
    if (proof.get("old_size"), proof.get("new_size")) != (old["size"], new["size"]):
        raise Failed(f"the proof is from {proof.get('old_size')} to {proof.get('new_size')} "
                     f"leaves, the checkpoints have {old['size']} and {new['size']}")
    if not consistent(old["size"], new["size"], old["root"], new["root"],
                      hashes(proof.get("path"), "the consistency path")):
        raise Failed(f"the tree of {old['size']} leaves is not a prefix of the {said}")
    return f"the tree of {old['size']} leaves at {old['time']} is a prefix of the {said}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--key", required=True, help="the log's public key file")
    parser.add_argument("--checkpoint", required=True, help="the signed checkpoint")
    parser.add_argument("--proof", help="an inclusion or consistency proof (JSON)")
    parser.add_argument("--old-checkpoint", help="the earlier checkpoint, for consistency")
    args = parser.parse_args(argv)
    try:
        print(f"OK {check(args)}")
        return 0
    except Failed as failure:
        print(f"FAILED {failure}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
