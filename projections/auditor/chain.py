"""The `chain` check (docs/events.md section 1): versions 1..n, each `previous_hash` and each
`hash`, SHA-256 of the canonical JSON of the record without `hash` (every other key counts,
`recorded_by` included)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from .report import N_, Check, Findings, Line, say

GENESIS = "0" * 64


def canonical(value: object) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8")


def check_chain(lines: Sequence[Line]) -> Check:
    found = Findings()
    previous = GENESIS
    stream = lines[0].record["stream"]
    for line in lines:
        record = dict(line.record)
        claimed = record.pop("hash")
        if record["version"] != line.number:
            found.problem(N_("line {line}: version {version}, expected {line} (versions 1, 2, "
                             "... without gaps)"), line=line.number, version=record["version"])
        if record["stream"] != stream:
            found.problem(N_("line {line}: stream {stream}, not {expected}"), line=line.number,
                          stream=record["stream"], expected=stream)
        if record["previous_hash"] != previous:
            if line.number > 1:
                found.problem(N_("line {line}: previous_hash is not the hash of line "
                                 "{previous}"), line=line.number, previous=line.number - 1)
            else:
                found.problem(N_("line 1: previous_hash is not 64 zeros"))
        if hashlib.sha256(canonical(record)).hexdigest() != claimed:
            found.problem(N_("line {line}: hash does not match the line's content"),
                          line=line.number)
        previous = claimed
    return found.check("chain", say(N_("{events} events of stream {stream}, head {head}"),
                                    events=len(lines), stream=stream, head=previous))
