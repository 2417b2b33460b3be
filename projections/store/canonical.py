"""Canonical JSON and the hash chain, as docs/events.md specifies them for an auditor.

The stored state of an event is the canonical JSON of its record (every field but its own hash):
UTF-8, object keys sorted by code point, no whitespace, no floats, non-ASCII characters written
as themselves. Its hash is SHA-256 of exactly those bytes, in lowercase hex. Each record carries
`previous_hash`, the hash of the event before it in the same stream (GENESIS for the first), so
any change, removal, insertion or reordering breaks the chain at a named event.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

GENESIS = "0" * 64
_PREVIOUS_KEY = b',"previous_hash":"'


class CanonicalError(ValueError):
    """A value that canonical JSON does not represent (a float, a non-string key...)."""


def canonical_json(value: Any, *, checked: bool = True) -> bytes:
    """`checked=False` skips the walk that refuses floats: for values just parsed from bytes
    whose canonical form is being compared with those bytes."""
    if checked:
        _check(value, "$")
    return json.dumps(value, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False, allow_nan=False).encode("utf-8")


def _check(value: Any, where: str) -> None:
    if isinstance(value, float):
        raise CanonicalError(f"{where}: floats are not allowed in the record ({value!r})")
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise CanonicalError(f"{where}: key {key!r} is not a string")
            _check(item, f"{where}.{key}")
    elif isinstance(value, list | tuple):
        for position, item in enumerate(value):
            _check(item, f"{where}[{position}]")


def event_hash(state: bytes) -> str:
    return hashlib.sha256(state).hexdigest()


def previous_hash_of(state: bytes) -> str | None:
    """The top-level `previous_hash` of a canonical record, found without parsing it.

    Keys are sorted, so the top-level key follows `data` (and everything nested in it): the last
    occurrence is the top-level one. The recorder uses this on every write; verify parses fully.
    """
    at = state.rfind(_PREVIOUS_KEY)
    if at < 0:
        return None
    start = at + len(_PREVIOUS_KEY)
    return state[start:start + 64].decode("ascii", errors="replace")
